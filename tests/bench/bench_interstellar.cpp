// Random-vs-random full Interstellar games per second, engine only, one thread, under both
// deck-out readings; how the games end; and the determinism signature
// (tests/games/interstellar pins it).
//
//   bench_interstellar [seconds per reading=3]

#include <fmt/format.h>

#include <array>
#include <chrono>
#include <cstdlib>
#include <vector>

#include "referee/core/hash.hpp"
#include "referee/games/game.hpp"
#include "referee/games/interstellar/rules.hpp"
#include "tests/games/conformance.hpp"

using namespace arena;

namespace {

void run(interstellar::DeckOut deckout, const char* name, double seconds) {
  interstellar::Config config;
  config.deckout = deckout;
  std::vector<interstellar::Action> actions;
  Rng chooser(12345);
  std::uint64_t games = 0, decisions = 0, turns = 0;
  std::array<std::uint64_t, 4> ends{};
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  while (elapsed() < seconds) {
    for (int batch = 0; batch < 256; ++batch) {
      interstellar::State s = interstellar::new_game(config, {}, games);
      while (!interstellar::is_over(s)) {
        interstellar::legal_actions(s, actions);
        interstellar::apply(s, actions[chooser.below(actions.size())]);
        ++decisions;
      }
      turns += static_cast<std::uint64_t>(s.turn);
      ++ends[static_cast<std::size_t>(s.end)];
      ++games;
    }
  }
  const double t = elapsed();
  const double g = static_cast<double>(games);
  fmt::print(
      "interstellar engine, deckout {}: {} games in {:.2f} s = {:.0f} games/s ({:.1f} decisions/game, {:.1f} "
      "turns/game, {:.0f} ns/decision); ends: defeated {:.1f}%, deckout {:.1f}%, turn cap {:.1f}%\n",
      name, games, t, g / t, static_cast<double>(decisions) / g, static_cast<double>(turns) / g,
      t * 1e9 / static_cast<double>(decisions), 100.0 * static_cast<double>(ends[1]) / g,
      100.0 * static_cast<double>(ends[2]) / g, 100.0 * static_cast<double>(ends[3]) / g);
}

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 3.0;
  run(interstellar::DeckOut::literal_win, "literal_win", seconds);
  run(interstellar::DeckOut::loss, "loss", seconds);
  const auto& game = *games::find_game("interstellar");
  fmt::print("determinism signature, 300 games: {}\n", hash_hex(testing::determinism_signature(game, nullptr, 2, 300)));
  return 0;
}
