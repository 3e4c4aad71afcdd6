// Interstellar through the type-erased interface, beyond the shared conformance test
// (tests/games/test_conformance.cpp): both deck-out readings, own deck lists per seat, random
// games that end, and the pinned determinism signatures.

#include "tests/games/conformance.hpp"

#include <catch2/catch.hpp>

#include "referee/core/hash.hpp"
#include "referee/games/game.hpp"
#include "referee/games/interstellar/json.hpp"
#include "referee/games/interstellar/rules.hpp"

using namespace arena;
using nlohmann::json;

TEST_CASE("Interstellar is registered third, for 2 seats", "[interstellar]") {
  const auto& all = games::all_games();
  REQUIRE(all.size() >= 3);
  CHECK(all[2]->info().name == "interstellar");
  CHECK(all[2]->info().title == "Interstellar");
  CHECK(all[2]->info().min_seats == 2);
  CHECK(all[2]->info().max_seats == 2);
}

TEST_CASE("Interstellar conforms under both deck-out readings and a short turn cap", "[conformance][interstellar]") {
  const int games = arena::testing::sanitizer_share(100);
  arena::testing::check_conformant(arena::testing::run_conformance(arena::testing::registered_game("interstellar"),
                                                                   {{"deckout", "loss"}}, 2, games, 7001, 10),
                                   games);
  arena::testing::check_conformant(arena::testing::run_conformance(arena::testing::registered_game("interstellar"),
                                                                   {{"max_turns", 6}}, 2, games, 8001, 10),
                                   games);
}

TEST_CASE("Interstellar conforms with different deck lists and characters per seat", "[conformance][interstellar]") {
  const json shane = {{"character", "shane"},
                      {"main",
                       {{"earth", 2},
                        {"proxima_b", 1},
                        {"harvest", 8},
                        {"depletion", 6},
                        {"gate", 6},
                        {"force_field", 6},
                        {"escape_pod", 2},
                        {"reinforcements", 1},
                        {"into_the_void", 4},
                        {"space_junk", 2},
                        {"colonization", 2}}}};
  const json shifter_big = {{"character", "shifter"},
                            {"resource",
                             {{"water_1", 6},
                              {"water_3", 4},
                              {"energy_3", 8},
                              {"ammo_3", 8},
                              {"e115", 10},
                              {"orions_belt", 6},
                              {"halley", 1}}}};
  const int games = arena::testing::sanitizer_share(100);
  arena::testing::check_conformant(arena::testing::run_conformance(arena::testing::registered_game("interstellar"),
                                                                   nullptr, 2, games, 9001, 10, {shane, shifter_big}),
                                   games);
  arena::testing::check_conformant(arena::testing::run_conformance(arena::testing::registered_game("interstellar"),
                                                                   nullptr, 2, games, 9501, 10, {shifter_big, shane}),
                                   games);
}

TEST_CASE("Random Interstellar games end, in every way the rules allow", "[interstellar]") {
  using namespace arena::interstellar;
  std::array<int, 4> ends{};
  std::vector<Action> actions;
  const std::uint64_t games = static_cast<std::uint64_t>(arena::testing::sanitizer_share(400));
  for (std::uint64_t seed = 0; seed < games; ++seed) {
    State s = new_game(Config{}, {}, seed);
    Rng chooser(seed + 99);
    int steps = 0;
    while (!is_over(s)) {
      legal_actions(s, actions);
      REQUIRE_FALSE(actions.empty());
      apply(s, actions[chooser.below(actions.size())]);
      REQUIRE(++steps < 20000);
    }
    ++ends[static_cast<std::size_t>(s.end)];
  }
  INFO("defeated " << ends[1] << ", deckout " << ends[2] << ", turn cap " << ends[3]);
  CHECK(ends[0] == 0);
  CHECK(static_cast<std::uint64_t>(ends[1] + ends[2] + ends[3]) == games);
  if (games == 400) {  // every ending seen (the normal pass; the sanitizers play an eighth)
    CHECK(ends[2] > 0);
    CHECK(ends[3] > 0);
  }
}

// A rules change that moves this signature changes how recorded games re-simulate: it goes with
// a new rules revision (GameInfo::rules_revision) and says so in its commit.
TEST_CASE("Interstellar's determinism signature is pinned", "[interstellar]") {
  CHECK(hash_hex(arena::testing::determinism_signature(arena::testing::registered_game("interstellar"), nullptr, 2,
                                                       300)) == "5b3e5a39062387f9");
}
