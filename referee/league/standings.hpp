#pragma once
// Standings of a league computed from its finished matches (the journal's records), and the
// writers that turn them into JSON, Markdown, JUnit XML and a terminal table. Pure: the writers
// return strings; the CLI decides where they go.
//
// Rules used throughout (see also docs/league.md):
// - Points: rank_points() per seat, so 2 seats give win 1, draw 0.5, loss 0.
// - W/D/L of a seat: win = sole rank 1, draw = rank 1 shared with another seat, loss otherwise
//   (for 2 seats the usual meaning; for more seats, second place of three is a loss).
// - Head to head: within one match, each two seats of different bots play one "game": the better
//   rank scores 1, an equal rank 0.5, a worse rank 0 (for 2 seats: the match result itself).

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "referee/league/record.hpp"
#include "referee/league/stats.hpp"

namespace arena::league {

inline constexpr int kStandingsVersion = 1;

// One bot over the whole league, counted per seat it played (a bot in two seats of one match,
// self-play, counts two games).
struct BotStanding {
  std::string name;
  int games = 0;
  double points = 0;  // sum of rank points
  int wins = 0;
  int draws = 0;
  int losses = 0;
  double score_per_game = 0;          // mean of the game's own score (Stellar points), 0 with no games
  EloEstimate elo;                    // vs the field, from its rank points per game (elo_from_scores)
  std::map<std::string, int> faults;  // fault kind -> count, only faults this bot committed
  double decision_median_ms = 0;      // over all its decisions in all its games; 0 if none
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

struct Standings {
  std::vector<BotStanding> bots;    // by points per game desc, then name; bots without games last
  std::vector<PairStanding> pairs;  // pairs that met, in league bot order (a, then b)
  int matches = 0;
  int seats_per_match = 0;  // 0 when the records differ in seat count, or there are none
  std::string points_rule;  // one sentence, e.g. "win 1, draw 0.5, loss 0"
};

// Standings over `records`. Every name in `bot_names` is listed, with or without games; a bot
// found in the records but not in `bot_names` is added after them (never silently dropped).
// A record with fewer than 2 seats is ignored.
Standings compute_standings(const std::vector<MatchRecord>& records, const std::vector<std::string>& bot_names);

// The sentence explaining rank points for `seats` seats.
std::string points_rule(int seats);

// Versioned machine-readable standings ("standings_version": 1); every number is finite.
nlohmann::json standings_json(const Standings& s);

// A Markdown report: the bot table, head-to-head pairs with their pentanomial, then faults.
std::string standings_markdown(const Standings& s);

// JUnit XML for CI: one <testcase> per bot, with a <failure> listing its faults if it faulted.
std::string junit_xml(const Standings& s, const std::string& suite_name);

// An aligned plain-text table for a terminal.
std::string standings_table(const Standings& s);

// Elo as "+147 [+86, +218]" (rounded to whole Elo).
std::string format_elo(const EloEstimate& e);

}  // namespace arena::league
