#pragma once
// Standings of a league computed from its finished matches (the journal's records), and the
// writers that turn them into JSON, Markdown, JUnit XML and a terminal table. Pure: the writers
// return strings; the CLI decides where they go.
//
// Rules used throughout (see also docs/league.md and docs/statistics.md):
// - Points: rank_points() per seat, so 2 seats give win 1, draw 0.5, loss 0.
// - W/D/L of a seat: win = sole rank 1, draw = rank 1 shared with another seat, loss otherwise
//   (for 2 seats the usual meaning; for more seats, second place of three is a loss).
// - Head to head: within one match, each two seats of different bots play one "game": the better
//   rank scores 1, an equal rank 0.5, a worse rank 0 (for 2 seats: the match result itself).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "referee/core/result.hpp"
#include "referee/league/ranking.hpp"
#include "referee/league/record.hpp"
#include "referee/league/rounds_report.hpp"
#include "referee/league/stats.hpp"

namespace arena::league {

// 2: Elo intervals may be null (too few games), nElo/LOS/draw and pairs ratios, the multi-seat
// rating, fault entries, completion and not_counted.
inline constexpr int kStandingsVersion = 2;

// A bot keeps this many of its faults whole (match, message, excerpts, replay, re-run command);
// the rest are only counted.
inline constexpr std::size_t kFaultEntriesPerBot = 100;

// One fault a bot committed, as the journal recorded it.
struct FaultEntry {
  std::uint64_t index = 0;  // the match
  int seat = 0;
  replay::FaultKind kind = replay::FaultKind::crash;
  std::int64_t request_id = 0;
  std::string message;
  std::string request;  // excerpts, "" when the journal has none
  std::string reply;
  std::string replay;                      // path of the match's replay
  std::string rerun;                       // one shell command that re-runs the match
  std::vector<std::string> stderr_tail{};  // the offender's last stderr lines, when journaled
};

// One bot over the whole league, counted per seat it played (a bot in two seats of one match,
// self-play, counts two games).
struct BotStanding {
  std::string name;
  int games = 0;
  double points = 0;  // sum of rank points
  int wins = 0;
  int draws = 0;
  int losses = 0;
  double score_per_game = 0;              // mean of the game's own score (Stellar points), 0 with no games
  EloEstimate elo;                        // vs the field, from its rank points per game (elo_from_scores)
  EloEstimate rating;                     // Plackett-Luce rating vs the field's mean (ranking.hpp)
  std::map<std::string, int> faults;      // fault kind -> count, only faults this bot committed
  std::vector<FaultEntry> fault_entries;  // its first kFaultEntriesPerBot faults, in the order fed
  double decision_median_ms = 0;          // over all its decisions in all its games; 0 if none
  double decision_p99_ms = 0;
  double decision_max_ms = 0;
  double decision_total_ms = 0;
  std::uint64_t stderr_bytes = 0;

  double points_per_game() const { return games > 0 ? points / games : 0.0; }
  int fault_count() const;
};

// Two bots head to head, from a's point of view (a comes before b in the league's bot list).
struct PairStanding {
  std::string a;
  std::string b;
  int games = 0;  // head-to-head games (matches in which both sat)
  double a_points = 0;
  int a_wins = 0;
  int draws = 0;
  int b_wins = 0;
  // Complete duplicate pairs only: both legs (0 and 1) of one deal in 2-seat matches between
  // exactly these two bots. Several of them with the same deal pair up in index order.
  Pentanomial a_pairs;
  EloEstimate elo;  // of a vs b: pentanomial if a_pairs has pairs, else trinomial of the games
};

// Why standings do not cover the whole league.
enum class PartialReason {
  interrupted,     // stopped by a signal: --resume finishes it
  error,           // stopped by an error (the disk)
  shard,           // one shard of a sharded league: `league merge` combines them
  merged_missing,  // a merge of shards that lack matches
  merged_shards,   // a merge without some of the shards
};

// Whether the standings cover the whole league; set by the caller (the league runner knows).
struct Completion {
  bool partial = false;
  PartialReason reason = PartialReason::interrupted;
  std::uint64_t journaled = 0;  // matches in the journal
  std::uint64_t total = 0;      // matches in the schedule
  // shard: this shard's index and the shard count; merged_shards: the shards missing and the count
  std::uint64_t shard = 0, shards = 0;
};

// The reason as the standings print it: "interrupted", "stopped by an error", "shard 2/4",
// "merged; matches missing", "merged without 1 of 4 shards".
std::string reason_text(const Completion& c);

// The SPRT of a two-bot league as the reports state its verdict: the bot tested (the league's
// first), the test's settings and its last state (set by the caller, which ran it).
struct SprtVerdict {
  std::string bot;
  SprtConfig config;
  SprtState state;
  std::uint64_t counted_matches = 0;  // matches the test covers (whole blocks of deals)
  bool stopped_early = false;         // decided before the schedule ended
  bool pairs = false;                 // samples are duplicate pairs (else games)
};

struct Standings {
  std::vector<BotStanding> bots;    // by points per game desc, then name; bots without games last
  std::vector<PairStanding> pairs;  // pairs that met, in league bot order (a, then b)
  int matches = 0;
  int seats_per_match = 0;  // 0 when the records differ in seat count, or there are none
  std::string points_rule;  // one sentence, e.g. "win 1, draw 0.5, loss 0"
  Completion completion;    // set by the caller
  // Matches journaled after an SPRT decided, which these standings do not count (set by the
  // caller, which also leaves them out of the records).
  std::uint64_t not_counted = 0;
  std::optional<SprtVerdict> sprt;  // a league run with an SPRT (set by the caller)
  // A Swiss or knockout league's rounds (set by the caller, which lists the bots in its order).
  std::optional<RoundsReport> rounds;
};

// The line every report prints for a partial league, e.g. "PARTIAL: 37 of 120 matches
// (interrupted); finish with --resume"; "" when complete. And the line about matches not counted.
std::string completion_text(const Standings& s);
std::string not_counted_text(const Standings& s);
// The SPRT's verdict in one line, e.g. "SPRT of new [elo0 -10, elo1 0, alpha 0.05, beta 0.05]:
// H0 accepted, ... (llr -2.98 <= -2.94 after 40 pairs)"; "" without an SPRT. `escape` makes the
// bot's name safe where the line goes (terminal_safe, markdown_escape, or none for XML escaped later).
std::string sprt_text(const Standings& s, std::string (*escape)(std::string_view));

// Standings over `records`. Every name in `bot_names` is listed, with or without games; a bot
// found in the records but not in `bot_names` is added after them (never silently dropped).
// A record with fewer than 2 seats is ignored. It is the StandingsAccumulator below fed the
// records in index order (stable: equal indices in the given order), so legs pair in index order.
Standings compute_standings(const std::vector<MatchRecord>& records, const std::vector<std::string>& bot_names);

// The same standings fed one record at a time, in memory that does not grow with the number of
// matches (a league's: `referee league` never holds its records, standings_from_journal streams
// them). add() keeps per bot and per pair the counts and sums, the decision times as a histogram
// of their leading bits, and of duplicate deals only the legs still waiting for their partner.
// Two things need the records once more: a bot's Elo interval needs its mean before the
// deviations from it, and the decision median and p99 are exact order statistics. finish()
// reads the same records again, in the same order, for them: one pass, or a few when decision
// times are close together (each narrows the histogram cell that holds a wanted rank by 12 bits).
// Fed in index order the result is compute_standings() over the same records (which is this
// accumulator); in another order the counts are equal and sums may differ in
// their last bits, and duplicate legs of one deal may pair differently.
class StandingsAccumulator {
 public:
  // `deals_in_order`: the records come in nondecreasing deal order (a journal read by index
  // does), so a leg still alone when a later deal starts stays alone and is dropped; then a league
  // without duplicate deals, whose 2-seat legs are all alone, costs nothing per match either. A
  // record that breaks the promise makes exact() false: feed them again without it.
  explicit StandingsAccumulator(const std::vector<std::string>& bot_names, bool deals_in_order = false);

  void add(const MatchRecord& record);
  int matches() const { return matches_; }
  bool exact() const { return exact_; }
  // What it holds that depends on the records: legs waiting for their partner and histogram
  // cells. Bounded by the deals in play and the spread of decision times, not by their number.
  std::size_t held() const;

  // Calls `each` with every record add() got, in the same order; an error stops finish().
  using Pass = std::function<Status(const std::function<void(const MatchRecord&)>& each)>;
  Result<Standings> finish(const Pass& again) const;

 private:
  // Decision times as order-preserving 64-bit keys; a cell counts the keys of one leading-bits
  // value and keeps the least and greatest (equal: the cell holds one value, found).
  struct Cell {
    std::uint64_t count = 0;
    std::uint64_t low = UINT64_MAX;
    std::uint64_t high = 0;
  };
  using Histogram = std::map<std::uint32_t, Cell>;
  struct BotTally {
    BotStanding standing;  // everything counted or summed record by record
    double score_sum = 0;
    std::uint64_t decisions = 0;
    double decision_max = 0;
    Histogram top;  // by the leading 16 bits of each decision time's key
  };
  // Legs of one deal between two bots (a before b in league order) not paired yet, a's points.
  struct OpenLegs {
    std::vector<double> leg0;
    std::vector<double> leg1;
  };
  std::size_t bot_index(const std::string& name);

  std::vector<BotTally> bots_;
  std::map<std::string, std::size_t> index_of_;
  std::map<std::pair<std::size_t, std::size_t>, PairStanding> pairs_;
  std::map<std::tuple<std::uint64_t, std::size_t, std::size_t>, OpenLegs> open_;  // (deal, a, b)
  PlackettLuce ranking_;
  int matches_ = 0;
  int seats_per_match_ = 0;
  bool deals_in_order_ = false;
  bool exact_ = true;
  std::uint64_t last_deal_ = 0;
};

// The sentence explaining rank points for `seats` seats.
std::string points_rule(int seats);

// Versioned machine-readable standings ("standings_version": 2); every number is finite, and an
// interval end, nElo or LOS that is not known is null.
nlohmann::json standings_json(const Standings& s);

// A Markdown report: the partial marker, the bot table (with the multi-seat rating when matches
// have more than 2 seats), the crosstable, head-to-head pairs (with their pentanomial for 2 seats),
// then faults.
std::string standings_markdown(const Standings& s);

// JUnit XML for CI (standings_junit.cpp): one <testsuite> per bot, one failing <testcase> per
// match in which it faulted (its first kFaultEntriesPerBot, then one saying how many more), or one
// passing testcase when it is clean; and a suite "league" whose testcase "league complete" fails
// when the league is partial.
std::string junit_xml(const Standings& s, const std::string& suite_name);

// An aligned plain-text table for a terminal.
std::string standings_table(const Standings& s);

// Elo as "+147 [+86, +218]" (rounded to whole Elo); "+1000 [not enough games]" without an
// interval; "+1000 [+147, +1000] exact" for the exact bound of constant results.
std::string format_elo(const EloEstimate& e);

// Points with two decimals ("1.83"), as every text report prints them.
std::string format_points(double points);

}  // namespace arena::league
