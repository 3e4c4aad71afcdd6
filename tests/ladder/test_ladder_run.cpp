// The ladder end to end on one machine (SQLite), driven as a user drives it: `referee ladder init`,
// submissions in three languages plus a bot that does not compile and one that crashes, `run`
// with two workers, the leaderboard, a new version replacing the old, withdraw, export to a league
// folder that `referee html` draws. And `run --affinity`: its bots see one CPU each.
//
// In the normal build only: its time goes to compiling and running the starter kits (g++, Python,
// Node.js), none of it sanitized; the ladder's own code on these paths (store, coordinator, workers,
// export) runs under the sanitizers in test_ladder_postgresql, test_ladder_storage and test_web_api.

#include <sched.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "referee/ladder/leaderboard.hpp"
#include "referee/ladder/store.hpp"
#include "tests/ladder/ladder_harness.hpp"
#include "tests/match/harness.hpp"

using namespace arena;
using namespace arena::testing;
namespace fs = std::filesystem;

namespace {

const char* const kBrokenCpp = "int main() { this is not C++; }\n";
const char* const kCrashingPython = "import sys\nsys.exit(3)\n";

std::map<std::string, ladder::VersionRow> versions_by_label(ladder::Store& store) {
  std::map<std::string, ladder::VersionRow> out;
  auto rows = store.versions();
  REQUIRE(rows);
  for (const auto& v : *rows) out[v.bot + "@v" + std::to_string(v.number)] = v;
  return out;
}

}  // namespace

TEST_CASE("ladder on SQLite: submissions built and checked, matches played, a leaderboard, versions, export",
          "[ladder]") {
  const auto [dir, l, subs] = ladder_folders("sqlite");
  Command c = ladder_cli("init " + testing::quoted(l) + " --game stellar --placement-games 4 --check-games 1");
  INFO(c.out);
  REQUIRE(c.exit_code == 0);
  CHECK(fs::is_regular_file(l / "ladder.json"));
  CHECK(fs::is_regular_file(l / "ladder.db"));
  // A second init changes nothing.
  CHECK(ladder_cli("init " + testing::quoted(l) + " --game stellar").exit_code == 2);

  const std::vector<std::pair<std::string, fs::path>> good = {
      {"kit-cpp", starter_kit("cpp")},
      {"kit-python", starter_kit("python")},
      {"kit-js", starter_kit("javascript")},
      {"greedy", greedy_submission(subs)},
      {"random", python_random_submission(subs)},
  };
  for (const auto& [name, path] : good) {
    c = ladder_cli("submit " + testing::quoted(l) + " " + testing::quoted(path) + " --name " + name +
                   " --author alice");
    INFO(name << ": " << c.out);
    REQUIRE(c.exit_code == 0);
  }
  const fs::path broken = submission(subs, "broken", R"({"language": "cpp"})", {{"bot.cpp", kBrokenCpp}});
  const fs::path crashing = submission(subs, "crashing", R"({"language": "python"})", {{"bot.py", kCrashingPython}});
  REQUIRE(ladder_cli("submit " + testing::quoted(l) + " " + testing::quoted(broken) + " --name broken --author bob")
              .exit_code == 0);
  REQUIRE(ladder_cli("submit " + testing::quoted(l) + " " + testing::quoted(crashing) + " --name crashing --author bob")
              .exit_code == 0);

  c = ladder_cli("run " + testing::quoted(l) + " -j 2 --stop-after 24");
  INFO(c.out);
  REQUIRE(c.exit_code == 0);

  auto where = ladder::Location{l, ""};
  auto store = ladder::Store::open(where);
  REQUIRE(store);
  auto byname = versions_by_label(**store);
  for (const auto& [name, path] : good) {
    INFO(name);
    CHECK(byname[name + "@v1"].state == ladder::VersionState::active);
  }
  CHECK(byname["broken@v1"].state == ladder::VersionState::rejected);
  CHECK(byname["crashing@v1"].state == ladder::VersionState::rejected);
  // The author reads why: the compiler's message, the crash.
  c = ladder_cli("log " + testing::quoted(l) + " broken");
  CHECK(c.exit_code == 0);
  CHECK(c.out.find("error") != std::string::npos);
  c = ladder_cli("log " + testing::quoted(l) + " crashing");
  CHECK(c.exit_code == 0);
  CHECK(c.out.find("crash") != std::string::npos);

  // The leaderboard: every active version played, the random bot last.
  ladder::Leaderboard board;
  REQUIRE(board.load(**store));
  auto all = (*store)->versions();
  REQUIRE(all);
  const auto rows = board.rows(*all);
  REQUIRE(rows.size() == good.size());
  for (const auto& r : rows) {
    INFO(r.version.bot);
    CHECK(r.rating.games >= 4);  // placement games first
    CHECK(r.faults == 0);
  }
  CHECK(rows.back().version.bot == "random");
  CHECK(board.games() >= 48);  // 24 matches of two legs
  // No rejected version ever sat at a table.
  auto counted = (*store)->matches(ladder::MatchState::counted, 1000);
  REQUIRE(counted);
  for (const auto& m : *counted) {
    for (ladder::Id id : m.seats) {
      CHECK(id != byname["broken@v1"].id);
      CHECK(id != byname["crashing@v1"].id);
    }
  }

  c = ladder_cli("status " + testing::quoted(l));
  CHECK(c.exit_code == 0);
  CHECK(c.out.find("greedy@v1") != std::string::npos);
  CHECK(c.out.find("counted") != std::string::npos);

  // A new version replaces the old one; a withdrawn bot plays no more.
  REQUIRE(ladder_cli("submit " + testing::quoted(l) + " " + testing::quoted(python_random_submission(subs)) +
                     " --name random --author alice")
              .exit_code == 0);
  REQUIRE(ladder_cli("withdraw " + testing::quoted(l) + " greedy --author alice").exit_code == 0);
  auto before = (*store)->count_matches(ladder::MatchState::counted);
  REQUIRE(before);
  // Up to 4 x 2 + 4 matches queued by the first run may be played first (those of the kits only;
  // the retired versions' are dropped); then the new version's tables: placement, a share of the
  // rest. 32 more leave it (at a quarter of the tables at least) all but certain to play.
  c = ladder_cli("run " + testing::quoted(l) + " -j 2 --stop-after " + std::to_string(*before + 32));
  INFO(c.out);
  REQUIRE(c.exit_code == 0);
  byname = versions_by_label(**store);
  CHECK(byname["random@v1"].state == ladder::VersionState::retired);
  CHECK(byname["random@v2"].state == ladder::VersionState::active);
  CHECK(byname["greedy@v1"].state == ladder::VersionState::retired);
  counted = (*store)->matches(ladder::MatchState::counted, 100000);
  REQUIRE(counted);
  std::size_t with_v2 = 0;
  for (const auto& m : *counted) {
    for (ladder::Id id : m.seats) with_v2 += id == byname["random@v2"].id ? 1u : 0u;
  }
  CHECK(with_v2 > 0);

  // Export: a league folder every league tool reads.
  const fs::path out = dir / "export";
  c = ladder_cli("export " + testing::quoted(l) + " --out " + testing::quoted(out));
  INFO(c.out);
  REQUIRE(c.exit_code == 0);
  for (const char* f : {"league.json", "results.jsonl", "standings.json", "standings.md", "junit.xml"}) {
    CHECK(fs::is_regular_file(out / f));
  }
  const auto standings = nlohmann::json::parse(read_file(out / "standings.json"));
  ladder::Leaderboard after;
  REQUIRE(after.load(**store));
  CHECK(standings.at("matches").get<std::uint64_t>() == after.games());
  c = run(referee() + " html " + testing::quoted(out) + " --out " + testing::quoted(dir / "page.html") + " 2>&1");
  INFO(c.out);
  CHECK(c.exit_code == 0);
  // The exported replays verify, and so do the ladder's own (zstd) ones, read as they are.
  c = run(referee() + " verify " + testing::quoted(out / "replays" / "m000000.jsonl") + " 2>&1");
  CHECK(c.exit_code == 0);
  std::size_t stored = 0;
  for (const auto& entry : fs::directory_iterator(l / "replays")) {
    if (entry.path().extension() != ".zst" || stored++ > 0) continue;
    c = run(referee() + " verify " + testing::quoted(entry.path()) + " 2>&1");
    INFO(c.out);
    CHECK(c.exit_code == 0);
    c = run(referee() + " show " + testing::quoted(entry.path()) + " --step 3 2>&1");
    CHECK(c.exit_code == 0);
  }
  CHECK(stored == after.games());
}

TEST_CASE("ladder run --affinity: each worker's bots run on one CPU of the referee's", "[ladder]") {
  const auto [dir, l, subs] = ladder_folders("affinity");
  Command c = ladder_cli("init " + testing::quoted(l) + " --game stellar --placement-games 2 --check-games 1");
  INFO(c.out);
  REQUIRE(c.exit_code == 0);
  // Two Python bots that write the CPUs they may use (os.sched_getaffinity) on stderr at every
  // decision, which the replay keeps with the step.
  for (const char* name : {"cpus-a", "cpus-b"}) {
    const fs::path folder = submission(subs, name, R"({"language": "python", "main": "bot.py"})", {});
    testing::write_first_legal_bot(folder / "bot.py", "", "",
                                   "print('cpus=' + ','.join(map(str, sorted(os.sched_getaffinity(0)))), "
                                   "file=sys.stderr, flush=True)");
    c = ladder_cli("submit " + testing::quoted(l) + " " + testing::quoted(folder) + " --name " + name);
    INFO(c.out);
    REQUIRE(c.exit_code == 0);
  }
  c = ladder_cli("run " + testing::quoted(l) + " -j 2 --affinity --stop-after 6");
  INFO(c.out);
  REQUIRE(c.exit_code == 0);
  CHECK_THAT(c.out, Catch::Contains("2 workers pinned to CPUs"));
  const fs::path out = dir / "export";
  c = ladder_cli("export " + testing::quoted(l) + " --out " + testing::quoted(out));
  REQUIRE(c.exit_code == 0);

  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  REQUIRE(::sched_getaffinity(0, sizeof allowed, &allowed) == 0);
  std::size_t replays = 0;
  for (const auto& entry : fs::directory_iterator(out / "replays")) {
    ++replays;
    INFO(entry.path());
    std::set<std::string> seen;  // every step's line, both seats: one worker played the match
    std::ifstream in(entry.path());
    for (std::string line; std::getline(in, line);) {
      const auto step = nlohmann::json::parse(line);
      if (!step.contains("stderr")) continue;
      for (const auto& text : step["stderr"]) {  // the step's lines
        REQUIRE(text.get<std::string>().rfind("cpus=", 0) == 0);
        seen.insert(text.get<std::string>().substr(5));
      }
    }
    REQUIRE(seen.size() == 1);
    const std::string cpu = *seen.begin();
    INFO("cpus=" << cpu);
    REQUIRE(cpu.find(',') == std::string::npos);
    CHECK(CPU_ISSET(static_cast<std::size_t>(std::stoi(cpu)), &allowed));
  }
  CHECK(replays >= 6);
}
