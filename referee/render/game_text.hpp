#pragma once
// The per-game parts of the terminal renderer (internal to arena_render). Tables are drawn from
// a view-shaped JSON (games' view(seat) format): a seat's own view, or the whole table made of
// every seat's view (terminal.cpp), so a seat's rendering can never show more than its view holds.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "referee/render/text_util.hpp"

namespace arena::render::detail {

using nlohmann::json;

// Who sits where, for people: "seat 1 (random_bot)".
struct Names {
  std::vector<std::string> bots;  // cleaned, one per seat (may be empty strings)
  std::string seat(int s) const;
};

// The table. `table` is view-shaped; a player entry without "hand" is drawn as hidden.
std::string stellar_table(const json& table, const Names& names, const Style& style);
// An action in words, from the acting seat's own view just before it ("takes Moon 3 from row
// slot 2").
std::string stellar_action(const json& before, const json& action);
// The footer's outcome (scores, winner, breakdown per seat); `config` is the header's config
// (it names the deck, for card ids in the breakdown).
std::string stellar_outcome(const json& outcome, const json& config, const Names& names, const Style& style);

std::string stella_quest_table(const json& table, const Names& names, const Style& style);
std::string stella_quest_action(const json& before, const json& action);
std::string stella_quest_outcome(const json& outcome, const Names& names, const Style& style);

}  // namespace arena::render::detail
