#pragma once
// One match of a league, played as every league (and the ladder above it) plays its matches: the
// bots of its seats from the league's list, the league's limits, sandbox and environment, its
// replay and stderr logs where the caller says, its bots' processes kept across matches when the
// league reuses them, and its journal record (record.hpp) built from the typed result.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "protocol/codec.hpp"
#include "referee/bots/sandbox.hpp"
#include "referee/core/result.hpp"
#include "referee/core/stop.hpp"
#include "referee/league/league.hpp"
#include "referee/league/record.hpp"
#include "referee/match/match.hpp"

namespace arena::league {

// What every match of a league (or a ladder) shares.
struct MatchSetup {
  std::string game = games::default_game_name();
  json config;  // null: the game's defaults
  protocol::Limits limits;
  double time_scale = 1.0;
  bots::SandboxPolicy sandbox{bots::Tier::none, {}, false};
  std::vector<std::string> env;  // the bots' whole environment ("KEY=VALUE")
  std::chrono::milliseconds grace = match::kDefaultGrace;
  // At a stop the match in flight ends as interrupted, and kept bots are let go without grace.
  const StopSignal* stop = nullptr;
  std::filesystem::path working_dir;          // relative bot commands, and the cwd in tier none
  std::filesystem::path log_dir;              // per-seat stderr logs
  std::vector<std::filesystem::path> hidden;  // more that no bot may see (the league's folder)
  // Keep bots across matches (KeptBots, docs/league.md "Reused bots"): a kept process meets every
  // bot of the list in time, so the files of all their commands are hidden from it.
  bool reuse = false;
  // The command that re-runs a match alone (built by the CLI from its options); empty: none.
  std::function<std::string(const match::Options&)> rerun;
};

// A worker's kept processes: one per (bot index, leg), so that the legs of a duplicate deal, which
// repeat its cards, are played by different processes of each bot.
using KeptBots = std::map<std::pair<int, int>, match::KeptBot>;

// Ends the kept processes of bots not in `bots` (the next deal's): a worker keeps only the bots it
// is playing, whatever the number of bots in the league. They get EOF and the setup's grace, none
// once a stop is requested.
void keep_only(KeptBots& kept, const std::vector<int>& bots, const MatchSetup& setup);

struct PlayedMatch {
  MatchRecord record;  // as the journal stores it (its fault's request and reply cut)
  match::MatchResult result;
};

// Plays m (bots[m.seat_bots[s]] in seat s) into `replay`, its logs named `log_stem`. An error: a
// set-up or disk problem (End::error included); nullopt: interrupted (its replay removed).
Result<std::optional<PlayedMatch>> play_match(const MatchSetup& setup, const std::vector<match::BotSpec>& bots,
                                              const Scheduled& m, const std::filesystem::path& replay,
                                              const std::string& log_stem, KeptBots& kept);

// The wall clock in ms since 1970, as the journal and a shard's manifest record it.
std::int64_t unix_ms();

}  // namespace arena::league
