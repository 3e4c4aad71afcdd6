#pragma once
// Interstellar at the JSON boundary (docs/games/interstellar.md sections 7-9): the config, a
// seat's deck list, actions, the per-seat view, the outcome and the full state (with the Rng:
// for tests and tools, never sent to a bot).
//
// A card is {"id": 17, "card": "energy_2"}: ids are the match's own (each seat's cards in a range
// of their own), "card" a key of the catalogue (cards.hpp). A place on the board is
// {"zone": "orbit"}, {"zone": "battlefield"} or {"zone": "planet", "planet": ID}.

#include <nlohmann/json.hpp>
#include <string>

#include "referee/core/result.hpp"
#include "referee/games/interstellar/rules.hpp"

namespace arena::interstellar {

// {"deckout": "literal_win" | "loss", "max_turns": 1-1000}; unknown keys are refused.
nlohmann::json to_json(const Config& config);
Result<Config> config_from_json(const nlohmann::json& j);

// {"character": "shifter" | "shane", "resource": DECK, "main": DECK}, DECK an object of counts
// by card key ({"water_1": 5, ...}) or an array of keys; an absent deck is IS-Core's. Checked
// (check_seat_config). The canonical form has all three keys, decks as counts objects.
nlohmann::json to_json(const SeatConfig& config);
Result<SeatConfig> seat_config_from_json(const nlohmann::json& j);
std::string describe_seat_config(const nlohmann::json& canonical);

nlohmann::json to_json(const Action& action);
Result<Action> action_from_json(const nlohmann::json& j);

nlohmann::json to_json(const Outcome& outcome);
nlohmann::json to_json(const State& state);
Result<State> state_from_json(const nlohmann::json& j);

// Everything `seat` may see: its own hand and the cards harvested on its planets; of the
// opponent, the hand's size (and how many of its cards are Resource and Main cards, whose backs
// differ); both boards, HP, deck sizes, discard piles and voids; this turn's and the previous
// turn's public events (draws as counts, payments, dice, a Cloak's revealed card). Never a deck's
// order, the opponent's hand or what lies face down on the opponent's planets.
nlohmann::json view(const State& state, Seat seat);
// Protocol 2's view (docs/games/interstellar.md section 11): the same fields, every card named by
// its id alone, and "cards": the objects of the opponent's cards it names (sorted by id; absent
// when there are none), since the seat's card table holds only its own cards.
nlohmann::json view_v2(const State& state, Seat seat);
// The same, written straight from the state as JSON text (wire.cpp): byte for byte view_v2's dump.
void write_view_v2(const State& state, Seat seat, std::string& out);
// An action as JSON text (wire.cpp): byte for byte to_json(action)'s dump, for the legal list of
// every request.
void write_action(const Action& action, std::string& out);
// A state that shows `seat` exactly `view` (protocol 1's form), the cards the seat cannot see
// dealt from the seats' deck lists and the chance to come drawn from `rng` (from_view.cpp; the
// rules library's determinize from a request); an error names what no state could show.
Result<State> state_from_view(const nlohmann::json& view, Seat seat, const Config& config,
                              const std::array<SeatConfig, kSeats>& seats, Rng& rng);
// The match's card table, element i the card with id i ({"id","card","owner"}); protocol 2 sends
// each seat only its own entries (the other seat's are null: deck lists are never sent).
nlohmann::json card_table(const std::array<SeatConfig, kSeats>& seats);
// The seat whose deck a card id belongs to.
Seat owner(const State& state, CardId id);

// The whole game as text for people (the full state, every hand).
std::string describe(const State& state);

nlohmann::json card_json(const Card& card);
nlohmann::json loc_json(const Loc& at);

}  // namespace arena::interstellar
