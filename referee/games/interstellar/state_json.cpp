// Interstellar's full state as JSON (with the Rng: for tests and tools, never sent to a bot).

#include "referee/games/interstellar/json.hpp"
#include "referee/games/interstellar/json_parts.hpp"
#include "referee/games/rng_json.hpp"

namespace arena::interstellar {

using nlohmann::json;
using namespace json_parts;

// ---- full state ---------------------------------------------------------------------------------

namespace {

json event_state(const Event& e) {
  return json::array({static_cast<int>(e.kind), e.seat, e.unit, e.target_unit, e.value, e.extra, e.card.id,
                      static_cast<int>(e.card.kind), e.target, static_cast<int>(e.at.zone), e.at.planet});
}

Result<Event> event_from_state(const json& j) {
  if (!j.is_array() || j.size() != 11) return fail(std::string("an event is an array of 11 numbers"));
  const int kind = j[0].get<int>(), card_kind = j[7].get<int>(), zone = j[9].get<int>();
  if (kind < 0 || kind >= static_cast<int>(EnumNames<EventKind>::table.size()) || card_kind < 0 ||
      card_kind >= kKinds || zone < 0 || zone > 3) {
    return fail(fmt::format("a bad event {}", j.dump()));
  }
  return Event{static_cast<EventKind>(kind),
               j[1].get<std::int8_t>(),
               j[2].get<std::int8_t>(),
               j[3].get<std::int8_t>(),
               j[4].get<std::int16_t>(),
               j[5].get<std::int16_t>(),
               Card{j[6].get<CardId>(), static_cast<Kind>(card_kind)},
               j[8].get<CardId>(),
               Loc{static_cast<Zone>(zone), j[10].get<CardId>()}};
}

json player_state(const Player& p) {
  json elements = json::array(), planets = json::array(), gates = json::array();
  for (const Element& e : p.elements) elements.push_back({{"card", card_json(e.card)}, {"depleted", e.depleted}});
  for (const Planet& pl : p.planets) {
    planets.push_back({{"card", card_json(pl.card)},
                       {"harvest", cards_json(pl.harvest)},
                       {"colony", pl.colony.id == kNoCard ? json(nullptr) : card_json(pl.colony)},
                       {"depleted_turn", pl.depleted_turn},
                       {"harvest_turn", pl.harvest_turn},
                       {"harvest_count", pl.harvest_count}});
  }
  for (const Gate& g : p.gates)
    gates.push_back({{"card", card_json(g.card)}, {"at", loc_json(g.at)}, {"used_turn", g.used_turn}});
  return {{"character", info(p.character).key},
          {"first_id", p.first_id},
          {"cards", p.cards},
          {"hp", p.hp},
          {"ship_hp", p.ship_hp},
          {"ship_at", loc_json(p.ship_at)},
          {"character_at", loc_json(p.char_at)},
          {"resource_deck", cards_json(p.resource_deck)},
          {"main_deck", cards_json(p.main_deck)},
          {"hand", cards_json(p.hand)},
          {"water", cards_json(p.water)},
          {"stars", cards_json(p.stars)},
          {"elements", std::move(elements)},
          {"planets", std::move(planets)},
          {"gates", std::move(gates)},
          {"pods", cards_json(p.pods)},
          {"reinforcements", p.reinforcements.id == kNoCard ? json(nullptr) : card_json(p.reinforcements)},
          {"reinforcements_hp", p.reinforcements_hp},
          {"discard", cards_json(p.discard)},
          {"void", cards_json(p.voided)},
          {"timewarp", p.timewarp},
          {"bonus_draw", p.bonus_draw},
          {"invasion_used", p.invasion_used}};
}

Result<Player> player_from_state(const json& j) {
  Player p;
  auto ch = character_from_key(j.at("character").get<std::string>());
  if (!ch) return fail(ch.error());
  p.character = *ch;
  p.first_id = j.at("first_id").get<CardId>();
  p.cards = j.at("cards").get<std::int16_t>();
  p.hp = j.at("hp").get<int>();
  p.ship_hp = j.at("ship_hp").get<int>();
  for (auto [key, into] : {std::pair{"ship_at", &p.ship_at}, std::pair{"character_at", &p.char_at}}) {
    auto at = loc_from_json(j.at(key));
    if (!at) return fail(at.error());
    *into = *at;
  }
  for (auto [key, into] :
       {std::pair{"resource_deck", &p.resource_deck}, std::pair{"main_deck", &p.main_deck}, std::pair{"hand", &p.hand},
        std::pair{"water", &p.water}, std::pair{"stars", &p.stars}, std::pair{"pods", &p.pods},
        std::pair{"discard", &p.discard}, std::pair{"void", &p.voided}}) {
    auto cards = cards_from_json(j.at(key));
    if (!cards) return fail(fmt::format("{}: {}", key, cards.error()));
    *into = std::move(cards).value();
  }
  for (const json& e : j.at("elements")) {
    auto card = card_from_json(e.at("card"));
    if (!card) return fail(card.error());
    p.elements.push_back(Element{*card, e.at("depleted").get<bool>()});
  }
  for (const json& pj : j.at("planets")) {
    auto card = card_from_json(pj.at("card"));
    auto harvest = cards_from_json(pj.at("harvest"));
    if (!card || !harvest) return fail(std::string("a bad planet"));
    Card colony;
    if (!pj.at("colony").is_null()) {
      auto c = card_from_json(pj.at("colony"));
      if (!c) return fail(c.error());
      colony = *c;
    }
    p.planets.push_back(Planet{*card, std::move(harvest).value(), colony, pj.at("depleted_turn").get<std::int16_t>(),
                               pj.at("harvest_turn").get<std::int16_t>(), pj.at("harvest_count").get<std::int8_t>()});
  }
  for (const json& g : j.at("gates")) {
    auto card = card_from_json(g.at("card"));
    auto at = loc_from_json(g.at("at"));
    if (!card || !at) return fail(std::string("a bad gate"));
    p.gates.push_back(Gate{*card, *at, g.at("used_turn").get<std::int16_t>()});
  }
  if (!j.at("reinforcements").is_null()) {
    auto card = card_from_json(j.at("reinforcements"));
    if (!card) return fail(card.error());
    p.reinforcements = *card;
  }
  p.reinforcements_hp = j.at("reinforcements_hp").get<int>();
  p.timewarp = j.at("timewarp").get<std::int8_t>();
  p.bonus_draw = j.at("bonus_draw").get<bool>();
  p.invasion_used = j.at("invasion_used").get<bool>();
  return p;
}

}  // namespace

json to_json(const State& s) {
  json events = json::array(), last = json::array();
  for (const Event& e : s.events) events.push_back(event_state(e));
  for (const Event& e : s.last_events) last.push_back(event_state(e));
  return {{"config", to_json(s.config)},
          {"rng", games::rng_to_json(s.rng)},
          {"phase", enum_name(s.phase)},
          {"start_player", s.start_player},
          {"on_turn", s.on_turn},
          {"turn", s.turn},
          {"moves", s.moves},
          {"actions", s.actions},
          {"artifacts", s.artifacts},
          {"ship_attacks", s.ship_attacks},
          {"character_attacks", s.character_attacks},
          {"bombards", s.bombards},
          {"played_card", s.played_card},
          {"pending", {static_cast<int>(s.pending.by), static_cast<int>(s.pending.target)}},
          {"players", {player_state(s.players[0]), player_state(s.players[1])}},
          {"end", enum_name(s.end)},
          {"winner", s.winner},
          {"events", std::move(events)},
          {"last_events", std::move(last)}};
}

Result<State> state_from_json(const json& j) {
  // The full state is produced by to_json above; this reader trusts its shape, and the caller
  // checks the values with check_invariants.
  try {
    State s;
    auto config = config_from_json(j.at("config"));
    if (!config) return fail(config.error());
    s.config = *config;
    s.rng = games::rng_from_json(j.at("rng"));
    auto phase = enum_from_json<Phase>(j.at("phase"), "phase");
    auto end = enum_from_json<End>(j.at("end"), "end");
    if (!phase) return fail(phase.error());
    if (!end) return fail(end.error());
    s.phase = *phase;
    s.end = *end;
    s.start_player = j.at("start_player").get<std::int8_t>();
    s.on_turn = j.at("on_turn").get<std::int8_t>();
    if (s.start_player < 0 || s.start_player > 1 || s.on_turn < 0 || s.on_turn > 1)
      return fail(std::string("bad seat"));
    s.turn = j.at("turn").get<std::int16_t>();
    s.moves = j.at("moves").get<std::int8_t>();
    s.actions = j.at("actions").get<std::int8_t>();
    s.artifacts = j.at("artifacts").get<std::int8_t>();
    s.ship_attacks = j.at("ship_attacks").get<std::int8_t>();
    s.character_attacks = j.at("character_attacks").get<std::int8_t>();
    s.bombards = j.at("bombards").get<std::int8_t>();
    s.played_card = j.at("played_card").get<bool>();
    const int by = j.at("pending").at(0).get<int>(), target = j.at("pending").at(1).get<int>();
    if (by < 0 || by > 1 || target < 0 || target > 2) return fail(std::string("bad pending attack"));
    s.pending = Pending{static_cast<Unit>(by), static_cast<Unit>(target)};
    for (std::size_t seat = 0; seat < kSeats; ++seat) {
      auto p = player_from_state(j.at("players").at(seat));
      if (!p) return fail(fmt::format("seat {}: {}", seat, p.error()));
      s.players[seat] = std::move(p).value();
    }
    s.winner = j.at("winner").get<std::int8_t>();
    for (auto [key, into] : {std::pair{"events", &s.events}, std::pair{"last_events", &s.last_events}}) {
      for (const json& e : j.at(key)) {
        auto ev = event_from_state(e);
        if (!ev) return fail(ev.error());
        into->push_back(*ev);
      }
    }
    if (auto ok = check_invariants(s); !ok) return fail(ok.error());
    return s;
  } catch (const json::exception& e) {
    return fail(fmt::format("not an Interstellar state: {}", e.what()));
  }
}

}  // namespace arena::interstellar
