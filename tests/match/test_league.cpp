// Leagues with real bot processes: exact standings and fault counts, resume after an interruption
// equals an uninterrupted run, concurrency does not change results, SPRT stops early, and the
// `referee league` command as a user runs it.

#include <atomic>
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "referee/league/league.hpp"
#include "referee/league/standings.hpp"
#include "tests/match/harness.hpp"

using namespace arena;
using Catch::Contains;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::path(ARENA_TEST_OUT) / "league" / name;
  fs::remove_all(dir);
  return dir;
}

league::LeagueSpec spec_of(std::vector<std::pair<std::string, std::string>> bots, std::uint64_t deals, int concurrency) {
  league::LeagueSpec s;
  for (auto& [name, command] : bots) s.bots.push_back({name, command});
  s.deals = deals;
  s.concurrency = concurrency;
  s.seed = 2026;
  s.limits.init_ms = 20000;
  s.limits.decision_ms = 5000;
  auto normalized = league::normalize(s);
  INFO((normalized ? std::string() : normalized.error()));
  REQUIRE(normalized.ok());
  return std::move(normalized).value();
}

league::RunOptions run_options(const fs::path& out) {
  league::RunOptions o;
  o.out = out;
  o.referee = ARENA_REFEREE;
  o.working_dir = fs::current_path();
  const char* path = std::getenv("PATH");
  o.env = {fmt::format("PATH={}", path ? path : "/usr/bin:/bin"), "LANG=C.UTF-8"};
  return o;
}

// What must be identical between two runs of one league: the schedule and every outcome.
json essence(const std::vector<league::MatchRecord>& records) {
  json out = json::array();
  for (const auto& r : records) {
    json seats = json::array();
    for (const auto& s : r.seats) seats.push_back({s.bot, s.score, s.rank});
    out.push_back({r.index, r.deal, r.leg, r.seed, r.end, seats, r.fault ? r.fault->kind : ""});
  }
  return out;
}

}  // namespace

TEST_CASE("a league of sample bots and a faulty bot: exact standings and fault counts", "[league]") {
  const auto spec = spec_of({{"greedy", testing::greedy_bot()},
                             {"random", testing::random_bot()},
                             {"garbage", testing::faulty_bot("garbage")}},
                            2, 2);
  const auto out = fresh_dir("faulty");
  auto o = run_options(out);
  auto result = league::run(spec, o);
  REQUIRE(result.ok());
  // 3 pairs x 2 deals x 2 legs (duplicate deals, seats swapped).
  REQUIRE(result->total == 12);
  REQUIRE(result->records.size() == 12);
  const auto st = league::compute_standings(result->records, {"greedy", "random", "garbage"});
  std::map<std::string, league::BotStanding> by_name;
  for (const auto& b : st.bots) by_name[b.name] = b;
  // The garbage bot forfeits each of its 8 matches at its first request: malformed every time.
  CHECK(by_name["garbage"].games == 8);
  CHECK(by_name["garbage"].points == 0);
  CHECK(by_name["garbage"].faults == std::map<std::string, int>{{"malformed", 8}});
  CHECK(by_name["greedy"].fault_count() == 0);
  CHECK(by_name["random"].fault_count() == 0);
  // Greedy and random each win their 4 games against it; between them, 4 games decided on the board.
  CHECK(by_name["greedy"].games == 8);
  CHECK(by_name["random"].games == 8);
  CHECK(by_name["greedy"].points + by_name["random"].points == Approx(8 + 4));
  CHECK(by_name["greedy"].points >= 4);
  // Every match has a replay and a re-run command naming its seed.
  for (const auto& r : result->records) {
    CHECK(fs::exists(r.replay));
    CHECK_THAT(r.rerun, Contains(fmt::format("--seed {}", r.seed)));
  }
}

TEST_CASE("an interrupted league resumes to exactly the uninterrupted league", "[league]") {
  const std::vector<std::pair<std::string, std::string>> bots = {
      {"greedy", testing::greedy_bot()}, {"random", testing::random_bot()}, {"random2", testing::random_bot()}};
  const auto spec = spec_of(bots, 3, 2);

  const auto whole_dir = fresh_dir("whole");
  auto whole = league::run(spec, run_options(whole_dir));
  REQUIRE(whole.ok());
  REQUIRE(whole->records.size() == 18);

  // Stop after 5 matches, as Ctrl-C would; then resume.
  const auto part_dir = fresh_dir("part");
  std::atomic<bool> stop{false};
  auto o = run_options(part_dir);
  o.stop = &stop;
  o.on_match = [&](const league::MatchRecord&, std::uint64_t done, std::uint64_t) {
    if (done >= 5) stop = true;
  };
  auto part = league::run(spec, o);
  REQUIRE(part.ok());
  CHECK(part->interrupted);
  CHECK(part->records.size() >= 5);
  CHECK(part->records.size() < 18);
  // A torn last line, as a kill in the middle of a write would leave, is ignored.
  std::ofstream(part_dir / "results.jsonl", std::ios::app) << "{\"journal\":1,\"index\":";

  auto again = run_options(part_dir);
  again.resume = true;
  auto resumed = league::run(spec, again);
  REQUIRE(resumed.ok());
  CHECK_FALSE(resumed->interrupted);
  CHECK(resumed->played_now == 18 - part->records.size());
  CHECK(essence(resumed->records) == essence(whole->records));

  // A resume of a different league into the same folder is refused.
  auto other = spec_of(bots, 4, 2);
  auto refused = league::run(other, again);
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.error(), Contains("another league"));
  // And a second start without --resume is refused too.
  auto restart = league::run(spec, run_options(part_dir));
  REQUIRE_FALSE(restart.ok());
  CHECK_THAT(restart.error(), Contains("--resume"));
}

TEST_CASE("concurrency 2 gives the same results as concurrency 1", "[league]") {
  const std::vector<std::pair<std::string, std::string>> bots = {
      {"greedy", testing::greedy_bot()}, {"random", testing::random_bot()}, {"py", testing::python_bot()}};
  auto one = league::run(spec_of(bots, 2, 1), run_options(fresh_dir("c1")));
  auto two = league::run(spec_of(bots, 2, 2), run_options(fresh_dir("c2")));
  REQUIRE(one.ok());
  REQUIRE(two.ok());
  CHECK(one->records.size() == 12);
  CHECK(essence(one->records) == essence(two->records));
}

TEST_CASE("the schedule is lazy, fair and reproducible", "[league]") {
  auto spec = spec_of({{"a", testing::random_bot()}, {"b", testing::random_bot()}, {"c", testing::random_bot()},
                       {"d", testing::random_bot()}},
                      1000000, 2);
  const league::Schedule schedule(spec);
  // 6 pairs x 1,000,000 deals x 2 legs, nothing built up front.
  CHECK(schedule.total() == 12000000);
  std::map<int, std::array<int, 2>> seats;
  for (std::uint64_t i = 0; i < 24; ++i) {
    const auto m = schedule.at(i);
    REQUIRE(m.seat_bots.size() == 2);
    CHECK(m.seat_bots[0] != m.seat_bots[1]);
    for (int s = 0; s < 2; ++s) seats[m.seat_bots[static_cast<std::size_t>(s)]][static_cast<std::size_t>(s)] += 1;
    if (m.leg == 1) {
      const auto first = schedule.at(i - 1);
      CHECK(first.seed == m.seed);  // a duplicate deal: same seed, seats swapped
      CHECK(first.seat_bots[0] == m.seat_bots[1]);
    }
  }
  for (const auto& [bot, count] : seats) CHECK(count[0] == count[1]);  // every bot as often in each seat
  CHECK(schedule.at(123456).seed == league::Schedule(spec).at(123456).seed);
}

TEST_CASE("an SPRT between a strong and a weak bot stops early with H1 accepted", "[league]") {
  auto spec = spec_of({{"greedy", testing::greedy_bot()}, {"random", testing::random_bot()}}, 100, 2);
  spec.sprt = league::SprtConfig{0, 50, 0.05, 0.05};
  auto result = league::run(spec, run_options(fresh_dir("sprt")));
  REQUIRE(result.ok());
  REQUIRE(result->sprt.has_value());
  CHECK(result->sprt->decision == league::SprtState::Decision::accept_h1);
  CHECK(result->sprt_stopped);
  CHECK(result->records.size() < 60);
}

TEST_CASE("referee league: a league file, standings in three formats, exit codes", "[league][cli]") {
  const auto dir = fresh_dir("cli");
  fs::create_directories(dir);
  const json file = {{"game", "stellar"},
                     {"bots",
                      {{{"name", "greedy"}, {"command", testing::greedy_bot()}},
                       {{"name", "random"}, {"command", testing::random_bot()}},
                       {{"name", "crasher"}, {"command", testing::faulty_bot("crash", "--at 3")}}}},
                     {"deals", 1},
                     {"seed", 7},
                     {"limits", {{"decision_ms", 5000}}}};
  std::ofstream(dir / "league.input.json") << file.dump(2);
  const std::string referee = ARENA_REFEREE;
  auto c = testing::run(fmt::format("{} league {} --out {} 2>&1", referee, (dir / "league.input.json").string(),
                                    (dir / "out").string()));
  INFO(c.out);
  CHECK(c.exit_code == 0);
  CHECK_THAT(c.out, Contains("rerun:") && Contains("crasher forfeits: crash"));
  for (const char* f : {"standings.json", "standings.md", "junit.xml", "results.jsonl", "league.json"}) {
    CHECK(fs::exists(dir / "out" / f));
  }
  std::ifstream in(dir / "out" / "standings.json");
  const json standings = json::parse(in);
  CHECK(standings.at("league").at("matches_done") == 6);
  // --fail-on-fault turns the crasher's faults into exit code 1.
  c = testing::run(fmt::format("{} league {} --out {} --fail-on-fault 2>&1", referee, (dir / "league.input.json").string(),
                               (dir / "out2").string()));
  CHECK(c.exit_code == 1);
  // Usage errors: exit 2 with the problem named.
  c = testing::run(fmt::format("{} league --bot {} --out {} 2>&1", referee, testing::random_bot(), (dir / "out3").string()));
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("at least 2 bots"));
  c = testing::run(fmt::format("{} league --resume 2>&1", referee));
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("--out"));
  std::ofstream(dir / "bad.json") << R"({"bots": [], "rounds": 3})";
  c = testing::run(fmt::format("{} league {} --out {} 2>&1", referee, (dir / "bad.json").string(), (dir / "out4").string()));
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("unknown key \"rounds\""));
}

TEST_CASE("a 3-seat Stella Quest league rotates seats fairly and ranks with rank points", "[league]") {
  league::LeagueSpec s;
  s.game = "stella_quest";
  s.seats = 3;
  s.duplicate = true;  // every rotation of the seats: each bot sits in each seat equally often
  s.concurrency = 2;
  s.seed = 5;
  s.limits.init_ms = 20000;
  s.limits.decision_ms = 5000;
  for (const char* name : {"a", "b", "c", "d"}) s.bots.push_back({name, testing::random_bot()});
  auto spec = league::normalize(s);
  REQUIRE(spec.ok());
  auto result = league::run(*spec, run_options(fresh_dir("sq3")));
  REQUIRE(result.ok());
  // C(4,3) = 4 groups x 3 rotations.
  REQUIRE(result->records.size() == 12);
  std::map<std::string, std::array<int, 3>> seats;
  for (const auto& r : result->records) {
    REQUIRE(r.seats.size() == 3);
    CHECK(r.end == "finished");
    for (std::size_t i = 0; i < 3; ++i) seats[r.seats[i].bot][i] += 1;
  }
  for (const auto& [bot, count] : seats) CHECK(count == std::array<int, 3>{3, 3, 3});
  const auto st = league::compute_standings(result->records, {"a", "b", "c", "d"});
  CHECK(st.seats_per_match == 3);
  CHECK_THAT(st.points_rule, Contains("rank points"));
  double total = 0;
  for (const auto& b : st.bots) {
    CHECK(b.games == 9);
    total += b.points;
  }
  CHECK(total == Approx(12 * 1.5));  // each match hands out 1 + 0.5 + 0 rank points
}
