// Interstellar's turn: setup, TimeWarp, the start and end of a turn, the legal actions and their
// effects. Attacks and reactions are in combat.cpp, payments in pay.cpp.

#include "referee/games/interstellar/rules.hpp"

#include <algorithm>
#include <cassert>

#include "referee/games/interstellar/engine.hpp"
#include "referee/games/interstellar/pay.hpp"

namespace arena::interstellar {

namespace {

void finish(State& s, End end, int winner) {
  s.phase = Phase::over;
  s.end = end;
  s.winner = static_cast<std::int8_t>(winner);
}

void start_turn(State& s, Seat seat);

}  // namespace

// ---- queries ------------------------------------------------------------------------------

int line_index(const Loc& at) {
  return static_cast<int>(at.zone);
}

int distance(const Loc& from, const Loc& to) {
  return 4 - line_index(from) - line_index(to);
}

int star_total(const Player& p) {
  int total = 0;
  for (const Card& c : p.stars) total += value(c.kind);
  return total;
}

int planet_total(const Player& p) {
  int total = 0;
  for (const Planet& pl : p.planets) total += value(pl.card.kind);
  return total;
}

const Loc& unit_at(const Player& p) {
  return p.ship_hp > 0 ? p.ship_at : p.char_at;
}

const Planet* find_planet(const Player& p, CardId id) {
  for (const Planet& pl : p.planets) {
    if (pl.card.id == id) return &pl;
  }
  return nullptr;
}

bool is_over(const State& s) {
  return s.phase == Phase::over;
}

Seat to_act(const State& s) {
  return s.phase == Phase::reaction ? opponent(s.on_turn) : s.on_turn;
}

// ---- pieces of the rules shared with combat.cpp and plays.cpp --------------------------------

void add_to_hand(Player& p, Card c) {
  auto it = std::lower_bound(p.hand.begin(), p.hand.end(), c, [](const Card& a, const Card& b) { return a.id < b.id; });
  p.hand.insert(it, c);
}

void draw_cards(State& s, Seat seat, int main, int resource) {
  Player& p = s.players[idx(seat)];
  int got_main = 0, got_resource = 0;
  for (; got_main < main && !p.main_deck.empty(); ++got_main) {
    add_to_hand(p, p.main_deck.back());
    p.main_deck.pop_back();
  }
  for (; got_resource < resource && !p.resource_deck.empty(); ++got_resource) {
    add_to_hand(p, p.resource_deck.back());
    p.resource_deck.pop_back();
  }
  s.events.push_back(Event{.kind = main > 0 ? EventKind::draw : EventKind::drew,
                           .seat = seat8(seat),
                           .value = static_cast<std::int16_t>(main > 0 ? got_main : got_resource),
                           .extra = static_cast<std::int16_t>(main > 0 ? got_resource : 0)});
}

// The seat's unit collects the cards harvested on the planet where it stands.
void collect(State& s, Seat seat) {
  Player& p = s.players[idx(seat)];
  const Loc& at = unit_at(p);
  if (at.zone != Zone::planet) return;
  for (Planet& pl : p.planets) {
    if (pl.card.id != at.planet || pl.harvest.empty()) continue;
    s.events.push_back(Event{.kind = EventKind::collect,
                             .seat = seat8(seat),
                             .value = static_cast<std::int16_t>(pl.harvest.size()),
                             .target = pl.card.id});
    for (const Card& c : pl.harvest) add_to_hand(p, c);
    pl.harvest.clear();
  }
}

// A planet leaves play (Into the Void, or discarded after a Depletion): its uncollected cards go
// to the void, the gates on it are discarded, units standing on it go back to Orbit.
void remove_planet(State& s, Seat owner, CardId id, bool to_void) {
  Player& p = s.players[idx(owner)];
  auto it = std::find_if(p.planets.begin(), p.planets.end(), [&](const Planet& pl) { return pl.card.id == id; });
  if (it == p.planets.end()) return;
  const EventKind gone = to_void ? EventKind::voided : EventKind::discarded;
  for (const Card& c : it->harvest) p.voided.push_back(c);
  (to_void ? p.voided : p.discard).push_back(it->card);
  // `value`: the uncollected cards that went to the void with it (their faces stay hidden).
  s.events.push_back(Event{
      .kind = gone, .seat = seat8(owner), .value = static_cast<std::int16_t>(it->harvest.size()), .card = it->card});
  if (it->colony.id != kNoCard) {  // a Colonization goes with its planet
    (to_void ? p.voided : p.discard).push_back(it->colony);
    s.events.push_back(Event{.kind = gone, .seat = seat8(owner), .card = it->colony});
  }
  p.planets.erase(it);
  for (auto g = p.gates.begin(); g != p.gates.end();) {
    if (g->at.zone == Zone::planet && g->at.planet == id) {
      p.discard.push_back(g->card);
      s.events.push_back(Event{.kind = EventKind::discarded, .seat = seat8(owner), .card = g->card});
      g = p.gates.erase(g);
    } else {
      ++g;
    }
  }
  const Loc orbit{Zone::orbit, kNoCard};
  if (p.ship_at.zone == Zone::planet && p.ship_at.planet == id) p.ship_at = orbit;
  if (p.char_at.zone == Zone::planet && p.char_at.planet == id) p.char_at = orbit;
}

void defeat_check(State& s) {
  for (int seat = 0; seat < kSeats; ++seat) {
    if (s.players[idx(seat)].hp <= 0 && s.phase != Phase::over) finish(s, End::defeated, opponent(seat));
  }
}

// Damage to a seat's unit (floored at its HP): a ship at 0 is destroyed, Reinforcements at 0 are
// discarded, a character at 0 ends the game.
void damage(State& s, Seat seat, Unit unit, int amount) {
  Player& p = s.players[idx(seat)];
  int& hp = unit == Unit::ship ? p.ship_hp : unit == Unit::character ? p.hp : p.reinforcements_hp;
  const int dealt = std::min(hp, std::max(0, amount));
  hp -= dealt;
  s.events.push_back(Event{.kind = EventKind::damage,
                           .seat = seat8(seat),
                           .target_unit = static_cast<std::int8_t>(unit),
                           .value = static_cast<std::int16_t>(dealt)});
  if (unit == Unit::ship && dealt > 0 && p.ship_hp == 0) {
    p.char_at = p.ship_at;
    s.events.push_back(Event{.kind = EventKind::destroyed, .seat = seat8(seat), .unit = 0});
  }
  if (unit == Unit::reinforcements && p.reinforcements_hp == 0) {
    p.discard.push_back(p.reinforcements);
    p.reinforcements = Card{};
    s.events.push_back(Event{.kind = EventKind::destroyed, .seat = seat8(seat), .unit = 2});
  }
  defeat_check(s);
}

int roll_die(State& s) {
  return 1 + static_cast<int>(s.rng.below(6));
}

void end_turn(State& s, int why) {
  const Seat seat = s.on_turn;
  Player& p = s.players[idx(seat)];
  s.events.push_back(Event{.kind = EventKind::end_turn, .seat = seat8(seat), .extra = static_cast<std::int16_t>(why)});
  if (p.main_deck.empty() && !s.played_card) {
    finish(s, End::deckout, s.config.deckout == DeckOut::literal_win ? seat : opponent(seat));
    return;
  }
  std::vector<CardId> spent;
  for (const Planet& pl : p.planets) {
    if (pl.depleted_turn >= 0 && pl.depleted_turn < s.turn) spent.push_back(pl.card.id);
  }
  for (CardId id : spent) remove_planet(s, seat, id, false);
  if (s.turn >= s.config.max_turns) {
    const int a = s.players[0].hp, b = s.players[1].hp;
    finish(s, End::turn_cap, a > b ? 0 : b > a ? 1 : -1);
    return;
  }
  start_turn(s, opponent(seat));
}

namespace {

void start_turn(State& s, Seat seat) {
  Player& p = s.players[idx(seat)];
  s.turn = static_cast<std::int16_t>(s.turn + 1);
  s.on_turn = seat8(seat);
  s.phase = Phase::main;
  s.moves = s.actions = s.artifacts = s.ship_attacks = s.character_attacks = s.bombards = 0;
  s.played_card = false;
  std::swap(s.last_events, s.events);  // keeps both buffers' capacity
  s.events.clear();
  s.events.push_back(Event{.kind = EventKind::start, .seat = seat8(seat), .value = s.turn});
  const int n = p.bonus_draw ? 2 : 1;
  p.bonus_draw = false;
  draw_cards(s, seat, n, n);
  int recharged = 0;
  for (Element& e : p.elements) {
    if (e.depleted) ++recharged;
    e.depleted = false;
  }
  if (recharged > 0) {
    s.events.push_back(
        Event{.kind = EventKind::recharge, .seat = seat8(seat), .value = static_cast<std::int16_t>(recharged)});
  }
  for (Planet& pl : p.planets) {  // Proxima B: one more card face down every turn
    if (pl.card.kind == Kind::proxima_b && !p.resource_deck.empty()) {
      pl.harvest.push_back(p.resource_deck.back());
      p.resource_deck.pop_back();
      s.events.push_back(Event{.kind = EventKind::harvest, .seat = seat8(seat), .value = 1, .target = pl.card.id});
    }
  }
  if (p.reinforcements.id != kNoCard) {  // Reinforcements: 15 to the ship, else the character
    Player& o = s.players[idx(opponent(seat))];
    s.events.push_back(Event{.kind = EventKind::attack,
                             .seat = seat8(seat),
                             .unit = 2,
                             .target_unit = static_cast<std::int8_t>(o.ship_hp > 0 ? Unit::ship : Unit::character),
                             .value = kReinforcementsDamage});
    damage(s, opponent(seat), o.ship_hp > 0 ? Unit::ship : Unit::character, kReinforcementsDamage);
    if (s.phase == Phase::over) return;
  }
  collect(s, seat);
}

void deal_opening(State& s, Seat seat) {
  Player& p = s.players[idx(seat)];
  for (int i = 0; i < kStartResource && !p.resource_deck.empty(); ++i) {
    add_to_hand(p, p.resource_deck.back());
    p.resource_deck.pop_back();
  }
  for (int i = 0; i < kStartMain && !p.main_deck.empty(); ++i) {
    add_to_hand(p, p.main_deck.back());
    p.main_deck.pop_back();
  }
}

// TimeWarp: the hand goes back into its decks, both are shuffled, and a new hand is drawn.
void redraw(State& s, Seat seat) {
  Player& p = s.players[idx(seat)];
  for (const Card& c : p.hand) (is_resource_card(c.kind) ? p.resource_deck : p.main_deck).push_back(c);
  p.hand.clear();
  s.rng.shuffle(p.resource_deck);
  s.rng.shuffle(p.main_deck);
  deal_opening(s, seat);
}

// One step from `at`: Planet <-> Orbit <-> Battlefield, and planet to planet.
std::vector<Loc> steps_from(const Player& p, const Loc& at) {
  std::vector<Loc> out;
  if (at.zone != Zone::orbit) out.push_back({Zone::orbit, kNoCard});
  if (at.zone == Zone::orbit) out.push_back({Zone::battlefield, kNoCard});
  if (at.zone != Zone::battlefield) {
    for (const Planet& pl : p.planets) {
      if (!(at.zone == Zone::planet && at.planet == pl.card.id)) out.push_back({Zone::planet, pl.card.id});
    }
  }
  return out;
}

void main_legal(const State& s, std::vector<Action>& out) {
  const Seat seat = s.on_turn;
  const Player& p = s.players[idx(seat)];
  const Player& o = s.players[idx(opponent(seat))];
  out.push_back(Action{.kind = ActionKind::end_turn});
  const Purse purse = purse_of(p);
  const bool one_card = can_pay(p, purse, Cost{.generic = 1});
  for (const Card& c : p.hand) play_legal(s, c, one_card, out);
  if (p.ship_hp > 0 && s.moves < kMaxMoves && !p.water.empty() && !p.stars.empty()) {
    for (const Loc& to : steps_from(p, p.ship_at)) out.push_back(Action{.kind = ActionKind::move, .to = to});
  }
  bool charged = false;
  for (const Element& e : p.elements) charged = charged || !e.depleted;
  if (charged || one_card) {
    for (const Gate& g : p.gates) {
      if (g.used_turn != s.turn && !(g.at == unit_at(p))) {
        out.push_back(Action{.kind = ActionKind::teleport, .card = g.card.id});
      }
    }
  }
  if (p.ship_hp == 0 && !p.pods.empty()) {
    for (const Loc& to : steps_from(p, p.char_at)) out.push_back(Action{.kind = ActionKind::pod, .to = to});
  }
  for (Unit by : {Unit::ship, Unit::character}) {
    if (!can_attack(s, seat, by, purse)) continue;
    out.push_back(Action{.kind = ActionKind::attack, .unit = by});  // ship-first
    if (o.reinforcements.id != kNoCard) {
      out.push_back(Action{.kind = ActionKind::attack, .unit = by, .target = o.reinforcements.id});
    }
  }
  if (can_invade(s, seat, purse)) {
    for (const Planet& pl : o.planets) out.push_back(Action{.kind = ActionKind::invasion, .target = pl.card.id});
  }
  if (o.reinforcements.id != kNoCard && s.bombards < kMaxBombards && one_card) {
    out.push_back(Action{.kind = ActionKind::bombard});
  }
}

void apply_travel(State& s, const Action& a) {
  const Seat seat = s.on_turn;
  Player& p = s.players[idx(seat)];
  const std::int16_t how = a.kind == ActionKind::move ? 0 : a.kind == ActionKind::teleport ? 1 : 2;
  Loc to = a.to;
  if (a.kind == ActionKind::teleport) {
    auto g = std::find_if(p.gates.begin(), p.gates.end(), [&](const Gate& x) { return x.card.id == a.card; });
    to = g->at;
    g->used_turn = s.turn;
    auto e = std::find_if(p.elements.begin(), p.elements.end(), [](const Element& x) { return !x.depleted; });
    if (e != p.elements.end()) {
      pay(s, seat, Payment{{}, {e->card.id}});
    } else {
      pay(s, seat, *plan_payment(p, Cost{.generic = 1}));
    }
  }
  const bool ship = p.ship_hp > 0;
  if (ship) p.ship_at = to;
  p.char_at = to;
  s.events.push_back(Event{.kind = EventKind::move,
                           .seat = seat8(seat),
                           .unit = static_cast<std::int8_t>(ship ? Unit::ship : Unit::character),
                           .extra = how,
                           .at = to});
  collect(s, seat);
  if (a.kind == ActionKind::move && ++s.moves >= kMaxMoves) end_turn(s, 1);
  if (a.kind == ActionKind::pod) end_turn(s, 2);
}

}  // namespace

// ---- setup ----------------------------------------------------------------------------------

State new_game(const Config& config, const std::array<SeatConfig, kSeats>& seats, std::uint64_t seed) {
  State s;
  s.config = config;
  s.rng = Rng(seed);
  CardId next = 0;
  for (int seat = 0; seat < kSeats; ++seat) {
    Player& p = s.players[idx(seat)];
    const SeatConfig& sc = seats[idx(seat)];
    const CharacterInfo& ch = info(sc.character);
    p.character = sc.character;
    p.hp = ch.hp;
    p.ship_hp = ch.ship_hp;
    p.first_id = next;
    for (const KindInfo& k : catalogue()) {
      for (int n = 0; n < sc.resource[static_cast<std::size_t>(k.kind)]; ++n)
        p.resource_deck.push_back(Card{next++, k.kind});
    }
    for (const KindInfo& k : catalogue()) {
      for (int n = 0; n < sc.main[static_cast<std::size_t>(k.kind)]; ++n) p.main_deck.push_back(Card{next++, k.kind});
    }
    p.cards = static_cast<std::int16_t>(next - p.first_id);
    s.rng.shuffle(p.resource_deck);
    s.rng.shuffle(p.main_deck);
    deal_opening(s, seat);
  }
  s.start_player = static_cast<std::int8_t>(s.rng.below(kSeats));
  s.on_turn = s.start_player;
  s.phase = Phase::timewarp;
  return s;
}

// ---- legal actions and their effects ---------------------------------------------------------

void legal_actions(const State& s, std::vector<Action>& out) {
  out.clear();
  switch (s.phase) {
    case Phase::timewarp:
      out.push_back(Action{.kind = ActionKind::keep});
      out.push_back(Action{.kind = ActionKind::timewarp});
      return;
    case Phase::main:
      main_legal(s, out);
      return;
    case Phase::reaction:
      reaction_legal(s, out);
      return;
    case Phase::over:
      return;
  }
}

void apply(State& s, const Action& a) {
  const Seat seat = s.on_turn;
  switch (a.kind) {
    case ActionKind::keep:
    case ActionKind::timewarp: {
      s.players[idx(seat)].timewarp = a.kind == ActionKind::timewarp ? 1 : 0;
      s.events.push_back(Event{.kind = EventKind::timewarp,
                               .seat = seat8(seat),
                               .value = static_cast<std::int16_t>(s.players[idx(seat)].timewarp)});
      if (s.players[idx(opponent(seat))].timewarp < 0) {
        s.on_turn = seat8(opponent(seat));
        return;
      }
      const bool w0 = s.players[0].timewarp == 1, w1 = s.players[1].timewarp == 1;
      if (w0) redraw(s, 0);
      if (w1) redraw(s, 1);
      if (w0 != w1) s.players[w0 ? 1 : 0].bonus_draw = true;
      start_turn(s, s.start_player);
      return;
    }
    case ActionKind::end_turn:
      end_turn(s, 0);
      return;
    case ActionKind::play:
      apply_play(s, a);
      return;
    case ActionKind::move:
    case ActionKind::teleport:
    case ActionKind::pod:
      apply_travel(s, a);
      return;
    case ActionKind::attack:
      declare_attack(s, a.unit, a.target);
      return;
    case ActionKind::invasion:
      invade(s, a.target);
      return;
    case ActionKind::bombard:
      bombard(s);
      return;
    case ActionKind::pass:
    case ActionKind::cloak:
    case ActionKind::force_field:
      react(s, a);
      return;
  }
}

}  // namespace arena::interstellar
