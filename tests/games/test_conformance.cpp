// The shared conformance test over every game the registry holds, at every seat count it
// supports: adding a game adds it here without a line. Game-specific variants (configs, seat
// configs, pinned signatures) live beside each game's rule tests.

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "referee/games/game.hpp"
#include "tests/games/conformance.hpp"

using namespace arena;

namespace {

// Seeds [first, first + games) of every registered game at every seat count it supports.
void every_game_conforms(std::uint64_t first, int all) {
  // Under the sanitizers a 32nd: the four blocks then play 60 seeds per game and seat count,
  // the same paths as the normal pass, on fewer seeds (an eighth took 3 to 4 minutes of a core per block).
  const int games = testing::sanitizer_share(all, 32);
  REQUIRE_FALSE(games::all_games().empty());
  for (const games::Game* game : games::all_games()) {
    for (int seats = game->info().min_seats; seats <= game->info().max_seats; ++seats) {
      INFO(fmt::format("{} with {} seats, seeds {}-{}", game->info().name, seats, first,
                       first + static_cast<std::uint64_t>(games) - 1));
      const auto report = testing::run_conformance(*game, nullptr, seats, games, first, 25);
      for (const auto& f : report.failures) UNSCOPED_INFO(f);
      CHECK(report.failures.empty());
      CHECK(report.games == games);
      CHECK(report.decisions >= static_cast<std::uint64_t>(games));
    }
  }
}

}  // namespace

// 2,000 seeds per game and seat count (60 under AddressSanitizer), in four blocks so that CTest
// runs them on both cores.
TEST_CASE("Every registered game conforms at every seat count, seeds 1-500", "[conformance]") {
  every_game_conforms(1, 500);
}
TEST_CASE("Every registered game conforms at every seat count, seeds 501-1000", "[conformance]") {
  every_game_conforms(501, 500);
}
TEST_CASE("Every registered game conforms at every seat count, seeds 1001-1500", "[conformance]") {
  every_game_conforms(1001, 500);
}
TEST_CASE("Every registered game conforms at every seat count, seeds 1501-2000", "[conformance]") {
  every_game_conforms(1501, 500);
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
