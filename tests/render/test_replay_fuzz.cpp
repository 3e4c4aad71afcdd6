// Mutated replays of every game read as `referee verify`, `show` and `html` read them: each is
// accepted, diverges or is refused as a bad replay, never an internal error (an exception past the
// reader). 300 cases with a fixed seed (100 under the sanitizers); tests/bench/fuzz_replays runs
// 100,000.

#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "referee/games/game.hpp"
#include "tests/games/conformance.hpp"  // testing::sanitizer_share
#include "tests/render/replay_fuzz.hpp"

using namespace arena;

TEST_CASE("mutated replays are refused or diverge, never an internal error", "[replay][fuzz]") {
  std::vector<std::string> bases;
  for (const games::Game* g : games::all_games()) bases.push_back(fuzz::played_replay(g->info().name, 7));
  REQUIRE(bases.size() >= 3);
  std::array<int, 4> classes{};
  std::vector<std::string> internal;
  // A third under the sanitizers (100 cases over every game's replay, the same seeded mutations),
  // where each case cost about a core-second.
  constexpr int kCases = testing::sanitizer_share(300, 3);
  for (int i = 0; i < kCases; ++i) {
    const std::uint64_t seed = 424242 + static_cast<std::uint64_t>(i);
    std::string what;
    const std::string text = fuzz::mutate(bases[static_cast<std::size_t>(i) % bases.size()], seed, what);
    const fuzz::Reading r = fuzz::read_like_the_cli(text, i % 25 == 0);
    ++classes[static_cast<std::size_t>(r.outcome)];
    if (r.outcome == fuzz::Outcome::internal) internal.push_back(fmt::format("seed {}: {}: {}", seed, what, r.message));
  }
  INFO(fmt::format("{}", fmt::join(internal, "\n")));
  CHECK(internal.empty());
  // The mutations reach every class a reader has: refused, diverging, and still valid.
  CHECK(classes[static_cast<std::size_t>(fuzz::Outcome::bad)] > kCases / 10);
  CHECK(classes[static_cast<std::size_t>(fuzz::Outcome::diverged)] > 0);
  CHECK(classes[static_cast<std::size_t>(fuzz::Outcome::ok)] > 0);
}

TEST_CASE("every base replay reads, verifies and draws", "[replay][fuzz]") {
  for (const games::Game* g : games::all_games()) {
    INFO(g->info().name);
    const fuzz::Reading r = fuzz::read_like_the_cli(fuzz::played_replay(g->info().name, 11), true);
    CHECK(r.message.empty());
    CHECK(r.outcome == fuzz::Outcome::ok);
  }
}
