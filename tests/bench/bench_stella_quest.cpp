// Random-vs-random full Stella Quest games per second, engine only, one thread, for 2 and 4
// seats; also prints the determinism signatures (tests/games/stella_quest pins them).
//
//   bench_stella_quest [seconds per seat count=3]

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <vector>

#include "referee/core/hash.hpp"
#include "referee/games/game.hpp"
#include "referee/games/stella_quest/rules.hpp"
#include "tests/games/conformance.hpp"

using namespace arena;

namespace {

void run(int seats, double seconds) {
  const stella_quest::Config config;
  std::vector<stella_quest::Action> actions;
  Rng chooser(12345);
  std::uint64_t games = 0;
  std::uint64_t decisions = 0;
  std::uint64_t tricks = 0;
  std::uint64_t checksum = 0;
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  while (elapsed() < seconds) {
    for (int batch = 0; batch < 256; ++batch) {
      stella_quest::State s = stella_quest::new_game(config, games, seats);
      while (!stella_quest::is_over(s)) {
        stella_quest::legal_actions(s, actions);
        stella_quest::apply(s, actions[chooser.below(actions.size())]);
        ++decisions;
      }
      tricks += static_cast<std::uint64_t>(s.tricks);
      checksum += static_cast<std::uint64_t>(stella_quest::score(s).scores[0] + 1);
      ++games;
    }
  }
  const double t = elapsed();
  const double g = static_cast<double>(games);
  fmt::print(
      "stella_quest engine, {} seats: {} games in {:.2f} s = {:.0f} games/s ({:.1f} decisions/game, "
      "{:.1f} tricks/game, {:.0f} ns/decision) checksum {}\n",
      seats, games, t, g / t, static_cast<double>(decisions) / g, static_cast<double>(tricks) / g,
      t * 1e9 / static_cast<double>(decisions), checksum);
}

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 3.0;
  run(2, seconds);
  run(4, seconds);
  const auto& game = *games::find_game("stella_quest");
  for (int seats : {2, 4}) {
    fmt::print("determinism signature, {} seats, 300 games: {}\n", seats,
               hash_hex(testing::determinism_signature(game, nullptr, seats, 300)));
  }
  return 0;
}
