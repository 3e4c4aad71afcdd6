#pragma once
// Interstellar's card catalogue (IS-Core, docs/games/interstellar.md section 2): every kind of
// card with its category and numbers, the default deck lists, and a seat's own deck list
// (SeatConfig) with its checks. The numbers the rulebook does not print are the project's own
// and are marked so in the doc's card table: this file and that table are the one place to
// correct them.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "referee/core/result.hpp"

namespace arena::interstellar {

// Every kind of card. The order is the canonical order of the catalogue (JSON keys, the deck
// lists in canonical form, the order in which equal payments are chosen).
enum class Kind : std::uint8_t {
  // Resource deck: resources and stars.
  water_1,
  water_2,
  water_3,
  energy_1,
  energy_2,
  energy_3,
  ammo_1,
  ammo_2,
  ammo_3,
  e115,
  halley,
  proxima_centauri,
  binary_star,
  orions_belt,
  // Main deck: planets.
  proxima_b,
  earth,
  titan,
  unknown_planet,
  saturn,
  mars,
  venus,
  jupiter,
  mercury,
  uranus,
  neptune,
  pluto,
  // Main deck: actions, artifacts, a creature.
  harvest,
  depletion,
  into_the_void,
  space_junk,
  secret_formula,
  force_field,
  gate,
  escape_pod,
  reinforcements,
  colonization,  // not in IS-Core's lists; a deck list may hold it
};
inline constexpr int kKinds = static_cast<int>(Kind::colonization) + 1;

enum class Category : std::uint8_t {
  water,     // a resource: the primary Water slot, or pays
  energy,    // a resource: pays Energy costs and generic costs
  ammo,      // a resource: pays Ammo costs and generic costs
  e115,      // a resource played into play (enters depleted): wild, pays by depleting
  halley,    // a resource: pays a generic cost only
  star,      // the primary Star slot only
  planet,    // an artifact in the owner's Planet section
  action,    // played and discarded (Harvest: shuffled back)
  reaction,  // an action played out of turn (Force Field)
  artifact,  // stays in play (Gate, Escape Pod, Colonization on a planet)
  creature,  // stays in play with its own HP (Reinforcements)
};

struct KindInfo {
  Kind kind;
  const char* key;   // the JSON name ("energy_2")
  const char* name;  // for people ("Energy +2")
  Category category;
  int value;  // face value of a resource or star, R of a planet, 0 otherwise
  bool one_per_deck;
  bool resource_deck;  // belongs in the Resource deck (else the Main deck)
};

// The catalogue, in Kind order: kind, key, name, category, value, one per deck, Resource deck.
// [rb] numbers: the planets' R, the stars' values, the one-per-deck marks; the resources' face
// values 1-3 are the project's (docs/games/interstellar.md, the card table).
namespace detail {
using C = Category;
inline constexpr std::array<KindInfo, kKinds> kCatalogue = {{
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
}  // namespace detail

constexpr const std::array<KindInfo, kKinds>& catalogue() {
  return detail::kCatalogue;
}
constexpr const KindInfo& info(Kind kind) {
  return detail::kCatalogue[static_cast<std::size_t>(kind)];
}
// The kind with this JSON key, or an error naming it.
Result<Kind> kind_from_key(std::string_view key);

inline bool is_resource_card(Kind k) {
  return info(k).resource_deck;
}
inline Category category(Kind k) {
  return info(k).category;
}
inline int value(Kind k) {
  return info(k).value;
}

// The playable characters, each with its ship (the pairing is fixed).
enum class Character : std::uint8_t { shifter, shane };
inline constexpr int kCharacters = 2;
struct CharacterInfo {
  Character character;
  const char* key;  // "shifter"
  const char* name;
  int hp;
  int damage;       // printed primary damage (Mirror: the opponent's, + 5)
  int cost_energy;  // primary attack cost
  const char* ship_key;
  const char* ship_name;
  const char* weapon;  // the ship's primary attack
  int ship_hp;
  int ship_damage;
  int ship_cost_ammo;
  bool ufo;  // the ship is the UFO (Defensive Cloak; +10 to the character when attacking ships)
};
const CharacterInfo& info(Character c);
Result<Character> character_from_key(std::string_view key);

inline constexpr int kMinDeck = 35;
inline constexpr int kMaxDeck = 50;

using DeckCounts = std::array<std::uint8_t, kKinds>;  // copies of each kind

// IS-Core's Resource deck (35 cards) and Main deck (35 cards).
constexpr DeckCounts core_resource_deck() {
  DeckCounts d{};
  auto put = [&d](Kind k, int n) { d[static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(n); };
  put(Kind::water_1, 5), put(Kind::water_2, 3);
  put(Kind::energy_1, 6), put(Kind::energy_2, 3), put(Kind::energy_3, 1);
  put(Kind::ammo_1, 6), put(Kind::ammo_2, 3), put(Kind::ammo_3, 1);
  put(Kind::e115, 2), put(Kind::halley, 1);
  put(Kind::proxima_centauri, 2), put(Kind::binary_star, 1), put(Kind::orions_belt, 1);
  return d;
}
constexpr DeckCounts core_main_deck() {
  DeckCounts d{};
  auto put = [&d](Kind k, int n) { d[static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(n); };
  put(Kind::mercury, 2), put(Kind::pluto, 1), put(Kind::neptune, 1), put(Kind::uranus, 1);
  put(Kind::mars, 2), put(Kind::venus, 1), put(Kind::jupiter, 1), put(Kind::saturn, 1);
  put(Kind::titan, 1), put(Kind::earth, 1);
  put(Kind::harvest, 5), put(Kind::depletion, 3), put(Kind::into_the_void, 3), put(Kind::space_junk, 4);
  put(Kind::secret_formula, 1), put(Kind::reinforcements, 1), put(Kind::gate, 3), put(Kind::force_field, 2);
  put(Kind::escape_pod, 1);
  return d;
}

// One seat's decks: how many copies of each kind in each deck; IS-Core's with the Shifter by
// default.
struct SeatConfig {
  Character character = Character::shifter;
  DeckCounts resource = core_resource_deck();
  DeckCounts main = core_main_deck();
  bool operator==(const SeatConfig&) const = default;
};

inline SeatConfig core_seat_config() {
  return SeatConfig{};
}
// Sizes 35-50, each card in its own deck, one copy of a "1 per deck" card.
Status check_seat_config(const SeatConfig& config);

}  // namespace arena::interstellar
