// The registry of `referee_plus` and test_plugin: the referee's games and Countdown, the test
// game. It is referee/games/registry.cpp with the one line docs/adding-a-game.md asks for.

#include "referee/games/game.hpp"
#include "referee/games/stella_quest/game.hpp"
#include "referee/games/stellar/game.hpp"
#include "tests/games/plugin/countdown/countdown.hpp"

namespace arena::games {

const std::vector<const Game*>& all_games() {
  static const GameAdapter<stellar::Traits> stellar;
  static const GameAdapter<stella_quest::Traits> stella_quest;
  static const GameAdapter<countdown::Traits> countdown;
  static const std::vector<const Game*> games = {&stellar, &stella_quest, &countdown};
  return games;
}

}  // namespace arena::games
