#pragma once
// A submission's build (docs/ladder-submissions.md): its manifest's build command run by
// /bin/sh in a writable copy of its files, inside the strictest sandbox tier the machine has (as
// root: strict), with no network and the caller's limits. The process sees the copy (at /bot,
// its working directory), the system folders read-only and its own scratch space, and nothing
// else: no other bot's folder, no ladder database. Its stdout and stderr together are the build
// log (capped); when it ends, nothing of it runs on (the strict tier's namespace dies with it; in
// every tier the process group is killed and reaped).
//
// Afterwards the copy belongs to the referee again, every file readable by all (o+r, o+x where
// its owner may run it), since a bot runs under a uid of its own; pack_folder (archive.hpp) gives
// the built bot's bytes for the store.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "referee/bots/process.hpp"
#include "referee/bots/sandbox.hpp"
#include "referee/core/enum_names.hpp"
#include "referee/core/result.hpp"
#include "referee/core/stop.hpp"
#include "referee/ladder/archive.hpp"

namespace arena::ladder {

struct BuildLimits {
  std::chrono::milliseconds wall{std::chrono::minutes(5)};
  std::uint64_t cpu_seconds = 300;     // per process (RLIMIT_CPU)
  std::uint64_t memory_mb = 2048;      // the whole tree
  std::uint64_t address_space_mb = 0;  // per process; 0: unlimited (compilers and Node reserve much)
  std::uint64_t processes = 64;
  std::uint64_t file_size_mb = 256;         // the largest file it may write
  std::uint64_t scratch_mb = 512;           // strict: its /tmp (the compiler's temporary files)
  std::uint64_t output_bytes = 256 * 1024;  // of the log; a build that writes more is stopped
};

struct BuildOptions {
  BuildLimits limits;
  std::optional<bots::Tier> tier;  // empty: the strictest the machine has
  // The build's environment; empty: PATH (the system's folders) and LANG=C.UTF-8. HOME and
  // TMPDIR are the sandbox's.
  std::vector<std::string> env;
  const StopSignal* stop = nullptr;  // a stop request ends the build as `interrupted`
};

enum class BuildOutcome {
  ok,
  failed,        // the build command exited with a non-zero status or by a signal
  timed_out,     // stopped at the wall-time limit
  over_memory,   // its processes held more than the memory limit
  output_limit,  // it wrote more than output_bytes (the log holds the first output_bytes)
  interrupted    // the referee was asked to stop
};

struct BuildResult {
  BuildOutcome outcome = BuildOutcome::ok;
  bots::ExitStatus exit;  // how the build's shell ended (describe(): "exit code 1"); running: nothing was built
  std::string log;        // stdout and stderr together, at most output_bytes
  bool log_cut = false;
  std::uint64_t output_bytes = 0;  // all it wrote
  std::string tier;                // the sandbox tier it ran in
  std::filesystem::path folder;    // the built files (work/bot)
  std::string message;             // one line: what happened ("the build failed: exit code 1")
  bool ok() const { return outcome == BuildOutcome::ok; }
};

// Builds `submission` in `work`, an empty folder of the caller (not under /tmp, /var/tmp or
// /dev/shm, which the sandbox purges): its files are written to work/bot and the build's log
// to work/build.log. A manifest without a build command is built by writing its files. An error
// is a problem of the ladder (the folder, the sandbox), not of the submission.
Result<BuildResult> build(const Submission& submission, const std::filesystem::path& work, const BuildOptions& options);

}  // namespace arena::ladder

template <>
struct arena::EnumNames<arena::ladder::BuildOutcome> {
  using O = ladder::BuildOutcome;
  static constexpr auto table =
      name_table(O::ok, "ok", O::failed, "failed", O::timed_out, "timed_out", O::over_memory, "over_memory",
                 O::output_limit, "output_limit", O::interrupted, "interrupted");
};
