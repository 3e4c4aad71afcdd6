// A game added through the plug-in path (docs/adding-a-game.md): Countdown, with no drawing of its
// own, in a registry of the test tree. It must pass the conformance check, and a referee built
// with that registry (`referee_plus`) must play it with real bots, verify, show and render it,
// drawing it generically.

#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "referee/games/game.hpp"
#include "referee/render/page_data.hpp"
#include "tests/command.hpp"
#include "tests/games/conformance.hpp"

using namespace arena;
using Catch::Contains;
using nlohmann::json;

namespace {

using testing::Command;
using testing::run;

std::string referee() {
  return ARENA_REFEREE_PLUS;
}
std::string out_dir() {
  return ARENA_TEST_OUT;
}
// Debian's interpreter: the bot runs in the sandbox, which sees /usr but not a home folder.
std::string countdown_bot() {
  return fmt::format("/usr/bin/python3 {}", ARENA_COUNTDOWN_BOT);
}

// Plays a Countdown match with referee_plus; returns its result JSON (stdout).
json play(const std::string& stem, const std::vector<std::string>& bots, std::uint64_t seed) {
  std::filesystem::create_directories(out_dir());
  std::string command = fmt::format("{} play --game countdown --seed {} --time-scale 10 --out {} --replay {}/{}.jsonl",
                                    referee(), seed, out_dir(), out_dir(), stem);
  for (const auto& bot : bots) command += fmt::format(" --bot '{}'", bot);
  const Command c = run(command + " 2>/dev/null");
  INFO(command);
  REQUIRE(c.exit_code == 0);
  return json::parse(c.out);
}

}  // namespace

TEST_CASE("Countdown is registered after the referee's games and brings no drawing of its own", "[plugin]") {
  const auto& all = games::all_games();
  const auto& referee_games = games::referee_games();
  REQUIRE(all.size() == referee_games.size() + 1);
  CHECK(std::equal(referee_games.begin(), referee_games.end(), all.begin()));
  const games::Game* game = games::find_game("countdown");
  REQUIRE(game == all.back());
  CHECK(game->info().title == "Countdown");
  CHECK(game->web_module().script.empty());
  CHECK(game->card_table(nullptr, {}).is_null());
  // The generic drawings: the view as a JSON tree, actions as JSON.
  auto state = game->new_game(nullptr, 3, 2).value();
  const std::string table =
      game->draw_table(game->whole_table({state->view(0), state->view(1)}), {{"a", "b"}}, games::draw::Style(false));
  CHECK_THAT(table, Contains("stones"));
  CHECK_THAT(game->describe_action(state->view(0), {{"take", 2}}), Contains("\"take\":2"));
  // No seat configuration: refused by seat.
  auto refused = game->new_game(nullptr, {nullptr, {{"deck", 1}}}, 1, 2);
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.error(), Contains("seat 1: countdown takes no per-seat configuration"));
}

TEST_CASE("Countdown passes the conformance check at every seat count", "[plugin][conformance]") {
  const games::Game& game = *games::find_game("countdown");
  for (int seats = game.info().min_seats; seats <= game.info().max_seats; ++seats) {
    INFO(seats << " seats");
    const auto report = testing::run_conformance(game, nullptr, seats, 500, 1, 10);
    for (const auto& f : report.failures) UNSCOPED_INFO(f);
    CHECK(report.failures.empty());
    CHECK(report.games == 500);
  }
  const auto config = testing::run_conformance(game, {{"max_take", 5}}, 3, 200, 900, 10);
  CHECK(config.failures.empty());
}

TEST_CASE("referee_plus lists, plays and verifies Countdown with a bot that writes its own actions", "[plugin][cli]") {
  const auto games = run(referee() + " games");
  CHECK(games.exit_code == 0);
  CHECK_THAT(games.out, Contains("countdown"));
  // The referee's own games first, as `referee games` lists them.
  const auto listed = run(std::string(ARENA_REFEREE) + " games");
  CHECK(listed.exit_code == 0);
  CHECK(games.out.rfind(listed.out, 0) == 0);

  const json two = play("countdown2", {countdown_bot(), ARENA_RANDOM_BOT}, 4);
  CHECK(two.at("end") == "finished");
  const json three = play("countdown3", {ARENA_RANDOM_BOT, countdown_bot(), ARENA_RANDOM_BOT}, 5);
  CHECK(three.at("end") == "finished");
  for (const json* r : {&two, &three}) {
    const auto v = run(fmt::format("{} verify {} 2>&1", referee(), r->at("replay").get<std::string>()));
    CHECK(v.exit_code == 0);
    CHECK_THAT(v.out, Contains("OK"));
  }
  // The bot's own answers were taken: its debug text is in the replay.
  std::ifstream in(two.at("replay").get<std::string>());
  std::stringstream text;
  text << in.rdbuf();
  CHECK_THAT(text.str(), Contains("stones, taking"));
  // The referee without the test game refuses the replay by name.
  const auto plain = run(fmt::format("{} verify {} 2>&1", ARENA_REFEREE, two.at("replay").get<std::string>()));
  CHECK(plain.exit_code == 5);
  CHECK_THAT(plain.out, Contains("unknown game \"countdown\""));
}

TEST_CASE("referee_plus shows and renders Countdown with the generic drawing", "[plugin][render]") {
  const json r = play("countdown_show", {countdown_bot(), ARENA_RANDOM_BOT}, 6);
  const std::string replay = r.at("replay");
  const auto first = run(fmt::format("{} show {} --step 0 2>&1", referee(), replay));
  CHECK(first.exit_code == 0);
  CHECK_THAT(first.out, Contains("Countdown, seed 6") && Contains("stones") && Contains("\"take\":"));
  const auto last = run(fmt::format("{} show {} 2>&1", referee(), replay));
  CHECK(last.exit_code == 0);
  CHECK_THAT(last.out, Contains("scores") && Contains("winner"));

  const std::string page = out_dir() + "/countdown_show.html";
  const auto html = run(fmt::format("{} html {} -o {} 2>&1", referee(), replay, page));
  REQUIRE(html.exit_code == 0);
  std::ifstream in(page);
  std::stringstream text;
  text << in.rdbuf();
  CHECK_THAT(text.str(), Contains("Countdown"));
  // The match data (gzip in base64, render/page_data.hpp) names the game.
  const std::string whole = text.str(), open = "data-encoding=\"gzip base64\">";
  const std::size_t from = whole.find(open);
  REQUIRE(from != std::string::npos);
  const std::size_t to = whole.find("</script>", from);
  auto data =
      render::gunzip_base64(std::string_view(whole).substr(from + open.size(), to - from - open.size()), 1 << 26);
  REQUIRE(data.ok());
  CHECK(json::parse(*data).at("game").at("name") == "countdown");
  CHECK_THAT(text.str(), !Contains("registerGame('countdown'"));
  CHECK_THAT(text.str(), !Contains("registerGame('stellar'"));
}
