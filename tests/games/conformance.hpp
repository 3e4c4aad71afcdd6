#pragma once
// The conformance check every game passes: many seeded random games played through
// the type-erased interface, checking at every step that legal actions exist and apply, the
// state is a value (copy == original), JSON round-trips, hashes are reproducible, views hide what
// they must, the game's own invariants (cards conserved) hold, and its drawings for people
// (terminal text of every view and of the whole table, actions in words, the outcome) draw
// without failing. tests/games/test_conformance.cpp runs it over every registered game.

#include <catch2/catch.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "referee/games/game.hpp"

namespace arena::testing {

struct ConformanceReport {
  int games = 0;
  std::uint64_t decisions = 0;
  std::uint64_t signature = 0;        // hash over every final state hash and outcome, in order
  std::vector<std::string> failures;  // empty when conformant (first few kept)
};

// The registered game of that name (REQUIREd to be registered).
inline const games::Game& registered_game(const std::string& name) {
  const games::Game* game = games::find_game(name);
  REQUIRE(game != nullptr);
  return *game;
}

// Checks (Catch2) that `report` played `games` games without a failure, each failure shown.
inline void check_conformant(const ConformanceReport& report, int games) {
  for (const auto& f : report.failures) UNSCOPED_INFO(f);
  CHECK(report.failures.empty());
  CHECK(report.games == games);
}

// Plays `games` random games with seeds first_seed, first_seed+1, ... and `seats` seats.
// `deep_every`: the expensive checks (JSON round trip, redeal, replay, drawings) run on every step
// of every deep_every-th game and on a sample of steps otherwise. `seat_configs`: one per seat
// (or none), as the referee passes them to new_game.
ConformanceReport run_conformance(const games::Game& game, const games::json& config, int seats, int games,
                                  std::uint64_t first_seed, int deep_every = 10,
                                  const std::vector<games::json>& seat_configs = {});

// How many of `games` to play: all of them, or a `divisor`-th (an eighth by default) under
// AddressSanitizer, whose pass looks for memory errors on the paths the normal pass checks over
// every seed (each deep step also checks both protocols' views, which under the sanitizers costs
// more than the game itself).
constexpr int sanitizer_share(int games, int divisor = 8) {
#if defined(__SANITIZE_ADDRESS__)
  return games / divisor;
#else
  (void)divisor;
  return games;
#endif
}

// 1, or `stride` under AddressSanitizer: a check of every step of a game visits every stride-th
// step there (the paths are the same at each step; the normal pass visits them all).
constexpr std::size_t sanitizer_stride(std::size_t stride) {
#if defined(__SANITIZE_ADDRESS__)
  return stride;
#else
  (void)stride;
  return 1;
#endif
}

// A random game's final state hash and outcome folded into one value: the determinism signature.
std::uint64_t determinism_signature(const games::Game& game, const games::json& config, int seats, int games);

}  // namespace arena::testing
