#pragma once
// One finished league match as the journal (results.jsonl) stores it: everything standings,
// ratings and resume need, one JSON object per line. Written by the league runner, read back by
// --resume and by the standings code.

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "referee/core/result.hpp"
#include "referee/replay/replay.hpp"

namespace arena::league {

using nlohmann::json;

inline constexpr int kJournalVersion = 1;

struct SeatRecord {
  std::string bot;                  // the league's name of the bot in this seat
  double score = 0;                 // the game's own points (Stellar: its final score); 0 on a fault
  int rank = 1;                     // 1 = best; tied seats share a rank; the offender of a fault is last
  std::vector<double> decision_ms;  // wall time of each of its decisions, in order
  std::uint64_t stderr_bytes = 0;
};

struct FaultRecord {
  int seat = 0;
  replay::FaultKind kind = replay::FaultKind::crash;  // its name in the journal
  std::int64_t request_id = 0;
  std::string message;
  // Excerpts of the request the bot was answering and of its reply (escaped bytes, as the match
  // gives them, capped by the league runner). Optional in the journal: "" when absent, as in
  // journals of earlier versions.
  std::string request{};
  std::string reply{};
  // The offender's last stderr lines before the fault (the match's tail, each line capped by the
  // league runner); optional in the journal, empty when absent.
  std::vector<std::string> stderr_tail{};
};

struct MatchRecord {
  std::uint64_t index = 0;  // position in the league's schedule, 0-based and unique
  std::uint64_t deal = 0;   // deal number: the games of one duplicate deal share it (and the seed)
  int leg = 0;              // the seat rotation of its deal: 0 .. seats - 1 with duplicate deals, else always 0
  std::uint64_t seed = 0;
  replay::End end = replay::End::finished;  // finished or fault (an interrupted match is not journaled)
  std::vector<SeatRecord> seats;            // in seat order
  std::optional<FaultRecord> fault;
  std::string replay;              // path of the replay file
  std::string rerun;               // one shell command that re-runs this match alone
  std::int64_t start_unix_ms = 0;  // wall-clock start and end (ms since 1970; 0: not recorded,
  std::int64_t end_unix_ms = 0;    // as in journals of earlier versions)
};

json to_json(const MatchRecord& record);
// The record as one journal line (without its newline): what the league runner appends and a
// merge writes. Bytes a bot chose that are not UTF-8 are replaced, never thrown on.
std::string journal_line(const MatchRecord& record);
Result<MatchRecord> record_from_json(const json& j);

// Points of a seat from its rank among `seats` seats: 1 for a sole winner, 0 for the last,
// linear in between, ties sharing the average of the places they cover. For 2 seats: win 1,
// draw 0.5, loss 0. The ranks of a game's seats (1 = best, ties share), or a record's.
double rank_points(const std::vector<int>& ranks, std::size_t seat);
double rank_points(const MatchRecord& record, int seat);

}  // namespace arena::league
