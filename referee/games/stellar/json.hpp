#pragma once
// Stellar at the JSON boundary: config, action, state (full, with the Rng: for tests and tools,
// never sent to a bot) and the per-seat view (what one seat may see, docs/games/stellar.md).
//
// Slots are numbered as in the rulebook: row 1-5, telescope 1-12.

#include <nlohmann/json.hpp>

#include "referee/core/result.hpp"
#include "referee/games/stellar/rules.hpp"

namespace arena::stellar {

nlohmann::json to_json(const Config& config);
// Unknown keys are refused; "deck" is an optional deck list (cards.hpp).
Result<Config> config_from_json(const nlohmann::json& j);

nlohmann::json to_json(const Action& action);
Result<Action> action_from_json(const nlohmann::json& j);

nlohmann::json to_json(const State& state);
Result<State> state_from_json(const nlohmann::json& j);

// Everything `seat` may see: its own hand and face-down cards, both tableaux (the other seat's
// face-down cards without their faces), the row, the discard pile, sizes of the deck and the
// other hand. Never the deck order, the other hand, or the other seat's pending secret choice.
nlohmann::json view(const State& state, Seat seat);

const char* phase_name(Phase phase);

}  // namespace arena::stellar
