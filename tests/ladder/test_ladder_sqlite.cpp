// The ladder end to end on one machine (SQLite), driven as a user drives it: `referee ladder init`,
// submissions in three languages plus a bot that does not compile and one that crashes, `run`
// with two workers, the leaderboard, a new version replacing the old, withdraw, export to a league
// folder that `referee html` draws; and every bad input with its message and exit code.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>

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

TEST_CASE("ladder: bad input gets a clear message and its own exit code, and changes nothing", "[ladder]") {
  const fs::path dir = fresh_dir("ladder", "bad-input");
  const fs::path l = dir / "ladder";
  const fs::path subs = dir / "submissions";
  REQUIRE(ladder_cli("init " + testing::quoted(l) + " --game stellar").exit_code == 0);

  // Not a ladder folder; an unknown game; a wrong seat count.
  Command c = ladder_cli("status " + testing::quoted(dir / "nowhere"));
  CHECK(c.exit_code == 2);
  CHECK(c.out.find("not a ladder folder") != std::string::npos);
  c = ladder_cli("init " + testing::quoted(dir / "l2") + " --game chess");
  CHECK(c.exit_code == 2);
  CHECK(c.out.find("unknown game") != std::string::npos);
  c = ladder_cli("init " + testing::quoted(dir / "l3") + " --game stellar --seats 4");
  CHECK(c.exit_code == 2);

  // Submissions refused for their files (exit 6), each naming the problem.
  const fs::path no_manifest = subs / "no-manifest";
  fs::create_directories(no_manifest);
  std::ofstream(no_manifest / "bot.py") << "print()\n";
  c = ladder_cli("submit " + testing::quoted(l) + " " + testing::quoted(no_manifest) + " --name a --author alice");
  CHECK(c.exit_code == 6);
  CHECK(c.out.find("bot.json") != std::string::npos);
  const fs::path bad_manifest = submission(subs, "bad-manifest", R"({"language": "cobol"})", {{"bot.py", ""}});
  c = ladder_cli("submit " + testing::quoted(l) + " " + testing::quoted(bad_manifest) + " --name a --author alice");
  CHECK(c.exit_code == 6);
  CHECK(c.out.find("language") != std::string::npos);
  const fs::path linked = submission(subs, "linked", R"({"language": "python"})", {{"bot.py", "print()\n"}});
  fs::create_symlink("/etc/passwd", linked / "secret");
  c = ladder_cli("submit " + testing::quoted(l) + " " + testing::quoted(linked) + " --name a --author alice");
  CHECK(c.exit_code == 6);
  CHECK(c.out.find("secret") != std::string::npos);
  // An archive with ".." (made by Python's tarfile, as an attacker would).
  const fs::path evil = dir / "evil.tar.gz";
  c = run("/usr/bin/python3 -c \"import tarfile,io; t=tarfile.open('" + evil.string() +
          "','w:gz'); b=b'{}'; i=tarfile.TarInfo('../bot.json'); i.size=len(b); t.addfile(i, io.BytesIO(b)); "
          "t.close()\" 2>&1");
  REQUIRE(c.exit_code == 0);
  c = ladder_cli("submit " + testing::quoted(l) + " " + testing::quoted(evil) + " --name a --author alice");
  CHECK(c.exit_code == 6);
  CHECK(c.out.find("..") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "bot.json"));

  // A name that is not a name (exit 2); a name of another author (exit 7).
  const fs::path fine = python_random_submission(subs);
  CHECK(ladder_cli("submit " + testing::quoted(l) + " " + testing::quoted(fine) + " --name '../x' --author alice")
            .exit_code == 2);
  REQUIRE(ladder_cli("submit " + testing::quoted(l) + " " + testing::quoted(fine) + " --name rnd --author alice")
              .exit_code == 0);
  c = ladder_cli("submit " + testing::quoted(l) + " " + testing::quoted(fine) + " --name rnd --author mallory");
  CHECK(c.exit_code == 7);
  CHECK(c.out.find("belongs to alice") != std::string::npos);
  CHECK(ladder_cli("withdraw " + testing::quoted(l) + " rnd --author mallory").exit_code == 7);
  CHECK(ladder_cli("withdraw " + testing::quoted(l) + " nobody --author alice").exit_code == 2);

  // Nothing of the refused ones was stored: one bot, one version.
  auto store = ladder::Store::open(ladder::Location{l, ""});
  REQUIRE(store);
  auto versions = (*store)->versions();
  REQUIRE(versions);
  REQUIRE(versions->size() == 1);
  CHECK((*versions)[0].bot == "rnd");

  // A database of a newer referee is refused with both versions named (exit 8).
  c = run("/usr/bin/sqlite3 " + testing::quoted(l / "ladder.db") +
          " \"UPDATE meta SET value='99' WHERE key='schema'\" 2>&1");
  REQUIRE(c.exit_code == 0);  // sqlite3: scripts/setup.sh installs it for the tests
  c = ladder_cli("list " + testing::quoted(l));
  CHECK(c.exit_code == 8);
  CHECK(c.out.find("99") != std::string::npos);
}

TEST_CASE("ladder: a version's own seat configuration, where the ladder takes them, moves with it", "[ladder]") {
  const fs::path dir = fresh_dir("ladder", "seat-configs");
  const fs::path subs = dir / "submissions";
  const fs::path decks = fs::path(ARENA_SOURCE_DIR) / "docs" / "games" / "stellar-decks";
  auto with_deck = [&](const std::string& name, const std::string& deck) {
    const fs::path folder = python_random_submission(subs / name);
    std::ofstream(folder / "bot.json") << R"({"language": "python", "main": "random_bot.py", "seat_config": )" << deck
                                       << "}";
    return folder;
  };
  const fs::path moons = with_deck("moons", read_file(decks / "bright-moons.json"));
  const fs::path standard = with_deck("standard", read_file(decks / "standard.json"));
  const fs::path bad = with_deck("bad", R"({"deck": ["no such card"]})");

  // A ladder without seat configurations refuses one.
  const fs::path plain = dir / "plain";
  REQUIRE(ladder_cli("init " + testing::quoted(plain) + " --game stellar").exit_code == 0);
  Command c =
      ladder_cli("submit " + testing::quoted(plain) + " " + testing::quoted(moons) + " --name moons --author alice");
  CHECK(c.exit_code == 6);
  CHECK(c.out.find("seat_config") != std::string::npos);

  const fs::path l = dir / "decks";
  REQUIRE(ladder_cli("init " + testing::quoted(l) + " --game stellar --seat-configs --placement-games 1").exit_code ==
          0);
  c = ladder_cli("submit " + testing::quoted(l) + " " + testing::quoted(bad) + " --name bad --author alice");
  CHECK(c.exit_code == 6);
  CHECK(c.out.find("seat_config") != std::string::npos);
  REQUIRE(ladder_cli("submit " + testing::quoted(l) + " " + testing::quoted(moons) + " --name moons --author alice")
              .exit_code == 0);
  REQUIRE(
      ladder_cli("submit " + testing::quoted(l) + " " + testing::quoted(standard) + " --name standard --author alice")
          .exit_code == 0);
  c = ladder_cli("run " + testing::quoted(l) + " -j 1 --stop-after 1");
  INFO(c.out);
  REQUIRE(c.exit_code == 0);
  auto store = ladder::Store::open(ladder::Location{l, ""});
  REQUIRE(store);
  auto games = (*store)->games(10);
  REQUIRE(games);
  REQUIRE(games->size() == 2);
  for (const auto& g : *games) {
    auto text = (*store)->replay(g.match, g.leg);
    REQUIRE(text);
    const auto header = nlohmann::json::parse(text->substr(0, text->find('\n')));
    for (const auto& bot : header.at("bots")) {
      const std::size_t deck = bot.at("seat_config").at("deck").size();
      CHECK(deck == (bot.at("name").get<std::string>().rfind("moons", 0) == 0 ? 57u : 60u));
    }
  }
}
