// hostile_bot's attacks on isolation (modes documented in hostile_bot.cpp): what a bot may read
// of the referee and the other bots, and what it can leave behind.

#include <dirent.h>
#include <fcntl.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cstddef>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include "hostile.hpp"

namespace hostile {

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Readable means at least one byte came back (a masked file reads as empty).
bool readable(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return false;
  char c = 0;
  const bool got = ::read(fd, &c, 1) == 1;
  ::close(fd);
  return got;
}

bool matches_output(const std::string& name) {
  auto ends = [&](const char* suffix) {
    const std::size_t n = std::strlen(suffix);
    return name.size() >= n && name.compare(name.size() - n, n, suffix) == 0;
  };
  return ends(".jsonl") || ends(".stderr.log") || name == "league.json" || name == "standings.json" ||
         name == "junit.xml";
}

// Every file named like a referee output that this process can reach from "/".
void walk(const std::string& dir, int depth, int& seen, int& entries, std::vector<std::string>& found) {
  if (depth > 10 || entries > 300000) return;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return;
  while (const dirent* e = ::readdir(d)) {
    ++entries;
    const std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    const std::string path = (dir == "/" ? "" : dir) + "/" + name;
    if (path == "/proc" || path == "/sys" || path == "/dev") continue;
    if (e->d_type == DT_DIR) {
      walk(path, depth + 1, seen, entries, found);
    } else if (matches_output(name)) {
      ++seen;
      if (readable(path)) found.push_back(path);
    }
  }
  ::closedir(d);
}

key_t key_of(const std::string& tag) {
  std::uint32_t h = 2166136261u;
  for (const char c : tag) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  return static_cast<key_t>(h & 0x7fffffff);
}

// The abstract unix socket "hostile-<tag>": listened on (and kept open while the bot lives), or
// connected to. Returns what happened: "ok" / "connected", or the errno's name.
std::string abstract_socket(const std::string& tag, bool listen_on_it) {
  const int sock = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (sock < 0) return errno_name(errno);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  const std::string name = "hostile-" + tag;
  std::memcpy(a.sun_path + 1, name.data(), name.size());
  const auto len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size());
  const auto* addr = reinterpret_cast<const sockaddr*>(&a);
  if (listen_on_it) return ::bind(sock, addr, len) == 0 && ::listen(sock, 4) == 0 ? "ok" : errno_name(errno);
  const std::string result = ::connect(sock, addr, len) == 0 ? "connected" : errno_name(errno);
  ::close(sock);
  return result;
}

std::vector<std::string> scratch_places() {
  std::vector<std::string> places = {"/tmp", "/var/tmp", "/dev/shm"};
  const char* home = std::getenv("HOME");
  places.push_back(home != nullptr ? home : ".");
  return places;
}

}  // namespace

void leak(const Options& o) {
  std::vector<std::string> targets;
  if (const char* paths = std::getenv("ARENA_LEAK_PATHS")) {
    std::stringstream in(paths);
    for (std::string p; std::getline(in, p, ':');) {
      if (!p.empty()) targets.push_back(p);
    }
  }
  // A folder counts by what it lets out: its listing, and each file in it.
  std::vector<std::string> read_ok;
  int listed = 0;
  for (const std::string& t : targets) {
    if (DIR* d = ::opendir(t.c_str())) {
      while (const dirent* e = ::readdir(d)) {
        const std::string name = e->d_name;
        if (name == "." || name == "..") continue;
        ++listed;
        if (readable(t + "/" + name)) read_ok.push_back(t + "/" + name);
      }
      ::closedir(d);
    } else if (readable(t)) {
      read_ok.push_back(t);
    }
  }
  int seen = 0, entries = 0;
  std::vector<std::string> walk_found;
  if (std::getenv("ARENA_LEAK_NO_WALK") == nullptr) walk("/", 0, seen, entries, walk_found);
  std::string argv_text = slurp("/proc/self/cmdline");
  for (char& c : argv_text) c = c == '\0' ? ',' : c;
  std::string pid1 = slurp("/proc/1/cmdline");
  for (char& c : pid1) c = c == '\0' ? ',' : c;
  std::string parent = slurp("/proc/" + std::to_string(::getppid()) + "/cmdline");
  for (char& c : parent) c = c == '\0' ? ',' : c;
  const int root_fd = ::open("/root/hostile-was-here", O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  const int root_err = errno;
  if (root_fd >= 0) {
    ::close(root_fd);
    ::unlink("/root/hostile-was-here");
  }
  char cwd[512] = "-";
  (void)!::getcwd(cwd, sizeof cwd);
  const char* home = std::getenv("HOME");
  std::string first;
  for (std::size_t i = 0; i < read_ok.size() && i < 3; ++i) first += (i ? "," : "") + read_ok[i];
  std::string walk_first;
  for (std::size_t i = 0; i < walk_found.size() && i < 3; ++i) walk_first += (i ? "," : "") + walk_found[i];
  report(o, "uid=" + std::to_string(::getuid()) + " euid=" + std::to_string(::geteuid()) +
                " tried=" + std::to_string(targets.size()) + " listed=" + std::to_string(listed) +
                " readable=" + std::to_string(read_ok.size()) + " readable_paths=" + encode(first) +
                " walk_seen=" + std::to_string(seen) + " walk_readable=" + std::to_string(walk_found.size()) +
                " walk_paths=" + encode(walk_first) + " shadow=" + (readable("/etc/shadow") ? "read" : "refused") +
                " write_root=" + (root_fd >= 0 ? std::string("ok") : errno_name(root_err)) + " pid1=" + encode(pid1) +
                " parent=" + encode(parent) + " argv=" + encode(argv_text) + " cwd=" + encode(cwd) +
                " home=" + encode(home != nullptr ? home : ""));
}

void scratch(const Options& o) {
  const int mb = o.mb < 0 ? 8 : o.mb;
  std::vector<char> chunk(1 << 20, 'x');
  std::string fields = "tag=" + o.tag;
  const char* names[] = {"tmp_mb", "var_tmp_mb", "shm_mb", "home_mb"};
  const auto places = scratch_places();
  for (std::size_t i = 0; i < places.size(); ++i) {
    const std::string path = places[i] + "/hostile-scratch-" + o.tag;
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    int written = 0;
    if (fd >= 0) {
      while (written < mb && ::write(fd, chunk.data(), chunk.size()) == static_cast<ssize_t>(chunk.size())) ++written;
      ::close(fd);
    }
    fields += std::string(" ") + names[i] + "=" + std::to_string(written);
  }
  const int shm = ::shmget(key_of(o.tag), 1 << 20, IPC_CREAT | 0666);
  fields += " sysv=" + (shm >= 0 ? std::string("ok") : errno_name(errno));
  fields += " abstract=" + abstract_socket(o.tag, true);
  report(o, fields);
}

void scratch_peek(const Options& o) {
  std::string fields = "tag=" + o.tag;
  const char* names[] = {"tmp", "var_tmp", "shm", "home"};
  const auto places = scratch_places();
  for (std::size_t i = 0; i < places.size(); ++i) {
    struct stat st {};
    const bool seen = ::stat((places[i] + "/hostile-scratch-" + o.tag).c_str(), &st) == 0;
    fields += std::string(" ") + names[i] + "=" + (seen ? "seen" : "absent");
  }
  const int shm = ::shmget(key_of(o.tag), 0, 0);
  fields += " sysv=" + (shm >= 0 ? std::string("seen") : errno_name(errno));
  fields += " abstract=" + abstract_socket(o.tag, false);
  report(o, fields);
}

}  // namespace hostile
