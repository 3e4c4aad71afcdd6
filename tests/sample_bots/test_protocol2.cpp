// Protocol 2 in the sample bots (docs/protocol.md, "Version 2"; sample_bots/cpp/protocol2.hpp):
//   - protocol2::CardTable::expand turns a version-2 Stellar view (card ids, the hello's card
//     table, the view's own "cards") back into the version-1 view exactly, at every decision of
//     whole games, for both seats, with the match deck and with seat decks; the view of every
//     registered game without a card table (the same in both versions) is left as it is;
//   - the greedy policy chooses the same action, with the same note, on both forms, in every
//     registered game at every seat count (and Stellar with other configs and seat decks);
//   - the bot programs negotiate the version at each hello, echo it in every action and play
//     several matches on one stdin (what "reuse": true promises), version 2 and version 1 alike.
// The version-2 lines are the referee's own (protocol::hello, GameState::write_view_v2); the
// expansion test also rebuilds each version-2 view from the version-1 view by to_v2 below, which
// follows docs/protocol.md and shares no code with protocol2.hpp, and requires the two to agree.

#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "protocol/codec.hpp"
#include "referee/core/rng.hpp"
#include "referee/games/game.hpp"
#include "sample_bots/cpp/greedy_policy.hpp"
#include "sample_bots/cpp/protocol2.hpp"
#include "tests/command.hpp"
#include "tests/games/conformance.hpp"  // testing::sanitizer_share
#include "tests/sample_bots/in_process.hpp"

using namespace arena;
using nlohmann::json;

namespace {

json read_json_file(const std::string& relative) {
  std::ifstream in(std::string(ARENA_SOURCE_DIR) + "/" + relative);
  REQUIRE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str());
}

const json& bright_moons() {
  static const json deck = read_json_file("docs/games/stellar-decks/bright-moons.json");
  return deck;
}

struct Match {
  std::string name;  // for messages
  std::string game;
  int seats = 2;
  json config = nullptr;
  std::vector<json> seat_configs;  // empty: none
};

std::vector<Match> stellar_matches() {
  return {{"stellar", "stellar", 2, nullptr, {}},
          {"stellar, facedown_step3 printed", "stellar", 2, {{"facedown_step3", "printed"}}, {}},
          {"stellar, bright-moons in seat 0", "stellar", 2, nullptr, {bright_moons(), nullptr}},
          {"stellar, bright-moons in seat 1", "stellar", 2, nullptr, {nullptr, bright_moons()}},
          {"stellar, bright-moons in both seats", "stellar", 2, nullptr, {bright_moons(), bright_moons()}}};
}

// Every registered game at every seat count, with its default config (games::all_games()).
std::vector<Match> registry_matches() {
  std::vector<Match> out;
  for (const games::Game* g : games::all_games()) {
    for (int seats = g->info().min_seats; seats <= g->info().max_seats; ++seats) {
      out.push_back({g->info().name + ", " + std::to_string(seats) + " seats", g->info().name, seats, nullptr, {}});
    }
  }
  return out;
}

// The seat's card table as the referee's hello carries it; null for a game without one (Stella
// Quest names its cards by face).
json seat_table(const Match& m, Seat seat) {
  return games::seat_card_table(games::find_game(m.game)->protocol_card_table(m.config, m.seat_configs), seat);
}

// The same for Stellar as docs/protocol.md describes it: the match's card table
// (Game::card_table), with null for each card another seat owns (its own deck list).
json documented_seat_table(const Match& m, Seat seat) {
  json table = games::find_game(m.game)->card_table(m.config, m.seat_configs);
  REQUIRE(table.is_array());
  for (json& card : table) {
    if (card.contains("owner") && card.at("owner") != seat) card = nullptr;
  }
  return table;
}

json hello_v2(const Match& m, Seat seat, const json& table) {
  return protocol::hello(m.game, seat, m.seats, m.config, protocol::Limits{}, table);
}

// A version-1 referee's hello: no "protocols", no "cards".
json hello_v1(const Match& m, Seat seat) {
  return {{"type", "hello"},  {"protocol", 1},      {"game", m.game},          {"seat", seat},
          {"seats", m.seats}, {"config", m.config}, {"limits", json::object()}};
}

// A version-1 view in version-2 form: every card object (in a Stellar view, the only objects with
// an "id") becomes its id; the objects of the ids `table` lacks go to "cards", sorted by id.
void ids_in_place(json& node, const json& table, std::map<std::int64_t, json>& foreign) {
  if (node.is_object() && node.contains("id")) {
    const std::int64_t id = node.at("id").get<std::int64_t>();
    if (!table.is_array() || !table.at(static_cast<std::size_t>(id)).is_object()) foreign[id] = node;
    node = id;
    return;
  }
  if (node.is_object() || node.is_array()) {
    for (json& child : node) ids_in_place(child, table, foreign);
  }
}
json to_v2(const json& v1, const json& table) {
  json v2 = v1;
  if (table.is_null()) return v2;  // a game without a card table: the same view in both versions
  std::map<std::int64_t, json> foreign;
  ids_in_place(v2, table, foreign);
  if (!foreign.empty()) {
    json cards = json::array();
    for (auto& [id, card] : foreign) cards.push_back(card);
    v2["cards"] = std::move(cards);
  }
  return v2;
}

// A version-2 request as the referee writes it: the view and legal list as text straight from
// the state.
std::string v2_request_line(const games::GameState& state, Seat seat, std::int64_t id) {
  std::string view_line;
  std::string legal_line;
  state.write_view_v2(seat, view_line);
  state.write_legal(legal_line);
  return protocol::request_line(2, id, seat, view_line, legal_line, 1000, 0);
}

// Plays one seeded game of `m` to the end (in_process.hpp).
void play(const Match& m, std::uint64_t seed, const testing::Decide& decide) {
  testing::play_game(m.game, m.config, m.seat_configs, seed, m.seats, decide, m.name);
}

// Every view of every seat at every decision of `games` games: to_v2 must be the view the
// referee writes on the wire (GameState::write_view_v2), and that text, expanded with the seat's
// hello table, must give the version-1 view back, byte for byte.
struct ExpandTally {
  int views = 0;
  int with_own_cards = 0;  // version-2 views that carried "cards"
  std::size_t v1_bytes = 0;
  std::size_t v2_bytes = 0;
};
void check_expansion(const Match& m, int games, ExpandTally& tally) {
  std::vector<protocol2::CardTable> tables(static_cast<std::size_t>(m.seats));
  std::vector<json> seat_tables;
  for (Seat s = 0; s < m.seats; ++s) {
    seat_tables.push_back(seat_table(m, s));
    const json hello = json::parse(hello_v2(m, s, seat_tables.back()).dump());
    CHECK(protocol2::choose(hello) == 2);
    tables[static_cast<std::size_t>(s)].reset(hello);
  }
  for (int g = 0; g < games; ++g) {
    const std::uint64_t seed = derive_seed(20251123, static_cast<std::uint64_t>(g));
    play(m, seed, [&](const games::GameState& state, Seat, std::int64_t id) {
      for (Seat s = 0; s < m.seats; ++s) {
        const json v1 = state.view(s);
        const json mine = to_v2(v1, seat_tables[static_cast<std::size_t>(s)]);
        std::string v2_line;
        state.write_view_v2(s, v2_line);
        json expanded = json::parse(v2_line);
        if (expanded != mine) {
          FAIL(m.name << " game " << seed << " request " << id << " seat " << s << ": the referee's view\n"
                      << v2_line << "\nis not\n"
                      << mine.dump());
        }
        if (expanded.contains("cards")) ++tally.with_own_cards;
        tables[static_cast<std::size_t>(s)].expand(expanded);
        const std::string v1_line = v1.dump();
        if (expanded.dump() != v1_line) {
          FAIL(m.name << " game " << seed << " request " << id << " seat " << s << "\nv2:       " << v2_line
                      << "\nexpanded: " << expanded.dump() << "\nv1:       " << v1_line);
        }
        ++tally.views;
        tally.v1_bytes += v1_line.size();
        tally.v2_bytes += v2_line.size();
      }
      return json(nullptr);
    });
  }
}

}  // namespace

TEST_CASE("protocol2::choose picks 2 only when hello offers it", "[sample_bots]") {
  const Match m{"stellar", "stellar", 2, nullptr, {}};
  CHECK(protocol2::choose(hello_v2(m, 0, nullptr)) == 2);
  CHECK(protocol2::choose(hello_v1(m, 0)) == 1);  // a version-1 referee
  json only_one = hello_v1(m, 0);
  only_one["protocols"] = {1};
  CHECK(protocol2::choose(only_one) == 1);
  only_one["protocols"] = {1, 2, 3};
  CHECK(protocol2::choose(only_one) == 2);
}

TEST_CASE("an expanded version-2 Stellar view is the version-1 view, at every decision", "[sample_bots]") {
  for (const Match& m : stellar_matches()) {
    for (Seat s = 0; s < 2; ++s) CHECK(seat_table(m, s) == documented_seat_table(m, s));
    const bool own_decks = !m.seat_configs.empty();
    ExpandTally tally;
    // Each game: every view of both seats (a quarter of the games under AddressSanitizer).
    const int games = testing::sanitizer_share(m.name == "stellar" ? 50 : 20);
    check_expansion(m, games, tally);
    INFO(m.name << ": " << tally.views << " views, " << tally.with_own_cards << " with their own \"cards\"");
    CHECK(tally.views >= games * 96);  // 2 seats x at least 48 decisions a game
    // With seat decks, another seat's cards come into sight (the row, telescopes, notebooks) and
    // the view carries their objects; with the match deck the hello table holds every card.
    if (own_decks) {
      CHECK(tally.with_own_cards > tally.views / 2);
    } else {
      CHECK(tally.with_own_cards == 0);
    }
    // About 27% of version 1's with the match deck, 62% with seat decks.
    CHECK(tally.v2_bytes * (own_decks ? 1 : 2) < tally.v1_bytes);
  }
}

TEST_CASE("expanding the view of a game without a card table changes nothing", "[sample_bots]") {
  int checked = 0;
  for (const Match& m : registry_matches()) {
    if (!seat_table(m, 0).is_null()) continue;
    INFO(m.name);
    ExpandTally tally;
    const int games = testing::sanitizer_share(20);
    check_expansion(m, games, tally);
    CHECK(tally.views > games * 10);
    CHECK(tally.v2_bytes == tally.v1_bytes);
    ++checked;
  }
  CHECK(checked > 0);
}

TEST_CASE("the greedy policy chooses the same on the version-1 and the expanded version-2 view", "[sample_bots]") {
  std::vector<Match> matches = registry_matches();
  const std::vector<Match> stellar = stellar_matches();
  matches.insert(matches.end(), stellar.begin() + 1, stellar.end());  // its configs and seat decks
  for (const Match& m : matches) {
    int decisions = 0;
    for (int g = 0; g < testing::sanitizer_share(20); ++g) {
      const std::uint64_t seed = derive_seed(20251124, static_cast<std::uint64_t>(g));
      const Seat greedy_seat = g % m.seats;
      const json table = seat_table(m, greedy_seat);
      protocol2::CardTable cards;
      cards.reset(json::parse(hello_v2(m, greedy_seat, table).dump()));
      play(m, seed, [&](const games::GameState& state, Seat seat, std::int64_t id) {
        if (seat != greedy_seat) return json(nullptr);
        const json v1 = protocol::request(id, seat, state.view(seat), state.legal_actions(), 1000, 0);
        json v2 = json::parse(v2_request_line(state, seat, id));
        cards.expand(v2.at("view"));
        const greedy::Decision d1 = greedy::decide(v1);
        const greedy::Decision d2 = greedy::decide(v2);
        if (d1.action != d2.action || d1.debug != d2.debug) {
          FAIL(m.name << " game " << seed << " request " << id << ": version 1 " << d1.action.dump() << " (" << d1.debug
                      << "), version 2 " << d2.action.dump() << " (" << d2.debug << ")");
        }
        ++decisions;
        return d1.action;
      });
    }
    INFO(m.name);
    CHECK(decisions >= testing::sanitizer_share(20) * 10);  // at least 10 a game
  }
}

namespace {

// One bot's stdin for four matches on one process: a version-2 Stellar match (seat 0), a
// version-2 Stellar match with seat decks (seat 1: another seat's cards come with the views),
// a version-1 match (seat 0), then a version-2 Interstellar match (seat 1, no card table). Each
// is a whole game in which greedy plays the bot's seat; `steps` gets each hello and each request
// (in version 1) with greedy's answer.
struct Session {
  std::string input;
  struct Step {
    int protocol = 1;    // the version of the match
    json request;        // version 1; null for a hello (the reply is a ready)
    json greedy_action;  // greedy's answer to the request
  };
  std::vector<Step> steps;
};

Session make_session() {
  Session session;
  const std::vector<Match> all = stellar_matches();
  const Match interstellar{"interstellar", "interstellar", 2, nullptr, {}};
  const struct {
    const Match& match;
    Seat seat;
    int protocol;
  } parts[] = {{all[0], 0, 2}, {all[2], 1, 2}, {all[1], 0, 1}, {interstellar, 1, 2}};
  std::uint64_t seed = 77;
  for (const auto& part : parts) {
    const json table = seat_table(part.match, part.seat);
    session.input +=
        (part.protocol == 2 ? hello_v2(part.match, part.seat, table) : hello_v1(part.match, part.seat)).dump();
    session.input += '\n';
    session.steps.push_back({part.protocol, nullptr, nullptr});
    play(part.match, ++seed, [&](const games::GameState& state, Seat seat, std::int64_t id) {
      if (seat != part.seat) return json(nullptr);
      const json v1 = protocol::request(id, seat, state.view(seat), state.legal_actions(), 1000, 0);
      session.input += part.protocol == 2 ? v2_request_line(state, seat, id) : v1.dump();
      session.input += '\n';
      const json action = greedy::decide(v1).action;
      session.steps.push_back({part.protocol, v1, action});
      return action;
    });
    session.input +=
        json({{"type", "game_over"}, {"protocol", part.protocol}, {"result", {{"end", "finished"}}}}).dump();
    session.input += '\n';
  }
  return session;
}

// Runs `command` on the session's input; checks every reply. `greedy`: the actions must be the
// in-process policy's.
void check_bot(const std::string& command, const Session& session, bool greedy) {
  std::string input_path = ARENA_TEST_OUT;
  std::filesystem::create_directories(input_path);
  input_path += "/protocol2_session.";
  input_path += std::to_string(::getpid());
  { std::ofstream(input_path) << session.input; }
  const testing::Command result = testing::run(command + " < '" + input_path + "' 2>/dev/null");
  std::filesystem::remove(input_path);
  INFO(command);
  CHECK(result.exit_code == 0);
  std::istringstream lines(result.out);
  std::string line;
  for (const Session::Step& step : session.steps) {
    REQUIRE(std::getline(lines, line));
    const json reply = json::parse(line);
    if (step.request.is_null()) {  // the answer to a hello
      INFO("ready: " << line);
      CHECK(reply.at("type") == "ready");
      CHECK(reply.at("protocol") == step.protocol);
      if (step.protocol == 2) {
        CHECK(reply.at("reuse") == true);
      } else {
        CHECK_FALSE(reply.contains("reuse"));  // a version-1 ready has no such field
      }
      continue;
    }
    INFO("request " << step.request.at("id") << ": " << line);
    CHECK(reply.at("type") == "action");
    CHECK(reply.at("protocol") == step.protocol);
    CHECK(reply.at("id") == step.request.at("id"));
    const json& legal = step.request.at("legal");
    CHECK(std::find(legal.begin(), legal.end(), reply.at("action")) != legal.end());
    if (greedy) CHECK(reply.at("action") == step.greedy_action);
  }
  CHECK_FALSE(std::getline(lines, line));  // nothing more: no answer to game_over
}

}  // namespace

TEST_CASE("the sample bots negotiate the version at each hello and play several matches", "[sample_bots]") {
  const Session session = make_session();
  check_bot(ARENA_GREEDY_BOT, session, true);
  check_bot(ARENA_RANDOM_BOT, session, false);
  check_bot(std::string("python3 ") + ARENA_SOURCE_DIR + "/sample_bots/python/random_bot.py", session, false);
}
