// Uids of their own for bots (as root), and what makes a uid safe to give to the next bot: no
// process of it left, no file of it in the shared temporary folders. A guardian process purges
// the uids a referee holds when that referee dies, SIGKILL included.

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <pwd.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <map>
#include <mutex>
#include <thread>

#include "referee/bots/sandbox_detail.hpp"

namespace arena::bots::detail {

namespace fs = std::filesystem;

namespace {

constexpr uid_t kUidBase = 61000;
constexpr uid_t kUidCount = 2000;

// The guardian's end of the pipe: the referee writes "+<key>" and "-<key>" lines, a key being a
// uid, "cg <cgroup folder>" or "wr <private folders' root>"; end of file: the referee is gone.
int g_guardian = -1;
std::mutex g_guardian_mu;
// A basic bot ran as root without a mount namespace of its own: it could write to every folder
// open to all, so its uid's files are looked for in all of them, not only the temporary ones.
std::atomic<bool> g_everywhere{false};

// Every folder of the machine that anyone may write (o+w), but the temporary folders themselves,
// found once: where a bot's uid, which owns nothing else, can leave a file.
const std::vector<std::string>& world_writable_folders() {
  static const std::vector<std::string> folders = [] {
    std::vector<std::string> out;
    std::vector<std::string> todo = {"/"};
    std::size_t entries = 0;
    while (!todo.empty() && entries < 2'000'000) {
      const std::string dir = std::move(todo.back());
      todo.pop_back();
      DIR* d = ::opendir(dir.c_str());
      if (d == nullptr) continue;
      while (const dirent* e = ::readdir(d)) {
        ++entries;
        const std::string name = e->d_name;
        if (name == "." || name == ".." || (e->d_type != DT_DIR && e->d_type != DT_UNKNOWN)) continue;
        const std::string path = (dir == "/" ? "" : dir) + "/" + name;
        struct stat st {};
        if (::fstatat(::dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode)) continue;
        if (path == "/proc" || path == "/sys") continue;
        bool temp = false;  // purged anyway; what lies below them is looked at
        for (const char* t : kTempFolders) temp = temp || path == t;
        if ((st.st_mode & S_IWOTH) != 0 && !temp) out.push_back(path);
        todo.push_back(path);
      }
      ::closedir(d);
    }
    return out;
  }();
  return folders;
}

// Removes what `uid` owns directly in `place`.
void remove_owned(const char* place, uid_t uid) {
  DIR* d = ::opendir(place);
  if (d == nullptr) return;
  while (const dirent* e = ::readdir(d)) {
    if (e->d_name[0] == '.' && (e->d_name[1] == '\0' || (e->d_name[1] == '.' && e->d_name[2] == '\0'))) continue;
    struct stat st {};
    if (::fstatat(::dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || st.st_uid != uid) continue;
    std::error_code ec;
    fs::remove_all(fs::path(place) / e->d_name, ec);
  }
  ::closedir(d);
}

int open_uid_lock(const fs::path& lock) {
  return ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
}

// The lock file's first byte: what its last holder did with the uid. kPurged is written by
// release_uid after the purge; kInUse at the claim, so that a referee killed while it holds the
// uid leaves it asking for a purge (as does a lock file of an older referee, which is empty).
constexpr char kPurged = 'p';
constexpr char kInUse = 'u';

// Trusted only from a lock file this referee's user owns and nobody else may write: the mark lets
// a claim skip the purge of the temporary folders, and a file a bot's uid could write (one made in
// a folder it owns, should the lock folder ever be such a one) would let it keep its files there
// for the uid's next bot.
bool left_purged(int lock_fd) {
  struct stat st {};
  if (::fstat(lock_fd, &st) != 0 || st.st_uid != ::geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH)) != 0) return false;
  char c = 0;
  return ::pread(lock_fd, &c, 1, 0) == 1 && c == kPurged;
}

bool mark(int lock_fd, char state) {
  return ::pwrite(lock_fd, &state, 1, 0) == 1;
}

// The guardian's purge of the uids a dead referee held, each under its lock like any purge. The
// referee's death released its locks, so another referee may have claimed one of these uids
// since, purged it at its claim and started a bot as that uid: a purge without the lock would
// kill that bot and delete its files. A uid whose lock another referee holds is left to it; the
// guardian waits a few seconds only for a lock still held by a dying child of the dead referee
// (one between its fork and its exec).
void purge_released(std::vector<uid_t> uids) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  for (;;) {
    std::erase_if(uids, [](uid_t uid) {
      const int fd = open_uid_lock(uid_lock_path(uid));
      // Without its lock file no referee can claim the uid either (claim_uid fails): purged as is.
      const bool ours = fd < 0 || ::flock(fd, LOCK_EX | LOCK_NB) == 0;
      if (ours) purge_uid(uid, false);
      if (fd >= 0) ::close(fd);
      return ours;
    });
    if (uids.empty() || std::chrono::steady_clock::now() >= until) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

void tell_guardian(const std::string& line) {
  std::lock_guard lock(g_guardian_mu);
  if (g_guardian < 0) return;
  const std::string text = line + "\n";
  (void)!::write(g_guardian, text.data(), text.size());
}

[[noreturn]] void guardian_main(int from_referee) {
  ::prctl(PR_SET_NAME, "arena-guardian");
  g_everywhere = true;  // it cannot know which bots had a mount namespace: it looks everywhere
  ::prctl(PR_SET_PDEATHSIG, 0);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU}) ::signal(sig, SIG_IGN);
  std::map<std::string, int> held;  // "+61003" / "+cg /sys/..." -> count
  std::string pending;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(from_referee, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    pending.append(buf, static_cast<std::size_t>(n));
    for (std::size_t nl; (nl = pending.find('\n')) != std::string::npos; pending.erase(0, nl + 1)) {
      const std::string line = pending.substr(0, nl);
      if (line.size() < 2) continue;
      const std::string key = line.substr(1);
      if (line[0] == '+') ++held[key];
      if (line[0] == '-' && --held[key] <= 0) held.erase(key);
    }
  }
  // The referee is gone: nothing of its bots may outlive it.
  for (const auto& [key, count] : held) {
    if (key.rfind("cg ", 0) == 0) kill_cgroup(key.substr(3));
  }
  std::vector<uid_t> uids;
  for (const auto& [key, count] : held) {
    if (key.rfind("cg ", 0) != 0 && key.rfind("wr ", 0) != 0) uids.push_back(static_cast<uid_t>(std::stoul(key)));
  }
  purge_released(uids);
  for (const auto& [key, count] : held) {
    std::error_code ec;
    if (key.rfind("wr ", 0) == 0) fs::remove_all(key.substr(3), ec);  // the bots' private folders
  }
  ::_exit(0);
}

}  // namespace

fs::path uid_lock_path(uid_t uid) {
  fs::path dir = "/run/stellar-arena";
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) dir = fs::temp_directory_path() / "stellar-arena-uids";
  ::mkdir(dir.c_str(), 0700);
  return dir / fmt::format("uid-{}.lock", uid);
}

void kill_cgroup(const std::string& path) {
  write_file((path + "/cgroup.freeze").c_str(), "0");
  write_file((path + "/cgroup.kill").c_str(), "1");
  for (int i = 0; i < 500 && read_text(path + "/cgroup.events").find("populated 0") == std::string::npos; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ::rmdir(path.c_str());
}

void start_guardian() {
  if (::geteuid() != 0) return;  // without a uid per bot there is nothing of this kind to purge
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return;
  // Twice forked and in a session of its own: not the referee's child (a subreaper would get it
  // back and sweep it), and not hit by a signal to the referee's process group.
  const pid_t first = ::fork();
  if (first == 0) {
    ::setsid();
    if (::fork() != 0) ::_exit(0);
    ::close(pipe_fds[1]);
    for (int fd = 3; fd < 1024; ++fd) {
      if (fd != pipe_fds[0]) ::close(fd);
    }
    const int null = ::open("/dev/null", O_RDWR);
    if (null >= 0) {
      ::dup2(null, 0), ::dup2(null, 1), ::dup2(null, 2);
      if (null > 2) ::close(null);
    }
    guardian_main(pipe_fds[0]);
  }
  ::close(pipe_fds[0]);
  if (first < 0) {
    ::close(pipe_fds[1]);
    return;
  }
  int status = 0;
  wait_child(first, status);
  g_guardian = pipe_fds[1];
}

void guard(const std::string& key, bool held) {
  tell_guardian((held ? "+" : "-") + key);
}

Result<std::pair<uid_t, int>> claim_uid() {
  for (uid_t u = kUidBase; u < kUidBase + kUidCount; ++u) {
    passwd pw{};
    passwd* found = nullptr;
    char buf[1024];
    if (::getpwuid_r(u, &pw, buf, sizeof buf, &found) == 0 && found != nullptr) continue;
    const fs::path lock = uid_lock_path(u);
    const int fd = open_uid_lock(lock);
    if (fd < 0) return fail(fmt::format("cannot create the uid lock {}: {}", lock.string(), errno_text(errno)));
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) {
      // Whatever a bot of an earlier referee (one killed with SIGKILL) left is gone before reuse;
      // after a release that purged, only the processes are checked (the files were looked for
      // then: a readdir and a stat per entry of /tmp, /var/tmp and /dev/shm saved). A uid whose
      // state cannot be recorded is not used.
      const bool purged = left_purged(fd);
      if (!mark(fd, kInUse)) {
        ::close(fd);
        continue;
      }
      purge_uid(u, true, !purged);
      guard(std::to_string(u), true);
      return std::make_pair(u, fd);
    }
    ::close(fd);
  }
  return fail(fmt::format("all {} sandbox uids ({}-{}) are in use", kUidCount, kUidBase, kUidBase + kUidCount - 1));
}

void release_uid(uid_t uid, int lock_fd, bool tree_dead, bool saw_host_folders) {
  purge_uid(uid, tree_dead, saw_host_folders);
  mark(lock_fd, kPurged);
  guard(std::to_string(uid), false);
  ::close(lock_fd);
}

// Is any process (not a zombie) running as `uid`? Cheap: a stat per /proc entry; only a match
// costs a read of its state.
bool uid_has_processes(uid_t uid) {
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return false;
  bool found = false;
  while (const dirent* e = ::readdir(proc)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    struct stat st {};
    if (::fstatat(::dirfd(proc), e->d_name, &st, 0) != 0 || st.st_uid != uid) continue;
    const std::string stat = read_text(fmt::format("/proc/{}/stat", e->d_name));
    const auto close = stat.rfind(')');
    if (close != std::string::npos && close + 2 < stat.size() && stat[close + 2] == 'Z') continue;
    found = true;
    break;
  }
  ::closedir(proc);
  return found;
}

void purge_uid(uid_t uid, bool tree_dead, bool saw_host_folders) {
  // Every process of the uid, wherever it went (setsid, double fork, a namespace of its own):
  // a child that takes the uid signals everything it may signal, until none is left. (kill(-1)
  // itself says nothing: it succeeds whenever any other process exists.) When the bot's tree is
  // known to be dead (its cgroup or its namespace ended) only the check is needed.
  const bool clean = tree_dead && !uid_has_processes(uid);
  for (int round = 0; !clean && round < 200; ++round) {
    run_in_child([uid](int fd) {
      if (drop_uid(uid, uid) != nullptr) child_fails(fd, "cannot switch to the bot's uid");
      ::kill(-1, SIGKILL);
    });
    if (!uid_has_processes(uid)) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (!saw_host_folders) return;
  for (const char* place : kTempFolders) remove_owned(place, uid);
  if (g_everywhere) {
    for (const std::string& place : world_writable_folders()) remove_owned(place.c_str(), uid);
  }
}

void purge_everywhere() {
  g_everywhere = true;
}

}  // namespace arena::bots::detail
