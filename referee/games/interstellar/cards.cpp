#include "referee/games/interstellar/cards.hpp"

#include <fmt/format.h>

namespace arena::interstellar {

namespace {

using C = Category;
// kind, key, name, category, value, one per deck, Resource deck. [rb] numbers: the planets' R,
// the stars' values, the one-per-deck marks; the resources' face values 1-3 are the project's.
constexpr std::array<KindInfo, kKinds> kCatalogue = {{
    {Kind::water_1, "water_1", "Water +1", C::water, 1, false, true},
    {Kind::water_2, "water_2", "Water +2", C::water, 2, false, true},
    {Kind::water_3, "water_3", "Water +3", C::water, 3, false, true},
    {Kind::energy_1, "energy_1", "Energy +1", C::energy, 1, false, true},
    {Kind::energy_2, "energy_2", "Energy +2", C::energy, 2, false, true},
    {Kind::energy_3, "energy_3", "Energy +3", C::energy, 3, false, true},
    {Kind::ammo_1, "ammo_1", "Ammo +1", C::ammo, 1, false, true},
    {Kind::ammo_2, "ammo_2", "Ammo +2", C::ammo, 2, false, true},
    {Kind::ammo_3, "ammo_3", "Ammo +3", C::ammo, 3, false, true},
    {Kind::e115, "e115", "Element 115", C::e115, 3, false, true},
    {Kind::halley, "halley", "Halley's Comet", C::halley, 0, true, true},
    {Kind::proxima_centauri, "proxima_centauri", "Proxima Centauri +1", C::star, 1, false, true},
    {Kind::binary_star, "binary_star", "Binary Star +2", C::star, 2, false, true},
    {Kind::orions_belt, "orions_belt", "Orion's Belt +3", C::star, 3, false, true},
    {Kind::proxima_b, "proxima_b", "Proxima B", C::planet, 12, true, false},
    {Kind::earth, "earth", "Earth", C::planet, 12, false, false},
    {Kind::titan, "titan", "Titan", C::planet, 9, false, false},
    {Kind::unknown_planet, "unknown_planet", "?????", C::planet, 9, false, false},
    {Kind::saturn, "saturn", "Saturn", C::planet, 6, false, false},
    {Kind::mars, "mars", "Mars", C::planet, 6, false, false},
    {Kind::venus, "venus", "Venus", C::planet, 6, false, false},
    {Kind::jupiter, "jupiter", "Jupiter", C::planet, 6, false, false},
    {Kind::mercury, "mercury", "Mercury", C::planet, 3, false, false},
    {Kind::uranus, "uranus", "Uranus", C::planet, 3, false, false},
    {Kind::neptune, "neptune", "Neptune", C::planet, 3, false, false},
    {Kind::pluto, "pluto", "Pluto", C::planet, 3, false, false},
    {Kind::harvest, "harvest", "Harvest", C::action, 0, false, false},
    {Kind::depletion, "depletion", "Depletion", C::action, 0, false, false},
    {Kind::into_the_void, "into_the_void", "Into the Void", C::action, 0, false, false},
    {Kind::space_junk, "space_junk", "Space Junk", C::action, 0, false, false},
    {Kind::secret_formula, "secret_formula", "Secret Formula", C::action, 0, true, false},
    {Kind::force_field, "force_field", "Force Field", C::reaction, 0, false, false},
    {Kind::gate, "gate", "Gate", C::artifact, 0, false, false},
    {Kind::escape_pod, "escape_pod", "Escape Pod", C::artifact, 0, false, false},
    {Kind::reinforcements, "reinforcements", "Reinforcements", C::creature, 0, true, false},
    {Kind::colonization, "colonization", "Colonization", C::artifact, 0, false, false},
}};

// Shifter [rb HP 125, Mirror, Invasion] with the UFO [rb HP 350, Beams 125]; Shane [name rb]
// with the Star Cruiser: every other number here is the project's (IS-Core).
constexpr std::array<CharacterInfo, kCharacters> kCharactersInfo = {{
    {Character::shifter, "shifter", "Shifter", 125, 30, 1, "ufo", "UFO", "Atomizer Beams", 350, 125, 2, true},
    {Character::shane, "shane", "Shane", 150, 30, 1, "star_cruiser", "Star Cruiser", "Cannon", 300, 110, 2, false},
}};

}  // namespace

const std::array<KindInfo, kKinds>& catalogue() {
  return kCatalogue;
}

const KindInfo& info(Kind kind) {
  return kCatalogue[static_cast<std::size_t>(kind)];
}

Result<Kind> kind_from_key(std::string_view key) {
  for (const KindInfo& k : kCatalogue) {
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
    for (const KindInfo& k : kCatalogue) {
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
