#pragma once
// Stella Quest for people: hands, the current trick, the discard top and trump, collections,
// tokens, the marker and, at the end, the scores, as plain text. Used by `referee play`.

#include <string>

#include "referee/games/stella_quest/rules.hpp"

namespace arena::stella_quest {

// Everything is shown (this is for the organiser), hands included.
std::string describe(const State& s);

}  // namespace arena::stella_quest
