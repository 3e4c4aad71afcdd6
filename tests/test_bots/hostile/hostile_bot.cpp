// hostile_bot: a bot that attacks its containment once, for the sandbox's tests.
//
// It plays like random_bot (any game: a uniformly random entry of the request's "legal", from
// --seed mixed with the seat), but at its first request (or request --at N, counted among the
// requests this bot receives) it performs ONE attack, the mode, then writes exactly one line on
// stderr (a single write, so it is never torn or buffered) saying what the attack achieved:
//
//     HOSTILE <mode> key=value key=value ...
//
// and then, unless the attack killed it, answers the request and plays on. A failed system call
// is reported by its errno name (EAGAIN, EPERM, ...), a successful one as "ok". Values never
// contain spaces.
//
//   usage: hostile_bot MODE [--seed N] [--at N] [--limit N] [--mb N] [--port P] [--tag T]
//                           [--keep] [--lifetime-s S] [--procs N]
//
//   fork-bomb [--limit N]  Forks as fast as it can; the children fork too, and every process then
//       sleeps (they keep the bot's pipes). A shared counter stops the whole tree after N fork
//       attempts (default 3000), so a tier without a process limit cannot take the machine down;
//       a process stops at its first failed fork. Waits (30 s at most) for every process to stop.
//       forks=<successful forks> failed=<failed forks> errno=<first failure|none> limit=<N>
//       complete=<yes: every process stopped forking|no>
//   mem-hog [--mb N]  malloc()s (not new) 16 MiB blocks up to N MiB (default 4096), writing
//       every byte, and keeps them for the rest of its life.
//       mib=<MiB obtained and touched> target=<N> stopped=<target|malloc-null> errno=<malloc's|none>
//   connect --port P  socket(AF_INET, SOCK_STREAM), then connect to 127.0.0.1:P (2 s at most);
//       when connected, sends the line "HOSTILE was here".
//       port=<P> socket=<ok|errno> connect=<ok|errno|skipped> sent=<yes|no>
//   proc-snoop  Walks /proc/*/fd of every other process it can see, and opens each pipe it finds
//       in a process of this match (see "The match" below), other than its own and other than
//       those a process outside the match also holds (a pipe the referee inherited from the shell
//       that started it), O_RDONLY|O_NONBLOCK and O_WRONLY|O_NONBLOCK. Into every write end it
//       opened it writes {"type":"action","protocol":1,"id":1,"action":null} (a forged move), once
//       per pipe.
//       seen_pids=<other processes visible in /proc> fd_dirs_read=<whose fd folder it could list>
//       match_pids=<processes of the match> pipes_seen=<pipe descriptors listed>
//       foreign_pipes_opened=<pipes opened at least one way> write_ends_opened=<pipes opened for
//       writing> injected=<forged lines written> shared_outside=<match pipes left alone because
//       an outside process holds them too> targets=<pid:fd:r|w|rw,... the first 6, or ->
//   big-file [--mb N] [--keep]  With SIGXFSZ ignored, writes hostile-big.bin of N MiB (default
//       256) in the current directory, 1 MiB per write; removes it afterwards unless --keep.
//       bytes=<written> target_mb=<N> errno=<what stopped it|none> open=<ok|errno>
//   escape --tag T [--lifetime-s S]  Forks a child that calls setsid() and forks again; the
//       grandchild names itself T (prctl PR_SET_NAME, at most 15 bytes), ignores SIGTERM and
//       SIGHUP, keeps the bot's pipes and sleeps (S seconds, default 600: a safety cap for a tier
//       that cannot contain it; a test looks for T in /proc/*/comm right after the match). The
//       child exits at once; the bot plays on once the grandchild has its name (so a bot frozen
//       right after its answer still shows the tag).
//       tag=<T> setsid=<ok|errno> fork=<ok|errno> pid=<the escaped process, as the bot sees it>
//   ptrace  PTRACE_SEIZE of its parent (getppid(); 0, reported "none", when the parent lies
//       outside the bot's PID namespace; in the referee's strict tier it is that namespace's
//       init, pid 1), then of every other process of the match whose comm is random_bot,
//       greedy_bot, faulty_bot, fault_injector, hostile_bot, referee or test_*. Each success is
//       undone at once (PTRACE_INTERRUPT, wait for the stop, PTRACE_DETACH, passing on a signal
//       that came first).
//       parent=<ok|errno|none> ppid=<N> others_ok=<K> others_tried=<M> ok_pids=<pid,...|->
//   busy-idle  After each answer (and after ready), spins until the next message arrives
//       (poll() with timeout 0 in a loop), timing the waits with CLOCK_THREAD_CPUTIME_ID and the
//       monotonic clock; reports at game_over, or at end of input without one.
//       idle_cpu_ms=<CPU time spent waiting> idle_wall_ms=<wall time spent waiting> waits=<N>
//       first_idle_cpu_ms=<the same, of the first wait> first_idle_wall_ms=<...> (from ready on)
//   self-stop  Reports, then kill(getpid(), SIGSTOP) at the request; answers if ever continued.
//       request=<id> pid=<its pid> signal=SIGSTOP
//   close-stdout  Closes descriptor 1 at the request, ignores SIGTERM, and sleeps forever.
//       request=<id> close=<ok|errno>
//   after-end  Plays normally; after game_over (SIGPIPE ignored) writes a valid action line for
//       the last request it answered, then one every 10 ms for 1 s, and exits 0. Reports after
//       the first write.
//       id=<last id> first_write=<ok|errno>
//
//   leak  Tries to read, one byte at least (a masked file reads empty), every path in the
//       environment variable ARENA_LEAK_PATHS (colon-separated: the files the referee writes for
//       the match; a folder is listed and each of its files tried), and every file named like a referee output
//       (*.jsonl, *.stderr.log, league.json, standings.json, junit.xml) found walking "/" (not /proc, /sys, /dev; no
//       walk when ARENA_LEAK_NO_WALK is set: on a whole host file system it takes seconds); reads the command lines of
//       PID 1 and of its parent, /etc/shadow, and tries to create a file in /root. Values are %XX-encoded. uid=<N>
//       euid=<N> tried=<N> listed=<names seen in folders> readable=<N> readable_paths=<first 3|-> walk_seen=<N>
//       walk_readable=<N> walk_paths=<first 3|-> shadow=<read|refused> write_root=<ok|errno>
//       pid1=<cmdline> parent=<cmdline> argv=<its own> cwd=<dir> home=<$HOME>
//   scratch --tag T [--mb N]  Writes hostile-scratch-T of N MiB (default 8) into /tmp, /var/tmp,
//       /dev/shm and $HOME, 1 MiB per write, and keeps them; creates a SysV shared memory
//       segment keyed by T; binds and listens on the abstract unix socket "hostile-T", kept open.
//       tag=<T> tmp_mb= var_tmp_mb= shm_mb= home_mb=<MiB written> sysv=<ok|errno> abstract=<ok|errno>
//   scratch-peek --tag T  Looks for what `scratch --tag T` (another bot) left: the four files,
//       the segment, the socket.
//       tag=<T> tmp= var_tmp= shm= home=<seen|absent> sysv=<seen|errno> abstract=<connected|errno>
//   mem-tree [--procs N] [--mb M]  Forks N processes (default 4) that each malloc and touch M MiB
//       (default 256) in 16 MiB blocks and then wait; reports once each has finished or failed.
//       procs=<started> mib_each=<M> full=<how many got all M MiB>
//   shm-anon [--procs N] [--mb M]  Forks N processes (default 4) that each map and touch a shared
//       anonymous region of M MiB (default 160), then wait; shm-one: the bot maps one such region
//       and every child touches all of it (the memory exists once). Reports once all are done.
//       procs=<started> mib_each=<M> full=<how many touched all M MiB>
//   memfd | memfd-map | tmpfs-file | sysv [--mb N]  Holds N MiB (default 640) in objects of 16 MiB
//       filled with write() or by touching them: memfd held open, never mapped; memfd with one
//       page mapped and the descriptor closed; files in /dev/shm, closed; SysV segments, detached.
//       objects=<made> mib=<MiB held> target=<N> errno=<what stopped it|none>
//   lock-send  (channels.cpp) Encodes a 16-bit secret, a hash of its request's view (its hidden
//       hand), in kernel state of files every bot sees (its own program, /etc/passwd): a flock, one
//       byte-range read lock per set bit (POSIX at byte i, OFD at byte 32+i), a lease, one read per
//       set bit; touches the times of /dev/null. Keeps the files open for life.
//       sent=<secret> flock= setlk= ofd= lease= utime=<ok|errno>
//   lock-recv  At its first request watches those files (inotify: open, access) and /etc (dnotify);
//       at request --at decodes the locks (F_GETLK, F_OFD_GETLK), tries flock, counts the events.
//       received=<posix bits> received_ofd=<OFD bits> flock_busy=<yes|no> inotify=<ok|errno>
//       events=<N> notify=<ok|errno> devnull_touched=<yes|no>
//   leave --tag T  Writes its secret to hostile-left-T in every world-writable folder it can
//       write (4 levels down from /).  writable=<N> wrote=<N> paths=<the first 40>
//   find-left --tag T  Looks for those files (and in the usual shared folders).
//       found=<N> paths=<path=content,...>
//   host-socket --tag T  socketpair(); socket(AF_UNIX); connects to /tmp/hostile-sock-T and to the
//       abstract name hostile-sock-T (the test listens there, as a host service would).
//       socketpair= socket=<ok|errno> path= abstract=<connected|errno>
//   proc-view  Counts the processes of other uids it sees in /proc and the command lines it reads,
//       and the entries of /sys/fs/cgroup (every bot's memory and CPU use).
//       other_uids=<N> cmdlines_read=<N> cgroup_entries=<N>
//   host-details  What /proc says of the host: every path-like word of its mountinfo, mounts and
//       mountstats (and a child's mountinfo), and its /proc/self/cgroup.
//       cgroup=<lines, ; separated> paths=<words,...>
//
// The match, for proc-snoop and ptrace: the bot's parent (the referee, or the init of its PID
// namespace) and every descendant of it but the bot itself. Without a PID namespace the machine's
// other processes (other matches, other people's work) are visible but out of scope: they are
// counted, never opened or traced.
//
// Build: part of the project (target hostile_bot); needs nlohmann/json and bot_io.hpp.

#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <new>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "../faulty/bot_io.hpp"
#include "hostile.hpp"

using nlohmann::json;
using namespace hostile;

namespace {

double now_ms(clockid_t clock) {
  timespec ts{};
  ::clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

std::string ms_text(double ms) {
  return std::to_string(static_cast<long long>(ms + 0.5));
}

// ---- the attacks ---------------------------------------------------------------------------

// Counters the whole forking tree shares (lock-free atomics work across processes in shared memory).
struct ForkTally {
  std::atomic<int> attempts{0};
  std::atomic<int> forks{0};
  std::atomic<int> failures{0};
  std::atomic<int> first_errno{0};
  std::atomic<int> busy{0};  // processes (born or about to be) still forking
};
static_assert(std::atomic<int>::is_always_lock_free);

void fork_bomb(const Options& o) {
  void* shared = ::mmap(nullptr, sizeof(ForkTally), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) {
    report(o, "forks=0 failed=0 errno=" + errno_name(errno) + " limit=" + std::to_string(o.limit) + " complete=no");
    return;
  }
  auto* tally = new (shared) ForkTally();
  tally->busy = 1;
  bool child = false;
  for (;;) {
    if (tally->attempts.fetch_add(1) >= o.limit) break;
    tally->busy.fetch_add(1);  // the child to be, counted before it exists
    const pid_t pid = ::fork();
    if (pid == 0) {
      child = true;  // and fork on
      continue;
    }
    if (pid < 0) {
      int expected = 0;
      tally->first_errno.compare_exchange_strong(expected, errno);
      tally->failures.fetch_add(1);
      tally->busy.fetch_sub(1);
      break;
    }
    tally->forks.fetch_add(1);
  }
  tally->busy.fetch_sub(1);
  if (child) {
    for (;;) ::pause();
  }
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (tally->busy.load() > 0 && std::chrono::steady_clock::now() < give_up) bot_io::sleep_ms(1);
  report(o, "forks=" + std::to_string(tally->forks.load()) + " failed=" + std::to_string(tally->failures.load()) +
                " errno=" + errno_name(tally->first_errno.load()) + " limit=" + std::to_string(o.limit) +
                " complete=" + (tally->busy.load() == 0 ? "yes" : "no"));
}

void mem_hog(const Options& o) {
  constexpr std::size_t kBlockMib = 16;
  static std::vector<void*> kept;  // held for the rest of the bot's life
  const std::size_t target = static_cast<std::size_t>(o.mb < 0 ? 4096 : o.mb);
  std::size_t got = 0;
  int err = 0;
  while (got < target) {
    const std::size_t mib = std::min(kBlockMib, target - got);
    errno = 0;
    void* block = std::malloc(mib << 20);
    if (block == nullptr) {
      err = errno;
      break;
    }
    std::memset(block, 0xA5, mib << 20);
    kept.push_back(block);
    got += mib;
  }
  report(o, "mib=" + std::to_string(got) + " target=" + std::to_string(target) +
                " stopped=" + (got >= target ? "target" : "malloc-null") + " errno=" + errno_name(err));
}

void connect_out(const Options& o) {
  const std::string port = "port=" + std::to_string(o.port);
  const int s = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (s < 0) {
    report(o, port + " socket=" + errno_name(errno) + " connect=skipped sent=no");
    return;
  }
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(o.port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string connected = "ok";
  if (::connect(s, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
    if (errno == EINPROGRESS) {
      pollfd p{s, POLLOUT, 0};
      if (::poll(&p, 1, 2000) <= 0) {
        connected = "ETIMEDOUT";
      } else {
        int err = 0;
        socklen_t len = sizeof err;
        ::getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &len);
        connected = err == 0 ? "ok" : errno_name(err);
      }
    } else {
      connected = errno_name(errno);
    }
  }
  bool sent = false;
  if (connected == "ok") {
    const std::string line = "HOSTILE was here\n";
    sent = ::send(s, line.data(), line.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(line.size());
  }
  ::close(s);
  report(o, port + " socket=ok connect=" + connected + " sent=" + (sent ? "yes" : "no"));
}

void big_file(const Options& o) {
  ::signal(SIGXFSZ, SIG_IGN);
  const std::uint64_t target_mb = static_cast<std::uint64_t>(o.mb < 0 ? 256 : o.mb);
  const char* name = "hostile-big.bin";
  const int fd = ::open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    const std::string err = errno_name(errno);
    report(o, "bytes=0 target_mb=" + std::to_string(target_mb) + " errno=" + err + " open=" + err);
    return;
  }
  const std::string chunk(1 << 20, 'H');
  const std::uint64_t target = target_mb << 20;
  std::uint64_t written = 0;
  int err = 0;
  while (written < target) {
    const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(chunk.size(), target - written));
    const ssize_t n = ::write(fd, chunk.data(), want);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      err = n < 0 ? errno : ENOSPC;
      break;
    }
    written += static_cast<std::uint64_t>(n);  // a short write is retried: the next one names the limit
  }
  ::close(fd);
  if (!o.keep) ::unlink(name);
  report(o, "bytes=" + std::to_string(written) + " target_mb=" + std::to_string(target_mb) +
                " errno=" + errno_name(err) + " open=ok");
}

void self_stop(const Options& o, std::int64_t id) {
  report(o, "request=" + std::to_string(id) + " pid=" + std::to_string(::getpid()) + " signal=SIGSTOP");
  ::kill(::getpid(), SIGSTOP);
}

void close_stdout(const Options& o, std::int64_t id) {
  const int rc = ::close(STDOUT_FILENO);
  report(o, "request=" + std::to_string(id) + " close=" + result_of(rc));
  ::signal(SIGTERM, SIG_IGN);
  bot_io::sleep_forever();
}

// busy-idle: CPU and wall time spent spinning between our answer and the next message; the first
// wait (from our ready to the first request: the rest of the handshake) is also counted alone.
struct IdleMeter {
  double cpu_ms = 0;
  double wall_ms = 0;
  double first_cpu_ms = 0;
  double first_wall_ms = 0;
  int waits = 0;
  bool reported = false;

  void spin(const bot_io::LineReader& input) {
    if (input.has_line()) return;
    const double cpu0 = now_ms(CLOCK_THREAD_CPUTIME_ID);
    const double wall0 = now_ms(CLOCK_MONOTONIC);
    while (!bot_io::readable_now(input.fd())) {
    }
    const double cpu = now_ms(CLOCK_THREAD_CPUTIME_ID) - cpu0;
    const double wall = now_ms(CLOCK_MONOTONIC) - wall0;
    if (waits == 0) {
      first_cpu_ms = cpu;
      first_wall_ms = wall;
    }
    cpu_ms += cpu;
    wall_ms += wall;
    ++waits;
  }

  void report_once(const Options& o) {
    if (reported) return;
    reported = true;
    report(o, "idle_cpu_ms=" + ms_text(cpu_ms) + " idle_wall_ms=" + ms_text(wall_ms) +
                  " waits=" + std::to_string(waits) + " first_idle_cpu_ms=" + ms_text(first_cpu_ms) +
                  " first_idle_wall_ms=" + ms_text(first_wall_ms));
  }
};

// after-end: the last answer again, after game_over, for a second.
[[noreturn]] void after_end(const Options& o, const json& last_answer) {
  ::signal(SIGPIPE, SIG_IGN);
  const std::string line = last_answer.dump();
  const bool first = bot_io::write_line(STDOUT_FILENO, line);
  const int err = errno;
  report(o, "id=" + last_answer.value("id", json(0)).dump() +
                " first_write=" + (first ? std::string("ok") : errno_name(err)));
  for (int i = 0; i < 100; ++i) {
    bot_io::sleep_ms(10);
    bot_io::write_line(STDOUT_FILENO, line);
  }
  std::exit(0);
}

// The attacks of channels.cpp.
void channel_attack(const Options& o, const json& request) {
  const std::string view = request.contains("view") ? request.at("view").dump() : std::string();
  if (o.mode == "lock-send") lock_send(o, view);
  if (o.mode == "lock-recv") lock_receive(o);
  if (o.mode == "leave") leave(o, view);
  if (o.mode == "find-left") find_left(o);
  if (o.mode == "host-socket") host_socket(o);
  if (o.mode == "proc-view") proc_view(o);
  if (o.mode == "host-details") host_details(o);
}

const char* const kModes[] = {
    "fork-bomb", "mem-hog", "connect", "proc-snoop", "big-file", "escape", "ptrace", "busy-idle", "self-stop",
    "close-stdout", "after-end", "leak", "scratch", "scratch-peek", "mem-tree",
    // memory.cpp
    "shm-anon", "shm-one", "memfd", "memfd-map", "tmpfs-file", "sysv",
    // channels.cpp
    "lock-send", "lock-recv", "leave", "find-left", "host-socket", "proc-view", "host-details"};

int usage(const std::string& problem) {
  std::string text = "hostile_bot: " + problem +
                     "\nusage: hostile_bot MODE [--seed N] [--at N] [--limit N] [--mb N] [--port P] [--tag T] [--keep] "
                     "[--lifetime-s S] [--procs N]\nmodes:";
  for (const char* m : kModes) text += std::string(" ") + m;
  bot_io::write_line(STDERR_FILENO, text);
  return 2;
}

bool parse_int(const char* text, int& out) {
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || v < 0 || v > 1'000'000'000) return false;
  out = static_cast<int>(v);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage("no mode");
  Options o;
  o.mode = argv[1];
  bool known = false;
  for (const char* m : kModes) known = known || o.mode == m;
  if (!known) return usage("unknown mode \"" + o.mode + "\"");
  for (int i = 2; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--keep") {
      o.keep = true;
      continue;
    }
    if (i + 1 >= argc) return usage("missing value after " + flag);
    const char* value = argv[++i];
    bool ok = true;
    if (flag == "--seed") {
      char* end = nullptr;
      o.seed = std::strtoull(value, &end, 10);
      ok = end != value && *end == '\0';
    } else if (flag == "--at") {
      ok = parse_int(value, o.at);
    } else if (flag == "--limit") {
      ok = parse_int(value, o.limit);
    } else if (flag == "--mb") {
      ok = parse_int(value, o.mb);
    } else if (flag == "--port") {
      ok = parse_int(value, o.port) && o.port > 0 && o.port < 65536;
    } else if (flag == "--procs") {
      ok = parse_int(value, o.procs) && o.procs > 0 && o.procs <= 64;
    } else if (flag == "--lifetime-s") {
      ok = parse_int(value, o.lifetime_s);
    } else if (flag == "--tag") {
      o.tag = value;
      ok = !o.tag.empty() && o.tag.size() <= 15 && o.tag.find(' ') == std::string::npos;
    } else {
      return usage("unknown option " + flag);
    }
    if (!ok) return usage("bad value \"" + std::string(value) + "\" for " + flag);
  }
  if (o.mode == "connect" && o.port < 0) return usage("connect needs --port P");
  if ((o.mode == "escape" || o.mode == "scratch" || o.mode == "scratch-peek" || o.mode == "leave" ||
       o.mode == "find-left" || o.mode == "host-socket") &&
      o.tag.empty())
    return usage(o.mode + " needs --tag T");

  std::mt19937_64 rng(o.seed);
  bot_io::LineReader input(STDIN_FILENO);
  IdleMeter idle;
  const bool busy = o.mode == "busy-idle";
  json last_answer;
  int requests = 0;
  std::string line;
  while (input.next(line)) {
    const json message = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!message.is_object()) continue;
    const std::string type = message.value("type", "");
    if (type == "hello") {
      rng.seed(o.seed * 1000003u + static_cast<std::uint64_t>(message.value("seat", 0)));
      bot_io::write_line(STDOUT_FILENO,
                         json{{"type", "ready"}, {"protocol", 1}, {"name", "hostile_bot"}, {"version", o.mode}}.dump());
    } else if (type == "request") {
      ++requests;
      const std::int64_t id = message.value("id", std::int64_t{0});
      if (requests == o.at) {
        if (o.mode == "fork-bomb") fork_bomb(o);
        if (o.mode == "mem-hog") mem_hog(o);
        if (o.mode == "connect") connect_out(o);
        if (o.mode == "proc-snoop") proc_snoop(o);
        if (o.mode == "big-file") big_file(o);
        if (o.mode == "escape") escape(o);
        if (o.mode == "ptrace") ptrace_others(o);
        if (o.mode == "self-stop") self_stop(o, id);
        if (o.mode == "close-stdout") close_stdout(o, id);
        if (o.mode == "leak") leak(o);
        if (o.mode == "scratch") scratch(o);
        if (o.mode == "scratch-peek") scratch_peek(o);
        if (o.mode == "mem-tree") mem_tree(o);
        if (o.mode == "shm-anon" || o.mode == "shm-one") shared_anonymous(o, o.mode == "shm-one");
        if (o.mode == "memfd") memfd(o);
        if (o.mode == "memfd-map") memfd_mapped(o);
        if (o.mode == "tmpfs-file") tmpfs_files(o);
        if (o.mode == "sysv") sysv(o);
        channel_attack(o, message);
      }
      if (o.mode == "lock-recv" && requests == 1) lock_watch(o);
      const json& legal = message.at("legal");
      last_answer = {{"type", "action"},
                     {"protocol", 1},
                     {"id", message.at("id")},
                     {"action", legal.at(static_cast<std::size_t>(rng() % legal.size()))}};
      bot_io::write_line(STDOUT_FILENO, last_answer.dump());
    } else if (type == "game_over") {
      if (busy) idle.report_once(o);
      if (o.mode == "after-end" && !last_answer.is_null()) after_end(o, last_answer);
      continue;
    }
    if (busy) idle.spin(input);
  }
  if (busy) idle.report_once(o);
  return 0;
}
