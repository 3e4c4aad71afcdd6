// The registry of `referee_plus` and test_plugin: the referee's games (referee/games/registry.cpp)
// and Countdown, the test game, after them: the include and the entry docs/adding-a-game.md asks
// a new game to add to referee/games/registry.cpp.

#include "referee/games/game.hpp"
#include "tests/games/plugin/countdown/countdown.hpp"

namespace arena::games {

const std::vector<const Game*>& all_games() {
  static const GameAdapter<countdown::Traits> countdown;
  static const std::vector<const Game*> games = [] {
    std::vector<const Game*> list = referee_games();
    list.push_back(&countdown);
    return list;
  }();
  return games;
}

}  // namespace arena::games
