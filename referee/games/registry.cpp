#include "referee/games/game.hpp"
#include "referee/games/stella_quest/game.hpp"
#include "referee/games/stellar/game.hpp"

namespace arena {

const games::Game& stellar::game() {
  static const games::GameAdapter<stellar::Traits> adapter;
  return adapter;
}

const games::Game& stella_quest::game() {
  static const games::GameAdapter<stella_quest::Traits> adapter;
  return adapter;
}

namespace games {

const std::vector<const Game*>& all_games() {
  static const std::vector<const Game*> games = {&stellar::game(), &stella_quest::game()};
  return games;
}

const Game* find_game(const std::string& name) {
  for (const Game* g : all_games()) {
    if (g->info().name == name) return g;
  }
  return nullptr;
}

}  // namespace games
}  // namespace arena
