#pragma once
// One bot process and the line channel to it. Knows nothing of games or of the protocol.
//
// A bot runs in its own session, with a clean explicit environment, only descriptors 0-2, a
// parent-death signal and no core files, inside the sandbox its SpawnOptions ask for
// (sandbox.hpp: rlimits, seccomp, its own uid, cgroup and namespaces, by tier). Every wait has an
// absolute deadline, writes included:
// a bot that stops reading cannot block the referee. stderr is drained continuously by a small
// thread into a capped log file, so a chatty bot never blocks and never fills the disk.
//
// Boost.Process is used only to fork and exec (with an on_exec_setup hook doing the child-side
// set-up and exec errors reported back); waiting, reading, writing, killing and reaping are our
// own POSIX code, because those parts of Boost.Process 1.74 misbehave: wait_for can wait its whole
// timeout for a process that has exited, and terminate leaves a zombie (docs/architecture.md,
// "Bot processes").

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "referee/bots/sandbox.hpp"
#include "referee/core/result.hpp"

namespace arena::bots {

using Clock = std::chrono::steady_clock;
using Deadline = Clock::time_point;

// Once per process, before any bot starts: ignore SIGPIPE (a write to a dead bot is EPIPE, never
// the referee's death), become a child subreaper (orphaned bot descendants come back to us to be
// killed and reaped), make sure descriptors 0-2 are open so pipes never land on them, and make
// the referee non-dumpable (a bot of the same uid cannot open its /proc files, the other bot's
// pipes among them); as root, start the guardian that purges the bots' uids if the referee dies.
// Call it first in main, before any thread starts.
void init_process_wide();

struct SpawnOptions {
  std::vector<std::string> argv;  // argv[0] is looked up in the PATH of `env` if it has no '/'
  // Tier none: the bot's working directory (empty: the referee's own). Other tiers run the bot in
  // a private directory (also its HOME and TMPDIR); arguments naming an existing file relative to
  // this directory are passed as absolute paths, so "python3 bots/x.py" still works.
  std::filesystem::path working_dir;
  SandboxPolicy sandbox{Tier::none, {}, false};
  std::string label = "bot";  // names the private directory
  // Paths the bot must not see (strict: masked in its root): other bots' programs (but not those
  // of its own files another bot names too), and the referee's output folders (whatever the
  // bot names).
  std::vector<std::filesystem::path> hidden;
  std::vector<std::filesystem::path> outputs;
  // A folder the process works in and may write (a ladder build, not a bot in a match): its
  // working directory in every tier, writable; strict shows it at /bot (read-write) and no
  // program folder; as root, everything in it is given to the process's uid first.
  std::filesystem::path workspace;
  // A folder the bot keeps between matches (a ladder version's storage, docs/ladder.md): writable
  // in every tier (as root given to the bot's uid first), shown at /storage in strict, its host
  // path elsewhere; the bot's environment names it as ARENA_STORAGE.
  std::filesystem::path storage;
  std::vector<std::string> env;       // "KEY=VALUE"; the bot gets exactly these
  std::filesystem::path stderr_path;  // the capped stderr log; empty: stderr is discarded
  std::uint64_t stderr_cap = 1 << 20;
  std::size_t max_line_bytes = 1 << 16;  // a longer line from the bot is `too_long`
};

// interrupted: the stop descriptor given to the call became readable first (StopSignal).
enum class ReadStatus { line, timeout, too_long, eof, interrupted };

struct ReadResult {
  ReadStatus status = ReadStatus::timeout;
  std::string line;     // without its newline (and a trailing '\r'), when status == line
  std::string partial;  // otherwise: the bytes received so far (capped), for the fault record
};

enum class WriteStatus { ok, timeout, closed, interrupted };

// How a process ended.
struct ExitStatus {
  enum class Kind { running, exited, signaled };
  Kind kind = Kind::running;
  int code = 0;                    // exit code, or signal number
  bool killed_by_referee = false;  // the signal was the referee's teardown SIGKILL
  std::string referee_reason;      // why the referee killed it before the end (a limit)
  bool over_memory = false;        // killed by the referee for its tree's memory (its sampler)
  std::string describe() const;    // "exit code 3", "killed by signal SIGABRT", ...
  // Killed by a signal a scheduler or a shell sends to every process of a job (SIGTERM, SIGINT,
  // SIGHUP, SIGQUIT, or a SIGKILL the referee did not send), not by the bot's own fault.
  bool by_job_signal() const;
};

class BotProcess {
 public:
  // Starts the bot. An error is a clear sentence ("cannot start \"x\": No such file or directory").
  static Result<std::unique_ptr<BotProcess>> spawn(const SpawnOptions& options);

  BotProcess(const BotProcess&) = delete;
  BotProcess& operator=(const BotProcess&) = delete;
  ~BotProcess();  // kills and reaps whatever is still running

  // Writes `line` plus a newline, all of it by `deadline` or not at all (timeout). A wait also
  // ends, as `interrupted`, when `stop_fd` (StopSignal::fd(); -1: none) becomes readable.
  WriteStatus write_line(std::string_view line, Deadline deadline, int stop_fd = -1);
  // The next line from the bot's stdout, waiting until `deadline` at most (or `stop_fd`, as above).
  ReadResult read_line(Deadline deadline, int stop_fd = -1);
  // True when the bot has written something nobody asked for yet (checked without waiting).
  bool has_unread_output();
  // True when the bot's main process has ended (checked without waiting or reaping), e.g. a bot
  // kept for another match that exited after its game_over.
  bool has_exited() const;
  void close_stdin();

  // Closes stdin, gives the bot `grace` to exit by itself, then kills its whole process group
  // and reaps it (and any of its descendants that were reparented to us). Idempotent.
  ExitStatus shutdown(std::chrono::milliseconds grace);

  pid_t pid() const { return pid_; }
  // The bot's CPU time so far in ms (sandbox.hpp says what it covers), negative when unknown.
  double cpu_ms() const;
  // True when cpu_ms() covers the bot's whole process tree (a cgroup), not the bot process alone.
  bool cpu_covers_tree() const;
  // Stops or resumes the bot's whole tree (SandboxPolicy::freeze_idle). No effect once ended.
  void freeze(bool frozen);
  bool frozen() const { return frozen_; }
  // What the sandbox enforces for this bot, for the replay header.
  const nlohmann::json& sandbox_report() const { return sandbox_report_; }
  std::uint64_t stderr_bytes() const;  // everything the bot wrote on stderr, logged or not
  // What the bot wrote on stderr since the previous call (the first call: since it started):
  // its first kStderrSinceBytes bytes and how many bytes there were in all. Everything the bot
  // wrote before the call is in it: the pipe is read up to now (at most 1 MiB by this call, so a
  // bot that writes without pause cannot hold it up; the rest counts for the next call), without
  // waiting for the bot. One non-blocking read when the bot wrote nothing.
  struct StderrSince {
    std::string head;
    std::uint64_t bytes = 0;
  };
  static constexpr std::size_t kStderrSinceBytes = 4096;
  StderrSince stderr_since_last();
  // The last `lines` lines of stderr (each cut to a few hundred bytes).
  std::vector<std::string> stderr_tail(std::size_t lines) const;

 private:
  struct StderrDrain;
  struct MemoryWatch;
  BotProcess() = default;

  pid_t pid_ = -1;
  CpuClock cpu_clock_;  // pid_'s CPU-time clock
  int pidfd_ = -1;
  int stdin_fd_ = -1;
  int stdout_fd_ = -1;
  bool stdout_eof_ = false;
  std::size_t max_line_bytes_ = 1 << 16;
  std::string buffer_;  // bytes read from stdout, not yet returned as a line
  std::unique_ptr<StderrDrain> stderr_;
  std::unique_ptr<Jail> jail_;           // destroyed after the tree is dead: frees its uid, cgroup, folder
  std::unique_ptr<MemoryWatch> memory_;  // the tree's memory, where no cgroup holds it
  bool frozen_ = false;
  nlohmann::json sandbox_report_ = {{"tier", "none"}};
  bool reaped_ = false;
  ExitStatus exit_;
};

}  // namespace arena::bots
