#pragma once
// The ladder's coordinator: the one process (`referee ladder run`) that decides. In turn it
//  - builds and checks the versions submitted (build.hpp, check.hpp): active or rejected;
//  - audits what workers reported (audit.hpp): counted, or refused and queued again;
//  - refits the ratings over every counted game (rating.hpp) and keeps each version's history;
//  - keeps the queue of matches filled (matchmaking.hpp): placement games for new versions first,
//    a fair share for every active version, opponents that teach the ratings most.
// Workers (worker.hpp) only play; everything they write is checked here before it counts.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "referee/bots/sandbox.hpp"
#include "referee/core/result.hpp"
#include "referee/core/rng.hpp"
#include "referee/core/stop.hpp"
#include "referee/ladder/config.hpp"
#include "referee/ladder/leaderboard.hpp"
#include "referee/ladder/store.hpp"

namespace arena::ladder {

struct CoordinatorOptions {
  std::filesystem::path builds;        // where versions are unpacked, built and checked
  std::vector<std::string> opponents;  // the conformance check's opponents (bot commands)
  bots::SandboxPolicy sandbox;         // the bots' (the check's matches); builds take the strictest tier
  std::vector<std::string> env;        // the bots' environment
  const StopSignal* stop = nullptr;
  std::size_t queue_target = 4;  // matches kept queued
  std::function<void(const std::string&)> say;
};

class Coordinator {
 public:
  static Result<std::unique_ptr<Coordinator>> open(const Location& where, const LadderConfig& config,
                                                   const CoordinatorOptions& options);
  // Builds and checks every version still building; how many it decided.
  Result<std::size_t> build_pending();
  // Audits reported matches; how many it counted (refused ones are logged and queued again).
  Result<std::size_t> audit_reported();
  // Reads the games counted since the last call, refits, and stores the ratings that changed.
  Status refit();
  // Enqueues tables until `queue_target` matches wait.
  Status top_up();
  // All four, in that order; whether anything changed.
  Result<bool> step();

  // The leaderboard as of the last refit().
  Leaderboard& leaderboard() { return board_; }

 private:
  Coordinator(const Location& where, const LadderConfig& config, const CoordinatorOptions& options,
              std::unique_ptr<Store> store);
  void say(const std::string& line) const;

  Location where_;
  LadderConfig config_;
  CoordinatorOptions o_;
  std::unique_ptr<Store> store_;
  Leaderboard board_;
  std::map<Id, RatingRow> stored_;  // each version's last stored rating (its history's last row)
  Rng rng_;                         // matchmaking's tie-breaks (never a seed: those come from the OS)
};

}  // namespace arena::ladder
