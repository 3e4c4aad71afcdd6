// The rules library (library/, docs/library.md) against what the referee sends: every game's
// golden transcript (a real match, both protocol versions) replayed through stellar_arena::Game
// gives the same hello card tables, views (as JSON and as text), legal lists and result; clones
// are independent; determinize keeps the seat's view and legal list and redraws the rest; bad
// input is an Error naming the problem.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <string>

#include "referee/games/game.hpp"
#include "stellar_arena/game.hpp"
#include "tests/games/conformance.hpp"  // testing::sanitizer_stride

namespace {

using stellar_arena::Error;
using stellar_arena::Game;
using stellar_arena::json;

std::vector<json> read_lines(const std::filesystem::path& path) {
  std::ifstream in(path);
  REQUIRE(in);
  std::vector<json> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(json::parse(line));
  return lines;
}

std::string line_of(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace

TEST_CASE("library: every game's golden transcript, replayed through the library") {
  const std::vector<std::string> names = stellar_arena::game_names();
  REQUIRE(names.size() == 3);
  for (const std::string& name : names) {
    const auto path = std::filesystem::path(ARENA_SOURCE_DIR) / "referee/games" / name / "transcripts/match.jsonl";
    INFO(path.string());
    const std::vector<json> lines = read_lines(path);
    const json& header = lines.at(0).at("transcript");
    const json& hello = lines.at(1).at("line");
    REQUIRE(hello.at("type") == "hello");
    Game game(name, header.at("seed").get<std::uint64_t>(), hello.at("config"), {}, header.at("seats").get<int>());
    CHECK(game.config() == hello.at("config"));
    for (const json& index : header.at("prefix")) game.apply_index(index.get<std::size_t>());
    std::vector<int> version(static_cast<std::size_t>(game.seats()), 1);
    int requests = 0;
    bool over = false;
    for (std::size_t i = 1; i < lines.size(); ++i) {
      const int seat = lines[i].at("seat").get<int>();
      const json& line = lines[i].at("line");
      const std::string type = line.at("type").get<std::string>();
      INFO("line " << i + 1 << " " << type << " seat " << seat);
      if (type == "hello") {
        if (line.contains("cards")) CHECK(game.card_table(seat) == line.at("cards"));
      } else if (type == "ready") {
        version[static_cast<std::size_t>(seat)] = line.value("protocol", 1);
      } else if (type == "request") {
        const int v = version[static_cast<std::size_t>(seat)];
        REQUIRE(game.to_act() == seat);
        CHECK(game.view(seat, v) == line.at("view"));
        CHECK(game.view_text(seat, v) == line_of(line.at("view")));
        CHECK(json(game.legal_actions()) == line.at("legal"));
        CHECK(game.legal_count() == line.at("legal").size());
        ++requests;
      } else if (type == "action") {
        game.apply(line.at("action"));
      } else if (type == "game_over") {
        const json& result = line.at("result");
        REQUIRE(result.at("end") == "finished");
        REQUIRE(game.is_over());
        CHECK_FALSE(game.to_act().has_value());
        CHECK(json(game.scores()) == result.at("scores"));
        CHECK(game.outcome() == result.at("outcome"));
        over = true;
      }
    }
    CHECK(requests > 0);
    CHECK(over);
  }
}

TEST_CASE("library: a clone goes its own way, and rollout plays to the end") {
  for (const std::string& name : stellar_arena::game_names()) {
    INFO(name);
    Game game(name, 11);
    const std::string before = game.state_hash();
    Game copy = game.clone();
    CHECK(copy.state_hash() == before);
    const std::vector<double> scores = copy.rollout(5);
    CHECK(copy.is_over());
    CHECK(copy.scores() == scores);
    CHECK(copy.legal_actions().empty());
    CHECK_FALSE(game.is_over());
    CHECK(game.state_hash() == before);
    // The same seed plays the same game.
    Game again = game.clone();
    CHECK(again.rollout(5) == scores);
    CHECK(again.state_hash() == copy.state_hash());
  }
}

TEST_CASE("library: determinize keeps what the seat saw and redraws what it did not") {
  for (const std::string& name : stellar_arena::game_names()) {
    INFO(name);
    int compared = 0;
    std::set<std::string> hidden_dealt;  // distinct full states behind one view
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      Game game(name, seed);
      for (std::uint64_t step = 0; !game.is_over(); ++step) {
        const int seat = *game.to_act();
        if (step % 5 == 0) {
          for (int s = 0; s < game.seats(); ++s) {
            const Game d = game.determinize(s, seed * 1000 + step);
            INFO("seed " << seed << " step " << step << " seat " << s);
            CHECK(d.view(s, 1) == game.view(s, 1));
            CHECK(d.view_text(s, 2) == game.view_text(s, 2));
            CHECK(d.view_hash(s) == game.view_hash(s));
            CHECK(d.to_act() == game.to_act());
            if (s == seat) CHECK(d.legal_actions() == game.legal_actions());
            // Determinizing again from the same seed gives the same state.
            CHECK(game.determinize(s, seed * 1000 + step).state_hash() == d.state_hash());
            hidden_dealt.insert(d.state_hash());
            ++compared;
          }
        }
        game.apply_index(static_cast<std::size_t>(step * 7 % game.legal_count()));
      }
    }
    CHECK(compared > 20);
    // Far more distinct states than the games played: the hidden cards were redrawn.
    CHECK(hidden_dealt.size() > static_cast<std::size_t>(compared) / 2);
  }
}

TEST_CASE("library: bad input is an error naming the problem, and changes nothing") {
  CHECK_THROWS_WITH(Game("chess", 1), Catch::Contains("unknown game \"chess\""));
  CHECK_THROWS_WITH(Game("stellar", 1, json{{"no_such_option", 1}}), Catch::Contains("stellar: config"));
  CHECK_THROWS_WITH(Game("stellar", 1, nullptr, {}, 7), Catch::Contains("7 seats"));
  Game game("stella_quest", 3);
  const std::string before = game.state_hash();
  CHECK_THROWS_AS(game.apply(json{{"kind", "fly"}}), Error);
  CHECK_THROWS_WITH(game.apply_index(999), Catch::Contains("legal action 999"));
  CHECK_THROWS_WITH(game.view(5), Catch::Contains("seat 5"));
  CHECK_THROWS_WITH(game.view(0, 3), Catch::Contains("protocol 3"));
  CHECK_THROWS_WITH(game.scores(), Catch::Contains("not over"));
  CHECK(game.state_hash() == before);
  CHECK_THROWS_WITH(Game::from_replay("/nonexistent/replay.jsonl", 0), Catch::Contains("/nonexistent/replay.jsonl"));
}

TEST_CASE("library: from_request rebuilds a Stella Quest game from what one seat was sent") {
  int rebuilt = 0;
  for (int seats = 2; seats <= 4; ++seats) {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      Game game("stella_quest", seed, nullptr, {}, seats);
      for (std::uint64_t step = 0; !game.is_over(); ++step) {
        const int seat = *game.to_act();
        if (step % 3 == 0) {
          INFO("seats " << seats << " seed " << seed << " step " << step);
          for (int protocol = 1; protocol <= 2; ++protocol) {
            const json request = {{"type", "request"},
                                  {"seat", seat},
                                  {"protocol", protocol},
                                  {"view", game.view(seat, protocol)},
                                  {"legal", game.legal_actions()}};
            Game r = Game::from_request("stella_quest", request, step);
            CHECK(r.view_text(seat, 1) == game.view_text(seat, 1));
            CHECK(r.legal_actions() == game.legal_actions());
            CHECK(r.to_act() == seat);
            CHECK(Game::from_request("stella_quest", request, step).state_hash() == r.state_hash());
            // A rebuilt game is a whole game: it plays to the end.
            r.rollout(step);
            CHECK(r.is_over());
            ++rebuilt;
          }
        }
        game.apply_index(static_cast<std::size_t>(step * 5 % game.legal_count()));
      }
    }
  }
  CHECK(rebuilt > 100);
}

namespace {

// Every decision, or every 4th under AddressSanitizer (the same paths at every step).
constexpr std::uint64_t kRebuildStride = arena::testing::sanitizer_stride(4);

// Plays a match of `name` (the config and seat configs as given) with arbitrary legal actions and
// rebuilds it from the acting seat's request at every decision (protocol 1's, and 2's when
// `protocols` is 2): the same views (both protocol
// versions), legal list and seat to act; the same seed gives the same state; every `rollout_every`
// decisions the rebuilt game plays to the end. Returns the decisions rebuilt.
int rebuild_every_decision(const std::string& name, std::uint64_t seed, const json& config,
                           const std::vector<json>& seat_configs, std::uint64_t rollout_every, int protocols) {
  int rebuilt = 0;
  Game game(name, seed, config, seat_configs);
  for (std::uint64_t step = 0; !game.is_over(); ++step) {
    const int seat = *game.to_act();
    INFO(name << " seed " << seed << " config " << config.dump() << " step " << step);
    for (int protocol = 1; protocol <= protocols && step % kRebuildStride == 0; ++protocol) {
      const json request = {{"type", "request"},
                            {"seat", seat},
                            {"protocol", protocol},
                            {"view", game.view(seat, protocol)},
                            {"legal", game.legal_actions()}};
      Game r = Game::from_request(name, request, step, config, seat_configs);
      CHECK(r.view_text(seat, 1) == game.view_text(seat, 1));
      CHECK(r.view_text(seat, 2) == game.view_text(seat, 2));
      CHECK(r.legal_actions() == game.legal_actions());
      CHECK(r.to_act() == seat);
      CHECK(Game::from_request(name, request, step, config, seat_configs).state_hash() == r.state_hash());
      if (step % rollout_every == 0) {
        r.rollout(step);
        CHECK(r.is_over());
      }
      ++rebuilt;
    }
    game.apply_index(static_cast<std::size_t>(step * 7 % game.legal_count()));
  }
  return rebuilt;
}

}  // namespace

TEST_CASE("library: from_request rebuilds a Stellar game at every decision, hidden cards drawn anew") {
  int rebuilt = 0;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    for (const json& config : {json(nullptr), json{{"facedown_step3", "printed"}}})
      rebuilt += rebuild_every_decision("stellar", seed, config, {}, 4, 1);
  }
  CHECK(rebuilt > 300 / static_cast<int>(kRebuildStride));
  // Stellar's protocol-2 views name cards by id: a protocol-1 request is needed.
  Game game("stellar", 5);
  const json v2 = {{"seat", 0}, {"protocol", 2}, {"view", game.view(0, 2)}};
  CHECK_THROWS_WITH(Game::from_request("stellar", v2, 1), Catch::Contains("protocol-1"));
}

TEST_CASE("library: from_request refuses Stellar views it cannot rebuild") {
  Game game("stellar", 6);
  while (game.to_act() && game.view(*game.to_act(), 1).at("phase") == "choose_starter") game.apply_index(0);
  const int seat = *game.to_act();
  const json request = {{"seat", seat}, {"protocol", 1}, {"view", game.view(seat, 1)}};
  json twice = request;
  twice["view"]["discard"].push_back(twice["view"]["row"][0]);
  CHECK_THROWS_WITH(Game::from_request("stellar", twice, 1), Catch::Contains("shown twice"));
  json foreign = request;
  foreign["view"]["row"][0]["stars"] = 3;
  foreign["view"]["row"][0]["name"] = "Homemade 1";
  CHECK_THROWS_WITH(Game::from_request("stellar", foreign, 1), Catch::Contains("not one of the standard deck"));
  json deck = request;
  deck["view"]["deck_size"] = 3;
  CHECK_THROWS_WITH(Game::from_request("stellar", deck, 1), Catch::Contains("unseen"));
  json start = request;
  start["view"]["start_player"] = -1;
  CHECK_THROWS_WITH(Game::from_request("stellar", start, 1), Catch::Contains("start player"));
  // A match played with own decks: the other seat's list is not in the view.
  json list = json::array();
  for (json c : game.card_table(0)) {
    c.erase("id");
    list.push_back(c);
  }
  Game own("stellar", 6, nullptr, {json{{"deck", list}}, nullptr});
  const json own_request = {{"seat", 0}, {"protocol", 1}, {"view", own.view(0, 1)}};
  CHECK_THROWS_WITH(Game::from_request("stellar", own_request, 1), Catch::Contains("own decks"));
}

TEST_CASE("library: from_request refuses a view no game shows") {
  Game game("stella_quest", 4);
  const int seat = *game.to_act();
  json request = {{"seat", seat}, {"protocol", 1}, {"view", game.view(seat, 1)}, {"legal", game.legal_actions()}};
  json extra = request;
  for (int i = 0; i < 3; ++i) extra["view"]["discard"].push_back("Blue 6");
  CHECK_THROWS_WITH(Game::from_request("stella_quest", extra, 1), Catch::Contains("more copies of \"Blue 6\""));
  json other_seat = request;
  other_seat["seat"] = 1 - seat;
  CHECK_THROWS_WITH(Game::from_request("stella_quest", other_seat, 1), Catch::Contains("not seat"));
  json tokens = request;
  tokens["view"]["players"][0]["tokens"] = 9;
  CHECK_THROWS_AS(Game::from_request("stella_quest", tokens, 1), Error);
  json legal = request;
  legal["legal"] = json::array();
  CHECK_THROWS_WITH(Game::from_request("stella_quest", legal, 1), Catch::Contains("legal list differs"));
  CHECK_THROWS_WITH(Game::from_request("stella_quest", json{{"view", 1}}, 1), Catch::Contains("\"seat\""));
}

namespace {

// A deck list of Interstellar's as a seat configuration: IS-Core's with a few changes.
json interstellar_deck(const std::string& character, int extra_water) {
  return json{{"character", character},
              {"resource",
               {{"water_1", 5 + extra_water},
                {"water_2", 3},
                {"energy_1", 6},
                {"energy_2", 3},
                {"energy_3", 1},
                {"ammo_1", 6},
                {"ammo_2", 3},
                {"ammo_3", 1},
                {"e115", 2},
                {"halley", 1},
                {"proxima_centauri", 2},
                {"binary_star", 1},
                {"orions_belt", 1}}}};
}

}  // namespace

TEST_CASE("library: from_request rebuilds an Interstellar game at every decision, hidden cards dealt anew") {
  int rebuilt = 0;
  const std::vector<std::pair<json, std::vector<json>>> matches = {
      {nullptr, {}},
      {json{{"max_turns", 30}, {"deckout", "loss"}}, {interstellar_deck("shane", 4), interstellar_deck("shifter", 0)}},
      {nullptr, {nullptr, interstellar_deck("shane", 9)}}};
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    for (const auto& [config, seat_configs] : matches)
      rebuilt += rebuild_every_decision("interstellar", seed, config, seat_configs, 8, 2);
  }
  CHECK(rebuilt > 300 / static_cast<int>(kRebuildStride));
}

TEST_CASE("library: from_request refuses Interstellar views it cannot rebuild") {
  Game game("interstellar", 4);
  for (int i = 0; i < 12; ++i) game.apply_index(static_cast<std::size_t>(i) % game.legal_count());
  const int seat = *game.to_act();
  const json request = {{"seat", seat}, {"protocol", 1}, {"view", game.view(seat, 1)}};
  const auto me = static_cast<std::size_t>(seat), them = 1 - me;
  json twice = request;
  twice["view"]["players"][me]["discard"].push_back(twice["view"]["players"][me]["hand"][0]);
  CHECK_THROWS_WITH(Game::from_request("interstellar", twice, 1), Catch::Contains("shown twice"));
  json wrong_kind = request;
  wrong_kind["view"]["players"][me]["hand"][0]["card"] =
      wrong_kind["view"]["players"][me]["hand"][0]["card"] == "gate" ? "harvest" : "gate";
  CHECK_THROWS_WITH(Game::from_request("interstellar", wrong_kind, 1), Catch::Contains("in the deck lists"));
  json deck = request;
  deck["view"]["players"][them]["main_deck"] = 3;
  CHECK_THROWS_WITH(Game::from_request("interstellar", deck, 1), Catch::Contains("unseen"));
  json hand = request;
  hand["view"]["players"][them]["hand_main"] = 40;
  CHECK_THROWS_WITH(Game::from_request("interstellar", hand, 1), Catch::Contains("unseen"));
  // The match's config and deck lists are the caller's to give: other ones are refused.
  CHECK_THROWS_WITH(Game::from_request("interstellar", request, 1, json{{"max_turns", 20}}),
                    Catch::Contains("pass the match's config"));
  CHECK_THROWS_WITH(Game::from_request("interstellar", request, 1, nullptr, {interstellar_deck("shifter", 5)}),
                    Catch::Contains("seat configs"));
  CHECK_THROWS_WITH(Game::from_request("interstellar", request, 1, nullptr, {json{{"resource", 3}}}),
                    Catch::Contains("seat 0"));
  // A rebuilt game knows its seat configurations as a new one does (normalised, one per seat).
  const Game own("interstellar", 4, nullptr, {nullptr, interstellar_deck("shane", 2)});
  const Game from_own = Game::from_request("interstellar", json{{"seat", 0}, {"view", own.view(0, 1)}}, 1, nullptr,
                                           {nullptr, interstellar_deck("shane", 2)});
  CHECK(from_own.seat_configs() == own.seat_configs());
  // Protocol 2's views name cards by id, their kinds in the card table: the same checks.
  json v2 = {{"seat", seat}, {"protocol", 2}, {"view", game.view(seat, 2)}};
  CHECK(Game::from_request("interstellar", v2, 1).view(seat, 2) == v2["view"]);
  v2["view"]["players"][me]["discard"].push_back(v2["view"]["players"][me]["hand"][0]);
  CHECK_THROWS_WITH(Game::from_request("interstellar", v2, 1), Catch::Contains("shown twice"));
}

namespace {

// 600 views of `game` (new games from `start`; in `protocol`'s form), each with one field replaced by junk: at the top,
// in a player, or in a list. Each is refused with an Error or gives a game that shows that very view.
void check_damaged_views(const std::string& name, const std::function<Game(std::uint64_t)>& start, int protocol = 1) {
  const std::vector<json> junk = {nullptr,        -1,   0,  1000000000, "x", "Blue 6", "dummy", json::array(),
                                  json::object(), true, 2.5};
  std::uint64_t r = 7;
  auto next = [&](std::size_t bound) {
    r = r * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::size_t>((r >> 33) % bound);
  };
  int refused = 0;
  int accepted = 0;
  Game game = start(8);
  for (int round = 0; round < 600; ++round) {
    if (game.is_over()) game = start(static_cast<std::uint64_t>(round));
    const int seat = *game.to_act();
    json view = game.view(seat, protocol);
    json* target = &view;
    if (next(3) == 0) target = &view["players"][next(view["players"].size())];
    std::vector<std::string> target_keys;
    for (const auto& item : target->items()) target_keys.push_back(item.key());
    json& field = (*target)[target_keys[next(target_keys.size())]];
    if (field.is_array() && !field.empty() && next(2) == 0) {
      field[next(field.size())] = junk[next(junk.size())];
    } else {
      field = junk[next(junk.size())];
    }
    INFO(name << " round " << round << ": " << view.dump());
    try {
      Game rebuilt = Game::from_request(name, json{{"seat", seat}, {"view", view}}, 1);
      CHECK(rebuilt.view(seat, protocol) == view);
      rebuilt.rollout(1);
      CHECK(rebuilt.is_over());
      ++accepted;
    } catch (const Error& e) {
      CHECK(std::string(e.what()).rfind("from_request: ", 0) == 0);
      ++refused;
    }
    if (round % 3 == 0) game.apply_index(next(game.legal_count()));
  }
  CHECK(refused > 300);
  CHECK(accepted > 0);
}

}  // namespace

TEST_CASE("library: from_request on damaged views: an Error or a game that shows that very view") {
  check_damaged_views("stella_quest", [](std::uint64_t seed) {
    return Game("stella_quest", seed, nullptr, {}, 2 + static_cast<int>(seed % 3));
  });
  check_damaged_views("stellar", [](std::uint64_t seed) { return Game("stellar", seed); });
  for (int protocol = 1; protocol <= 2; ++protocol)
    check_damaged_views(
        "interstellar", [](std::uint64_t seed) { return Game("interstellar", seed); }, protocol);
}

TEST_CASE("library: an Interstellar state from a view has the turns the rules read, worked out from the events") {
  // What the view does not show of a planet or a gate (the turn a Depletion hit it, this turn's
  // Harvest and its count, the turn a gate was used), as the rules read it, agrees with the
  // referee's state at every decision of arbitrary play.
  const arena::games::Game* rules = arena::games::find_game("interstellar");
  REQUIRE(rules != nullptr);
  int fed = 0, depleted = 0, used = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    auto made = rules->new_game(nullptr, seed, 2);
    REQUIRE(made.ok());
    auto& game = *made;
    for (std::uint64_t step = 0; !game->is_over(); ++step) {
      if (step % kRebuildStride != 0) {
        game->apply_index(static_cast<std::size_t>(step * 7 % game->legal_count()));
        continue;
      }
      const int seat = game->to_act();
      auto rebuilt = rules->state_from_view(game->view(seat), seat, nullptr, {}, step);
      REQUIRE(rebuilt.ok());
      const json a = game->to_json(), b = (*rebuilt)->to_json();
      const int turn = a.at("turn").get<int>();
      INFO("seed " << seed << " step " << step);
      for (std::size_t p = 0; p < 2; ++p) {
        const json& pa = a.at("players").at(p);
        const json& pb = b.at("players").at(p);
        REQUIRE(pa.at("planets").size() == pb.at("planets").size());
        for (std::size_t k = 0; k < pa.at("planets").size(); ++k) {
          const json& x = pa.at("planets").at(k);
          const json& y = pb.at("planets").at(k);
          const bool now = x.at("harvest_turn") == turn;
          CHECK((y.at("harvest_turn") == turn) == now);
          if (now) CHECK(y.at("harvest_count") == x.at("harvest_count"));
          const int dx = x.at("depleted_turn").get<int>(), dy = y.at("depleted_turn").get<int>();
          CHECK((dx >= 0) == (dy >= 0));
          CHECK((dx >= 0 && dx < turn) == (dy >= 0 && dy < turn));
          fed += now ? 1 : 0;
          depleted += dx >= 0 ? 1 : 0;
        }
        for (std::size_t g = 0; g < pa.at("gates").size(); ++g) {
          const bool now = pa.at("gates").at(g).at("used_turn") == turn;
          CHECK((pb.at("gates").at(g).at("used_turn") == turn) == now);
          used += now ? 1 : 0;
        }
      }
      game->apply_index(static_cast<std::size_t>(step * 7 % game->legal_count()));
    }
  }
  INFO("planets fed this turn " << fed << ", depleted " << depleted << ", gates used " << used);
  CHECK(fed > 0);
  CHECK(depleted > 0);
  CHECK(used > 0);
}
