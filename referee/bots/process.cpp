#include "referee/bots/process.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/process/args.hpp>
#include <boost/process/child.hpp>
#include <boost/process/exe.hpp>
#include <boost/process/extend.hpp>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "referee/bots/executable.hpp"
#include "referee/bots/sandbox_detail.hpp"
#include "referee/bots/stderr_drain.hpp"

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif
#ifndef P_PIDFD
#define P_PIDFD 3
#endif

namespace arena::bots {

namespace bp = boost::process;

namespace {

constexpr std::size_t kReadChunk = 64 * 1024;
constexpr std::size_t kPartialCap = 4096;  // bytes kept of an unfinished line for a record
constexpr std::size_t kTailLineCap = 400;
constexpr auto kSweepLimit = std::chrono::milliseconds(500);

using detail::close_fd;
using detail::errno_text;

void set_nonblocking(int fd) {
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
}

// Milliseconds until `deadline` for poll(), rounded up so that we never wake early; 0 if past.
int poll_timeout(Deadline deadline) {
  const auto left = deadline - Clock::now();
  if (left <= Clock::duration::zero()) return 0;
  const auto ms = std::chrono::ceil<std::chrono::milliseconds>(left).count();
  return static_cast<int>(std::min<std::int64_t>(ms, 1 << 30));
}

// What wait_for saw first.
struct Waited {
  short revents = 0;     // on `fd`; 0 on timeout or stop
  bool stopped = false;  // `stop_fd` became readable
};

// Waits for `events` on `fd` until `deadline`, or until `stop_fd` (if >= 0) is readable.
Waited wait_for(int fd, short events, Deadline deadline, int stop_fd = -1) {
  for (;;) {
    pollfd p[2] = {{fd, events, 0}, {stop_fd, POLLIN, 0}};
    const int n = ::poll(p, stop_fd >= 0 ? 2 : 1, poll_timeout(deadline));
    if (n > 0) {
      if (stop_fd >= 0 && (p[1].revents & POLLIN) != 0) return {0, true};
      return {p[0].revents, false};
    }
    if (n == 0) {
      if (Clock::now() >= deadline) return {};
      continue;  // woke a hair early
    }
    if (errno != EINTR) return {POLLERR, false};
  }
}

int pidfd_open(pid_t pid) {
  return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
}

std::string signal_name(int sig) {
  if (const char* abbrev = ::sigabbrev_np(sig)) return std::string("SIG") + abbrev;
  return fmt::format("signal {}", sig);
}

ExitStatus decode(const siginfo_t& info) {
  ExitStatus s;
  if (info.si_code == CLD_EXITED) {
    s.kind = ExitStatus::Kind::exited;
  } else {
    s.kind = ExitStatus::Kind::signaled;
  }
  s.code = info.si_status;
  return s;
}

}  // namespace

// ---- memory ------------------------------------------------------------------------------

// Holds the bot's whole tree to the memory limit where no cgroup memory controller does: every
// 10 ms what the tree holds is measured (memory_gauge.hpp: its own memory and every shared
// memory object it holds, each counted once), and above the limit the tree is killed and the
// reason kept for the fault record.
struct BotProcess::MemoryWatch {
  std::thread thread;
  std::mutex mu;
  std::condition_variable wake;
  bool stopping = false;
  std::string exceeded;  // why it was killed, once it was

  void run(const Jail& jail, pid_t leader, std::uint64_t limit_mb) {
    const std::uint64_t limit = limit_mb << 20;
    MemoryGauge gauge(jail.memory_scope());  // on this thread: it may join the bot's IPC namespace
    std::unique_lock lock(mu);
    while (!wake.wait_for(lock, std::chrono::milliseconds(10), [&] { return stopping; })) {
      lock.unlock();
      const std::vector<pid_t> pids = jail.tree_pids();
      const MemoryUse used = gauge.sample(pids);
      lock.lock();
      if (used.total <= limit) continue;
      exceeded = fmt::format("memory limit: its processes held {} MiB ({} MiB of it shared), over the {} MiB limit",
                             used.total >> 20, used.shared >> 20, limit_mb);
      jail.kill_tree();
      ::kill(-leader, SIGKILL);
      for (pid_t p : pids) ::kill(p, SIGKILL);  // also those that left its process group
      return;
    }
  }

  void stop() {
    {
      std::lock_guard lock(mu);
      stopping = true;
    }
    wake.notify_all();
    if (thread.joinable()) thread.join();
  }
};

// ---- process-wide --------------------------------------------------------------------------

void init_process_wide() {
  static std::once_flag once;
  std::call_once(once, [] {
    detail::start_guardian();  // before the subreaper flag: the guardian must not be our child
    ::signal(SIGPIPE, SIG_IGN);
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    ::prctl(PR_SET_DUMPABLE, 0);
    for (int fd = 0; fd <= 2; ++fd) {
      if (::fcntl(fd, F_GETFD) < 0) ::open("/dev/null", O_RDWR);  // takes the lowest free number
    }
  });
}

bool ExitStatus::by_job_signal() const {
  return kind == Kind::signaled && !killed_by_referee &&
         (code == SIGTERM || code == SIGINT || code == SIGHUP || code == SIGQUIT || code == SIGKILL);
}

std::string ExitStatus::describe() const {
  switch (kind) {
    case Kind::running:
      return "still running";
    case Kind::exited:
      return fmt::format("exit code {}", code);
    case Kind::signaled:
      if (!referee_reason.empty()) return "killed by the referee: " + referee_reason;
      if (killed_by_referee) return "killed by the referee (SIGKILL)";
      switch (code) {  // the sandbox's limits end a bot with these
        case SIGXCPU:
          return "killed by signal SIGXCPU (CPU time limit)";
        case SIGXFSZ:
          return "killed by signal SIGXFSZ (file size limit)";
        case SIGSYS:
          return "killed by signal SIGSYS (a forbidden system call)";
        default:
          return "killed by signal " + signal_name(code);
      }
  }
  return "unknown";
}

// ---- spawn ---------------------------------------------------------------------------------

Result<std::unique_ptr<BotProcess>> BotProcess::spawn(const SpawnOptions& o) {
  if (o.argv.empty()) return fail(std::string("an empty bot command"));
  for (const std::string& e : o.env) {
    if (e.find('=') == std::string::npos || e.front() == '=') {
      return fail(fmt::format("environment entry \"{}\" is not KEY=VALUE", e));
    }
  }
  auto exe = resolve_exe(o.argv[0], o.env, o.working_dir);
  if (!exe) return fail(exe.error());

  std::unique_ptr<BotProcess> bot(new BotProcess());
  bot->max_line_bytes_ = o.max_line_bytes;
  auto drain = std::make_unique<StderrDrain>();
  drain->cap = o.stderr_cap;

  // All pipes close-on-exec: the child's ends become 0-2 by dup2 (which clears the flag); every
  // other descriptor of ours, the other bot's pipes included, closes at exec.
  int in[2], out[2], err[2];
  if (::pipe2(in, O_CLOEXEC) != 0) return fail("pipe: " + errno_text(errno));
  if (::pipe2(out, O_CLOEXEC) != 0) {
    ::close(in[0]), ::close(in[1]);
    return fail("pipe: " + errno_text(errno));
  }
  if (::pipe2(err, O_CLOEXEC) != 0 || ::pipe2(drain->wake, O_CLOEXEC | O_NONBLOCK) != 0) {
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) ::close(fd);
    return fail("pipe: " + errno_text(errno));
  }
  if (!o.stderr_path.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(o.stderr_path.parent_path(), ec);
    // The referee's file: no bot may read another's (or its own log, which names its paths).
    drain->log = ::open(o.stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (drain->log >= 0) ::fchmod(drain->log, 0600);  // an existing file keeps its mode otherwise
    if (drain->log < 0) {
      for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) ::close(fd);
      return fail(fmt::format("cannot write the stderr log {}: {}", o.stderr_path.string(), errno_text(errno)));
    }
  }

  BotCommand command{*exe, std::vector<std::string>(o.argv.begin() + 1, o.argv.end()),
                     o.argv[0].find('/') == std::string::npos};
  std::unique_ptr<Jail> jail;
  if (o.sandbox.tier != Tier::none) {
    command.args = absolute_file_arguments(command.args, o.working_dir);
    auto made = Jail::create(o.sandbox, o.label, command, o.hidden, o.outputs, o.workspace,
                             o.storage);  // strict: the paths the bot sees
    if (!made) {
      for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) ::close(fd);
      close_fd(drain->wake[0]);
      close_fd(drain->wake[1]);
      close_fd(drain->log);
      return fail(fmt::format("cannot start \"{}\": sandbox: {}", o.argv[0], made.error()));
    }
    jail = std::move(made).value();
  }

  // The bot's environment as execve wants it. Not through bp::environment: its find() reads past
  // the end of shorter entries in Boost 1.74 (AddressSanitizer: heap-buffer-overflow), so the
  // executor's envp is set directly in an on_setup hook instead. A sandboxed bot's HOME and
  // TMPDIR are its own (strict: /home/bot and /tmp of its own root).
  std::vector<std::string> env = o.env;
  if (jail) {
    std::erase_if(env, [](const std::string& e) { return e.rfind("HOME=", 0) == 0 || e.rfind("TMPDIR=", 0) == 0; });
    env.push_back("HOME=" + jail->home());
    env.push_back("TMPDIR=" + jail->tmp());
  }
  if (!o.storage.empty()) {
    std::erase_if(env, [](const std::string& e) { return e.rfind("ARENA_STORAGE=", 0) == 0; });
    env.push_back("ARENA_STORAGE=" +
                  (jail ? jail->storage() : std::filesystem::absolute(o.storage).lexically_normal().string()));
  }
  std::vector<char*> envp;
  for (const std::string& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);

  ChildPlan plan;
  plan.referee = ::getpid();
  plan.stdin_fd = in[0];
  plan.stdout_fd = out[1];
  plan.stderr_fd = err[1];
  if (jail) {
    jail->plan(plan);
  } else if (!o.workspace.empty() || !o.working_dir.empty()) {
    plan.cwd = (o.workspace.empty() ? o.working_dir : o.workspace).string();
  }

  // Runs in a sandboxed bot's child between fork and exec: only async-signal-safe calls
  // (enter_sandbox). On failure the error goes back through Boost's exec-error pipe and the child
  // exits.
  auto setup = [&](auto& exec) {
    if (const char* failed = enter_sandbox(plan)) {
      exec.set_error(std::error_code(errno, std::system_category()), failed);
      ::_exit(127);
    }
  };
  pid_t failed_pid = -1;
  pid_t pid = -1;
  std::error_code ec;
  std::vector<char*> argv{const_cast<char*>(command.exe.c_str())};
  for (const std::string& a : command.args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  BorrowedFailure failure;
  SpawnLock registry;  // a concurrent orphan sweep must not see this bot before it is registered
  // A bot with a cgroup leaf starts inside it (spawn_into_cgroup): joining it after the fork
  // waits for the kernel (an RCU grace period) with this lock held. Other sandboxed bots, and
  // those on a kernel without clone3, start with Boost's fork and `setup`; a bot without a sandbox
  // with vfork (spawn_borrowed), a cheaper start than Boost's fork. The two of ours say in
  // `failure` which step failed after their child started.
  bool started_in_cgroup = false;
  if (jail && jail->cgroup_dir_fd() >= 0) {
    plan.born_in_cgroup = true;
    pid = spawn_into_cgroup(plan, jail->cgroup_dir_fd(), command.exe.c_str(), argv.data(), envp.data(), failure);
    started_in_cgroup = pid >= 0;
    plan.born_in_cgroup = started_in_cgroup;  // else clone3 is missing: the fork below joins it
  }
  if (jail && !started_in_cgroup) {
    bp::child child(
        bp::exe = command.exe, bp::args = command.args,
        bp::extend::on_setup = [&](auto& exec) { exec.env = envp.data(); }, bp::extend::on_exec_setup = setup,
        bp::extend::on_error = [&](auto& exec, const std::error_code&) { failed_pid = exec.pid; }, ec);
    if (!ec && child.valid()) {
      child.detach();  // from here on the pid is ours to wait for, kill and reap
      pid = child.id();
    }
  } else if (!jail) {
    pid = spawn_borrowed(plan, command.exe.c_str(), argv.data(), envp.data(), failure);
    if (pid < 0) ec = std::error_code(errno, std::system_category());
  }
  if (failure.step != nullptr) {
    failed_pid = std::exchange(pid, -1);
    ec = std::error_code(failure.error, std::system_category());
  }
  for (int fd : {in[0], out[1], err[1]}) ::close(fd);
  if (pid < 0) {
    if (failed_pid > 0) ::waitpid(failed_pid, nullptr, 0);
    for (int fd : {in[1], out[0], err[0]}) ::close(fd);
    close_fd(drain->wake[0]);
    close_fd(drain->wake[1]);
    close_fd(drain->log);
    return fail(fmt::format("cannot start \"{}\": {}", o.argv[0], ec ? ec.message() : "unknown error"));
  }
  bot->pid_ = pid;
  bot->cpu_clock_ = detail::cpu_clock_of(pid);
  register_leader(bot->pid_);
  if (jail) {
    jail->started(bot->pid_);
    bot->sandbox_report_ = jail->report();
    if (!jail->memory_by_cgroup() && o.sandbox.limits.memory_mb > 0) {
      bot->memory_ = std::make_unique<MemoryWatch>();
      MemoryWatch* w = bot->memory_.get();
      const Jail* j = jail.get();
      const pid_t leader = bot->pid_;
      const std::uint64_t limit = o.sandbox.limits.memory_mb;
      w->thread = std::thread([w, j, leader, limit] { w->run(*j, leader, limit); });
    }
  }
  bot->jail_ = std::move(jail);
  bot->pidfd_ = pidfd_open(bot->pid_);
  bot->stdin_fd_ = in[1];
  bot->stdout_fd_ = out[0];
  set_nonblocking(bot->stdin_fd_);
  set_nonblocking(bot->stdout_fd_);
  drain->fd = err[0];
  set_nonblocking(drain->fd);
  StderrDrain* d = drain.get();
  drain->thread = std::thread([d] { d->run(); });
  bot->stderr_ = std::move(drain);
  return bot;
}

BotProcess::~BotProcess() {
  shutdown(std::chrono::milliseconds(0));
}

// ---- the line channel ----------------------------------------------------------------------

WriteStatus BotProcess::write_line(std::string_view line, Deadline deadline, int stop_fd) {
  if (stdin_fd_ < 0) return WriteStatus::closed;
  std::string data;
  data.reserve(line.size() + 1);
  data.append(line).push_back('\n');
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(stdin_fd_, data.data() + done, data.size() - done);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) {
      const Waited w = wait_for(stdin_fd_, POLLOUT, deadline, stop_fd);
      if (w.stopped) return WriteStatus::interrupted;
      const short ev = w.revents;
      if (ev == 0) return WriteStatus::timeout;
      if ((ev & POLLOUT) == 0) return WriteStatus::closed;  // POLLERR: the reader is gone
      continue;
    }
    return WriteStatus::closed;  // EPIPE: the bot is gone
  }
  return WriteStatus::ok;
}

ReadResult BotProcess::read_line(Deadline deadline, int stop_fd) {
  ReadResult r;
  std::size_t scanned = 0;
  for (;;) {
    const auto nl = buffer_.find('\n', scanned);
    if (nl != std::string::npos && nl <= max_line_bytes_) {
      r.status = ReadStatus::line;
      r.line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      if (!r.line.empty() && r.line.back() == '\r') r.line.pop_back();
      return r;
    }
    if (buffer_.size() > max_line_bytes_) {
      r.status = ReadStatus::too_long;
      r.partial = buffer_.substr(0, kPartialCap);
      buffer_.clear();
      return r;
    }
    scanned = buffer_.size();
    if (stdout_eof_) {
      r.status = ReadStatus::eof;
      r.partial = buffer_.substr(0, kPartialCap);
      return r;
    }
    char chunk[kReadChunk];
    const ssize_t n = ::read(stdout_fd_, chunk, sizeof chunk);
    if (n > 0) {
      buffer_.append(chunk, static_cast<std::size_t>(n));
      continue;
    }
    if (n == 0) {
      stdout_eof_ = true;
      continue;
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN) {
      stdout_eof_ = true;
      continue;
    }
    const Waited w = wait_for(stdout_fd_, POLLIN, deadline, stop_fd);
    if (w.stopped || w.revents == 0) {
      r.status = w.stopped ? ReadStatus::interrupted : ReadStatus::timeout;
      r.partial = buffer_.substr(0, kPartialCap);
      return r;
    }
  }
}

bool BotProcess::has_unread_output() {
  if (!buffer_.empty()) return true;
  if (stdout_eof_ || stdout_fd_ < 0) return false;
  char chunk[4096];
  const ssize_t n = ::read(stdout_fd_, chunk, sizeof chunk);
  if (n > 0) {
    buffer_.append(chunk, static_cast<std::size_t>(n));
    return true;
  }
  if (n == 0) stdout_eof_ = true;
  return false;
}

bool BotProcess::has_exited() const {
  if (reaped_ || pid_ <= 0) return true;
  if (pidfd_ >= 0) {
    pollfd p{pidfd_, POLLIN, 0};
    return ::poll(&p, 1, 0) > 0;
  }
  siginfo_t info{};
  // WNOWAIT: look, but leave the process to shutdown() to reap.
  return ::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid_;
}

void BotProcess::close_stdin() {
  close_fd(stdin_fd_);
}

// ---- teardown ------------------------------------------------------------------------------

ExitStatus BotProcess::shutdown(std::chrono::milliseconds grace) {
  if (reaped_ || pid_ <= 0) return exit_;
  if (frozen_) freeze(false);  // a frozen bot could not exit by itself in its grace period
  close_stdin();
  // Wait for the bot to exit by itself (the pidfd becomes readable), without reaping yet: while
  // the leader is unreaped its pid, which is also the process group id, cannot be reused, so the
  // group kill below can only hit the bot's own tree.
  bool exited = false;
  if (pidfd_ >= 0) {
    exited = wait_for(pidfd_, POLLIN, Clock::now() + grace).revents != 0;
  }
  if (jail_) jail_->kill_tree();  // with a cgroup: every process of the tree, wherever it went
  ::kill(-pid_, SIGKILL);
  siginfo_t info{};
  int rc = -1;
  if (pidfd_ >= 0) {
    do {
      rc = ::waitid(static_cast<idtype_t>(P_PIDFD), static_cast<id_t>(pidfd_), &info, WEXITED);
    } while (rc < 0 && errno == EINTR);
  } else {
    int status = 0;
    do {
      rc = ::waitpid(pid_, &status, 0);
    } while (rc < 0 && errno == EINTR);
    if (rc == pid_) {
      info.si_code = WIFEXITED(status) ? CLD_EXITED : CLD_KILLED;
      info.si_status = WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status);
      rc = 0;
    }
  }
  if (memory_) memory_->stop();  // the tree is dead or dying: no more samples
  if (rc == 0) {
    exit_ = decode(info);
    exit_.killed_by_referee = !exited && exit_.kind == ExitStatus::Kind::signaled && exit_.code == SIGKILL;
    if (memory_ && !memory_->exceeded.empty()) {
      exit_.killed_by_referee = true;
      exit_.over_memory = true;
      exit_.referee_reason = memory_->exceeded;
    }
  }
  reaped_ = true;
  // Descendants that stayed in the bot's process group were killed above; those whose parent
  // died came back to us (we are a subreaper). Reap them, re-killing late arrivals.
  const auto until = Clock::now() + kSweepLimit;
  while (Clock::now() < until) {
    siginfo_t gone{};
    if (::waitid(P_PGID, static_cast<id_t>(pid_), &gone, WEXITED | WNOHANG) == 0 && gone.si_pid != 0) continue;
    if (::kill(-pid_, 0) != 0) break;  // nothing of the group is left
    ::kill(-pid_, SIGKILL);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  // Descendants that left the group (setsid) and have come back to us: kill and reap them too.
  unregister_leader(pid_);
  sweep_orphans();
  close_fd(pidfd_);
  close_fd(stdout_fd_);
  if (stderr_) stderr_->stop();
  jail_.reset();  // the tree is dead: its cgroup, private directory and uid are released
  return exit_;
}

double BotProcess::cpu_ms() const {
  if (reaped_) return -1;
  if (jail_) return jail_->cpu_ms();
  return detail::cpu_clock_ms(cpu_clock_);
}

bool BotProcess::cpu_covers_tree() const {
  return jail_ && jail_->cpu_covers_tree();
}

void BotProcess::freeze(bool frozen) {
  if (reaped_ || frozen == frozen_) return;
  if (jail_) {
    jail_->freeze(frozen);
  } else {
    ::kill(-pid_, frozen ? SIGSTOP : SIGCONT);
  }
  frozen_ = frozen;
}

std::uint64_t BotProcess::stderr_bytes() const {
  return stderr_ ? stderr_->total.load() : 0;
}

BotProcess::StderrSince BotProcess::stderr_since_last() {
  return stderr_ ? stderr_->take() : StderrSince{};
}

std::vector<std::string> BotProcess::stderr_tail(std::size_t lines) const {
  std::string ring;
  if (stderr_) {
    std::lock_guard lock(stderr_->mu);
    ring = stderr_->ring;
  }
  std::vector<std::string> out;
  std::size_t end = ring.size();
  if (end > 0 && ring[end - 1] == '\n') --end;
  while (end > 0 && out.size() < lines) {
    const auto start = ring.rfind('\n', end - 1);
    const std::size_t from = start == std::string::npos ? 0 : start + 1;
    // A long line keeps its end, where the reason usually is.
    const std::size_t first = std::max(from, end > kTailLineCap ? end - kTailLineCap : 0);
    std::string line = ring.substr(first, end - first);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.push_back(std::move(line));
    if (start == std::string::npos) break;
    end = start;
  }
  std::reverse(out.begin(), out.end());
  return out;
}

}  // namespace arena::bots
