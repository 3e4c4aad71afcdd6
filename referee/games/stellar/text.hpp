#pragma once
// Stellar for people: both tableaux (the telescope as its pyramid, the notebook as stacks) and
// the score breakdown, as plain text. Used by `referee play` at the end of a match.

#include <string>

#include "referee/games/stellar/rules.hpp"

namespace arena::stellar {

// Everything is shown (this is for the organiser, after the game), face-down faces included.
std::string describe(const State& s);

}  // namespace arena::stellar
