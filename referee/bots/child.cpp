// The sandbox's child side: everything between fork and exec, in the order the kernel needs it
// (sandbox.hpp, ChildPlan). Async-signal-safe calls only: the referee has other threads.

#include <fcntl.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "referee/bots/sandbox_detail.hpp"

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif
#ifndef MOVE_MOUNT_F_EMPTY_PATH
#define MOVE_MOUNT_F_EMPTY_PATH 0x00000004
#endif
#ifndef CLONE_INTO_CGROUP
#define CLONE_INTO_CGROUP 0x200000000ULL
#endif

namespace arena::bots {

using namespace detail;

namespace {

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

// fork(2) as the system call alone. glibc's fork() first takes its stdio and malloc locks, which
// another thread of the referee may have held when clone3 copied it into spawn_into_cgroup's
// child: there they would stay taken for good.
pid_t plain_fork() noexcept {
  return static_cast<pid_t>(::syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0));
}

const char* set_limit(int resource, std::uint64_t soft, std::uint64_t hard) noexcept {
  const rlimit r{static_cast<rlim_t>(soft), static_cast<rlim_t>(hard)};
  if (::setrlimit(static_cast<__rlimit_resource>(resource), &r) != 0) return "setrlimit";
  return nullptr;
}

// The last steps before exec, in the process that becomes the bot.
const char* finish_child(const ChildPlan& p) noexcept {
  if (::dup2(p.stdin_fd, 0) < 0 || ::dup2(p.stdout_fd, 1) < 0 || ::dup2(p.stderr_fd, 2) < 0) return "dup2";
  // Every other descriptor closes at exec (Boost's exec-error pipe must stay open until then).
  ::syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC);
  if (!p.cwd.empty() && ::chdir(p.cwd.c_str()) != 0) return "chdir to the working directory";
  if (p.open_files > 0) {
    if (const char* step = set_limit(RLIMIT_NOFILE, p.open_files, p.open_files)) return step;
  }
  if (p.seccomp != nullptr) {
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return "no_new_privs";
    if (::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, p.seccomp) != 0) return "installing the seccomp filter";
  }
  return nullptr;
}

// Attaches the clone `tree_fd` at `target`, or binds `source` there when there is no clone.
const char* attach(int tree_fd, const char* source, const char* target) noexcept {
  if (tree_fd >= 0) {
    if (::syscall(SYS_move_mount, tree_fd, "", AT_FDCWD, target, MOVE_MOUNT_F_EMPTY_PATH) != 0)
      return "attaching a bound folder";
  } else if (::mount(source, target, nullptr, MS_BIND | MS_REC, nullptr) != 0) {
    return "binding a folder into the bot's root";
  }
  return nullptr;
}

const char* read_only(const char* target, unsigned long keep_flags) noexcept {
  if (::mount(nullptr, target, nullptr, MS_BIND | MS_REMOUNT | MS_RDONLY | keep_flags, nullptr) != 0)
    return "making a bound folder read-only";
  return nullptr;
}

const char* bind(const FsStep& s) noexcept {
  if (const char* failed = attach(s.tree_fd, s.source.c_str(), s.target.c_str())) return failed;
  return s.read_only ? read_only(s.target.c_str(), s.keep_flags) : nullptr;
}

// FsStep::Kind::overlay: the folder at its staging place, an overlay of it at the target, the
// staging mount detached (the overlay holds its own private copy of the layer).
const char* overlay(const FsStep& s, const char* mount_point) noexcept {
  if (const char* failed = attach(s.tree_fd, s.source.c_str(), s.staging.c_str())) return failed;
  if (::chdir(mount_point) != 0) return "entering the bot's root";
  const unsigned long flags = MS_RDONLY | MS_NOSUID | MS_NODEV | s.keep_flags;
  if (::mount("overlay", s.target.c_str(), "overlay", flags, s.options.c_str()) != 0) {
    if (::mount(s.staging.c_str(), s.target.c_str(), nullptr, MS_BIND | MS_REC, nullptr) != 0)
      return "binding the program folder into the bot's root";
    if (const char* failed = read_only(s.target.c_str(), s.keep_flags)) return failed;
  }
  if (::umount2(s.staging.c_str(), MNT_DETACH) != 0) return "detaching the program folder's staging mount";
  return nullptr;
}

}  // namespace

namespace detail {

const char* build_root(const RootFs& root) noexcept {
  if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return "making the mounts private";
  for (const FsStep& s : root.steps) {
    const char* failed = nullptr;
    switch (s.kind) {
      case FsStep::Kind::tmpfs:
        if (::mount("tmpfs", s.target.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, s.source.c_str()) != 0)
          failed = "mounting a tmpfs";
        break;
      case FsStep::Kind::dir:
        if (::mkdir(s.target.c_str(), 0755) != 0 && errno != EEXIST) failed = "creating a folder of the bot's root";
        if (failed == nullptr && s.mode != 0 && ::chmod(s.target.c_str(), s.mode) != 0)
          failed = "chmod in the bot's root";
        break;
      case FsStep::Kind::file: {
        const int fd = ::open(s.target.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0) failed = "creating a file of the bot's root";
        if (fd >= 0) ::close(fd);
        break;
      }
      case FsStep::Kind::symlink:
        if (::symlink(s.source.c_str(), s.target.c_str()) != 0) failed = "creating a link in the bot's root";
        break;
      case FsStep::Kind::bind:
        failed = bind(s);
        break;
      case FsStep::Kind::overlay:
        failed = overlay(s, root.mount_point.c_str());
        break;
      case FsStep::Kind::proc:
        if (::mount("proc", s.target.c_str(), "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) != 0)
          failed = "mounting /proc";
        break;
    }
    if (failed != nullptr) return failed;
  }
  // The new root becomes "/", the old one is detached: nothing else of the host is reachable.
  if (::chdir(root.mount_point.c_str()) != 0) return "entering the bot's root";
  if (::syscall(SYS_pivot_root, ".", ".") != 0) return "pivot_root";
  if (::umount2(".", MNT_DETACH) != 0) return "detaching the host's root";
  if (::chdir("/") != 0) return "chdir /";
  if (!root.scratch.empty()) {
    if (::umount2(root.scratch.c_str(), MNT_DETACH) != 0) return "detaching the scratch staging folder";
  }
  if (::mount(nullptr, "/", nullptr, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, nullptr) != 0) {
    return "making the bot's root read-only";
  }
  return nullptr;
}

const char* enter_private_mounts(const PrivateMounts& m) noexcept {
  if (::unshare(CLONE_NEWNS) != 0) return "unshare of a mount namespace";
  if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return "making the mounts private";
  // Clones of what stays shown, taken before the host's mounts become read-only and before the
  // tmpfs covers them.
  int trees[PrivateMounts::kMaxKept];
  const std::size_t n = std::min(m.kept.size(), PrivateMounts::kMaxKept);
  for (std::size_t i = 0; i < n; ++i) {
    trees[i] =
        static_cast<int>(::syscall(SYS_open_tree, AT_FDCWD, m.kept[i].path.c_str(), OPEN_TREE_CLONE | O_CLOEXEC));
    if (trees[i] < 0) return "cloning a folder the bot needs";
    if (!m.kept[i].writable) {
      mount_attr ro{};
      ro.attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID;
      if (::syscall(SYS_mount_setattr, trees[i], "", AT_EMPTY_PATH, &ro, sizeof ro) != 0)
        return "making a shown folder read-only";
    }
  }
  mount_attr all_ro{};
  all_ro.attr_set = MOUNT_ATTR_RDONLY;
  if (::syscall(SYS_mount_setattr, AT_FDCWD, "/", AT_RECURSIVE, &all_ro, sizeof all_ro) != 0)
    return "making the host's mounts read-only";
  // One tmpfs for /tmp, /var/tmp and /dev/shm: folders of it bound on each, /tmp's last (it
  // covers the staging folders).
  if (::mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, m.scratch_options.c_str()) != 0)
    return "mounting the scratch tmpfs";
  constexpr const char* staged[][2] = {{"/tmp/.var-tmp", "/var/tmp"}, {"/tmp/.shm", "/dev/shm"}, {"/tmp/.tmp", "/tmp"}};
  for (const auto& [from, to] : staged) {
    struct stat st {};
    if (::stat(to, &st) != 0 || !S_ISDIR(st.st_mode)) continue;
    if (::mkdir(from, 01777) != 0 || ::chmod(from, 01777) != 0) return "creating a scratch folder";
    if (::mount(from, to, nullptr, MS_BIND, nullptr) != 0) return "binding a scratch folder";
  }
  for (std::size_t i = 0; i < n; ++i) {
    const KeptPath& k = m.kept[i];
    for (const std::string& parent : k.parents) {
      if (::mkdir(parent.c_str(), 0711) == 0) {
        if (::chmod(parent.c_str(), 0711) != 0) return "creating a shown folder's path";
      } else if (errno != EEXIST) {
        return "creating a shown folder's path";
      }
    }
    if (k.folder) {
      if (::mkdir(k.path.c_str(), 0711) != 0 && errno != EEXIST) return "creating a shown folder";
    } else {
      const int fd = ::open(k.path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
      if (fd < 0 && errno != EROFS) return "creating a shown file";
      if (fd >= 0) ::close(fd);
    }
    if (::syscall(SYS_move_mount, trees[i], "", AT_FDCWD, k.path.c_str(), MOVE_MOUNT_F_EMPTY_PATH) != 0)
      return "attaching a folder the bot needs";
    ::close(trees[i]);
  }
  // The cgroup tree tells every bot's memory and CPU use to the byte (a channel): an empty,
  // read-only folder instead.
  struct stat cg {};
  if (::stat("/sys/fs/cgroup", &cg) == 0 && S_ISDIR(cg.st_mode) &&
      ::mount("tmpfs", "/sys/fs/cgroup", "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=0555") !=
          0)
    return "covering /sys/fs/cgroup";
  // Processes of other uids (the referee, other bots, the machine's services) do not exist in it.
  if (::mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, "hidepid=invisible") != 0 &&
      ::mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, "hidepid=2") != 0)
    return "mounting /proc with hidepid";
  return nullptr;
}

}  // namespace detail

const char* enter_sandbox(const ChildPlan& p) noexcept {
  // Default signal dispositions and an empty mask (ignored signals survive exec otherwise).
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig) ::sigaction(sig, &dfl, nullptr);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  if (::setsid() < 0) return "setsid";
  if (!p.cgroup_procs.empty() && !p.born_in_cgroup && !write_file(p.cgroup_procs.c_str(), "0"))
    return "joining the bot's cgroup";
  if (const char* step = set_limit(RLIMIT_CORE, 0, 0)) return step;
  if (p.limits) {
    for (const auto& [resource, value] : p.rlimits) {
      if (const char* step = set_limit(resource, value, value)) return step;
    }
    if (const char* step = set_limit(RLIMIT_CPU, p.cpu_seconds, p.cpu_seconds + 5)) return step;
  }
  if (p.mounts.enabled) {
    if (const char* step = enter_private_mounts(p.mounts)) return step;
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
  // namespace's init builds the bot's root, reaps and, when the bot ends, takes the whole
  // namespace with it; the bot is an ordinary process inside (an init would ignore its own
  // signals, SIGKILL included).
  if (::unshare(namespace_flags(!p.network_namespace)) != 0) return "unshare";
  if (const char* step = write_id_maps(p.uid_map.c_str(), p.gid_map.c_str())) return step;
  int status_pipe[2], alive_pipe[2];
  if (::pipe2(status_pipe, O_CLOEXEC) != 0) return "pipe";
  if (::pipe2(alive_pipe, O_CLOEXEC) != 0) return "pipe";
  const pid_t init = plain_fork();
  if (init < 0) return "fork";
  if (init > 0) {
    close_all_but(status_pipe[0], alive_pipe[1]);
    int status = 0;
    wait_child(init, status);
    int bot_status = 0;
    if (::read(status_pipe[0], &bot_status, sizeof bot_status) == static_cast<ssize_t>(sizeof bot_status))
      mirror_exit(bot_status);
    mirror_exit(status);
  }
  ::close(status_pipe[0]);
  ::close(alive_pipe[1]);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  pollfd alive{alive_pipe[0], POLLIN, 0};
  if (::poll(&alive, 1, 0) != 0) ::_exit(127);  // the outer process is already gone
  ::close(alive_pipe[0]);
  if (const char* step = build_root(p.root)) return step;
  ::sethostname("arena", 5);
  if (p.nproc > 0) {
    if (const char* step = set_limit(RLIMIT_NPROC, p.nproc, p.nproc)) return step;
  }
  const pid_t bot = plain_fork();
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

pid_t spawn_borrowed(const ChildPlan& plan, const char* exe, char* const argv[], char* const envp[],
                     BorrowedFailure& failure) noexcept {
  // The sandboxes fork instead: unshare(CLONE_NEWUSER) refuses a process that shares its memory,
  // and glibc's setuid would signal the referee's threads from such a child.
  if (plan.namespaces || plan.change_uid || plan.mounts.enabled || !plan.cgroup_procs.empty()) {
    errno = EINVAL;
    return -1;
  }
  BorrowedFailure* volatile out = &failure;  // volatile: written by the child, read after it
  const pid_t pid = ::vfork();
  if (pid == 0) {
    const char* step = enter_sandbox(plan);
    if (step == nullptr) {
      ::execve(exe, argv, envp);
      step = "execve";
    }
    out->error = errno;
    out->step = step;
    ::_exit(127);
  }
  return pid;
}

pid_t spawn_into_cgroup(const ChildPlan& plan, int cgroup_fd, const char* exe, char* const argv[], char* const envp[],
                        BorrowedFailure& failure) noexcept {
#ifdef SYS_clone3
  // What the child reports when a step fails; end of file when the bot's exec closed the last copy
  // (the helpers close theirs once they forked the next process).
  int report[2];
  if (::pipe2(report, O_CLOEXEC) != 0) return -1;
  // struct clone_args of <linux/sched.h> up to its `cgroup` field (Linux 5.7).
  struct {
    std::uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls, set_tid, set_tid_size,
        cgroup;
  } args{};
  args.flags = CLONE_INTO_CGROUP;
  args.exit_signal = SIGCHLD;
  args.cgroup = static_cast<std::uint64_t>(cgroup_fd);
  const long pid = ::syscall(SYS_clone3, &args, sizeof args);
  if (pid == 0) {
    ::close(report[0]);
    const char* step = enter_sandbox(plan);
    if (step == nullptr) {
      ::execve(exe, argv, envp);
      step = "execve";
    }
    const BorrowedFailure f{step, errno};
    (void)!::write(report[1], &f, sizeof f);
    ::_exit(127);
  }
  const int clone_error = errno;
  ::close(report[1]);
  if (pid < 0) {
    ::close(report[0]);
    errno = clone_error;
    return -1;
  }
  BorrowedFailure f;
  ssize_t n = 0;
  do {
    n = ::read(report[0], &f, sizeof f);
  } while (n < 0 && errno == EINTR);
  ::close(report[0]);
  if (n == static_cast<ssize_t>(sizeof f)) failure = f;
  return static_cast<pid_t>(pid);
#else
  (void)plan, (void)cgroup_fd, (void)exe, (void)argv, (void)envp, (void)failure;
  errno = ENOSYS;
  return -1;
#endif
}

}  // namespace arena::bots
