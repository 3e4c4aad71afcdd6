// Playing a card from the hand (docs/games/interstellar.md section 6): which plays are legal,
// and their effects: resources and stars into play, planets, Harvest, Depletion, Into the Void,
// Space Junk, Secret Formula, Gates, Escape Pods, Colonization, Reinforcements.

#include <algorithm>
#include <cassert>

#include "referee/games/interstellar/engine.hpp"
#include "referee/games/interstellar/pay.hpp"

namespace arena::interstellar {

namespace {

Card take_from_hand(Player& p, CardId id) {
  auto it = std::find_if(p.hand.begin(), p.hand.end(), [&](const Card& c) { return c.id == id; });
  assert(it != p.hand.end());
  const Card c = *it;
  p.hand.erase(it);
  return c;
}

bool is_action_card(Kind k) {
  return category(k) == Category::action;
}
bool is_artifact_card(Kind k) {
  const Category c = category(k);
  return c == Category::planet || c == Category::artifact || c == Category::creature;
}

// The generic part of playing card `k` now: the first action and the first artifact of a turn
// are free, each further one costs 1.
int extra_cost(const State& s, Kind k) {
  if (is_action_card(k)) return s.actions >= 1 ? 1 : 0;
  if (is_artifact_card(k)) return s.artifacts >= 1 ? 1 : 0;
  return 0;
}

std::vector<Loc> gate_places(const Player& p) {
  std::vector<Loc> out{{Zone::orbit, kNoCard}, {Zone::battlefield, kNoCard}};
  for (const Planet& pl : p.planets) out.push_back({Zone::planet, pl.card.id});
  return out;
}

void harvest(State& s, Seat seat) {
  Player& p = s.players[idx(seat)];
  for (Planet& pl : p.planets) {
    const bool first = pl.harvest_turn != s.turn;  // the planet's first Harvest this turn
    if (first) {
      pl.harvest_turn = s.turn;
      pl.harvest_count = 0;
    }
    const int r = value(pl.card.kind);
    const int bonus = pl.colony.id != kNoCard && first ? 1 : 0;  // a colony adds one card a turn
    const int n = std::min(r / 3 + bonus, r - pl.harvest_count);
    int placed = 0;
    for (; placed < n && !p.resource_deck.empty(); ++placed) {
      pl.harvest.push_back(p.resource_deck.back());
      p.resource_deck.pop_back();
    }
    pl.harvest_count = static_cast<std::int8_t>(pl.harvest_count + placed);
    if (placed == 0) continue;  // an event says cards placed: none, no event
    s.events.push_back(Event{.kind = EventKind::harvest,
                             .seat = seat8(seat),
                             .value = static_cast<std::int16_t>(placed),
                             .target = pl.card.id});
  }
}

void deplete(State& s, Seat seat, CardId planet) {
  Seat owner = seat;
  Planet* target = nullptr;
  for (Seat o : {seat, opponent(seat)}) {
    for (Planet& pl : s.players[idx(o)].planets) {
      if (pl.card.id == planet) {
        target = &pl;
        owner = o;
      }
    }
  }
  Player& holder = s.players[idx(owner)];
  const int uncollected = static_cast<int>(target->harvest.size());
  for (const Card& c : target->harvest) holder.voided.push_back(c);
  target->harvest.clear();
  target->depleted_turn = s.turn;
  const int r = value(target->card.kind);
  const int more = r % 2 == 1 ? r / 3 : r / 2;
  Player& p = s.players[idx(seat)];
  int drawn = 0;
  for (; drawn < uncollected + more && !p.resource_deck.empty(); ++drawn) {
    add_to_hand(p, p.resource_deck.back());
    p.resource_deck.pop_back();
  }
  s.events.push_back(Event{.kind = EventKind::deplete,
                           .seat = seat8(seat),
                           .value = static_cast<std::int16_t>(uncollected),
                           .extra = static_cast<std::int16_t>(drawn),
                           .target = planet});
}

void send_to_void(State& s, Seat seat, CardId target) {
  const Seat owner = opponent(seat);
  Player& o = s.players[idx(owner)];
  if (find_planet(o, target) != nullptr) {
    remove_planet(s, owner, target, true);
    return;
  }
  auto record = [&](const Card& c) {
    o.voided.push_back(c);
    s.events.push_back(Event{.kind = EventKind::voided, .seat = seat8(owner), .card = c});
  };
  if (auto e =
          std::find_if(o.elements.begin(), o.elements.end(), [&](const Element& x) { return x.card.id == target; });
      e != o.elements.end()) {
    record(e->card);
    o.elements.erase(e);
  } else if (auto g = std::find_if(o.gates.begin(), o.gates.end(), [&](const Gate& x) { return x.card.id == target; });
             g != o.gates.end()) {
    record(g->card);
    o.gates.erase(g);
  } else if (auto pod = std::find_if(o.pods.begin(), o.pods.end(), [&](const Card& x) { return x.id == target; });
             pod != o.pods.end()) {
    record(*pod);
    o.pods.erase(pod);
  } else if (o.reinforcements.id == target) {
    record(o.reinforcements);
    o.reinforcements = Card{};
    o.reinforcements_hp = 0;
  }
}

}  // namespace

void apply_play(State& s, const Action& a) {
  const Seat seat = s.on_turn;
  Player& p = s.players[idx(seat)];
  const Card c = take_from_hand(p, a.card);
  const Kind k = c.kind;
  const int extra = extra_cost(s, k);
  s.played_card = true;
  if (is_action_card(k)) ++s.actions;
  if (is_artifact_card(k)) ++s.artifacts;
  s.events.push_back(Event{.kind = EventKind::play, .seat = seat8(seat), .card = c, .target = a.target, .at = a.to});
  if (k == Kind::secret_formula) {
    // The generic part is chosen first and alike alone or with the formula (pay.hpp).
    const auto generic = plan_payment(p, Cost{.generic = extra});
    const auto payment = plan_payment(p, Cost{.generic = extra, .formula = kSecretFormula});
    int worth = 0;
    for (const Card& h : p.hand) {
      const bool in_full = std::find(payment->hand.begin(), payment->hand.end(), h.id) != payment->hand.end();
      const bool in_generic = std::find(generic->hand.begin(), generic->hand.end(), h.id) != generic->hand.end();
      if (in_full && !in_generic) worth += value(h.kind);
    }
    pay(s, seat, *payment);
    p.elements.push_back(Element{c, true});
    s.events.push_back(
        Event{.kind = EventKind::formula, .seat = seat8(seat), .value = static_cast<std::int16_t>(worth)});
    return;
  }
  // An action that ends in the discard pile lands there first, as its event comes first, and the
  // cards that pay for it after it (docs/games/interstellar.md section 5).
  if (category(k) == Category::action && k != Kind::harvest) p.discard.push_back(c);
  if (extra > 0) pay(s, seat, *plan_payment(p, Cost{.generic = extra}));
  switch (category(k)) {
    case Category::water:
      p.water.push_back(c);
      return;
    case Category::star:
      p.stars.push_back(c);
      return;
    case Category::e115:
      p.elements.push_back(Element{c, true});
      return;
    case Category::planet:
      p.planets.push_back(Planet{.card = c});
      collect(s, seat);
      return;
    case Category::creature:
      p.reinforcements = c;
      p.reinforcements_hp = kReinforcementsHp;
      return;
    case Category::artifact:
      if (k == Kind::gate) {
        p.gates.push_back(Gate{c, a.to, s.turn});
      } else if (k == Kind::colonization) {
        for (Planet& pl : p.planets) {
          if (pl.card.id == a.target) pl.colony = c;
        }
      } else {
        p.pods.push_back(c);
      }
      return;
    default:
      break;
  }
  switch (k) {
    case Kind::harvest:
      harvest(s, seat);
      p.main_deck.push_back(c);  // shuffled back into the Main deck
      s.rng.shuffle(p.main_deck);
      collect(s, seat);
      return;
    case Kind::depletion:
      deplete(s, seat, a.target);
      return;
    case Kind::into_the_void:
      send_to_void(s, seat, a.target);
      return;
    case Kind::space_junk:
      draw_cards(s, seat, 0, kSpaceJunk);
      return;
    default:
      return;
  }
}

void play_legal(const State& s, const Card& c, bool one_card, std::vector<Action>& out) {
  const Seat seat = s.on_turn;
  const Player& p = s.players[idx(seat)];
  const Player& o = s.players[idx(opponent(seat))];
  const Kind k = c.kind;
  Action a{.kind = ActionKind::play, .card = c.id};
  const int extra = extra_cost(s, k);
  // The card being played is never one of the cards paying for it: only resources pay, and
  // resources are played for free.
  switch (category(k)) {
    case Category::water:
    case Category::star:
    case Category::e115:
      out.push_back(a);
      return;
    case Category::energy:
    case Category::ammo:
    case Category::halley:
    case Category::reaction:
      return;
    case Category::planet:
      if (planet_total(p) + value(k) <= kPlanetCap && (extra == 0 || one_card)) out.push_back(a);
      return;
    case Category::artifact:
      if (!(extra == 0 || one_card)) return;
      if (k == Kind::gate) {
        for (const Loc& at : gate_places(p)) {
          a.to = at;
          out.push_back(a);
        }
      } else if (k == Kind::colonization) {
        for (const Planet& pl : p.planets) {
          if (pl.colony.id != kNoCard) continue;
          a.target = pl.card.id;
          out.push_back(a);
        }
      } else {
        out.push_back(a);
      }
      return;
    case Category::creature:
      if (p.reinforcements.id == kNoCard && (extra == 0 || one_card)) out.push_back(a);
      return;
    case Category::action:
      break;
  }
  if (!(extra == 0 || one_card)) return;
  switch (k) {
    case Kind::harvest:
      if (!p.planets.empty()) out.push_back(a);
      return;
    case Kind::space_junk:
      out.push_back(a);
      return;
    case Kind::secret_formula:
      if (can_pay(p, Cost{.generic = extra, .formula = kSecretFormula})) out.push_back(a);
      return;
    case Kind::depletion:
      for (const Player* owner : {&p, &o}) {
        for (const Planet& pl : owner->planets) {
          if (pl.depleted_turn >= 0) continue;
          a.target = pl.card.id;
          out.push_back(a);
        }
      }
      return;
    case Kind::into_the_void:
      for (const Planet& pl : o.planets)
        out.push_back(Action{.kind = ActionKind::play, .card = c.id, .target = pl.card.id});
      for (const Element& e : o.elements)
        out.push_back(Action{.kind = ActionKind::play, .card = c.id, .target = e.card.id});
      for (const Gate& g : o.gates) out.push_back(Action{.kind = ActionKind::play, .card = c.id, .target = g.card.id});
      for (const Card& pod : o.pods) out.push_back(Action{.kind = ActionKind::play, .card = c.id, .target = pod.id});
      if (o.reinforcements.id != kNoCard) {
        out.push_back(Action{.kind = ActionKind::play, .card = c.id, .target = o.reinforcements.id});
      }
      return;
    default:
      return;
  }
}

}  // namespace arena::interstellar
