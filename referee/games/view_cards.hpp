#pragma once
// How a game's view names a card (games/<game>/view.cpp, json.cpp): protocol 1 as the card's
// object, protocol 2 by its id alone, noting the cards the seat's card table lacks (another seat's
// own deck) so that the view can carry their objects in "cards".

#include <algorithm>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

namespace arena::games {

// `Cards` is the game's part: its `Card` (what a view holds for a card: its id or a struct with
// one), `id(card)`, `object(card)` (the card's JSON object in protocol 1 and in "cards") and
// `foreign(card)` (whether the seat's card table lacks it).
template <typename Cards>
class ViewCardNamer {
 public:
  using Card = typename Cards::Card;

  ViewCardNamer(Cards cards, bool by_id) : cards_(std::move(cards)), by_id_(by_id) {}

  nlohmann::json operator()(const Card& card) {
    if (!by_id_) return cards_.object(card);
    if (cards_.foreign(card)) foreign_.push_back(card);
    return cards_.id(card);
  }
  template <typename List>
  nlohmann::json list(const List& cards) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& card : cards) out.push_back((*this)(card));
    return out;
  }

  // Adds "cards" to `view`: the objects of the foreign cards it named, sorted by id, each once;
  // nothing when it named none.
  void add_foreign_cards(nlohmann::json& view) {
    if (foreign_.empty()) return;
    const auto below = [&](const Card& a, const Card& b) { return cards_.id(a) < cards_.id(b); };
    const auto same = [&](const Card& a, const Card& b) { return cards_.id(a) == cards_.id(b); };
    std::sort(foreign_.begin(), foreign_.end(), below);
    foreign_.erase(std::unique(foreign_.begin(), foreign_.end(), same), foreign_.end());
    nlohmann::json objects = nlohmann::json::array();
    for (const Card& card : foreign_) objects.push_back(cards_.object(card));
    view["cards"] = std::move(objects);
  }

 private:
  Cards cards_;
  bool by_id_;
  std::vector<Card> foreign_{};
};

}  // namespace arena::games
