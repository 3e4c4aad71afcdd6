#pragma once
// Leagues played in rounds (docs/league.md, "Swiss" and "Knockout"): each round's tables are paired
// from the results of the rounds before it, so a round starts only once the one before is wholly
// journaled. The pairings are a pure function of the spec, the league seed and the journal: a
// resume replays the journal into RoundsPlay and gets the same pairings, byes and standings.
//
// The indices: round r holds the matches round_begin(r) .. round_begin(r + 1) - 1; table t of it
// the per_table() matches from round_begin(r) + t * per_table() (its deals in order, each deal's
// legs in order). A record's round and table follow from its index (the journal stores neither),
// and its deal is index / legs, so deal seeds are keyed as in every league.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "referee/core/bounds.hpp"
#include "referee/core/result.hpp"
#include "referee/league/league.hpp"
#include "referee/league/record.hpp"
#include "referee/league/rounds_report.hpp"

namespace arena::league {

// A Swiss league's "rounds" (--rounds), and a bot's "rating" (a knockout's seeding).
inline constexpr bounds::Range<std::int64_t> kRounds{1, 1000};
inline constexpr bounds::Range<double> kRating{-1e9, 1e9};

// The checks and defaults of the round formats, for normalize(): Swiss "rounds" (default
// default_swiss_rounds), knockout "seeding" (default order; "rating" needs a rating per bot) and 2
// seats; neither on another format; no SPRT.
Status normalize_rounds(LeagueSpec& spec);

// The default number of Swiss rounds for `bots` bots: ceil(log2(bots)) + 1.
int default_swiss_rounds(std::size_t bots);
// What a Swiss bye scores: 1 (a round won) with 2 seats, 0.5 (a table's mean) with more.
double swiss_bye_points(int seats);
// A shard of a Swiss or knockout league is refused: a round needs the results of the one before.
Status check_rounds_on_shard(const LeagueSpec& spec, const std::optional<Shard>& shard);

class RoundLayout {
 public:
  explicit RoundLayout(const LeagueSpec& spec);  // normalized, a round format
  int rounds() const { return static_cast<int>(begin_.size()) - 1; }
  std::uint64_t tables(int round) const;
  std::uint64_t per_table() const { return per_table_; }
  std::uint64_t round_begin(int round) const { return begin_[static_cast<std::size_t>(round)]; }
  std::uint64_t total() const { return begin_.back(); }
  int round_of(std::uint64_t index) const;  // index < total()
  int legs() const { return legs_; }

 private:
  std::vector<std::uint64_t> begin_;  // each round's first index, then the total
  std::uint64_t per_table_ = 1;
  int legs_ = 1;
};

// One table of a round and what the journal holds of it.
struct TableTally {
  std::vector<int> bots;       // bot indices as paired: Swiss best first, knockout higher seed first
  std::vector<double> points;  // per entry of bots: rank points over its journaled matches
  std::vector<double> scores;  // the game's points, the same way
  std::uint64_t played = 0;    // journaled matches
};

struct PlayedRound {
  std::vector<TableTally> tables;
  std::vector<int> byes;
  bool complete = false;
};

// ---- Swiss (swiss.cpp) ---------------------------------------------------------------------

// A bot's standing over complete Swiss rounds (rounds_report.hpp's SwissRow, by index).
struct SwissStanding {
  int bot = 0;
  double score = 0;
  double buchholz = 0;
  double sonneborn_berger = 0;
  int byes = 0;
  std::uint64_t draw = 0;  // the seeded draw: a keyed hash of the league seed and the bot
};

// The Swiss order after `rounds` (only complete ones count): score, then Buchholz, then
// Sonneborn-Berger, then the seeded draw (lower first); best first.
std::vector<SwissStanding> swiss_order(int bots, std::uint64_t seed, double bye_points, std::uint64_t per_table,
                                       const std::vector<PlayedRound>& rounds);

struct SwissPairing {
  std::vector<std::vector<int>> tables;  // each in rank order
  std::vector<int> byes;
  bool repeats = false;  // no pairing without a repeated meeting was found: the fallback's
};

// One Swiss round's tables of `seats` bots from `order` (bot indices, best first), `met[a][b]`
// (times a and b shared a table) and `byes[b]` (byes bot b had). With n mod seats bots left over,
// those byes go to the lowest-ranked bots among those with the fewest byes. The others are seated
// in rank order: each table takes the best unseated bot and the next best ones that met none of
// its table, searched back and forth (a bounded search) until every table is free of repeats. When
// none is found, the fallback: each table takes the best unseated bot and, one at a time, the bot
// that met those seated the fewest times (the best ranked among equals).
SwissPairing swiss_pair(const std::vector<int>& order, int seats, const std::vector<std::vector<int>>& met,
                        const std::vector<int>& byes);

// ---- knockout (knockout.cpp) ---------------------------------------------------------------

// The seeds 1..size (a power of two) in bracket order: 1 and 2 meet only in the final, and seed s
// meets size + 1 - s in the first round (for 8: 1 8 4 5 2 7 3 6).
std::vector<int> bracket_order(int size);
// The bots by seed (element 0: seed 1): the league's order, or by "rating" (higher first, equal
// ratings in the league's order).
std::vector<int> knockout_seeds(const LeagueSpec& spec);
// Which bot of a complete knockout table goes through (0 or 1) and why: more rank points, then
// more of the game's points, then the higher seed ("points", "score", "seed").
std::pair<int, std::string> knockout_winner(const TableTally& table, const std::vector<int>& seed_of);

// ---- a league's rounds ---------------------------------------------------------------------

// The rounds of a Swiss or knockout league from its journaled records (fed in any order).
class RoundsPlay {
 public:
  explicit RoundsPlay(const LeagueSpec& spec);  // normalized, its seed set
  const RoundLayout& layout() const { return layout_; }
  void add(const MatchRecord& record);
  // Every round that can be paired: all complete ones and the first one not complete. An error
  // when a journaled match does not sit the bots its round pairs (a journal of another league).
  Result<std::vector<PlayedRound>> rounds() const;
  // The report of the rounds for the standings (names from the spec).
  Result<RoundsReport> report() const;

 private:
  struct Acc {
    std::map<int, double> points, scores;  // by bot
    std::uint64_t played = 0;
    std::vector<int> bots;  // the seats of the first journaled match, as bot indices
  };
  PlayedRound swiss_round(const std::vector<PlayedRound>& before) const;
  PlayedRound knockout_round(int round, const std::vector<PlayedRound>& before) const;
  Status tally(int round, PlayedRound& played) const;

  LeagueSpec spec_;
  RoundLayout layout_;
  std::map<std::string, int> bot_of_;
  std::map<std::pair<int, std::uint64_t>, Acc> acc_;  // (round, table)
  mutable std::map<int, PlayedRound> paired_;         // each round's tables and byes, once paired
  std::string error_;                                 // the first record that names an unknown bot
};

// The scheduled match `index` of a round whose tables are `tables` (bot indices as paired, the seat
// order before rotation): duplicate legs rotate the seats by leg, single deals by round and deal.
Scheduled round_match(const LeagueSpec& spec, const RoundLayout& layout, std::uint64_t index,
                      const std::vector<TableTally>& tables);

// The rounds report of the league journaled at `journal` (standings.json's "rounds").
Result<RoundsReport> rounds_report_from_journal(const LeagueSpec& spec, const std::filesystem::path& journal);

}  // namespace arena::league
