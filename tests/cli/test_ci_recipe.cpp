// The CI recipe of docs/ci.md as a CI job runs it: docs/ci/bot-check.sh (the script the GitHub
// Actions workflow and the GitLab job run) validates the new version of a bot and plays it against
// the previous one; a regression fails the job with the SPRT's exit code and a failing JUnit test
// case, a copy passes. And the --fail-on conditions one by one, on a finished league resumed.

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/match/harness.hpp"

using namespace arena;
using Catch::Contains;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// bot-check.sh with its variables, from `dir`; its output and exit code.
testing::Command bot_check(const fs::path& dir, const std::string& new_bot, const std::string& old_bot,
                           const std::string& extra) {
  return testing::run(
      fmt::format("cd {} && REFEREE={} NEW_BOT={} OLD_BOT={} VALIDATE_GAMES=1 {} sh {}/docs/ci/bot-check.sh 2>&1",
                  dir.string(), testing::referee(), new_bot, old_bot, extra, ARENA_SOURCE_DIR));
}

}  // namespace

TEST_CASE("docs/ci/bot-check.sh fails on a regression with exit 6 and a failing JUnit case and passes on a copy",
          "[cli][ci]") {
  const fs::path dir = testing::fresh_dir("ci", "recipe");
  const std::string greedy = testing::reachable(ARENA_GREEDY_BOT);
  const fs::path copy = fs::path(greedy).parent_path() / "greedy_bot_copy";
  if (!fs::exists(copy)) fs::copy_file(greedy, copy);

  // The regression: the random bot replaces the greedy one.
  auto c = bot_check(dir, testing::reachable_random_bot(), greedy,
                     "DEALS=32 SPRT='elo0=-50 elo1=0 alpha=0.05 beta=0.05' OUT=regression");
  INFO(c.out);
  CHECK(c.exit_code == 6);
  CHECK_THAT(c.out, Contains("== validate") && Contains("PASS"));
  CHECK_THAT(c.out, Contains("SPRT of new [elo0 -50, elo1 0, alpha 0.05, beta 0.05]: H0 accepted"));
  CHECK_THAT(c.out, Contains("--fail-on sprt-h0: SPRT of new") && Contains("(exit 6)"));
  const std::string junit = testing::read_file(dir / "regression/gauntlet/junit.xml");
  CHECK_THAT(junit, Contains("<testsuite name=\"sprt\" tests=\"1\" failures=\"1\"") &&
                        Contains("name=\"new not rejected by the SPRT\"") && Contains("type=\"sprt-h0\""));
  CHECK_THAT(testing::read_file(dir / "regression/gauntlet/standings.md"),
             Contains("**SPRT of new [") && Contains("H0 accepted"));
  const json standings = json::parse(testing::read_file(dir / "regression/gauntlet/standings.json"));
  CHECK(standings.at("league").at("sprt").at("decision") == "accept_h0");
  CHECK(standings.at("league").at("sprt").at("bot") == "new");
  CHECK(standings.at("league").at("sprt").at("elo0") == -50.0);

  // The same league's other verdicts, from its folder: each condition its own exit code.
  const std::string resume =
      fmt::format("cd {} && {} league --resume --out regression/gauntlet", dir.string(), testing::referee());
  c = testing::run(resume + " --fail-on elo-below=0 2>&1");
  CHECK(c.exit_code == 7);
  CHECK_THAT(c.out, Contains("--fail-on elo-below=0: new has Elo -1000"));
  c = testing::run(resume + " --fail-on elo-below=-1000 --fail-on fault 2>&1");
  CHECK(c.exit_code == 0);  // no fault, and the Elo is clamped at -1000, not below it
  c = testing::run(resume + " 2>&1");
  CHECK(c.exit_code == 0);  // without --fail-on, an accepted H0 is a result
  for (const char* wrong : {"sprt-h1", "elo-below=", "elo-below=x", "elo-below=1e9"}) {
    c = testing::run(fmt::format("{} --fail-on '{}' 2>&1", resume, wrong));
    INFO(wrong);
    CHECK(c.exit_code == 2);
    CHECK_THAT(c.out, Contains("--fail-on"));
  }
  c = testing::run(fmt::format("cd {} && {} league --bot {} --bot {} --fail-on sprt-h0 --out nosprt 2>&1", dir.string(),
                               testing::referee(), greedy, copy.string()));
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("--fail-on sprt-h0 needs an SPRT"));

  // A copy of the previous version: undecided in 8 deals, the job passes; JUnit skips the SPRT case.
  c = bot_check(dir, copy.string(), greedy, "DEALS=8 OUT=copy");
  INFO(c.out);
  CHECK(c.exit_code == 0);
  CHECK_THAT(c.out, Contains("SPRT of new [elo0 -10, elo1 0, alpha 0.05, beta 0.05]: undecided"));
  CHECK_THAT(testing::read_file(dir / "copy/gauntlet/junit.xml"),
             Contains("name=\"new not rejected by the SPRT\"") && Contains("<skipped message=\"SPRT of new"));
}
