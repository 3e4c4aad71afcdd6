// Interstellar's outcome, its stable hash, and the test support: redealing what a seat cannot
// see, and the invariants of a State.

#include <fmt/format.h>

#include <algorithm>

#include "referee/core/hash.hpp"
#include "referee/games/interstellar/engine.hpp"

namespace arena::interstellar {

Outcome outcome(const State& s) {
  Outcome o;
  o.end = s.end;
  o.winner = s.winner;
  o.turns = s.turn;
  for (int seat = 0; seat < kSeats; ++seat) {
    o.hp[idx(seat)] = s.players[idx(seat)].hp;
    o.ship_hp[idx(seat)] = s.players[idx(seat)].ship_hp;
    o.scores[idx(seat)] = s.winner < 0 ? 0.5 : (s.winner == seat ? 1.0 : 0.0);
  }
  return o;
}

namespace {

// Every field of the State in a fixed order, straight from the values (no JSON): each list with
// its size first, so that no two states give the same bytes.
class StateHasher {
 public:
  void card(const Card& c) { h_.i64(c.id).u64(static_cast<std::uint64_t>(c.kind)); }
  void cards(const std::vector<Card>& v) {
    h_.u64(v.size());
    for (const Card& c : v) card(c);
  }
  void loc(const Loc& at) { h_.u64(static_cast<std::uint64_t>(at.zone)).i64(at.planet); }
  void event(const Event& e) {
    h_.u64(static_cast<std::uint64_t>(e.kind)).i64(e.seat).i64(e.unit).i64(e.target_unit).i64(e.value).i64(e.extra);
    card(e.card);
    h_.i64(e.target);
    loc(e.at);
  }
  void events(const std::vector<Event>& v) {
    h_.u64(v.size());
    for (const Event& e : v) event(e);
  }
  void player(const Player& p) {
    h_.u64(static_cast<std::uint64_t>(p.character)).i64(p.first_id).i64(p.cards).i64(p.hp).i64(p.ship_hp);
    loc(p.ship_at);
    loc(p.char_at);
    for (const auto* pile : {&p.resource_deck, &p.main_deck, &p.hand, &p.water, &p.stars}) cards(*pile);
    h_.u64(p.elements.size());
    for (const Element& e : p.elements) {
      card(e.card);
      h_.u64(e.depleted);
    }
    h_.u64(p.planets.size());
    for (const Planet& pl : p.planets) {
      card(pl.card);
      cards(pl.harvest);
      card(pl.colony);
      h_.i64(pl.depleted_turn).i64(pl.harvest_turn).i64(pl.harvest_count);
    }
    h_.u64(p.gates.size());
    for (const Gate& g : p.gates) {
      card(g.card);
      loc(g.at);
      h_.i64(g.used_turn);
    }
    cards(p.pods);
    card(p.reinforcements);
    h_.i64(p.reinforcements_hp);
    cards(p.discard);
    cards(p.voided);
    h_.i64(p.timewarp).u64(p.bonus_draw).u64(p.invasion_used);
  }
  Hasher& raw() { return h_; }

 private:
  Hasher h_;
};

}  // namespace

std::uint64_t hash(const State& s) {
  StateHasher h;
  h.raw().bytes("interstellar").u64(static_cast<std::uint64_t>(s.config.deckout)).i64(s.config.max_turns);
  for (auto word : s.rng.state()) h.raw().u64(word);
  h.raw().u64(static_cast<std::uint64_t>(s.phase)).i64(s.start_player).i64(s.on_turn).i64(s.turn);
  h.raw().i64(s.moves).i64(s.actions).i64(s.artifacts).i64(s.ship_attacks).i64(s.character_attacks).i64(s.bombards);
  h.raw()
      .u64(s.played_card)
      .u64(static_cast<std::uint64_t>(s.pending.by))
      .u64(static_cast<std::uint64_t>(s.pending.target));
  for (const Player& p : s.players) h.player(p);
  h.raw().u64(static_cast<std::uint64_t>(s.end)).i64(s.winner);
  h.events(s.events);
  h.events(s.last_events);
  return h.raw().digest();
}

void redeal_unseen(State& s, Seat seat, Rng& rng) {
  // The seat's own deck orders.
  Player& me = s.players[idx(seat)];
  rng.shuffle(me.resource_deck);
  rng.shuffle(me.main_deck);
  // The opponent's hidden cards, each among the places of its own deck: Resource cards in its
  // hand, its Resource deck and on its planets; Main cards in its hand and its Main deck.
  Player& o = s.players[idx(opponent(seat))];
  std::vector<Card*> slots[2];
  std::vector<Card> cards[2];
  for (Card& c : o.hand) slots[is_resource_card(c.kind) ? 0 : 1].push_back(&c);
  for (Card& c : o.resource_deck) slots[0].push_back(&c);
  for (Planet& pl : o.planets) {
    for (Card& c : pl.harvest) slots[0].push_back(&c);
  }
  for (Card& c : o.main_deck) slots[1].push_back(&c);
  for (int d = 0; d < 2; ++d) {
    for (Card* c : slots[d]) cards[d].push_back(*c);
    rng.shuffle(cards[d]);
    for (std::size_t i = 0; i < slots[d].size(); ++i) *slots[d][i] = cards[d][i];
  }
  std::sort(o.hand.begin(), o.hand.end(), [](const Card& a, const Card& b) { return a.id < b.id; });
}

Status check_invariants(const State& s) {
  for (int seat = 0; seat < kSeats; ++seat) {
    const Player& p = s.players[idx(seat)];
    std::vector<int> seen(idx(p.cards), 0);
    Status bad;
    auto see = [&](const Card& c, const char* where) {
      const int i = c.id - p.first_id;
      if (i < 0 || i >= p.cards) {
        bad = fail(fmt::format("seat {}: card {} in {} is not the seat's", seat, c.id, where));
        return;
      }
      ++seen[idx(i)];
    };
    for (const Card& c : p.resource_deck) {
      see(c, "resource deck");
      if (!is_resource_card(c.kind)) return fail(fmt::format("seat {}: a Main card in the Resource deck", seat));
    }
    for (const Card& c : p.main_deck) {
      see(c, "main deck");
      if (is_resource_card(c.kind)) return fail(fmt::format("seat {}: a Resource card in the Main deck", seat));
    }
    for (const Card& c : p.hand) see(c, "hand");
    if (!std::is_sorted(p.hand.begin(), p.hand.end(), [](const Card& a, const Card& b) { return a.id < b.id; })) {
      return fail(fmt::format("seat {}: hand not sorted by id", seat));
    }
    for (const Card& c : p.water) {
      see(c, "water slot");
      if (category(c.kind) != Category::water) return fail(fmt::format("seat {}: not Water in the Water slot", seat));
    }
    for (const Card& c : p.stars) {
      see(c, "star slot");
      if (category(c.kind) != Category::star) return fail(fmt::format("seat {}: not a Star in the Star slot", seat));
    }
    for (const Element& e : p.elements) {
      see(e.card, "elements");
      if (e.card.kind != Kind::e115 && e.card.kind != Kind::secret_formula) {
        return fail(fmt::format("seat {}: card {} in play as E115", seat, e.card.id));
      }
    }
    for (const Planet& pl : p.planets) {
      see(pl.card, "planets");
      if (category(pl.card.kind) != Category::planet) return fail(fmt::format("seat {}: not a planet in play", seat));
      if (pl.colony.id != kNoCard) {
        see(pl.colony, "colony");
        if (pl.colony.kind != Kind::colonization) {
          return fail(fmt::format("seat {}: not a Colonization on a planet", seat));
        }
      }
      for (const Card& c : pl.harvest) {
        see(c, "harvest");
        if (!is_resource_card(c.kind)) return fail(fmt::format("seat {}: a Main card harvested", seat));
      }
    }
    if (planet_total(p) > kPlanetCap)
      return fail(fmt::format("seat {}: {}R of planets in play", seat, planet_total(p)));
    for (const Gate& g : p.gates) {
      see(g.card, "gates");
      if (g.at.zone == Zone::planet && find_planet(p, g.at.planet) == nullptr) {
        return fail(fmt::format("seat {}: a gate on a planet not in play", seat));
      }
    }
    for (const Card& c : p.pods) see(c, "pods");
    if (p.reinforcements.id != kNoCard) {
      see(p.reinforcements, "reinforcements");
      if (p.reinforcements_hp <= 0 || p.reinforcements_hp > kReinforcementsHp) {
        return fail(fmt::format("seat {}: Reinforcements at {} HP", seat, p.reinforcements_hp));
      }
    }
    for (const Card& c : p.discard) see(c, "discard");
    for (const Card& c : p.voided) see(c, "void");
    if (!bad) return bad;
    for (std::size_t i = 0; i < seen.size(); ++i) {
      if (seen[i] != 1) {
        return fail(fmt::format("seat {}: card {} is in {} places", seat, p.first_id + static_cast<int>(i), seen[i]));
      }
    }
    const CharacterInfo& ch = info(p.character);
    if (p.hp < 0 || p.hp > ch.hp) return fail(fmt::format("seat {}: character at {} HP", seat, p.hp));
    if (p.ship_hp < 0 || p.ship_hp > ch.ship_hp) return fail(fmt::format("seat {}: ship at {} HP", seat, p.ship_hp));
    if (p.ship_hp > 0 && !(p.char_at == p.ship_at))
      return fail(fmt::format("seat {}: character away from its ship", seat));
    for (const Loc* at : {&p.ship_at, &p.char_at}) {
      if (at->zone == Zone::planet && find_planet(p, at->planet) == nullptr) {
        return fail(fmt::format("seat {}: standing on a planet not in play", seat));
      }
    }
  }
  if (s.players[1].first_id != s.players[0].cards) return fail(std::string("card ids not consecutive"));
  if (s.moves > kMaxMoves) return fail(fmt::format("{} moves in a turn", s.moves));
  if (s.bombards > kMaxBombards) return fail(fmt::format("{} bombardments in a turn", s.bombards));
  if (s.phase == Phase::over) {
    if (s.end == End::none) return fail(std::string("over without an end"));
  } else if (s.end != End::none) {
    return fail(std::string("an end while not over"));
  }
  if (s.phase != Phase::timewarp && s.phase != Phase::over && (s.turn < 1 || s.turn > s.config.max_turns)) {
    return fail(fmt::format("turn {} out of 1..{}", s.turn, s.config.max_turns));
  }
  return {};
}

}  // namespace arena::interstellar
