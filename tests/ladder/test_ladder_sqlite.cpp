// The ladder on SQLite through `referee ladder`: every bad input with its message and exit code,
// and per-version seat configurations (the whole run end to end: test_ladder_run.cpp).

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "referee/ladder/store.hpp"
#include "tests/ladder/ladder_harness.hpp"
#include "tests/match/harness.hpp"

using namespace arena;
using namespace arena::testing;
namespace fs = std::filesystem;

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
