#pragma once
// Stellar for people: both tableaux (the telescope as its pyramid, the notebook as stacks) and
// the score breakdown, as plain text. Used by `referee play` at the end of a match.

#include <nlohmann/json.hpp>
#include <string>

#include "referee/games/draw.hpp"
#include "referee/games/stellar/rules.hpp"

namespace arena::stellar {

// Everything is shown (this is for the organiser, after the game), face-down faces included.
std::string describe(const State& s);

// The drawing for people of games/<game>/terminal.cpp, from view-shaped JSON (game.hpp):
// the table (a seat's view, or the whole table merged from every seat's view), an action in words
// from the actor's view just before it, and the outcome (`cards`: the match's card table).
std::string draw_table(const nlohmann::json& table, const games::draw::SeatNames& names,
                       const games::draw::Style& style);
std::string describe_action(const nlohmann::json& before, const nlohmann::json& action);
std::string draw_outcome(const nlohmann::json& outcome, const nlohmann::json& cards,
                         const games::draw::SeatNames& names, const games::draw::Style& style);
// A seat's own configuration in words: its deck list, equal cards counted ("Moon 4 * x2").
std::string describe_seat_config(const nlohmann::json& seat_config);

// The web viewer's module (web/viewer.js, web/viewer.css), embedded at build time.
std::string web_script();
std::string web_style();

}  // namespace arena::stellar
