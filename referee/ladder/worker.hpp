#pragma once
// A ladder worker: claims a match from the database under a lease, plays its legs exactly as a
// league plays a deal (league/deal.hpp: the same sandbox, limits, reuse rules), renews the lease
// while it plays, and reports every leg's typed result and replay in one transaction. It trusts
// nothing it did not make: the versions' files come from the database, unpacked beneath its own
// cache folder. A stop (SIGINT, SIGTERM) ends the match in flight at once and gives it back; a
// worker killed outright loses only that match (its lease expires and another worker plays it).

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "referee/bots/sandbox.hpp"
#include "referee/core/result.hpp"
#include "referee/core/stop.hpp"
#include "referee/ladder/config.hpp"
#include "referee/ladder/store.hpp"

namespace arena::ladder {

struct WorkerOptions {
  std::string name;              // unique among the ladder's workers (host:pid:n)
  std::filesystem::path cache;   // the versions' files, this worker's replays and logs while it plays
  bots::SandboxPolicy sandbox;   // resolved on this machine from the ladder's tier and limits
  std::vector<std::string> env;  // the bots' environment
  const StopSignal* stop = nullptr;
  std::chrono::milliseconds poll{100};  // the wait when nothing is claimable
  // Ends the worker after this many matches played and reported (0: run until stopped).
  std::uint64_t max_matches = 0;
  // Ends the worker once nothing was claimable for this long (0: never): tests and one-shot runs.
  std::chrono::milliseconds idle_exit{0};
  std::function<std::int64_t()> now_ms;         // the clock (default: the system's, in ms since 1970)
  std::function<void(const std::string&)> say;  // a line for people (may be empty)
};

struct WorkerOutcome {
  std::uint64_t played = 0;  // matches reported and accepted by the database
  std::uint64_t lost = 0;    // matches whose lease another worker took before the report
  std::uint64_t given_back = 0;
};

// Runs until stopped (or a bound of the options); an error is the database's or the disk's.
Result<WorkerOutcome> run_worker(const Location& where, const LadderConfig& config, const WorkerOptions& options);

}  // namespace arena::ladder
