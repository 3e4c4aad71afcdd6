// Forged results: a replay's footer edited after the match (the winner, the ranks, the fault, a
// seat's decisions, an unknown field, ...) fails verify, naming the field, for real replays of every
// game, finished and faulted; the honest footer verifies and reads back as the typed result the
// match produced.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "protocol/codec.hpp"
#include "referee/replay/replay.hpp"
#include "referee/replay/result.hpp"
#include "tests/match/harness.hpp"

using namespace arena;
using Catch::Contains;
using nlohmann::json;

using testing::parse_lines;

namespace {

struct Recorded {
  std::string label;
  std::vector<std::string> lines;  // the replay's lines, the footer last
  match::MatchResult result;
};

Recorded record(const std::string& label, const std::string& game, std::vector<std::string> bots, std::uint64_t seed) {
  auto o = testing::options(std::move(bots), seed, "forged-" + label);
  o.game = game;
  o.limits.decision_ms = 600;
  o.limits.init_ms = 3000;
  auto m = match::play(o);
  REQUIRE(m.ok());
  Recorded r{label, {}, std::move(m).value()};
  std::ifstream in(r.result.replay);
  for (std::string line; std::getline(in, line);) r.lines.push_back(line);
  REQUIRE(r.lines.size() >= 2);
  return r;
}

// One forgery: a name and an edit of the footer line (its "end" and its "result").
struct Forgery {
  std::string name;
  std::function<void(json& footer)> edit;
};

std::vector<Forgery> forgeries(const json& footer) {
  const json& r = footer.at("result");
  const int seats = static_cast<int>(r.at("bots").size());
  std::vector<Forgery> out;
  auto on_result = [&](std::string name, std::function<void(json&)> edit) {
    out.push_back({std::move(name), [edit](json& f) { edit(f.at("result")); }});
  };

  // How it ended: the result alone, and the footer line with it.
  for (const char* end : {"finished", "fault", "interrupted", "error"}) {
    if (r.at("end") == end) continue;
    on_result(std::string("end ") + end, [end](json& x) { x["end"] = end; });
    out.push_back({std::string("footer and result end ") + end, [end](json& f) {
                     f["end"] = end;
                     f["result"]["end"] = end;
                   }});
  }
  // The winner and the ranks.
  for (int s = 0; s < seats; ++s) {
    if (r.at("winner") != json(s)) on_result(fmt::format("winner {}", s), [s](json& x) { x["winner"] = s; });
  }
  if (!r.at("winner").is_null()) on_result("winner null", [](json& x) { x["winner"] = nullptr; });
  on_result("ranks rotated", [](json& x) {
    json& ranks = x["ranks"];
    std::rotate(ranks.begin(), ranks.begin() + 1, ranks.end());
  });
  on_result("ranks all first", [seats](json& x) { x["ranks"] = std::vector<int>(static_cast<std::size_t>(seats), 1); });
  on_result("ranks removed", [](json& x) { x.erase("ranks"); });
  on_result("ranks out of range", [seats](json& x) { x["ranks"][0] = seats + 1; });
  // Scores and outcome.
  if (r.at("scores").is_array()) {
    on_result("score raised", [](json& x) { x["scores"][0] = x["scores"][0].get<double>() + 1; });
    on_result("scores null", [](json& x) { x["scores"] = nullptr; });
    on_result("outcome edited", [](json& x) { x["outcome"]["forged"] = true; });
    on_result("outcome null", [](json& x) { x["outcome"] = nullptr; });
  } else {
    on_result("scores made up",
              [seats](json& x) { x["scores"] = std::vector<int>(static_cast<std::size_t>(seats), 5); });
    on_result("outcome made up", [](json& x) { x["outcome"] = json::object(); });
  }
  // The fault.
  if (r.at("fault").is_null()) {
    on_result("fault added", [&r](json& x) {
      x["fault"] = {{"seat", 0},
                    {"kind", "crash"},
                    {"request_id", 1},
                    {"message", "made up"},
                    {"bot", r.at("bots").at(0).at("name")},
                    {"raw", ""},
                    {"stderr_tail", json::array()},
                    {"exit", ""}};
    });
  } else {
    const json& f = r.at("fault");
    const int seat = f.at("seat").get<int>();
    on_result("fault seat", [seat, seats](json& x) { x["fault"]["seat"] = (seat + 1) % seats; });
    // The kind among timeout, crash, malformed and output_limit is what the bot did off the
    // record; verify checks it against the phase: only a decision's answer can be illegal, a bot
    // that could not start crashed, output between matches is malformed.
    if (f.at("phase") != "decision" || !f.at("request_sent").get<bool>())
      on_result("fault kind illegal", [](json& x) { x["fault"]["kind"] = "illegal"; });
    if (f.at("phase") == "spawn") on_result("fault kind timeout", [](json& x) { x["fault"]["kind"] = "timeout"; });
    on_result("fault kind unknown", [](json& x) { x["fault"]["kind"] = "bribery"; });
    on_result("fault request later",
              [](json& x) { x["fault"]["request_id"] = x["fault"]["request_id"].get<int>() + 1; });
    on_result("fault request earlier or none", [](json& x) {
      const int id = x["fault"]["request_id"].get<int>();
      x["fault"]["request_id"] = id > 0 ? id - 1 : 1;
    });
    // Spawn and handshake both come before any request, and a crash in either leaves the same
    // record: they are not told apart.
    const bool before_requests = f.at("phase") == "spawn" || f.at("phase") == "handshake";
    for (const char* phase : {"spawn", "handshake", "between_matches", "decision"}) {
      const bool twin = before_requests && (phase == std::string("spawn") || phase == std::string("handshake"));
      if (f.at("phase") != phase && !twin)
        on_result(std::string("fault phase ") + phase, [phase](json& x) { x["fault"]["phase"] = phase; });
    }
    if (f.at("phase") != "decision" || f.at("kind") != "malformed")
      on_result("fault request_sent",
                [](json& x) { x["fault"]["request_sent"] = !x["fault"]["request_sent"].get<bool>(); });
    on_result("fault bot renamed", [](json& x) { x["fault"]["bot"] = "someone else"; });
    on_result("fault removed", [](json& x) { x["fault"] = nullptr; });
    on_result("fault message a number", [](json& x) { x["fault"]["message"] = 3; });
    on_result("fault stderr_tail a string", [](json& x) { x["fault"]["stderr_tail"] = "x"; });
    on_result("fault unknown field", [](json& x) { x["fault"]["forged"] = 1; });
  }
  // Counts, the match's identity, the bots.
  on_result("decisions", [](json& x) { x["decisions"] = x["decisions"].get<int>() + 1; });
  on_result("game", [](json& x) { x["game"] = x["game"] == "stellar" ? "interstellar" : "stellar"; });
  on_result("seed", [](json& x) { x["seed"] = x["seed"].get<std::uint64_t>() + 1; });
  on_result("config", [](json& x) { x["config"] = {{"forged", 1}}; });
  // Swapping two seats that ran the same bot is no forgery (the same names, commands, decisions).
  const json& b0 = r.at("bots").at(0);
  const json& b1 = r.at("bots").at(1);
  const bool twins = b0.at("name") == b1.at("name") && b0.at("command") == b1.at("command") &&
                     b0.at("decisions") == b1.at("decisions") && b0.at("version") == b1.at("version");
  if (!twins)
    on_result("bots swapped", [](json& x) {
      std::swap(x["bots"][0], x["bots"][1]);
      x["bots"][0]["seat"] = 0;
      x["bots"][1]["seat"] = 1;
    });
  on_result("a bot fewer", [](json& x) { x["bots"].erase(x["bots"].size() - 1); });
  for (int s = 0; s < seats; ++s) {
    const auto i = static_cast<std::size_t>(s);
    auto on_bot = [&](const std::string& what, std::function<void(json&)> edit) {
      on_result(fmt::format("bots[{}] {}", s, what), [i, edit](json& x) { edit(x["bots"][i]); });
    };
    on_bot("decisions", [](json& b) { b["decisions"] = b["decisions"].get<int>() + 1; });
    on_bot("name", [](json& b) { b["name"] = "impostor"; });
    on_bot("version", [](json& b) { b["version"] = "9.9"; });
    on_bot("command", [](json& b) { b["command"] = "/bin/forged"; });
    on_bot("protocol", [](json& b) { b["protocol"] = b["protocol"] == 1 ? 2 : 1; });
    on_bot("seat", [seats](json& b) { b["seat"] = (b["seat"].get<int>() + 1) % seats; });
    on_bot("total_ms", [](json& b) { b["total_ms"] = b["total_ms"].get<double>() + 50; });
    on_bot("total_ms negative", [](json& b) { b["total_ms"] = -1; });
    on_bot("max_ms text", [](json& b) { b["max_ms"] = "1"; });
    on_bot("max_ms above", [](json& b) { b["max_ms"] = b["max_ms"].get<double>() + 50; });
    on_bot("cpu_ms negative", [](json& b) { b["cpu_ms"] = -1; });
    on_bot("idle_cpu_ms text", [](json& b) { b["idle_cpu_ms"] = "0"; });
    on_bot("stderr_bytes negative", [](json& b) { b["stderr_bytes"] = -5; });
    on_bot("stderr_log a number", [](json& b) { b["stderr_log"] = 1; });
    on_bot("exit a number", [](json& b) { b["exit"] = 3; });
    on_bot("process_match 0", [](json& b) { b["process_match"] = 0; });
    on_bot("unknown field", [](json& b) { b["rating"] = 3000; });
    on_bot("name removed", [](json& b) { b.erase("name"); });
  }
  // Types, unknown and missing fields of the result itself.
  on_result("replay a number", [](json& x) { x["replay"] = 5; });
  on_result("error in a match without one", [](json& x) { x["error"] = "disk full"; });
  on_result("unknown field", [](json& x) { x["winner_name"] = "me"; });
  on_result("winner removed", [](json& x) { x.erase("winner"); });
  on_result("bots removed", [](json& x) { x.erase("bots"); });
  on_result("not an object", [](json& x) { x = json::array(); });
  return out;
}

void check_forgeries(const Recorded& rec) {
  INFO(rec.label);
  const auto honest = replay::verify(parse_lines(rec.lines));
  INFO(honest.message);
  REQUIRE(honest.ok);
  REQUIRE(honest.result.has_value());
  // What verify accepted is what the match produced, typed.
  CHECK(replay::to_json(*honest.result) == replay::to_json(rec.result));
  CHECK(honest.result->winner == rec.result.winner);
  CHECK(honest.result->ranks == rec.result.ranks);

  const json footer = json::parse(rec.lines.back());
  const auto all = forgeries(footer);
  CHECK(all.size() > 40);
  for (const Forgery& forgery : all) {
    json forged = footer;
    forgery.edit(forged);
    if (forged == footer) continue;  // an edit that changed nothing in this replay
    auto lines = rec.lines;
    lines.back() = forged.dump();
    std::stringstream ss;
    for (const auto& l : lines) ss << l << '\n';
    auto parsed = replay::parse(ss);
    INFO("forgery: " << forgery.name);
    if (!parsed) continue;  // refused by the reader already (an unknown end)
    const auto v = replay::verify(*parsed);
    INFO(v.message);
    CHECK_FALSE(v.ok);
    CHECK(v.simulable);
    CHECK_FALSE(v.result.has_value());
    CHECK_THAT(v.message, Contains("result"));
  }
}

}  // namespace

TEST_CASE("verify refuses every forged field of a finished match's result, in every game", "[replay][forged]") {
  check_forgeries(record("stellar", "stellar", {testing::greedy_bot(), testing::random_bot()}, 82));
  check_forgeries(
      record("stella_quest", "stella_quest", {testing::random_bot(), testing::greedy_bot(), testing::random_bot()}, 5));
  check_forgeries(record("interstellar", "interstellar", {testing::random_bot(), testing::greedy_bot()}, 3));
}

TEST_CASE("verify refuses every forged field of a faulted match's result", "[replay][forged]") {
  const auto illegal = record("illegal", "stellar", {testing::random_bot(), testing::faulty_bot("illegal")}, 9);
  REQUIRE(illegal.result.fault.has_value());
  CHECK(illegal.result.fault->phase == replay::FaultPhase::decision);
  CHECK(illegal.result.fault->request_sent);
  check_forgeries(illegal);

  const auto twice = record("twice", "stellar", {testing::faulty_bot("twice"), testing::random_bot()}, 9);
  REQUIRE(twice.result.fault.has_value());
  CHECK(twice.result.fault->phase == replay::FaultPhase::decision);
  CHECK_FALSE(twice.result.fault->request_sent);
  check_forgeries(twice);

  const auto early = record("exit-early", "stella_quest",
                            {testing::random_bot(), testing::random_bot(), testing::faulty_bot("exit-early")}, 9);
  REQUIRE(early.result.fault.has_value());
  CHECK(early.result.fault->phase == replay::FaultPhase::handshake);
  CHECK(early.result.fault->request_id == 0);
  check_forgeries(early);

  const auto missing = record("spawn", "interstellar", {"/nonexistent/bot", testing::random_bot()}, 9);
  REQUIRE(missing.result.fault.has_value());
  CHECK(missing.result.fault->phase == replay::FaultPhase::spawn);
  check_forgeries(missing);
}

TEST_CASE("referee verify exits with the replay-mismatch code on a forged winner", "[replay][forged][cli]") {
  const auto rec = record("cli", "stellar", {testing::greedy_bot(), testing::random_bot()}, 82);
  REQUIRE(rec.result.winner.has_value());
  json footer = json::parse(rec.lines.back());
  const int loser = 1 - *rec.result.winner;
  footer["result"]["winner"] = loser;
  footer["result"]["ranks"][static_cast<std::size_t>(loser)] = 1;
  footer["result"]["ranks"][static_cast<std::size_t>(*rec.result.winner)] = 2;
  const auto dir = testing::fresh_dir("forged", "cli");
  const auto path = dir / "forged.jsonl";
  {
    std::ofstream out(path);
    for (std::size_t i = 0; i + 1 < rec.lines.size(); ++i) out << rec.lines[i] << '\n';
    out << footer.dump() << '\n';
  }
  const auto r = testing::run(fmt::format("'{}' verify '{}' 2>&1", ARENA_REFEREE, path.string()));
  INFO(r.out);
  CHECK(r.exit_code == 4);  // kDiverged (docs/cli.md)
  CHECK_THAT(r.out, Contains("result.ranks") || Contains("result.winner"));
}

TEST_CASE("a fault's raw field keeps the bot's own bytes, not a re-dump of what was parsed", "[match][fault][raw]") {
  // Valid JSON lines with the bot's own spacing and key order: a reply with an illegal action
  // (its request id appended), and a ready whose protocol is the wrong type.
  const auto dir = testing::fresh_dir("forged", "raw");
  const std::string reply_start = R"({ "action" : {"kind" :"no such action"},  "type":"action", "protocol":1, "id": )";
  const std::string good_ready = R"({"type":"ready","protocol":1,"name":"raw_bot"})";
  const std::string bad_ready = R"({"type" : "ready",  "protocol":"one", "name":"x"})";
  const auto script = [&](const std::string& name, const std::string& ready) {
    const auto path = dir / name;
    std::ofstream out(path);
    out << "import json, sys\n"
        << "for line in sys.stdin:\n"
        << "    m = json.loads(line)\n"
        << "    if m['type'] == 'hello': sys.stdout.write(" << nlohmann::json(ready).dump() << " + '\\n')\n"
        << "    elif m['type'] == 'request': sys.stdout.write(" << nlohmann::json(reply_start).dump()
        << " + str(m['id']) + '}\\n')\n"
        << "    sys.stdout.flush()\n";
    return "python3 " + path.string();
  };
  // The fault of a match between the bot `name` answering with `ready` and the random bot.
  const auto fault_of = [&](const std::string& name, const std::string& ready) {
    auto o = testing::options({script(name + ".py", ready), testing::random_bot()}, 4, "raw-" + name);
    o.limits.init_ms = 5000;
    auto m = match::play(o);
    REQUIRE(m.ok());
    REQUIRE(m->fault.has_value());
    INFO(m->fault->message);
    return *m->fault;
  };
  const replay::Fault illegal = fault_of("illegal_bot", good_ready);
  CHECK(illegal.kind == replay::FaultKind::illegal);
  CHECK(illegal.raw == protocol::escape_bytes(reply_start + std::to_string(illegal.request_id) + "}"));
  const replay::Fault ready = fault_of("ready_bot", bad_ready);
  CHECK(ready.kind == replay::FaultKind::malformed);
  CHECK(ready.phase == replay::FaultPhase::handshake);
  CHECK(ready.raw == protocol::escape_bytes(bad_ready));
}
