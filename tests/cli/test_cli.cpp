// The `referee` executable as a user runs it: exit codes, output, and where files go.

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "tests/match/harness.hpp"

using namespace arena;
using Catch::Contains;
using nlohmann::json;

using testing::out_dir;
using testing::referee;

TEST_CASE("referee games lists Stellar with its seats", "[cli]") {
  const auto c = testing::run(referee() + " games");
  CHECK(c.exit_code == 0);
  CHECK_THAT(c.out, Contains("stellar") && Contains("seats 2"));
}

TEST_CASE("referee play: a finished match prints the result and writes under --out", "[cli]") {
  const auto c = testing::run(fmt::format("{} play --game stellar --bot {} --bot {} --seed 5 --out {} 2>/dev/null",
                                          referee(), testing::greedy_bot(), testing::random_bot(), out_dir("cli")));
  CHECK(c.exit_code == 0);
  const json result = json::parse(c.out);
  CHECK(result.at("end") == "finished");
  CHECK(result.at("seed") == 5);
  const std::string replay = result.at("replay");
  CHECK_THAT(replay, Contains(out_dir("cli")));
  CHECK(std::filesystem::exists(replay));
  for (const auto& bot : result.at("bots")) CHECK(std::filesystem::exists(bot.at("stderr_log").get<std::string>()));
  const auto v = testing::run(fmt::format("{} verify {}", referee(), replay));
  CHECK(v.exit_code == 0);
  CHECK_THAT(v.out, Contains("OK"));
}

TEST_CASE("referee play: a bot fault exits with 1 and names the offender", "[cli]") {
  const auto c =
      testing::run(fmt::format("{} play --bot '{}' --bot {} --seed 5 --decision-ms 300 --out {} 2>&1 >/dev/null",
                               referee(), testing::faulty_bot("garbage"), testing::random_bot(), out_dir("cli")));
  CHECK(c.exit_code == 1);
  CHECK_THAT(c.out, Contains("forfeits") && Contains("malformed") && Contains("this is not json"));
}

TEST_CASE("referee: usage errors exit with 2 and say what is wrong", "[cli]") {
  const auto bots = fmt::format("--bot {} --bot {}", testing::random_bot(), testing::random_bot());
  auto c = testing::run(referee() + " play --no-such-flag 2>&1");
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("no-such-flag"));
  c = testing::run(fmt::format("{} play --game chess {} --out {} 2>&1", referee(), bots, out_dir("cli")));
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("unknown game \"chess\""));
  c = testing::run(
      fmt::format("{} play {} --config '{{\"facedown_step3\":1}}' --out {} 2>&1", referee(), bots, out_dir("cli")));
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("facedown_step3"));
  c = testing::run(fmt::format("{} play --bot {} --out {} 2>&1", referee(), testing::random_bot(), out_dir("cli")));
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("needs 2 bots (one --bot per seat), got 1"));
  c = testing::run(fmt::format("{} play {} --decision-ms -5 2>&1", referee(), bots));
  CHECK(c.exit_code == 2);
  c = testing::run(referee() + " 2>&1");
  CHECK(c.exit_code == 2);
}

TEST_CASE("referee verify: exit 4 on divergence, 5 on an unreadable file", "[cli]") {
  std::filesystem::create_directories(out_dir("cli"));
  const std::string garbage = out_dir("cli") + "/garbage.jsonl";
  std::ofstream(garbage) << "hello\n";
  auto c = testing::run(fmt::format("{} verify {} 2>&1", referee(), garbage));
  CHECK(c.exit_code == 5);
  CHECK_THAT(c.out, Contains("line 1"));
  c = testing::run(fmt::format("{} verify {}/missing.jsonl 2>&1", referee(), out_dir("cli")));
  CHECK(c.exit_code == 5);

  const auto played = testing::run(fmt::format("{} play --bot {} --bot {} --seed 9 --out {} 2>/dev/null", referee(),
                                               testing::random_bot(), testing::random_bot(), out_dir("cli")));
  const std::string replay = json::parse(played.out).at("replay");
  std::ifstream in(replay);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  json step = json::parse(lines[4]);
  step["hash"] = "ffffffffffffffff";
  lines[4] = step.dump();
  const std::string tampered = out_dir("cli") + "/tampered.jsonl";
  std::ofstream out(tampered);
  for (const auto& l : lines) out << l << '\n';
  out.close();
  c = testing::run(fmt::format("{} verify {} 2>&1", referee(), tampered));
  CHECK(c.exit_code == 4);
  CHECK_THAT(c.out, Contains("step 3") && Contains("hash"));
}

TEST_CASE("referee play: a deck list per seat, given by file, plays, verifies and shows, and a bad one exits 2",
          "[cli][seat_config]") {
  std::filesystem::create_directories(out_dir("cli"));
  const std::string docs = std::string(ARENA_SOURCE_DIR "/docs/games/stellar-decks");
  const auto played =
      testing::run(fmt::format("{} play --bot {} --seat-config {}/bright-moons.json --bot {} --seat-config "
                               "@{}/standard.json --seed 12 --out {} 2>/dev/null",
                               referee(), testing::random_bot(), docs, testing::greedy_bot(), docs, out_dir("cli")));
  REQUIRE(played.exit_code == 0);
  const std::string replay = json::parse(played.out).at("replay");
  std::ifstream in(replay);
  std::string first;
  std::getline(in, first);
  const json header = json::parse(first);
  CHECK(header.at("bots").at(0).at("seat_config").at("deck").size() == 57);
  CHECK(header.at("bots").at(1).at("seat_config").at("deck").size() == 60);
  CHECK(header.at("rules_revision") == 1);
  CHECK(header.contains("referee_version"));

  const auto v = testing::run(fmt::format("{} verify {}", referee(), replay));
  CHECK(v.exit_code == 0);
  const auto shown = testing::run(fmt::format("{} show {} --step 0", referee(), replay));
  CHECK(shown.exit_code == 0);
  CHECK_THAT(shown.out, Contains("a deck list of 57 cards") && Contains("Moon 4 (bright) ** x2") &&
                            Contains("a deck list of 60 cards"));

  // A card with number 9 in seat 1's list: exit 2 before any bot starts, naming the seat and the card.
  json bad = json::parse(std::ifstream(docs + "/bright-moons.json"));
  bad["deck"][17]["number"] = 9;
  const std::string bad_path = out_dir("cli") + "/bad-deck.json";
  std::ofstream(bad_path) << bad.dump();
  auto c = testing::run(fmt::format("{} play --bot {} --seat-config - --bot {} --seat-config {} --out {} 2>&1",
                                    referee(), testing::random_bot(), testing::random_bot(), bad_path, out_dir("cli")));
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("seat 1: deck list: card 17 (Moon 4 (bright)) has number 9"));
  c = testing::run(
      fmt::format("{} play --bot {} --seat-config {}/no-such-deck.json --bot {} --seat-config - --out {} 2>&1",
                  referee(), testing::random_bot(), out_dir("cli"), testing::random_bot(), out_dir("cli")));
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("no such file") && Contains("no-such-deck.json"));
  c = testing::run(
      fmt::format("{} play --game stella_quest --bot {} --seat-config '{{}}' --bot {} --seat-config - --out {} 2>&1",
                  referee(), testing::random_bot(), testing::random_bot(), out_dir("cli")));
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("seat 0: stella_quest takes no per-seat configuration"));
}

TEST_CASE("referee verify refuses a replay of another rules revision, by name", "[cli]") {
  std::filesystem::create_directories(out_dir("cli"));
  const auto played = testing::run(fmt::format("{} play --bot {} --bot {} --seed 3 --out {} 2>/dev/null", referee(),
                                               testing::random_bot(), testing::random_bot(), out_dir("cli")));
  const std::string replay = json::parse(played.out).at("replay");
  std::ifstream in(replay);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  json header = json::parse(lines[0]);
  header["rules_revision"] = 7;
  lines[0] = header.dump();
  const std::string other = out_dir("cli") + "/revision7.jsonl";
  std::ofstream out(other);
  for (const auto& l : lines) out << l << '\n';
  out.close();
  const auto c = testing::run(fmt::format("{} verify {} 2>&1", referee(), other));
  CHECK(c.exit_code == 5);
  CHECK_THAT(c.out, Contains("cannot verify") && Contains("rules revision 7") && Contains("stellar"));
}

TEST_CASE("referee --version names the version, the git commit and the protocol", "[cli]") {
  const auto c = testing::run(referee() + " --version");
  CHECK(c.exit_code == 0);
  CHECK_THAT(c.out, Contains("stellar-arena 0.1.0 (commit ") && Contains("), protocols 1-2"));
  const auto start = c.out.find("(commit ") + 8;
  const std::string commit = c.out.substr(start, c.out.find(')', start) - start);
  INFO(commit);
  const std::string hex = commit.substr(0, commit.find('-'));
  const bool is_hex = hex.size() == 12 && hex.find_first_not_of("0123456789abcdef") == std::string::npos;
  CHECK((commit == "unknown" || (is_hex && (commit.size() == 12 || commit.substr(12) == "-dirty"))));
}
