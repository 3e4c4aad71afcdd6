#pragma once
// protocol2.hpp: protocol version 2 for a bot written against version-1 views (docs/protocol.md,
// "Version 2: compact views, negotiated"). Standard library and nlohmann/json only: copy it.
//
// Version 2 sends the match's card table once, in hello ("cards": an array indexed by card id,
// null for a card this seat may not know), and a Stellar view names every card by its integer
// id instead of its object; so does an Interstellar view (its table holds the seat's own cards
// only: deck lists are private). A view also carries "cards" (an array of card objects) for the
// ids the hello table lacks: another seat's own-deck cards. Stella Quest views are the same in
// both versions.
//
// CardTable::expand puts the card objects back where the ids are: the view is then exactly the
// version-1 view, and version-1 code (greedy_policy.hpp) reads it unchanged. The pattern:
//
//   int protocol = 1;
//   protocol2::CardTable cards;
//   hello:   protocol = protocol2::choose(hello);  cards.reset(hello);   // at every hello
//            reply ready with "protocol": protocol (and "reuse": true when it is 2)
//   request: if (protocol == 2) cards.expand(request["view"]);             // then decide as in v1
//            reply action with "protocol": protocol
//
// Only the view is expanded: legal actions and actions name cards by id in both versions.
// Expanding copies each card object the view names; a bot that wants every microsecond reads
// the ids directly and looks them up in its table instead.

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>
#include <utility>

namespace protocol2 {

using nlohmann::json;

// The version to answer hello with: 2 if the referee offers it in "protocols", else 1 (a
// version-1 referee sends no "protocols", and its hello still says "protocol": 1).
inline int choose(const json& hello) {
  const auto offered = hello.find("protocols");
  if (offered == hello.end() || !offered->is_array()) return 1;
  for (const json& version : *offered) {
    if (version == 2) return 2;
  }
  return 1;
}

class CardTable {
 public:
  // A new match: keeps hello's "cards" (none from a version-1 referee or for a game without a
  // card table). Element i is the object of card i, or null.
  void reset(const json& hello) {
    const auto table = hello.find("cards");
    cards_ = table != hello.end() && table->is_array() ? *table : json::array();
    interstellar_ = hello.value("game", "") == "interstellar";
  }

  // Turns a version-2 view into its version-1 form, in place: every card id becomes the card's
  // object, from the hello table or from the view's own "cards" (which is then removed). An id
  // found in neither stays an id (a policy that cannot read it falls back to a legal action).
  void expand(json& view) const {
    json own = json::array();
    if (const auto it = view.find("cards"); view.is_object() && it != view.end()) {
      own = std::move(*it);
      view.erase(it);
    }
    expand_in(view, own);
  }

 private:
  // Where a view holds cards: the values of these keys, at any depth, are a card or a list of
  // cards. Stellar (docs/games/stellar.md, section 7): the row has null for an empty slot; "card"
  // is a telescope slot's card; "discard" is also in each entry of "decks". Interstellar
  // (docs/games/interstellar.md, section 11): the piles and slots of each player, a planet's
  // "harvest" and "colony", an event's "card" and a Cloak's "drawn" (a planet's, an element's or
  // a gate's "card" is its key, a string, and stays; a Depletion's "drawn" is a count). Other
  // integers (seat, turn, a planet id in "target", ...) are not cards.
  bool holds_cards(const json& node, std::string_view key) const {
    for (std::string_view k : {"discard", "hand", "card"}) {
      if (key == k) return true;
    }
    if (interstellar_) {
      for (std::string_view k : {"water", "stars", "pods", "void", "harvest", "colony"}) {
        if (key == k) return true;
      }
      return key == "drawn" && node.value("event", "") == "cloak";
    }
    for (std::string_view k : {"row", "notebook", "starters", "placing"}) {
      if (key == k) return true;
    }
    return false;
  }

  void expand_in(json& node, const json& own) const {
    if (node.is_array()) {
      for (json& element : node) expand_in(element, own);
      return;
    }
    if (!node.is_object()) return;
    for (auto it = node.begin(); it != node.end(); ++it) {
      json& value = it.value();
      if (!holds_cards(node, it.key())) {
        expand_in(value, own);
      } else if (value.is_array()) {
        for (json& element : value) replace(element, own);
      } else {
        replace(value, own);
      }
    }
  }

  void replace(json& id, const json& own) const {
    if (!id.is_number_integer()) return;  // null, or already a card object
    const auto i = id.get<std::int64_t>();
    if (i >= 0 && static_cast<std::size_t>(i) < cards_.size() && cards_[static_cast<std::size_t>(i)].is_object()) {
      id = cards_[static_cast<std::size_t>(i)];
      return;
    }
    for (const json& card : own) {
      if (card.is_object() && card.value("id", std::int64_t{-1}) == i) {
        id = card;
        return;
      }
    }
  }

  json cards_ = json::array();
  bool interstellar_ = false;
};

}  // namespace protocol2
