// The registry of the referee's programs: the referee's own games (registry.cpp). A program that
// knows other games links another definition of all_games() instead (tests/games/plugin).

#include "referee/games/game.hpp"

namespace arena::games {

const std::vector<const Game*>& all_games() {
  return referee_games();
}

}  // namespace arena::games
