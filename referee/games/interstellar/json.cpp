#include "referee/games/interstellar/json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "referee/core/hash.hpp"
#include "referee/games/interstellar/pay.hpp"

namespace arena::interstellar {

using nlohmann::json;

namespace {

std::size_t idx(int i) {
  return static_cast<std::size_t>(i);
}

constexpr std::array<const char*, 4> kPhaseNames = {"timewarp", "main", "reaction", "over"};
constexpr std::array<const char*, 4> kEndNames = {"none", "defeated", "deckout", "turn_cap"};
constexpr std::array<const char*, 3> kZoneNames = {"planet", "orbit", "battlefield"};
constexpr std::array<const char*, 13> kActionNames = {"keep", "timewarp", "end_turn",   "move",     "teleport",
                                                      "pod",  "play",     "attack",     "invasion", "bombard",
                                                      "pass", "cloak",    "force_field"};
constexpr std::array<const char*, 3> kUnitNames = {"ship", "character", "reinforcements"};
constexpr std::array<const char*, 21> kEventNames = {
    "start",    "draw",    "timewarp", "recharge", "play",      "pay",           "move",
    "collect",  "harvest", "deplete",  "void",     "discard",   "draw_resource", "attack",
    "reaction", "cloak",   "roll",     "damage",   "destroyed", "formula",       "end_turn"};

template <std::size_t N>
Result<std::size_t> find_name(const std::array<const char*, N>& names, const json& j, const char* what) {
  if (j.is_string()) {
    const auto& name = j.get_ref<const std::string&>();
    for (std::size_t i = 0; i < N; ++i) {
      if (name == names[i]) return i;
    }
  }
  return fail(fmt::format("unknown {} {}", what, j.dump()));
}

Status only_keys(const json& j, std::initializer_list<const char*> keys) {
  for (const auto& [key, value] : j.items()) {
    if (std::none_of(keys.begin(), keys.end(), [&](const char* k) { return key == k; })) {
      return fail(fmt::format("unknown field \"{}\"", key));
    }
  }
  return {};
}

bool is_int(const json& j) {
  return j.is_number_integer() || j.is_number_unsigned();
}

Result<CardId> id_from_json(const json& j, const char* what) {
  if (!is_int(j) || j.get<std::int64_t>() < 0 || j.get<std::int64_t>() > 32767) {
    return fail(fmt::format("\"{}\" must be a card id, got {}", what, j.dump()));
  }
  return static_cast<CardId>(j.get<int>());
}

json cards_json(const std::vector<Card>& cards) {
  json out = json::array();
  for (const Card& c : cards) out.push_back(card_json(c));
  return out;
}

Result<Card> card_from_json(const json& j) {
  if (!j.is_object() || !j.contains("id") || !j.contains("card")) return fail(std::string("a card needs id and card"));
  auto id = id_from_json(j.at("id"), "id");
  if (!id) return fail(id.error());
  if (!j.at("card").is_string()) return fail(std::string("\"card\" must be a card key"));
  auto kind = kind_from_key(j.at("card").get<std::string>());
  if (!kind) return fail(kind.error());
  return Card{*id, *kind};
}

Result<std::vector<Card>> cards_from_json(const json& j) {
  std::vector<Card> out;
  if (!j.is_array()) return fail(std::string("expected an array of cards"));
  for (const json& c : j) {
    auto card = card_from_json(c);
    if (!card) return fail(card.error());
    out.push_back(*card);
  }
  return out;
}

Result<Loc> loc_from_json(const json& j) {
  if (!j.is_object() || !j.contains("zone")) return fail(std::string("a place needs \"zone\""));
  auto zone = find_name(kZoneNames, j.at("zone"), "zone");
  if (!zone) return fail(zone.error());
  Loc at{static_cast<Zone>(*zone), kNoCard};
  if (at.zone == Zone::planet) {
    if (auto ok = only_keys(j, {"zone", "planet"}); !ok) return fail(ok.error());
    if (!j.contains("planet")) return fail(std::string("a planet place needs \"planet\""));
    auto planet = id_from_json(j.at("planet"), "planet");
    if (!planet) return fail(planet.error());
    at.planet = *planet;
  } else if (auto ok = only_keys(j, {"zone"}); !ok) {
    return fail(ok.error());
  }
  return at;
}

Result<std::array<std::uint8_t, kKinds>> deck_from_json(const json& j, bool resource, const char* name) {
  std::array<std::uint8_t, kKinds> counts{};
  auto add = [&](const std::string& key, std::int64_t n) -> Status {
    auto kind = kind_from_key(key);
    if (!kind) return fail(fmt::format("{} deck: {}", name, kind.error()));
    if (is_resource_card(*kind) != resource) {
      return fail(fmt::format("{} deck: \"{}\" belongs in the {} deck", name, key, resource ? "main" : "resource"));
    }
    auto& c = counts[static_cast<std::size_t>(*kind)];
    if (n < 0 || c + n > kMaxDeck) return fail(fmt::format("{} deck: bad count {} of \"{}\"", name, n, key));
    c = static_cast<std::uint8_t>(c + n);
    return {};
  };
  if (j.is_object()) {
    for (const auto& [key, n] : j.items()) {
      if (!is_int(n)) return fail(fmt::format("{} deck: the count of \"{}\" must be a whole number", name, key));
      if (auto ok = add(key, n.get<std::int64_t>()); !ok) return fail(ok.error());
    }
  } else if (j.is_array()) {
    for (const json& key : j) {
      if (!key.is_string()) return fail(fmt::format("{} deck: expected card keys, got {}", name, key.dump()));
      if (auto ok = add(key.get<std::string>(), 1); !ok) return fail(ok.error());
    }
  } else {
    return fail(fmt::format("{} deck: expected an object of counts or an array of card keys", name));
  }
  return counts;
}

json deck_json(const std::array<std::uint8_t, kKinds>& counts) {
  json out = json::object();
  for (const KindInfo& k : catalogue()) {
    if (counts[static_cast<std::size_t>(k.kind)] > 0) out[k.key] = counts[static_cast<std::size_t>(k.kind)];
  }
  return out;
}

json event_json(const Event& e) {
  json out = {{"event", kEventNames[static_cast<std::size_t>(e.kind)]}, {"seat", e.seat}};
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
      out["card"] = card_json(e.card);
      if (e.target != kNoCard) out["target"] = e.target;
      if (e.card.kind == Kind::gate) out["to"] = loc_json(e.at);
      break;
    case EventKind::pay:
      out["card"] = card_json(e.card);
      out["depleted"] = e.extra == 1;
      break;
    case EventKind::move:
      out["unit"] = kUnitNames[idx(e.unit)];
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
      out["card"] = card_json(e.card);
      if (e.value > 0) out["harvest_lost"] = e.value;
      break;
    case EventKind::attack:
      out["by"] = kUnitNames[idx(e.unit)];
      out["target"] = kUnitNames[idx(e.target_unit)];
      out["base"] = e.value;
      break;
    case EventKind::reaction:
      out["reaction"] = e.extra == 1 ? "cloak" : "force_field";
      if (e.card.id != kNoCard) out["card"] = card_json(e.card);
      break;
    case EventKind::cloak:
      out["drawn"] = e.card.id == kNoCard ? json(nullptr) : card_json(e.card);
      out["base"] = e.extra == 1 ? json(nullptr) : json(e.value);
      break;
    case EventKind::roll:
      out["dice"] = e.unit == 2 ? json::array({e.value, e.extra}) : json::array({e.value});
      out["for"] = e.unit == 2 ? "bombard" : "attack";
      break;
    case EventKind::damage:
      out["unit"] = kUnitNames[idx(e.target_unit)];
      out["amount"] = e.value;
      break;
    case EventKind::destroyed:
      out["unit"] = kUnitNames[idx(e.unit)];
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

json events_json(const std::vector<Event>& events) {
  json out = json::array();
  for (const Event& e : events) out.push_back(event_json(e));
  return out;
}

json player_view(const State& s, int seat, bool own) {
  const Player& p = s.players[idx(seat)];
  const CharacterInfo& ch = info(p.character);
  json elements = json::array();
  for (const Element& e : p.elements) {
    json c = card_json(e.card);
    c["depleted"] = e.depleted;
    elements.push_back(c);
  }
  json planets = json::array();
  for (const Planet& pl : p.planets) {
    json c = card_json(pl.card);
    c["r"] = value(pl.card.kind);
    c["harvest_size"] = pl.harvest.size();
    if (own) c["harvest"] = cards_json(pl.harvest);
    c["depleted"] = pl.depleted_turn >= 0;
    c["colony"] = pl.colony.id == kNoCard ? json(nullptr) : card_json(pl.colony);
    planets.push_back(c);
  }
  json gates = json::array();
  for (const Gate& g : p.gates) {
    json c = card_json(g.card);
    c["at"] = loc_json(g.at);
    c["usable"] = g.used_turn != s.turn;
    gates.push_back(c);
  }
  int resource_in_hand = 0;
  for (const Card& c : p.hand) resource_in_hand += is_resource_card(c.kind) ? 1 : 0;
  json out = {
      {"seat", seat},
      {"character", ch.key},
      {"hp", p.hp},
      {"max_hp", ch.hp},
      {"ship", ch.ship_key},
      {"ship_hp", p.ship_hp},
      {"max_ship_hp", ch.ship_hp},
      {"ship_at", loc_json(p.ship_at)},
      {"character_at", loc_json(p.char_at)},
      {"water", cards_json(p.water)},
      {"stars", cards_json(p.stars)},
      {"star_total", star_total(p)},
      {"elements", elements},
      {"planets", planets},
      {"planet_total", planet_total(p)},
      {"gates", gates},
      {"pods", cards_json(p.pods)},
      {"reinforcements",
       p.reinforcements.id == kNoCard ? json(nullptr) : json{{"id", p.reinforcements.id}, {"hp", p.reinforcements_hp}}},
      {"hand_size", p.hand.size()},
      {"hand_resource", resource_in_hand},
      {"hand_main", static_cast<int>(p.hand.size()) - resource_in_hand},
      {"resource_deck", p.resource_deck.size()},
      {"main_deck", p.main_deck.size()},
      {"discard", cards_json(p.discard)},
      {"void", cards_json(p.voided)},
      {"timewarp", p.timewarp < 0 ? json(nullptr) : json(p.timewarp == 1 ? "took" : "kept")},
      {"bonus_draw", p.bonus_draw},
      {"invasion_used", p.invasion_used}};
  if (own) out["hand"] = cards_json(p.hand);
  return out;
}

}  // namespace

const char* phase_name(Phase phase) {
  return kPhaseNames[static_cast<std::size_t>(phase)];
}
const char* end_name(End end) {
  return kEndNames[static_cast<std::size_t>(end)];
}

json card_json(const Card& card) {
  return {{"id", card.id}, {"card", info(card.kind).key}};
}

json loc_json(const Loc& at) {
  if (at.zone == Zone::none) return nullptr;
  json out = {{"zone", kZoneNames[static_cast<std::size_t>(at.zone)]}};
  if (at.zone == Zone::planet) out["planet"] = at.planet;
  return out;
}

// ---- config -------------------------------------------------------------------------------

json to_json(const Config& c) {
  return {{"deckout", c.deckout == DeckOut::literal_win ? "literal_win" : "loss"}, {"max_turns", c.max_turns}};
}

Result<Config> config_from_json(const json& j) {
  Config c;
  if (j.is_null()) return c;
  if (!j.is_object()) return fail(std::string("the config must be an object"));
  if (auto ok = only_keys(j, {"deckout", "max_turns"}); !ok) return fail(ok.error());
  if (j.contains("deckout")) {
    if (j.at("deckout") == "literal_win") {
      c.deckout = DeckOut::literal_win;
    } else if (j.at("deckout") == "loss") {
      c.deckout = DeckOut::loss;
    } else {
      return fail(fmt::format("\"deckout\" must be \"literal_win\" or \"loss\", got {}", j.at("deckout").dump()));
    }
  }
  if (j.contains("max_turns")) {
    const json& m = j.at("max_turns");
    if (!is_int(m) || m.get<std::int64_t>() < 1 || m.get<std::int64_t>() > kMaxMaxTurns) {
      return fail(fmt::format("\"max_turns\" must be a whole number in 1..{}, got {}", kMaxMaxTurns, m.dump()));
    }
    c.max_turns = m.get<int>();
  }
  return c;
}

json to_json(const SeatConfig& c) {
  return {{"character", info(c.character).key}, {"resource", deck_json(c.resource)}, {"main", deck_json(c.main)}};
}

Result<SeatConfig> seat_config_from_json(const json& j) {
  SeatConfig c = core_seat_config();
  if (j.is_null()) return c;
  if (!j.is_object()) return fail(std::string("a seat's configuration must be an object"));
  if (auto ok = only_keys(j, {"character", "resource", "main"}); !ok) return fail(ok.error());
  if (j.contains("character")) {
    if (!j.at("character").is_string()) return fail(std::string("\"character\" must be a string"));
    auto ch = character_from_key(j.at("character").get<std::string>());
    if (!ch) return fail(ch.error());
    c.character = *ch;
  }
  if (j.contains("resource")) {
    auto deck = deck_from_json(j.at("resource"), true, "resource");
    if (!deck) return fail(deck.error());
    c.resource = *deck;
  }
  if (j.contains("main")) {
    auto deck = deck_from_json(j.at("main"), false, "main");
    if (!deck) return fail(deck.error());
    c.main = *deck;
  }
  if (auto ok = check_seat_config(c); !ok) return fail(ok.error());
  return c;
}

std::string describe_seat_config(const json& canonical) {
  auto c = seat_config_from_json(canonical);
  if (!c) return canonical.dump();
  int resource = 0, main = 0;
  for (auto n : c->resource) resource += n;
  for (auto n : c->main) main += n;
  const bool core = c->resource == core_seat_config().resource && c->main == core_seat_config().main;
  return fmt::format("{} ({}), {} Resource + {} Main cards{}", info(c->character).name, info(c->character).ship_name,
                     resource, main, core ? " (IS-Core)" : "");
}

// ---- actions ------------------------------------------------------------------------------

json to_json(const Action& a) {
  json out = {{"kind", kActionNames[static_cast<std::size_t>(a.kind)]}};
  switch (a.kind) {
    case ActionKind::move:
    case ActionKind::pod:
      out["to"] = loc_json(a.to);
      break;
    case ActionKind::teleport:
      out["gate"] = a.card;
      break;
    case ActionKind::play:
      out["card"] = a.card;
      if (a.target != kNoCard) out["target"] = a.target;
      if (a.to.zone != Zone::none) out["to"] = loc_json(a.to);
      break;
    case ActionKind::attack:
      out["by"] = kUnitNames[static_cast<std::size_t>(a.unit)];
      if (a.target != kNoCard) out["target"] = a.target;  // the opponent's Reinforcements
      break;
    case ActionKind::invasion:
      out["planet"] = a.target;
      break;
    case ActionKind::force_field:
      out["card"] = a.card;
      break;
    default:
      break;
  }
  return out;
}

Result<Action> action_from_json(const json& j) {
  if (!j.is_object() || !j.contains("kind")) return fail(std::string("an action is an object with \"kind\""));
  auto kind = find_name(kActionNames, j.at("kind"), "action kind");
  if (!kind) return fail(kind.error());
  Action a{.kind = static_cast<ActionKind>(*kind)};
  auto need_id = [&](const char* key, CardId& into) -> Status {
    if (!j.contains(key)) return fail(fmt::format("\"{}\" needs \"{}\"", kActionNames[*kind], key));
    auto id = id_from_json(j.at(key), key);
    if (!id) return fail(id.error());
    into = *id;
    return {};
  };
  Status ok;
  switch (a.kind) {
    case ActionKind::move:
    case ActionKind::pod: {
      if (ok = only_keys(j, {"kind", "to"}); !ok) break;
      if (!j.contains("to")) {
        ok = fail(std::string("a move needs \"to\""));
        break;
      }
      auto to = loc_from_json(j.at("to"));
      if (!to) return fail(to.error());
      a.to = *to;
      break;
    }
    case ActionKind::teleport:
      if (ok = only_keys(j, {"kind", "gate"}); ok) ok = need_id("gate", a.card);
      break;
    case ActionKind::play:
      if (ok = only_keys(j, {"kind", "card", "target", "to"}); !ok) break;
      if (ok = need_id("card", a.card); !ok) break;
      if (j.contains("target") && j.contains("to")) {
        ok = fail(std::string("a play has \"target\" or \"to\", not both"));
        break;
      }
      if (j.contains("target")) ok = need_id("target", a.target);
      if (j.contains("to")) {
        auto to = loc_from_json(j.at("to"));
        if (!to) return fail(to.error());
        a.to = *to;
      }
      break;
    case ActionKind::attack: {
      if (ok = only_keys(j, {"kind", "by", "target"}); !ok) break;
      if (j.contains("target") && !(ok = need_id("target", a.target))) break;
      if (!j.contains("by")) {
        ok = fail(std::string("an attack needs \"by\": \"ship\" or \"character\""));
        break;
      }
      auto by = find_name(kUnitNames, j.at("by"), "attacker");
      if (!by || *by > 1)
        return fail(fmt::format("\"by\" must be \"ship\" or \"character\", got {}", j.at("by").dump()));
      a.unit = static_cast<Unit>(*by);
      break;
    }
    case ActionKind::invasion:
      if (ok = only_keys(j, {"kind", "planet"}); ok) ok = need_id("planet", a.target);
      break;
    case ActionKind::force_field:
      if (ok = only_keys(j, {"kind", "card"}); ok) ok = need_id("card", a.card);
      break;
    default:
      ok = only_keys(j, {"kind"});
      break;
  }
  if (!ok) return fail(ok.error());
  return a;
}

// ---- outcome and views ------------------------------------------------------------------------

json to_json(const Outcome& o) {
  return {{"end", end_name(o.end)},
          {"winner", o.winner < 0 ? json(nullptr) : json(o.winner)},
          {"hp", o.hp},
          {"ship_hp", o.ship_hp},
          {"turns", o.turns},
          {"scores", o.scores}};
}

json view(const State& s, Seat seat) {
  json players = json::array();
  for (int p = 0; p < kSeats; ++p) players.push_back(player_view(s, p, p == seat));
  const Player& me = s.players[idx(s.on_turn)];
  json turn = nullptr;
  if (s.phase == Phase::main || s.phase == Phase::reaction) {
    const auto next = [&](Unit by) { return attack_cost(s, s.on_turn, by); };
    turn = {{"seat", s.on_turn},
            {"moves", s.moves},
            {"moves_left", kMaxMoves - s.moves},
            {"actions", s.actions},
            {"artifacts", s.artifacts},
            {"ship_attacks", s.ship_attacks},
            {"character_attacks", s.character_attacks},
            {"bombards", s.bombards},
            {"played_card", s.played_card},
            {"next_ship_attack_ammo", next(Unit::ship)},
            {"next_character_attack_energy", next(Unit::character)}};
    (void)me;
  }
  json pending = nullptr;
  if (s.phase == Phase::reaction) {
    pending = {{"attacker", s.on_turn},
               {"by", kUnitNames[static_cast<std::size_t>(s.pending.by)]},
               {"target", kUnitNames[static_cast<std::size_t>(s.pending.target)]},
               {"base", base_damage(s, s.on_turn, s.pending.by)}};
  }
  return {{"game", "interstellar"},
          {"seat", seat},
          {"config", to_json(s.config)},
          {"phase", phase_name(s.phase)},
          {"turn", s.turn},
          {"start_player", s.start_player},
          {"on_turn", s.on_turn},
          {"to_act", s.phase == Phase::over ? json(nullptr) : json(to_act(s))},
          {"this_turn", turn},
          {"pending", pending},
          {"players", players},
          {"events", events_json(s.events)},
          {"last_events", events_json(s.last_events)},
          {"end", end_name(s.end)},
          {"winner", s.phase == Phase::over && s.winner >= 0 ? json(s.winner) : json(nullptr)}};
}

// ---- full state ---------------------------------------------------------------------------------

namespace {

json event_state(const Event& e) {
  return json::array({static_cast<int>(e.kind), e.seat, e.unit, e.target_unit, e.value, e.extra, e.card.id,
                      static_cast<int>(e.card.kind), e.target, static_cast<int>(e.at.zone), e.at.planet});
}

Result<Event> event_from_state(const json& j) {
  if (!j.is_array() || j.size() != 11) return fail(std::string("an event is an array of 11 numbers"));
  const int kind = j[0].get<int>(), card_kind = j[7].get<int>(), zone = j[9].get<int>();
  if (kind < 0 || kind >= static_cast<int>(kEventNames.size()) || card_kind < 0 || card_kind >= kKinds || zone < 0 ||
      zone > 3) {
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
          {"elements", elements},
          {"planets", planets},
          {"gates", gates},
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
  json rng_words = json::array();
  for (auto w : s.rng.state()) rng_words.push_back(fmt::format("{:016x}", w));
  json events = json::array(), last = json::array();
  for (const Event& e : s.events) events.push_back(event_state(e));
  for (const Event& e : s.last_events) last.push_back(event_state(e));
  return {{"config", to_json(s.config)},
          {"rng", rng_words},
          {"phase", phase_name(s.phase)},
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
          {"end", end_name(s.end)},
          {"winner", s.winner},
          {"events", events},
          {"last_events", last}};
}

Result<State> state_from_json(const json& j) {
  // The full state is produced by to_json above; this reader trusts its shape, and the caller
  // checks the values with check_invariants.
  try {
    State s;
    auto config = config_from_json(j.at("config"));
    if (!config) return fail(config.error());
    s.config = *config;
    std::array<std::uint64_t, 4> words{};
    for (std::size_t i = 0; i < 4; ++i) words[i] = std::stoull(j.at("rng").at(i).get<std::string>(), nullptr, 16);
    s.rng = Rng::from_state(words);
    auto phase = find_name(kPhaseNames, j.at("phase"), "phase");
    auto end = find_name(kEndNames, j.at("end"), "end");
    if (!phase) return fail(phase.error());
    if (!end) return fail(end.error());
    s.phase = static_cast<Phase>(*phase);
    s.end = static_cast<End>(*end);
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

std::uint64_t hash(const State& s) {
  return stable_hash(to_json(s).dump());
}

}  // namespace arena::interstellar
