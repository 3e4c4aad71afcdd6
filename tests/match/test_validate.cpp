// `referee validate`: the sample bots pass; every faulty bot fails with the right fault, its reply,
// the request it was answering and exit code 1; usage errors exit with 2.

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "tests/match/harness.hpp"

using namespace arena;
using Catch::Contains;
using Catch::StartsWith;
using nlohmann::json;

namespace {

std::string referee() {
  return ARENA_REFEREE;
}
std::string out_dir() {
  return std::string(ARENA_TEST_OUT "/validate");
}

struct Validated {
  int exit_code = -1;
  json report;       // stdout, parsed (--json)
  std::string text;  // stderr, for people
};

// Runs `referee validate '<bot>' --json --out <fresh folder> <flags>`.
Validated validate(const std::string& bot, const std::string& flags, const std::string& name) {
  const std::string out = out_dir() + "/" + name;
  std::filesystem::remove_all(out);
  std::filesystem::create_directories(out_dir());
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
  const std::string logs = out_dir() + "/tee-inputs";
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
  const std::string out = out_dir() + "/usage";
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
