// The games of the referee, in a fixed order (`referee games` lists them so; the first is the
// default game). Adding a game is one entry here: its game.hpp and its adapter in the list
// (docs/adding-a-game.md); nothing else outside its folder names it. all_games() (all_games.cpp)
// is this list in the referee; the plug-in test's registry adds its test game after it.

#include "referee/games/game.hpp"
#include "referee/games/interstellar/game.hpp"
#include "referee/games/stella_quest/game.hpp"
#include "referee/games/stellar/game.hpp"

namespace arena::games {

const std::vector<const Game*>& referee_games() {
  static const GameAdapter<stellar::Traits> stellar;
  static const GameAdapter<stella_quest::Traits> stella_quest;
  static const GameAdapter<interstellar::Traits> interstellar;
  static const std::vector<const Game*> games = {&stellar, &stella_quest, &interstellar};
  return games;
}

}  // namespace arena::games
