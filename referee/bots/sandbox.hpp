#pragma once
// Containment of bot processes: what a bot may do, enforced by the kernel (docs/security.md).
//
// Three tiers. `none`: only process hygiene (own session, parent-death signal, no core files,
// only descriptors 0-2, a clean environment, orphans swept). `basic`: plus rlimits, no new
// privileges and a seccomp deny list (no SysV IPC, no listening sockets), a private working
// directory, the tree's memory held to a limit; as root also a distinct uid per running bot,
// purged of processes and temporary files before and after use (also by a guardian process when
// the referee is killed), and a cgroup v2 leaf per bot when a writable cgroup v2 tree exists.
// `strict`: plus new user, PID, network, IPC, UTS and mount namespaces, with a root file system of
// its own (root_fs.hpp): the system folders and its own program folder read-only, private
// size-limited scratch space, its own /proc; the whole tree dies with the namespace, and the bot
// sees no other process, no network and none of the referee's or other bots' files.
//
// What the machine allows is probed once by forking a test child (sandbox_support()). A Jail is
// the per-bot half: the resources one bot's containment needs (its uid slot, cgroup leaf,
// private directory, root file system), the child-side set-up run between fork and exec, and the
// controls the referee uses on a running bot (CPU time, memory, freeze, kill of the whole tree).

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "referee/bots/memory_gauge.hpp"
#include "referee/bots/root_fs.hpp"
#include "referee/core/enum_names.hpp"
#include "referee/core/result.hpp"

namespace arena::bots {

enum class Tier { none, basic, strict };

// A process's CPU-time clock, looked up once (detail::cpu_clock_of): clock_getcpuclockid asks the
// kernel every time (a clock_getres), and a bot's CPU is read at every decision. Valid while the
// process (or its zombie) holds its pid.
struct CpuClock {
  clockid_t id{};
  bool valid = false;
};

struct SandboxLimits {
  std::uint64_t cpu_seconds = 300;        // RLIMIT_CPU per process: SIGXCPU, SIGKILL 5 s later
  std::uint64_t address_space_mb = 8192;  // RLIMIT_AS per process; 0 = unlimited (JVMs reserve a lot)
  std::uint64_t memory_mb = 2048;         // the bot's whole tree: cgroup memory.max, else sampled and killed
  std::uint64_t file_size_mb = 64;        // RLIMIT_FSIZE: the largest file the bot can write
  std::uint64_t open_files = 256;         // RLIMIT_NOFILE
  std::uint64_t processes = 128;          // processes and threads: RLIMIT_NPROC / pids.max
  std::uint64_t scratch_mb = 64;          // strict: /tmp, /var/tmp, /dev/shm and the home together
  bool network = false;                   // allow sockets other than AF_UNIX, keep the host network
};

struct SandboxPolicy {
  Tier tier = Tier::basic;
  SandboxLimits limits;
  bool freeze_idle = false;  // stop a bot while it is not its turn (the referee does this)
};

// What this machine lets the referee do. Each `*_note` says why a feature is missing.
struct SandboxSupport {
  bool root = false;
  bool seccomp = false;
  std::string seccomp_note;
  bool namespaces = false;  // user, pid, net, ipc, uts, cgroup and mount namespaces with a fresh /proc
  std::string namespaces_note;
  // Tier basic, as root: a mount namespace per bot (PrivateMounts). Without it (not root, or no
  // CAP_SYS_ADMIN) basic bots share the host's writable folders and /proc; the note says why.
  bool private_mounts = false;
  std::string private_mounts_note;
  bool cgroup = false;  // a writable cgroup v2 subtree: kill, freeze and CPU time of the tree
  bool cgroup_memory = false;
  bool cgroup_pids = false;
  std::string cgroup_note;
  std::filesystem::path cgroup_dir;  // this referee's own folder in it

  Tier strictest() const;
  nlohmann::json to_json() const;
};

// Probed on first use (forks one test child), then cached; thread-safe.
const SandboxSupport& sandbox_support();

// The policy to use: `requested` (empty: the strictest the machine supports). An error says why
// a requested tier cannot be given on this machine.
Result<SandboxPolicy> resolve_policy(std::optional<Tier> requested, const SandboxLimits& limits, bool freeze_idle);

// A one-line description of what a tier gives on this machine, for `referee play --verbose`.
std::string describe(const SandboxPolicy& policy);

struct ChildPlan;

// Tier basic as root: the bot's own mount namespace (root has CAP_SYS_ADMIN without a user
// namespace). Every host mount is read-only there; /tmp, /var/tmp and /dev/shm are one private
// tmpfs of `--scratch-mb`; its private working directory stays writable, and the files it needs
// that lay under those three folders (its program's folder, its arguments) are shown read-only at
// their paths; /proc is a fresh one with hidepid=invisible (other uids' processes do not exist),
// and /sys/fs/cgroup an empty folder (no bot's memory or CPU figures).
// So a bot leaves nothing behind but what dies with its namespace and its private folder.
struct KeptPath {
  std::string path;                  // shown at the same path in the bot's namespace
  std::vector<std::string> parents;  // folders to create above it, top first (under a tmpfs)
  bool folder = true;                // else a file
  bool writable = false;             // the working directory
};
struct PrivateMounts {
  bool enabled = false;
  std::vector<KeptPath> kept;   // at most kMaxKept
  std::string scratch_options;  // the tmpfs' options (size=...)
  static constexpr std::size_t kMaxKept = 16;
};

class Jail {
 public:
  // Reserves what one bot needs. `label` names its private directory (e.g. "seat0"). In the strict
  // tier `command` is rewritten to the paths the bot sees (/bot/...), and `hidden` (other bots'
  // programs) and `outputs` (the referee's output folders) are masked in its root. An error says why the bot
  // cannot run contained (a file its uid cannot read, with the fix); a bot never runs as root.
  // A `workspace` (SpawnOptions::workspace) is given to the bot's uid and is its working
  // directory, writable (strict: shown at /bot). A `storage` folder (SpawnOptions::storage) is
  // given to the bot's uid too and stays writable (strict: shown at /storage).
  static Result<std::unique_ptr<Jail>> create(const SandboxPolicy& policy, const std::string& label,
                                              BotCommand& command, const std::vector<std::filesystem::path>& hidden,
                                              const std::vector<std::filesystem::path>& outputs,
                                              const std::filesystem::path& workspace = {},
                                              const std::filesystem::path& storage = {});
  ~Jail();  // purges and releases the uid, removes the cgroup leaf and the private directory
  Jail(const Jail&) = delete;
  Jail& operator=(const Jail&) = delete;

  const SandboxPolicy& policy() const { return policy_; }
  // The bot's HOME and TMPDIR as it sees them (empty in tier none).
  const std::string& home() const { return home_; }
  const std::string& tmp() const { return tmp_; }
  // The storage folder as the bot sees it (empty without one).
  const std::string& storage() const { return storage_; }
  // What is enforced for this bot, for the replay header.
  nlohmann::json report() const;

  // Fills the containment part of the child-side plan (the caller sets the descriptors, and the
  // working directory in tier none).
  void plan(ChildPlan& plan) const;

  // After the spawn: `leader` is the process the referee started (the outer one with namespaces).
  void started(pid_t leader);
  // CPU time of the bot, in ms: the whole tree with a cgroup, else the bot process (all its
  // threads, not its children). Negative when unknown.
  double cpu_ms() const;
  const char* cpu_source() const;
  bool cpu_covers_tree() const { return !cgroup_.empty(); }
  // Stops or resumes the whole tree (cgroup freezer, else SIGSTOP/SIGCONT to its process group).
  void freeze(bool frozen) const;
  // Kills every process of the tree it can reach (cgroup.kill); false without a cgroup.
  bool kill_tree() const;
  // The processes of the bot's tree: its cgroup's, else the descendants of the leader.
  std::vector<pid_t> tree_pids() const;
  // Whose memory the referee's sampler counts (memory_gauge.hpp), once started.
  MemoryScope memory_scope() const;
  // True when the kernel holds the tree to memory_mb (cgroup memory.max); else the referee samples.
  bool memory_by_cgroup() const;
  // The cgroup leaf's folder, open (for spawn_into_cgroup); -1 without one.
  int cgroup_dir_fd() const { return cgroup_fd_; }
  // Waits (briefly) until the cgroup is empty; true if it is.
  bool wait_cgroup_empty(int max_ms) const;

 private:
  Jail() = default;
  SandboxPolicy policy_;
  bool namespaces_ = false;
  bool change_uid_ = false;
  uid_t uid_ = 0;
  gid_t gid_ = 0;
  int uid_lock_fd_ = -1;
  std::filesystem::path work_dir_;
  std::filesystem::path workspace_;  // a build's folder: its working directory, writable
  std::string home_, tmp_, storage_;
  RootFs root_;                     // strict: the bot's root file system, built by its init
  PrivateMounts mounts_;            // basic as root: its own mount namespace
  std::vector<std::string> shown_;  // strict: host folders shown to the bot, for the report
  std::filesystem::path cgroup_;    // empty: no cgroup leaf
  int cgroup_fd_ = -1;              // the leaf's folder, open while it exists (spawn_into_cgroup)
  int cpu_stat_fd_ = -1;            // its cpu.stat and cgroup.freeze, open while it exists
  int freeze_fd_ = -1;
  void set_cgroup_frozen(bool frozen) const;
  pid_t leader_ = -1;
  pid_t bot_ = -1;              // the process that exec'd the bot (inside the namespaces when there are some)
  std::vector<pid_t> helpers_;  // strict: leader_ and the namespace's init (MemoryScope::helpers)
  CpuClock bot_clock_;          // bot_'s CPU-time clock
};

// Everything the child needs between fork and exec, computed before the fork so the child only
// makes async-signal-safe system calls.
struct ChildPlan {
  pid_t referee = 0;
  int stdin_fd = -1, stdout_fd = -1, stderr_fd = -1;
  std::string cwd;              // empty: stay
  std::string cgroup_procs;     // join this cgroup first; empty: none
  bool born_in_cgroup = false;  // started in it already (spawn_into_cgroup): nothing to join
  bool change_uid = false;
  uid_t uid = 0;
  gid_t gid = 0;
  bool namespaces = false;
  bool network_namespace = false;
  std::string uid_map, gid_map;                        // "<inside> <outside> 1", for the new user namespace
  RootFs root;                                         // strict: built by the namespace's init, then pivoted into
  PrivateMounts mounts;                                // basic as root: set up before the uid change
  bool limits = false;                                 // apply the rlimits below (tier basic and up)
  std::vector<std::pair<int, std::uint64_t>> rlimits;  // resource, value (soft = hard)
  std::uint64_t cpu_seconds = 0;
  std::uint64_t nproc = 0;        // 0: not set (it would count the referee's own uid)
  std::uint64_t open_files = 0;   // RLIMIT_NOFILE, set in the bot only (the helpers inherit the
                                  // referee's high descriptor numbers); 0: not set
  const void* seccomp = nullptr;  // a struct sock_fprog*, installed with no_new_privs
};

// Runs in the child after fork: sets up containment and the descriptors, forking the namespace
// init and the bot when there are namespaces. Returns null in the process that must exec the
// bot; on failure returns the step that failed, with errno set. Never returns in the helper
// processes (they _exit with the bot's status).
const char* enter_sandbox(const ChildPlan& plan) noexcept;

// Where a child started by spawn_borrowed says which step failed (null: none), and errno then.
struct BorrowedFailure {
  const char* step = nullptr;
  int error = 0;
};

// Starts `exe` with vfork for a bot without a sandbox (a plan without namespaces, uid change,
// private mounts or cgroup; it refuses another with EINVAL): the child borrows the referee's
// memory until it execs instead of copying its page tables, whose cost grows with the referee's
// memory. Returns the child's pid, or -1 with errno set when vfork fails. When the child's set-up
// or execve fails, it fills `failure` (the referee's own memory: it allocates nothing) and exits
// 127; the caller then reaps it.
pid_t spawn_borrowed(const ChildPlan& plan, const char* exe, char* const argv[], char* const envp[],
                     BorrowedFailure& failure) noexcept;

// Starts a sandboxed bot (enter_sandbox, then `exe`) as a child created inside its cgroup
// (`cgroup_fd`, the leaf's folder; clone3 with CLONE_INTO_CGROUP, Linux 5.7), with
// `plan.born_in_cgroup` set. Moving a running process into a cgroup (a write to cgroup.procs)
// waits for an RCU grace period of the kernel (a strict match's two bots started 2.8-3.7 ms
// sooner without it), while a child created there costs nothing more than a fork. The child is a
// copy of the calling thread only, in a process with other threads: like a vfork child it
// allocates nothing and makes only system calls (enter_sandbox's rule), and the helpers it forks
// are forked by the system call alone. Returns the child's pid once it exec'd the bot or failed
// (then `failure` says the step and errno, and the child exits 127; the caller reaps it), or -1
// with errno when clone3 itself fails (ENOSYS, E2BIG or EINVAL on a kernel without it): the
// caller then joins the cgroup the old way.
pid_t spawn_into_cgroup(const ChildPlan& plan, int cgroup_fd, const char* exe, char* const argv[], char* const envp[],
                        BorrowedFailure& failure) noexcept;

// Kills the referee's orphaned children that no live bot owns (descendants of a bot that
// escaped its process group and came back to us as subreaper), and reaps them.
void sweep_orphans();
// The process-wide registry of bot leaders, so the sweep never touches a live bot.
void register_leader(pid_t pid);
void unregister_leader(pid_t pid);
// Held around fork+register so a sweep never sees a bot that is not registered yet.
class SpawnLock {
 public:
  SpawnLock();
  ~SpawnLock();
  SpawnLock(const SpawnLock&) = delete;
  SpawnLock& operator=(const SpawnLock&) = delete;
};

}  // namespace arena::bots

// The tiers' names (--sandbox, the replay's header, ladder.json): enum_name and parse_enum<bots::Tier>.
template <>
struct arena::EnumNames<arena::bots::Tier> {
  using E = bots::Tier;
  static constexpr auto table = name_table(E::none, "none", E::basic, "basic", E::strict, "strict");
};
