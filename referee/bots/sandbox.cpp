#include "referee/bots/sandbox.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <linux/filter.h>
#include <poll.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
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

#include "referee/bots/sandbox_detail.hpp"

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

namespace arena::bots {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace detail;

namespace detail {

std::string errno_text(int err) {
  return std::error_code(err, std::system_category()).message();
}

void close_fd(int& fd) noexcept {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

CpuClock cpu_clock_of(pid_t pid) noexcept {
  CpuClock c;
  c.valid = pid > 0 && ::clock_getcpuclockid(pid, &c.id) == 0;
  return c;
}

double cpu_clock_ms(CpuClock clock) noexcept {
  timespec ts{};
  if (!clock.valid || ::clock_gettime(clock.id, &ts) != 0) return -1;
  return static_cast<double>(ts.tv_sec) * 1000.0 + static_cast<double>(ts.tv_nsec) / 1e6;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

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

pid_t wait_child(pid_t pid, int& status) noexcept {
  for (;;) {
    const pid_t w = ::waitpid(pid, &status, 0);
    if (w >= 0 || errno != EINTR) return w;
  }
}

const char* drop_uid(uid_t uid, gid_t gid) noexcept {
  if (::syscall(SYS_setgroups, 0, nullptr) != 0) return "setgroups";
  if (::syscall(SYS_setresgid, gid, gid, gid) != 0) return "setresgid";
  if (::syscall(SYS_setresuid, uid, uid, uid) != 0) return "setresuid";
  return nullptr;
}

int namespace_flags(bool keep_network) noexcept {
  // The cgroup namespace roots /proc/self/cgroup at the bot's own leaf (joined before).
  int flags = CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWNS | CLONE_NEWCGROUP;
  if (!keep_network) flags |= CLONE_NEWNET;
  return flags;
}

// In a process that just unshared its user namespace: map its own uid and gid into it. Its
// /proc/self files belong to root while it is not dumpable (a uid change or the referee's own
// setting makes it so), hence the dumpable flag around the writes.
const char* write_id_maps(const char* uid_map, const char* gid_map) noexcept {
  ::prctl(PR_SET_DUMPABLE, 1);
  const char* failed = nullptr;
  if (!write_file("/proc/self/setgroups", "deny")) failed = "writing /proc/self/setgroups";
  if (failed == nullptr && !write_file("/proc/self/uid_map", uid_map)) failed = "writing /proc/self/uid_map";
  if (failed == nullptr && !write_file("/proc/self/gid_map", gid_map)) failed = "writing /proc/self/gid_map";
  ::prctl(PR_SET_DUMPABLE, 0);
  return failed;
}

std::vector<pid_t> parse_pids(const std::string& text) {
  std::vector<pid_t> out;
  std::istringstream in(text);
  long v = 0;
  while (in >> v) out.push_back(static_cast<pid_t>(v));
  return out;
}

std::vector<pid_t> children_of(pid_t pid) {
  return parse_pids(read_text(fmt::format("/proc/{}/task/{}/children", pid, pid)));
}

ProcessResources::~ProcessResources() {
  std::error_code ec;
  if (!work_root.empty()) fs::remove_all(work_root, ec);
  if (!cgroup_dir.empty()) ::rmdir(cgroup_dir.c_str());
}

ProcessResources& resources() {
  static ProcessResources r;
  return r;
}

}  // namespace detail

namespace {

constexpr uid_t kProbeUid = 65534;  // nobody: the probe's unprivileged user, as root

// ---- namespaces ---------------------------------------------------------------------------

// The probe: does the whole strict set-up work here, as the user bots will run as? User, PID,
// network, IPC, UTS and mount namespaces, a root of its own built and pivoted into, PID 1.
std::string probe_namespaces(bool root) {
  const uid_t uid = root ? kProbeUid : ::geteuid();
  const gid_t gid = root ? kProbeUid : ::getegid();
  const char* tmp = std::getenv("TMPDIR");
  std::string mount_point = fmt::format("{}/stellar-arena-probe-XXXXXX", tmp != nullptr && *tmp != '\0' ? tmp : "/tmp");
  if (::mkdtemp(mount_point.data()) == nullptr)
    return fmt::format("cannot create {}: {}", mount_point, errno_text(errno));
  if (root && ::chown(mount_point.c_str(), uid, gid) != 0) {
    ::rmdir(mount_point.c_str());
    return fmt::format("cannot give {} to uid {}: {}", mount_point, uid, errno_text(errno));
  }
  auto plan = plan_root_fs({"/bin/true", {}, true}, {}, {}, 1, mount_point);
  if (!plan) {
    ::rmdir(mount_point.c_str());
    return plan.error();
  }
  char uid_map[64], gid_map[64];
  std::snprintf(uid_map, sizeof uid_map, "%u %u 1", uid, uid);
  std::snprintf(gid_map, sizeof gid_map, "%u %u 1", gid, gid);
  const RootFs& fs_plan = plan->fs;
  std::string failed = run_in_child([&](int fd) {
    if (root) {
      if (const char* step = drop_uid(uid, gid)) child_fails(fd, step);
    }
    if (::unshare(namespace_flags(false)) != 0) child_fails(fd, "unshare");
    if (const char* step = write_id_maps(uid_map, gid_map)) child_fails(fd, step);
    const pid_t init = ::fork();
    if (init < 0) child_fails(fd, "fork in the new PID namespace");
    if (init == 0) {
      if (const char* step = build_root(fs_plan)) child_fails(fd, step);
      if (::getpid() != 1) {
        errno = EINVAL;
        child_fails(fd, "the first process of the new PID namespace is not PID 1");
      }
      if (::access("/usr", R_OK) != 0 || ::access("/proc/self", R_OK) != 0)
        child_fails(fd, "the bot's root lacks /usr or /proc");
      ::_exit(0);
    }
    int status = 0;
    wait_child(init, status);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ::_exit(1);
  });
  close_trees(plan->fs);
  ::rmdir(mount_point.c_str());
  return failed;
}

// Tier basic's mount namespace (PrivateMounts), set up in a test child as for a bot: the host's
// mounts must come out read-only and the working directory writable.
std::string probe_private_mounts(bool root) {
  if (!root) {
    return "a mount namespace without a user namespace needs root (CAP_SYS_ADMIN)";
  }
  const char* tmp = std::getenv("TMPDIR");
  std::string dir = fmt::format("{}/stellar-arena-probe-XXXXXX", tmp != nullptr && *tmp != '\0' ? tmp : "/tmp");
  if (::mkdtemp(dir.data()) == nullptr) return fmt::format("cannot create {}: {}", dir, errno_text(errno));
  PrivateMounts m;
  m.enabled = true;
  m.scratch_options = "size=1m,nr_inodes=64,mode=1777";
  KeptPath work;
  work.path = dir;
  work.parents = {fs::path(dir).parent_path().string()};
  work.writable = true;
  m.kept.push_back(work);
  const std::string file = dir + "/probe";
  std::string failed = run_in_child([&](int fd) {
    if (const char* step = enter_private_mounts(m)) child_fails(fd, step);
    const int own = ::open(file.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    if (own < 0) child_fails(fd, "the working directory is not writable in the mount namespace");
    ::close(own);
    errno = 0;
    if (::open("/etc/.stellar-arena-probe", O_WRONLY | O_CREAT | O_CLOEXEC, 0600) >= 0 || errno != EROFS) {
      ::unlink("/etc/.stellar-arena-probe");
      errno = EINVAL;
      child_fails(fd, "the host's mounts are not read-only in the mount namespace");
    }
  });
  ::unlink(file.c_str());
  ::rmdir(dir.c_str());
  return failed;
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
  // Folders of referees that died without removing theirs (SIGKILL): whatever runs there is killed.
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(own, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("stellar-arena-", 0) != 0) continue;
    const long pid = std::strtol(name.c_str() + 14, nullptr, 10);
    if (pid <= 0 || ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
    for (const auto& leaf : fs::directory_iterator(entry.path(), ec)) {
      if (leaf.is_directory()) kill_cgroup(leaf.path().string());  // a survivor of a SIGKILLed referee
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
    s.cgroup_note =
        fmt::format("{} has no {} controller here; rlimits stand in", dir.parent_path().string(),
                    !s.cgroup_memory && !s.cgroup_pids ? "memory or pids" : (!s.cgroup_memory ? "memory" : "pids"));
  }
}

}  // namespace

// ---- tiers and support -----------------------------------------------------------------------

Tier SandboxSupport::strictest() const {
  if (seccomp && namespaces) return Tier::strict;
  if (seccomp) return Tier::basic;
  return Tier::none;
}

json SandboxSupport::to_json() const {
  json j = {{"root", root},
            {"seccomp", seccomp},
            {"namespaces", namespaces},
            {"cgroup", cgroup},
            {"cgroup_memory", cgroup_memory},
            {"cgroup_pids", cgroup_pids}};
  if (!seccomp_note.empty()) j["seccomp_note"] = seccomp_note;
  if (!namespaces_note.empty()) j["namespaces_note"] = namespaces_note;
  if (!cgroup_note.empty()) j["cgroup_note"] = cgroup_note;
  j["private_mounts"] = private_mounts;
  if (!private_mounts_note.empty()) j["private_mounts_note"] = private_mounts_note;
  return j;
}

const SandboxSupport& sandbox_support() {
  static const SandboxSupport support = [] {
    SandboxSupport s;
    s.root = ::geteuid() == 0;
    const SeccompProgram& program = seccomp_program(Tier::basic, false);
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
    s.private_mounts_note = probe_private_mounts(s.root);
    s.private_mounts = s.private_mounts_note.empty();
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
  if (p.tier >= Tier::basic && !s.seccomp) {
    return fail(fmt::format("--sandbox {} needs seccomp, which this machine lacks ({}); use --sandbox none",
                            enum_name(p.tier), s.seccomp_note));
  }
  if (p.tier == Tier::strict && !s.namespaces) {
    return fail(fmt::format("--sandbox strict needs namespaces, which this machine refuses ({}); use --sandbox basic",
                            s.namespaces_note));
  }
  return p;
}

std::string describe(const SandboxPolicy& policy) {
  const SandboxSupport& s = sandbox_support();
  const SandboxLimits& l = policy.limits;
  std::vector<std::string> parts = {
      "own session, parent-death signal, clean environment, descriptors 0-2 only, orphans swept"};
  if (policy.tier >= Tier::basic) {
    const bool nproc = s.root || policy.tier == Tier::strict;
    parts.push_back(
        fmt::format("rlimits (CPU {} s, address space {}, files {} MiB, {} descriptors{})", l.cpu_seconds,
                    l.address_space_mb == 0 ? std::string("unlimited") : fmt::format("{} MiB", l.address_space_mb),
                    l.file_size_mb, l.open_files, nproc ? fmt::format(", {} processes", l.processes) : std::string()));
    parts.push_back(l.network ? "seccomp deny list (network allowed)"
                              : "seccomp deny list (no socket(), socketpair only)");
    parts.push_back("file locks without effect, no leases, dnotify or inotify (no channel through shared files)");
    if (policy.tier == Tier::basic) {
      parts.push_back("no SysV IPC, message queues or listening sockets; private working directory");
      parts.push_back(s.private_mounts
                          ? fmt::format("a mount namespace of its own: the host read-only, {} MiB of private /tmp, "
                                        "/var/tmp and /dev/shm, /proc showing only its own uid's processes "
                                        "(world-readable files stay readable: use strict)",
                                        l.scratch_mb)
                          : fmt::format("no mount namespace ({}): the host's writable folders and /proc are shared "
                                        "(use strict)",
                                        s.private_mounts_note));
    }
    parts.push_back(s.root && s.cgroup_memory
                        ? fmt::format("memory of the tree {} MiB (cgroup)", l.memory_mb)
                        : fmt::format("memory of the tree {} MiB (sampled every 10 ms)", l.memory_mb));
    if (s.root) parts.push_back("a uid of its own per bot, purged before and after");
    if (s.root && s.cgroup) {
      std::string cg = "cgroup per bot (kill, freeze, CPU time";
      if (s.cgroup_memory) cg += fmt::format(", memory {} MiB", l.memory_mb);
      if (s.cgroup_pids) cg += fmt::format(", {} tasks", l.processes);
      parts.push_back(cg + ")");
    }
  }
  if (policy.tier == Tier::strict) {
    parts.push_back(l.network ? "namespaces: user, pid, ipc, uts, cgroup, mount with its own /proc (host network)"
                              : "namespaces: user, pid, network, ipc, uts, cgroup, mount with its own /proc");
    parts.push_back(fmt::format(
        "a root of its own: system folders and its program read-only, {} MiB of private scratch", l.scratch_mb));
  }
  if (policy.freeze_idle) parts.push_back("frozen while the opponent thinks");
  std::string text = fmt::format("sandbox {}: ", enum_name(policy.tier));
  for (std::size_t i = 0; i < parts.size(); ++i) text += (i ? "; " : "") + parts[i];
  return text;
}

}  // namespace arena::bots
