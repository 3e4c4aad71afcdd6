// Faulty bots as real executables (tests/test_bots/faulty/faulty_bot.cpp), each with its exact fault:
// the referee ends within its limits, names the fault and the offender, leaves no process behind,
// and the replay verifies.

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>

#include "referee/replay/replay.hpp"
#include "tests/match/harness.hpp"

using namespace arena;
using Catch::Contains;

namespace {

struct Case {
  std::string mode;
  std::string args;
  const char* kind;          // expected fault, or "" for none
  const char* message_part;  // expected in the fault message
  bool handshake = false;    // the fault happens before the first request
};

// The faulty bot sits in `seat`, the random bot in the other; short limits keep the suite fast,
// the assertions on time are loose so that a slow machine passes.
void check_case(const Case& c, int seat) {
  std::vector<std::string> bots = {testing::random_bot(), testing::random_bot()};
  bots[static_cast<std::size_t>(seat)] = testing::faulty_bot(c.mode, c.args);
  auto o = testing::options(bots, 4242, "fault-" + c.mode);
  o.limits.decision_ms = 600;
  o.limits.init_ms = 3000;
  const auto start = std::chrono::steady_clock::now();
  auto result = match::play(o);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  REQUIRE(result.ok());
  INFO("mode " << c.mode << " seat " << seat << "\n" << replay::to_json(*result).dump(2));
  CHECK(seconds < 30);
  if (std::string(c.kind).empty()) {
    CHECK(result->end == replay::End::finished);
  } else {
    REQUIRE(result->end == replay::End::fault);
    REQUIRE(result->fault.has_value());
    CHECK(enum_name(result->fault->kind) == c.kind);
    CHECK(result->fault->seat == seat);
    CHECK_THAT(result->fault->message, Contains(c.message_part));
    CHECK(result->winner == 1 - seat);
    CHECK(replay::to_json(*result).at("fault").at("bot").get<std::string>().size() > 0);
    if (c.handshake) {
      CHECK(result->fault->request_id == 0);
    } else {
      CHECK(result->fault->request_id > 0);
    }
  }
  CHECK(testing::leftover_processes(o).empty());
  testing::require_verifies(result->replay);
}

const std::vector<Case> kCases = {
    {"sleep", "", "timeout", "no reply"},
    {"crash", "", "crash", "SIGABRT"},
    {"exit-early", "", "crash", "exit code 3", true},
    {"garbage", "", "malformed", "invalid JSON"},
    {"illegal", "", "illegal", "illegal action"},
    {"wrong-id", "", "malformed", "wrong request id"},
    {"no-read", "", "timeout", ""},
    {"flood-stdout", "", "output_limit", "longer than"},
    {"twice", "", "malformed", ""},
    {"grandchild", "", "timeout", "no reply"},
    {"ignore-term", "", "timeout", "no reply"},
    {"late", "--delay-ms 1500", "timeout", "no reply"},
    {"slow-init", "--delay-ms 5000", "timeout", "no ready", true},
    {"flood-stderr", "", "", ""},
    {"after-end", "", "", ""},
};

}  // namespace

TEST_CASE("faulty bots: each fault is named, charged to the offender, and cleaned up", "[faults]") {
  for (const Case& c : kCases) {
    for (int seat = 0; seat < 2; ++seat) {
      DYNAMIC_SECTION(c.mode << " in seat " << seat) {
        check_case(c, seat);
      }
    }
  }
}

TEST_CASE("a bot flooding stderr gets a capped log and no fault", "[faults]") {
  auto o = testing::options({testing::faulty_bot("flood-stderr"), testing::random_bot()}, 9, "stderr-cap");
  o.stderr_cap = 256 * 1024;
  auto result = match::play(o);
  REQUIRE(result.ok());
  CHECK(result->end == replay::End::finished);
  CHECK(result->seats[0].stderr_bytes > o.stderr_cap);
  const auto size = std::filesystem::file_size(result->seats[0].stderr_log);
  CHECK(size <= o.stderr_cap + 256);
  CHECK(testing::leftover_processes(o).empty());
}

TEST_CASE("a crash records the exit, the raw bytes and the stderr tail", "[faults]") {
  auto o = testing::options({testing::faulty_bot("crash", "--at 2"), testing::random_bot()}, 5, "crash-detail");
  auto result = match::play(o);
  REQUIRE(result.ok());
  REQUIRE(result->fault.has_value());
  CHECK(result->fault->exit == "killed by signal SIGABRT");
  bool saw_trigger = false;
  for (const auto& line : result->fault->stderr_tail)
    saw_trigger = saw_trigger || line.find("triggering crash") != std::string::npos;
  CHECK(saw_trigger);
  const nlohmann::json f = replay::to_json(*result).at("fault");
  CHECK(f.at("kind") == "crash");
  CHECK(f.at("stderr_tail").size() >= 1);
}

TEST_CASE("a missing bot executable is a crash at the handshake, not a referee error", "[faults]") {
  auto o = testing::options({"/nonexistent/bot", testing::random_bot()}, 1, "missing");
  auto result = match::play(o);
  REQUIRE(result.ok());
  REQUIRE(result->fault.has_value());
  CHECK(result->fault->kind == match::FaultKind::crash);
  CHECK(result->fault->seat == 0);
  CHECK_THAT(result->fault->message, Contains("/nonexistent/bot"));
  CHECK(testing::leftover_processes(o).empty());
}

TEST_CASE("a time bank absorbs a slow decision", "[faults]") {
  auto o = testing::options({testing::faulty_bot("late", "--delay-ms 900 --at 2"), testing::random_bot()}, 3, "bank");
  o.limits.decision_ms = 600;
  o.limits.time_bank_ms = 3000;
  auto result = match::play(o);
  REQUIRE(result.ok());
  INFO(replay::to_json(*result).dump(2));
  CHECK(result->end == replay::End::finished);
}
