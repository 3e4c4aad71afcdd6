#pragma once
// Interstellar's JSON pieces shared by json.cpp (config, deck lists, actions, outcome), view.cpp
// (the views and events) and state_json.cpp (the full state). Internal to the game's folder.

#include <nlohmann/json.hpp>
#include <vector>

#include "referee/core/result.hpp"
#include "referee/games/interstellar/rules.hpp"
#include "referee/games/json_read.hpp"

namespace arena::interstellar::json_parts {

using nlohmann::json;

// The enums' names are their EnumNames tables (rules.hpp): enum_name writes one, enum_from_json
// reads one.
using games::enum_from_json;
using games::enum_of_json;
using games::only_keys;

bool is_int(const json& j);
// A card id (0-32767), or an error naming `what`.
Result<CardId> id_from_json(const json& j, const char* what);
json cards_json(const std::vector<Card>& cards);
Result<Card> card_from_json(const json& j);
Result<std::vector<Card>> cards_from_json(const json& j);
Result<Loc> loc_from_json(const json& j);

}  // namespace arena::interstellar::json_parts
