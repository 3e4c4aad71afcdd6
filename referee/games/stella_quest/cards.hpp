#pragma once
// Stella Quest's 54 cards (docs/games/stella_quest.md), one table: 48 emotion cards (blue, green, red, yellow x
// two copies of 1-6; jewels 1-2: 3, 3-4: 2, 5-6: 1) and 6 break cards. A card's id is its index
// in the table: emotion id = colour*12 + (number-1)*2 + copy, breaks 48-53. Sorting by id sorts by
// colour, then number.
//
// A Face is what a card shows (colour and number; all breaks share one face). Two cards with the
// same face are interchangeable, so actions and views name faces ("Blue 6", "Break"), never ids.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "referee/core/enum_names.hpp"
#include "referee/core/result.hpp"

namespace arena::stella_quest {

enum class Colour : std::uint8_t { blue, green, red, yellow, none };  // none = a break card
inline constexpr int kColours = 4;
inline constexpr int kNumbers = 6;
inline constexpr int kCards = 54;
inline constexpr int kEmotionCards = 48;

using CardId = std::uint8_t;
using Face = std::uint8_t;  // colour*6 + number-1 for emotions; kBreakFace
inline constexpr Face kBreakFace = 24;
inline constexpr int kFaces = 25;

struct Card {
  Colour colour = Colour::none;
  std::uint8_t number = 0;  // 1..6; 0 for a break
  std::uint8_t jewels = 0;  // 3, 2 or 1; 0 for a break
  std::string name;         // "Blue 6", "Break"
  bool is_break() const { return colour == Colour::none; }
  bool operator==(const Card&) const = default;
};

const std::array<Card, kCards>& card_table();
inline const Card& card(CardId id) {
  return card_table()[id];
}

constexpr bool is_break(CardId id) {
  return id >= kEmotionCards;
}
constexpr Face face_of(CardId id) {
  return is_break(id) ? kBreakFace : static_cast<Face>(id / 2);
}
constexpr Colour colour_of(CardId id) {
  return is_break(id) ? Colour::none : static_cast<Colour>(id / 12);
}
constexpr int number_of(CardId id) {
  return is_break(id) ? 0 : (id % 12) / 2 + 1;
}
constexpr int jewels_of_number(int number) {
  return number <= 2 ? 3 : number <= 4 ? 2 : 1;
}

// A colour's name is enum_name(colour) ("blue", ..., "break" for Colour::none: EnumNames<Colour> below).
std::string face_name(Face face);  // "Blue 6", "Break"
// A face from its name ("Blue 6", "Break"); the error lists the accepted form.
Result<Face> parse_face(std::string_view name);

}  // namespace arena::stella_quest

// The colours' names in the views ("hand_colours", "trump", ...) and the terminal's table.
template <>
struct arena::EnumNames<arena::stella_quest::Colour> {
  using Colour = stella_quest::Colour;
  static constexpr auto table = name_table(Colour::blue, "blue", Colour::green, "green", Colour::red, "red",
                                           Colour::yellow, "yellow", Colour::none, "break");
};
