// Scoring (docs/games/stellar.md): stars x multiplier per type, section majorities, diversity, draws.

#include "referee/games/stellar/scoring.hpp"

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>

#include "referee/games/stellar/rules.hpp"
#include "tests/games/stellar/table.hpp"

using namespace arena::stellar;
using namespace arena::stellar::testing;

namespace {

// The five types, one face-up card each, in telescope slots 1-5 of `seat`.
void all_five_types(Table& t, int seat) {
  t.telescope(seat, {{1, "Mercury 1"}, {2, "Moon 1"}, {3, "Asteroid 1"}, {4, "Cloud 1"}, {5, "Black Hole 1"}});
}

// Stars x multiplier summed over the five types (sections and diversity left out).
int type_points(const PlayerScore& p) {
  int sum = 0;
  for (const TypeScore& ts : p.types) sum += ts.points;
  return sum;
}

}  // namespace

TEST_CASE("Stars count only face-up cards of the type, and an empty stack multiplies by 0", "[stellar][A4]") {
  Table t;
  t.telescope(0, 1, "Moon 1");              // 3 stars
  t.telescope(0, 2, "Moon 2", Face::down);  // face down: no type, no stars
  t.telescope(0, 3, "Satellite 1");         // satellites have no stars
  t.telescope(0, 4, "Cloud 1");             // 3 stars, but no cloud in the notebook
  t.notebook(0, {"Moon 4"});

  const PlayerScore p = score(t.state()).players[0];
  CHECK(type_score(p, CardType::moon).stars == 3);
  CHECK(type_score(p, CardType::moon).run == 1);
  CHECK(type_score(p, CardType::moon).points == 3);
  CHECK(type_score(p, CardType::cloud).stars == 3);
  CHECK(type_score(p, CardType::cloud).run == 0);
  CHECK(type_score(p, CardType::cloud).points == 0);
  CHECK(type_points(p) == 3);
}

TEST_CASE("Satellites in the notebook join whichever stacks score the most", "[stellar][A4]") {
  Table t;
  t.telescope(0, 1, "Moon 1");  // moons: 3 + 2 = 5 stars
  t.telescope(0, 2, "Moon 3");
  t.telescope(0, 3, "Jupiter 4");  // planets: 1 star
  t.notebook(0, {"Moon 1", "Moon 2", "Jupiter 4", "Satellite 3", "Satellite 5"});

  // Satellite 3 makes moons 1-2-3 (run 3 x 5 stars), Satellite 5 makes planets 4-5 (run 2 x 1).
  // Both on the planets would give 3 + 10, both on the moons 15 + 1.
  const PlayerScore p = score(t.state()).players[0];
  CHECK(type_score(p, CardType::moon).stack == std::vector<int>{1, 2, 3});
  CHECK(type_score(p, CardType::moon).points == 15);
  CHECK(type_score(p, CardType::planet).stack == std::vector<int>{4, 5});
  CHECK(type_score(p, CardType::planet).points == 2);
  CHECK(type_points(p) == 17);
  std::map<std::string, CardType> joined;
  for (const auto& sat : p.satellites) joined[t.name(sat.card)] = sat.stack;
  CHECK(joined == std::map<std::string, CardType>{{"Satellite 3", CardType::moon}, {"Satellite 5", CardType::planet}});
}

TEST_CASE("A satellite may start a stack of its own", "[stellar][A4]") {
  Table t;
  t.telescope(0, 1, "Cloud 1");  // 3 stars, no cloud in the notebook
  t.notebook(0, {"Satellite 2"});
  const PlayerScore p = score(t.state()).players[0];
  CHECK(type_score(p, CardType::cloud).stack == std::vector<int>{2});
  CHECK(type_score(p, CardType::cloud).points == 3);
  CHECK(type_points(p) == 3);
}

TEST_CASE(
    "A satellite that adds to no scoring run is still named in a stack: the first holding "
    "its number, else planet's",
    "[stellar][A4]") {
  Table t;
  t.telescope(0, 1, "Moon 1");  // moons: 3 stars; no other type has stars
  // Satellite 2 duplicates the moons' 2 and the clouds' 2: the first such stack in type order is
  // the moons'. Satellite 5 is in no stack, and no starred stack can use it: planet's.
  t.notebook(0, {"Moon 1", "Moon 2", "Cloud 2", "Satellite 2", "Satellite 5"});
  t.telescope(1, 1, "Asteroid 1");  // seat 1: no notebook satellite, nothing to name
  const PlayerScore p = score(t.state()).players[0];
  std::map<std::string, CardType> joined;
  for (const auto& sat : p.satellites) joined[t.name(sat.card)] = sat.stack;
  CHECK(joined == std::map<std::string, CardType>{{"Satellite 2", CardType::moon}, {"Satellite 5", CardType::planet}});
  // The stacks list them, and nothing scores differently: moons 1-2 (x3), planets 5 (no stars).
  CHECK(type_score(p, CardType::moon).stack == std::vector<int>{1, 2, 2});
  CHECK(type_score(p, CardType::moon).points == 6);
  CHECK(type_score(p, CardType::planet).stack == std::vector<int>{5});
  CHECK(type_score(p, CardType::planet).points == 0);
  CHECK(type_points(p) == 6);
  const auto j = to_json(score(t.state()));
  for (const auto& sat : j["players"][0]["satellites"]) CHECK(sat["stack"].is_string());
}

TEST_CASE("A notebook 6/0 counts 6 or 0, whichever makes the longer run", "[stellar][A4]") {
  Table t;
  t.telescope(0, 1, "Moon 1");      // 3 stars
  t.telescope(0, 2, "Asteroid 1");  // 3 stars
  t.notebook(0, {"Moon 1", "Moon 2", "Moon 6/0", "Asteroid 4", "Asteroid 5", "Asteroid 6/0"});

  const PlayerScore p = score(t.state()).players[0];
  CHECK(type_score(p, CardType::moon).stack == std::vector<int>{0, 1, 2});
  CHECK(type_score(p, CardType::moon).run == 3);
  CHECK(type_score(p, CardType::asteroid).stack == std::vector<int>{4, 5, 6});
  CHECK(type_score(p, CardType::asteroid).run == 3);
  CHECK(type_points(p) == 18);
  std::map<std::string, int> values;
  for (const auto& [id, value] : p.six_zero_values) values[t.name(id)] = value;
  CHECK(values == std::map<std::string, int>{{"Moon 6/0", 0}, {"Asteroid 6/0", 6}});
}

TEST_CASE("Section sums: a 6/0 counts 6, a satellite its number, a face-down card 3", "[stellar][A4]") {
  Table t;
  t.telescope(0, 6, "Moon 6/0");                    // middle: 6
  t.telescope(0, 7, "Satellite 4");                 // middle: 4
  t.telescope(0, 8, "Saturn 5", Face::down);        // middle: 3, not 5
  t.telescope(0, 9, "Black Hole 6/0", Face::down);  // bottom: 3, not 6
  const PlayerScore p = score(t.state()).players[0];
  CHECK(p.section_sums == std::array<int, 3>{0, 13, 3});
}

TEST_CASE("Sections: the strictly higher sum scores 10, a tie scores nothing", "[stellar][A4]") {
  Table t;
  // Top: 5 + 2 = 7 against 3 + 4 = 7, a tie. Middle: 1 against nothing. Bottom: 2 against 4.
  t.telescope(0, {{2, "Saturn 5"}, {3, "Venus 2"}});
  t.telescope(1, {{2, "Moon 3"}, {3, "Moon 4"}});
  t.telescope(0, {{6, "Mercury 1"}, {10, "Cloud 2"}});
  t.telescope(1, 10, "Cloud 4");

  const Outcome o = score(t.state());
  CHECK(o.players[0].section_sums[0] == o.players[1].section_sums[0]);
  CHECK(o.players[0].section_points == std::array<int, 3>{0, 10, 0});
  CHECK(o.players[1].section_points == std::array<int, 3>{0, 0, 10});
}

TEST_CASE("Diversity: 10 for a face-up card of each of the five types", "[stellar][A4]") {
  SECTION("all five face up") {
    Table t;
    all_five_types(t, 0);
    CHECK(score(t.state()).players[0].diversity == 10);
  }
  SECTION("one of them face down does not count") {
    Table t;
    all_five_types(t, 0);
    t.state().players[0].telescope[3].face_up = false;  // Cloud 1
    CHECK(score(t.state()).players[0].diversity == 0);
  }
  SECTION("a satellite does not stand in for a type") {
    Table t;
    t.telescope(0, {{1, "Mercury 1"}, {2, "Moon 1"}, {3, "Asteroid 1"}, {4, "Cloud 1"}, {5, "Satellite 1"}});
    CHECK(score(t.state()).players[0].diversity == 0);
  }
}

TEST_CASE("Total: types + sections + diversity, and equal totals are a draw", "[stellar][A4]") {
  Table t;
  for (int seat = 0; seat < 2; ++seat) {
    all_five_types(t, seat);       // 3 stars per type, top sum 5 each (a tie), diversity 10
    t.notebook(seat, {"Moon 2"});  // moons: 3 stars x run 1
  }
  Outcome o = score(t.state());
  CHECK(o.scores == std::array<int, 2>{13, 13});
  CHECK(o.players[0].section_points == std::array<int, 3>{0, 0, 0});
  CHECK(o.winner == kNone);

  // One more card in seat 1's middle section breaks the tie.
  t.telescope(1, 7, "Venus 2");
  o = score(t.state());
  CHECK(o.scores == std::array<int, 2>{13, 23});
  CHECK(o.winner == 1);
}

namespace {

// Stars x multiplier maximised the slow way, independently of the referee's search: every
// satellite in every stack or none, every 6/0 at 6 or 0.
int brute_force_type_points(const State& s, const Player& p) {
  std::array<int, kTypedKinds> stars{};
  for (const Slot& slot : p.telescope) {
    if (!slot.empty() && slot.face_up && !card(s, slot.card).satellite()) {
      stars[static_cast<std::size_t>(card(s, slot.card).type)] += card(s, slot.card).stars;
    }
  }
  std::vector<const Card*> free_cards;  // satellites and 6/0 cards: the choices
  std::array<std::vector<int>, kTypedKinds> fixed;
  for (CardId id : p.notebook) {
    const Card& c = card(s, id);
    if (c.satellite() || c.six_zero()) {
      free_cards.push_back(&c);
    } else {
      fixed[static_cast<std::size_t>(c.type)].push_back(c.number);
    }
  }
  const auto run_of = [](std::vector<int> numbers) {
    std::sort(numbers.begin(), numbers.end());
    numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
    int best = numbers.empty() ? 0 : 1;
    int current = best;
    for (std::size_t i = 1; i < numbers.size(); ++i) {
      current = numbers[i] == numbers[i - 1] + 1 ? current + 1 : 1;
      best = std::max(best, current);
    }
    return best;
  };
  int best = 0;
  std::vector<int> choice(free_cards.size(), 0);  // satellite: stack 0-5 (5 = none); 6/0: 0 or 1
  while (true) {
    auto stacks = fixed;
    for (std::size_t i = 0; i < free_cards.size(); ++i) {
      const Card& c = *free_cards[i];
      if (c.satellite() && choice[i] < kTypedKinds) {
        stacks[static_cast<std::size_t>(choice[i])].push_back(c.number);
      } else if (c.six_zero()) {
        stacks[static_cast<std::size_t>(c.type)].push_back(choice[i] == 0 ? 6 : 0);
      }
    }
    int total = 0;
    for (std::size_t t = 0; t < stacks.size(); ++t) total += stars[t] * run_of(stacks[t]);
    best = std::max(best, total);
    std::size_t i = 0;
    for (; i < free_cards.size(); ++i) {
      const int options = free_cards[i]->satellite() ? kTypedKinds + 1 : 2;
      if (++choice[i] < options) break;
      choice[i] = 0;
    }
    if (i == free_cards.size()) break;
  }
  return best;
}

}  // namespace

TEST_CASE(
    "Over whole random games, the referee's best satellite and 6/0 choices match a brute "
    "force",
    "[stellar][A4]") {
  int satellites_seen = 0;
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    State s = new_game(Config{}, seed);
    arena::Rng chooser(seed * 7919);
    std::vector<Action> actions;
    while (!is_over(s)) {
      legal_actions(s, actions);
      apply(s, actions[chooser.below(actions.size())]);
    }
    const Outcome o = score(s);
    for (std::size_t seat = 0; seat < 2; ++seat) {
      INFO("seed " << seed << " seat " << seat);
      const PlayerScore& p = o.players[seat];
      CHECK(type_points(p) == brute_force_type_points(s, s.players[seat]));
      satellites_seen += static_cast<int>(p.satellites.size());
      // Every satellite is named in a stack, and each stack as listed gives its run.
      std::array<int, kTypedKinds> named{};
      for (const auto& sat : p.satellites) {
        REQUIRE(sat.stack != CardType::satellite);
        ++named[static_cast<std::size_t>(sat.stack)];
      }
      for (int type = 0; type < kTypedKinds; ++type) {
        const TypeScore& ts = p.types[static_cast<std::size_t>(type)];
        unsigned numbers = 0;
        for (int n : ts.stack) numbers |= 1u << n;
        CHECK(ts.run == longest_run(numbers));
        int cards = 0;
        for (CardId c : s.players[seat].notebook) cards += static_cast<int>(card(s, c).type) == type;
        CHECK(ts.stack.size() == static_cast<std::size_t>(cards + named[static_cast<std::size_t>(type)]));
      }
    }
  }
  CHECK(satellites_seen > 100);  // the games did exercise the satellite search
}
