#pragma once
// A match's result, typed: how it ended, the game's scores and outcome, the seats' ranks and the
// winner, the fault, each seat's report. The match fills it and writes it as the replay footer's
// "result" (and `referee play` prints it); verify re-derives it from a re-simulation and compares
// field by field; the league, validate and the viewers read the typed value. JSON exists only at
// the edges: to_json() writes it, result_from_json() reads it back strictly (types, ranges, no
// unknown fields), and rank_seats() is the one rule that turns scores and a fault into ranks and a
// winner.

#include <array>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "referee/core/enum_names.hpp"
#include "referee/core/result.hpp"
#include "referee/core/seat.hpp"

namespace arena::replay {

using nlohmann::json;

// How a match ended. `error`: the referee could not go on (the replay could not be written); the
// match has no result, like an interrupted one, and the footer (when it can still be written) and
// the printed result carry the error.
enum class End { finished, fault, interrupted, error };

// Faults are classified in this order (docs/protocol.md): timeout, malformed, illegal, crash,
// output_limit.
// unsupported_game: the bot's ready lists the games it plays (protocol 2), and not this match's game
// with its seat count; a handshake fault, after every other kind.
enum class FaultKind { timeout, malformed, illegal, crash, output_limit, unsupported_game };

// When the fault happened: the bot could not be started (spawn), during the hello/ready exchange
// (handshake), a kept process spoke between two matches (between_matches), or in a decision.
// Every phase but decision has request id 0.
enum class FaultPhase { spawn, handshake, between_matches, decision };

struct Fault {
  Seat seat = 0;
  FaultKind kind = FaultKind::crash;
  FaultPhase phase = FaultPhase::decision;
  // Whether the request it is charged to had been sent: false for output before a request was
  // asked (a second answer) and in the phases without a request.
  bool request_sent = true;
  std::int64_t request_id = 0;  // 0 = no request (spawn, handshake, between matches)
  std::string message;
  std::string raw;      // the offending bytes as the bot wrote them, escaped
  std::string request;  // the start of the request it answered (escaped); empty without a request
  std::vector<std::string> stderr_tail;
  std::string exit;  // how the process ended, when known ("exit code 3", "killed by signal SIGSEGV")
};

struct SeatReport {
  std::string name;
  std::string version;
  std::string command;
  std::filesystem::path stderr_log;
  std::uint64_t stderr_bytes = 0;
  double total_ms = 0;  // wall time spent deciding
  double max_ms = 0;
  std::int64_t decisions = 0;
  std::vector<double> decision_ms;  // each decision's wall time, in order (not in the JSON)
  double cpu_ms = 0;                // CPU time over its decisions (and while idle unless frozen)
  double idle_cpu_ms = 0;           // CPU time while the opponents were deciding
  std::string exit;                 // how the process ended ("kept for the next match" when kept)
  int protocol = 1;                 // the protocol version it chose in its ready
  int process_match = 1;            // 1: a process started for this match; k: its k-th match
};

struct FinalResult {
  End end = End::finished;
  std::vector<double> scores;  // finished: the game's points per seat; otherwise empty (JSON null)
  json outcome;                // finished: the game's own outcome; otherwise null
  std::vector<int> ranks;      // 1 = best, ties share; empty when interrupted or error (JSON absent)
  std::optional<Seat> winner;  // the sole seat ranked 1
  std::optional<Fault> fault;  // with end == fault
  std::string game;
  std::uint64_t seed = 0;
  json config;  // normalised
  std::int64_t decisions = 0;
  std::filesystem::path replay;
  std::vector<SeatReport> seats;
  std::string error;  // end == error: what failed
};

// The one rule for ranks and the winner: a finished match ranks by score (tied seats share a
// rank), a fault puts the offender last and everyone else first, an interrupted or failed match
// has no ranks. The winner is the seat ranked 1 when it is alone there.
struct Ranking {
  std::vector<int> ranks;
  std::optional<Seat> winner;
};
Ranking rank_seats(End end, const std::vector<double>& scores, std::optional<Seat> offender, int seats);

// Sets r.ranks and r.winner from r.end, r.scores and r.fault by rank_seats().
void settle(FinalResult& r);

// The result as bots see it in game_over: end, scores, outcome, ranks, winner and the fault's
// seat, kind, request id and message (no commands, raw bytes or anyone's stderr).
json public_json(const FinalResult& r);
// The full result: what `referee play` prints and the replay footer holds.
json to_json(const FinalResult& r);
// Reads a full result back (a footer's). Every field is checked for its type and range and
// unknown fields are refused; the error names the field ("result.fault.seat: ..."). Fields
// later versions added (the fault's phase and request_sent) are optional, as replays of earlier
// versions lack them.
Result<FinalResult> result_from_json(const json& j);

}  // namespace arena::replay

namespace arena {

template <>
struct EnumNames<replay::End> {
  using E = replay::End;
  static constexpr auto table =
      name_table(E::finished, "finished", E::fault, "fault", E::interrupted, "interrupted", E::error, "error");
};

template <>
struct EnumNames<replay::FaultKind> {
  using E = replay::FaultKind;
  static constexpr auto table =
      name_table(E::timeout, "timeout", E::malformed, "malformed", E::illegal, "illegal", E::crash, "crash",
                 E::output_limit, "output_limit", E::unsupported_game, "unsupported_game");
};

template <>
struct EnumNames<replay::FaultPhase> {
  using E = replay::FaultPhase;
  static constexpr auto table = name_table(E::spawn, "spawn", E::handshake, "handshake", E::between_matches,
                                           "between_matches", E::decision, "decision");
};

}  // namespace arena
