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

// One seat's configuration: null or {} = no deck of its own; {"deck": [...]} a deck list
// (cards.hpp, validated by parse_deck, whose message is returned as is: the caller names the
// seat). Unknown keys are refused. to_json gives the canonical form: null without a deck,
// {"deck": [...]} with one.
Result<SeatConfig> seat_config_from_json(const nlohmann::json& j);
nlohmann::json to_json(const SeatConfig& config);

// Every card of such a match by id (card objects as in a view, with "owner" when the seats
// play their own decks); the errors of match_cards.
Result<nlohmann::json> card_table_json(const Config& config, const std::array<SeatConfig, kSeats>& seats);

nlohmann::json to_json(const Action& action);
Result<Action> action_from_json(const nlohmann::json& j);

nlohmann::json to_json(const State& state);
Result<State> state_from_json(const nlohmann::json& j);
// A state whose protocol-1 view for `seat` is `view`, every card the seat cannot identify drawn
// from `rng` (from_view.cpp: the rules library's determinize from a request). The standard deck
// only: a view does not carry a deck list of the match's own, nor the other seat's own deck.
Result<State> state_from_view(const nlohmann::json& view, Seat seat, Rng& rng);

// Everything `seat` may see: its own hand and face-down cards, both tableaux (the other seat's
// face-down cards without their faces), the row, the discard pile, sizes of the deck and the
// other hand. Never the deck order, the other hand, or the other seat's pending secret choice.
// With own decks: every card object carries "owner" (a seat), "deck_size" and "discard" are the
// viewing seat's own deck and discard pile, and "decks" lists both seats' in seat order:
// [{"seat": 0, "deck_size": n, "discard": [cards]}, {"seat": 1, ...}].
nlohmann::json view(const State& state, Seat seat);
// The same view in protocol 2's form (docs/games/stellar.md, section 7): every card named by its
// id; "cards" (only when there are any) holds the objects of the cards it names that the seat's
// card table lacks: another seat's own-deck cards, sorted by id.
nlohmann::json view_v2(const State& state, Seat seat);
// protocol 2 on the wire (wire.cpp): view_v2 and an action written straight as JSON text, byte
// for byte what nlohmann's dump of view_v2 / to_json writes (keys sorted).
void write_view_v2(const State& state, Seat seat, std::string& out);
void write_action(const Action& action, std::string& out);

// A card as a view's object: card_to_json, plus "owner" in a match with own decks.
nlohmann::json card_json(const State& state, int id);

}  // namespace arena::stellar
