#include "referee/bots/sandbox.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <poll.h>
#include <pwd.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <system_error>
#include <thread>

#include <fmt/format.h>

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

namespace arena::bots {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr uid_t kUidBase = 61000;  // slot uids: one per running bot, as root
constexpr uid_t kUidCount = 2000;
constexpr uid_t kProbeUid = 65534;  // nobody: the probe's unprivileged user, as root

std::string errno_text(int err) { return std::error_code(err, std::system_category()).message(); }

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// ---- async-signal-safe helpers for the child -------------------------------------------------

bool write_file(const char* path, const char* text) noexcept {
  const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const std::size_t n = std::strlen(text);
  const bool ok = ::write(fd, text, n) == static_cast<ssize_t>(n);
  const int saved = errno;
  ::close(fd);
  errno = saved;
  return ok;
}

// Closes every descriptor except `keep` (ascending, at most two).
void close_all_but(int a, int b) noexcept {
  int keep[2] = {std::min(a, b), std::max(a, b)};
  unsigned from = 0;
  for (int k : keep) {
    if (k < 0) continue;
    if (static_cast<unsigned>(k) > from) ::syscall(SYS_close_range, from, static_cast<unsigned>(k) - 1, 0U);
    from = static_cast<unsigned>(k) + 1;
  }
  ::syscall(SYS_close_range, from, ~0U, 0U);
}

// Ends this helper process the way the bot ended (same exit code, or the same signal).
[[noreturn]] void mirror_exit(int status) noexcept {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    ::sigaction(sig, &dfl, nullptr);
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, sig);
    ::sigprocmask(SIG_UNBLOCK, &one, nullptr);
    ::kill(::getpid(), sig);
    ::_exit(128 + sig);
  }
  ::_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 127);
}

pid_t wait_child(pid_t pid, int& status) noexcept {
  for (;;) {
    const pid_t w = ::waitpid(pid, &status, 0);
    if (w >= 0 || errno != EINTR) return w;
  }
}

// ---- seccomp -----------------------------------------------------------------------------------

// System calls a bot never needs and a hostile one would use: debugging or reading other
// processes, kernel objects shared across the machine, mounts, modules, io_uring (which can open
// sockets behind seccomp's back), clock and machine control. They fail with EPERM rather than
// killing the bot: language runtimes probe some of them (perf_event_open, io_uring) and must be
// able to carry on without them.
constexpr std::array kDenied = {
    "ptrace",          "process_vm_readv",  "process_vm_writev", "perf_event_open", "bpf",
    "keyctl",          "add_key",           "request_key",       "mount",           "umount2",
    "pivot_root",      "chroot",            "move_mount",        "open_tree",       "fsopen",
    "fsmount",         "fspick",            "kexec_load",        "kexec_file_load", "init_module",
    "finit_module",    "delete_module",     "reboot",            "swapon",          "swapoff",
    "acct",            "userfaultfd",       "open_by_handle_at", "name_to_handle_at", "io_uring_setup",
    "io_uring_enter",  "io_uring_register", "fanotify_init",     "lookup_dcookie",  "syslog",
    "settimeofday",    "clock_settime",     "quotactl",
};

struct SeccompProgram {
  std::vector<sock_filter> code;
  sock_fprog prog{};
  std::string error;
};

SeccompProgram build_seccomp(bool network) {
  SeccompProgram out;
  scmp_filter_ctx ctx = ::seccomp_init(SCMP_ACT_ALLOW);
  if (ctx == nullptr) {
    out.error = "seccomp_init failed";
    return out;
  }
  int rc = 0;
  for (const char* name : kDenied) {
    const int nr = ::seccomp_syscall_resolve_name(name);
    if (nr == __NR_SCMP_ERROR) continue;  // not on this architecture
    rc = ::seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0);
    if (rc != 0) break;
  }
  if (rc == 0 && !network) {
    // Local sockets stay (runtimes use socketpair); any other address family is refused.
    rc = ::seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_NE, AF_UNIX));
  }
  if (rc == 0) {
    const int fd = ::memfd_create("arena-seccomp", MFD_CLOEXEC);
    if (fd < 0) {
      rc = -errno;
    } else {
      rc = ::seccomp_export_bpf(ctx, fd);
      const off_t size = ::lseek(fd, 0, SEEK_END);
      if (rc == 0 && size > 0 && size % static_cast<off_t>(sizeof(sock_filter)) == 0) {
        out.code.resize(static_cast<std::size_t>(size) / sizeof(sock_filter));
        if (::pread(fd, out.code.data(), static_cast<std::size_t>(size), 0) != size) rc = -EIO;
      } else if (rc == 0) {
        rc = -EIO;
      }
      ::close(fd);
    }
  }
  ::seccomp_release(ctx);
  if (rc != 0) {
    out.error = fmt::format("building the seccomp filter failed: {}", errno_text(-rc));
    out.code.clear();
    return out;
  }
  out.prog.len = static_cast<unsigned short>(out.code.size());
  out.prog.filter = out.code.data();
  return out;
}

const SeccompProgram& seccomp_program(bool network) {
  static const SeccompProgram closed = build_seccomp(false);
  static const SeccompProgram open = build_seccomp(true);
  return network ? open : closed;
}

// ---- namespaces ---------------------------------------------------------------------------

int namespace_flags(bool network) {
  int flags = CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWNS;
  if (!network) flags |= CLONE_NEWNET;
  return flags;
}

const char* write_id_maps_dumpable(const char* uid_map, const char* gid_map) noexcept {
  if (!write_file("/proc/self/setgroups", "deny")) return "writing /proc/self/setgroups";
  if (!write_file("/proc/self/uid_map", uid_map)) return "writing /proc/self/uid_map";
  if (!write_file("/proc/self/gid_map", gid_map)) return "writing /proc/self/gid_map";
  return nullptr;
}

// In a process that just unshared its user namespace: map its own uid and gid into it. Its
// /proc/self files belong to root while it is not dumpable (a uid change or the referee's own
// setting makes it so), hence the dumpable flag around the writes.
const char* write_id_maps(const char* uid_map, const char* gid_map) noexcept {
  ::prctl(PR_SET_DUMPABLE, 1);
  const char* failed = write_id_maps_dumpable(uid_map, gid_map);
  ::prctl(PR_SET_DUMPABLE, 0);
  return failed;
}

// In the namespace's init: a private mount tree with its own /proc (showing only this tree).
const char* mount_own_proc() noexcept {
  if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return "making the mounts private";
  if (::mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) != 0) return "mounting /proc";
  return nullptr;
}

const char* drop_uid(uid_t uid, gid_t gid) noexcept {
  if (::syscall(SYS_setgroups, 0, nullptr) != 0) return "setgroups";
  if (::syscall(SYS_setresgid, gid, gid, gid) != 0) return "setresgid";
  if (::syscall(SYS_setresuid, uid, uid, uid) != 0) return "setresuid";
  return nullptr;
}

// Runs `body(fd)` in a forked child, which may write at most a short text to `fd` (a failure,
// as a sentence) and only make async-signal-safe calls; the child then exits. Returns that text:
// empty when the child wrote nothing and exited 0.
template <class Body>
std::string run_in_child(Body body) {
  int report[2];
  if (::pipe2(report, O_CLOEXEC) != 0) return "pipe: " + errno_text(errno);
  const pid_t child = ::fork();
  if (child < 0) {
    ::close(report[0]), ::close(report[1]);
    return "fork: " + errno_text(errno);
  }
  if (child == 0) {
    ::close(report[0]);
    body(report[1]);
    ::_exit(0);
  }
  ::close(report[1]);
  char buf[400] = {};
  std::size_t got = 0;
  for (;;) {
    const ssize_t n = ::read(report[0], buf + got, sizeof buf - 1 - got);
    if (n > 0) {
      got += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    break;
  }
  ::close(report[0]);
  int status = 0;
  wait_child(child, status);
  if (got > 0) return std::string(buf, got);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "" : "the test child failed";
}

// In such a child: writes "<what>: <errno text>" to `fd` and exits 1.
[[noreturn]] void child_fails(int fd, const char* what) noexcept {
  char buf[300];
  const int n = std::snprintf(buf, sizeof buf, "%s: %s", what, ::strerrordesc_np(errno));
  (void)!::write(fd, buf, static_cast<std::size_t>(std::clamp(n, 0, static_cast<int>(sizeof buf) - 1)));
  ::_exit(1);
}

// The probe: does the full namespace set-up work here, as the user bots will run as?
std::string probe_namespaces(bool root) {
  char uid_map[64], gid_map[64];
  const uid_t uid = root ? kProbeUid : ::geteuid();
  const gid_t gid = root ? kProbeUid : ::getegid();
  std::snprintf(uid_map, sizeof uid_map, "%u %u 1", uid, uid);
  std::snprintf(gid_map, sizeof gid_map, "%u %u 1", gid, gid);
  return run_in_child([&](int fd) {
    if (root) {
      if (const char* step = drop_uid(uid, gid)) child_fails(fd, step);
    }
    if (::unshare(namespace_flags(false)) != 0) child_fails(fd, "unshare");
    if (const char* step = write_id_maps(uid_map, gid_map)) child_fails(fd, step);
    const pid_t init = ::fork();
    if (init < 0) child_fails(fd, "fork in the new PID namespace");
    if (init == 0) {
      if (const char* step = mount_own_proc()) child_fails(fd, step);
      if (::getpid() != 1) {
        errno = EINVAL;
        child_fails(fd, "the first process of the new PID namespace is not PID 1");
      }
      ::_exit(0);
    }
    int status = 0;
    wait_child(init, status);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ::_exit(1);
  });
}

// ---- cgroup v2 ------------------------------------------------------------------------------

// This process's cgroup v2 folder, or empty with a reason.
fs::path own_cgroup(std::string& why) {
  std::string mount_point;
  {
    std::ifstream mounts("/proc/self/mountinfo");
    std::string line;
    while (std::getline(mounts, line)) {
      // "... mount-point ... - cgroup2 cgroup2 rw"
      const auto dash = line.find(" - ");
      if (dash == std::string::npos || line.compare(dash + 3, 8, "cgroup2 ") != 0) continue;
      std::istringstream fields(line.substr(0, dash));
      std::string f;
      for (int i = 0; i < 5 && fields >> f; ++i) {
        if (i == 4) mount_point = f;
      }
      if (!mount_point.empty()) break;
    }
  }
  if (mount_point.empty()) {
    why = "no cgroup v2 file system is mounted";
    return {};
  }
  std::ifstream self("/proc/self/cgroup");
  std::string line;
  while (std::getline(self, line)) {
    if (line.rfind("0::", 0) == 0) return fs::path(mount_point) / fs::path(line.substr(3)).relative_path();
  }
  why = "this process has no cgroup v2 path";
  return {};
}

void probe_cgroup(SandboxSupport& s) {
  std::string why;
  const fs::path own = own_cgroup(why);
  if (own.empty()) {
    s.cgroup_note = why;
    return;
  }
  // Folders of referees that died without removing theirs (SIGKILL): empty by now, removed.
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(own, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("stellar-arena-", 0) != 0) continue;
    const long pid = std::strtol(name.c_str() + 14, nullptr, 10);
    if (pid <= 0 || ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
    for (const auto& leaf : fs::directory_iterator(entry.path(), ec)) {
      if (leaf.is_directory()) ::rmdir(leaf.path().c_str());
    }
    ::rmdir(entry.path().c_str());
  }
  const fs::path dir = own / fmt::format("stellar-arena-{}", ::getpid());
  if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
    s.cgroup_note = fmt::format("cannot create {}: {}", dir.string(), errno_text(errno));
    return;
  }
  if (!fs::exists(dir / "cgroup.kill") || !fs::exists(dir / "cgroup.freeze")) {
    ::rmdir(dir.c_str());
    s.cgroup_note = "the kernel's cgroup v2 has no cgroup.kill (Linux 5.14 or later needed)";
    return;
  }
  // Controllers: offered to our folder by our own cgroup (possible only where it holds no
  // process, e.g. the root), then passed on to the bots' leaves.
  write_file((own / "cgroup.subtree_control").c_str(), "+memory +pids");
  const std::string offered = read_text(dir / "cgroup.controllers");
  std::string enable;
  if (offered.find("memory") != std::string::npos) enable += " +memory";
  if (offered.find("pids") != std::string::npos) enable += " +pids";
  if (!enable.empty()) write_file((dir / "cgroup.subtree_control").c_str(), enable.c_str() + 1);
  const std::string enabled = read_text(dir / "cgroup.subtree_control");
  s.cgroup = true;
  s.cgroup_dir = dir;
  s.cgroup_memory = enabled.find("memory") != std::string::npos;
  s.cgroup_pids = enabled.find("pids") != std::string::npos;
  if (!s.cgroup_memory || !s.cgroup_pids) {
    s.cgroup_note = fmt::format("{} has no {} controller here; rlimits stand in", dir.parent_path().string(),
                                !s.cgroup_memory && !s.cgroup_pids ? "memory or pids" : (!s.cgroup_memory ? "memory" : "pids"));
  }
}

// Removes the referee's cgroup folder and its private directories at exit.
struct ProcessResources {
  std::mutex mu;
  fs::path cgroup_dir;
  fs::path work_root;
  ~ProcessResources() {
    std::error_code ec;
    if (!work_root.empty()) fs::remove_all(work_root, ec);
    if (!cgroup_dir.empty()) ::rmdir(cgroup_dir.c_str());
  }
};
ProcessResources& resources() {
  static ProcessResources r;
  return r;
}

// The folder under which each bot gets its private directory: created once per referee, in
// $TMPDIR (or /tmp), traversable by the slot uids but not listable.
Result<fs::path> work_root() {
  ProcessResources& r = resources();
  std::lock_guard lock(r.mu);
  if (!r.work_root.empty()) return r.work_root;
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = fmt::format("{}/stellar-arena-{}-XXXXXX", tmp != nullptr && *tmp != '\0' ? tmp : "/tmp", ::getpid());
  if (::mkdtemp(pattern.data()) == nullptr) {
    return fail(fmt::format("cannot create the bots' private directories under {}: {}", fs::path(pattern).parent_path().string(), errno_text(errno)));
  }
  ::chmod(pattern.c_str(), 0711);
  r.work_root = pattern;
  return r.work_root;
}

// ---- slot uids ----------------------------------------------------------------------------

// Claims a uid no other bot (of this or another referee on the machine) uses now and no account
// owns: a lock file per uid, held while the bot lives.
Result<std::pair<uid_t, int>> claim_uid() {
  fs::path dir = "/run/stellar-arena";
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) dir = fs::temp_directory_path() / "stellar-arena-uids";
  ::mkdir(dir.c_str(), 0700);
  for (uid_t u = kUidBase; u < kUidBase + kUidCount; ++u) {
    passwd pw{};
    passwd* found = nullptr;
    char buf[1024];
    if (::getpwuid_r(u, &pw, buf, sizeof buf, &found) == 0 && found != nullptr) continue;
    const fs::path lock = dir / fmt::format("uid-{}.lock", u);
    const int fd = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) return fail(fmt::format("cannot create the uid lock {}: {}", lock.string(), errno_text(errno)));
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return std::make_pair(u, fd);
    ::close(fd);
  }
  return fail(fmt::format("all {} sandbox uids ({}-{}) are in use", kUidCount, kUidBase, kUidBase + kUidCount - 1));
}

// ---- the registry of live bots, for the orphan sweep -----------------------------------------

std::mutex& registry_mutex() {
  static std::mutex mu;
  return mu;
}
std::set<pid_t>& leaders() {
  static std::set<pid_t> s;
  return s;
}

std::vector<pid_t> parse_pids(const std::string& text) {
  std::vector<pid_t> out;
  std::istringstream in(text);
  long v = 0;
  while (in >> v) out.push_back(static_cast<pid_t>(v));
  return out;
}

// The children of this process (of every thread: orphans are given to any of them).
std::vector<pid_t> own_children() {
  std::vector<pid_t> out;
  DIR* tasks = ::opendir("/proc/self/task");
  if (tasks == nullptr) return out;
  while (const dirent* e = ::readdir(tasks)) {
    if (e->d_name[0] == '.') continue;
    for (pid_t p : parse_pids(read_text(fmt::format("/proc/self/task/{}/children", e->d_name)))) out.push_back(p);
  }
  ::closedir(tasks);
  return out;
}

// Can `uid` execute files[0] and read the others (every folder on the way included)? Empty when
// it can; otherwise the first refusal, as a sentence.
std::string check_access(uid_t uid, gid_t gid, const std::vector<std::string>& files) {
  char what[160];
  std::snprintf(what, sizeof what, "cannot switch to uid %u", uid);
  std::vector<std::string> refusals;  // built before the fork: the child only picks one
  for (std::size_t i = 0; i < files.size(); ++i) {
    refusals.push_back(fmt::format("uid {} cannot {} {}", uid, i == 0 ? "execute" : "read", files[i]));
  }
  return run_in_child([&](int fd) {
    if (drop_uid(uid, gid) != nullptr) child_fails(fd, what);
    for (std::size_t i = 0; i < files.size(); ++i) {
      if (::access(files[i].c_str(), i == 0 ? X_OK : R_OK) != 0) child_fails(fd, refusals[i].c_str());
    }
  });
}

std::vector<pid_t> children_of(pid_t pid) {
  return parse_pids(read_text(fmt::format("/proc/{}/task/{}/children", pid, pid)));
}

}  // namespace

// ---- tiers and support -----------------------------------------------------------------------

const char* tier_name(Tier tier) {
  switch (tier) {
    case Tier::none:
      return "none";
    case Tier::basic:
      return "basic";
    case Tier::strict:
      return "strict";
  }
  return "?";
}

std::optional<Tier> parse_tier(std::string_view text) {
  if (text == "none") return Tier::none;
  if (text == "basic") return Tier::basic;
  if (text == "strict") return Tier::strict;
  return std::nullopt;
}

Tier SandboxSupport::strictest() const {
  if (seccomp && namespaces) return Tier::strict;
  if (seccomp) return Tier::basic;
  return Tier::none;
}

json SandboxSupport::to_json() const {
  json j = {{"root", root}, {"seccomp", seccomp}, {"namespaces", namespaces}, {"cgroup", cgroup},
            {"cgroup_memory", cgroup_memory}, {"cgroup_pids", cgroup_pids}};
  if (!seccomp_note.empty()) j["seccomp_note"] = seccomp_note;
  if (!namespaces_note.empty()) j["namespaces_note"] = namespaces_note;
  if (!cgroup_note.empty()) j["cgroup_note"] = cgroup_note;
  return j;
}

const SandboxSupport& sandbox_support() {
  static const SandboxSupport support = [] {
    SandboxSupport s;
    s.root = ::geteuid() == 0;
    const SeccompProgram& program = seccomp_program(false);
    if (!program.error.empty()) {
      s.seccomp_note = program.error;
    } else if (::prctl(PR_GET_SECCOMP) < 0) {
      s.seccomp_note = "the kernel has no seccomp";
    } else {
      s.seccomp = true;
    }
    s.namespaces_note = probe_namespaces(s.root);
    s.namespaces = s.namespaces_note.empty();
    if (!s.namespaces) s.namespaces_note = "user namespaces are not available: " + s.namespaces_note;
    if (s.root) {
      probe_cgroup(s);
      if (s.cgroup) {
        std::lock_guard lock(resources().mu);
        resources().cgroup_dir = s.cgroup_dir;
      }
    } else {
      s.cgroup_note = "cgroups are used only when the referee runs as root";
    }
    return s;
  }();
  return support;
}

Result<SandboxPolicy> resolve_policy(std::optional<Tier> requested, const SandboxLimits& limits, bool freeze_idle) {
  const SandboxSupport& s = sandbox_support();
  SandboxPolicy p;
  p.limits = limits;
  p.freeze_idle = freeze_idle;
  p.tier = requested.value_or(s.strictest());
  p.best_effort = !requested.has_value();
  if (p.tier >= Tier::basic && !s.seccomp) {
    return fail(fmt::format("--sandbox {} needs seccomp, which this machine lacks ({}); use --sandbox none", tier_name(p.tier), s.seccomp_note));
  }
  if (p.tier == Tier::strict && !s.namespaces) {
    return fail(fmt::format("--sandbox strict needs namespaces, which this machine refuses ({}); use --sandbox basic", s.namespaces_note));
  }
  return p;
}

std::string describe(const SandboxPolicy& policy) {
  const SandboxSupport& s = sandbox_support();
  const SandboxLimits& l = policy.limits;
  std::vector<std::string> parts = {"own session, parent-death signal, clean environment, descriptors 0-2 only, orphans swept"};
  if (policy.tier >= Tier::basic) {
    const bool nproc = s.root || policy.tier == Tier::strict;
    parts.push_back(fmt::format("rlimits (CPU {} s, address space {}, files {} MiB, {} descriptors{})", l.cpu_seconds,
                                l.address_space_mb == 0 ? std::string("unlimited") : fmt::format("{} MiB", l.address_space_mb),
                                l.file_size_mb, l.open_files, nproc ? fmt::format(", {} processes", l.processes) : std::string()));
    parts.push_back(l.network ? "seccomp deny list (network allowed)" : "seccomp deny list (no sockets but local ones)");
    parts.push_back("private working directory");
    if (s.root) parts.push_back("a uid of its own per bot");
    if (s.root && s.cgroup) {
      std::string cg = "cgroup per bot (kill, freeze, CPU time";
      if (s.cgroup_memory) cg += fmt::format(", memory {} MiB", l.memory_mb);
      if (s.cgroup_pids) cg += fmt::format(", {} tasks", l.processes);
      parts.push_back(cg + ")");
    }
  }
  if (policy.tier == Tier::strict) {
    parts.push_back(l.network ? "namespaces: user, pid, ipc, uts, mount with its own /proc (host network)"
                              : "namespaces: user, pid, network, ipc, uts, mount with its own /proc");
  }
  if (policy.freeze_idle) parts.push_back("frozen while the opponent thinks");
  std::string text = fmt::format("sandbox {}: ", tier_name(policy.tier));
  for (std::size_t i = 0; i < parts.size(); ++i) text += (i ? "; " : "") + parts[i];
  return text;
}

// ---- the jail --------------------------------------------------------------------------------

Result<std::unique_ptr<Jail>> Jail::create(const SandboxPolicy& policy, const std::string& label,
                                           const std::vector<std::string>& files) {
  const SandboxSupport& s = sandbox_support();
  std::unique_ptr<Jail> j(new Jail());
  j->policy_ = policy;
  if (policy.tier == Tier::none) return j;
  if (policy.tier == Tier::strict && !s.namespaces) return fail("the strict sandbox is not available: " + s.namespaces_note);
  j->namespaces_ = policy.tier == Tier::strict;
  if (s.root) {
    auto slot = claim_uid();
    if (!slot) return fail(slot.error());
    j->change_uid_ = true;
    j->uid_ = slot->first;
    j->gid_ = slot->first;
    j->uid_lock_fd_ = slot->second;
    if (std::string refused = check_access(j->uid_, j->gid_, files); !refused.empty()) {
      const std::string fix = "every folder on its path needs o+x, and the file o+r (o+rx to run it)";
      if (!policy.best_effort) return fail(fmt::format("{}. For a uid of its own, {}; or choose --sandbox none", refused, fix));
      ::close(j->uid_lock_fd_);
      j->uid_lock_fd_ = -1;
      j->change_uid_ = false;
      j->uid_ = ::geteuid();
      j->gid_ = ::getegid();
      j->uid_note_ = fmt::format("runs as root: {}. For a uid of its own, {}", refused, fix);
    }
  } else {
    j->uid_ = ::geteuid();
    j->gid_ = ::getegid();
  }
  auto root = work_root();
  if (!root) return fail(root.error());
  std::string pattern = (*root / (label + "-XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr) return fail(fmt::format("cannot create a private directory in {}: {}", root->string(), errno_text(errno)));
  j->work_dir_ = pattern;
  if (j->change_uid_ && ::chown(pattern.c_str(), j->uid_, j->gid_) != 0) {
    return fail(fmt::format("cannot give {} to uid {}: {}", pattern, j->uid_, errno_text(errno)));
  }
  if (s.root && s.cgroup) {
    static std::atomic<std::uint64_t> counter{0};
    const fs::path leaf = s.cgroup_dir / fmt::format("bot-{}", counter.fetch_add(1));
    if (::mkdir(leaf.c_str(), 0755) != 0) return fail(fmt::format("cannot create the cgroup {}: {}", leaf.string(), errno_text(errno)));
    j->cgroup_ = leaf;
    const SandboxLimits& l = policy.limits;
    if (s.cgroup_memory) {
      write_file((leaf / "memory.max").c_str(), std::to_string(l.memory_mb << 20).c_str());
      write_file((leaf / "memory.swap.max").c_str(), "0");
    }
    if (s.cgroup_pids) write_file((leaf / "pids.max").c_str(), std::to_string(l.processes).c_str());
  }
  return j;
}

Jail::~Jail() {
  if (!cgroup_.empty()) {
    kill_tree();
    wait_cgroup_empty(1000);
    ::rmdir(cgroup_.c_str());
  }
  if (cpu_clock_ >= 0) cpu_clock_ = -1;
  std::error_code ec;
  if (!work_dir_.empty()) fs::remove_all(work_dir_, ec);
  if (uid_lock_fd_ >= 0) ::close(uid_lock_fd_);  // releases the uid
}

json Jail::report() const {
  const SandboxSupport& s = sandbox_support();
  json j = {{"tier", tier_name(policy_.tier)}};
  if (policy_.tier == Tier::none) return j;
  const SandboxLimits& l = policy_.limits;
  json limits = {{"cpu_seconds", l.cpu_seconds}, {"address_space_mb", l.address_space_mb},
                 {"file_size_mb", l.file_size_mb}, {"open_files", l.open_files}};
  if (change_uid_ || namespaces_) limits["processes"] = l.processes;
  if (!cgroup_.empty() && s.cgroup_memory) limits["memory_mb"] = l.memory_mb;
  j["limits"] = limits;
  j["seccomp"] = true;
  j["network"] = l.network;
  j["uid"] = change_uid_ ? json(uid_) : json(nullptr);
  if (!uid_note_.empty()) j["uid_note"] = uid_note_;
  j["cgroup"] = !cgroup_.empty();
  j["namespaces"] = namespaces_ ? json::array({"user", "pid", "ipc", "uts", "mount"}) : json::array();
  if (namespaces_ && !l.network) j["namespaces"].push_back("network");
  j["freeze_idle"] = policy_.freeze_idle;
  j["cpu_time"] = cpu_source();
  return j;
}

void Jail::plan(ChildPlan& p) const {
  if (policy_.tier == Tier::none) return;
  const SandboxLimits& l = policy_.limits;
  p.cwd = work_dir_.string();
  p.cgroup_procs = cgroup_.empty() ? std::string() : (cgroup_ / "cgroup.procs").string();
  p.change_uid = change_uid_;
  p.uid = uid_;
  p.gid = gid_;
  p.namespaces = namespaces_;
  p.network_namespace = namespaces_ && !l.network;
  p.uid_map = fmt::format("{} {} 1", uid_, uid_);
  p.gid_map = fmt::format("{} {} 1", gid_, gid_);
  p.limits = true;
  p.cpu_seconds = l.cpu_seconds;
  p.rlimits = {{RLIMIT_FSIZE, l.file_size_mb << 20}, {RLIMIT_NOFILE, l.open_files}};
  if (l.address_space_mb > 0) p.rlimits.emplace_back(RLIMIT_AS, l.address_space_mb << 20);
  // RLIMIT_NPROC counts every process of the real uid: meaningful only for a uid of the bot's
  // own or inside its own user namespace.
  p.nproc = change_uid_ || namespaces_ ? l.processes : 0;
  p.seccomp = &seccomp_program(l.network).prog;
}

void Jail::started(pid_t leader) {
  leader_ = leader;
  bot_ = leader;
  if (namespaces_) {
    // leader (outside) -> the namespace's init -> the bot. All exist once the exec succeeded.
    const auto init = children_of(leader);
    const auto bot = init.empty() ? std::vector<pid_t>() : children_of(init.front());
    if (!bot.empty()) bot_ = bot.front();
  }
  clockid_t clock{};
  if (::clock_getcpuclockid(bot_, &clock) == 0) cpu_clock_ = static_cast<int>(clock);
}

const char* Jail::cpu_source() const {
  if (!cgroup_.empty()) return "cgroup (the whole process tree)";
  return "the bot process (all threads, not its children)";
}

double Jail::cpu_ms() const {
  if (!cgroup_.empty()) {
    const int fd = ::open((cgroup_ / "cpu.stat").c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    char buf[512];
    const ssize_t n = ::read(fd, buf, sizeof buf - 1);
    ::close(fd);
    if (n <= 0) return -1;
    buf[n] = '\0';
    const char* at = std::strstr(buf, "usage_usec ");
    if (at == nullptr) return -1;
    return static_cast<double>(std::strtoull(at + 11, nullptr, 10)) / 1000.0;
  }
  if (cpu_clock_ == -1 && bot_ <= 0) return -1;
  clockid_t clock{};
  if (::clock_getcpuclockid(bot_, &clock) != 0) return -1;
  timespec ts{};
  if (::clock_gettime(clock, &ts) != 0) return -1;
  return static_cast<double>(ts.tv_sec) * 1000.0 + static_cast<double>(ts.tv_nsec) / 1e6;
}

void Jail::freeze(bool frozen) const {
  if (!cgroup_.empty()) {
    write_file((cgroup_ / "cgroup.freeze").c_str(), frozen ? "1" : "0");
    return;
  }
  if (leader_ > 0) ::kill(-leader_, frozen ? SIGSTOP : SIGCONT);
}

bool Jail::kill_tree() const {
  if (cgroup_.empty()) return false;
  write_file((cgroup_ / "cgroup.freeze").c_str(), "0");
  return write_file((cgroup_ / "cgroup.kill").c_str(), "1");
}

std::vector<pid_t> Jail::cgroup_pids() const {
  if (cgroup_.empty()) return {};
  return parse_pids(read_text(cgroup_ / "cgroup.procs"));
}

bool Jail::wait_cgroup_empty(int max_ms) const {
  if (cgroup_.empty()) return true;
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(max_ms);
  for (;;) {
    if (read_text(cgroup_ / "cgroup.events").find("populated 0") != std::string::npos) return true;
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

// ---- the child side ----------------------------------------------------------------------------

namespace {

// The last steps before exec, in the process that becomes the bot.
const char* finish_child(const ChildPlan& p) noexcept {
  if (::dup2(p.stdin_fd, 0) < 0 || ::dup2(p.stdout_fd, 1) < 0 || ::dup2(p.stderr_fd, 2) < 0) return "dup2";
  // Every other descriptor closes at exec (Boost's exec-error pipe must stay open until then).
  ::syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC);
  if (!p.cwd.empty() && ::chdir(p.cwd.c_str()) != 0) return "chdir to the working directory";
  if (p.seccomp != nullptr) {
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return "no_new_privs";
    if (::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, p.seccomp) != 0) return "installing the seccomp filter";
  }
  return nullptr;
}

const char* set_limit(int resource, std::uint64_t soft, std::uint64_t hard) noexcept {
  const rlimit r{static_cast<rlim_t>(soft), static_cast<rlim_t>(hard)};
  if (::setrlimit(static_cast<__rlimit_resource>(resource), &r) != 0) return "setrlimit";
  return nullptr;
}

}  // namespace

const char* enter_sandbox(const ChildPlan& p) noexcept {
  // Default signal dispositions and an empty mask (ignored signals survive exec otherwise).
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig) ::sigaction(sig, &dfl, nullptr);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  if (::setsid() < 0) return "setsid";
  if (!p.cgroup_procs.empty() && !write_file(p.cgroup_procs.c_str(), "0")) return "joining the bot's cgroup";
  if (const char* step = set_limit(RLIMIT_CORE, 0, 0)) return step;
  if (p.limits) {
    for (const auto& [resource, value] : p.rlimits) {
      if (const char* step = set_limit(resource, value, value)) return step;
    }
    if (const char* step = set_limit(RLIMIT_CPU, p.cpu_seconds, p.cpu_seconds + 5)) return step;
  }
  if (p.change_uid) {
    if (const char* step = drop_uid(p.uid, p.gid)) return step;
  }
  // After the uid change, which clears it; then make sure the referee did not die meanwhile.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != p.referee) ::_exit(127);

  if (!p.namespaces) {
    if (p.nproc > 0) {
      if (const char* step = set_limit(RLIMIT_NPROC, p.nproc, p.nproc)) return step;
    }
    return finish_child(p);
  }

  // Three processes: this one stays outside as the one the referee waits for and kills; the
  // namespace's init reaps and, when the bot ends, takes the whole namespace with it; the bot is
  // an ordinary process inside (an init would ignore its own signals, SIGKILL included).
  if (::unshare(namespace_flags(!p.network_namespace)) != 0) return "unshare";
  if (const char* step = write_id_maps(p.uid_map.c_str(), p.gid_map.c_str())) return step;
  int status_pipe[2], alive_pipe[2];
  if (::pipe2(status_pipe, O_CLOEXEC) != 0) return "pipe";
  if (::pipe2(alive_pipe, O_CLOEXEC) != 0) return "pipe";
  const pid_t init = ::fork();
  if (init < 0) return "fork";
  if (init > 0) {
    close_all_but(status_pipe[0], alive_pipe[1]);
    int status = 0;
    wait_child(init, status);
    int bot_status = 0;
    if (::read(status_pipe[0], &bot_status, sizeof bot_status) == static_cast<ssize_t>(sizeof bot_status)) mirror_exit(bot_status);
    mirror_exit(status);
  }
  ::close(status_pipe[0]);
  ::close(alive_pipe[1]);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  pollfd alive{alive_pipe[0], POLLIN, 0};
  if (::poll(&alive, 1, 0) != 0) ::_exit(127);  // the outer process is already gone
  ::close(alive_pipe[0]);
  if (const char* step = mount_own_proc()) return step;
  ::sethostname("arena", 5);
  if (p.nproc > 0) {
    if (const char* step = set_limit(RLIMIT_NPROC, p.nproc, p.nproc)) return step;
  }
  const pid_t bot = ::fork();
  if (bot < 0) return "fork";
  if (bot > 0) {
    close_all_but(status_pipe[1], -1);
    int bot_status = 0;
    for (;;) {
      int status = 0;
      const pid_t w = ::waitpid(-1, &status, 0);
      if (w == bot) {
        bot_status = status;
        break;
      }
      if (w < 0 && errno != EINTR) break;
    }
    (void)!::write(status_pipe[1], &bot_status, sizeof bot_status);
    ::_exit(0);  // the kernel now kills whatever is left in the namespace
  }
  ::close(status_pipe[1]);
  return finish_child(p);
}

// ---- orphans ---------------------------------------------------------------------------------

SpawnLock::SpawnLock() { registry_mutex().lock(); }
SpawnLock::~SpawnLock() { registry_mutex().unlock(); }

void register_leader(pid_t pid) { leaders().insert(pid); }  // under SpawnLock

void unregister_leader(pid_t pid) {
  std::lock_guard lock(registry_mutex());
  leaders().erase(pid);
}

void sweep_orphans() {
  const pid_t own_session = ::getsid(0);
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
  std::set<pid_t> killed;
  for (;;) {
    bool found = false;
    {
      std::lock_guard lock(registry_mutex());
      for (pid_t child : own_children()) {
        if (leaders().count(child) != 0) continue;
        const pid_t sid = ::getsid(child);
        // Our own session's children are the caller's business (tests run tools); a live bot's
        // session belongs to that bot, whose teardown kills it.
        if (sid < 0 || sid == own_session || leaders().count(sid) != 0) continue;
        found = true;
        if (killed.insert(child).second) {
          const pid_t group = ::getpgid(child);
          if (group > 0 && group != ::getpgid(0)) ::kill(-group, SIGKILL);
          ::kill(child, SIGKILL);
        }
        siginfo_t info{};
        ::waitid(P_PID, static_cast<id_t>(child), &info, WEXITED | WNOHANG);
      }
    }
    if (!found || std::chrono::steady_clock::now() >= until) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

}  // namespace arena::bots
