// hostile_bot's attacks on what bots share (modes documented in hostile_bot.cpp): signals from
// one bot to another through kernel state attached to files both can see (locks, leases,
// notifications, times), files left for a later bot, host sockets, other processes, and what the
// bot can learn of the host's paths and cgroups.

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstddef>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include "hostile.hpp"

namespace hostile {

namespace {

// The files every bot of a match can see: its own program (the same file when two seats run one
// program) and a system file.
std::vector<std::string> shared_files() {
  char exe[4096] = {};
  const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  std::vector<std::string> out;
  if (n > 0) out.emplace_back(exe, static_cast<std::size_t>(n));
  out.emplace_back("/etc/passwd");
  return out;
}

constexpr int kBits = 16;

// Descriptors the sender keeps for its whole life (its locks live as long as they do).
std::vector<int>& kept() {
  static std::vector<int> fds;
  return fds;
}

std::string text_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The folders under `dir` (itself included, `depth` levels down) that everyone may write (o+w:
// the places bots of different uids share) and this process may write.
void writable_folders(const std::string& dir, int depth, int& entries, std::vector<std::string>& out) {
  if (depth < 0 || entries > 200000) return;
  struct stat st {};
  if (::stat(dir.c_str(), &st) == 0 && (st.st_mode & S_IWOTH) != 0 && ::access(dir.c_str(), W_OK | X_OK) == 0)
    out.push_back(dir);
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return;
  std::vector<std::string> subs;
  while (const dirent* e = ::readdir(d)) {
    ++entries;
    const std::string name = e->d_name;
    if (name == "." || name == ".." || e->d_type != DT_DIR) continue;
    const std::string path = (dir == "/" ? "" : dir) + "/" + name;
    if (path == "/proc" || path == "/sys") continue;
    subs.push_back(path);
  }
  ::closedir(d);
  for (const std::string& s : subs) writable_folders(s, depth - 1, entries, out);
}

std::string joined(const std::vector<std::string>& items, std::size_t first) {
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < first; ++i) out += (i ? "," : "") + items[i];
  return encode(out, 1500);
}

std::string connect_unix(const std::string& name, bool abstract) {
  const int sock = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (sock < 0) return errno_name(errno);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::memcpy(a.sun_path + (abstract ? 1 : 0), name.data(), std::min(name.size(), sizeof a.sun_path - 2));
  const auto len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + (abstract ? 1 : 0) + name.size() + 1);
  const std::string result = ::connect(sock, reinterpret_cast<const sockaddr*>(&a), abstract ? len - 1 : len) == 0
                                 ? "connected"
                                 : errno_name(errno);
  ::close(sock);
  return result;
}

}  // namespace

std::uint32_t secret_of(const std::string& view) {
  std::uint32_t h = 2166136261u;
  for (const char c : view) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  return (h & 0x7fffu) | 0x8000u;  // 16 bits, never 0
}

void lock_send(const Options& o, const std::string& view) {
  const std::uint32_t secret = secret_of(view);
  std::string flock_rc = "-", setlk_rc = "-", ofd_rc = "-", lease_rc = "-";
  for (const std::string& path : shared_files()) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    kept().push_back(fd);
    // A whole-file flock for "the secret is out"; the secret's bits as one-byte read locks:
    // bit i at byte i (POSIX, owned by the process) and at byte 32 + i (OFD, owned by the file).
    flock_rc = result_of(::flock(fd, LOCK_SH | LOCK_NB));
    for (int bit = 0; bit < kBits; ++bit) {
      if ((secret >> bit & 1u) == 0) continue;
      struct flock l {};
      l.l_type = F_RDLCK;
      l.l_whence = SEEK_SET;
      l.l_start = bit;
      l.l_len = 1;
      setlk_rc = result_of(::fcntl(fd, F_SETLK, &l));
      l.l_start = 32 + bit;
      l.l_pid = 0;
      ofd_rc = result_of(::fcntl(fd, F_OFD_SETLK, &l));
    }
    lease_rc = result_of(::fcntl(fd, F_SETLEASE, F_RDLCK));
    // Reads the watcher would see: one per set bit.
    char c = 0;
    for (int bit = 0; bit < kBits; ++bit) {
      if ((secret >> bit & 1u) != 0) (void)!::pread(fd, &c, 1, 0);
    }
  }
  // The times of a device every bot can write.
  const std::string utime_rc = result_of(::utimensat(AT_FDCWD, "/dev/null", nullptr, 0));
  report(o, "sent=" + std::to_string(secret) + " flock=" + flock_rc + " setlk=" + setlk_rc + " ofd=" + ofd_rc +
                " lease=" + lease_rc + " utime=" + utime_rc);
}

namespace {

struct Watch {
  int inotify = -1;
  std::string inotify_rc = "-", notify_rc = "-";
  timespec devnull_mtime{};
  bool ready = false;
};

Watch& watch() {
  static Watch w;
  return w;
}

}  // namespace

void lock_watch(const Options&) {
  Watch& w = watch();
  if (w.ready) return;
  w.ready = true;
  w.inotify = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  w.inotify_rc = w.inotify >= 0 ? "ok" : errno_name(errno);
  for (const std::string& path : shared_files()) {
    if (w.inotify >= 0 && ::inotify_add_watch(w.inotify, path.c_str(), IN_OPEN | IN_ACCESS) < 0)
      w.inotify_rc = errno_name(errno);
  }
  ::signal(SIGIO, SIG_IGN);
  const int etc = ::open("/etc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  w.notify_rc = result_of(::fcntl(etc, F_NOTIFY, DN_ACCESS | DN_MULTISHOT));
  struct stat st {};
  if (::stat("/dev/null", &st) == 0) w.devnull_mtime = st.st_mtim;
}

void lock_receive(const Options& o) {
  Watch& w = watch();
  // The events first: this process's own opens below would add to them.
  int events = 0;
  if (w.inotify >= 0) {
    alignas(inotify_event) char buf[4096];
    for (ssize_t n; (n = ::read(w.inotify, buf, sizeof buf)) > 0;) {
      for (ssize_t at = 0; at < n;) {
        const auto* e = reinterpret_cast<const inotify_event*>(buf + at);
        ++events;
        at += static_cast<ssize_t>(sizeof(inotify_event) + e->len);
      }
    }
  }
  std::uint32_t posix = 0, ofd = 0;
  std::string flock_busy = "no";
  for (const std::string& path : shared_files()) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    for (int bit = 0; bit < kBits; ++bit) {
      struct flock l {};
      l.l_type = F_WRLCK;
      l.l_whence = SEEK_SET;
      l.l_start = bit;
      l.l_len = 1;
      if (::fcntl(fd, F_GETLK, &l) == 0 && l.l_type != F_UNLCK) posix |= 1u << bit;
      l = {};
      l.l_type = F_WRLCK;
      l.l_whence = SEEK_SET;
      l.l_start = 32 + bit;
      l.l_len = 1;
      if (::fcntl(fd, F_OFD_GETLK, &l) == 0 && l.l_type != F_UNLCK) ofd |= 1u << bit;
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) flock_busy = "yes";
    ::flock(fd, LOCK_UN);
    ::close(fd);
  }
  struct stat st {};
  const bool touched = ::stat("/dev/null", &st) == 0 &&
                       (st.st_mtim.tv_sec != w.devnull_mtime.tv_sec || st.st_mtim.tv_nsec != w.devnull_mtime.tv_nsec);
  report(o, "received=" + std::to_string(posix) + " received_ofd=" + std::to_string(ofd) + " flock_busy=" + flock_busy +
                " inotify=" + w.inotify_rc + " events=" + std::to_string(events) + " notify=" + w.notify_rc +
                " devnull_touched=" + (touched ? "yes" : "no"));
}

void leave(const Options& o, const std::string& view) {
  std::vector<std::string> places;
  int entries = 0;
  writable_folders("/", 4, entries, places);
  std::vector<std::string> wrote;
  const std::string text = std::to_string(secret_of(view));
  for (const std::string& place : places) {
    const std::string path = (place == "/" ? "" : place) + "/hostile-left-" + o.tag;
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) continue;
    (void)!::write(fd, text.data(), text.size());
    ::close(fd);
    ::chmod(path.c_str(), 0644);
    wrote.push_back(path);
  }
  report(o, "writable=" + std::to_string(places.size()) + " wrote=" + std::to_string(wrote.size()) +
                " paths=" + joined(wrote, 40));
}

void find_left(const Options& o) {
  std::vector<std::string> places;
  int entries = 0;
  writable_folders("/", 4, entries, places);
  // Also where nothing may be written now: a file can outlive the rights that made it.
  std::set<std::string> all(places.begin(), places.end());
  for (const char* p : {"/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/var/crash", "/run", "/var/lock"}) all.insert(p);
  std::vector<std::string> found;
  for (const std::string& place : all) {
    const std::string path = (place == "/" ? "" : place) + "/hostile-left-" + o.tag;
    const std::string text = text_of(path);
    if (!text.empty()) found.push_back(path + "=" + text);
  }
  report(o, "found=" + std::to_string(found.size()) + " paths=" + joined(found, 40));
}

void host_socket(const Options& o) {
  int pair[2];
  const std::string socketpair_rc = result_of(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair));
  if (socketpair_rc == "ok") ::close(pair[0]), ::close(pair[1]);
  const int probe = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const std::string socket_rc = probe >= 0 ? "ok" : errno_name(errno);
  if (probe >= 0) ::close(probe);
  report(o, "socketpair=" + socketpair_rc + " socket=" + socket_rc +
                " path=" + connect_unix("/tmp/hostile-sock-" + o.tag, false) +
                " abstract=" + connect_unix("hostile-sock-" + o.tag, true));
}

void proc_view(const Options& o) {
  int others = 0, cmdlines = 0;
  DIR* d = ::opendir("/proc");
  while (const dirent* e = d != nullptr ? ::readdir(d) : nullptr) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    struct stat st {};
    if (::fstatat(::dirfd(d), e->d_name, &st, 0) != 0 || st.st_uid == ::getuid()) continue;
    ++others;
    if (!text_of(std::string("/proc/") + e->d_name + "/cmdline").empty()) ++cmdlines;
  }
  if (d != nullptr) ::closedir(d);
  // The cgroup tree: every bot's memory and CPU use.
  int cgroup_entries = 0;
  if (DIR* cg = ::opendir("/sys/fs/cgroup")) {
    while (const dirent* e = ::readdir(cg)) cgroup_entries += e->d_name[0] != '.' ? 1 : 0;
    ::closedir(cg);
  }
  report(o, "other_uids=" + std::to_string(others) + " cmdlines_read=" + std::to_string(cmdlines) +
                " cgroup_entries=" + std::to_string(cgroup_entries));
}

void host_details(const Options& o) {
  // Every path-like word of what the kernel says about the mounts, for this process and for a
  // child of it (the namespace's other processes see the same).
  std::set<std::string> words;
  std::string mount_text;
  for (const char* file : {"/proc/self/mountinfo", "/proc/self/mounts", "/proc/self/mountstats"})
    mount_text += text_of(file) + "\n";
  int link[2];
  if (::pipe(link) == 0) {
    const pid_t child = ::fork();
    if (child == 0) {
      ::close(link[0]);
      const std::string mine = text_of("/proc/self/mountinfo");
      (void)!::write(link[1], mine.data(), mine.size());
      ::_exit(0);
    }
    ::close(link[1]);
    char buf[4096];
    for (ssize_t n; (n = ::read(link[0], buf, sizeof buf)) > 0;) mount_text.append(buf, static_cast<std::size_t>(n));
    ::close(link[0]);
  }
  std::istringstream in(mount_text);
  for (std::string w; in >> w;) {
    std::istringstream parts(w);
    for (std::string part; std::getline(parts, part, ',');) {
      const auto eq = part.find('=');
      const std::string value = eq == std::string::npos ? part : part.substr(eq + 1);
      std::istringstream layers(value);
      for (std::string layer; std::getline(layers, layer, ':');) {
        if (layer.find('/') != std::string::npos) words.insert(layer);
      }
    }
  }
  std::string cgroup = text_of("/proc/self/cgroup");
  for (char& c : cgroup) c = c == '\n' ? ';' : c;
  report(o, "cgroup=" + encode(cgroup, 600) + " paths=" + joined({words.begin(), words.end()}, 200));
}

}  // namespace hostile
