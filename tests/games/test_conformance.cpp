// The shared conformance test over every game the registry holds, at every seat count it
// supports: adding a game adds it here without a line. Game-specific variants (configs, seat
// configs, pinned signatures) live beside each game's rule tests.

#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <set>
#include <string>

#include "referee/games/game.hpp"
#include "tests/games/conformance.hpp"

using namespace arena;

namespace {

// Block `block` (0-3) of every registered game's conformance at every seat count it supports:
// seeds [1 + block * n, 1 + (block + 1) * n). n is 125 (500 seeds per game and seat count in
// all, each step checked and every 17th step and 25th game deeply), or ARENA_CONFORMANCE_SEEDS
// for a longer soak. Under the sanitizers an eighth: 60 seeds per game and seat count, the same
// paths on fewer seeds.
void every_game_conforms(int block) {
  int all = 125;
  if (const char* env = std::getenv("ARENA_CONFORMANCE_SEEDS")) {
    all = std::atoi(env);
    REQUIRE(all > 0);
  }
  const int games = std::max(1, testing::sanitizer_share(all));
  const std::uint64_t first = 1 + static_cast<std::uint64_t>(block) * static_cast<std::uint64_t>(all);
  REQUIRE_FALSE(games::all_games().empty());
  for (const games::Game* game : games::all_games()) {
    for (int seats = game->info().min_seats; seats <= game->info().max_seats; ++seats) {
      INFO(fmt::format("{} with {} seats, seeds {}-{}", game->info().name, seats, first,
                       first + static_cast<std::uint64_t>(games) - 1));
      const auto report = testing::run_conformance(*game, nullptr, seats, games, first, 25);
      testing::check_conformant(report, games);
      CHECK(report.decisions >= static_cast<std::uint64_t>(games));
    }
  }
}

}  // namespace

// Four blocks, so that CTest runs them on both cores.
TEST_CASE("Every registered game conforms at every seat count, block 1 of 4", "[conformance]") {
  every_game_conforms(0);
}
TEST_CASE("Every registered game conforms at every seat count, block 2 of 4", "[conformance]") {
  every_game_conforms(1);
}
TEST_CASE("Every registered game conforms at every seat count, block 3 of 4", "[conformance]") {
  every_game_conforms(2);
}
TEST_CASE("Every registered game conforms at every seat count, block 4 of 4", "[conformance]") {
  every_game_conforms(3);
}

TEST_CASE("The registry: names are unique and found, seat ranges hold, defaults are accepted",
          "[conformance][registry]") {
  std::set<std::string> names;
  for (const games::Game* game : games::all_games()) {
    const games::GameInfo& info = game->info();
    INFO(info.name);
    CHECK(names.insert(info.name).second);
    CHECK(games::find_game(info.name) == game);
    CHECK_THAT(games::game_names(), Catch::Contains(info.name));
    CHECK_FALSE(info.title.empty());
    CHECK(info.rules_revision >= 1);
    CHECK(info.min_seats >= 1);
    CHECK(info.min_seats <= info.max_seats);
    // The default config and no seat configs; the canonical config reads back as itself.
    auto config = game->normalize_config(nullptr);
    REQUIRE(config.ok());
    auto again = game->normalize_config(*config);
    REQUIRE(again.ok());
    CHECK(*again == *config);
    auto none = game->normalize_seat_config(nullptr);
    REQUIRE(none.ok());
    CHECK(none->is_null());
    // Seat counts outside the range are refused by number.
    for (int seats : {info.min_seats - 1, info.max_seats + 1}) {
      auto refused = game->new_game(nullptr, 1, seats);
      REQUIRE_FALSE(refused.ok());
      CHECK_THAT(refused.error(), Catch::Contains(fmt::format("{} seats", seats)));
    }
  }
  CHECK(games::find_game("no such game") == nullptr);
}
