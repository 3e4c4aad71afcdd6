#include "referee/cli/games_cmd.hpp"

#include <fmt/format.h>

#include <string>

#include "referee/games/game.hpp"

namespace arena::cli {

namespace {

int run_games() {
  for (const games::Game* g : games::all_games()) {
    const auto& info = g->info();
    const std::string seats = info.min_seats == info.max_seats ? std::to_string(info.min_seats)
                                                               : fmt::format("{}-{}", info.min_seats, info.max_seats);
    say_to(stdout, "{:<14} {:<14} seats {:<5} rules revision {}\n", info.name, info.title, seats, info.rules_revision);
  }
  return kFinished;
}

}  // namespace

RunCommand add_games(CLI::App& /*command*/) {
  return [](const CLI::App&) { return run_games(); };
}

}  // namespace arena::cli
