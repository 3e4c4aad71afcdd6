#include "referee/games/interstellar/cards.hpp"

#include <fmt/format.h>

namespace arena::interstellar {

namespace {

// Shifter [rb HP 125, Mirror, Invasion] with the UFO [rb HP 350, Beams 125]; Shane [name rb]
// with the Star Cruiser: every other number here is the project's (IS-Core).
constexpr std::array<CharacterInfo, kCharacters> kCharactersInfo = {{
    {Character::shifter, "shifter", "Shifter", 125, 30, 1, "ufo", "UFO", "Atomizer Beams", 350, 125, 2, true},
    {Character::shane, "shane", "Shane", 150, 30, 1, "star_cruiser", "Star Cruiser", "Cannon", 300, 110, 2, false},
}};

}  // namespace

Result<Kind> kind_from_key(std::string_view key) {
  for (const KindInfo& k : catalogue()) {
    if (key == k.key) return k.kind;
  }
  return fail(fmt::format("unknown card \"{}\"", key));
}

const CharacterInfo& info(Character c) {
  return kCharactersInfo[static_cast<std::size_t>(c)];
}

Result<Character> character_from_key(std::string_view key) {
  for (const CharacterInfo& c : kCharactersInfo) {
    if (key == c.key) return c.character;
  }
  return fail(fmt::format("unknown character \"{}\" (shifter, shane)", key));
}

Status check_seat_config(const SeatConfig& config) {
  for (int deck = 0; deck < 2; ++deck) {
    const auto& counts = deck == 0 ? config.resource : config.main;
    const char* name = deck == 0 ? "resource" : "main";
    int total = 0;
    for (const KindInfo& k : catalogue()) {
      const int n = counts[static_cast<std::size_t>(k.kind)];
      if (n == 0) continue;
      if (k.resource_deck != (deck == 0)) {
        return fail(
            fmt::format("{} deck: \"{}\" belongs in the {} deck", name, k.key, deck == 0 ? "main" : "resource"));
      }
      if (k.one_per_deck && n > 1) {
        return fail(fmt::format("{} deck: \"{}\" is 1 per deck, the list has {}", name, k.key, n));
      }
      total += n;
    }
    if (total < kMinDeck || total > kMaxDeck) {
      return fail(fmt::format("{} deck: {} cards; a deck holds {}-{}", name, total, kMinDeck, kMaxDeck));
    }
  }
  return {};
}

}  // namespace arena::interstellar
