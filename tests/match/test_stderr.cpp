// The stderr a bot writes during a decision, recorded with that decision's replay step: the lines
// as stderr_lines() makes them (split, capped, invalid UTF-8 replaced), and in real matches in
// exactly the steps where the bot wrote them (tests/match/stderr_bot.py), capped for a bot that
// floods stderr; the replays still verify and the bots are never sent it.

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "referee/bots/sandbox.hpp"
#include "referee/match/stderr_capture.hpp"
#include "referee/replay/replay.hpp"
#include "tests/match/harness.hpp"

using namespace arena;
using match::stderr_lines;
using Lines = std::vector<std::string>;

namespace {

std::string stderr_bot(const std::string& args = "") {
  return fmt::format("python3 {}/tests/match/stderr_bot.py {}", ARENA_SOURCE_DIR, args);
}

// The steps of `seat`, in order: the k-th is its decision k + 1.
std::vector<replay::Step> steps_of(const replay::Replay& r, Seat seat) {
  std::vector<replay::Step> out;
  for (const auto& s : r.steps) {
    if (s.seat == seat) out.push_back(s);
  }
  return out;
}

replay::Replay played(const match::Options& o) {
  auto m = match::play(o);
  REQUIRE(m.ok());
  INFO(replay::to_json(*m).dump(2));
  REQUIRE(m->end == replay::End::finished);
  CHECK(testing::leftover_processes(o).empty());
  const replay::Replay r = testing::require_verifies(m->replay);
  // The decision loop writes each step as text: byte for byte the dump of its JSON form.
  std::ifstream in(m->replay);
  std::string line;
  std::size_t k = 0;
  while (std::getline(in, line)) {
    if (line.find(R"("type":"step")") == std::string::npos) continue;
    REQUIRE(k < r.steps.size());
    CHECK(games::dump_line(replay::to_json(r.steps[k++])) == line);
  }
  CHECK(k == r.steps.size());
  return r;
}

}  // namespace

TEST_CASE("stderr_lines: split at line ends, capped, valid UTF-8, and says how much was cut", "[stderr]") {
  CHECK(stderr_lines("", 0).lines.empty());
  CHECK(stderr_lines("one\n", 4).lines == Lines{"one"});
  CHECK(stderr_lines("one\n", 4).cut == 0);
  CHECK(stderr_lines("a\r\n\nb", 5).lines == Lines{"a", "", "b"});  // a last line without its end is kept
  CHECK(stderr_lines("a\r\n\nb", 5).cut == 0);
  CHECK(stderr_lines("x\ry\n", 4).lines == Lines{"x\ry"});  // only a '\r' before the '\n' is a line end
  // Not UTF-8: each byte replaced; valid characters kept.
  CHECK(stderr_lines("\xff\xfe caf\xc3\xa9 \xe2\x9c\x93 \xc3\n", 15).lines ==
        Lines{"\xEF\xBF\xBD\xEF\xBF\xBD caf\xc3\xa9 \xe2\x9c\x93 \xEF\xBF\xBD"});
  // The line cap: the rest is cut, counted in bytes.
  const auto lines = stderr_lines("a\nb\nc\nd\n", 8, 100, 2);
  CHECK(lines.lines == Lines{"a", "b"});
  CHECK(lines.cut == 4);
  // The byte cap, on a character boundary (a 3-byte check mark does not fit in 1 byte).
  const auto bytes = stderr_lines(
      "ab\xe2\x9c\x93"
      "cd\nnext\n",
      13, 4, 20);
  CHECK(bytes.lines == Lines{"ab"});
  CHECK(bytes.cut == 11);
  CHECK(stderr_lines("abcd\nnext\n", 10, 4, 20).lines == Lines{"abcd"});  // nothing of "next" fits
  CHECK(stderr_lines("abcd\nnext\n", 10, 4, 20).cut == 5);
  // What the bot wrote beyond the head it was given counts as cut.
  const auto beyond = stderr_lines("head\n", 1000000);
  CHECK(beyond.lines == Lines{"head"});
  CHECK(beyond.cut == 1000000 - 5);
  // Binary garbage with no line end: at most the byte cap, in valid UTF-8.
  const std::string garbage(match::kStderrStepBytes * 2, '\x80');
  const auto g = stderr_lines(garbage, garbage.size());
  REQUIRE(g.lines.size() == 1);
  CHECK(g.lines[0].size() <= match::kStderrStepBytes);
  CHECK(g.lines[0].size() + 2 >= match::kStderrStepBytes);
  CHECK(g.cut == garbage.size() - g.lines[0].size() / 3);
}

TEST_CASE("a bot's stderr is recorded in exactly the steps of the decisions it wrote it in", "[stderr][replay]") {
  struct Run {
    const char* args;
    bool sandboxed;  // the strictest tier this machine gives, idle bots frozen (the CLI's default)
  };
  for (const Run run : {Run{"", false}, Run{"--v1", false}, Run{"", true}}) {
    DYNAMIC_SECTION("stderr_bot " << run.args << " in seat 1" << (run.sandboxed ? ", sandboxed" : "")) {
      auto o = testing::options({testing::random_bot(), stderr_bot(run.args)}, 17, "stderr");
      if (run.sandboxed) {
        auto policy = bots::resolve_policy(std::nullopt, {}, true);
        REQUIRE(policy.ok());
        o.sandbox = *policy;
      }
      const auto r = played(o);
      // The random bot writes nothing on stderr: none of its steps has any.
      for (const auto& s : steps_of(r, 0)) {
        CHECK(s.stderr_lines.empty());
        CHECK(s.stderr_cut == 0);
      }
      const auto mine = steps_of(r, 1);
      REQUIRE(mine.size() >= 10);
      std::string five;  // k = 5: 50 lines, 20 kept
      Lines first20;
      for (int i = 1; i <= 50; ++i) {
        const std::string line = fmt::format("line {} of 50", i);
        if (i <= 20)
          first20.push_back(line);
        else
          five += line + "\n";
      }
      const std::vector<std::pair<Lines, std::uint64_t>> expected = {
          {{"decision 1"}, 0},  // not "hello from stderr_bot": before the handshake's end
          {{}, 0},
          {{"decision 3: caf\xc3\xa9 \xe2\x9c\x93", "<b>not bold</b> & \\ \t tab"}, 0},
          {{std::string(1024, ' ')}, 5001 - 2048},  // 1,024 times "é" (below)
          {first20, five.size()},
          {{"\xEF\xBF\xBD\xEF\xBF\xBD bad"}, 0},
          {{"no newline"}, 0},
      };
      for (std::size_t k = 0; k < mine.size(); ++k) {
        INFO("decision " << k + 1 << " of seat 1, step " << mine[k].n);
        Lines lines;
        std::uint64_t cut = 0;
        if (k < expected.size()) {
          std::tie(lines, cut) = expected[k];
        } else if ((k + 1) % 5 == 0) {
          lines = {fmt::format("decision {}", k + 1)};
        }
        if (k == 3) {
          std::string e;
          for (int i = 0; i < 1024; ++i) e += "\xc3\xa9";
          lines = {e};
        }
        CHECK(mine[k].stderr_lines == lines);
        CHECK(mine[k].stderr_cut == cut);
      }
    }
  }
}

TEST_CASE("no bot is sent a seat's stderr, its own or another's", "[stderr]") {
  // stderr_bot exits (a crash) when a line it is sent holds any text it writes on stderr.
  const auto r = played(testing::options({stderr_bot(), stderr_bot("--v1")}, 23, "stderr-both"));
  for (Seat seat : {0, 1}) CHECK(steps_of(r, seat).at(0).stderr_lines == Lines{"decision 1"});
}

TEST_CASE("a bot flooding stderr has each decision's stderr capped, every byte counted", "[stderr][replay]") {
  auto o = testing::options({testing::faulty_bot("flood-stderr"), testing::random_bot()}, 9, "stderr-flood");
  const auto r = played(o);
  // faulty_bot writes 128 KiB of this line (as many whole lines as fit) before every reply.
  const std::string line = "faulty_bot: flood-stderr, a line of chatter that nobody reads ...........";
  const std::uint64_t block = ((128u << 10) / (line.size() + 1)) * (line.size() + 1);
  const auto mine = steps_of(r, 0);
  REQUIRE(mine.size() >= 10);
  for (const auto& s : mine) {
    INFO("step " << s.n);
    CHECK(s.stderr_lines == Lines(match::kStderrStepLines, line));
    CHECK(s.stderr_cut == block - match::kStderrStepLines * (line.size() + 1));
  }
  for (const auto& s : steps_of(r, 1)) CHECK(s.stderr_lines.empty());
}

TEST_CASE("a step's stderr: written as its JSON form, read back, absent when empty", "[stderr][replay]") {
  replay::Step s;
  s.action = {{"kind", "take"}, {"slot", 1}};
  s.hash = "0123456789abcdef";
  s.view_hash = "fedcba9876543210";
  s.debug = "note";
  const std::string plain = games::dump_line(replay::to_json(s));
  CHECK(plain.find("stderr") == std::string::npos);
  s.stderr_lines = {"a \"quoted\" line", "caf\xc3\xa9", ""};
  s.stderr_cut = 12345;
  const nlohmann::json j = replay::to_json(s);
  CHECK(j.at("stderr") == nlohmann::json::array({"a \"quoted\" line", "caf\xc3\xa9", ""}));
  CHECK(j.at("stderr_cut") == 12345);
  // The reader gives the fields back (played() checks that the decision loop's text writer
  // writes the same bytes as this JSON form).
  const std::string header = R"({"type":"header","replay_version":2,"protocol":2,"game":"stellar","seed":1,)"
                             R"("seats":2,"bots":[],"initial_hash":"x"})";
  std::stringstream text(header + "\n" + games::dump_line(j) + "\n");
  auto parsed = replay::parse(text);
  REQUIRE(parsed.ok());
  REQUIRE(parsed->steps.size() == 1);
  CHECK(parsed->steps[0].stderr_lines == s.stderr_lines);
  CHECK(parsed->steps[0].stderr_cut == 12345);
  std::stringstream wrong(header + "\n" + plain.substr(0, plain.size() - 1) + R"(,"stderr":[1]})" + "\n");
  CHECK_THAT(replay::parse(wrong).error(), Catch::Contains("\"stderr\" has the wrong type"));
}
