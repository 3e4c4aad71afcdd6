#include "referee/games/stellar/json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string>

#include "referee/core/index.hpp"
#include "referee/games/json_read.hpp"
#include "referee/games/rng_json.hpp"
#include "referee/games/view_cards.hpp"

namespace arena::stellar {

using nlohmann::json;

namespace {

using games::enum_from_json;
using games::enum_of_json;
using games::only_keys;

// Reads an integer field in [lo, hi]; the error names the field and what was found.
Result<int> int_field(const json& j, const char* key, int lo, int hi) {
  auto it = j.find(key);
  if (it == j.end()) return fail(fmt::format("missing \"{}\"", key));
  if (!it->is_number_integer()) return fail(fmt::format("\"{}\" must be an integer, got {}", key, it->dump()));
  const auto v = it->get<std::int64_t>();
  if (v < lo || v > hi) return fail(fmt::format("\"{}\" is {}, expected {}..{}", key, v, lo, hi));
  return static_cast<int>(v);
}

Result<std::string> string_field(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_string()) return fail(fmt::format("missing string \"{}\"", key));
  return it->get<std::string>();
}

Result<bool> face_field(const json& j) {
  auto face = string_field(j, "face");
  if (!face) return fail(face.error());
  if (*face == "up") return true;
  if (*face == "down") return false;
  return fail(fmt::format("\"face\" is \"{}\", expected \"up\" or \"down\"", *face));
}

}  // namespace

json card_json(const State& s, int id) {
  json j = card_to_json(card(s, id), static_cast<CardId>(id));
  if (s.own) j["owner"] = owner(s, id);
  return j;
}

namespace {

// A view's cards (games::ViewCardNamer), by id: card_json's objects; with own decks, the other
// seat's cards are the ones the seat's card table lacks.
struct ViewCards {
  using Card = int;
  const State& s;
  Seat seat;

  int id(int card) const { return card; }
  json object(int card) const { return card_json(s, card); }
  bool foreign(int card) const { return s.own && owner(s, card) != seat; }
};
using CardNamer = games::ViewCardNamer<ViewCards>;

json telescope_json(CardNamer& name, const Player& p, bool owner) {
  json out = json::array();
  for (const Slot& slot : p.telescope) {
    if (slot.empty()) {
      out.push_back(nullptr);
    } else {
      json entry;
      entry["face"] = slot.face_up ? "up" : "down";
      if (slot.face_up || owner || slot.seen) entry["card"] = name(slot.card);
      out.push_back(std::move(entry));
    }
  }
  return out;
}

json opt(std::int16_t v) {
  return v == kNone ? json(nullptr) : json(v);
}

}  // namespace

// ---- config ------------------------------------------------------------------------------

json to_json(const Config& config) {
  json j = {{"facedown_step3", enum_name(config.facedown_step3)}};
  if (config.deck != standard_deck()) j["deck"] = deck_to_json(config.deck);
  return j;
}

Result<Config> config_from_json(const json& j) {
  Config config;
  if (j.is_null()) return config;
  if (!j.is_object()) return fail(std::string("stellar config: expected a JSON object"));
  if (auto st = only_keys(j, {"facedown_step3", "deck"}); !st) return fail("stellar config: " + st.error());
  if (auto it = j.find("facedown_step3"); it != j.end()) {
    const auto value = enum_of_json<FacedownStep3>(*it);
    if (!value) {
      return fail(fmt::format("stellar config: facedown_step3 is {}, expected {}", it->dump(),
                              enum_names_text<FacedownStep3>()));
    }
    config.facedown_step3 = *value;
  }
  if (auto it = j.find("deck"); it != j.end()) {
    auto deck = parse_deck(*it);
    if (!deck) return fail("stellar config: " + deck.error());
    config.deck = std::move(deck).value();
  }
  return config;
}

// ---- seat config -------------------------------------------------------------------------

Result<SeatConfig> seat_config_from_json(const json& j) {
  SeatConfig config;
  if (j.is_null()) return config;
  if (!j.is_object())
    return fail(std::string("a Stellar seat configuration is a JSON object ({\"deck\": [...]}) or null"));
  if (auto st = only_keys(j, {"deck"}); !st)
    return fail(st.error() + " (a Stellar seat configuration takes only \"deck\")");
  if (auto it = j.find("deck"); it != j.end() && !it->is_null()) {
    auto deck = parse_deck(*it);
    if (!deck) return fail(deck.error());
    config.deck = std::move(deck).value();
  }
  return config;
}

json to_json(const SeatConfig& config) {
  if (!config.deck) return nullptr;
  return {{"deck", deck_to_json(*config.deck)}};
}

Result<json> card_table_json(const Config& config, const std::array<SeatConfig, kSeats>& seats) {
  auto cards = match_cards(config, seats);
  if (!cards) return fail(cards.error());
  json out = json::array();
  for (std::size_t id = 0; id < cards->cards.size(); ++id) {
    json j = card_to_json(cards->cards[id], static_cast<CardId>(id));
    if (cards->seat1_first != kNone) j["owner"] = static_cast<int>(id) >= cards->seat1_first ? 1 : 0;
    out.push_back(std::move(j));
  }
  return out;
}

// ---- action ------------------------------------------------------------------------------

json to_json(const Action& a) {
  json j;
  j["kind"] = enum_name(a.kind);
  switch (a.kind) {
    case ActionKind::choose_starter:
      j["card"] = a.card;
      break;
    case ActionKind::refresh:
      j["accept"] = a.accept;
      break;
    case ActionKind::take:
      j["slot"] = a.slot + 1;
      break;
    case ActionKind::play:
      j["card"] = a.card;
      j["area"] = a.area == Area::telescope ? "telescope" : "notebook";
      if (a.area == Area::telescope) {
        j["slot"] = a.slot + 1;
        j["face"] = a.face_up ? "up" : "down";
      }
      break;
    case ActionKind::place:
      j["slot"] = a.slot + 1;
      j["face"] = a.face_up ? "up" : "down";
      break;
    case ActionKind::keep:
      j["card"] = a.card;
      break;
  }
  return j;
}

Result<Action> action_from_json(const json& j) {
  if (!j.is_object()) return fail(std::string("an action must be a JSON object"));
  auto name = string_field(j, "kind");
  if (!name) return fail(name.error());
  auto kind = enum_from_json<ActionKind>(j.at("kind"), "action kind");
  if (!kind) return fail(kind.error());
  auto wrap = [&](Status st) -> Status {
    if (!st) return fail(fmt::format("action \"{}\": {}", *name, st.error()));
    return {};
  };
  switch (*kind) {
    case ActionKind::choose_starter:
    case ActionKind::keep: {
      if (auto st = wrap(only_keys(j, {"kind", "card"})); !st) return fail(st.error());
      auto c = int_field(j, "card", 0, 254);
      if (!c) return fail(fmt::format("action \"{}\": {}", *name, c.error()));
      return *kind == ActionKind::keep ? Action::keep(*c) : Action::choose_starter(*c);
    }
    case ActionKind::refresh: {
      if (auto st = wrap(only_keys(j, {"kind", "accept"})); !st) return fail(st.error());
      auto it = j.find("accept");
      if (it == j.end() || !it->is_boolean())
        return fail(std::string("action \"refresh\": \"accept\" must be true or false"));
      return Action::refresh(it->get<bool>());
    }
    case ActionKind::take: {
      if (auto st = wrap(only_keys(j, {"kind", "slot"})); !st) return fail(st.error());
      auto slot = int_field(j, "slot", 1, kRowSlots);
      if (!slot) return fail("action \"take\": " + slot.error());
      return Action::take(*slot - 1);
    }
    case ActionKind::place: {
      if (auto st = wrap(only_keys(j, {"kind", "slot", "face"})); !st) return fail(st.error());
      auto slot = int_field(j, "slot", 1, kTelescopeSlots);
      if (!slot) return fail("action \"place\": " + slot.error());
      auto face = face_field(j);
      if (!face) return fail("action \"place\": " + face.error());
      return Action::place(*slot - 1, *face);
    }
    case ActionKind::play:
      break;  // read below: a play to the notebook or to a telescope slot
  }
  auto c = int_field(j, "card", 0, 254);
  if (!c) return fail("action \"play\": " + c.error());
  auto area = string_field(j, "area");
  if (!area) return fail("action \"play\": " + area.error());
  if (*area == "notebook") {
    if (auto st = wrap(only_keys(j, {"kind", "card", "area"})); !st) return fail(st.error());
    return Action::play_notebook(*c);
  }
  if (*area != "telescope")
    return fail(fmt::format("action \"play\": \"area\" is \"{}\", expected \"telescope\" or \"notebook\"", *area));
  if (auto st = wrap(only_keys(j, {"kind", "card", "area", "slot", "face"})); !st) return fail(st.error());
  auto slot = int_field(j, "slot", 1, kTelescopeSlots);
  if (!slot) return fail("action \"play\": " + slot.error());
  auto face = face_field(j);
  if (!face) return fail("action \"play\": " + face.error());
  return Action::play_telescope(*c, *slot - 1, *face);
}

// ---- full state --------------------------------------------------------------------------

json to_json(const State& s) {
  json players = json::array();
  for (const Player& p : s.players) {
    json telescope = json::array();
    for (const Slot& slot : p.telescope) {
      telescope.push_back(slot.empty() ? json(nullptr)
                                       : json({{"card", slot.card}, {"face_up", slot.face_up}, {"seen", slot.seen}}));
    }
    players.push_back({{"starters", p.starters},
                       {"starter_choice", opt(p.starter_choice)},
                       {"hand", p.hand},
                       {"telescope", std::move(telescope)},
                       {"notebook", p.notebook},
                       {"keep_choice", opt(p.keep_choice)}});
  }
  json row = json::array();
  for (auto c : s.row) row.push_back(opt(c));
  json out = {{"config", to_json(s.config)},
              {"rng", games::rng_to_json(s.rng)},
              {"phase", enum_name(s.phase)},
              {"start_player", s.start_player},
              {"turn", s.turn},
              {"row", std::move(row)},
              {"deck", s.deck},
              {"discard", s.discard},
              {"players", std::move(players)},
              {"refresh_pending", s.refresh_pending},
              {"placing", opt(s.placing)},
              {"last_step3_slot", s.last_step3_slot == kNone ? json(nullptr) : json(s.last_step3_slot + 1)}};
  if (s.own) {
    // Each seat's list (null: the match deck), its deck (back = top) and its discard pile.
    const OwnDecks& own = *s.own;
    const auto split = own.cards.begin() + own.seat1_first;
    const std::array<Deck, kSeats> lists = {Deck(own.cards.begin(), split), Deck(split, own.cards.end())};
    json seats = json::array();
    for (std::size_t seat = 0; seat < kSeats; ++seat) {
      seats.push_back({{"list", s.config.deck == lists[seat] ? json(nullptr) : deck_to_json(lists[seat])},
                       {"deck", own.deck[seat]},
                       {"discard", own.discard[seat]}});
    }
    out["own_decks"] = std::move(seats);
  }
  return out;
}

Result<State> state_from_json(const json& j) {
  // The full state is produced by to_json above; this reader trusts its shape but not its values
  // (it is only fed files the project wrote, and refuses anything inconsistent).
  try {
    State s;
    auto config = config_from_json(j.at("config"));
    if (!config) return fail(config.error());
    s.config = std::move(config).value();
    s.rng = games::rng_from_json(j.at("rng"));
    auto phase = enum_from_json<Phase>(j.at("phase"), "phase");
    if (!phase) return fail(phase.error());
    s.phase = *phase;
    s.start_player = j.at("start_player").get<std::int8_t>();
    s.turn = j.at("turn").get<std::int8_t>();
    for (std::size_t i = 0; i < kRowSlots; ++i) {
      s.row[i] = j.at("row").at(i).is_null() ? kNone : j.at("row").at(i).get<std::int16_t>();
    }
    s.deck = j.at("deck").get<std::vector<CardId>>();
    s.discard = j.at("discard").get<std::vector<CardId>>();
    for (std::size_t seat = 0; seat < kSeats; ++seat) {
      const json& pj = j.at("players").at(seat);
      Player& p = s.players[seat];
      p.starters = pj.at("starters").get<std::array<std::int16_t, 2>>();
      p.starter_choice = pj.at("starter_choice").is_null() ? kNone : pj.at("starter_choice").get<std::int16_t>();
      p.keep_choice = pj.at("keep_choice").is_null() ? kNone : pj.at("keep_choice").get<std::int16_t>();
      p.hand = pj.at("hand").get<std::vector<CardId>>();
      p.notebook = pj.at("notebook").get<std::vector<CardId>>();
      for (std::size_t i = 0; i < kTelescopeSlots; ++i) {
        const json& sj = pj.at("telescope").at(i);
        p.telescope[i] = sj.is_null() ? Slot{}
                                      : Slot{sj.at("card").get<std::int16_t>(), sj.at("face_up").get<bool>(),
                                             sj.value("seen", false)};
      }
    }
    s.refresh_pending = j.at("refresh_pending").get<bool>();
    s.placing = j.at("placing").is_null() ? kNone : j.at("placing").get<std::int16_t>();
    s.last_step3_slot = j.at("last_step3_slot").is_null()
                            ? std::int8_t{kNone}
                            : static_cast<std::int8_t>(j.at("last_step3_slot").get<int>() - 1);
    if (auto own_it = j.find("own_decks"); own_it != j.end()) {
      std::array<SeatConfig, kSeats> seats;
      for (std::size_t seat = 0; seat < kSeats; ++seat) {
        const json& list = own_it->at(seat).at("list");
        if (list.is_null()) {
          seats[seat].deck = s.config.deck.cards();
        } else {
          auto deck = parse_deck(list);
          if (!deck) return fail(fmt::format("own decks: seat {}: {}", seat, deck.error()));
          seats[seat].deck = std::move(deck).value();
        }
      }
      auto cards = match_cards(s.config, seats);
      if (!cards) return fail(cards.error());
      OwnDecks own{std::move(cards->cards), cards->seat1_first, {}, {}};
      for (std::size_t seat = 0; seat < kSeats; ++seat) {
        own.deck[seat] = own_it->at(seat).at("deck").get<std::vector<CardId>>();
        own.discard[seat] = own_it->at(seat).at("discard").get<std::vector<CardId>>();
      }
      s.own = std::move(own);
    }
    if (auto st = check_invariants(s); !st) return fail("inconsistent state: " + st.error());
    return s;
  } catch (const json::exception& e) {
    return fail(fmt::format("malformed state: {}", e.what()));
  } catch (const std::exception& e) {
    return fail(fmt::format("malformed state: {}", e.what()));
  }
}

// ---- view --------------------------------------------------------------------------------

namespace {

json view_of(const State& s, Seat seat, bool by_id) {
  CardNamer name({s, seat}, by_id);
  json players = json::array();
  for (int i = 0; i < kSeats; ++i) {
    const Player& p = s.players[idx(i)];
    const bool own = i == seat;
    json pj;
    pj["seat"] = i;
    pj["hand_size"] = p.hand.size();
    pj["telescope"] = telescope_json(name, p, own);
    pj["notebook"] = name.list(p.notebook);
    if (own) pj["hand"] = name.list(p.hand);
    if (s.phase == Phase::choose_starter) {
      pj["starter_chosen"] = p.starter_choice != kNone;
      if (own) {
        pj["starters"] = json::array({name(p.starters[0]), name(p.starters[1])});
        pj["starter_choice"] = opt(p.starter_choice);
      }
    }
    if (s.phase == Phase::keep) {
      pj["keep_chosen"] = p.keep_choice != kNone;
      if (own) pj["keep_choice"] = opt(p.keep_choice);
    }
    players.push_back(std::move(pj));
  }
  json row = json::array();
  for (auto c : s.row) row.push_back(c == kNone ? json(nullptr) : name(c));
  // Member by member, as the players' entries above (a search builds a view at every decision): a
  // {{key, value}, ...} list builds each pair as an array first, about twice the work.
  json v;
  v["game"] = "stellar";
  v["seat"] = seat;
  v["phase"] = enum_name(s.phase);
  v["round"] = round_of(s);
  v["turn"] = s.turn;
  v["start_player"] = s.phase == Phase::choose_starter ? json(nullptr) : json(s.start_player);
  v["to_act"] = is_over(s) ? json(nullptr) : json(to_act(s));
  v["row"] = std::move(row);
  v["deck_size"] = deck_of(s, seat).size();
  v["discard"] = name.list(discard_of(s, seat));
  v["players"] = std::move(players);
  v["refresh_available"] = s.refresh_pending;
  v["placing"] = s.placing == kNone ? json(nullptr) : name(s.placing);
  v["last_step3_slot"] = s.last_step3_slot == kNone ? json(nullptr) : json(s.last_step3_slot + 1);
  v["config"]["facedown_step3"] = enum_name(s.config.facedown_step3);
  if (s.own) {
    json decks = json::array();
    for (int i = 0; i < kSeats; ++i) {
      json deck;
      deck["seat"] = i;
      deck["deck_size"] = deck_of(s, i).size();
      deck["discard"] = name.list(discard_of(s, i));
      decks.push_back(std::move(deck));
    }
    v["decks"] = std::move(decks);
  }
  name.add_foreign_cards(v);
  return v;
}

}  // namespace

json view(const State& s, Seat seat) {
  return view_of(s, seat, false);
}

json view_v2(const State& s, Seat seat) {
  return view_of(s, seat, true);
}

}  // namespace arena::stellar
