#pragma once
// One match between bot executables: spawn them, handshake, then for every decision send the
// seat its view and legal actions, wait for the reply under an absolute deadline, check it, apply
// it and record it in the replay; finally tell every bot the result and tear them down.
//
// Faults are values (replay/result.hpp), classified in a fixed order: timeout, malformed, illegal,
// crash, output_limit. The offender forfeits; the result says who, what, in which phase, at which
// request, the bot's own bytes (escaped) and the last lines of its stderr.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "protocol/codec.hpp"
#include "referee/bots/process.hpp"
#include "referee/bots/sandbox.hpp"
#include "referee/core/result.hpp"
#include "referee/core/seat.hpp"
#include "referee/core/stop.hpp"
#include "referee/games/game.hpp"
#include "referee/match/command.hpp"
#include "referee/replay/replay.hpp"

namespace arena::match {

using nlohmann::json;

using replay::End;
using replay::Fault;
using replay::FaultKind;
using replay::FaultPhase;
using replay::SeatReport;

// After game over, the time a bot has to exit before its process group is killed (play's,
// league's and validate's --grace-ms default).
inline constexpr std::chrono::milliseconds kDefaultGrace{200};

struct BotSpec {
  BotSpec() = default;
  BotSpec(BotCommand command_, std::string name_ = "", std::optional<std::uint64_t> address_space = std::nullopt)
      : command(std::move(command_)), name(std::move(name_)), address_space_mb(address_space) {}
  // Parsed once where its text entered (a --bot flag, a league file); its text is what replays and
  // league files record. Run without a shell.
  BotCommand command;
  std::string name;  // optional; else the name from the bot's ready message (a league's: always set)
  std::optional<std::uint64_t> address_space_mb;  // overrides the sandbox's (JVMs reserve a lot)
  json seat_config;  // the seat's own game configuration, e.g. a deck list (null = none); it
                     // moves with the bot when a league rotates seats
  // A folder this bot keeps between matches (a ladder version's storage; empty: none), writable
  // (bots::SpawnOptions::storage). Not recorded in replays.
  std::filesystem::path storage;
};

// A bot process kept from one match for the next (`league --reuse`, docs/league.md "Reused
// bots"). The match plays on `process` instead of starting the bot, and puts it back when the bot
// may go on: it chose protocol 2 and said "reuse": true in its ready, it did not fault, the match
// was not interrupted, and it has used less than half of its CPU-seconds limit (a process past it
// is retired, not killed mid-match by its rlimit). Otherwise the process is shut down as in any
// match and `process` is left null, so the next match starts the bot afresh.
struct KeptBot {
  std::unique_ptr<bots::BotProcess> process;  // null: the next match starts the bot
  std::filesystem::path stderr_log;           // the process's stderr log (the match that started it)
  int matches = 0;                            // matches this process has played
};

struct Options {
  std::string game = games::default_game_name();
  json config;  // null = the game's defaults
  std::uint64_t seed = 0;
  std::vector<BotSpec> bots;
  protocol::Limits limits;
  double time_scale = 1.0;  // multiplies every time limit (slow machines, sanitizers)
  std::filesystem::path replay_path;
  std::filesystem::path log_dir;  // per-seat stderr logs: <log_dir>/<log_stem>.seat<N>.stderr.log
  std::string log_stem = "match";
  std::filesystem::path working_dir;          // the bots' working directory (sandbox none; see process.hpp)
  std::vector<std::filesystem::path> hidden;  // more that no bot may see (a league's folder); the
                                              // logs, the replay's folder and the other seats' files always
  // More bot commands whose files no seat may see, beside the other seats' (a league with kept
  // bots: a process started for one opponent later meets the others); a seat's own is skipped.
  std::vector<BotCommand> hide_commands;
  // The bots' containment (sandbox.hpp). The referee's CLI resolves the strictest the machine
  // supports; the library default is none, for callers that run trusted bots.
  bots::SandboxPolicy sandbox{bots::Tier::none, {}, false};
  // With sandbox.freeze_idle: how long a turn lasts before the other bots are stopped (idle bots
  // are stopped lazily; match.cpp says when they are stopped at once instead).
  std::chrono::microseconds freeze_after{1000};
  std::vector<std::string> env;  // the bots' environment ("KEY=VALUE"), nothing else inherited
  std::size_t stderr_cap = 1 << 20;
  std::chrono::milliseconds grace = kDefaultGrace;  // after game over, before the process group is killed
  // Requested (SIGINT, SIGTERM, SIGHUP): the match ends as interrupted at once, also in the middle of
  // a wait for a bot. A bot that died by a signal the referee did not send while the stop came
  // (a scheduler signals every process of a job) is not charged: the match is interrupted too.
  const StopSignal* stop = nullptr;
  json replay_extra = json::object();  // extra header fields (e.g. the sandbox in force)
  // Fill MatchResult::table (the final table for people: `referee play` prints it; a league,
  // which would throw it away, does not pay for it).
  bool final_table = false;
  // One per seat (null: start that seat's bot), or empty: every bot starts for this match alone.
  std::vector<KeptBot*> kept;
};

// The result, typed (replay/result.hpp): what the footer and `referee play` print (replay::to_json)
// and what bots are told (replay::public_json).
struct MatchResult : replay::FinalResult {
  std::string table;  // the final table and score breakdown for people, when finished and asked (final_table)
};

// The seat counts a game plays, as every message writes them: "2", or "2 to 4".
std::string seat_range(const games::GameInfo& info);

// Plays one match. An error is a set-up problem of the caller (unknown game, refused config,
// unwritable replay, an empty bot command); anything a bot does is a Fault in the result.
Result<MatchResult> play(const Options& options);

}  // namespace arena::match
