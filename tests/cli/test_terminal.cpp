// Bytes from a bot never reach the organiser's terminal raw: `referee play`, `referee validate`
// and `referee league` against a bot whose name, version, stderr and move carry a screen clear
// (ESC [2J), a C1 CSI (U+009B and the raw byte 0x9B), a right-to-left override (U+202E) and a
// bell (tests/cli/terminal_attack_bot.py).

#include <fmt/format.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "tests/match/harness.hpp"

using namespace arena;
using Catch::Contains;
using nlohmann::json;

using testing::out_dir;
using testing::referee;

namespace {

std::string attack_bot() {
  const std::string python = ::access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
  return fmt::format("{} {}/tests/cli/terminal_attack_bot.py", python, ARENA_SOURCE_DIR);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Runs `command` with stderr to a file; returns the exit code, stdout and stderr.
struct Output {
  int exit_code = -1;
  std::string out;
  std::string err;
};
Output run(const std::string& command, const std::string& name) {
  std::filesystem::create_directories(out_dir("terminal"));
  const std::string err = out_dir("terminal") + "/" + name + ".stderr.txt";
  const auto c = testing::run(fmt::format("{} 2>{}", command, err));
  return {c.exit_code, c.out, read_file(err)};
}

// None of the bytes the attack bot sends may appear; `where` names the stream for the report.
void check_inert(const std::string& text, const std::string& where) {
  INFO(where << ":\n" << text);
  CHECK(text.find('\x1b') == std::string::npos);          // ESC
  CHECK(text.find('\x9b') == std::string::npos);          // CSI as a raw byte, and in C2 9B
  CHECK(text.find("\xc2\x9b") == std::string::npos);      // U+009B
  CHECK(text.find("\xe2\x80\xae") == std::string::npos);  // U+202E
  CHECK(text.find('\x07') == std::string::npos);          // BEL
}

// The attack as the referee shows it, and its fault and stderr as `play` and `validate` print
// them: the fault's message quotes the move (JSON keeps U+009B and U+202E as characters) and the
// game's error the raw kind; the stderr tail line by line, with the raw byte 0x9B and an OSC title.
const std::string kShown = "\\x1b[2J\\u009b\\u202e\\x07";

void check_fault_and_tail(const std::string& err) {
  INFO(err);
  CHECK_THAT(err, Contains("illegal action {\"kind\":\"\\u001b[2J\\u009b\\u202e\\u0007\"}: "));
  CHECK_THAT(err, Contains("\"" + kShown + "\""));  // the game's error quotes the kind
  // its bytes, as it wrote them (validate wraps long lines: read them unwrapped)
  std::string unwrapped = err;
  for (auto at = unwrapped.find("\n  "); at != std::string::npos; at = unwrapped.find("\n  ", at))
    unwrapped.erase(at, unwrapped.find_first_not_of(' ', at + 1) - at);
  CHECK_THAT(unwrapped, Contains("\"action\":{\"kind\":\"\\\\u001b[2J\\xc2\\x9b\\xe2\\x80\\xae\\\\u0007\"}}"));
  CHECK_THAT(err, Contains("| \\x1b[2J\\x1b[H\\x9b31mall good\\x07\n"));
  CHECK_THAT(err, Contains("| \\u009b2J\\u202eok ,dab\\x1b]0;pwned\\x07\n"));
  CHECK_THAT(err, Contains("| move" + kShown + "\n"));
}

}  // namespace

TEST_CASE("referee play prints what a bot sent escaped", "[cli][terminal]") {
  const auto c = run(fmt::format("{} play --game stellar --sandbox none --bot '{}' --bot {} --seed 3 --out {}",
                                 referee(), attack_bot(), testing::random_bot(), out_dir("terminal")),
                     "play");
  CHECK(c.exit_code == 1);  // the bot's illegal move
  check_inert(c.err, "stderr");
  INFO(c.err);
  // The name from its ready message, in the summary.
  CHECK_THAT(c.err, Contains("evil" + kShown + " (seat 0) forfeits: illegal at request 1: "));
  check_fault_and_tail(c.err);
  // The machine-readable line on stdout stays JSON, with the name as the bot gave it.
  const json result = json::parse(c.out);
  CHECK(result.at("end") == "fault");
  CHECK(result.at("bots").at(0).at("name") == "evil\x1b[2J\xc2\x9b\xe2\x80\xae\x07");
}

TEST_CASE("referee validate prints what a bot sent escaped", "[validate][terminal]") {
  const std::string out = out_dir("terminal") + "/validate";
  std::filesystem::remove_all(out);
  const auto c = run(fmt::format("{} validate '{}' --sandbox none --opponent {} --games 1 --seed 5 --out {}", referee(),
                                 attack_bot(), testing::random_bot(), out),
                     "validate");
  CHECK(c.exit_code == 1);
  check_inert(c.err, "stderr");
  INFO(c.err);
  CHECK_THAT(c.err, Contains("handshake: ok, \"evil" + kShown + "\" version \"v" + kShown + "\""));
  CHECK_THAT(c.err, Contains("FAULT 1: seat 0 vs random_bot, seed 5: illegal at request 1: "));
  check_fault_and_tail(c.err);
  CHECK_THAT(c.err, Contains("FAIL: 2 faults"));  // one per seat
}

TEST_CASE("referee league prints names and tables escaped, and its files escape them for their format",
          "[league][terminal]") {
  const std::string out = out_dir("terminal") + "/league";
  std::filesystem::remove_all(out);
  std::filesystem::create_directories(out_dir("terminal"));
  const std::string evil_name = "evil\x1b[2J\xc2\x9b\xe2\x80\xae\x07";
  const json spec = {
      {"game", "stellar"},
      {"bots",
       {{{"name", evil_name}, {"command", attack_bot()}}, {{"name", "plain"}, {"command", testing::random_bot()}}}},
      {"deals", 1},
      {"duplicate", false},
      {"concurrency", 1},
      {"seed", 4}};
  const std::string file = out_dir("terminal") + "/league.json";
  std::ofstream(file) << spec.dump() << '\n';
  const auto c = run(fmt::format("{} league {} --sandbox none --out {}", referee(), file, out), "league");
  CHECK(c.exit_code == 0);
  check_inert(c.out, "stdout");
  check_inert(c.err, "stderr");
  {
    INFO(c.out);
    CHECK_THAT(c.out, Contains("evil" + kShown + " forfeits: illegal"));
  }
  {
    INFO(c.err);
    CHECK_THAT(c.err, Contains("evil" + kShown));  // the standings table
  }
  const std::string md = read_file(out + "/standings.md");
  check_inert(md, "standings.md");
  CHECK_THAT(md, Contains("evil\\\\x1b\\[2J\\\\u009b\\\\u202e\\\\x07"));
  const std::string xml = read_file(out + "/junit.xml");
  check_inert(xml, "junit.xml");
  CHECK_THAT(xml, Contains("name=\"evil?[2J&#x009b;&#x202e;?\""));
}
