#include "referee/games/stella_quest/cards.hpp"

#include <fmt/format.h>

namespace arena::stella_quest {

namespace {

// What people read for a colour (the JSON's names are EnumNames<Colour>'s); a break card has none.
constexpr std::array<std::pair<Colour, std::string_view>, 4> kColourLabels{
    {{Colour::blue, "Blue"}, {Colour::green, "Green"}, {Colour::red, "Red"}, {Colour::yellow, "Yellow"}}};

std::array<Card, kCards> build_table() {
  std::array<Card, kCards> table{};
  for (int id = 0; id < kCards; ++id) {
    const auto cid = static_cast<CardId>(id);
    Card& c = table[static_cast<std::size_t>(id)];
    c.colour = colour_of(cid);
    c.number = static_cast<std::uint8_t>(number_of(cid));
    c.jewels = static_cast<std::uint8_t>(c.is_break() ? 0 : jewels_of_number(c.number));
    c.name = face_name(face_of(cid));
  }
  return table;
}

}  // namespace

const std::array<Card, kCards>& card_table() {
  static const std::array<Card, kCards> table = build_table();
  return table;
}

std::string face_name(Face face) {
  if (face == kBreakFace) return "Break";
  const auto colour = static_cast<Colour>(face / kNumbers);
  return fmt::format("{} {}", table_lookup(kColourLabels, colour, std::string_view("?")), face % kNumbers + 1);
}

Result<Face> parse_face(std::string_view name) {
  for (int f = 0; f < kFaces; ++f) {
    if (face_name(static_cast<Face>(f)) == name) return static_cast<Face>(f);
  }
  return fail(
      fmt::format("unknown card \"{}\" (expected \"Break\" or a colour Blue/Green/Red/Yellow "
                  "and a number 1-6, e.g. \"Blue 6\")",
                  name));
}

}  // namespace arena::stella_quest
