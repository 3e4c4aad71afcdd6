// The pairing rules of Swiss and knockout leagues (league/rounds.hpp), pure: Swiss tables without
// a repeated meeting, byes to the lowest-ranked bot without one, the fallback when repeats cannot
// be avoided, the order and its tie-breaks; the bracket order, byes to the top seeds, who goes
// through a table; the index layout of rounds.

#include <algorithm>
#include <catch2/catch.hpp>
#include <set>

#include "referee/league/league.hpp"
#include "referee/league/rounds.hpp"

using namespace arena;

namespace {

using Met = std::vector<std::vector<int>>;

void meet(Met& met, const std::vector<int>& table) {
  for (const int a : table) {
    for (const int b : table) {
      if (a != b) ++met[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
    }
  }
}

bool repeats_in(const Met& met, const std::vector<std::vector<int>>& tables) {
  for (const auto& t : tables) {
    for (const int a : t) {
      for (const int b : t) {
        if (a != b && met[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)] > 0) return true;
      }
    }
  }
  return false;
}

league::LeagueSpec rounds_spec(league::Format format, int bots, int seats, std::uint64_t deals) {
  league::LeagueSpec s;
  for (int i = 0; i < bots; ++i) s.bots.push_back({*match::BotCommand::parse("/bin/true"), "b" + std::to_string(i)});
  s.game = seats > 2 ? "stella_quest" : "stellar";
  s.format = format;
  s.seats = seats;
  s.deals = deals;
  s.seed = 1;
  auto n = league::normalize(s);
  INFO((n ? std::string() : n.error()));
  REQUIRE(n.ok());
  return *n;
}

}  // namespace

TEST_CASE("swiss_pair: adjacent bots in the order, a bye to the lowest-ranked, no repeats", "[rounds]") {
  const std::vector<int> order = {3, 0, 4, 1, 2};
  Met met(5, std::vector<int>(5, 0));
  const auto first = league::swiss_pair(order, 2, met, {0, 0, 0, 0, 0});
  CHECK(first.byes == std::vector<int>{2});
  CHECK(first.tables == std::vector<std::vector<int>>{{3, 0}, {4, 1}});
  CHECK_FALSE(first.repeats);
  // 3 met 0 and 4 met 1: the search steps past them; 2 had its bye, so 1 (now last) gets it.
  meet(met, {3, 0});
  meet(met, {4, 1});
  const auto second = league::swiss_pair(order, 2, met, {0, 0, 1, 0, 0});
  CHECK(second.byes == std::vector<int>{1});
  CHECK_FALSE(second.repeats);
  CHECK_FALSE(repeats_in(met, second.tables));
  CHECK(second.tables == std::vector<std::vector<int>>{{3, 4}, {0, 2}});
}

TEST_CASE("swiss_pair: backtracks when the greedy choice leaves two who met", "[rounds]") {
  // Order 0 1 2 3; 0-1 and 2-3 met... and 0-2 too: 0 must take 3, leaving 1-2.
  Met met(4, std::vector<int>(4, 0));
  meet(met, {0, 1});
  meet(met, {2, 3});
  meet(met, {0, 2});
  const auto p = league::swiss_pair({0, 1, 2, 3}, 2, met, {0, 0, 0, 0});
  CHECK_FALSE(p.repeats);
  CHECK(p.tables == std::vector<std::vector<int>>{{0, 3}, {1, 2}});
}

TEST_CASE("swiss_pair: when every pairing repeats, the fallback seats the fewest repeats", "[rounds]") {
  Met met(4, std::vector<int>(4, 0));
  for (const auto& t : std::vector<std::vector<int>>{{0, 1}, {2, 3}, {0, 2}, {1, 3}, {0, 3}, {1, 2}, {0, 1}, {2, 3}})
    meet(met, t);
  const auto p = league::swiss_pair({0, 1, 2, 3}, 2, met, {0, 0, 0, 0});
  CHECK(p.repeats);
  REQUIRE(p.tables.size() == 2);
  // 0 met 1 twice, 2 and 3 once each: it takes 2 (the better ranked of those met once).
  CHECK(p.tables[0] == std::vector<int>{0, 2});
  CHECK(p.tables[1] == std::vector<int>{1, 3});
}

TEST_CASE("swiss_pair: tables of 3 without a pair that met, two byes with 5 bots", "[rounds]") {
  Met met(5, std::vector<int>(5, 0));
  const auto first = league::swiss_pair({0, 1, 2, 3, 4}, 3, met, std::vector<int>(5, 0));
  CHECK(first.byes == std::vector<int>{3, 4});
  CHECK(first.tables == std::vector<std::vector<int>>{{0, 1, 2}});
  meet(met, first.tables[0]);
  const auto second = league::swiss_pair({0, 1, 2, 3, 4}, 3, met, {0, 0, 0, 1, 1});
  CHECK(second.byes == std::vector<int>{1, 2});
  CHECK(second.tables == std::vector<std::vector<int>>{{0, 3, 4}});
}

TEST_CASE("swiss_order: score, then Buchholz, then Sonneborn-Berger, then the seeded draw", "[rounds]") {
  // One round of 2 deals (per table 2): 0 beat 1 2-0, 2 and 3 split 1-1; 4 had the bye.
  league::PlayedRound round;
  round.tables = {{{0, 1}, {2, 0}, {0, 0}, 2}, {{2, 3}, {1, 1}, {0, 0}, 2}};
  round.byes = {4};
  round.complete = true;
  const auto order = league::swiss_order(5, 9, 1.0, 2, {round});
  std::vector<int> bots;
  for (const auto& s : order) bots.push_back(s.bot);
  // 0 and 4 score 1; 0's Buchholz is 1's score 0, 4 has none: equal, and so is SB (0 x 0): the draw.
  REQUIRE(order[0].score == 1.0);
  REQUIRE(order[1].score == 1.0);
  CHECK(std::set<int>{bots[0], bots[1]} == std::set<int>{0, 4});
  CHECK(order[0].draw < order[1].draw);
  // 2 and 3: 0.5 each, Buchholz 0.5 each, SB 0.25 each: the draw again; 1 is last.
  CHECK(std::set<int>{bots[2], bots[3]} == std::set<int>{2, 3});
  CHECK(order[2].buchholz == 0.5);
  CHECK(order[2].sonneborn_berger == 0.25);
  CHECK(bots[4] == 1);
  const auto bye = std::find_if(order.begin(), order.end(), [](const auto& s) { return s.bot == 4; });
  CHECK(bye->byes == 1);
  // Buchholz decides before the draw: with 1 scoring, 0 (whose opponent is 1) passes 4.
  round.tables[0].points = {1.5, 0.5};
  const auto again = league::swiss_order(5, 9, 1.0, 2, {round});
  CHECK(again[0].bot == 4);  // 1.0 against 0's 0.75
  CHECK(again[1].bot == 0);
}

TEST_CASE("bracket_order: 1 and 2 meet in the final, seed s meets size + 1 - s first", "[rounds]") {
  CHECK(league::bracket_order(1) == std::vector<int>{1});
  CHECK(league::bracket_order(2) == std::vector<int>{1, 2});
  CHECK(league::bracket_order(8) == std::vector<int>{1, 8, 4, 5, 2, 7, 3, 6});
}

TEST_CASE("knockout: seeding by rating, the winner by points, score, then seed", "[rounds]") {
  auto spec = rounds_spec(league::Format::knockout, 3, 2, 1);
  CHECK(league::knockout_seeds(spec) == std::vector<int>{0, 1, 2});
  spec.seeding = league::Seeding::rating;
  spec.ratings = {1500.0, 1700.0, 1500.0};
  CHECK(league::knockout_seeds(spec) == std::vector<int>{1, 0, 2});
  const std::vector<int> seed_of = {2, 1, 3};
  league::TableTally t{{0, 2}, {1.0, 1.0}, {10, 12}, 2};
  CHECK(league::knockout_winner(t, seed_of) == std::pair<int, std::string>{1, "score"});
  t.scores = {12, 12};
  CHECK(league::knockout_winner(t, seed_of) == std::pair<int, std::string>{0, "seed"});
  t.points = {0.5, 1.5};
  CHECK(league::knockout_winner(t, seed_of) == std::pair<int, std::string>{1, "points"});
  // "rating" seeding needs one per bot; rounds and seeding only with their formats; 2 seats only.
  spec.ratings = {1500.0, std::nullopt, 1.0};
  CHECK_THAT(league::normalize(spec).error(), Catch::Contains("needs a \"rating\" for every bot"));
  auto three = rounds_spec(league::Format::swiss, 5, 3, 1);
  three.format = league::Format::knockout;
  three.rounds.reset();
  CHECK_THAT(league::normalize(three).error(), Catch::Contains("a knockout is played by 2 seats, not 3"));
  auto rr = rounds_spec(league::Format::round_robin, 3, 2, 1);
  rr.rounds = 3;
  CHECK_THAT(league::normalize(rr).error(), Catch::Contains("is for a swiss league"));
}

TEST_CASE("round layout: a round's matches in one block, tables by deals and legs", "[rounds]") {
  const auto swiss = rounds_spec(league::Format::swiss, 5, 2, 3);
  CHECK(*swiss.rounds == 4);  // ceil(log2 5) + 1
  const league::RoundLayout s(swiss);
  CHECK(s.rounds() == 4);
  CHECK(s.per_table() == 6);  // 3 deals x 2 legs
  CHECK(s.tables(0) == 2);
  CHECK(s.round_begin(1) == 12);
  CHECK(s.total() == 48);
  CHECK(s.round_of(11) == 0);
  CHECK(s.round_of(12) == 1);
  CHECK(league::Schedule(swiss).total() == 48);
  // A knockout of 5: round 1 plays 5 - 4 = 1 table (seeds 1-3 have byes), then 2, then the final.
  const league::RoundLayout k(rounds_spec(league::Format::knockout, 5, 2, 1));
  CHECK(k.rounds() == 3);
  CHECK(k.tables(0) == 1);
  CHECK(k.tables(1) == 2);
  CHECK(k.tables(2) == 1);
  CHECK(k.total() == 8);  // 4 tables (5 bots, 4 go out) x 2 legs
  // Seats rotate by leg within a table; the deal is index / legs.
  const std::vector<league::TableTally> tables = {{{3, 1}, {}, {}, 0}, {{0, 4}, {}, {}, 0}};
  const auto m = league::round_match(swiss, s, 12 + 6 + 3, tables);
  CHECK(m.seat_bots == std::vector<int>{4, 0});
  CHECK(m.leg == 1);
  CHECK(m.deal == 10);
}
