#pragma once
// Interstellar's JSON pieces shared by json.cpp (config, deck lists, actions, outcome), view.cpp
// (the views and events) and state_json.cpp (the full state). Internal to the game's folder.

#include <fmt/format.h>

#include <array>
#include <nlohmann/json.hpp>
#include <vector>

#include "referee/core/result.hpp"
#include "referee/games/interstellar/rules.hpp"

namespace arena::interstellar::json_parts {

using nlohmann::json;

inline constexpr std::array<const char*, 4> kPhaseNames = {"timewarp", "main", "reaction", "over"};
inline constexpr std::array<const char*, 4> kEndNames = {"none", "defeated", "deckout", "turn_cap"};
inline constexpr std::array<const char*, 3> kZoneNames = {"planet", "orbit", "battlefield"};
inline constexpr std::array<const char*, 13> kActionNames = {"keep", "timewarp", "end_turn",   "move",     "teleport",
                                                             "pod",  "play",     "attack",     "invasion", "bombard",
                                                             "pass", "cloak",    "force_field"};
inline constexpr std::array<const char*, 3> kUnitNames = {"ship", "character", "reinforcements"};
inline constexpr std::array<const char*, 21> kEventNames = {
    "start",    "draw",    "timewarp", "recharge", "play",      "pay",           "move",
    "collect",  "harvest", "deplete",  "void",     "discard",   "draw_resource", "attack",
    "reaction", "cloak",   "roll",     "damage",   "destroyed", "formula",       "end_turn"};

template <std::size_t N>
inline Result<std::size_t> find_name(const std::array<const char*, N>& names, const json& j, const char* what) {
  if (j.is_string()) {
    const auto& name = j.get_ref<const std::string&>();
    for (std::size_t i = 0; i < N; ++i) {
      if (name == names[i]) return i;
    }
  }
  return fail(fmt::format("unknown {} {}", what, j.dump()));
}

// Refuses any key not in `keys`, by name.
Status only_keys(const json& j, std::initializer_list<const char*> keys);
bool is_int(const json& j);
// A card id (0-32767), or an error naming `what`.
Result<CardId> id_from_json(const json& j, const char* what);
json cards_json(const std::vector<Card>& cards);
Result<Card> card_from_json(const json& j);
Result<std::vector<Card>> cards_from_json(const json& j);
Result<Loc> loc_from_json(const json& j);

}  // namespace arena::interstellar::json_parts
