#pragma once
// search_interstellar.hpp: what search_bot (search_bot.cpp) knows of Interstellar beyond the rules
// library and the greedy policy: the value of a position its playouts stop in.
//
// A whole Interstellar game finished by the greedy policy costs a JSON view per decision, hundreds
// of them; a search that finished every world that way spent about a quarter of a second a
// decision. The position a few turns on says most of what the end would: the game is a race to
// destroy the other character, whose ship must fall first. So a world is played by the greedy
// policy (interstellar_policy.hpp, both seats) to the start of the turn `horizon` turns after the
// request's (search_bot's --horizon), and valued there by the race: each side's life (character
// HP, ship HP, Reinforcements' HP), the cards it holds and the E115s it has in play.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <nlohmann/json.hpp>

namespace search_interstellar {

using nlohmann::json;

// The position's value is a logistic model of the chance that a seat wins, fitted (300 steps of
// gradient descent on the log-loss) on the starts of the turns of 1,119 Interstellar games of the
// greedy policy against itself (IS-Core, the library's Game seeds 1 to 1,119; 14,415 positions):
// the log-odds of a win are the sum of these weights times the seat's lead in each quantity (its
// own minus the opponent's), plus kOnTurn for the seat on turn.
constexpr double kLife = 0.826 / 100;        // per HP of character, ship and Reinforcements together
constexpr double kCharacter = 1.35 / 100;    // per HP of the character again: the one that decides
constexpr double kResourceCard = 0.573 / 5;  // per Resource card in hand (pays attacks)
constexpr double kMainCard = 0.501 / 5;      // per Main card in hand
constexpr double kElement = 1.432;           // per E115 in play: a wild 3 every turn
constexpr double kOnTurn = 0.338;            // for the seat whose turn it is (it attacks first)

// One seat's part of the log-odds, from its entry in a view's "players" (both boards are public).
inline double strength(const json& player) {
  double life = player.value("hp", 0) + player.value("ship_hp", 0);
  const json& reinforcements = player["reinforcements"];
  if (reinforcements.is_object()) life += reinforcements.value("hp", 0);
  const json& elements = player["elements"];
  return kLife * life + kCharacter * player.value("hp", 0) + kResourceCard * player.value("hand_resource", 0) +
         kMainCard * player.value("hand_main", 0) +
         kElement * static_cast<double>(elements.is_array() ? elements.size() : 0);
}

// The value for `seat` of the position a (version-1) view shows: its chance of a win, in (0, 1).
inline double evaluate(const json& view, int seat) {
  const json& players = view.at("players");
  double z =
      strength(players.at(static_cast<std::size_t>(seat))) - strength(players.at(static_cast<std::size_t>(1 - seat)));
  z += view.value("on_turn", seat) == seat ? kOnTurn : -kOnTurn;
  return 1.0 / (1.0 + std::exp(-z));
}

}  // namespace search_interstellar
