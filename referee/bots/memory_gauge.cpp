#include "referee/bots/memory_gauge.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <linux/magic.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <sstream>

#include "referee/bots/sandbox_detail.hpp"

namespace arena::bots {

namespace {

constexpr std::uint64_t kMiB = 1 << 20;
constexpr std::uint64_t kFullLookEvery = 100;  // samples

// Reads up to `cap - 1` bytes of a small /proc file into `buf`, NUL-terminated; false when it
// cannot be read (the process is gone).
bool read_small(const char* path, char* buf, std::size_t cap) {
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  std::size_t got = 0;
  while (got + 1 < cap) {
    const ssize_t n = ::read(fd, buf + got, cap - 1 - got);
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  buf[got] = '\0';
  return got > 0;
}

// The value of a "Name:   123 kB" line, in bytes; 0 when absent.
std::uint64_t kb_field(const char* text, const char* name) {
  const char* at = std::strstr(text, name);
  if (at == nullptr) return 0;
  return std::strtoull(at + std::strlen(name), nullptr, 10) * 1024;
}

// The device of the kernel's internal shared-memory mount, which holds shared anonymous
// mappings, memfd and SysV segments (a SysV segment's inode number is its id).
dev_t shm_device() {
  static const dev_t dev = [] {
    const int fd = ::memfd_create("arena-probe", MFD_CLOEXEC);
    struct stat st {};
    const bool ok = fd >= 0 && ::fstat(fd, &st) == 0;
    if (fd >= 0) ::close(fd);
    return ok ? st.st_dev : dev_t{0};
  }();
  return dev;
}

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(std::move(w));
  return out;
}

// A mount point as /proc/self/mountinfo writes it (space, tab, newline, backslash as \ooo).
std::string unescape(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 3 < text.size()) {
      out.push_back(static_cast<char>(std::strtol(text.substr(i + 1, 3).c_str(), nullptr, 8)));
      i += 3;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

void keep_larger(std::map<std::pair<dev_t, ino_t>, std::uint64_t>& objects, dev_t dev, ino_t ino, std::uint64_t bytes) {
  std::uint64_t& v = objects[{dev, ino}];
  v = std::max(v, bytes);
}

// What the machine holds of the kinds a process's own figures do not show: /proc/meminfo, read at
// most once per sampling interval for all the bots of this referee.
struct Machine {
  std::uint64_t shmem = ~0ULL;  // every shared memory object and tmpfs file; ~0 when unknown
  bool huge_pages = false;      // huge pages are reserved: a process may hold some
};

Machine machine() {
  static std::mutex mu;
  static Machine last;
  static std::chrono::steady_clock::time_point read_at;
  std::lock_guard lock(mu);
  const auto now = std::chrono::steady_clock::now();
  if (now - read_at < std::chrono::milliseconds(5)) return last;
  char text[8192];
  last = Machine{};
  if (read_small("/proc/meminfo", text, sizeof text)) {
    last.shmem = kb_field(text, "\nShmem:");
    last.huge_pages = kb_field(text, "\nHugePages_Total:") > 0;
  }
  read_at = now;
  return last;
}

// A process's resident memory that is its own (anonymous: resident minus file and shared memory
// pages, /proc/PID/statm), in bytes; false when it is gone.
bool own_resident(pid_t pid, std::uint64_t& bytes) {
  char text[256];
  if (!read_small(fmt::format("/proc/{}/statm", pid).c_str(), text, sizeof text)) return false;
  unsigned long long size = 0, resident = 0, shared = 0;
  if (std::sscanf(text, "%llu %llu %llu", &size, &resident, &shared) != 3 || resident < shared) return true;
  static const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  bytes += (resident - shared) * page;
  return true;
}

}  // namespace

MemoryGauge::MemoryGauge(const MemoryScope& scope) : scope_(scope) {
  shm_device();
  lowest_shmem_ = machine().shmem;
  if (scope_.inner > 0) {
    const int ns = ::open(fmt::format("/proc/{}/ns/ipc", scope_.inner).c_str(), O_RDONLY | O_CLOEXEC);
    in_ipc_namespace_ = ns >= 0 && ::setns(ns, CLONE_NEWIPC) == 0;
    if (ns >= 0) ::close(ns);
    return;
  }
  if (!scope_.own_uid) return;
  // Basic as root: the host's writable tmpfs mounts, where files of the bot's uid are memory.
  std::istringstream mounts(detail::read_text("/proc/self/mountinfo"));
  for (std::string line; std::getline(mounts, line);) {
    const std::vector<std::string> w = words(line);
    const auto dash = std::find(w.begin(), w.end(), "-");
    if (w.size() < 6 || dash == w.end() || dash + 1 == w.end() || *(dash + 1) != "tmpfs") continue;
    if (("," + w[5] + ",").find(",rw,") == std::string::npos) continue;
    Tmpfs t;
    t.path = unescape(w[4]);
    struct stat st {};
    struct statfs fs {};
    if (::stat(t.path.c_str(), &st) != 0 || ::statfs(t.path.c_str(), &fs) != 0) continue;
    t.dev = st.st_dev;
    const bool seen = std::any_of(tmpfs_.begin(), tmpfs_.end(), [&](const Tmpfs& o) { return o.dev == t.dev; });
    if (seen) continue;
    t.lowest = (fs.f_blocks - fs.f_bfree) * static_cast<std::uint64_t>(fs.f_bsize);
    tmpfs_.push_back(std::move(t));
  }
}

bool MemoryGauge::is_shared_fs(dev_t dev, const std::string& path) {
  if (const auto found = shared_fs_.find(dev); found != shared_fs_.end()) return found->second;
  struct statfs fs {};
  if (::statfs(path.c_str(), &fs) != 0) return false;  // not cached: the next try may succeed
  const bool shared = fs.f_type == TMPFS_MAGIC || dev == shm_device();
  shared_fs_[dev] = shared;
  return shared;
}

// The shared objects `pid` maps (touched or not), each at its whole size (through
// /proc/PID/map_files, which needs root); without that access, what it maps of them (its
// Pss_Shmem) goes to `fallback`.
void MemoryGauge::mapped(pid_t pid, Objects& objects, std::uint64_t& fallback) {
  std::istringstream maps(detail::read_text(fmt::format("/proc/{}/maps", pid)));
  bool denied = false;
  for (std::string line; !denied && std::getline(maps, line);) {
    const std::vector<std::string> w = words(line);
    if (w.size() < 5 || w[4] == "0") continue;  // no file: private anonymous memory, counted as RssAnon
    unsigned major = 0, minor = 0;
    if (std::sscanf(w[3].c_str(), "%x:%x", &major, &minor) != 2) continue;
    const std::string link = fmt::format("/proc/{}/map_files/{}", pid, w[0]);
    struct stat st {};
    errno = 0;
    if (!is_shared_fs(makedev(major, minor), link) || ::stat(link.c_str(), &st) != 0) {
      denied = errno == EPERM || errno == EACCES;
      continue;
    }
    if (st.st_dev != scratch_dev_)
      keep_larger(objects, st.st_dev, st.st_ino, static_cast<std::uint64_t>(st.st_blocks) * 512);
  }
  char buf[4096];
  if (denied && read_small(fmt::format("/proc/{}/smaps_rollup", pid).c_str(), buf, sizeof buf))
    fallback += kb_field(buf, "Pss_Shmem:");
}

// The shared objects `pid` holds open (a memfd, a file on a tmpfs), mapped or not.
void MemoryGauge::held(pid_t pid, Objects& objects) {
  const std::string dir = fmt::format("/proc/{}/fd", pid);
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return;
  while (const dirent* e = ::readdir(d)) {
    if (e->d_name[0] == '.') continue;
    struct stat st {};
    if (::fstatat(::dirfd(d), e->d_name, &st, 0) != 0 || !S_ISREG(st.st_mode) || st.st_dev == scratch_dev_) continue;
    if (is_shared_fs(st.st_dev, dir + "/" + e->d_name))
      keep_larger(objects, st.st_dev, st.st_ino, static_cast<std::uint64_t>(st.st_blocks) * 512);
  }
  ::closedir(d);
}

// Strict: the SysV shared memory segments of the bot's IPC namespace (attached or not: a
// segment outlives its processes), each at what it holds.
std::uint64_t MemoryGauge::segments(Objects& objects) const {
  if (!in_ipc_namespace_) return 0;
  std::istringstream shm(detail::read_text("/proc/sysvipc/shm"));
  std::string line;
  std::getline(shm, line);  // the header
  while (std::getline(shm, line)) {
    const std::vector<std::string> w = words(line);
    if (w.size() < 16) continue;
    const auto id = static_cast<ino_t>(std::strtoull(w[1].c_str(), nullptr, 10));
    keep_larger(objects, shm_device(), id,
                std::strtoull(w[14].c_str(), nullptr, 10) + std::strtoull(w[15].c_str(), nullptr, 10));
  }
  return 0;
}

// Strict: the bytes queued in the SysV message queues of the bot's IPC namespace (kernel memory,
// not in Shmem: read every time, a header line when there are none).
std::uint64_t MemoryGauge::message_queues() const {
  if (!in_ipc_namespace_) return 0;
  char head[512];  // the header line alone, when there are no queues (most of the time)
  if (!read_small("/proc/sysvipc/msg", head, sizeof head) || std::strchr(head, '\n') == nullptr ||
      std::strchr(head, '\n')[1] == '\0')
    return 0;
  std::uint64_t queued = 0;
  std::istringstream msg(detail::read_text("/proc/sysvipc/msg"));
  std::string line;
  std::getline(msg, line);
  while (std::getline(msg, line)) {
    const std::vector<std::string> w = words(line);
    if (w.size() >= 4) queued += std::strtoull(w[3].c_str(), nullptr, 10);
  }
  return queued;
}

// What the bot's scratch tmpfs holds (strict: its /tmp, /var/tmp, /dev/shm and home; basic with
// private mounts: its /tmp, /var/tmp and /dev/shm), read through its root in its mount namespace.
std::uint64_t MemoryGauge::scratch() {
  if (scope_.scratch_root <= 0) return 0;
  const std::string tmp = fmt::format("/proc/{}/root/tmp", scope_.scratch_root);
  struct statfs fs {};
  if (::statfs(tmp.c_str(), &fs) != 0) return 0;
  if (scratch_dev_ == 0) {
    struct stat st {};
    if (::stat(tmp.c_str(), &st) == 0) scratch_dev_ = st.st_dev;
  }
  return (fs.f_blocks - fs.f_bfree) * static_cast<std::uint64_t>(fs.f_bsize);
}

// Basic as root: the files of the bot's uid on the host's tmpfs mounts. A mount is walked when
// it holds more than it did at its emptiest since the bot started, and then again only when that
// changes; and on a `full` look.
void MemoryGauge::tmpfs_files(Objects& objects, bool full) {
  namespace fs = std::filesystem;
  for (Tmpfs& t : tmpfs_) {
    struct statfs sf {};
    if (::statfs(t.path.c_str(), &sf) != 0) continue;
    const std::uint64_t used = (sf.f_blocks - sf.f_bfree) * static_cast<std::uint64_t>(sf.f_bsize);
    t.lowest = std::min(t.lowest, used);
    if (used <= t.lowest + kMiB && !full) {
      t.files.clear();
      t.walked = ~0ULL;
      continue;
    }
    if (used != t.walked || full) {
      t.walked = used;
      t.files.clear();
      std::error_code ec;
      for (auto it = fs::recursive_directory_iterator(t.path, fs::directory_options::skip_permission_denied, ec);
           !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        struct stat st {};
        if (::lstat(it->path().c_str(), &st) != 0) continue;
        if (st.st_dev != t.dev) {
          if (S_ISDIR(st.st_mode)) it.disable_recursion_pending();  // another mount
          continue;
        }
        if (S_ISREG(st.st_mode) && st.st_uid == scope_.uid)
          t.files.push_back({{st.st_dev, st.st_ino}, static_cast<std::uint64_t>(st.st_blocks) * 512});
      }
    }
    for (const auto& [key, bytes] : t.files) keep_larger(objects, key.first, key.second, bytes);
  }
}

MemoryUse MemoryGauge::sample(const std::vector<pid_t>& pids) {
  MemoryUse use;
  Objects objects;
  // Every shared memory object is in the machine's Shmem: while that is no more than it was at
  // its lowest since the bot started, the bot cannot hold any, and the per-process look for them
  // is skipped.
  const Machine m = machine();
  lowest_shmem_ = std::min(lowest_shmem_, m.shmem);
  // And once a second whatever it says: what other processes freed while the bot took as much
  // leaves the machine's figure where it was.
  const bool full = ++samples_ % kFullLookEvery == 0;
  const bool look = full || m.shmem > lowest_shmem_ + kMiB;
  std::uint64_t shared = message_queues();
  if (look) shared += scratch() + segments(objects);
  char text[4096];
  for (pid_t pid : pids) {
    if (std::find(scope_.helpers.begin(), scope_.helpers.end(), pid) != scope_.helpers.end()) continue;
    if (!own_resident(pid, use.total)) continue;
    if (m.huge_pages && read_small(fmt::format("/proc/{}/status", pid).c_str(), text, sizeof text))
      shared += kb_field(text, "HugetlbPages:");
    if (!look) continue;
    mapped(pid, objects, shared);
    held(pid, objects);
  }
  if (look) tmpfs_files(objects, full);
  for (const auto& [key, bytes] : objects) shared += bytes;
  use.shared = shared;
  use.total += shared;
  return use;
}

}  // namespace arena::bots
