#include "referee/games/stella_quest/json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string>

#include "referee/core/index.hpp"
#include "referee/games/json_read.hpp"
#include "referee/games/rng_json.hpp"

namespace arena::stella_quest {

using nlohmann::json;

namespace {

using games::enum_from_json;
using games::enum_of_json;
using games::only_keys;

json names(const std::vector<CardId>& cards) {
  json out = json::array();
  for (CardId c : cards) out.push_back(card(c).name);
  return out;
}

json colours(const std::vector<CardId>& cards) {
  json out = json::array();
  for (CardId c : cards) out.push_back(enum_name(colour_of(c)));
  return out;
}

json seat_json(std::int8_t seat) {
  if (seat == kDummy) return "dummy";
  if (seat == kNone) return nullptr;
  return seat;
}

Result<std::int8_t> seat_from_json(const json& j, int seats) {
  if (j.is_null()) return kNone;
  if (j == "dummy") return kDummy;
  if (j.is_number_integer() && j.get<int>() >= 0 && j.get<int>() < seats) return static_cast<std::int8_t>(j.get<int>());
  return fail(fmt::format("bad seat {}", j.dump()));
}

json colour_json(Colour c) {
  return c == Colour::none ? json(nullptr) : json(enum_name(c));
}

Result<Colour> colour_from_json(const json& j) {
  if (j.is_null()) return Colour::none;
  // A colour, never "break" (a break card leads no colour: null).
  const auto colour = enum_of_json<Colour>(j);
  if (!colour || *colour == Colour::none) return fail(fmt::format("bad colour {}", j.dump()));
  return *colour;
}

json trick_json(const std::vector<Play>& trick) {
  json out = json::array();
  for (const Play& p : trick) {
    json play;
    play["seat"] = seat_json(p.seat);
    play["card"] = card(p.card).name;
    out.push_back(std::move(play));
  }
  return out;
}

}  // namespace

// ---- config ------------------------------------------------------------------------------

json to_json(const Config& config) {
  return {{"max_tricks", config.max_tricks}};
}

Result<Config> config_from_json(const json& j) {
  Config config;
  if (j.is_null()) return config;
  if (!j.is_object()) return fail(std::string("stella_quest config: expected a JSON object"));
  if (auto st = only_keys(j, {"max_tricks"}); !st) return fail("stella_quest config: " + st.error());
  if (auto it = j.find("max_tricks"); it != j.end()) {
    if (!it->is_number_integer() || it->get<std::int64_t>() < 1 || it->get<std::int64_t>() > kMaxMaxTricks) {
      return fail(
          fmt::format("stella_quest config: max_tricks is {}, expected an integer 1..{}", it->dump(), kMaxMaxTricks));
    }
    config.max_tricks = it->get<int>();
  }
  return config;
}

// ---- action ------------------------------------------------------------------------------

json to_json(const Action& a) {
  json j;
  j["kind"] = enum_name(a.kind);
  if (a.kind != ActionKind::draw) j["card"] = face_name(a.face);
  return j;
}

Result<Action> action_from_json(const json& j) {
  if (!j.is_object()) return fail(std::string("an action must be a JSON object"));
  auto kind_it = j.find("kind");
  if (kind_it == j.end() || !kind_it->is_string()) return fail(std::string("missing string \"kind\""));
  auto kind = enum_from_json<ActionKind>(*kind_it, "action kind");
  if (!kind) return fail(kind.error());
  const std::string_view name = enum_name(*kind);
  if (*kind == ActionKind::draw) {
    if (auto st = only_keys(j, {"kind"}); !st) return fail("action \"draw\": " + st.error());
    return Action::draw();
  }
  if (auto st = only_keys(j, {"kind", "card"}); !st) return fail(fmt::format("action \"{}\": {}", name, st.error()));
  auto card_it = j.find("card");
  if (card_it == j.end() || !card_it->is_string())
    return fail(fmt::format("action \"{}\": missing string \"card\"", name));
  auto face = parse_face(card_it->get<std::string>());
  if (!face) return fail(fmt::format("action \"{}\": {}", name, face.error()));
  if (*kind == ActionKind::play) return Action::play(*face);
  if (*kind == ActionKind::collect) return Action::collect(*face);
  return Action::top(*face);
}

// ---- outcome -----------------------------------------------------------------------------

json to_json(const Outcome& o) {
  json players = json::array();
  for (const PlayerScore& p : o.players) {
    players.push_back(
        {{"tokens", p.tokens}, {"jewels", p.jewels}, {"face_down", names(p.face_down)}, {"points", p.points}});
  }
  return {{"end", enum_name(o.end)}, {"players", std::move(players)}, {"scores", o.scores}, {"winners", o.winners}};
}

// ---- full state --------------------------------------------------------------------------

json to_json(const State& s) {
  json players = json::array();
  for (const Player& p : s.players) {
    players.push_back({{"hand", p.hand}, {"collection", p.collection}, {"tokens", p.tokens}});
  }
  json trick = json::array();
  for (const Play& p : s.trick) trick.push_back({{"seat", seat_json(p.seat)}, {"card", p.card}});
  return {{"config", to_json(s.config)},
          {"rng", games::rng_to_json(s.rng)},
          {"seats", s.seats},
          {"phase", enum_name(s.phase)},
          {"deck", s.deck},
          {"discard", s.discard},
          {"players", std::move(players)},
          {"marker", seat_json(s.marker)},
          {"start_player", s.start_player},
          {"leader", s.leader},
          {"trick", std::move(trick)},
          {"leading_colour", colour_json(s.leading)},
          {"winner", seat_json(s.winner)},
          {"tricks", s.tricks},
          {"end", enum_name(s.end)},
          {"decided", seat_json(s.decided)}};
}

Result<State> state_from_json(const json& j) {
  // The full state is produced by to_json above; this reader trusts its shape but not its values.
  try {
    State s;
    auto config = config_from_json(j.at("config"));
    if (!config) return fail(config.error());
    s.config = *config;
    s.rng = games::rng_from_json(j.at("rng"));
    const int seats = j.at("seats").get<int>();
    if (seats < kMinSeats || seats > kMaxSeats) return fail(fmt::format("{} seats", seats));
    s.seats = static_cast<std::int8_t>(seats);
    auto phase = enum_from_json<Phase>(j.at("phase"), "phase");
    if (!phase) return fail(phase.error());
    s.phase = *phase;
    s.deck = j.at("deck").get<std::vector<CardId>>();
    s.discard = j.at("discard").get<std::vector<CardId>>();
    if (j.at("players").size() != idx(seats)) return fail(std::string("players do not match seats"));
    for (const json& pj : j.at("players")) {
      Player p;
      p.hand = pj.at("hand").get<std::vector<CardId>>();
      p.collection = pj.at("collection").get<std::vector<CardId>>();
      p.tokens = pj.at("tokens").get<std::int8_t>();
      s.players.push_back(std::move(p));
    }
    auto seat = [&](const char* key) { return seat_from_json(j.at(key), seats); };
    auto marker = seat("marker");
    auto winner = seat("winner");
    auto decided = seat("decided");
    if (!marker || !winner || !decided) return fail(std::string("a bad seat in marker, winner or decided"));
    s.marker = *marker;
    s.winner = *winner;
    s.decided = *decided;
    s.start_player = j.at("start_player").get<std::int8_t>();
    s.leader = j.at("leader").get<std::int8_t>();
    for (const json& pj : j.at("trick")) {
      auto who = seat_from_json(pj.at("seat"), seats);
      if (!who) return fail(who.error());
      s.trick.push_back(Play{*who, pj.at("card").get<CardId>()});
    }
    auto leading = colour_from_json(j.at("leading_colour"));
    if (!leading) return fail("leading_colour: " + leading.error());
    s.leading = *leading;
    s.tricks = j.at("tricks").get<std::int32_t>();
    auto end = enum_from_json<End>(j.at("end"), "end");
    if (!end) return fail(end.error());
    s.end = *end;
    if (auto st = check_invariants(s); !st) return fail("inconsistent state: " + st.error());
    return s;
  } catch (const std::exception& e) {
    return fail(fmt::format("malformed state: {}", e.what()));
  }
}

// ---- view --------------------------------------------------------------------------------

json view(const State& s, Seat seat) {
  json players = json::array();
  for (int i = 0; i < s.seats; ++i) {
    const Player& p = s.players[idx(i)];
    json pj;
    pj["seat"] = i;
    pj["tokens"] = p.tokens;
    pj["hand_size"] = p.hand.size();
    pj["hand_colours"] = colours(p.hand);
    pj["collection"] = names(p.collection);
    if (i == seat) pj["hand"] = names(p.hand);
    players.push_back(std::move(pj));
  }
  const CardId top = s.discard.back();
  const bool over = is_over(s);
  // Member by member (views are built at every decision of a search): a {{key, value}, ...} list
  // builds each pair as an array first, twice the allocations.
  json v;
  v["game"] = "stella_quest";
  v["seat"] = seat;
  v["seats"] = s.seats;
  v["dummy"] = s.seats == 2;
  v["phase"] = enum_name(s.phase);
  v["to_act"] = over ? json(nullptr) : json(to_act(s));
  v["tricks_played"] = s.tricks;
  v["max_tricks"] = s.config.max_tricks;
  v["leader"] = s.leader;
  v["marker"] = seat_json(s.marker);
  v["trump"] = colour_json(trump_colour(top));
  // The trick's own: still the first non-break card's after the winner collected it.
  v["leading_colour"] = colour_json(s.leading);
  v["trick"] = trick_json(s.trick);
  v["winner"] = seat_json(s.winner);
  v["discard"] = names(s.discard);
  v["deck_size"] = s.deck.size();
  v["deck_top_colour"] = s.deck.empty() ? json(nullptr) : json(enum_name(colour_of(s.deck.back())));
  v["players"] = std::move(players);
  if (over) v["end"] = enum_name(s.end);
  return v;
}

}  // namespace arena::stella_quest
