// One bot's containment (sandbox.hpp, Jail): the resources it holds while it runs (a uid of its
// own, a cgroup leaf, a private folder, the plan of its root file system), the controls the
// referee uses on it (CPU time, freeze, kill, memory), and the sweep of orphans.

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "referee/bots/sandbox_detail.hpp"

namespace arena::bots {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace detail;

namespace {

// The folder under which each bot gets its private directory: created once per referee, in
// $TMPDIR (or /tmp), traversable by the slot uids but not listable.
Result<fs::path> work_root() {
  ProcessResources& r = resources();
  std::lock_guard lock(r.mu);
  if (!r.work_root.empty()) return r.work_root;
  const char* tmp = std::getenv("TMPDIR");
  const fs::path parent = tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
  // Those of referees that died without removing theirs (SIGKILL; as root the guardian does it).
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(parent, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("stellar-arena-", 0) != 0) continue;
    const long pid = std::strtol(name.c_str() + 14, nullptr, 10);
    struct stat st {};
    if (pid <= 0 || ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
    if (::lstat(entry.path().c_str(), &st) == 0 && st.st_uid == ::geteuid()) fs::remove_all(entry.path(), ec);
  }
  std::string pattern = (parent / fmt::format("stellar-arena-{}-XXXXXX", ::getpid())).string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    return fail(
        fmt::format("cannot create the bots' private directories under {}: {}", parent.string(), errno_text(errno)));
  }
  ::chmod(pattern.c_str(), 0711);
  r.work_root = pattern;
  guard("wr " + r.work_root.string(), true);
  return r.work_root;
}

// Tier basic as root: what its mount namespace shows (PrivateMounts): the working directory,
// writable, and the folders of the files it needs that lie under the temporary folders (which it
// sees as a private tmpfs), read-only; a file directly in one of them is shown alone.
Result<PrivateMounts> plan_private_mounts(const fs::path& work_dir, const std::vector<std::string>& files,
                                          std::uint64_t scratch_mb, const fs::path& workspace,
                                          const fs::path& storage) {
  PrivateMounts m;
  m.enabled = true;
  m.scratch_options = fmt::format("size={}m,nr_inodes=65536,mode=1777", scratch_mb);
  auto keep = [&](const fs::path& path, bool folder, bool writable) {
    for (const KeptPath& k : m.kept) {
      if (fs::path(k.path) == path) return;
    }
    KeptPath k;
    k.path = path.string();
    for (fs::path up = path.parent_path(); up != up.root_path(); up = up.parent_path()) {
      k.parents.insert(k.parents.begin(), up.string());
    }
    k.folder = folder;
    k.writable = writable;
    m.kept.push_back(std::move(k));
  };
  keep(work_dir, true, true);
  if (!workspace.empty()) keep(workspace, true, true);
  if (!storage.empty()) keep(storage, true, true);
  auto under = [](const fs::path& path, const fs::path& folder) {
    const fs::path rel = path.lexically_relative(folder);
    return !rel.empty() && *rel.begin() != "..";
  };
  std::error_code ec;
  auto show = [&](const fs::path& path) {
    if (under(path, work_dir)) return;
    for (const char* place : kTempFolders) {
      const fs::path temp = fs::weakly_canonical(place, ec);
      if (ec || !under(path, temp)) continue;
      if (path.parent_path() == temp) {
        keep(path, fs::is_directory(path, ec), false);
      } else {
        keep(path.parent_path(), true, false);
      }
      return;
    }
  };
  for (const std::string& f : files) {
    // Where the file is, and, when the command names it through a symbolic link, where the link
    // is: both must be there for the link to lead to it.
    const fs::path real = fs::weakly_canonical(f, ec);
    if (ec) continue;
    show(real);
    const fs::path named = fs::absolute(f, ec).lexically_normal();
    if (ec || !named.has_filename()) continue;
    const fs::path link = fs::weakly_canonical(named.parent_path(), ec) / named.filename();
    if (!ec && link != real) show(link);
  }
  if (m.kept.size() > PrivateMounts::kMaxKept) {
    return fail(
        fmt::format("the bot's command names files in more than {} folders under /tmp, /var/tmp or /dev/shm; "
                    "move them elsewhere or use --sandbox strict",
                    PrivateMounts::kMaxKept - 1));
  }
  return m;
}

// A workspace as root: every entry in it given to the bot's uid (links not followed), so the
// process may write there.
Status give_tree(const fs::path& folder, uid_t uid, gid_t gid) {
  std::error_code ec;
  if (::lchown(folder.c_str(), uid, gid) != 0)
    return fail(fmt::format("cannot give {} to uid {}: {}", folder.string(), uid, errno_text(errno)));
  for (auto it = fs::recursive_directory_iterator(folder, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (::lchown(it->path().c_str(), uid, gid) != 0)
      return fail(fmt::format("cannot give {} to uid {}: {}", it->path().string(), uid, errno_text(errno)));
  }
  if (ec) return fail(fmt::format("cannot walk {}: {}", folder.string(), ec.message()));
  return {};
}

const char* const kReachFix = "every folder on its path needs o+x, and the file o+r (o+rx to run it)";

// Tier basic, as root: can `uid` execute files[0] and read the others, folders on the way
// included? Empty when it can; otherwise the first refusal, with the fix.
std::string check_access(uid_t uid, gid_t gid, const std::vector<std::string>& files) {
  char what[160];
  std::snprintf(what, sizeof what, "cannot switch to uid %u", uid);
  std::vector<std::string> refusals;  // built before the fork: the child only picks one
  for (std::size_t i = 0; i < files.size(); ++i) {
    refusals.push_back(
        fmt::format("uid {} cannot {} {}. For a uid of its own, {}; or use --sandbox strict, which shows the bot "
                    "its own folder wherever it lies",
                    uid, i == 0 ? "execute" : "read", files[i], kReachFix));
  }
  return run_in_child([&](int fd) {
    if (drop_uid(uid, gid) != nullptr) child_fails(fd, what);
    for (std::size_t i = 0; i < files.size(); ++i) {
      if (::access(files[i].c_str(), i == 0 ? X_OK : R_OK) != 0) child_fails(fd, refusals[i].c_str());
    }
  });
}

// Tier strict, as root: can `uid` reach its files inside the root it will see? Only the bound
// folders' own permissions count there, not those of the folders above them on the host.
std::string check_in_root(uid_t uid, gid_t gid, const std::vector<AccessCheck>& checks) {
  std::vector<int> dirs;
  std::vector<std::string> refusals;
  for (const AccessCheck& c : checks) {
    dirs.push_back(::open(c.folder.c_str(), O_PATH | O_CLOEXEC));
    refusals.push_back(
        fmt::format("uid {} cannot {} {} (shown to the bot as {}): give the file o+r{} and its folders o+x, "
                    "from {} down",
                    uid, c.mode == X_OK ? "execute" : "read",
                    c.relative == "." ? c.folder : (fs::path(c.folder) / c.relative).string(), c.shown_as,
                    c.mode == X_OK ? "x" : "", c.folder));
  }
  char what[160];
  std::snprintf(what, sizeof what, "cannot switch to uid %u", uid);
  std::string refused = run_in_child([&](int fd) {
    if (drop_uid(uid, gid) != nullptr) child_fails(fd, what);
    for (std::size_t i = 0; i < checks.size(); ++i) {
      const bool itself = checks[i].relative == ".";  // a bound file, or the bound folder itself
      if (dirs[i] < 0 || ::faccessat(dirs[i], itself ? "" : checks[i].relative.c_str(), checks[i].mode,
                                     itself ? AT_EMPTY_PATH : 0) != 0)
        child_fails(fd, refusals[i].c_str());
    }
  });
  for (int d : dirs) {
    if (d >= 0) ::close(d);
  }
  return refused;
}

// The registry of live bots, for the orphan sweep.
std::mutex& registry_mutex() {
  static std::mutex mu;
  return mu;
}
std::set<pid_t>& leaders() {
  static std::set<pid_t> s;
  return s;
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

}  // namespace

// ---- the jail --------------------------------------------------------------------------------

Result<std::unique_ptr<Jail>> Jail::create(const SandboxPolicy& policy, const std::string& label, BotCommand& command,
                                           const std::vector<fs::path>& hidden, const std::vector<fs::path>& outputs,
                                           const fs::path& workspace, const fs::path& storage) {
  const SandboxSupport& s = sandbox_support();
  std::unique_ptr<Jail> j(new Jail());
  j->policy_ = policy;
  j->workspace_ = workspace;
  if (!storage.empty()) j->storage_ = fs::absolute(storage).lexically_normal().string();
  if (policy.tier == Tier::none) return j;
  if (policy.tier == Tier::strict && !s.namespaces)
    return fail("the strict sandbox is not available: " + s.namespaces_note);
  j->namespaces_ = policy.tier == Tier::strict;
  j->uid_ = ::geteuid();
  j->gid_ = ::getegid();
  if (s.root) {
    auto slot = claim_uid();
    if (!slot) return fail(slot.error());
    j->change_uid_ = true;
    j->uid_ = slot->first;
    j->gid_ = slot->first;
    j->uid_lock_fd_ = slot->second;
  }
  auto root = work_root();
  if (!root) return fail(root.error());
  std::string pattern = (*root / (label + "-XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr)
    return fail(fmt::format("cannot create a private directory in {}: {}", root->string(), errno_text(errno)));
  j->work_dir_ = pattern;
  if (j->change_uid_ && ::chown(pattern.c_str(), j->uid_, j->gid_) != 0) {
    return fail(fmt::format("cannot give {} to uid {}: {}", pattern, j->uid_, errno_text(errno)));
  }
  for (const fs::path& writable : {workspace, storage}) {
    if (!j->change_uid_ || writable.empty()) continue;
    if (auto given = give_tree(writable, j->uid_, j->gid_); !given) return fail(given.error());
  }
  if (j->namespaces_) {
    auto planned =
        plan_root_fs(command, hidden, outputs, policy.limits.scratch_mb, j->work_dir_.string(), workspace, storage);
    if (!planned) return fail(planned.error());
    j->root_ = std::move(planned->fs);
    j->shown_ = std::move(planned->shown);
    if (j->change_uid_) {
      if (std::string refused = check_in_root(j->uid_, j->gid_, planned->checks); !refused.empty())
        return fail(refused);
    }
    command = std::move(planned->command);
    j->home_ = kBotHome;
    if (!storage.empty()) j->storage_ = kStorageFolder;
    j->tmp_ = "/tmp";
  } else {
    if (j->change_uid_) {
      std::vector<std::string> files = {command.exe};
      for (const std::string& a : command.args) {
        std::error_code ec;
        if (!a.empty() && a[0] == '/' && fs::exists(a, ec)) files.push_back(a);
      }
      if (std::string refused = check_access(j->uid_, j->gid_, files); !refused.empty()) return fail(refused);
      if (s.private_mounts) {
        auto mounts = plan_private_mounts(j->work_dir_, files, policy.limits.scratch_mb, workspace, storage);
        if (!mounts) return fail(mounts.error());
        j->mounts_ = std::move(mounts).value();
      } else {
        purge_everywhere();  // the bot may write wherever anyone may
      }
    }
    j->home_ = j->work_dir_.string();
    j->tmp_ = j->work_dir_.string();
  }
  if (s.root && s.cgroup) {
    static std::atomic<std::uint64_t> counter{0};
    const fs::path leaf = s.cgroup_dir / fmt::format("bot-{}", counter.fetch_add(1));
    if (::mkdir(leaf.c_str(), 0755) != 0)
      return fail(fmt::format("cannot create the cgroup {}: {}", leaf.string(), errno_text(errno)));
    j->cgroup_ = leaf;
    guard("cg " + leaf.string(), true);
    // Kept open for the leaf's life: each read of the CPU time and each freeze is then one
    // pread/pwrite, not a path lookup, an open and a close (a quarter of the referee's CPU per
    // decision when done per call).
    j->cgroup_fd_ = ::open(leaf.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    j->cpu_stat_fd_ = ::open((leaf / "cpu.stat").c_str(), O_RDONLY | O_CLOEXEC);
    j->freeze_fd_ = ::open((leaf / "cgroup.freeze").c_str(), O_WRONLY | O_CLOEXEC);
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
  close_trees(root_);
  bool tree_dead = namespaces_;  // the namespace took everything with it
  if (!cgroup_.empty()) {
    kill_tree();
    tree_dead = wait_cgroup_empty(1000) || tree_dead;
    for (int fd : {cgroup_fd_, cpu_stat_fd_, freeze_fd_}) {
      if (fd >= 0) ::close(fd);
    }
    ::rmdir(cgroup_.c_str());
    guard("cg " + cgroup_.string(), false);
  }
  std::error_code ec;
  if (!work_dir_.empty()) fs::remove_all(work_dir_, ec);
  // Nothing of the uid is left (what escaped the group is killed here), then it is free.
  // A bot with its own /tmp, /var/tmp and /dev/shm (strict, basic with private mounts) wrote
  // nothing in the host's; at the uid's next claim they are looked through anyway.
  if (uid_lock_fd_ >= 0) release_uid(uid_, uid_lock_fd_, tree_dead, !(namespaces_ || mounts_.enabled));
}

bool Jail::memory_by_cgroup() const {
  return !cgroup_.empty() && sandbox_support().cgroup_memory;
}

json Jail::report() const {
  json j = {{"tier", enum_name(policy_.tier)}};
  if (policy_.tier == Tier::none) return j;
  const SandboxLimits& l = policy_.limits;
  json limits = {{"cpu_seconds", l.cpu_seconds},
                 {"address_space_mb", l.address_space_mb},
                 {"file_size_mb", l.file_size_mb},
                 {"open_files", l.open_files},
                 {"memory_mb", l.memory_mb}};
  if (change_uid_ || namespaces_) limits["processes"] = l.processes;
  if (namespaces_ || mounts_.enabled) limits["scratch_mb"] = l.scratch_mb;
  j["limits"] = limits;
  // How the memory of the whole tree is held to memory_mb: by the kernel, or by the referee's
  // sampler (every 10 ms, the tree's own resident memory; killed above the limit).
  j["memory"] = memory_by_cgroup() ? "cgroup memory.max" : "sampled every 10 ms";
  j["seccomp"] = true;
  j["network"] = l.network;
  j["uid"] = uid_;
  j["own_uid"] = change_uid_;
  j["cgroup"] = !cgroup_.empty();
  j["namespaces"] = namespaces_ ? json::array({"user", "pid", "ipc", "uts", "mount"}) : json::array();
  if (namespaces_ && !l.network) j["namespaces"].push_back("network");
  if (namespaces_) j["namespaces"].push_back("cgroup");
  // Tier basic: its own mount namespace (host read-only, private temporary folders, /proc with
  // hidepid), or the host's mounts shared.
  if (!namespaces_) j["mounts"] = mounts_.enabled ? "private" : "shared";
  if (namespaces_) j["files"] = shown_;
  j["freeze_idle"] = policy_.freeze_idle;
  j["cpu_time"] = cpu_source();
  return j;
}

void Jail::plan(ChildPlan& p) const {
  if (policy_.tier == Tier::none) return;
  const SandboxLimits& l = policy_.limits;
  p.cwd = namespaces_ ? root_.cwd : (workspace_.empty() ? work_dir_ : workspace_).string();
  p.cgroup_procs = cgroup_.empty() ? std::string() : (cgroup_ / "cgroup.procs").string();
  p.change_uid = change_uid_;
  p.uid = uid_;
  p.gid = gid_;
  p.namespaces = namespaces_;
  p.network_namespace = namespaces_ && !l.network;
  p.uid_map = fmt::format("{} {} 1", uid_, uid_);
  p.gid_map = fmt::format("{} {} 1", gid_, gid_);
  p.root = root_;
  p.mounts = mounts_;
  p.limits = true;
  p.cpu_seconds = l.cpu_seconds;
  p.rlimits = {{RLIMIT_FSIZE, l.file_size_mb << 20}};
  p.open_files = l.open_files;
  if (l.address_space_mb > 0) p.rlimits.emplace_back(RLIMIT_AS, l.address_space_mb << 20);
  // RLIMIT_NPROC counts every process of the real uid: meaningful only for a uid of the bot's
  // own or inside its own user namespace.
  p.nproc = change_uid_ || namespaces_ ? l.processes : 0;
  p.seccomp = &seccomp_program(policy_.tier, l.network).prog;
}

void Jail::started(pid_t leader) {
  close_trees(root_);  // attached in the bot's namespace by now, or never
  leader_ = leader;
  bot_ = leader;
  helpers_.clear();
  if (namespaces_) {
    // leader (outside) -> the namespace's init -> the bot. All exist once the exec succeeded.
    const auto init = children_of(leader);
    const auto bot = init.empty() ? std::vector<pid_t>() : children_of(init.front());
    if (!bot.empty()) bot_ = bot.front();
    helpers_.push_back(leader);
    if (!init.empty()) helpers_.push_back(init.front());
  }
  bot_clock_ = cpu_clock_of(bot_);
}

const char* Jail::cpu_source() const {
  if (!cgroup_.empty()) return "cgroup (the whole process tree)";
  return "the bot process (all threads, not its children)";
}

double Jail::cpu_ms() const {
  if (!cgroup_.empty()) {
    if (cpu_stat_fd_ < 0) return -1;
    char buf[512];
    const ssize_t n = ::pread(cpu_stat_fd_, buf, sizeof buf - 1, 0);
    if (n <= 0) return -1;
    buf[n] = '\0';
    const char* at = std::strstr(buf, "usage_usec ");
    if (at == nullptr) return -1;
    return static_cast<double>(std::strtoull(at + 11, nullptr, 10)) / 1000.0;
  }
  return cpu_clock_ms(bot_clock_);
}

void Jail::freeze(bool frozen) const {
  if (!cgroup_.empty()) {
    set_cgroup_frozen(frozen);
    return;
  }
  if (leader_ > 0) ::kill(-leader_, frozen ? SIGSTOP : SIGCONT);
}

void Jail::set_cgroup_frozen(bool frozen) const {
  if (freeze_fd_ < 0 || ::pwrite(freeze_fd_, frozen ? "1" : "0", 1, 0) != 1) {
    write_file((cgroup_ / "cgroup.freeze").c_str(), frozen ? "1" : "0");  // the kept descriptor failed
  }
}

bool Jail::kill_tree() const {
  if (cgroup_.empty()) return false;
  set_cgroup_frozen(false);
  return write_file((cgroup_ / "cgroup.kill").c_str(), "1");
}

std::vector<pid_t> Jail::tree_pids() const {
  if (!cgroup_.empty()) return parse_pids(read_text(cgroup_ / "cgroup.procs"));
  std::vector<pid_t> out;
  if (leader_ <= 0) return out;
  out.push_back(leader_);
  for (std::size_t i = 0; i < out.size() && out.size() < 100000; ++i) {
    std::error_code ec;
    for (const auto& task : fs::directory_iterator(fmt::format("/proc/{}/task", out[i]), ec)) {
      for (pid_t c : parse_pids(read_text(task.path() / "children"))) out.push_back(c);
    }
  }
  return out;
}

MemoryScope Jail::memory_scope() const {
  return {helpers_, uid_, change_uid_, namespaces_ ? bot_ : -1, namespaces_ || mounts_.enabled ? bot_ : -1};
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

// ---- orphans ---------------------------------------------------------------------------------

SpawnLock::SpawnLock() {
  registry_mutex().lock();
}
SpawnLock::~SpawnLock() {
  registry_mutex().unlock();
}

void register_leader(pid_t pid) {
  leaders().insert(pid);
}  // under SpawnLock

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
