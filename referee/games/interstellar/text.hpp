#pragma once
// Interstellar for people: the full state as text (`describe`, for the organiser: every hand), and
// the drawing of games/<game>/terminal.cpp and web/ (game.hpp).

#include <nlohmann/json.hpp>
#include <string>

#include "referee/games/draw.hpp"
#include "referee/games/interstellar/rules.hpp"

namespace arena::interstellar {

std::string describe(const State& s);

// From view-shaped JSON (json.cpp's view(), or the whole table merged from both seats' views):
// the table (a seat's own view shows the opponent's hand only as its size), an action in words
// from the actor's view just before it, and the outcome (`cards` is unused: the views name cards
// by their catalogue keys).
std::string draw_table(const nlohmann::json& table, const games::draw::SeatNames& names,
                       const games::draw::Style& style);
std::string describe_action(const nlohmann::json& before, const nlohmann::json& action);
std::string draw_outcome(const nlohmann::json& outcome, const nlohmann::json& cards,
                         const games::draw::SeatNames& names, const games::draw::Style& style);

// The web viewer's module (web/viewer.js, web/viewer.css), embedded at build time.
std::string web_script();
std::string web_style();

}  // namespace arena::interstellar
