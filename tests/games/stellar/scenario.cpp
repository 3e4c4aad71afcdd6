// The worked examples of docs/games/stellar.md (sections 5 and 6), played with named cards.

#include <catch2/catch.hpp>

#include "referee/games/stellar/rules.hpp"
#include "referee/games/stellar/scoring.hpp"
#include "tests/games/stellar/table.hpp"

using namespace arena::stellar;
using namespace arena::stellar::testing;
using Names = std::vector<std::string>;

TEST_CASE("T1: telescope moons 1 and 3 (5 stars) x notebook moons 4, 5, 6/0 (run 3) = 15", "[stellar][A6]") {
  Table t;
  t.telescope(0, {{2, "Moon 1"}, {3, "Moon 3"}});
  t.notebook(0, {"Moon 4", "Moon 5", "Moon 6/0"});

  const PlayerScore p = score(t.state()).players[0];
  const TypeScore& moon = type_score(p, CardType::moon);
  CHECK(moon.stars == 5);
  CHECK(moon.stack == std::vector<int>{4, 5, 6});  // the 6/0 counts 6 here
  CHECK(moon.run == 3);
  CHECK(moon.points == 15);
}

TEST_CASE("T2: section sums Carly 14/11/15 vs Emma 17/6/13 give Carly 20, Emma 10", "[stellar][A6]") {
  Table t;
  const int carly = 0;
  const int emma = 1;
  // Carly: top {3 starter, 1, 4, 1, 5}, middle {5, 2, 4}, bottom {6/0, 3, 2, 4}.
  t.starters(carly, "Mars 3 ◆", "Cloud 3 ◆");
  t.telescope(carly, {{2, "Moon 1"}, {3, "Jupiter 4"}, {4, "Mercury 1"}, {5, "Saturn 5"}});
  t.telescope(carly, {{6, "Asteroid 5"}, {7, "Asteroid 2"}, {8, "Asteroid 4"}});
  t.telescope(carly, {{9, "Black Hole 6/0"}, {10, "Cloud 3"}, {11, "Cloud 2"}, {12, "Cloud 4"}});
  // Emma: top {3 starter, 5, 4, 3, 2}, middle {1, 2, 3}, bottom {1, 4, 5, 3}.
  t.starters(emma, "Moon 3 ◆", "Asteroid 3 ◆");
  t.telescope(emma, {{2, "Moon 5"}, {3, "Moon 4"}, {4, "Moon 3"}, {5, "Moon 2"}});
  t.telescope(emma, {{6, "Asteroid 1"}, {7, "Black Hole 2"}, {8, "Asteroid 3"}});
  t.telescope(emma, {{9, "Cloud 1"}, {10, "Black Hole 4"}, {11, "Cloud 5"}, {12, "Black Hole 3"}});

  const Outcome o = score(t.state());
  CHECK(o.players[carly].section_sums == std::array<int, 3>{14, 11, 15});
  CHECK(o.players[emma].section_sums == std::array<int, 3>{17, 6, 13});
  CHECK(o.players[carly].section_points == std::array<int, 3>{0, 10, 10});
  CHECK(o.players[emma].section_points == std::array<int, 3>{10, 0, 0});
}

TEST_CASE("T3: adding Cloud 4 to clouds {1, 5} makes the multipliers planet 1, asteroid 3, cloud 2", "[stellar][A6]") {
  Table t;
  t.notebook(0, {"Jupiter 4", "Asteroid 2", "Asteroid 3", "Asteroid 4", "Cloud 1", "Cloud 5"});
  const PlayerScore before = score(t.state()).players[0];
  CHECK(type_score(before, CardType::planet).run == 1);
  CHECK(type_score(before, CardType::asteroid).run == 3);
  CHECK(type_score(before, CardType::cloud).run == 1);

  t.notebook(0, {"Cloud 4"});
  const PlayerScore after = score(t.state()).players[0];
  CHECK(type_score(after, CardType::planet).run == 1);
  CHECK(type_score(after, CardType::asteroid).run == 3);
  CHECK(type_score(after, CardType::cloud).stack == std::vector<int>{1, 4, 5});
  CHECK(type_score(after, CardType::cloud).run == 2);
  // No stars in this telescope, so no type scores points.
  CHECK(type_score(after, CardType::asteroid).points == 0);
}

TEST_CASE("T4: take Mars 3, Black Hole 1 to the telescope, slot 1 to the notebook, refill 1 and 4", "[stellar][A6]") {
  Table t = opening({.hand0 = {"Black Hole 1", "Venus 2"},
                     .row = {"Asteroid 4", "Black Hole 6/0", "Moon 1", "Mars 3", "Cloud 4"},
                     .deck_top = {"Jupiter 4", "Cloud 2"}});
  State& s = t.state();
  REQUIRE(check_invariants(s).ok());
  REQUIRE(to_act(s) == 0);

  // Step 1: take Mars 3 from row slot 4.
  apply(s, take(s, 4));
  CHECK_THAT(t.names(s.players[0].hand), Catch::UnorderedEquals(Names{"Black Hole 1", "Venus 2", "Mars 3"}));
  CHECK(t.row_names() == Names{"Asteroid 4", "Black Hole 6/0", "Moon 1", "", "Cloud 4"});
  CHECK(s.phase == Phase::play);

  // Step 2: Black Hole 1 face up to the telescope; Step 3: its number 1 sends row slot 1
  // (Asteroid 4) to the other area, the notebook.
  apply(s, play_telescope(s, t.in_hand(0, "Black Hole 1"), 2, Face::up));
  const Player& p = s.players[0];
  CHECK(t.name(p.telescope[1].card) == "Black Hole 1");
  CHECK(p.telescope[1].face_up);
  CHECK(t.names(p.notebook) == Names{"Mars 3 ◆", "Asteroid 4"});
  CHECK(s.last_step3_slot == 0);
  CHECK_THAT(t.names(p.hand), Catch::UnorderedEquals(Names{"Venus 2", "Mars 3"}));

  // Step 4: slots 1 and 4 refilled in ascending order from the top of the deck.
  CHECK(t.row_names() == Names{"Jupiter 4", "Black Hole 6/0", "Moon 1", "Cloud 2", "Cloud 4"});
  CHECK(s.deck.size() == 60 - 4 - 4 - 5 - 2);
  CHECK(s.phase == Phase::take);
  CHECK(to_act(s) == 1);
  CHECK(check_invariants(s).ok());
}

TEST_CASE("T5: planet at 1, moon and black hole at 4 and 6: moon 3 slots, planet 2, black hole 3", "[stellar][A6]") {
  // Either way round: the example does not say which of 4 and 6 holds the moon.
  const bool moon_at_4 = GENERATE(true, false);
  Table t;
  t.starters(0, "Mars 3 ◆", "Moon 3 ◆");
  t.telescope(0, moon_at_4 ? 4 : 6, "Moon 3");
  t.telescope(0, moon_at_4 ? 6 : 4, "Black Hole 1");
  const auto& scope = t.state().players[0].telescope;
  const Deck& deck = t.state().config.deck;
  const auto next = [&](std::string_view name) {
    return slots(face_up_slots(deck, scope, static_cast<CardId>(t.take(name))));
  };

  const std::vector<int> near_4 = {2, 5, 7};
  const std::vector<int> near_6 = {7, 9, 10};
  CHECK(next("Moon 5") == (moon_at_4 ? near_4 : near_6));
  CHECK(next("Saturn 5") == std::vector<int>{2, 3});
  CHECK(next("Black Hole 4") == (moon_at_4 ? near_6 : near_4));
  // A type not yet face up, and a satellite, may go face up on any of the 9 empty slots.
  CHECK(next("Cloud 2") == std::vector<int>{2, 3, 5, 7, 8, 9, 10, 11, 12});
  CHECK(next("Satellite 4") == std::vector<int>{2, 3, 5, 7, 8, 9, 10, 11, 12});
}

TEST_CASE("T5: the legal Step 2 actions offer exactly those face-up slots, and every empty slot face down",
          "[stellar][A6]") {
  Table t;
  t.starters(0, "Mars 3 ◆", "Moon 3 ◆");
  t.starters(1, "Asteroid 3 ◆", "Cloud 3 ◆");
  t.telescope(0, {{4, "Moon 3"}, {6, "Black Hole 1"}});
  const int moon = t.take("Moon 5");
  t.state().players[0].hand = {static_cast<CardId>(moon)};
  t.state().phase = Phase::play;

  std::vector<int> up;
  std::vector<int> down;
  for (const Action& a : legal_actions(t.state())) {
    if (a.kind == ActionKind::play && a.area == Area::telescope) {
      (a.face_up ? up : down).push_back(a.slot + 1);
    }
  }
  CHECK(up == std::vector<int>{2, 5, 7});
  CHECK(down == std::vector<int>{2, 3, 5, 7, 8, 9, 10, 11, 12});
  CHECK(is_legal(t.state(), Action::play_notebook(moon)));
}

TEST_CASE("T6: a 6/0 from hand makes Step 3 use the top of the deck", "[stellar][A6]") {
  Table t = opening({.hand0 = {"Black Hole 6/0", "Venus 2"},
                     .row = {"Asteroid 4", "Moon 6/0", "Moon 1", "Mars 3", "Cloud 4"},
                     .deck_top = {"Jupiter 4", "Cloud 2", "Asteroid 1"}});
  State& s = t.state();

  apply(s, take(s, 3));  // Moon 1
  apply(s, play_notebook(s, t.in_hand(0, "Black Hole 6/0")));
  // Nothing left the row: the 6/0 drew Jupiter 4 from the deck, to be placed in the telescope.
  CHECK(s.phase == Phase::place);
  CHECK(t.name(s.placing) == "Jupiter 4");
  CHECK(s.last_step3_slot == kNone);
  CHECK(t.row_names() == Names{"Asteroid 4", "Moon 6/0", "", "Mars 3", "Cloud 4"});

  apply(s, place(s, 2, Face::up));
  CHECK(t.name(s.players[0].telescope[1].card) == "Jupiter 4");
  CHECK(t.row_names() == Names{"Asteroid 4", "Moon 6/0", "Cloud 2", "Mars 3", "Cloud 4"});
  CHECK(check_invariants(s).ok());
}

TEST_CASE("T6: a 6/0 in the telescope adds 6 to its section", "[stellar][A6]") {
  Table t;
  t.telescope(0, {{9, "Black Hole 6/0"}, {10, "Moon 2"}});
  t.telescope(1, {{9, "Black Hole 5"}, {10, "Moon 2"}});
  const Outcome o = score(t.state());
  CHECK(o.players[0].section_sums[2] == 8);
  CHECK(o.players[1].section_sums[2] == 7);
  CHECK(o.players[0].section_points[2] == 10);
}

TEST_CASE("T7: the stack {2, 2, 3} has multiplier 2", "[stellar][A6]") {
  CHECK(longest_run((1u << 2) | (1u << 3)) == 2);

  Table t;
  t.telescope(0, 2, "Asteroid 1");  // 3 stars, so the multiplier shows in the points
  t.notebook(0, {"Asteroid 2", "Asteroid 2", "Asteroid 3"});
  const TypeScore asteroid = type_score(score(t.state()).players[0], CardType::asteroid);
  CHECK(asteroid.stack == std::vector<int>{2, 2, 3});
  CHECK(asteroid.run == 2);
  CHECK(asteroid.points == 6);
}
