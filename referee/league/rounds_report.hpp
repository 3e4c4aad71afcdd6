#pragma once
// What a league played in rounds (Swiss, knockout: rounds.hpp) reports beside its standings: each
// round's tables and byes, the Swiss order with its tie-breaks, the knockout bracket and its
// winner. Plain values (no league types), so that the standings (standings.hpp) can hold one;
// the writers put it into standings.json, standings.md and the terminal table.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace arena::league {

// One table of a round: its bots as paired (Swiss best first, knockout higher seed first), and
// what its journaled matches gave each (summed over them).
struct TableView {
  std::vector<std::string> bots;
  std::vector<int> seeds;         // knockout: each bot's seed (1 = top); Swiss: empty
  std::vector<double> points;     // rank points (win 1, draw 0.5, loss 0 for 2 seats)
  std::vector<double> scores;     // the game's own points
  std::uint64_t first_index = 0;  // its matches are first_index .. first_index + matches - 1
  std::uint64_t matches = 0;      // deals x legs
  std::uint64_t played = 0;       // of them journaled
  int winner = -1;                // knockout: the position in `bots` that goes through; -1: undecided
  std::string decided_by;         // knockout: "points", "score" or "seed"; "" while undecided
};

struct RoundView {
  int number = 1;  // 1-based, as reports say it
  std::vector<TableView> tables;
  std::vector<std::string> byes;  // bots that sit the round out (Swiss: scored bye_points)
  bool complete = false;          // every match of its tables is journaled
};

// A bot's line of the Swiss order, over the complete rounds.
struct SwissRow {
  std::string bot;
  double score = 0;             // round points and bye points
  double buchholz = 0;          // sum over its rounds at a table of its tablemates' mean score
  double sonneborn_berger = 0;  // sum over those rounds of its round points x that mean
  int byes = 0;
};

struct RoundsReport {
  bool knockout = false;          // else Swiss
  int rounds = 0;                 // rounds the league plays
  double bye_points = 0;          // Swiss: what a bye scores
  std::vector<RoundView> played;  // the rounds paired so far (the last one possibly not complete)
  std::vector<SwissRow> swiss;    // Swiss: the order (score, Buchholz, Sonneborn-Berger, seeded draw)
  std::string winner;             // knockout: the bot that won the final; "" until then
  // Every bot, best first: the Swiss order; the knockout's winner, then by the round a bot went
  // out in (later first), then by seed. The standings list their bots in this order.
  std::vector<std::string> order;
};

// "rounds" of standings.json: {"format", "rounds", "bye_points" (Swiss), "played": [{"round",
// "complete", "byes", "tables": [{"bots", "seeds", "points", "scores", "first_match", "matches",
// "played", "winner" (a name or null), "decided_by"}]}], "swiss": [...] (Swiss), "winner" (a name
// or null: knockout), "order"}.
nlohmann::json to_json(const RoundsReport& report);
// The rounds as Markdown (bot names escaped with markdown_escape) and as terminal text
// (terminal_safe): the Swiss order and each round's tables, or the bracket round by round.
std::string rounds_markdown(const RoundsReport& report);
std::string rounds_table(const RoundsReport& report);

}  // namespace arena::league
