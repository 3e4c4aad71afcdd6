#pragma once
// Interstellar, the IS-Core set, for 2 players (docs/games/interstellar.md; rulebook 004).
//
// Each seat brings a character with its ship, the Teleporter, and two decks of its own (a
// Resource deck and a Main deck, IS-Core's lists unless the seat's configuration names others).
// Setup: both decks shuffled, 3 Resource + 7 Main drawn, a random start player, then the
// TimeWarp mulligan offered once to each seat (the start player first). A turn: draw 1 Main + 1
// Resource (2 + 2 on the first turn of a seat whose opponent alone took TimeWarp), recharge the
// seat's E115s, then any actions in any order until "end turn" or the 2nd movement. Attacks on
// the ship or character of a seat may be answered by that seat out of turn (a reaction:
// Defensive Cloak, Force Field), which makes the defender the seat to act for one decision.
//
// Costs are paid by the engine from the payer's cards by a fixed rule (pay.cpp; the doc's
// section 5), so that every decision is one Action from an enumerable list. All chance (deck
// order, dice) comes from the State's own Rng.

#include <array>
#include <cstdint>
#include <vector>

#include "referee/core/enum_names.hpp"
#include "referee/core/result.hpp"
#include "referee/core/rng.hpp"
#include "referee/core/seat.hpp"
#include "referee/games/interstellar/cards.hpp"
#include "referee/games/legal.hpp"

namespace arena::interstellar {

inline constexpr int kSeats = 2;
inline constexpr int kStartResource = 3;
inline constexpr int kStartMain = 7;
inline constexpr int kMaxMoves = 2;
inline constexpr int kPlanetCap = 15;  // R in play per seat
inline constexpr int kShipStep = 30;   // range penalty per step
inline constexpr int kCharacterStep = 5;
inline constexpr int kForceField = 40;
inline constexpr int kReinforcementsHp = 35;
inline constexpr int kReinforcementsDamage = 15;
inline constexpr int kMaxBombards = 2;  // per turn
inline constexpr int kSecretFormula = 5;
inline constexpr int kSpaceJunk = 2;
inline constexpr int kDefaultMaxTurns = 80;
inline constexpr int kMaxMaxTurns = 1000;

using CardId = std::int16_t;
inline constexpr CardId kNoCard = -1;

enum class DeckOut : std::uint8_t {
  literal_win,  // [rb] read literally: an empty Main deck and a turn playing no card wins
  loss,         // the same turn loses instead (the usual TCG reading)
};

struct Config {
  DeckOut deckout = DeckOut::literal_win;
  int max_turns = kDefaultMaxTurns;  // total turns of both seats; then the higher character HP wins
  bool operator==(const Config&) const = default;
};

struct Card {
  CardId id = kNoCard;
  Kind kind = Kind::water_1;
  bool operator==(const Card&) const = default;
};

// The line a range is measured on, from a seat's own side: own Planet section 0, own Orbit 1,
// the shared Battlefield 2 (the opponent's Orbit is 3 and its Planet section 4 on that line).
enum class Zone : std::uint8_t { planet, orbit, battlefield, none };  // none: an Action without a place

struct Loc {
  Zone zone = Zone::orbit;
  CardId planet = kNoCard;  // the planet card, for Zone::planet
  bool operator==(const Loc&) const = default;
};

struct Planet {
  Card card;
  std::vector<Card> harvest;  // Resource cards placed on it, not yet collected
  Card colony;                // a Colonization card on it (id kNoCard: none): +1 card at its first Harvest of a turn
  std::int16_t depleted_turn = -1;  // the turn a Depletion hit it (discarded after its owner's next turn)
  std::int16_t harvest_turn = -1;   // the turn of harvest_count
  std::int8_t harvest_count = 0;    // cards placed on it that turn (at most its R)
  bool operator==(const Planet&) const = default;
};

struct Gate {
  Card card;
  Loc at;
  std::int16_t used_turn = -1;  // the turn it was placed or last travelled to
  bool operator==(const Gate&) const = default;
};

struct Element {  // an E115 in play (or a Secret Formula acting as one)
  Card card;
  bool depleted = true;
  bool operator==(const Element&) const = default;
};

struct Player {
  Character character = Character::shifter;
  CardId first_id = 0;  // the seat's cards have ids first_id .. first_id + cards - 1
  std::int16_t cards = 0;
  int hp = 0;
  int ship_hp = 0;
  Loc ship_at;                      // where the ship is, or where it was destroyed
  Loc char_at;                      // with the ship while it lives; an Escape Pod or a Gate moves it afterwards
  std::vector<Card> resource_deck;  // back() is the top
  std::vector<Card> main_deck;      // back() is the top
  std::vector<Card> hand;           // sorted by id
  std::vector<Card> water;          // the primary Water slot
  std::vector<Card> stars;          // the primary Star slot
  std::vector<Element> elements;    // E115s in play
  std::vector<Planet> planets;      // in the order played
  std::vector<Gate> gates;
  std::vector<Card> pods;  // Escape Pods in play
  Card reinforcements;     // id kNoCard: none in play
  int reinforcements_hp = 0;
  std::vector<Card> discard;  // in order, back() the latest
  std::vector<Card> voided;   // sent to the void, in order
  std::int8_t timewarp = -1;  // -1 not asked yet, 0 kept, 1 took TimeWarp
  bool bonus_draw = false;    // draws 2 + 2 on its first turn (the opponent alone took TimeWarp)
  bool invasion_used = false;
  bool operator==(const Player&) const = default;
};

enum class Phase : std::uint8_t {
  timewarp,  // the seat to act keeps its opening hand or takes TimeWarp
  main,      // the seat on turn acts
  reaction,  // the attacked seat answers an attack out of turn
  over,
};

enum class End : std::uint8_t {
  none,
  defeated,  // a character reached 0 HP
  deckout,   // an empty Main deck and a turn with no card played (config deckout)
  turn_cap,  // config max_turns turns: the higher character HP wins, equal is a draw
};

enum class Unit : std::uint8_t { ship, character, reinforcements };

// An attack declared (and paid) by the seat on turn, waiting for the defender's reaction.
struct Pending {
  Unit by = Unit::ship;      // the attacking unit (ship or character)
  Unit target = Unit::ship;  // what it hits: the defender's ship, else its character; or its Reinforcements
  bool operator==(const Pending&) const = default;
};

// A public record of what happened: draws (counts), dice, revealed cards, damage. The views carry
// the current and the previous turn's.
enum class EventKind : std::uint8_t {
  start,      // seat a starts turn n (value)
  draw,       // seat drew `value` Main and `extra` Resource cards (counts only)
  timewarp,   // seat took TimeWarp (value 1) or kept (value 0)
  recharge,   // seat recharged `value` E115s
  play,       // seat played `card` (public once played)
  pay,        // seat paid with `card` (discarded, or an E115 depleted: extra 1)
  move,       // seat's unit (`unit`) went to `at` (extra: 0 move, 1 teleport, 2 escape pod)
  collect,    // seat collected `value` harvested cards from planet `target`
  harvest,    // seat placed `value` cards on its planet `target`
  deplete,    // planet `target` depleted: `value` uncollected cards voided, seat drew `extra`
  voided,     // `card` of seat went to the void
  discarded,  // `card` of seat was discarded (a depleted planet, a gate on a lost planet)
  drew,       // seat drew `value` Resource cards (Space Junk, Invasion)
  attack,     // seat attacks with `unit` the opponent's `target_unit`, base `value`
  reaction,   // seat answered: `extra` 0 none, 1 cloak, 2 force field
  cloak,      // the attacker drew `card` (revealed) for the cloak: base becomes `value`
  roll,       // seat rolled `value` (and `extra` for a second die): `purpose`
  damage,     // seat's `target_unit` (or its Reinforcements: unit 2) lost `value` HP
  destroyed,  // seat's ship (unit 0) or Reinforcements (2) destroyed
  formula,    // seat turned `value` face value into an E115
  end_turn,   // seat's turn ended (extra: 0 declared, 1 second move, 2 escape pod)
};

struct Event {
  EventKind kind = EventKind::start;
  std::int8_t seat = 0;
  std::int8_t unit = 0;         // a Unit, or 2 for Reinforcements
  std::int8_t target_unit = 0;  // a Unit
  std::int16_t value = 0;
  std::int16_t extra = 0;
  Card card;
  CardId target = kNoCard;
  Loc at;
  bool operator==(const Event&) const = default;
};

struct State {
  Config config;
  Rng rng;
  Phase phase = Phase::timewarp;
  std::int8_t start_player = 0;
  std::int8_t on_turn = 0;  // whose turn it is (in timewarp: the seat asked)
  std::int16_t turn = 0;    // turns started, 1-based once play begins
  // This turn's counts, for the seat on turn.
  std::int8_t moves = 0;
  std::int8_t actions = 0;    // action cards played (the first is free)
  std::int8_t artifacts = 0;  // artifacts, planets and creatures played (the first is free)
  std::int8_t ship_attacks = 0;
  std::int8_t character_attacks = 0;
  std::int8_t bombards = 0;
  bool played_card = false;  // any card played this turn (the deck-out rule)
  Pending pending;           // during Phase::reaction
  std::array<Player, kSeats> players;
  End end = End::none;
  std::int8_t winner = -1;         // when over: the winning seat, -1 a draw
  std::vector<Event> events;       // this turn's
  std::vector<Event> last_events;  // the previous turn's (the timewarp's before the first turn)
  bool operator==(const State&) const = default;
};

enum class ActionKind : std::uint8_t {
  keep,      // timewarp: keep the opening hand
  timewarp,  // timewarp: reshuffle and redraw 3 + 7
  end_turn,
  move,         // the ship moves one step to `to`
  teleport,     // to own gate `card` (not a move)
  pod,          // the character moves one step to `to` in an Escape Pod; the turn ends
  play,         // card `card` from hand; `target` (Depletion, Into the Void), `to` (Gate)
  attack,       // with `unit`'s primary attack, at the opponent's ship (else its character), or at its
                // Reinforcements: `target` = their card
  invasion,     // the Shifter's alternate action on opponent planet `target`
  bombard,      // pay 1 to roll 2 dice against the opponent's Reinforcements
  pass,         // reaction: none
  cloak,        // reaction: the UFO's Defensive Cloak
  force_field,  // reaction: play Force Field `card`
};

struct Action {
  ActionKind kind = ActionKind::end_turn;
  Unit unit = Unit::ship;
  CardId card = kNoCard;
  CardId target = kNoCard;
  Loc to{Zone::none, kNoCard};
  bool operator==(const Action&) const = default;
};

// A game with each seat's deck list (checked by check_seat_config).
State new_game(const Config& config, const std::array<SeatConfig, kSeats>& seats, std::uint64_t seed);

bool is_over(const State& s);
Seat to_act(const State& s);
// The legal actions in canonical order (docs/games/interstellar.md section 7).
void legal_actions(const State& s, std::vector<Action>& out);
inline std::vector<Action> legal_actions(const State& s) {
  return games::legal_list(s, legal_actions);
}
inline bool is_legal(const State& s, const Action& a) {
  return games::legal_contains(legal_actions(s), a);
}
// Applies a legal action (anything else is undefined; the adapter checks first).
void apply(State& s, const Action& a);

// ---- queries used by the rules, the views and the tests ----------------------------------

inline Seat opponent(Seat s) {
  return 1 - s;
}
// A location's index on the seat's own line (planet 0, orbit 1, battlefield 2).
int line_index(const Loc& at);
// Steps between an attacker of one seat at `from` and a target of the other seat at `to`:
// 4 - from - to on the line own Planet - own Orbit - Battlefield - opponent Orbit - opponent Planet.
int distance(const Loc& from, const Loc& to);
int star_total(const Player& p);
int planet_total(const Player& p);  // R in play
// Damage of a unit's primary attack before range (Mirror: the opponent's printed damage + 5).
int base_damage(const State& s, Seat attacker, Unit by);
// The cost of the unit's next attack this turn: the printed cost plus one per attack it already
// made this turn (Ammo for the ship, Energy for the character).
int attack_cost(const State& s, Seat attacker, Unit by);
// Where a seat's active unit is: the ship while it lives, else the character.
const Loc& unit_at(const Player& p);
const Planet* find_planet(const Player& p, CardId id);

struct Outcome {
  End end = End::none;
  std::int8_t winner = -1;
  std::array<int, kSeats> hp{};
  std::array<int, kSeats> ship_hp{};
  int turns = 0;
  std::array<double, kSeats> scores{};  // 1 the winner, 0 the loser; 0.5 each on a draw
};
Outcome outcome(const State& s);

// The state's stable hash (the replay's state hashes): every field of the State, the Rng's words
// included, hashed straight from the values (state.cpp), never through JSON.
std::uint64_t hash(const State& s);

// Test support: redeals what `seat` cannot see (the opponent's hand, both seats' deck orders and
// the cards on the opponent's planets), keeping each pile's size and each card's deck.
void redeal_unseen(State& s, Seat seat, Rng& rng);
// Every card is in exactly one place; counts and HP within the rules; an error names the breach.
Status check_invariants(const State& s);

}  // namespace arena::interstellar

// The names the JSON (views, actions, the full state, the outcome) gives the enums: enum_name and
// games::enum_from_json. Zone::none has none (a place-less action has no "to").
template <>
struct arena::EnumNames<arena::interstellar::DeckOut> {
  using DeckOut = interstellar::DeckOut;
  static constexpr auto table = name_table(DeckOut::literal_win, "literal_win", DeckOut::loss, "loss");
};
template <>
struct arena::EnumNames<arena::interstellar::Phase> {
  using Phase = interstellar::Phase;
  static constexpr auto table =
      name_table(Phase::timewarp, "timewarp", Phase::main, "main", Phase::reaction, "reaction", Phase::over, "over");
};
template <>
struct arena::EnumNames<arena::interstellar::End> {
  using End = interstellar::End;
  static constexpr auto table =
      name_table(End::none, "none", End::defeated, "defeated", End::deckout, "deckout", End::turn_cap, "turn_cap");
};
template <>
struct arena::EnumNames<arena::interstellar::Zone> {
  using Zone = interstellar::Zone;
  static constexpr auto table =
      name_table(Zone::planet, "planet", Zone::orbit, "orbit", Zone::battlefield, "battlefield");
};
template <>
struct arena::EnumNames<arena::interstellar::Unit> {
  using Unit = interstellar::Unit;
  static constexpr auto table =
      name_table(Unit::ship, "ship", Unit::character, "character", Unit::reinforcements, "reinforcements");
};
template <>
struct arena::EnumNames<arena::interstellar::ActionKind> {
  using K = interstellar::ActionKind;
  static constexpr auto table =
      name_table(K::keep, "keep", K::timewarp, "timewarp", K::end_turn, "end_turn", K::move, "move", K::teleport,
                 "teleport", K::pod, "pod", K::play, "play", K::attack, "attack", K::invasion, "invasion", K::bombard,
                 "bombard", K::pass, "pass", K::cloak, "cloak", K::force_field, "force_field");
};
template <>
struct arena::EnumNames<arena::interstellar::EventKind> {
  using K = interstellar::EventKind;
  static constexpr auto table =
      name_table(K::start, "start", K::draw, "draw", K::timewarp, "timewarp", K::recharge, "recharge", K::play, "play",
                 K::pay, "pay", K::move, "move", K::collect, "collect", K::harvest, "harvest", K::deplete, "deplete",
                 K::voided, "void", K::discarded, "discard", K::drew, "draw_resource", K::attack, "attack", K::reaction,
                 "reaction", K::cloak, "cloak", K::roll, "roll", K::damage, "damage", K::destroyed, "destroyed",
                 K::formula, "formula", K::end_turn, "end_turn");
};
