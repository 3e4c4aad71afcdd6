#include "referee/cli/games_cmd.hpp"

#include <fmt/format.h>

#include <string>

#include "referee/games/game.hpp"
#include "referee/match/match.hpp"

namespace arena::cli {

namespace {

int run_games() {
  for (const games::Game* g : games::all_games()) {
    const auto& info = g->info();
    say_to(stdout, "{:<14} {:<14} seats {:<6} rules revision {}\n", info.name, info.title, match::seat_range(info),
           info.rules_revision);
  }
  return kFinished;
}

}  // namespace

RunCommand add_games(CLI::App& /*command*/) {
  return [](const CLI::App&) { return run_games(); };
}

}  // namespace arena::cli
