// The options of a match that play, league and validate share (referee/cli/common.hpp,
// MatchArgs): every bad value is refused by all three with the same message and exit code 2,
// before anything runs; a league's and validate's re-run commands carry the options they ran with; two plays
// sharing --out keep their stderr logs apart; a bot command is named and checked by one list of
// interpreters.

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <vector>

#include "referee/match/command.hpp"
#include "tests/match/harness.hpp"

using namespace arena;
using Catch::Contains;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// The command `referee <command>` with two random bots (one, the bot under test, for validate),
// writing under `dir`, then `flags`; stderr and the exit code together on stdout.
std::string with_flags(const std::string& command, const fs::path& dir, const std::string& flags) {
  const std::string bot = testing::random_bot();
  const std::string bots = command == "validate" ? bot : fmt::format("--bot {} --bot {}", bot, bot);
  return fmt::format("{} {} {} --out {} {} 2>&1; echo \"exit $?\"", ARENA_REFEREE, command, bots,
                     (dir / command).string(), flags);
}

}  // namespace

TEST_CASE("match options: play, league and validate refuse each bad value alike, exit 2, nothing written",
          "[cli][league][validate]") {
  const fs::path dir = testing::fresh_dir("match_options", "refused");
  struct Bad {
    std::string flags;
    std::string message;  // the part every command prints
  };
  const std::vector<Bad> bad = {
      {"--env FOO", "--env: expects KEY=VALUE, got \"FOO\""},
      {"--env =x", "--env: expects KEY=VALUE, got \"=x\""},
      {"--env A=1 --env B", "--env: expects KEY=VALUE, got \"B\""},
      {"--init-ms -1", "--init-ms: -1 is not a whole number in"},
      {"--decision-ms 99999999999", "--decision-ms: 99999999999 is not a whole number in"},
      {"--time-bank-ms -5", "--time-bank-ms: -5 is not a whole number in"},
      {"--time-scale 0", "--time-scale: 0 is not a number in"},
      {"--max-line-bytes 0", "--max-line-bytes: 0 is not a whole number in"},
      {"--grace-ms -1", "--grace-ms: -1 is not a whole number in"},
      {"--grace-ms 1e9", "--grace-ms: 1e9 is not a whole number in"},
      {"--sandbox bogus", "--sandbox: bogus not in"},
      {"--cpu-limit-s -1", "--cpu-limit-s: -1 is not a whole number in"},
      {"--memory-mb 18446744073709551616", "--memory-mb: 18446744073709551616 is not a whole number in"},
      {"--processes 0", "--processes: 0 is not a whole number in"},
      // Three values for two bots (one for validate): neither once nor once per bot.
      {"--address-space-mb 1 --address-space-mb 2 --address-space-mb 3", "--address-space-mb given 3 times for"},
  };
  for (const Bad& b : bad) {
    for (const std::string command : {"play", "league", "validate"}) {
      INFO(command << " " << b.flags);
      const auto c = testing::run(with_flags(command, dir, b.flags));
      CHECK_THAT(c.out, Contains(b.message));
      CHECK_THAT(c.out, Contains("exit 2"));
      // Refused before anything ran: no replay, journal or log was written.
      std::error_code ec;
      bool wrote = false;
      for (auto it = fs::recursive_directory_iterator(dir / command, ec); !ec && it != fs::end(it); ++it) {
        wrote = wrote || it->is_regular_file();
      }
      CHECK_FALSE(wrote);
    }
  }
}

TEST_CASE("match options: a league's re-run commands carry --env, the grace and the sandbox, and replay the match",
          "[cli][league]") {
  const fs::path dir = testing::fresh_dir("match_options", "rerun");
  // The bots' environment reaches them: a bot that needs X=1 would crash in a re-run without it.
  const std::string bot = testing::reachable_random_bot();  // the bots' own uid runs it (basic)
  const auto league =
      testing::run(fmt::format("{} league --bot {} --bot '{} --seed 3' --deals 1 --env X=1 --grace-ms 50 "
                               "--sandbox basic --rating-interval 0 --concurrency 1 --out {} 2>/dev/null",
                               ARENA_REFEREE, bot, bot, (dir / "league").string()));
  REQUIRE(league.exit_code == 0);
  std::ifstream journal(dir / "league" / "results.jsonl");
  std::string line;
  int matches = 0;
  while (std::getline(journal, line)) {
    const json record = json::parse(line);
    const std::string rerun = record.at("rerun");
    INFO(rerun);
    CHECK_THAT(rerun, Contains(" --env X=1") && Contains(" --grace-ms 50") && Contains(" --sandbox basic"));
    CHECK_THAT(league.out, Contains(rerun));  // printed as journaled
    // Run as printed (into a folder of its own), it plays the same match: same seed, same scores.
    const auto again =
        testing::run(fmt::format("{} --out {} 2>/dev/null", rerun, (dir / fmt::format("again{}", matches)).string()));
    REQUIRE(again.exit_code == 0);
    const json replayed = json::parse(again.out);
    CHECK(replayed.at("seed") == record.at("seed"));
    CHECK(replayed.at("end") == record.at("end"));
    REQUIRE(replayed.at("scores").size() == record.at("seats").size());
    REQUIRE(replayed.at("ranks").size() == record.at("seats").size());
    for (std::size_t s = 0; s < record.at("seats").size(); ++s) {
      CHECK(replayed.at("scores").at(s).get<double>() == record.at("seats").at(s).at("score").get<double>());
      CHECK(replayed.at("ranks").at(s) == record.at("seats").at(s).at("rank"));
    }
    // The replay it wrote holds that result in its footer, as the league's replay of the match does.
    const auto verified =
        testing::run(fmt::format("{} verify {} 2>&1", ARENA_REFEREE, replayed.at("replay").get<std::string>()));
    CHECK(verified.exit_code == 0);
    ++matches;
  }
  CHECK(matches == 2);  // one duplicate deal, two legs
}

TEST_CASE(
    "match options: validate's re-run command of a fault carries --env, the grace and the sandbox, and replays it",
    "[cli][validate]") {
  const fs::path dir = testing::fresh_dir("match_options", "validate_rerun");
  const auto v = testing::run(
      fmt::format("{} validate {} --opponent {} --games 1 --seed 5 --json --env X=1 --grace-ms 50 --sandbox none "
                  "--open-files 200 --out {} 2>/dev/null",
                  ARENA_REFEREE, match::shell_quote(testing::faulty_bot("crash", "--at 2")), testing::random_bot(),
                  (dir / "validate").string()));
  REQUIRE(v.exit_code == 1);
  const json report = json::parse(v.out);
  REQUIRE(report.at("faults").size() == 2);  // one per seat
  for (const json& fault : report.at("faults")) {
    const std::string rerun = fault.at("rerun");
    INFO(rerun);
    CHECK_THAT(rerun, Contains(" --env X=1") && Contains(" --grace-ms 50") && Contains(" --sandbox none") &&
                          Contains(" --open-files 200"));
    // Run as printed, the bot faults again: the same seat, kind and request.
    const auto again = testing::run(fmt::format("{} --out {} 2>/dev/null", rerun, (dir / "again").string()));
    CHECK(again.exit_code == 1);
    const json replayed = json::parse(again.out);
    REQUIRE(replayed.at("fault").is_object());
    CHECK(replayed.at("fault").at("seat") == fault.at("seat"));
    CHECK(replayed.at("fault").at("kind") == fault.at("kind"));
    CHECK(replayed.at("fault").at("request_id") == fault.at("request_id"));
  }
}

TEST_CASE("play: two runs sharing --out with their own --replay keep their stderr logs apart", "[cli]") {
  const fs::path dir = testing::fresh_dir("match_options", "logs");
  auto play = [&](const std::string& replay) {
    return testing::run(
        fmt::format("{} play --bot {} --bot {} --seed 5 --sandbox none --out {} --replay {} 2>/dev/null", ARENA_REFEREE,
                    testing::random_bot(), testing::random_bot(), (dir / "logs").string(), (dir / replay).string()));
  };
  // At once, and again in the same second: every run's logs are its own.
  auto first = std::async(std::launch::async, play, "a.jsonl");
  auto second = std::async(std::launch::async, play, "b.jsonl");
  const auto a = first.get();
  const auto b = second.get();
  const auto c = play("sub/a.jsonl");  // the same replay name in another folder
  std::vector<std::string> logs;
  for (const auto& run : {a, b, c}) {
    REQUIRE(run.exit_code == 0);
    const json result = json::parse(run.out);
    CHECK(result.at("replay").get<std::string>().find(".jsonl") != std::string::npos);
  }
  for (const char* name : {"a.seat0.stderr.log", "a.seat1.stderr.log", "b.seat0.stderr.log", "b.seat1.stderr.log",
                           "a-2.seat0.stderr.log", "a-2.seat1.stderr.log"}) {
    INFO(name);
    CHECK(fs::is_regular_file(dir / "logs" / name));
  }
  // Nothing but those six: no stray claim files.
  std::size_t files = 0;
  for (const auto& entry : fs::directory_iterator(dir / "logs")) files += entry.is_regular_file() ? 1U : 0U;
  CHECK(files == 6);
}

TEST_CASE("bot command: one list of interpreters names and checks a command", "[cli]") {
  auto command = [](const std::string& text) { return match::BotCommand::parse(text).value(); };
  CHECK(command("build/sample_bots/random_bot --seed 3").display_name() == "random_bot");
  CHECK(command("python3 -u bot.py").display_name() == "bot.py");
  // A versioned interpreter is an interpreter: named after its script, and its script checked.
  CHECK(command("python3.11 bot.py").display_name() == "bot.py");
  CHECK(*command("/usr/bin/python3.11 -u bot.py").script() == "bot.py");
  CHECK(command("node --max-old-space-size=512 main.js").display_name() == "main.js");
  CHECK(command("python3 -c 'print(1)'").script() == nullptr);
  // java names a class (or -jar FILE), env a program: named after it, not checked as a file.
  CHECK(command("java -Xmx1g Bot").display_name() == "Bot");
  CHECK(command("java -Xmx1g Bot").script() == nullptr);
  CHECK(command("env python3 bot.py").display_name() == "python3");
  CHECK_FALSE(match::BotCommand::parse("python3 'bot.py").ok());
  const fs::path dir = testing::fresh_dir("match_options", "preflight");
  fs::create_directories(dir);
  const auto missing = match::preflight(command("python3.11 no_such_bot.py"), dir, {"PATH=/usr/bin:/bin"});
  if (fs::exists("/usr/bin/python3.11")) {
    REQUIRE_FALSE(missing.ok());
    CHECK_THAT(missing.error(), Contains("no_such_bot.py"));
  }
  // shell_quote is read back by split_command word for word.
  for (const std::string word : {"plain", "with space", "it's", "", "$HOME", "a\"b"}) {
    const auto back = match::split_command("x " + match::shell_quote(word));
    REQUIRE(back.ok());
    REQUIRE(back->size() == 2);
    CHECK(back->at(1) == word);
  }
}

TEST_CASE("match options: a bot command that does not parse is refused where it enters, exit 2, nothing written",
          "[cli][league][validate]") {
  const fs::path dir = testing::fresh_dir("match_options", "unparsed");
  const std::string bot = testing::random_bot();
  // The command line of each entry point with one unterminated quote, and what it says.
  struct Entry {
    std::string name;
    std::string args;
    std::string message;
  };
  const fs::path league_file = dir / "league.json";
  { std::ofstream(league_file) << json{{"bots", {bot, "python3 'bot.py"}}}.dump(); }
  const std::vector<Entry> entries = {
      {"play", fmt::format("play --bot {} --bot \"python3 'bot.py\"", bot), "--bot: unterminated ' quote"},
      {"league", fmt::format("league --bot {} --bot \"python3 'bot.py\"", bot), "--bot: unterminated ' quote"},
      {"league-file", fmt::format("league {}", league_file.string()), "unterminated ' quote"},
      {"validate", "validate \"python3 'bot.py\"", "unterminated ' quote"},
      {"opponent", fmt::format("validate {} --opponent \"python3 'bot.py\"", bot), "--opponent: unterminated ' quote"},
  };
  for (const Entry& e : entries) {
    INFO(e.name);
    const fs::path out = dir / e.name;
    const auto c =
        testing::run(fmt::format("{} {} --out {} 2>&1; echo \"exit $?\"", ARENA_REFEREE, e.args, out.string()));
    CHECK_THAT(c.out, Contains(e.message) && Contains("in the command \"python3 'bot.py\""));
    CHECK_THAT(c.out, Contains("exit 2"));
    std::error_code ec;
    bool wrote = false;
    for (auto it = fs::recursive_directory_iterator(out, ec); !ec && it != fs::end(it); ++it) {
      wrote = wrote || it->is_regular_file();
    }
    CHECK_FALSE(wrote);
  }
}
