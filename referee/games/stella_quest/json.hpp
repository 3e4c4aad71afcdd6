#pragma once
// Stella Quest at the JSON boundary: config, action, outcome, state (full, with the Rng: for
// tests and tools, never sent to a bot) and the per-seat view (docs/games/stella_quest.md).
//
// Cards are named by face ("Blue 6", "Break"); seats are 0-based; the Dummy is "dummy".

#include <nlohmann/json.hpp>
#include <string>

#include "referee/core/result.hpp"
#include "referee/games/stella_quest/rules.hpp"

namespace arena::stella_quest {

nlohmann::json to_json(const Config& config);
// Unknown keys are refused; "max_tricks" (1-100000, default 200) is the only key.
Result<Config> config_from_json(const nlohmann::json& j);

// {"kind":"play","card":"Blue 6"}, {"kind":"draw"}, {"kind":"collect","card":"Blue 2"},
// {"kind":"top","card":"Green 6"}.
nlohmann::json to_json(const Action& action);
Result<Action> action_from_json(const nlohmann::json& j);

nlohmann::json to_json(const Outcome& outcome);

nlohmann::json to_json(const State& state);
Result<State> state_from_json(const nlohmann::json& j);

// Everything `seat` may see: its own hand; the colours (never the numbers) of every other hand
// and of the top deck card; collections, tokens, the marker, the whole discard pile, the current
// trick, whose turn it is. Never the deck order or another hand's numbers.
nlohmann::json view(const State& state, Seat seat);
// The same, and an action, written straight from the state as JSON text (wire.cpp): byte for byte
// the dumps of view() (protocol 2's view too) and to_json(action), for every request.
void write_view(const State& state, Seat seat, std::string& out);
void write_action(const Action& action, std::string& out);
// A state that shows `seat` exactly `view` (view()'s form), every card the seat cannot identify
// drawn from `rng` (from_view.cpp: the rules library's determinize from a request).
Result<State> state_from_view(const nlohmann::json& view, Seat seat, Rng& rng);

}  // namespace arena::stella_quest
