// Attacks (ship and character, Invasion), the defender's reactions out of turn (Defensive Cloak,
// Force Field) and the bombardment of Reinforcements. docs/games/interstellar.md section 6.

#include <algorithm>

#include "referee/games/interstellar/engine.hpp"
#include "referee/games/interstellar/pay.hpp"

namespace arena::interstellar {

namespace {

std::size_t idx(int i) {
  return static_cast<std::size_t>(i);
}
std::int8_t seat8(Seat s) {
  return static_cast<std::int8_t>(s);
}

constexpr int kMirrorBonus = 5;
constexpr int kMirrorShifterBase = 30;  // Mirror against another Shifter
constexpr int kUfoSplash = 10;          // the UFO's Beams hitting a ship also hit the character

Cost attack_price(const State& s, Seat seat, Unit by) {
  return Cost{.typed = by == Unit::ship ? Category::ammo : Category::energy, .typed_amount = attack_cost(s, seat, by)};
}

Unit target_of(const Player& defender) {
  return defender.ship_hp > 0 ? Unit::ship : Unit::character;
}

const Cost kCloakCost{.typed = Category::energy, .typed_amount = 1, .generic = 1};
const Cost kOutOfTurn{.generic = 1};

// The Defensive Cloak's table: the card the attacker drew sets the base damage; -1 is a miss.
int cloak_base(const Card* drawn, int full) {
  if (drawn == nullptr) return -1;
  const Category c = category(drawn->kind);
  if (c == Category::e115) return full;
  if (c == Category::water || c == Category::energy || c == Category::ammo) {
    switch (value(drawn->kind)) {
      case 1:
        return 60;
      case 2:
        return 40;
      case 3:
        return 20;
      default:
        return -1;
    }
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
      auto it = std::lower_bound(a.hand.begin(), a.hand.end(), drawn,
                                 [](const Card& x, const Card& y) { return x.id < y.id; });
      a.hand.insert(it, drawn);
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
    const Loc& to = target == Unit::ship ? d.ship_at : d.char_at;
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
         !s.players[idx(opponent(seat))].planets.empty() && can_pay(p, purse, attack_price(s, seat, Unit::character));
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

void declare_attack(State& s, Unit by) {
  const Seat seat = s.on_turn;
  Player& p = s.players[idx(seat)];
  pay(s, seat, *plan_payment(p, attack_price(s, seat, by)));
  if (by == Unit::ship) {
    ++s.ship_attacks;
  } else {
    ++s.character_attacks;
  }
  const Unit target = target_of(s.players[idx(opponent(seat))]);
  s.pending = Pending{by, target};
  s.events.push_back(Event{.kind = EventKind::attack,
                           .seat = seat8(seat),
                           .unit = static_cast<std::int8_t>(by),
                           .target_unit = static_cast<std::int8_t>(target),
                           .value = static_cast<std::int16_t>(base_damage(s, seat, by))});
  // The defender is asked only when it has a reaction it may play; the views never tell whether
  // it was asked, so that asking reveals nothing of its hand.
  std::vector<Action> reactions;
  s.phase = Phase::reaction;
  reaction_legal(s, reactions);
  if (reactions.size() == 1) resolve(s, 0);
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
  d.discard.push_back(field);
  pay(s, foe, *plan_payment(d, kOutOfTurn));
  s.events.push_back(Event{.kind = EventKind::reaction, .seat = seat8(foe), .extra = 2, .card = field});
  resolve(s, 2);
}

void invade(State& s, CardId planet) {
  const Seat seat = s.on_turn;
  Player& p = s.players[idx(seat)];
  pay(s, seat, *plan_payment(p, attack_price(s, seat, Unit::character)));
  ++s.character_attacks;
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
  Player& o = s.players[idx(foe)];
  const int dealt = std::min(o.reinforcements_hp, d1 + d2);
  o.reinforcements_hp -= dealt;
  s.events.push_back(
      Event{.kind = EventKind::damage, .seat = seat8(foe), .unit = 2, .value = static_cast<std::int16_t>(dealt)});
  if (o.reinforcements_hp <= 0) {
    o.discard.push_back(o.reinforcements);
    o.reinforcements = Card{};
    o.reinforcements_hp = 0;
    s.events.push_back(Event{.kind = EventKind::destroyed, .seat = seat8(foe), .unit = 2});
  }
}

}  // namespace arena::interstellar
