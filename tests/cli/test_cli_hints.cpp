// What a mistyped command line and a broken JSON file get: a "did you mean" for a near miss of a
// command or a flag, and the line and column of a JSON syntax error (exit 2 each).

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <utility>

#include "tests/match/harness.hpp"

using namespace arena;
using Catch::Contains;
namespace fs = std::filesystem;

using testing::referee;

TEST_CASE("referee: a misspelt command or flag gets \"did you mean\"", "[cli]") {
  const std::pair<const char*, const char*> near_misses[] = {
      {"plya", "did you mean `referee play` (for plya)?"},
      {"leage --bot x", "did you mean `referee league` (for leage)?"},
      {"play --sed 3 --bot x --bot y", "did you mean --seed (for --sed)?"},
      {"league --concurrenc=2", "did you mean --concurrency (for --concurrenc)?"},
      {"league merge a --out b --partail", "did you mean --partial (for --partail)?"},
      {"ladder inti", "did you mean `referee ladder init` (for inti)?"},
      // Far from every name: no guess.
      {"frobnicate", ""},
      {"play --xyzzy", ""},
  };
  for (const auto& [args, hint] : near_misses) {
    INFO(args);
    const auto c = testing::run(fmt::format("{} {} 2>&1", referee(), args));
    CHECK(c.exit_code == 2);
    if (*hint != '\0') {
      CHECK_THAT(c.out, Contains(hint));
    } else {
      CHECK_THAT(c.out, !Contains("did you mean"));
    }
  }
}

TEST_CASE("referee league: a league file with a JSON syntax error names its line and column", "[cli]") {
  const fs::path dir = testing::fresh_dir("cli", "json-syntax");
  std::ofstream(dir / "l.json") << "{\n  \"game\": \"stellar\",\n  \"deals\": 2,\n}\n";
  auto c = testing::run(
      fmt::format("{} league {} --out {} 2>&1", referee(), (dir / "l.json").string(), (dir / "out").string()));
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains(fmt::format("the league file {} is not valid JSON: line 4, column 1:",
                                         (dir / "l.json").string())));
  std::ofstream(dir / "config.json") << "{\"deck\": [1, 2,, 3]}";
  c = testing::run(fmt::format("{} play --bot {} --bot {} --config @{} 2>&1", referee(), testing::random_bot(),
                               testing::random_bot(), (dir / "config.json").string()));
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("is not valid JSON: line 1, column 16:"));
}
