// `referee validate`: the sample bots pass; every faulty bot fails with the right fault, its reply,
// the request it was answering and exit code 1; --seats checks every seat of larger matches; the
// report states each seat's sandbox tier; usage errors exit with 2 and readable limits.

#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/match/harness.hpp"

using namespace arena;
using Catch::Contains;
using Catch::StartsWith;
using nlohmann::json;

using testing::out_dir;
using testing::referee;

namespace {

struct Validated {
  int exit_code = -1;
  json report;       // stdout, parsed (--json)
  std::string text;  // stderr, for people
};

// Runs `referee validate '<bot>' --json --out <fresh folder> <flags>`.
Validated validate(const std::string& bot, const std::string& flags, const std::string& name) {
  const std::string out = out_dir("validate") + "/" + name;
  std::filesystem::remove_all(out);
  std::filesystem::create_directories(out_dir("validate"));
  const std::string err = out + ".stderr.txt";
  const auto c = testing::run(fmt::format("{} validate '{}' --json --out {} {} 2>{}", referee(), bot, out, flags, err));
  Validated v;
  v.exit_code = c.exit_code;
  v.report = json::parse(c.out, nullptr, false);
  std::ifstream in(err);
  v.text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return v;
}

// One opponent, one game per seat, short decisions: a faulty bot fails quickly.
const std::string kFaultyFlags = fmt::format("--opponent {} --games 1 --seed 5 --decision-ms 500", ARENA_RANDOM_BOT);

}  // namespace

TEST_CASE("validate: the sample bots pass, against both sample opponents in both seats", "[validate]") {
  const std::vector<std::pair<std::string, std::string>> bots = {
      {"random", testing::random_bot()}, {"greedy", testing::greedy_bot()}, {"python", testing::python_bot()}};
  for (const auto& [name, bot] : bots) {
    INFO(name);
    // No --opponent: the sample bots next to the referee. Generous limits: a loaded machine must not fail this.
    const auto v = validate(bot, "--games 1 --seed 11 --decision-ms 5000 --init-ms 20000", "pass-" + name);
    INFO(v.text);
    CHECK(v.exit_code == 0);
    REQUIRE(v.report.is_object());
    CHECK(v.report.at("verdict") == "PASS");
    CHECK(v.report.at("ok") == true);
    CHECK(v.report.at("faults").empty());
    CHECK(v.report.at("handshake").at("ok") == true);
    CHECK_FALSE(v.report.at("handshake").at("name").get<std::string>().empty());
    const auto& results = v.report.at("results");
    REQUIRE(results.size() == 4);  // random_bot and greedy_bot, seat 0 and seat 1
    for (const auto& r : results) {
      CHECK(r.at("games") == 1);
      CHECK(r.at("faults") == 0);
    }
    CHECK(results[0].at("opponent").get<std::string>().find("random_bot") != std::string::npos);
    CHECK(results[2].at("opponent").get<std::string>().find("greedy_bot") != std::string::npos);
    CHECK(v.report.at("replays").at("verified") == 4);
    CHECK(v.report.at("replays").at("diverged") == 0);
    const auto& timing = v.report.at("timing");
    CHECK(timing.at("decisions").get<int>() > 0);
    CHECK(timing.at("limit_ms") == 5000);
    CHECK(timing.at("median_ms").get<double>() <= timing.at("p99_ms").get<double>());
    CHECK(timing.at("p99_ms").get<double>() <= timing.at("max_ms").get<double>());
    CHECK(timing.at("max_ms").get<double>() <= 5000);
    for (const auto& m : v.report.at("matches")) CHECK(std::filesystem::exists(m.at("replay").get<std::string>()));
    CHECK_THAT(v.text, Contains("handshake: ok") && Contains("decision times") && Contains("\nPASS\n"));
  }
}

TEST_CASE("validate: a faulty bot fails with the fault, its reply and the request it answered", "[validate]") {
  struct Case {
    std::string mode;
    std::string kind;
  };
  const std::vector<Case> cases = {
      {"garbage", "malformed"}, {"illegal --at 3", "illegal"}, {"crash --at 2", "crash"}, {"sleep", "timeout"}};
  for (const auto& c : cases) {
    INFO(c.mode);
    const auto v = validate(testing::faulty_bot(c.mode), kFaultyFlags, "fail-" + c.mode.substr(0, c.mode.find(' ')));
    INFO(v.text);
    CHECK(v.exit_code == 1);
    REQUIRE(v.report.is_object());
    CHECK(v.report.at("verdict") == "FAIL: 2 faults");  // one per seat
    CHECK(v.report.at("ok") == false);
    CHECK_THAT(v.text, Contains("\nFAIL: 2 faults\n"));
    const auto& faults = v.report.at("faults");
    REQUIRE(faults.size() == 2);
    for (const auto& f : faults) {
      CHECK(f.at("kind") == c.kind);
      CHECK(f.at("phase") == "decision");
      // The request it was answering, rebuilt from the replay: this seat's, with the fault's id.
      const json& request = f.at("request");
      REQUIRE(request.is_object());
      CHECK(request.at("type") == "request");
      CHECK(request.at("id") == f.at("request_id"));
      CHECK(request.at("seat") == f.at("seat"));
      CHECK(request.at("time_left_ms") == 500);
      CHECK_FALSE(request.at("legal").empty());
      CHECK(std::filesystem::exists(f.at("input").get<std::string>()));
      CHECK_THAT(f.at("rerun").get<std::string>(), Contains(" play --game stellar") && Contains("--seed 5"));
      if (c.kind == "malformed") CHECK_THAT(f.at("raw").get<std::string>(), Contains("this is not json {oops"));
      if (c.kind == "illegal") {
        CHECK_THAT(f.at("raw").get<std::string>(), Contains(R"({"kind":"take","slot":99})"));
        CHECK(std::find(request.at("legal").begin(), request.at("legal").end(), json{{"kind", "take"}, {"slot", 99}}) ==
              request.at("legal").end());
      }
      if (c.kind == "crash") {
        CHECK_THAT(f.at("message").get<std::string>(), Contains("SIGABRT"));
        CHECK_THAT(f.at("stderr_tail").dump(), Contains("triggering crash"));
      }
    }
    CHECK(faults[0].at("seat") == 0);
    CHECK(faults[1].at("seat") == 1);
    CHECK_THAT(v.text, Contains("FAULT 1: seat 0") && Contains("FAULT 2: seat 1") && Contains("re-run:"));
  }
}

TEST_CASE("validate: a bot that exits before its ready message fails the handshake", "[validate]") {
  const auto v = validate(testing::faulty_bot("exit-early"), kFaultyFlags, "fail-exit-early");
  INFO(v.text);
  CHECK(v.exit_code == 1);
  REQUIRE(v.report.is_object());
  CHECK(v.report.at("verdict") == "FAIL: 1 fault");
  CHECK(v.report.at("handshake").at("ok") == false);
  CHECK(v.report.at("results").empty());  // no match is played after a failed handshake
  REQUIRE(v.report.at("faults").size() == 1);
  const json& f = v.report.at("faults")[0];
  CHECK(f.at("phase") == "handshake");
  CHECK(f.at("kind") == "crash");
  CHECK(f.at("request_id") == 0);
  CHECK_THAT(f.at("message").get<std::string>(), Contains("exit code 3"));
  CHECK(f.at("request").at("type") == "hello");  // what it was answering
  CHECK_THAT(v.text, Contains("handshake: FAILED") && Contains("\nFAIL: 1 fault\n"));
}

TEST_CASE("validate: the request in the report is byte for byte the one the bot was sent", "[validate]") {
  // The bot tees its input to a file per seat, then plays illegally at its third request.
  const std::string logs = out_dir("validate") + "/tee-inputs";
  std::filesystem::remove_all(logs);
  std::filesystem::create_directories(logs);
  const std::string bot =
      fmt::format(R"(sh -c "tee -a {}/seat\$ARENA_SEAT.jsonl | {}")", logs, testing::faulty_bot("illegal --at 3"));
  // The tee writes outside the bot's private directory: no sandbox for this instrumented bot.
  const auto v = validate(bot, kFaultyFlags + " --sandbox none", "tee");
  INFO(v.text);
  CHECK(v.exit_code == 1);
  REQUIRE(v.report.is_object());
  REQUIRE(v.report.at("faults").size() == 2);
  for (const auto& f : v.report.at("faults")) {
    CHECK(f.at("kind") == "illegal");
    std::ifstream in(fmt::format("{}/seat{}.jsonl", logs, f.at("seat").get<int>()));
    json sent;
    for (std::string line; std::getline(in, line);) {
      const json j = json::parse(line);
      if (j.at("type") == "request" && j.at("id") == f.at("request_id")) sent = j;
    }
    REQUIRE(sent.is_object());
    CHECK(sent == f.at("request"));
  }
}

TEST_CASE("validate: usage errors exit with 2", "[validate]") {
  const std::string out = out_dir("validate") + "/usage";
  auto c =
      testing::run(fmt::format("{} validate {} --game chess --out {} 2>&1", referee(), testing::random_bot(), out));
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("unknown game \"chess\""));
  c = testing::run(referee() + " validate 2>&1");
  CHECK(c.exit_code == 2);
  c = testing::run(fmt::format("{} validate {} --games 0 --out {} 2>&1", referee(), testing::random_bot(), out));
  CHECK(c.exit_code == 2);
  c = testing::run(fmt::format("{} validate {} --opponent /no/such/bot --games 1 --out {} 2>&1", referee(),
                               testing::random_bot(), out));
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("/no/such/bot"));
  c = testing::run(fmt::format("{} validate {} --config '{{\"facedown_step3\":1}}' --out {} 2>&1", referee(),
                               testing::random_bot(), out));
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("facedown_step3"));
}

namespace {

// The replay header's record of the sandbox tier of each seat (sandbox.seats[i].tier).
std::vector<std::string> header_tiers(const json& replay) {
  std::ifstream in(replay.get<std::string>());
  std::string line;
  std::getline(in, line);
  const json header = json::parse(line);
  std::vector<std::string> tiers;
  for (const auto& seat : header.at("extra").at("sandbox").at("seats")) tiers.push_back(seat.at("tier"));
  return tiers;
}

// The longest run of digits in `text`: a range error names its limits, never a 300-digit number.
std::size_t longest_digit_run(const std::string& text) {
  std::size_t longest = 0;
  std::size_t run = 0;
  for (const char c : text) {
    run = std::isdigit(static_cast<unsigned char>(c)) != 0 ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return longest;
}

}  // namespace

TEST_CASE("validate: --seats checks the bot in every seat of a 3- and a 4-seat Stella Quest match", "[validate]") {
  for (const int seats : {3, 4}) {
    INFO(seats);
    const auto v = validate(testing::random_bot(),
                            fmt::format("--game stella_quest --seats {} --opponent {} --games 1 --seed 7 "
                                        "--decision-ms 5000 --init-ms 20000",
                                        seats, ARENA_RANDOM_BOT),
                            fmt::format("seats-{}", seats));
    INFO(v.text);
    CHECK(v.exit_code == 0);
    REQUIRE(v.report.is_object());
    CHECK(v.report.at("verdict") == "PASS");
    CHECK(v.report.at("seats") == seats);
    CHECK(v.report.at("seat_counts") == json::array({seats}));
    CHECK(v.report.at("handshake").at("seats") == seats);
    const auto& results = v.report.at("results");
    REQUIRE(results.size() == static_cast<std::size_t>(seats));  // the bot in each seat in turn
    for (int seat = 0; seat < seats; ++seat) {
      CHECK(results[static_cast<std::size_t>(seat)].at("seat") == seat);
      CHECK(results[static_cast<std::size_t>(seat)].at("seats") == seats);
      CHECK(results[static_cast<std::size_t>(seat)].at("games") == 1);
    }
    for (const auto& m : v.report.at("matches")) {
      // The replay is a match of that many seats: the bot in one, the opponent in all the others.
      std::ifstream in(m.at("replay").get<std::string>());
      std::string line;
      std::getline(in, line);
      const json header = json::parse(line);
      CHECK(header.at("seats") == seats);
      REQUIRE(header.at("bots").size() == static_cast<std::size_t>(seats));
      const auto bot_seat = m.at("seat").get<std::size_t>();
      for (std::size_t i = 0; i < header.at("bots").size(); ++i) {
        CHECK(header.at("bots")[i].at("name") == "random_bot");
        CHECK_THAT(header.at("bots")[i].at("command").get<std::string>(), Contains("random_bot"));
      }
      CHECK(m.at("seats") == seats);
      CHECK(bot_seat < static_cast<std::size_t>(seats));
    }
    CHECK(v.report.at("replays").at("verified") == seats);
    CHECK_THAT(v.text, Contains(fmt::format("game stella_quest ({} seats)", seats)));
    CHECK_THAT(v.text, Contains(fmt::format("as seat {} of {}:", seats - 1, seats)));
  }
}

TEST_CASE("validate: --seats all plays each seat count of the game, every seat, the same deals", "[validate]") {
  const auto v =
      validate(testing::random_bot(),
               fmt::format("--game stella_quest --seats all --opponent {} --games 1 --seed 9 --decision-ms 5000",
                           ARENA_RANDOM_BOT),
               "seats-all");
  INFO(v.text);
  CHECK(v.exit_code == 0);
  REQUIRE(v.report.is_object());
  CHECK(v.report.at("seat_counts") == json::array({2, 3, 4}));
  const auto& results = v.report.at("results");
  REQUIRE(results.size() == 2 + 3 + 4);
  std::vector<std::pair<int, int>> groups;  // (seats, seat)
  for (const auto& r : results) groups.emplace_back(r.at("seats").get<int>(), r.at("seat").get<int>());
  const std::vector<std::pair<int, int>> expected = {{2, 0}, {2, 1}, {3, 0}, {3, 1}, {3, 2},
                                                     {4, 0}, {4, 1}, {4, 2}, {4, 3}};
  CHECK(groups == expected);
  for (const auto& m : v.report.at("matches")) {
    CHECK(m.at("seed") == 9);
    // Several seat counts in one folder: the count is in the file names.
    CHECK_THAT(m.at("replay").get<std::string>(),
               Contains(fmt::format("-{}seats-seat{}-g1.jsonl", m.at("seats").get<int>(), m.at("seat").get<int>())));
  }
  CHECK_THAT(v.text, Contains("game stella_quest (2, 3 and 4 seats)"));
}

TEST_CASE("validate: a faulty bot in a 3-seat match fails in each seat with the request it was sent", "[validate]") {
  const auto v = validate(
      testing::faulty_bot("illegal --at 2"),
      fmt::format("--game stella_quest --seats 3 --opponent {} --games 1 --seed 3 --decision-ms 500", ARENA_RANDOM_BOT),
      "seats-3-faulty");
  INFO(v.text);
  CHECK(v.exit_code == 1);
  REQUIRE(v.report.is_object());
  CHECK(v.report.at("verdict") == "FAIL: 3 faults");
  const auto& faults = v.report.at("faults");
  REQUIRE(faults.size() == 3);
  for (std::size_t i = 0; i < faults.size(); ++i) {
    const json& f = faults[i];
    CHECK(f.at("seat") == i);
    CHECK(f.at("kind") == "illegal");
    CHECK(f.at("request").at("seat") == f.at("seat"));
    CHECK(f.at("request").at("id") == f.at("request_id"));
    // The re-run command plays the same 3-seat match: the bot in its seat, the opponent twice.
    const std::string rerun = f.at("rerun");
    std::size_t bots = 0;
    for (auto at = rerun.find(" --bot "); at != std::string::npos; at = rerun.find(" --bot ", at + 1)) ++bots;
    CHECK(bots == 3);
    // The input file starts with the hello of a 3-seat game.
    std::ifstream in(f.at("input").get<std::string>());
    std::string hello;
    std::getline(in, hello);
    CHECK(json::parse(hello).at("seats") == 3);
  }
}

TEST_CASE("validate: the report states the sandbox tier each seat actually had", "[validate]") {
  // An explicit tier, and the default (the strictest this machine offers): each as the replays record it.
  for (const std::string asked : {"none", ""}) {
    INFO(asked);
    const auto v = validate(testing::random_bot(),
                            fmt::format("--opponent {} --games 1 --seed 5 --decision-ms 5000{}", ARENA_RANDOM_BOT,
                                        asked.empty() ? std::string() : fmt::format(" --sandbox {}", asked)),
                            fmt::format("sandbox-{}", asked.empty() ? "default" : asked));
    INFO(v.text);
    CHECK(v.exit_code == 0);
    REQUIRE(v.report.is_object());
    const json& sandbox = v.report.at("sandbox");
    const std::string policy = sandbox.at("policy");
    CHECK(sandbox.at("asked") == (asked.empty() ? json(nullptr) : json(asked)));
    if (!asked.empty()) CHECK(policy == asked);
    CHECK(sandbox.at("handshake") == policy);
    CHECK(v.report.at("handshake").at("sandbox_tier") == policy);
    std::size_t seats = 0;
    for (const auto& m : v.report.at("matches")) {
      const auto recorded = header_tiers(m.at("replay"));
      CHECK(m.at("sandbox").get<std::vector<std::string>>() == recorded);
      for (const auto& tier : recorded) {
        CHECK(tier == policy);
        ++seats;
      }
    }
    CHECK(seats == 4);  // 2 matches of 2 seats
    CHECK(sandbox.at("seat_tiers") == json{{policy, 4}});
    CHECK(sandbox.at("bot_tiers") == json{{policy, 2}});
    CHECK(sandbox.at("as_asked") == true);
    const std::string said =
        asked.empty() ? fmt::format("the strictest tier available ({})", policy) : fmt::format("tier {}", asked);
    CHECK_THAT(v.text,
               Contains(fmt::format("sandbox: {} asked for; the handshake and all 4 seats of 2 matches ran in tier {}",
                                    said, policy)));
  }
}

TEST_CASE("validate: --seats outside the game's range is a usage error naming the range", "[validate]") {
  const std::string out = out_dir("validate") + "/usage-seats";
  struct Case {
    std::string flags;
    std::string says;
  };
  const std::vector<Case> cases = {
      {"--game stella_quest --seats 5", "--seats 5: stella_quest plays 2 to 4 seats; give 2, 3 or 4, or all"},
      {"--game stella_quest --seats 1", "stella_quest plays 2 to 4 seats"},
      {"--game stella_quest --seats -3", "--seats -3: stella_quest plays 2 to 4 seats"},
      {"--game stella_quest --seats 1e400", "--seats 1e400: stella_quest plays 2 to 4 seats"},
      {"--game stella_quest --seats 3.5", "--seats 3.5: stella_quest plays 2 to 4 seats"},
      {"--game stella_quest --seats some", "--seats some: stella_quest plays 2 to 4 seats"},
      {"--game stellar --seats 3", "--seats 3: stellar plays 2 seats only; give 2, or all"},
      {"--game stella_quest --seats " + std::string(400, '9'), "--seats 999999999999999999999999...: stella_quest"},
  };
  for (const auto& c : cases) {
    INFO(c.flags);
    const auto r =
        testing::run(fmt::format("{} validate {} {} --out {} 2>&1", referee(), testing::random_bot(), c.flags, out));
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.out, Contains(c.says));
    CHECK(longest_digit_run(r.out) <= 24);
    CHECK_FALSE(std::filesystem::exists(out));  // refused before anything is created or started
  }
}

TEST_CASE("validate: a numeric flag out of range names readable limits", "[validate]") {
  const std::string out = out_dir("validate") + "/usage-ranges";
  const std::vector<std::string> flags = {"--games",      "--seed",         "--init-ms",    "--decision-ms",
                                          "--time-scale", "--cpu-limit-s",  "--memory-mb",  "--address-space-mb",
                                          "--scratch-mb", "--file-size-mb", "--open-files", "--processes"};
  const std::vector<std::string> values = {"1e400", "1e-400", "-1", "-1e400", "18446744073709551616", "nan", "0x10"};
  for (const auto& flag : flags) {
    for (const auto& value : values) {
      INFO(flag << " " << value);
      const auto r = testing::run(
          fmt::format("{} validate {} {} {} --out {} 2>&1", referee(), testing::random_bot(), flag, value, out));
      CHECK(r.exit_code == 2);
      CHECK_THAT(r.out, Contains(flag) && Contains(value) && Contains(".."));
      CHECK(longest_digit_run(r.out) <= 20);  // 2^64-1 is the longest limit
      CHECK(r.out.size() < 400);
      CHECK_FALSE(std::filesystem::exists(out));
    }
  }
}

TEST_CASE("validate: an unwritable stderr does not end the run, the verdict is still in the exit code", "[validate]") {
  const std::string out = out_dir("validate") + "/stderr-full";
  std::filesystem::remove_all(out);
  const auto c =
      testing::run(fmt::format("{} validate {} --opponent {} --games 1 --seed 4 --decision-ms 5000 --json "
                               "--out {} 2>/dev/full",
                               referee(), testing::random_bot(), ARENA_RANDOM_BOT, out));
  CHECK(c.exit_code == 0);  // not 134: a failed write to stderr used to abort the referee
  const json report = json::parse(c.out, nullptr, false);
  REQUIRE(report.is_object());
  CHECK(report.at("verdict") == "PASS");
  CHECK(report.at("replays").at("verified") == 2);
}
