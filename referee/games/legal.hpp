#pragma once
// The lookup of an action in a legal list, shared by every game (its is_legal) and the adapter
// (a bot's action checked against the list before apply), and a game's legal actions as a new list.
// Actions compare with ==.

#include <algorithm>
#include <vector>

namespace arena::games {

template <typename Action>
bool legal_contains(const std::vector<Action>& legal, const Action& action) {
  return std::find(legal.begin(), legal.end(), action) != legal.end();
}

// The legal actions of `s` as a new list, from the game's form that fills a caller's vector (the
// engines reuse one vector per decision; this form serves is_legal, tests and tools).
template <typename State, typename Action>
std::vector<Action> legal_list(const State& s, void (*fill)(const State&, std::vector<Action>&)) {
  std::vector<Action> out;
  fill(s, out);
  return out;
}

}  // namespace arena::games
