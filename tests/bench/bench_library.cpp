// The rules library's speed (docs/library.md), one thread, per game: whole random games through
// the library's rollout and through its per-step calls (legal_count + apply_index), and
// determinizations (from a state mid-game; Stella Quest also from a request). A program, not a
// test: it prints figures and never fails on speed. tests/bench/bench_library.py measures the
// same through the Python module.
//
//   bench_library [seconds per figure=2]

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <functional>

#include "stellar_arena/game.hpp"

namespace {

using stellar_arena::Game;

// Runs `once` until `seconds` have passed; returns the count per second.
double per_second(double seconds, const std::function<void(std::uint64_t)>& once) {
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t n = 0;
  double elapsed = 0;
  do {
    for (int i = 0; i < 16; ++i) once(n++);
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  } while (elapsed < seconds);
  return static_cast<double>(n) / elapsed;
}

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 2.0;
  fmt::print("{:<14} {:>14} {:>16} {:>18} {:>18}\n", "game", "rollout g/s", "per-step g/s", "determinize/s",
             "from_request/s");
  for (const std::string& name : stellar_arena::game_names()) {
    const double rollouts = per_second(seconds, [&](std::uint64_t i) { Game(name, i).rollout(i); });
    const double stepped = per_second(seconds, [&](std::uint64_t i) {
      Game g(name, i);
      std::uint64_t r = i;
      while (!g.is_over()) {
        r = r * 6364136223846793005ULL + 1442695040888963407ULL;  // a plain LCG: the choice costs nothing
        g.apply_index(static_cast<std::size_t>((r >> 33) % g.legal_count()));
      }
    });
    Game middle(name, 7);
    for (int i = 0; i < 20 && !middle.is_over(); ++i) middle.apply_index(0);
    const int seat = *middle.to_act();
    const double determinized = per_second(seconds, [&](std::uint64_t i) { (void)middle.determinize(seat, i); });
    std::string rebuilt = "-";
    if (name == "stella_quest") {
      const stellar_arena::json request = {
          {"seat", seat}, {"view", middle.view(seat, 1)}, {"legal", middle.legal_actions()}};
      rebuilt = fmt::format("{:.0f}",
                            per_second(seconds, [&](std::uint64_t i) { (void)Game::from_request(name, request, i); }));
    }
    fmt::print("{:<14} {:>14.0f} {:>16.0f} {:>18.0f} {:>18}\n", name, rollouts, stepped, determinized, rebuilt);
  }
}
