// The edges of `referee html` and `referee show`: a folder given for the replay file is a usage
// error that says what is wanted and suggests a replay in it; numbers out of range are refused
// with readable limits.

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/match/harness.hpp"

using namespace arena;
using Catch::Contains;
using nlohmann::json;
namespace fs = std::filesystem;
using testing::referee;

namespace {

// A fresh folder under the test output, holding one real replay (a short Stella Quest match);
// returns the replay's path.
fs::path folder_with_replay(const fs::path& dir) {
  fs::remove_all(dir);
  return testing::play_replay(dir);
}

}  // namespace

TEST_CASE("referee html and show: a folder instead of a replay file is a usage error naming a replay in it", "[cli]") {
  const fs::path base = fs::path(ARENA_TEST_OUT) / "cli-edges";
  const fs::path logs = base / "logs";
  const fs::path replay = folder_with_replay(logs);
  // Not a replay, and newer: the suggestion reads the header, not the name.
  std::ofstream(logs / "notes.jsonl") << "{\"type\":\"request\"}\n";

  // A league's folder: the replays under replays/, its journal (not a replay) beside them.
  const fs::path league = base / "league";
  fs::remove_all(league);
  fs::create_directories(league / "replays");
  fs::copy_file(replay, league / "replays" / "m000000-leg1.jsonl");
  std::ofstream(league / "results.jsonl") << "{\"index\":0}\n";

  const fs::path empty = base / "empty";
  fs::remove_all(empty);
  fs::create_directories(empty);

  for (const std::string command : {"html", "show"}) {
    INFO(command);
    auto c = testing::run(fmt::format("{} {} {} 2>&1", referee(), command, logs.string()));
    CHECK(c.exit_code == 2);
    CHECK_THAT(c.out, Contains(fmt::format("referee {}: REPLAY: {} is a folder; {} wants a replay file (.jsonl)",
                                           command, logs.string(), command)));
    CHECK_THAT(c.out, Contains(fmt::format("e.g. the newest in it: referee {} {}", command, replay.string())));

    c = testing::run(fmt::format("{} {} {} 2>&1", referee(), command, league.string()));
    CHECK(c.exit_code == 2);
    CHECK_THAT(c.out, Contains((league / "replays" / "m000000-leg1.jsonl").string()));
    CHECK_THAT(c.out, !Contains("results.jsonl"));

    c = testing::run(fmt::format("{} {} {} 2>&1", referee(), command, empty.string()));
    CHECK(c.exit_code == 2);
    CHECK_THAT(c.out, Contains("is a folder") && Contains("this folder holds none"));
  }
  // No page was written for a folder (html would have named it <folder>.html).
  CHECK_FALSE(fs::exists(fs::path(logs.string() + ".html")));
  CHECK_FALSE(fs::exists(fs::path(league.string() + ".html")));

  // The replay it suggests is one the commands take.
  CHECK(testing::run(fmt::format("{} show {} >/dev/null 2>&1", referee(), replay.string())).exit_code == 0);
  CHECK(testing::run(
            fmt::format("{} html {} -o {} >/dev/null 2>&1", referee(), replay.string(), (base / "page.html").string()))
            .exit_code == 0);
}

TEST_CASE("referee show: --step and --seat out of range name the range, readably", "[cli]") {
  const fs::path replay = folder_with_replay(fs::path(ARENA_TEST_OUT) / "cli-edges" / "show-ranges");
  for (const std::string flag : {"--step", "--seat"}) {
    // Not a whole number (or beyond any replay): refused as it is read, naming what it takes.
    for (const std::string value : {"1e400", "1e-400", "99999999999999999999", "-99999999999999999999", "2.5", "x"}) {
      INFO(flag << " " << value);
      const auto c = testing::run(fmt::format("{} show {} {} {} 2>&1", referee(), replay.string(), flag, value));
      CHECK(c.exit_code == 2);
      CHECK_THAT(c.out, Contains(fmt::format("{}: {} is not a whole number in 0..(the replay's", flag, value)));
    }
    // A whole number outside this replay: refused with the replay's own range.
    const std::vector<std::string> outside = flag == "--step" ? std::vector<std::string>{"-1", "9223372036854775807"}
                                                              : std::vector<std::string>{"-1", "2", "2147483647"};
    for (const std::string& value : outside) {
      INFO(flag << " " << value);
      const auto c = testing::run(fmt::format("{} show {} {} {} 2>&1", referee(), replay.string(), flag, value));
      CHECK(c.exit_code == 2);
      CHECK_THAT(c.out, Contains(fmt::format("referee show: {} {} is out of range", flag, value)));
      CHECK_THAT(c.out, Contains(flag == "--step" ? "so --step takes 0 to " : "seats (0 to 1)"));
    }
  }
}
