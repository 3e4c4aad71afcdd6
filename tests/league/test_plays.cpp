// Bots that say what they play (docs/protocol.md, "Version 2": ready.games): the ready's list read
// strictly; a match of a game (or seat count) the bot does not list ends at the handshake with an
// unsupported_game fault, and `referee play`, `referee league` and `referee validate` refuse it
// with the bot's list and exit code 8 (a league before it records its matches as faults); a bot
// that lists the game plays it.

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "protocol/codec.hpp"
#include "referee/league/journal.hpp"
#include "referee/replay/replay.hpp"
#include "tests/match/harness.hpp"

using namespace arena;
using Catch::Contains;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// games_bot with its list, quoted for the referee's --bot.
std::string plays_bot(const std::string& games) {
  return fmt::format("{} '{}'", ARENA_GAMES_BOT, games);
}

json plays_ready(const json& games) {
  return {{"type", "ready"}, {"protocol", 2}, {"name", "b"}, {"games", games}};
}

}  // namespace

TEST_CASE("ready.games is read strictly and says which games and seat counts a bot plays", "[plays]") {
  auto ready = protocol::read_ready(plays_ready({"stella_quest", {{"name", "stellar"}, {"seats", {2}}}}));
  REQUIRE(ready.ok());
  REQUIRE(ready->games);
  CHECK(*ready->games == std::vector<protocol::GameSupport>{{"stella_quest", {}}, {"stellar", {2}}});
  CHECK(protocol::check_plays(*ready, "stellar", 2).ok());
  CHECK(protocol::check_plays(*ready, "stella_quest", 4).ok());
  auto refused = protocol::check_plays(*ready, "interstellar", 2);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error() ==
        "does not play interstellar with 2 seats: it lists stella_quest (any seats), stellar (2 seats)");
  auto seats = protocol::check_plays(
      *protocol::read_ready(plays_ready({{{"name", "stella_quest"}, {"seats", {3, 4}}}})), "stella_quest", 2);
  REQUIRE_FALSE(seats.ok());
  CHECK(seats.error() == "does not play stella_quest with 2 seats: it lists stella_quest (3 or 4 seats)");
  // A bot that lists nothing plays anything.
  auto silent = protocol::read_ready({{"type", "ready"}, {"protocol", 2}, {"name", "b"}});
  REQUIRE(silent.ok());
  CHECK_FALSE(silent->games);
  CHECK(protocol::check_plays(*silent, "anything", 9).ok());

  struct Bad {
    json games;
    const char* says;
  };
  for (const Bad& b :
       {Bad{json::array(), "\"games\" must be an array of 1 to 64 games"}, Bad{"stellar", "\"games\" must be an array"},
        Bad{{""}, "a game is a name of 1 to 64 bytes"}, Bad{{3}, "a game is a name"},
        Bad{{{{"seats", {2}}}}, "a game without \"name\""},
        Bad{{{{"name", "stellar"}, {"seats", {0}}}}, "a seat count must be a whole number in 1..64, not 0"},
        Bad{{{{"name", "stellar"}, {"seats", json::array()}}}, "\"seats\" must be an array of 1 to 64"},
        Bad{{{{"name", "stellar"}, {"tables", 2}}}, "unknown"}}) {
    auto r = protocol::read_ready(plays_ready(b.games));
    INFO(b.games.dump());
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error(), Contains(b.says));
  }
  // Version 1 has no "games": an unknown field, as before.
  auto v1 = protocol::read_ready({{"type", "ready"}, {"protocol", 1}, {"name", "b"}, {"games", {"stellar"}}});
  REQUIRE_FALSE(v1.ok());
  CHECK_THAT(v1.error(), Contains("games"));
}

TEST_CASE("referee play: a bot that lists another game is refused at the handshake, exit 8", "[plays][cli]") {
  const fs::path dir = testing::fresh_dir("plays", "play");
  const std::string referee = testing::referee();
  auto c = testing::run(fmt::format("{} play --game stellar --seed 5 --sandbox none --bot {} --bot {} --out {} 2>&1",
                                    referee, match::shell_quote(plays_bot(R"(["stella_quest"])")),
                                    testing::random_bot(), (dir / "refused").string()));
  INFO(c.out);
  CHECK(c.exit_code == 8);
  CHECK_THAT(c.out, Contains("unsupported_game") &&
                        Contains("does not play stellar with 2 seats: it lists stella_quest (any seats)"));
  // The replay records the typed fault, in the handshake, and verifies.
  bool found = false;
  for (const auto& entry : fs::recursive_directory_iterator(dir / "refused")) {
    if (entry.path().extension() != ".jsonl") continue;
    auto replay = replay::read(entry.path());
    REQUIRE(replay.ok());
    REQUIRE(replay->footer);
    const json& fault = replay->footer->result.at("fault");
    CHECK(fault.at("kind") == "unsupported_game");
    CHECK(fault.at("phase") == "handshake");
    CHECK(fault.at("seat") == 0);
    found = true;
  }
  CHECK(found);
  // One that lists the game with this seat count plays it.
  c = testing::run(fmt::format("{} play --game stellar --seed 5 --sandbox none --bot {} --bot {} --out {} 2>&1",
                               referee,
                               match::shell_quote(plays_bot(R"(["stella_quest",{"name":"stellar","seats":[2]}])")),
                               testing::random_bot(), (dir / "played").string()));
  INFO(c.out);
  CHECK(c.exit_code == 0);
}

TEST_CASE("referee league and validate stop at once on a bot that does not play the game, naming it", "[plays][cli]") {
  const fs::path dir = testing::fresh_dir("plays", "league");
  const std::string referee = testing::referee();
  const std::string quest_only = match::shell_quote(plays_bot(R"([{"name":"stella_quest","seats":[3,4]}])"));
  auto c = testing::run(fmt::format(
      "{} league --game stellar --deals 50 --seed 1 -j 2 --sandbox none --rating-interval 0 --bot {} --name quester "
      "--bot {} --name random --out {} 2>&1",
      referee, quest_only, testing::random_bot(), (dir / "out").string()));
  INFO(c.out);
  CHECK(c.exit_code == 8);
  CHECK_THAT(c.out, Contains("bot quester does not play stellar with 2 seats: it lists stella_quest (3 or 4 seats)"));
  // Not 100 matches of faults: at most the matches in flight when it was found are journaled.
  auto journal = league::read_journal(dir / "out" / "results.jsonl");
  REQUIRE(journal.ok());
  CHECK(journal->size() <= 2);
  for (const auto& r : *journal) CHECK_FALSE(r.fault);

  // A bot that lists the game plays the league to its end.
  const std::string plays_stellar = match::shell_quote(plays_bot(R"(["stellar"])"));
  c =
      testing::run(fmt::format("{} league --game stellar --deals 2 --seed 1 -j 2 --sandbox none --rating-interval 0 "
                               "--bot {} --bot {} --out {} 2>&1",
                               referee, plays_stellar, testing::random_bot(), (dir / "plays").string()));
  INFO(c.out);
  CHECK(c.exit_code == 0);
  auto played = league::read_journal(dir / "plays" / "results.jsonl");
  REQUIRE(played.ok());
  CHECK(played->size() == 4);

  c = testing::run(fmt::format("{} validate {} --game stellar --sandbox none --games 1 --out {} 2>&1", referee,
                               quest_only, (dir / "validate").string()));
  INFO(c.out);
  CHECK(c.exit_code == 8);
  CHECK_THAT(c.out, Contains("handshake: FAILED (unsupported_game: it does not play stellar with 2 seats: it lists "
                             "stella_quest (3 or 4 seats))"));
}
