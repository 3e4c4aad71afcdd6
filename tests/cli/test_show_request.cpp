// `referee show REPLAY --request N [--seat K]`: the request line decision N answered, rebuilt from
// the replay, is byte for byte the line the bot read on its stdin (every game, protocol 2, a
// time bank); a seat that was not to act, a decision out of range and --step with it are exit 2.

#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/match/harness.hpp"

using namespace arena;
using Catch::Contains;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> lines_of(const fs::path& p) {
  std::ifstream in(p);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

TEST_CASE("referee show --request prints the exact request line the seat was sent", "[cli][show]") {
  const std::string game = GENERATE(std::string("stellar"), std::string("stella_quest"), std::string("interstellar"));
  CAPTURE(game);
  const fs::path dir = testing::fresh_dir("show-request", game);
  // A bot that keeps a copy of everything it reads.
  const fs::path tee_bot = dir / "tee_bot.sh";
  std::ofstream(tee_bot) << fmt::format("#!/bin/sh\ntee \"$1\" | {}\n", testing::random_bot());
  fs::permissions(tee_bot, fs::perms::owner_all);
  const std::string referee = testing::referee();
  auto c = testing::run(fmt::format(
      "{} play --game {} --seed 18446744073709551557 --bot '{} {}' --bot '{} {}' --time-bank-ms 500 --sandbox none "
      "--out {} 2>&1",
      referee, game, tee_bot.string(), (dir / "in0.jsonl").string(), tee_bot.string(), (dir / "in1.jsonl").string(),
      (dir / "match").string()));
  INFO(c.out);
  REQUIRE(c.exit_code == 0);
  fs::path replay;
  for (const auto& e : fs::directory_iterator(dir / "match")) {
    if (e.path().extension() == ".jsonl") replay = e.path();
  }
  REQUIRE(!replay.empty());
  const std::vector<std::string> seen[2] = {lines_of(dir / "in0.jsonl"), lines_of(dir / "in1.jsonl")};
  std::vector<json> steps;
  for (const std::string& line : lines_of(replay)) {
    const json j = json::parse(line);
    if (j.value("type", "") == "step") steps.push_back(j);
  }
  REQUIRE(steps.size() >= 3);
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, steps.size() / 2, steps.size() - 1}) {
    INFO("decision " << n);
    const int seat = steps[n].at("seat").get<int>();
    c = testing::run(fmt::format("{} show {} --request {} --seat {}", referee, replay.string(), n, seat));
    REQUIRE(c.exit_code == 0);
    REQUIRE(!c.out.empty());
    const std::string line = c.out.substr(0, c.out.size() - 1);
    CHECK(json::parse(line).at("id") == steps[n].at("request_id"));
    const auto& got = seen[seat];
    CHECK(std::find(got.begin(), got.end(), line) != got.end());
  }
  // Another seat was not sent that request; out of range; with --step.
  const int other = 1 - steps[0].at("seat").get<int>();
  c = testing::run(fmt::format("{} show {} --request 0 --seat {} 2>&1", referee, replay.string(), other));
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains(fmt::format("seat {} was sent no request there", other)));
  c = testing::run(fmt::format("{} show {} --request {} 2>&1", referee, replay.string(), steps.size()));
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("is out of range"));
  c = testing::run(fmt::format("{} show {} --request 0 --step 1 2>&1", referee, replay.string()));
  CHECK(c.exit_code == 2);
}
