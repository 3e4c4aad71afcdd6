// Attacks (ship and character, Invasion), the defender's reactions out of turn (Defensive Cloak,
// Force Field) and the bombardment of Reinforcements. docs/games/interstellar.md section 9.

#include <algorithm>
#include <array>

#include "referee/games/interstellar/engine.hpp"
#include "referee/games/interstellar/pay.hpp"

namespace arena::interstellar {

namespace {

constexpr int kMirrorBonus = 5;
constexpr int kMirrorShifterBase = 30;  // Mirror against another Shifter
constexpr int kUfoSplash = 10;          // the UFO's Beams hitting a ship also hit the character

Cost attack_price(const State& s, Seat seat, Unit by) {
  return Cost{.typed = by == Unit::ship ? Category::ammo : Category::energy, .typed_amount = attack_cost(s, seat, by)};
}

Unit ship_first(const Player& defender) {
  return defender.ship_hp > 0 ? Unit::ship : Unit::character;
}

const Cost kCloakCost{.typed = Category::energy, .typed_amount = 1, .generic = 1};
// Invasion is the Shifter's alternate action, not an attack: its printed cost, never escalated.
const Cost kInvasionCost{.typed = Category::energy, .typed_amount = 1};
const Cost kOutOfTurn{.generic = 1};

// The Defensive Cloak's table: the card the attacker drew sets the base damage, never above the
// attack's own (a cloak does not strengthen a weak attack); -1 is a miss.
int cloak_base(const Card* drawn, int full) {
  if (drawn == nullptr) return -1;
  const Category c = category(drawn->kind);
  if (c == Category::e115) return full;
  if (c == Category::water || c == Category::energy || c == Category::ammo) {
    constexpr std::array<int, 4> kTable = {-1, 60, 40, 20};
    return std::min(full, kTable[static_cast<std::size_t>(value(drawn->kind))]);
  }
  return -1;  // a Star or Halley's Comet
}

// The attack in s.pending lands (or misses); reaction: 0 none, 1 cloak, 2 force field.
void resolve(State& s, int reaction) {
  const Seat seat = s.on_turn, foe = opponent(seat);
  Player& a = s.players[idx(seat)];
  Player& d = s.players[idx(foe)];
  const Unit by = s.pending.by, target = s.pending.target;
  int base = base_damage(s, seat, by);
  if (reaction == 1) {  // the attacker draws its top Resource card and keeps it
    Card drawn;
    const bool any = !a.resource_deck.empty();
    if (any) {
      drawn = a.resource_deck.back();
      a.resource_deck.pop_back();
      add_to_hand(a, drawn);
    }
    base = cloak_base(any ? &drawn : nullptr, base);
    s.events.push_back(Event{.kind = EventKind::cloak,
                             .seat = seat8(seat),
                             .value = static_cast<std::int16_t>(std::max(base, 0)),
                             .extra = static_cast<std::int16_t>(base < 0 ? 1 : 0),
                             .card = drawn});
  }
  if (base >= 0 && by == Unit::ship && target == Unit::character) {  // only an even roll lands
    const int die = roll_die(s);
    s.events.push_back(Event{.kind = EventKind::roll, .seat = seat8(seat), .value = static_cast<std::int16_t>(die)});
    if (die % 2 == 1) base = -1;
  }
  if (base >= 0) {
    const Loc& from = by == Unit::ship ? a.ship_at : a.char_at;
    const Loc reinforcements{Zone::battlefield, kNoCard};  // Reinforcements stand in the Battlefield
    const Loc& to = target == Unit::ship ? d.ship_at : target == Unit::character ? d.char_at : reinforcements;
    const int step = by == Unit::ship ? kShipStep : kCharacterStep;
    int dealt = std::max(0, base - step * distance(from, to));
    if (reaction == 2) dealt = std::max(0, dealt - kForceField);
    damage(s, foe, target, dealt);
    if (s.phase != Phase::over && by == Unit::ship && target == Unit::ship && info(a.character).ufo) {
      damage(s, foe, Unit::character, kUfoSplash);
    }
  }
  if (s.phase != Phase::over) s.phase = Phase::main;
}

}  // namespace

int base_damage(const State& s, Seat attacker, Unit by) {
  const CharacterInfo& me = info(s.players[idx(attacker)].character);
  if (by == Unit::ship) return me.ship_damage;
  if (me.character != Character::shifter) return me.damage;
  const CharacterInfo& foe = info(s.players[idx(opponent(attacker))].character);
  return (foe.character == Character::shifter ? kMirrorShifterBase : foe.damage) + kMirrorBonus;
}

int attack_cost(const State& s, Seat attacker, Unit by) {
  const CharacterInfo& me = info(s.players[idx(attacker)].character);
  return by == Unit::ship ? me.ship_cost_ammo + s.ship_attacks : me.cost_energy + s.character_attacks;
}

bool can_attack(const State& s, Seat seat, Unit by, const Purse& purse) {
  const Player& p = s.players[idx(seat)];
  if (by == Unit::ship && p.ship_hp <= 0) return false;
  if (by == Unit::character && star_total(p) < 1) return false;
  return can_pay(p, purse, attack_price(s, seat, by));
}

bool can_invade(const State& s, Seat seat, const Purse& purse) {
  const Player& p = s.players[idx(seat)];
  return p.character == Character::shifter && !p.invasion_used && s.character_attacks >= 1 && star_total(p) >= 1 &&
         !s.players[idx(opponent(seat))].planets.empty() && can_pay(p, purse, kInvasionCost);
}

void reaction_legal(const State& s, std::vector<Action>& out) {
  const Player& d = s.players[idx(opponent(s.on_turn))];
  out.push_back(Action{.kind = ActionKind::pass});
  if (s.pending.target == Unit::ship && info(d.character).ufo && can_pay(d, kCloakCost)) {
    out.push_back(Action{.kind = ActionKind::cloak});
  }
  if (can_pay(d, kOutOfTurn)) {
    for (const Card& c : d.hand) {
      if (c.kind == Kind::force_field) out.push_back(Action{.kind = ActionKind::force_field, .card = c.id});
    }
  }
}

void declare_attack(State& s, Unit by, CardId target) {
  const Seat seat = s.on_turn;
  Player& p = s.players[idx(seat)];
  pay(s, seat, *plan_payment(p, attack_price(s, seat, by)));
  if (by == Unit::ship) {
    ++s.ship_attacks;
  } else {
    ++s.character_attacks;
  }
  const Unit aim = target != kNoCard ? Unit::reinforcements : ship_first(s.players[idx(opponent(seat))]);
  s.pending = Pending{by, aim};
  s.events.push_back(Event{.kind = EventKind::attack,
                           .seat = seat8(seat),
                           .unit = static_cast<std::int8_t>(by),
                           .target_unit = static_cast<std::int8_t>(aim),
                           .value = static_cast<std::int16_t>(base_damage(s, seat, by))});
  // The defender is always asked, "pass" being its only choice when it has no reaction it may
  // play: whether it is asked (its request, the ids that follow) must not tell its hand.
  s.phase = Phase::reaction;
}

void react(State& s, const Action& a) {
  const Seat foe = opponent(s.on_turn);
  Player& d = s.players[idx(foe)];
  if (a.kind == ActionKind::pass) {
    resolve(s, 0);
    return;
  }
  if (a.kind == ActionKind::cloak) {
    pay(s, foe, *plan_payment(d, kCloakCost));
    s.events.push_back(Event{.kind = EventKind::reaction, .seat = seat8(foe), .extra = 1});
    resolve(s, 1);
    return;
  }
  auto it = std::find_if(d.hand.begin(), d.hand.end(), [&](const Card& c) { return c.id == a.card; });
  const Card field = *it;
  d.hand.erase(it);
  // As every card played: the card first (its event, its pile), then the cards that pay for it,
  // in the payment's order (docs/games/interstellar.md section 5).
  d.discard.push_back(field);
  s.events.push_back(Event{.kind = EventKind::reaction, .seat = seat8(foe), .extra = 2, .card = field});
  pay(s, foe, *plan_payment(d, kOutOfTurn));
  resolve(s, 2);
}

void invade(State& s, CardId planet) {
  const Seat seat = s.on_turn;
  Player& p = s.players[idx(seat)];
  pay(s, seat, *plan_payment(p, kInvasionCost));
  p.invasion_used = true;
  const Planet* target = find_planet(s.players[idx(opponent(seat))], planet);
  draw_cards(s, seat, 0, 2 * value(target->card.kind) / 3);
  s.events.back().target = planet;
}

void bombard(State& s) {
  const Seat seat = s.on_turn, foe = opponent(seat);
  pay(s, seat, *plan_payment(s.players[idx(seat)], kOutOfTurn));
  ++s.bombards;
  const int d1 = roll_die(s), d2 = roll_die(s);
  s.events.push_back(Event{.kind = EventKind::roll,
                           .seat = seat8(seat),
                           .unit = 2,
                           .value = static_cast<std::int16_t>(d1),
                           .extra = static_cast<std::int16_t>(d2)});
  damage(s, foe, Unit::reinforcements, d1 + d2);
}

}  // namespace arena::interstellar
