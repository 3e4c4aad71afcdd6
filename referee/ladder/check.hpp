#pragma once
// The conformance check of a built bot (docs/ladder-submissions.md), a library call
// below the CLI, as `referee validate` checks a bot: games of the bot in every seat against each
// given opponent, for each seat count asked, every one a real match (match::play, in the
// caller's sandbox) whose replay is then verified (replay::verify), after the handshake on its own
// (probe_handshake, which `referee validate` runs too). It stops at the first problem: a
// fault of the bot (with its kind, phase, message, the start of the request it answered, its
// reply and the tail of its stderr), a replay that does not verify, a stop request. A fault of an
// opponent is logged and not charged to the bot; an opponent that cannot start is an error of
// the caller.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "protocol/codec.hpp"
#include "referee/bots/sandbox.hpp"
#include "referee/core/enum_names.hpp"
#include "referee/core/result.hpp"
#include "referee/core/stop.hpp"
#include "referee/games/game.hpp"
#include "referee/match/command.hpp"
#include "referee/match/match.hpp"
#include "referee/replay/result.hpp"

namespace arena::ladder {

// The handshake on its own (as `referee validate` does first): the bot started alone as seat 0
// of a `seats`-seat game, sent the hello, its ready line timed and checked as a match checks it,
// then its input closed and the usual grace given to exit. Every fault is of phase `handshake`.
struct HandshakeSetup {
  match::BotCommand command;  // the bot's command line, parsed
  std::filesystem::path working_dir;
  std::vector<std::string> env;  // ARENA_SEAT=0 is added
  bots::SandboxPolicy sandbox{bots::Tier::none, {}, false};
  const games::Game* game = nullptr;
  nlohmann::json config;  // normalized
  int seats = 2;
  protocol::Limits limits;  // as enforced (scaled)
  std::filesystem::path stderr_log;
  std::uint64_t stderr_cap = 1 << 20;
  std::size_t stderr_tail_lines = 20;  // kept in a fault
  std::chrono::milliseconds grace = match::kDefaultGrace;
  const StopSignal* stop = nullptr;
};

struct Handshake {
  nlohmann::json hello;      // what the bot was sent
  bool started = false;      // its process started (else `fault` says why)
  std::string sandbox_tier;  // the tier it ran in, once started
  bool hello_written = false;
  double ready_ms = 0;  // from the start to its answer (or the deadline), once the hello was written
  bool interrupted = false;
  std::optional<protocol::Ready> ready;  // a valid ready
  std::optional<replay::Fault> fault;
  // Once started: how it ended, whether it exited by itself at the end of its input (informational:
  // the protocol asks it to, the referee kills it anyway) and what it wrote on stderr.
  std::string exit;
  bool exited_at_eof = false;
  std::uint64_t stderr_bytes = 0;
};

Handshake probe_handshake(const HandshakeSetup& setup);

struct CheckOptions {
  std::string game;  // empty: the referee's default game
  nlohmann::json config;
  std::vector<int> seat_counts;        // empty: the game's smallest
  int games = 1;                       // per seat count, opponent and seat
  std::vector<std::string> opponents;  // bot command lines (absolute paths)
  protocol::Limits limits;
  double time_scale = 1.0;
  bots::SandboxPolicy sandbox{bots::Tier::none, {}, false};
  std::vector<std::string> env;  // the bots' environment
  std::uint64_t seed = 1;        // game k is played with seed + k
  std::chrono::milliseconds grace = match::kDefaultGrace;
  const StopSignal* stop = nullptr;
};

enum class CheckOutcome { passed, faulted, diverged, interrupted };

struct CheckFault {
  replay::FaultKind kind = replay::FaultKind::crash;
  replay::FaultPhase phase = replay::FaultPhase::decision;
  std::string message;
  std::string request;  // the start of the request it answered (escaped); empty without one
  std::string reply;    // its offending bytes (escaped)
  std::vector<std::string> stderr_tail;
  std::string exit;  // how its process ended, when known
  // Where: the game's seat count, the bot's seat, the opponent and the seed (the handshake on its
  // own: no opponent, seed 0).
  int seats = 2;
  int seat = 0;
  std::string opponent;
  std::uint64_t seed = 0;
};

struct CheckResult {
  CheckOutcome outcome = CheckOutcome::passed;
  std::optional<CheckFault> fault;  // faulted
  std::string message;              // one line: what was found
  int games = 0;                    // played to the end or to the fault
  std::string log;                  // a line per game, then the verdict: to append to the build log
  bool passed() const { return outcome == CheckOutcome::passed; }
};

// Checks the bot `command` (a command line relative to its built folder `folder`, e.g. "./bot"),
// writing the games' replays and stderr logs into `out`. An error: a bad game, config or seat
// count, no opponent, an opponent that cannot start, a folder that cannot be written.
Result<CheckResult> check(const std::string& command, const std::filesystem::path& folder,
                          const std::filesystem::path& out, const CheckOptions& options);

}  // namespace arena::ladder

template <>
struct arena::EnumNames<arena::ladder::CheckOutcome> {
  using O = ladder::CheckOutcome;
  static constexpr auto table =
      name_table(O::passed, "passed", O::faulted, "faulted", O::diverged, "diverged", O::interrupted, "interrupted");
};
