#include "referee/games/interstellar/json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "referee/games/interstellar/json_parts.hpp"

namespace arena::interstellar {

using nlohmann::json;
using namespace json_parts;

// ---- the pieces of json_parts.hpp -------------------------------------------------------------

namespace json_parts {

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
  auto zone = enum_from_json<Zone>(j.at("zone"), "zone");
  if (!zone) return fail(zone.error());
  Loc at{*zone, kNoCard};
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

}  // namespace json_parts

namespace {

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

}  // namespace

json card_json(const Card& card) {
  json out;  // member by member: half the work of a {{key, value}, ...} list
  out["id"] = card.id;
  out["card"] = info(card.kind).key;
  return out;
}

json loc_json(const Loc& at) {
  if (at.zone == Zone::none) return nullptr;
  json out;
  out["zone"] = enum_name(at.zone);
  if (at.zone == Zone::planet) out["planet"] = at.planet;
  return out;
}

// ---- config -------------------------------------------------------------------------------

json to_json(const Config& c) {
  return {{"deckout", enum_name(c.deckout)}, {"max_turns", c.max_turns}};
}

Result<Config> config_from_json(const json& j) {
  Config c;
  if (j.is_null()) return c;
  if (!j.is_object()) return fail(std::string("the config must be an object"));
  if (auto ok = only_keys(j, {"deckout", "max_turns"}); !ok) return fail(ok.error());
  if (j.contains("deckout")) {
    const json& deckout = j.at("deckout");
    const auto value = enum_of_json<DeckOut>(deckout);
    if (!value) return fail(fmt::format("\"deckout\" must be {}, got {}", enum_names_text<DeckOut>(), deckout.dump()));
    c.deckout = *value;
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
  json out;
  out["kind"] = enum_name(a.kind);
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
      out["by"] = enum_name(a.unit);
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
  auto kind = enum_from_json<ActionKind>(j.at("kind"), "action kind");
  if (!kind) return fail(kind.error());
  Action a{.kind = *kind};
  auto need_id = [&](const char* key, CardId& into) -> Status {
    if (!j.contains(key)) return fail(fmt::format("\"{}\" needs \"{}\"", enum_name(a.kind), key));
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
      auto by = enum_from_json<Unit>(j.at("by"), "attacker");
      if (!by || *by == Unit::reinforcements)
        return fail(fmt::format("\"by\" must be \"ship\" or \"character\", got {}", j.at("by").dump()));
      a.unit = *by;
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
  return {{"end", enum_name(o.end)},
          {"winner", o.winner < 0 ? json(nullptr) : json(o.winner)},
          {"hp", o.hp},
          {"ship_hp", o.ship_hp},
          {"turns", o.turns},
          {"scores", o.scores}};
}

}  // namespace arena::interstellar
