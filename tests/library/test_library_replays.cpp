// The rules library against replays the referee recorded (record_replays.sh, a CTest fixture:
// real matches of every game between the sample bots): replayed through stellar_arena::Game, the
// initial hash, the seat to act, the acting seat's view hash, the action's legality, the state
// hash after every action and the footer's scores and outcome all agree; Game::from_replay at any
// step is the same state; a determinized state, and a state rebuilt from the acting seat's request
// (Game::from_request), show the acting seat the same view and legal list.

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "referee/replay/replay.hpp"
#include "stellar_arena/game.hpp"

namespace {

using stellar_arena::Game;
using stellar_arena::json;

std::vector<std::filesystem::path> recorded_replays() {
  const char* dir = std::getenv("ARENA_LIBRARY_REPLAYS");
  INFO("ARENA_LIBRARY_REPLAYS names the folder of recorded replays (the library_replays fixture)");
  REQUIRE(dir != nullptr);
  std::vector<std::filesystem::path> out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file() && entry.path().extension() == ".jsonl" &&
        entry.path().parent_path().filename() == "replays") {
      out.push_back(entry.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("library: recorded replays of every game, step by step") {
  const auto paths = recorded_replays();
  std::set<std::string> games_seen;
  std::size_t steps = 0;
  for (const auto& path : paths) {
    INFO(path.string());
    auto read = arena::replay::read(path);
    REQUIRE(read.ok());
    const arena::replay::Replay& replay = *read;
    REQUIRE(replay.footer.has_value());
    const auto& h = replay.header;
    games_seen.insert(h.game);
    Game game(h.game, h.seed, h.config, arena::replay::seat_configs(h), h.seats);
    CHECK(game.state_hash() == h.initial_hash);
    for (std::size_t i = 0; i < replay.steps.size(); ++i) {
      const arena::replay::Step& s = replay.steps[i];
      INFO("step " << i);
      REQUIRE(game.to_act() == s.seat);
      CHECK(game.view_hash(s.seat) == s.view_hash);
      const std::vector<json> legal = game.legal_actions();
      CHECK(std::find(legal.begin(), legal.end(), s.action) != legal.end());
      if (i % 4 == 0) {
        const Game d = game.determinize(s.seat, i);
        CHECK(d.view_hash(s.seat) == s.view_hash);
        CHECK(d.legal_actions() == legal);
      }
      // What the acting seat was sent, rebuilt into a whole game (with the match's config and
      // deck lists, as a bot knows them): the same view and legal list.
      const json request = {{"seat", s.seat}, {"protocol", 1}, {"view", game.view(s.seat, 1)}, {"legal", legal}};
      const Game r = Game::from_request(h.game, request, i, h.config, arena::replay::seat_configs(h));
      CHECK(r.view_hash(s.seat) == s.view_hash);
      CHECK(r.legal_actions() == legal);
      game.apply(s.action);
      CHECK(game.state_hash() == s.hash);
      ++steps;
    }
    const json& result = replay.footer->result;
    if (result.at("end") == "finished") {
      REQUIRE(game.is_over());
      CHECK(json(game.scores()) == result.at("scores"));
      CHECK(game.outcome() == result.at("outcome"));
    }
    // Any step of the replay, from the file.
    const std::size_t middle = replay.steps.size() / 2;
    Game from_file = Game::from_replay(path, middle);
    CHECK(from_file.state_hash() == (middle == 0 ? h.initial_hash : replay.steps[middle - 1].hash));
    CHECK(Game::from_replay(path, replay.steps.size()).state_hash() == game.state_hash());
    CHECK_THROWS_WITH(Game::from_replay(path, replay.steps.size() + 1), Catch::Contains("the replay has"));
  }
  CHECK(games_seen == std::set<std::string>{"interstellar", "stella_quest", "stellar"});
  CHECK(paths.size() >= 30);
  CHECK(steps > 1000);
}
