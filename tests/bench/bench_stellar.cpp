// Random-vs-random full Stellar games per second, engine only, one thread; also prints the
// determinism signature (tests/games/stellar/conformance.cpp pins it).
//
//   bench_stellar [seconds=3]

#include <fmt/format.h>

#include <array>
#include <chrono>
#include <cstdlib>
#include <vector>

#include "referee/core/hash.hpp"
#include "referee/games/stellar/rules.hpp"
#include "referee/games/stellar/scoring.hpp"

using namespace arena;

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 3.0;
  const stellar::Config config;
  // The same games with own decks (seat 1 brings the standard list): two decks, owners, a
  // 120-card table.
  const std::array<stellar::SeatConfig, stellar::kSeats> own = {stellar::SeatConfig{},
                                                                stellar::SeatConfig{stellar::standard_deck()}};
  for (const bool own_decks : {false, true}) {
    std::vector<stellar::Action> actions;
    Rng chooser(12345);
    std::uint64_t games = 0;
    std::uint64_t decisions = 0;
    std::uint64_t checksum = 0;
    const auto start = std::chrono::steady_clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    while (elapsed() < seconds) {
      for (int batch = 0; batch < 256; ++batch) {
        stellar::State s = own_decks ? stellar::new_game(config, own, games).value() : stellar::new_game(config, games);
        while (!stellar::is_over(s)) {
          stellar::legal_actions(s, actions);
          stellar::apply(s, actions[chooser.below(actions.size())]);
          ++decisions;
        }
        checksum += static_cast<std::uint64_t>(stellar::score(s).scores[0]);
        ++games;
      }
    }
    const double t = elapsed();
    fmt::print(
        "stellar engine{}: {} games in {:.2f} s = {:.0f} games/s ({:.1f} decisions/game, {:.0f} ns/decision) checksum "
        "{}\n",
        own_decks ? " (own decks)" : "", games, t, static_cast<double>(games) / t,
        static_cast<double>(decisions) / static_cast<double>(games), t * 1e9 / static_cast<double>(decisions),
        checksum);
  }
  return 0;
}
