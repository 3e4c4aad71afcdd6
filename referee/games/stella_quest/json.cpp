#include "referee/games/stella_quest/json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string>

#include "referee/core/index.hpp"
#include "referee/games/rng_json.hpp"

namespace arena::stella_quest {

using nlohmann::json;

namespace {

constexpr std::array<const char*, 4> kPhaseNames = {"play", "collect", "top", "over"};
constexpr std::array<const char*, 4> kKindNames = {"play", "draw", "collect", "top"};
constexpr std::array<const char*, 5> kEndNames = {"none", "enlightenment", "elimination", "trick_cap", "exhausted"};

Status only_keys(const json& j, std::initializer_list<const char*> keys) {
  for (const auto& [key, value] : j.items()) {
    if (std::none_of(keys.begin(), keys.end(), [&](const char* k) { return key == k; })) {
      return fail(fmt::format("unknown field \"{}\"", key));
    }
  }
  return {};
}

json names(const std::vector<CardId>& cards) {
  json out = json::array();
  for (CardId c : cards) out.push_back(card(c).name);
  return out;
}

json colours(const std::vector<CardId>& cards) {
  json out = json::array();
  for (CardId c : cards) out.push_back(colour_name(colour_of(c)));
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

template <std::size_t N>
Result<std::size_t> find_name(const std::array<const char*, N>& names_list, const std::string& name, const char* what) {
  auto it = std::find_if(names_list.begin(), names_list.end(), [&](const char* n) { return name == n; });
  if (it == names_list.end()) return fail(fmt::format("unknown {} \"{}\"", what, name));
  return static_cast<std::size_t>(it - names_list.begin());
}

json colour_json(Colour c) {
  return c == Colour::none ? json(nullptr) : json(colour_name(c));
}

Result<Colour> colour_from_json(const json& j) {
  if (j.is_null()) return Colour::none;
  for (int c = 0; c < kColours; ++c) {
    if (j == colour_name(static_cast<Colour>(c))) return static_cast<Colour>(c);
  }
  return fail(fmt::format("bad colour {}", j.dump()));
}

json trick_json(const std::vector<Play>& trick) {
  json out = json::array();
  for (const Play& p : trick) out.push_back({{"seat", seat_json(p.seat)}, {"card", card(p.card).name}});
  return out;
}

}  // namespace

const char* phase_name(Phase phase) {
  return kPhaseNames[static_cast<std::size_t>(phase)];
}
const char* end_name(End end) {
  return kEndNames[static_cast<std::size_t>(end)];
}

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
  json j = {{"kind", kKindNames[static_cast<std::size_t>(a.kind)]}};
  if (a.kind != ActionKind::draw) j["card"] = face_name(a.face);
  return j;
}

Result<Action> action_from_json(const json& j) {
  if (!j.is_object()) return fail(std::string("an action must be a JSON object"));
  auto kind_it = j.find("kind");
  if (kind_it == j.end() || !kind_it->is_string()) return fail(std::string("missing string \"kind\""));
  const std::string kind = kind_it->get<std::string>();
  if (kind == "draw") {
    if (auto st = only_keys(j, {"kind"}); !st) return fail("action \"draw\": " + st.error());
    return Action::draw();
  }
  if (kind != "play" && kind != "collect" && kind != "top") {
    return fail(fmt::format("unknown action kind \"{}\" (expected play, draw, collect or top)", kind));
  }
  if (auto st = only_keys(j, {"kind", "card"}); !st) return fail(fmt::format("action \"{}\": {}", kind, st.error()));
  auto card_it = j.find("card");
  if (card_it == j.end() || !card_it->is_string())
    return fail(fmt::format("action \"{}\": missing string \"card\"", kind));
  auto face = parse_face(card_it->get<std::string>());
  if (!face) return fail(fmt::format("action \"{}\": {}", kind, face.error()));
  if (kind == "play") return Action::play(*face);
  if (kind == "collect") return Action::collect(*face);
  return Action::top(*face);
}

// ---- outcome -----------------------------------------------------------------------------

json to_json(const Outcome& o) {
  json players = json::array();
  for (const PlayerScore& p : o.players) {
    players.push_back(
        {{"tokens", p.tokens}, {"jewels", p.jewels}, {"face_down", names(p.face_down)}, {"points", p.points}});
  }
  return {{"end", end_name(o.end)}, {"players", players}, {"scores", o.scores}, {"winners", o.winners}};
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
          {"phase", phase_name(s.phase)},
          {"deck", s.deck},
          {"discard", s.discard},
          {"players", players},
          {"marker", seat_json(s.marker)},
          {"start_player", s.start_player},
          {"leader", s.leader},
          {"trick", trick},
          {"leading_colour", colour_json(s.leading)},
          {"winner", seat_json(s.winner)},
          {"tricks", s.tricks},
          {"end", end_name(s.end)},
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
    auto phase = find_name(kPhaseNames, j.at("phase").get<std::string>(), "phase");
    if (!phase) return fail(phase.error());
    s.phase = static_cast<Phase>(*phase);
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
    auto end = find_name(kEndNames, j.at("end").get<std::string>(), "end");
    if (!end) return fail(end.error());
    s.end = static_cast<End>(*end);
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
    json pj = {{"seat", i},
               {"tokens", p.tokens},
               {"hand_size", p.hand.size()},
               {"hand_colours", colours(p.hand)},
               {"collection", names(p.collection)}};
    if (i == seat) pj["hand"] = names(p.hand);
    players.push_back(std::move(pj));
  }
  const CardId top = s.discard.back();
  const bool over = is_over(s);
  json v = {{"game", "stella_quest"},
            {"seat", seat},
            {"seats", s.seats},
            {"dummy", s.seats == 2},
            {"phase", phase_name(s.phase)},
            {"to_act", over ? json(nullptr) : json(to_act(s))},
            {"tricks_played", s.tricks},
            {"max_tricks", s.config.max_tricks},
            {"leader", s.leader},
            {"marker", seat_json(s.marker)},
            {"trump", colour_json(trump_colour(top))},
            // The trick's own: still the first non-break card's after the winner collected it.
            {"leading_colour", colour_json(s.leading)},
            {"trick", trick_json(s.trick)},
            {"winner", seat_json(s.winner)},
            {"discard", names(s.discard)},
            {"deck_size", s.deck.size()},
            {"deck_top_colour", s.deck.empty() ? json(nullptr) : json(colour_name(colour_of(s.deck.back())))},
            {"players", players}};
  if (over) v["end"] = end_name(s.end);
  return v;
}

}  // namespace arena::stella_quest
