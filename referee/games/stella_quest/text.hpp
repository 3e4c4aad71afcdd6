#pragma once
// Stella Quest for people: hands, the current trick, the discard top and trump, collections,
// tokens, the marker and, at the end, the scores, as plain text. Used by `referee play`.

#include <nlohmann/json.hpp>
#include <string>

#include "referee/games/draw.hpp"
#include "referee/games/stella_quest/rules.hpp"

namespace arena::stella_quest {

// Everything is shown (this is for the organiser), hands included.
std::string describe(const State& s);

// The drawing for people of games/<game>/terminal.cpp, from view-shaped JSON (game.hpp):
// the table (a seat's view, or the whole table merged from every seat's view), an action in words
// from the actor's view just before it, and the outcome (`cards`: the match's card table).
std::string draw_table(const nlohmann::json& table, const games::draw::SeatNames& names,
                       const games::draw::Style& style);
std::string describe_action(const nlohmann::json& before, const nlohmann::json& action);
std::string draw_outcome(const nlohmann::json& outcome, const nlohmann::json& cards,
                         const games::draw::SeatNames& names, const games::draw::Style& style);

// Every card by id, as drawings name them ({"id","name","colour","number","jewels"}).
nlohmann::json card_table_json();

// The web viewer's module (web/viewer.js, web/viewer.css), embedded at build time.
std::string web_script();
std::string web_style();

}  // namespace arena::stella_quest
