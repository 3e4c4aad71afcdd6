#pragma once
// Stellar's cards: five celestial types plus satellites (which have no type). The standard
// 60-card deck of docs/games/stellar.md is one table here (kStandardDeck in cards.cpp), so a user who owns
// the physical cards can correct it in one place, or pass their own list in the game config.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "referee/core/result.hpp"

namespace arena::stellar {

enum class CardType : std::uint8_t { planet, moon, asteroid, cloud, black_hole, satellite };
inline constexpr int kTypedKinds = 5;  // the types that score; satellites are not a type
inline constexpr int kSixZero = 6;     // the number of a 6/0 card (6 in the telescope)

struct Card {
  CardType type = CardType::planet;
  std::uint8_t number = 1;  // 1..5, or kSixZero
  std::uint8_t stars = 0;   // 0..3; satellites have none
  bool starter = false;     // the ◆ mark: dealt at setup, one per type
  std::string name;         // "Moon 3", "Mars 3", "Black Hole 6/0", "Satellite 2"

  bool six_zero() const { return number == kSixZero; }
  bool satellite() const { return type == CardType::satellite; }
  bool operator==(const Card&) const = default;
};

using CardId = std::uint8_t;  // index into the deck list
using Deck = std::vector<Card>;

std::string_view type_name(CardType type);  // "planet", "black_hole", ...
std::string_view type_label(CardType type);  // "Planet", "Black Hole", ...
Result<CardType> parse_type(std::string_view name);

// The 60 cards of docs/games/stellar.md, in a fixed order (that order is the card id).
const Deck& standard_deck();

// A deck list from JSON (an array of {"type","number","stars","starter","name"?}), validated:
// every card well-formed, exactly one starter of each of the five types, enough cards to play
// 11 rounds, at most 255 cards. The error names the first problem and the card's index.
Result<Deck> parse_deck(const nlohmann::json& list);
nlohmann::json deck_to_json(const Deck& deck);
nlohmann::json card_to_json(const Card& card, CardId id);

}  // namespace arena::stellar
