// Matches between the sample bots: they finish, every replay verifies, the same seed gives the
// same replay, and no request ever shows a seat a card it may not see.

#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <set>

#include "referee/games/stellar/json.hpp"
#include "referee/games/stellar/rules.hpp"
#include "referee/replay/replay.hpp"
#include "tests/match/harness.hpp"

using namespace arena;
using nlohmann::json;

namespace {

match::MatchResult play_ok(const match::Options& o) {
  auto result = match::play(o);
  REQUIRE(result.ok());
  INFO(replay::to_json(*result).dump(2));
  CHECK(result->end == replay::End::finished);
  CHECK_FALSE(result->fault.has_value());
  return std::move(result).value();
}

}  // namespace

TEST_CASE("sample bots finish matches in both seatings and every replay verifies", "[match]") {
  const std::vector<std::pair<std::string, std::string>> pairings = {
      {testing::greedy_bot(), testing::random_bot()},
      {testing::random_bot(), testing::greedy_bot()},
      {testing::python_bot(), testing::random_bot()},
      {testing::random_bot(), testing::python_bot()},
  };
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    for (const auto& [a, b] : pairings) {
      auto o = testing::options({a, b}, seed, "sample");
      const auto m = play_ok(o);
      CHECK(m.decisions > 40);
      CHECK(m.scores.size() == 2);
      testing::require_verifies(m.replay);
      CHECK(testing::leftover_processes(o).empty());
    }
  }
}

TEST_CASE("the same seed and bots give the same replay, timings aside", "[match]") {
  auto strip = [](const std::filesystem::path& p) {
    std::ifstream in(p);
    std::vector<json> lines;
    std::string line;
    while (std::getline(in, line)) {
      json j = json::parse(line);
      j.erase("time_ms");
      j.erase("cpu_ms");
      j.erase("started");
      if (j.contains("result")) {
        j["result"].erase("replay");
        j["result"].erase("bots");
      }
      lines.push_back(std::move(j));
    }
    return lines;
  };
  auto o1 = testing::options({testing::greedy_bot(), testing::python_bot()}, 77, "same");
  auto o2 = testing::options({testing::greedy_bot(), testing::python_bot()}, 77, "same");
  const auto m1 = play_ok(o1);
  const auto m2 = play_ok(o2);
  CHECK(strip(m1.replay) == strip(m2.replay));
  auto o3 = testing::options({testing::greedy_bot(), testing::python_bot()}, 78, "same");
  CHECK(strip(play_ok(o3).replay) != strip(m1.replay));
}

TEST_CASE("no request shows a seat a card it may not see", "[match][leak]") {
  // Each bot's stdin is recorded by tee; the match is then re-simulated, and every card id in
  // every request is checked against what that seat could see at that moment.
  const auto dir = std::filesystem::path(ARENA_TEST_OUT) / "leak";
  std::filesystem::create_directories(dir);
  for (std::uint64_t seed = 100; seed < 112; ++seed) {
    std::vector<std::string> logs;
    std::vector<std::string> bots;
    for (int seat = 0; seat < 2; ++seat) {
      logs.push_back((dir / fmt::format("seed{}-seat{}.jsonl", seed, seat)).string());
      std::filesystem::remove(logs.back());
      bots.push_back(
          fmt::format("sh -c 'tee {} | {}'", logs.back(), seat == 0 ? testing::random_bot() : testing::greedy_bot()));
    }
    auto o = testing::options(bots, seed, "leak");
    const auto m = play_ok(o);
    auto replay = replay::read(m.replay);
    REQUIRE(replay.ok());

    std::array<std::vector<json>, 2> requests;
    for (int seat = 0; seat < 2; ++seat) {
      std::ifstream in(logs[static_cast<std::size_t>(seat)]);
      std::string line;
      while (std::getline(in, line)) {
        json j = json::parse(line);
        CHECK(j.dump().find("\"seed\"") == std::string::npos);
        if (j.value("type", "") == "request") requests[static_cast<std::size_t>(seat)].push_back(std::move(j));
      }
    }
    stellar::State s = stellar::new_game(stellar::Config{}, seed);
    std::array<std::size_t, 2> next{};
    for (const auto& step : replay->steps) {
      const auto seat = static_cast<std::size_t>(step.seat);
      REQUIRE(next[seat] < requests[seat].size());
      const json& request = requests[seat][next[seat]++];
      CHECK(request.at("id") == step.request_id);
      // What this seat may not see now: the other hand, the deck, the other's face-down cards and
      // its pending secret choices (the starters it holds until placed).
      std::set<int> hidden;
      const auto& other = s.players[1 - seat];
      for (auto c : other.hand) hidden.insert(c);
      for (auto c : s.deck) hidden.insert(c);
      for (const auto& slot : other.telescope) {
        if (!slot.empty() && !slot.face_up && !slot.seen) hidden.insert(slot.card);
      }
      if (s.phase == stellar::Phase::choose_starter) {
        for (auto c : other.starters) hidden.insert(c);
      }
      // Every card object and every "card" field in the request.
      std::vector<const json*> todo = {&request};
      while (!todo.empty()) {
        const json* j = todo.back();
        todo.pop_back();
        if (j->is_object()) {
          if (j->contains("id") && j->contains("name") && j->at("id").is_number_integer()) {
            INFO("seed " << seed << " request " << step.request_id << " card " << j->dump());
            CHECK(hidden.count(j->at("id").get<int>()) == 0);
          }
          if (j->contains("card") && j->at("card").is_number_integer()) {
            CHECK(hidden.count(j->at("card").get<int>()) == 0);
          }
          for (const auto& [k, v] : j->items()) todo.push_back(&v);
        } else if (j->is_array()) {
          for (const auto& v : *j) todo.push_back(&v);
        }
      }
      // The deck order never appears: no list as long as the deck.
      CHECK(request.dump().find("\"deck\"") == std::string::npos);
      auto action = stellar::action_from_json(step.action);
      REQUIRE(action.ok());
      stellar::apply(s, *action);
    }
  }
}

TEST_CASE("Stella Quest matches with 2, 3 and 4 sample bots finish and their replays verify", "[match][stella_quest]") {
  for (std::size_t seats = 2; seats <= 4; ++seats) {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      std::vector<std::string> bots;
      for (std::size_t i = 0; i < seats; ++i) {
        bots.push_back(i == 0 ? testing::greedy_bot() : i == 1 ? testing::python_bot() : testing::random_bot());
      }
      std::rotate(bots.begin(), bots.begin() + static_cast<std::ptrdiff_t>(seed % seats), bots.end());
      auto o = testing::options(bots, seed, fmt::format("sq{}", seats));
      o.game = "stella_quest";
      const auto m = play_ok(o);
      CHECK(m.scores.size() == seats);
      CHECK(m.ranks.size() == seats);
      testing::require_verifies(m.replay);
      CHECK(testing::leftover_processes(o).empty());
    }
  }
}
