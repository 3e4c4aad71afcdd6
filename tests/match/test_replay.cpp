// Replays: a prefix survives a killed referee, verify finds the first divergence precisely, and a
// broken file is refused with a message naming the line.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "referee/replay/replay.hpp"
#include "tests/match/harness.hpp"

using namespace arena;
using Catch::Contains;
using nlohmann::json;

using testing::parse_lines;

namespace {

std::vector<std::string> lines_of(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

std::vector<std::string> recorded_match() {
  auto o = testing::options({testing::greedy_bot(), testing::random_bot()}, 31, "replay");
  auto m = match::play(o);
  REQUIRE(m.ok());
  REQUIRE(m->end == replay::End::finished);
  return lines_of(m->replay);
}

}  // namespace

TEST_CASE("a replay has a header, one line per decision and a footer", "[replay]") {
  const auto lines = recorded_match();
  REQUIRE(lines.size() > 10);
  const json header = json::parse(lines.front());
  CHECK(header.at("type") == "header");
  CHECK(header.at("replay_version") == 2);
  CHECK(header.at("protocol") == 2);  // the highest version offered; each bot's chosen one in "bots"
  for (const json& bot : header.at("bots")) CHECK((bot.at("protocol") == 1 || bot.at("protocol") == 2));
  CHECK(header.at("game") == "stellar");
  CHECK(header.at("seed") == 31);
  CHECK(header.at("bots").size() == 2);
  CHECK(header.at("limits").contains("decision_ms"));
  const json step = json::parse(lines[1]);
  for (const char* key : {"seat", "request_id", "action", "time_ms", "hash", "view_hash"}) CHECK(step.contains(key));
  CHECK_FALSE(step.contains("view"));  // version 2 records a hash of the view, not the view
  // Written as text by the decision loop, byte for byte what the JSON form dumps.
  for (std::size_t i = 1; i + 1 < lines.size(); ++i) {
    const replay::Replay r = parse_lines({lines.front(), lines[i]});
    REQUIRE(r.steps.size() == 1);
    CHECK(games::dump_line(replay::to_json(r.steps.front())) == lines[i]);
  }
  const json footer = json::parse(lines.back());
  CHECK(footer.at("type") == "footer");
  CHECK(footer.at("end") == "finished");
  CHECK(footer.at("result").at("outcome").at("players").size() == 2);
}

TEST_CASE("verify names the first divergence", "[replay]") {
  const auto lines = recorded_match();
  REQUIRE(replay::verify(parse_lines(lines)).ok);
  // The verdict on the recorded lines with the value at `pointer` in line `i` replaced.
  auto verify_changed = [&](std::size_t i, const char* pointer, const json& value) {
    auto tampered = lines;
    json line = json::parse(tampered[i]);
    line[json::json_pointer(pointer)] = value;
    tampered[i] = line.dump();
    return replay::verify(parse_lines(tampered));
  };

  SECTION("a changed action") {
    // Most likely illegal here.
    const auto v = verify_changed(5, "/action", json::parse(lines[6]).at("action"));
    CHECK_FALSE(v.ok);
    CHECK_THAT(v.message, Contains("step 4"));
  }
  SECTION("a changed hash") {
    const auto v = verify_changed(8, "/hash", "0000000000000000");
    CHECK_FALSE(v.ok);
    CHECK_THAT(v.message, Contains("step 7") && Contains("hash"));
  }
  SECTION("a changed view hash") {
    const auto v = verify_changed(3, "/view_hash", "0123456789abcdef");
    CHECK_FALSE(v.ok);
    CHECK_THAT(v.message, Contains("step 2") && Contains("view") && Contains("0123456789abcdef"));
  }
  SECTION("a changed result") {
    const auto v = verify_changed(lines.size() - 1, "/result/scores", {1, 2});
    CHECK_FALSE(v.ok);
    CHECK_THAT(v.message, Contains("scores"));
  }
  SECTION("a changed seed") {
    CHECK_FALSE(verify_changed(0, "/seed", 32).ok);
  }
}

// The same match as a version-1 replay, as referees before protocol 2 wrote it: every step with
// the whole view its seat was sent, and no view hash.
std::vector<std::string> as_version_1(const std::vector<std::string>& lines) {
  const replay::Replay r = parse_lines(lines);
  auto state = std::move(replay::initial_state(r.header)).value();
  std::vector<std::string> out;
  json header = json::parse(lines.front());
  header["replay_version"] = 1;
  header["protocol"] = 1;
  for (json& bot : header["bots"]) {
    bot.erase("protocol");
    bot.erase("view_delta");  // protocol 2's
  }
  out.push_back(header.dump());
  for (std::size_t i = 1; i + 1 < lines.size(); ++i) {
    json step = json::parse(lines[i]);
    step.erase("view_hash");
    step["view"] = state->view(step.at("seat").get<int>());
    REQUIRE(state->apply(step.at("action")).ok());
    out.push_back(step.dump());
  }
  // Nor did its footer record the seats' protocol versions.
  json footer = json::parse(lines.back());
  for (json& bot : footer["result"]["bots"]) bot.erase("protocol");
  out.push_back(footer.dump());
  return out;
}

TEST_CASE("version-1 replays still read and verify, views included", "[replay]") {
  const auto v1 = as_version_1(recorded_match());
  const replay::Replay r = parse_lines(v1);
  CHECK(r.header.bots.at(0).protocol == 1);
  REQUIRE(r.steps.size() > 10);
  CHECK(r.steps[3].view.is_object());
  CHECK(r.steps[3].view_hash.empty());
  const auto v = replay::verify(r);
  INFO(v.message);
  CHECK(v.ok);
  CHECK(v.steps_checked == r.steps.size());

  auto tampered = v1;
  json step = json::parse(tampered[3]);
  step["view"]["deck_size"] = 99;
  tampered[3] = step.dump();
  const auto bad = replay::verify(parse_lines(tampered));
  CHECK_FALSE(bad.ok);
  CHECK_THAT(bad.message, Contains("step 2") && Contains("view"));
}

TEST_CASE("a replay cut short by a killed referee still reads and verifies its prefix", "[replay]") {
  auto lines = recorded_match();
  lines.resize(lines.size() / 2);
  lines.back() = lines.back().substr(0, lines.back().size() / 2);  // a half-written last line
  const auto r = parse_lines(lines);
  CHECK_FALSE(r.footer.has_value());
  const auto v = replay::verify(r);
  CHECK_FALSE(v.ok);
  CHECK_THAT(v.message, Contains("no footer"));
  CHECK(v.steps_checked == r.steps.size());
}

TEST_CASE("broken replay files are refused with the line and the problem", "[replay]") {
  auto parse_text = [](const std::string& text) {
    std::stringstream ss(text);
    return replay::parse(ss);
  };
  const auto lines = recorded_match();
  CHECK_THAT(parse_text("").error(), Contains("no header"));
  CHECK_THAT(parse_text("not json\n{}\n").error(), Contains("line 1"));
  CHECK_THAT(parse_text(lines[1] + "\n").error(), Contains("header first"));
  CHECK_THAT(parse_text(lines[0] + "\n" + lines[0] + "\n").error(), Contains("second header"));
  CHECK_THAT(parse_text(lines[0] + "\n{\"type\":\"step\"}\n").error(), Contains("line 2"));
  CHECK_THAT(parse_text(lines[0] + "\n" + std::string(100000, '[') + "\n" + lines[1] + "\n").error(),
             Contains("line 2"));
  json wrong_version = json::parse(lines[0]);
  wrong_version["replay_version"] = 99;
  CHECK_THAT(parse_text(wrong_version.dump() + "\n").error(), Contains("replay version 99"));
  CHECK_THAT(replay::read("/nonexistent/replay.jsonl").error(), Contains("cannot open"));
}
