// Interstellar's views (docs/games/interstellar.md section 11): what one seat may see, and the
// public events.

#include <algorithm>

#include "referee/games/interstellar/engine.hpp"
#include "referee/games/interstellar/json.hpp"
#include "referee/games/interstellar/json_parts.hpp"
#include "referee/games/view_cards.hpp"

namespace arena::interstellar {

using nlohmann::json;
using namespace json_parts;

namespace {

// A view's cards (games::ViewCardNamer): objects {"id","card"}; the other seat's cards are the
// ones the seat's card table in hello lacks.
struct ViewCards {
  using Card = interstellar::Card;
  const State& s;
  Seat seat;

  CardId id(const Card& c) const { return c.id; }
  json object(const Card& c) const { return card_json(c); }
  bool foreign(const Card& c) const { return owner(s, c.id) != seat; }
};
using CardNamer = games::ViewCardNamer<ViewCards>;

json event_json(const Event& e, CardNamer& name) {
  json out;
  out["event"] = enum_name(e.kind);
  out["seat"] = e.seat;
  switch (e.kind) {
    case EventKind::start:
      out["turn"] = e.value;
      break;
    case EventKind::draw:
      out["main"] = e.value;
      out["resource"] = e.extra;
      break;
    case EventKind::drew:
      out["count"] = e.value;
      if (e.target != kNoCard) out["planet"] = e.target;
      break;
    case EventKind::timewarp:
      out["took"] = e.value == 1;
      break;
    case EventKind::recharge:
      out["count"] = e.value;
      break;
    case EventKind::play:
      out["card"] = name(e.card);
      if (e.target != kNoCard) out["target"] = e.target;
      if (e.card.kind == Kind::gate) out["to"] = loc_json(e.at);
      break;
    case EventKind::pay:
      out["card"] = name(e.card);
      out["depleted"] = e.extra == 1;
      break;
    case EventKind::move:
      out["unit"] = enum_name(static_cast<Unit>(e.unit));
      out["to"] = loc_json(e.at);
      out["by"] = e.extra == 0 ? "move" : e.extra == 1 ? "teleport" : "escape_pod";
      break;
    case EventKind::collect:
    case EventKind::harvest:
      out["planet"] = e.target;
      out["count"] = e.value;
      break;
    case EventKind::deplete:
      out["planet"] = e.target;
      out["voided"] = e.value;
      out["drawn"] = e.extra;
      break;
    case EventKind::voided:
    case EventKind::discarded:
      out["card"] = name(e.card);
      if (e.value > 0) out["harvest_lost"] = e.value;
      break;
    case EventKind::attack:
      out["by"] = enum_name(static_cast<Unit>(e.unit));
      out["target"] = enum_name(static_cast<Unit>(e.target_unit));
      out["base"] = e.value;
      break;
    case EventKind::reaction:
      out["reaction"] = e.extra == 1 ? "cloak" : "force_field";
      if (e.card.id != kNoCard) out["card"] = name(e.card);
      break;
    case EventKind::cloak:
      out["drawn"] = e.card.id == kNoCard ? json(nullptr) : name(e.card);
      out["base"] = e.extra == 1 ? json(nullptr) : json(e.value);
      break;
    case EventKind::roll:
      out["dice"] = e.unit == 2 ? json::array({e.value, e.extra}) : json::array({e.value});
      out["for"] = e.unit == 2 ? "bombard" : "attack";
      break;
    case EventKind::damage:
      out["unit"] = enum_name(static_cast<Unit>(e.target_unit));
      out["amount"] = e.value;
      break;
    case EventKind::destroyed:
      out["unit"] = enum_name(static_cast<Unit>(e.unit));
      break;
    case EventKind::formula:
      out["value"] = e.value;
      break;
    case EventKind::end_turn:
      out["why"] = e.extra == 0 ? "declared" : e.extra == 1 ? "second_move" : "escape_pod";
      break;
  }
  return out;
}

json events_json(const std::vector<Event>& events, CardNamer& name) {
  json out = json::array();
  for (const Event& e : events) out.push_back(event_json(e, name));
  return out;
}

json player_view(const State& s, int seat, bool own, CardNamer& name) {
  const Player& p = s.players[idx(seat)];
  const CharacterInfo& ch = info(p.character);
  json elements = json::array();
  for (const Element& e : p.elements) {
    json c = card_json(e.card);
    c["depleted"] = e.depleted;
    elements.push_back(std::move(c));
  }
  json planets = json::array();
  for (const Planet& pl : p.planets) {
    json c = card_json(pl.card);
    c["r"] = value(pl.card.kind);
    c["harvest_size"] = pl.harvest.size();
    if (own) c["harvest"] = name.list(pl.harvest);
    c["depleted"] = pl.depleted_turn >= 0;
    c["colony"] = pl.colony.id == kNoCard ? json(nullptr) : name(pl.colony);
    planets.push_back(std::move(c));
  }
  json gates = json::array();
  for (const Gate& g : p.gates) {
    json c = card_json(g.card);
    c["at"] = loc_json(g.at);
    c["usable"] = g.used_turn != s.turn;
    gates.push_back(std::move(c));
  }
  int resource_in_hand = 0;
  for (const Card& c : p.hand) resource_in_hand += is_resource_card(c.kind) ? 1 : 0;
  // Member by member, as the whole view below (a search builds one at every decision): a
  // {{key, value}, ...} list builds each pair as an array first, about twice the work.
  json out;
  out["seat"] = seat;
  out["character"] = ch.key;
  out["hp"] = p.hp;
  out["max_hp"] = ch.hp;
  out["ship"] = ch.ship_key;
  out["ship_hp"] = p.ship_hp;
  out["max_ship_hp"] = ch.ship_hp;
  out["ship_at"] = loc_json(p.ship_at);
  out["character_at"] = loc_json(p.char_at);
  out["water"] = name.list(p.water);
  out["stars"] = name.list(p.stars);
  out["star_total"] = star_total(p);
  out["elements"] = std::move(elements);
  out["planets"] = std::move(planets);
  out["planet_total"] = planet_total(p);
  out["gates"] = std::move(gates);
  out["pods"] = name.list(p.pods);
  json& reinforcements = out["reinforcements"];  // null without one
  if (p.reinforcements.id != kNoCard) {
    reinforcements["id"] = p.reinforcements.id;
    reinforcements["hp"] = p.reinforcements_hp;
  }
  out["hand_size"] = p.hand.size();
  out["hand_resource"] = resource_in_hand;
  out["hand_main"] = static_cast<int>(p.hand.size()) - resource_in_hand;
  out["resource_deck"] = p.resource_deck.size();
  out["main_deck"] = p.main_deck.size();
  out["discard"] = name.list(p.discard);
  out["void"] = name.list(p.voided);
  out["timewarp"] = p.timewarp < 0 ? json(nullptr) : json(p.timewarp == 1 ? "took" : "kept");
  out["bonus_draw"] = p.bonus_draw;
  out["invasion_used"] = p.invasion_used;
  if (own) out["hand"] = name.list(p.hand);
  return out;
}

json view_with(const State& s, Seat seat, CardNamer& name) {
  json players = json::array();
  for (int p = 0; p < kSeats; ++p) players.push_back(player_view(s, p, p == seat, name));
  json v;
  v["game"] = "interstellar";
  v["seat"] = seat;
  v["config"] = to_json(s.config);
  v["phase"] = enum_name(s.phase);
  v["turn"] = s.turn;
  v["start_player"] = s.start_player;
  v["on_turn"] = s.on_turn;
  v["to_act"] = s.phase == Phase::over ? json(nullptr) : json(to_act(s));
  json& turn = v["this_turn"];  // null outside a turn
  if (s.phase == Phase::main || s.phase == Phase::reaction) {
    const auto next = [&](Unit by) { return attack_cost(s, s.on_turn, by); };
    turn["seat"] = s.on_turn;
    turn["moves"] = s.moves;
    turn["moves_left"] = kMaxMoves - s.moves;
    turn["actions"] = s.actions;
    turn["artifacts"] = s.artifacts;
    turn["ship_attacks"] = s.ship_attacks;
    turn["character_attacks"] = s.character_attacks;
    turn["bombards"] = s.bombards;
    turn["played_card"] = s.played_card;
    turn["next_ship_attack_ammo"] = next(Unit::ship);
    turn["next_character_attack_energy"] = next(Unit::character);
  }
  json& pending = v["pending"];  // null without an attack to answer
  if (s.phase == Phase::reaction) {
    pending["attacker"] = s.on_turn;
    pending["by"] = enum_name(s.pending.by);
    pending["target"] = enum_name(s.pending.target);
    pending["base"] = base_damage(s, s.on_turn, s.pending.by);
  }
  v["players"] = std::move(players);
  v["events"] = events_json(s.events, name);
  v["last_events"] = events_json(s.last_events, name);
  v["end"] = enum_name(s.end);
  v["winner"] = s.phase == Phase::over && s.winner >= 0 ? json(s.winner) : json(nullptr);
  return v;
}

}  // namespace

Seat owner(const State& s, CardId id) {
  return id >= s.players[1].first_id ? 1 : 0;
}

json view(const State& s, Seat seat) {
  CardNamer name({s, seat}, false);
  return view_with(s, seat, name);
}

json view_v2(const State& s, Seat seat) {
  CardNamer name({s, seat}, true);
  json out = view_with(s, seat, name);
  name.add_foreign_cards(out);
  return out;
}

json card_table(const std::array<SeatConfig, kSeats>& seats) {
  // The ids as new_game gives them: each seat in turn, its Resource deck then its Main deck, each
  // in catalogue order.
  json out = json::array();
  for (int seat = 0; seat < kSeats; ++seat) {
    for (const DeckCounts* deck : {&seats[idx(seat)].resource, &seats[idx(seat)].main}) {
      for (const KindInfo& k : catalogue()) {
        for (int n = 0; n < (*deck)[static_cast<std::size_t>(k.kind)]; ++n) {
          json c = card_json(Card{static_cast<CardId>(out.size()), k.kind});
          c["owner"] = seat;
          out.push_back(std::move(c));
        }
      }
    }
  }
  return out;
}

}  // namespace arena::interstellar
