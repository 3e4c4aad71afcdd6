#pragma once
// Internals shared by the sandbox's files (sandbox.cpp: tiers and the machine probe; seccomp.cpp:
// the system-call filters; jail.cpp: one bot's resources; uid_slots.cpp: uids per bot and their
// purge; root_fs.cpp: what a strict bot sees of the file system; child.cpp: the set-up between
// fork and exec). Not for other layers.
//
// Functions marked "child" are called between fork and exec and make async-signal-safe calls only.

#include <fcntl.h>
#include <linux/filter.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

#include "referee/bots/sandbox.hpp"

namespace arena::bots::detail {

std::string errno_text(int err);
// Closes `fd` if it is open and marks it closed (-1).
void close_fd(int& fd) noexcept;

// A process's CPU-time clock (CpuClock, sandbox.hpp), or one that is not valid when the process is
// already gone.
CpuClock cpu_clock_of(pid_t pid) noexcept;
// The clock's time in milliseconds, or -1 (no clock, or its process is gone).
double cpu_clock_ms(CpuClock clock) noexcept;
std::string read_text(const std::filesystem::path& path);

// child: writes `text` to an existing file (cgroup and /proc control files).
bool write_file(const char* path, const char* text) noexcept;
// child: waits for `pid`, retrying on EINTR.
pid_t wait_child(pid_t pid, int& status) noexcept;
// child: drops every group and sets real, effective and saved ids; the failed step or null.
const char* drop_uid(uid_t uid, gid_t gid) noexcept;
// child: the namespaces of the strict tier (the network one unless the host network is kept).
int namespace_flags(bool keep_network) noexcept;
// child: maps ids into the user namespace this process just created; the failed step or null.
const char* write_id_maps(const char* uid_map, const char* gid_map) noexcept;

// The seccomp program for a tier (seccomp.cpp): built once per referee with libseccomp.
struct SeccompProgram {
  std::vector<sock_filter> code;
  sock_fprog prog{};
  std::string error;
};
const SeccompProgram& seccomp_program(Tier tier, bool network);

// child: enters a mount namespace of its own set up as `mounts` says (tier basic as root,
// PrivateMounts); the failed step or null.
const char* enter_private_mounts(const PrivateMounts& mounts) noexcept;
// The shared temporary folders: a private tmpfs in tier basic's mount namespace, purged of a
// uid's files without one.
inline constexpr const char* kTempFolders[] = {"/tmp", "/var/tmp", "/dev/shm"};

std::vector<pid_t> parse_pids(const std::string& text);
// child: builds the strict tier's root (root_fs.hpp) and pivots into it; the failed step or null.
const char* build_root(const RootFs& root) noexcept;

// What the referee removes at exit: its cgroup folder and the bots' private folders.
struct ProcessResources {
  std::mutex mu;
  std::filesystem::path cgroup_dir;
  std::filesystem::path work_root;
  ~ProcessResources();
};
ProcessResources& resources();

// uid_slots.cpp. A uid no other bot uses now and no account owns, purged of whatever an earlier
// bot of it left; held by a lock file across referees: (uid, lock descriptor).
Result<std::pair<uid_t, int>> claim_uid();
// The lock file that says a uid is in use (held with flock), in a folder only root may enter.
std::filesystem::path uid_lock_path(uid_t uid);
// Purges it, then frees it. `tree_dead`: the bot's cgroup or namespace is known to be empty.
// `saw_host_folders`: the bot could write the host's temporary folders (no mount namespace of its
// own covering them); when not, its files there cannot exist and are not looked for.
void release_uid(uid_t uid, int lock_fd, bool tree_dead, bool saw_host_folders);
// Kills every process of `uid` (only checks there is none when `tree_dead`) and, unless
// `saw_host_folders` is false, removes its files from /tmp, /var/tmp and /dev/shm (and every
// world-writable folder after purge_everywhere): a readdir and a stat per entry of each.
void purge_uid(uid_t uid, bool tree_dead, bool saw_host_folders = true);
// From now on purge_uid also looks in every world-writable folder of the machine (found once):
// for basic bots as root without a mount namespace of their own.
void purge_everywhere();
// Kills a cgroup's tree and removes the folder.
void kill_cgroup(const std::string& path);
// The guardian (as root): a process of its own that purges the uids and kills the cgroups this
// referee holds if the referee dies with them held. `key` is a uid, "cg <cgroup folder>" or
// "wr <the bots' private folders>".
void start_guardian();
void guard(const std::string& key, bool held);
std::vector<pid_t> children_of(pid_t pid);

// child: writes "<what>: <errno text>" to `fd` and exits 1.
[[noreturn]] inline void child_fails(int fd, const char* what) noexcept {
  char buf[300];
  const int n = std::snprintf(buf, sizeof buf, "%s: %s", what, ::strerrordesc_np(errno));
  (void)!::write(fd, buf, static_cast<std::size_t>(std::clamp(n, 0, static_cast<int>(sizeof buf) - 1)));
  ::_exit(1);
}

// Runs `body(fd)` in a forked child, which may write at most a short text to `fd` (a failure, as
// a sentence) and only make async-signal-safe calls; the child then exits. Returns that text:
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

}  // namespace arena::bots::detail
