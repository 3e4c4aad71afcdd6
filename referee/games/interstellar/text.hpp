#pragma once
// Interstellar for people: the full state as text (`describe`, for the organiser: every hand).

#include <string>

#include "referee/games/interstellar/rules.hpp"

namespace arena::interstellar {

std::string describe(const State& s);

}  // namespace arena::interstellar
