#pragma once
// The lookup of an action in a legal list, shared by every game (its is_legal) and the adapter
// (a bot's action checked against the list before apply). Actions compare with ==.

#include <algorithm>
#include <vector>

namespace arena::games {

template <typename Action>
bool legal_contains(const std::vector<Action>& legal, const Action& action) {
  return std::find(legal.begin(), legal.end(), action) != legal.end();
}

}  // namespace arena::games
