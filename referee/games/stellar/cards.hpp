#pragma once
// Stellar's cards: five celestial types plus satellites (which have no type). The standard
// 60-card deck of docs/games/stellar.md is one table here (build_standard_deck in cards.cpp), so a user who owns
// the physical cards can correct it in one place, or pass their own list in the game config.

#include <array>
#include <cstdint>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "referee/core/enum_names.hpp"
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

// The cards of a match, by id: an immutable list shared by every copy (copying a Config or a
// State copies a pointer, not the cards and their names). It reads like a const Deck; two tables
// are equal when their cards are (the same list is equal at once, without comparing cards).
class CardTable {
 public:
  CardTable();            // the standard 60 cards (one list shared by every default table)
  CardTable(Deck cards);  // implicit: a Deck converts, so `config.deck = parsed` still reads
  const Deck& cards() const { return shared_->cards; }
  operator const Deck&() const { return shared_->cards; }
  std::size_t size() const { return shared_->cards.size(); }
  bool empty() const { return shared_->cards.empty(); }
  const Card& operator[](std::size_t id) const { return shared_->cards[id]; }
  Deck::const_iterator begin() const { return shared_->cards.begin(); }
  Deck::const_iterator end() const { return shared_->cards.end(); }
  bool same_list(const CardTable& other) const { return shared_ == other.shared_; }
  bool operator==(const CardTable& other) const {
    return shared_ == other.shared_ || shared_->cards == other.shared_->cards;
  }
  bool operator==(const Deck& other) const { return &shared_->cards == &other || shared_->cards == other; }

  // The state hash's fixed part (rules.cpp's hash, every step of every match): the Hasher state
  // after u64(size()), u64(`head`), then each card's type, number, stars and starter; kept for
  // head 0 and 1 (the config's facedown_step3), computed once per list.
  std::uint64_t hash_prefix(std::size_t head) const { return shared_->hash_prefix[head]; }

 private:
  struct Shared {
    Deck cards;
    std::array<std::uint64_t, 2> hash_prefix{};
  };
  std::shared_ptr<const Shared> shared_;
};

// A type's name is enum_name(type) ("planet", "black_hole", ...: EnumNames<CardType> below).
std::string_view type_label(CardType type);  // "Planet", "Black Hole", ...
Result<CardType> parse_type(std::string_view name);

// The 60 cards of docs/games/stellar.md, in a fixed order (that order is the card id).
const Deck& standard_deck();
const CardTable& standard_table();  // the same cards, as the table every default Config shares

// A deck list from JSON (an array of {"type","number","stars","starter","name"?}), validated:
// every card well-formed, exactly one starter of each of the five types, enough cards to play
// 11 rounds, at most 255 cards. The error names the first problem and the card's index (and its
// name when the card gives one): "deck list: card 17 (Moon 4) has number 7 (expected ...)".
Result<Deck> parse_deck(const nlohmann::json& list);
// The same rules for a Deck built in code, with the same messages (the name is always given).
Status validate_deck(const Deck& deck);
nlohmann::json deck_to_json(const Deck& deck);
nlohmann::json card_to_json(const Card& card, CardId id);

}  // namespace arena::stellar

// The types' names in JSON (deck lists, cards, the score breakdown): enum_name and parse_type.
template <>
struct arena::EnumNames<arena::stellar::CardType> {
  using T = stellar::CardType;
  static constexpr auto table = name_table(T::planet, "planet", T::moon, "moon", T::asteroid, "asteroid", T::cloud,
                                           "cloud", T::black_hole, "black_hole", T::satellite, "satellite");
};
