// Leagues with real bot processes: exact standings and fault counts, resume after an interruption
// equals an uninterrupted run, concurrency does not change results, SPRT stops early, and the
// `referee league` command as a user runs it. Seeds: drawn from the OS unless given, keyed per
// deal, legacy leagues resume with their old seeds; the legs of a deal never overlap in time.

#include <fmt/format.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include "referee/league/league.hpp"
#include "referee/league/standings.hpp"
#include "referee/replay/replay.hpp"
#include "tests/league/sample_league.hpp"
#include "tests/match/harness.hpp"

using namespace arena;
using Catch::Contains;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

league::LeagueSpec spec_of(std::vector<std::pair<std::string, std::string>> bots, std::uint64_t deals,
                           int concurrency) {
  league::LeagueSpec s;
  for (auto& [name, command] : bots) s.bots.push_back(testing::bot_spec(command, name));
  s.deals = deals;
  s.concurrency = concurrency;
  return testing::sample_league(std::move(s));
}

json essence(const std::vector<league::MatchRecord>& records) {
  return testing::league_essence(records);
}

}  // namespace

TEST_CASE("a league of sample bots and a faulty bot: exact standings and fault counts", "[league]") {
  const auto spec = spec_of({{"greedy", testing::greedy_bot()},
                             {"random", testing::random_bot()},
                             {"garbage", testing::faulty_bot("garbage")}},
                            2, 2);
  const auto out = testing::fresh_dir("league", "faulty");
  auto o = testing::league_options(out);
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
  // The outcome counts without holding records; the standings streamed from the journal are
  // those of the records in hand, byte for byte.
  CHECK(result->journaled == 12);
  CHECK(result->faulted);
  auto streamed = league::standings_from_journal(out / "results.jsonl", {"greedy", "random", "garbage"});
  REQUIRE(streamed.ok());
  CHECK(league::standings_json(*streamed).dump(2) == league::standings_json(st).dump(2));
  CHECK(league::standings_markdown(*streamed) == league::standings_markdown(st));
  CHECK(league::standings_table(*streamed) == league::standings_table(st));
}

TEST_CASE("a bot's own deck moves with it when the league rotates seats", "[league][seat_config]") {
  league::LeagueSpec s;
  s.bots.push_back(testing::bot_spec(testing::greedy_bot(), "greedy"));
  s.bots.push_back(testing::bot_spec(testing::random_bot(), "random"));
  s.bots[0].seat_config =
      json::parse(std::ifstream(std::string(ARENA_SOURCE_DIR "/docs/games/stellar-decks/bright-moons.json")));
  s.deals = 2;
  s.concurrency = 2;
  s.seed = 77;
  s.limits.init_ms = 20000;
  s.limits.decision_ms = 5000;
  auto normalized = league::normalize(s);
  REQUIRE(normalized.ok());
  auto result = league::run(*normalized, testing::league_options(testing::fresh_dir("league", "seat_config")));
  REQUIRE(result.ok());
  REQUIRE(result->records.size() == 4);  // 2 deals x 2 legs, seats swapped
  std::set<int> greedy_seats;
  for (const auto& r : result->records) {
    CHECK(r.end == replay::End::finished);
    auto replayed = replay::read(r.replay);
    REQUIRE(replayed.ok());
    for (const auto& bot : replayed->header.bots) {
      INFO(r.replay << " " << bot.name);
      if (bot.name == "greedy") {
        REQUIRE(bot.seat_config.is_object());
        CHECK(bot.seat_config.at("deck").size() == 57);
      } else {
        CHECK(bot.seat_config.is_null());
      }
    }
    for (std::size_t seat = 0; seat < r.seats.size(); ++seat) {
      if (r.seats[seat].bot == "greedy") greedy_seats.insert(static_cast<int>(seat));
    }
    CHECK(replay::verify(*replayed).ok);
    CHECK_THAT(r.rerun, Contains("--seat-config"));
  }
  CHECK(greedy_seats == std::set<int>{0, 1});  // it played both seats, its deck with it

  // A malformed deck is refused before any match, naming the bot.
  s.bots[0].seat_config["deck"][17]["number"] = 9;
  auto refused = league::normalize(s);
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.error(), Contains("bot greedy: seat_config: deck list: card 17"));
}

TEST_CASE("an interrupted league resumes to exactly the uninterrupted league", "[league]") {
  const std::vector<std::pair<std::string, std::string>> bots = {
      {"greedy", testing::greedy_bot()}, {"random", testing::random_bot()}, {"random2", testing::random_bot()}};
  const auto spec = spec_of(bots, 3, 2);

  const auto whole_dir = testing::fresh_dir("league", "whole");
  auto whole = league::run(spec, testing::league_options(whole_dir));
  REQUIRE(whole.ok());
  REQUIRE(whole->records.size() == 18);

  // Stop after 5 matches, as Ctrl-C would; then resume.
  const auto part_dir = testing::fresh_dir("league", "part");
  const auto part = testing::run_stopped_after(spec, part_dir, 5);
  CHECK(part.interrupted);
  CHECK(part.records.size() >= 5);
  CHECK(part.records.size() < 18);
  // A torn last line, as a kill in the middle of a write would leave, is ignored.
  std::ofstream(part_dir / "results.jsonl", std::ios::app) << "{\"journal\":1,\"index\":";

  auto again = testing::league_options(part_dir);
  again.resume = true;
  auto resumed = league::run(spec, again);
  REQUIRE(resumed.ok());
  CHECK_FALSE(resumed->interrupted);
  CHECK(resumed->played_now == 18 - part.records.size());
  CHECK(essence(resumed->records) == essence(whole->records));
  // The torn line was cut before the resume appended: the journal reads back whole.
  auto journal = league::read_journal(part_dir / "results.jsonl");
  INFO((journal ? std::string() : journal.error()));
  REQUIRE(journal.ok());
  CHECK(journal->size() == 18);
  CHECK(resumed->journaled == 18);

  // A resume of a different league into the same folder is refused.
  auto other = spec_of(bots, 4, 2);
  auto refused = league::run(other, again);
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.error(), Contains("another league"));
  // And a second start without --resume is refused too.
  auto restart = league::run(spec, testing::league_options(part_dir));
  REQUIRE_FALSE(restart.ok());
  CHECK_THAT(restart.error(), Contains("--resume"));
}

TEST_CASE("concurrency 2 gives the same results as concurrency 1", "[league]") {
  const std::vector<std::pair<std::string, std::string>> bots = {
      {"greedy", testing::greedy_bot()}, {"random", testing::random_bot()}, {"py", testing::python_bot()}};
  auto one = league::run(spec_of(bots, 2, 1), testing::league_options(testing::fresh_dir("league", "c1")));
  auto two = league::run(spec_of(bots, 2, 2), testing::league_options(testing::fresh_dir("league", "c2")));
  REQUIRE(one.ok());
  REQUIRE(two.ok());
  CHECK(one->records.size() == 12);
  CHECK(essence(one->records) == essence(two->records));
}

TEST_CASE("the schedule is lazy, fair and reproducible", "[league]") {
  auto spec = spec_of({{"a", testing::random_bot()},
                       {"b", testing::random_bot()},
                       {"c", testing::random_bot()},
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

TEST_CASE("an SPRT between a strong and a weak bot stops early, at the same match at any concurrency", "[league]") {
  std::optional<league::LeagueOutcome> first;
  for (int concurrency : {1, 2}) {
    auto spec = spec_of({{"greedy", testing::greedy_bot()}, {"random", testing::random_bot()}}, 100, concurrency);
    spec.sprt = league::SprtConfig{0, 50, 0.05, 0.05};
    auto result =
        league::run(spec, testing::league_options(testing::fresh_dir("league", fmt::format("sprt-j{}", concurrency))));
    REQUIRE(result.ok());
    REQUIRE(result->sprt.has_value());
    CHECK(result->sprt->decision == league::SprtState::Decision::accept_h1);
    CHECK(result->sprt_stopped);
    // Decided at the end of a block of deals, on exactly those deals.
    const auto block_matches = league::kSprtBlockDeals * 2;
    CHECK(result->sprt_counted_matches % block_matches == 0);
    CHECK(result->sprt_counted_matches < 200);
    // Every counted match is journaled; other workers may have added a few after the block.
    CHECK(result->journaled >= result->sprt_counted_matches);
    CHECK(result->journaled < result->sprt_counted_matches + block_matches);
    if (!first) {
      first = std::move(result).value();
      continue;
    }
    CHECK(result->sprt_counted_matches == first->sprt_counted_matches);
    CHECK(result->sprt->llr == first->sprt->llr);
    json a = essence(first->records), b = essence(result->records);
    a.erase(a.begin() + static_cast<std::ptrdiff_t>(first->sprt_counted_matches), a.end());
    b.erase(b.begin() + static_cast<std::ptrdiff_t>(result->sprt_counted_matches), b.end());
    CHECK(a == b);
  }
}

TEST_CASE("referee league: a league file, standings in three formats, exit codes", "[league][cli]") {
  const auto dir = testing::fresh_dir("league", "cli");
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
  auto c = testing::run(
      fmt::format("{} league {} --out {} 2>&1", referee, (dir / "league.input.json").string(), (dir / "out").string()));
  INFO(c.out);
  CHECK(c.exit_code == 0);
  CHECK_THAT(c.out, Contains("rerun:") && Contains("crasher forfeits: crash"));
  for (const char* f : {"standings.json", "standings.md", "junit.xml", "results.jsonl", "league.json"}) {
    CHECK(fs::exists(dir / "out" / f));
  }
  std::ifstream in(dir / "out" / "standings.json");
  const json standings = json::parse(in);
  CHECK(standings.at("league").at("matches_done") == 6);
  // The crasher's last stderr lines reach the journal, the fault list and the JUnit case.
  bool tail_listed = false;
  for (const json& b : standings.at("bots")) {
    for (const json& f : b.at("fault_entries")) {
      for (const json& line : f.at("stderr_tail")) tail_listed |= line == "faulty_bot: triggering crash";
    }
  }
  CHECK(tail_listed);
  CHECK_THAT(testing::read_file(dir / "out" / "junit.xml"),
             Contains("last stderr lines:&#10;") && Contains("&#10;  faulty_bot: triggering crash&#10;"));
  CHECK_THAT(testing::read_file(dir / "out" / "results.jsonl"),
             Contains(R"("stderr_tail":[)") && Contains(R"("faulty_bot: triggering crash")"));
  // --fail-on-fault turns the crasher's faults into exit code 1.
  c = testing::run(fmt::format("{} league {} --out {} --fail-on-fault 2>&1", referee,
                               (dir / "league.input.json").string(), (dir / "out2").string()));
  CHECK(c.exit_code == 1);
  // Usage errors: exit 2 with the problem named.
  c = testing::run(
      fmt::format("{} league --bot {} --out {} 2>&1", referee, testing::random_bot(), (dir / "out3").string()));
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("at least 2 bots"));
  c = testing::run(fmt::format("{} league --resume 2>&1", referee));
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("--out"));
  std::ofstream(dir / "bad.json") << R"({"bots": [], "round": 3})";
  c = testing::run(
      fmt::format("{} league {} --out {} 2>&1", referee, (dir / "bad.json").string(), (dir / "out4").string()));
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("unknown key \"round\""));
}

TEST_CASE("league --resume: flags over league.json, a flag or league file that contradicts it named with its value",
          "[league][cli]") {
  const fs::path dir = testing::fresh_dir("league", "overlay");
  fs::create_directories(dir);
  const std::string referee = ARENA_REFEREE;
  const std::string bots =
      fmt::format("--bot {} --bot {} --name a --name b", testing::random_bot(), testing::random_bot());
  const std::string out = (dir / "out").string();
  const auto start = testing::run(
      fmt::format("{} league {} --deals 1 --seed 3 --init-ms 20000 --sandbox none --rating-interval 0 --out {} 2>&1",
                  referee, bots, out));
  INFO(start.out);
  REQUIRE(start.exit_code == 0);
  const std::string file = (dir / "out" / "league.json").string();
  struct Refused {
    std::string flags;
    std::vector<std::string> says;  // each difference: what was given here, what league.json holds
  };
  std::ofstream(dir / "other.json") << json{
      {"bots", {testing::random_bot(), testing::random_bot()}},
      {"deals", 4}}.dump();
  const std::vector<Refused> refused = {
      {"--deals 2", {"--deals 2 here, \"deals\": 1 there"}},
      {"--seed 4 --no-duplicate",
       {"--seed 4 here, \"seed\": 3 there", "--no-duplicate here, \"duplicate\": true there"}},
      {"--decision-ms 700", {"--decision-ms 700 here, \"decision_ms\": 1000 there"}},
      // Another game: the recorded config does not fit it, but the changed flag is what is named.
      {"--game interstellar", {"--game \"interstellar\" here, \"game\": \"stellar\" there"}},
      {(dir / "other.json").string(),
       {fmt::format("\"deals\": 4 in {} here, \"deals\": 1 there", (dir / "other.json").string())}},
      {fmt::format("--bot {} --bot {} --name c --name b", testing::random_bot(), testing::random_bot()),
       {"--bot [", "here, \"bots\": ["}},
  };
  for (const Refused& r : refused) {
    INFO(r.flags);
    const auto c = testing::run(
        fmt::format("{} league {} --resume --sandbox none --rating-interval 0 --out {} 2>&1", referee, r.flags, out));
    CHECK(c.exit_code == 2);
    CHECK_THAT(c.out, Contains(file + " describes another league ("));
    for (const std::string& say : r.says) CHECK_THAT(c.out, Contains(say));
  }
  // The same league resumes from its league.json alone, with another --concurrency, or with its
  // own flags again; a resume of a finished league plays nothing.
  for (const std::string& flags :
       {std::string(), std::string("--concurrency 3"), bots + " --deals 1 --seed 3 --init-ms 20000"}) {
    INFO(flags);
    const auto c = testing::run(
        fmt::format("{} league {} --resume --sandbox none --rating-interval 0 --out {} 2>&1", referee, flags, out));
    CHECK(c.exit_code == 0);
    CHECK_THAT(c.out, Contains("league seed 3"));
  }
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
  for (const char* name : {"a", "b", "c", "d"}) s.bots.push_back(testing::bot_spec(testing::random_bot(), name));
  auto spec = league::normalize(s);
  REQUIRE(spec.ok());
  auto result = league::run(*spec, testing::league_options(testing::fresh_dir("league", "sq3")));
  REQUIRE(result.ok());
  // C(4,3) = 4 groups x 3 rotations.
  REQUIRE(result->records.size() == 12);
  std::map<std::string, std::array<int, 3>> seats;
  for (const auto& r : result->records) {
    REQUIRE(r.seats.size() == 3);
    CHECK(r.end == replay::End::finished);
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

// ---- seeds: drawn from the OS, keyed per deal, legacy leagues unchanged ----------------------

namespace {

json read_json_file(const fs::path& path) {
  std::ifstream in(path);
  return json::parse(in);
}

}  // namespace

TEST_CASE("a league without a seed draws one from the OS, records it, and a resume takes it", "[league][seeds]") {
  auto spec = spec_of({{"greedy", testing::greedy_bot()}, {"random", testing::random_bot()}}, 1, 2);
  spec.seed.reset();
  const auto dir_a = testing::fresh_dir("league", "osseed-a");
  const auto dir_b = testing::fresh_dir("league", "osseed-b");
  auto a = league::run(spec, testing::league_options(dir_a));
  auto b = league::run(spec, testing::league_options(dir_b));
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(a->seed != b->seed);
  CHECK(a->seed_scheme == league::SeedScheme::keyed_v1);
  const json file = read_json_file(dir_a / "league.json");
  CHECK(file.at("seed") == a->seed);
  CHECK(file.at("seed_scheme") == "keyed-v1");
  REQUIRE(a->records.size() == 2);
  REQUIRE(b->records.size() == 2);
  CHECK(a->records[0].seed == league::deal_seed(league::SeedScheme::keyed_v1, a->seed, 0));
  CHECK(a->records[0].seed != b->records[0].seed);
  // A resume without a seed (flags as first given) takes the journaled one: same league, nothing to play.
  auto again = testing::league_options(dir_a);
  again.resume = true;
  auto resumed = league::run(spec, again);
  REQUIRE(resumed.ok());
  CHECK(resumed->seed == a->seed);
  CHECK(resumed->played_now == 0);
  // An explicit seed gives pinned keyed-v1 deal seeds (the league's are reproducible with --seed).
  auto fixed = spec_of({{"greedy", testing::greedy_bot()}, {"random", testing::random_bot()}}, 1, 2);
  auto pinned = league::run(fixed, testing::league_options(testing::fresh_dir("league", "osseed-fixed")));
  REQUIRE(pinned.ok());
  REQUIRE(pinned->records.size() == 2);
  CHECK(pinned->seed == 2026);
  for (const auto& r : pinned->records) CHECK(r.seed == 16636014492081073408ULL);
}

TEST_CASE("a league journaled before seed schemes resumes with its old seeds", "[league][seeds]") {
  auto spec = spec_of({{"greedy", testing::greedy_bot()}, {"random", testing::random_bot()}}, 2, 2);
  spec.seed = 1;  // the old default
  const auto dir = testing::fresh_dir("league", "legacy");
  fs::create_directories(dir);
  // league.json as the previous version wrote it: a seed, no "seed_scheme".
  json old = league::to_json(spec);
  REQUIRE_FALSE(old.contains("seed_scheme"));
  std::ofstream(dir / "league.json") << old.dump(2) << '\n';
  // Its journal holds leg 0 of deal 0, in the old record format (no start and end times).
  std::ofstream(dir / "results.jsonl")
      << R"({"journal":1,"index":0,"deal":0,"leg":0,"seed":13757245211066428519,"end":"finished",)"
      << R"("seats":[{"bot":"greedy","score":70,"rank":1,"decision_ms":[1.0]},{"bot":"random","score":20,"rank":2,"decision_ms":[1.0]}],)"
      << R"("fault":null,"replay":"","rerun":""})" << '\n';
  // Resumed as `referee league --resume --out DIR` would: the spec read back from league.json.
  auto from_file = league::spec_from_json(read_json_file(dir / "league.json"));
  REQUIRE(from_file.ok());
  auto resumed_spec = league::normalize(*from_file);
  REQUIRE(resumed_spec.ok());
  auto o = testing::league_options(dir);
  o.resume = true;
  auto resumed = league::run(*resumed_spec, o);
  INFO((resumed ? std::string() : resumed.error()));
  REQUIRE(resumed.ok());
  CHECK(resumed->seed_scheme == league::SeedScheme::legacy);
  CHECK(resumed->played_now == 3);  // the missing leg of deal 0, and deal 1
  REQUIRE(resumed->records.size() == 4);
  // Exactly the seeds the previous version gave: derive_seed(1, deal).
  CHECK(resumed->records[1].seed == 13757245211066428519ULL);
  CHECK(resumed->records[2].seed == 9626026794937781409ULL);
  CHECK(resumed->records[3].seed == 9626026794937781409ULL);
  CHECK_FALSE(read_json_file(dir / "league.json").contains("seed_scheme"));  // not rewritten

  // A scheme this referee does not know is refused with its name.
  const auto future = testing::fresh_dir("league", "future-scheme");
  fs::create_directories(future);
  json newer = league::to_json(spec);
  newer["seed_scheme"] = "keyed-v9";
  std::ofstream(future / "league.json") << newer.dump(2) << '\n';
  auto fo = testing::league_options(future);
  fo.resume = true;
  auto refused = league::run(spec, fo);
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.error(), Contains("unknown seed_scheme \"keyed-v9\""));
  CHECK_FALSE(league::spec_from_json(newer).ok());
}

// ---- work distribution: a deal is one unit of work -------------------------------------------

TEST_CASE("the legs of one deal never run at the same time, whatever the concurrency", "[league]") {
  const auto dir = testing::fresh_dir("league", "legs");
  auto spec = spec_of(
      {{"greedy", testing::greedy_bot()}, {"random", testing::random_bot()}, {"random2", testing::random_bot()}}, 4, 2);
  auto result = league::run(spec, testing::league_options(dir));
  REQUIRE(result.ok());
  // The times come back from the journal, as a later audit would read them.
  auto journal = league::read_journal(dir / "results.jsonl");
  REQUIRE(journal.ok());
  REQUIRE(journal->size() == 24);
  std::map<std::uint64_t, std::map<int, const league::MatchRecord*>> by_deal;
  for (const auto& r : *journal) {
    CHECK(r.start_unix_ms > 0);
    CHECK(r.end_unix_ms >= r.start_unix_ms);
    by_deal[r.deal][r.leg] = &r;
  }
  REQUIRE(by_deal.size() == 12);
  for (const auto& [deal, legs] : by_deal) {
    REQUIRE(legs.size() == 2);
    // One worker plays them in order: leg 1 starts after leg 0 ended.
    CHECK(legs.at(1)->start_unix_ms >= legs.at(0)->end_unix_ms);
  }
  // And the league did run matches side by side (of different deals), so the check above means something.
  int overlapping = 0;
  for (const auto& a : *journal) {
    for (const auto& b : *journal) {
      if (a.deal < b.deal && a.start_unix_ms < b.end_unix_ms && b.start_unix_ms < a.end_unix_ms) ++overlapping;
    }
  }
  CHECK(overlapping > 0);
}

TEST_CASE("a half-played deal resumes its missing legs, re-run commands reproduce their matches", "[league]") {
  auto spec = spec_of({{"greedy", testing::greedy_bot()}, {"random", testing::random_bot()}}, 2, 2);
  const auto whole_dir = testing::fresh_dir("league", "half-whole");
  auto whole = league::run(spec, testing::league_options(whole_dir));
  REQUIRE(whole.ok());
  REQUIRE(whole->records.size() == 4);
  // Keep leg 0 of deal 0 and leg 1 of deal 1 only, as if both deals were cut in the middle.
  const auto half_dir = testing::fresh_dir("league", "half");
  fs::create_directories(half_dir);
  fs::copy_file(whole_dir / "league.json", half_dir / "league.json");
  {
    std::ofstream j(half_dir / "results.jsonl");
    for (std::size_t i : {0U, 3U}) j << league::to_json(whole->records[i]).dump() << '\n';
  }
  auto o = testing::league_options(half_dir);
  o.resume = true;
  std::vector<std::uint64_t> played;
  o.on_match = [&](const league::MatchRecord& r, std::uint64_t, std::uint64_t) { played.push_back(r.index); };
  auto resumed = league::run(spec, o);
  REQUIRE(resumed.ok());
  std::sort(played.begin(), played.end());
  CHECK(played == std::vector<std::uint64_t>{1, 2});
  CHECK(essence(resumed->records) == essence(whole->records));

  // The command printed for a match re-runs it alone: same seed, same scores.
  const auto& r = whole->records[1];
  // It carries the league's sandbox (none here).
  auto c = testing::run(fmt::format("{} --out {} 2>/dev/null", r.rerun, (half_dir / "rerun").string()));
  REQUIRE(c.exit_code == 0);
  const json replayed = json::parse(c.out);
  CHECK(replayed.at("seed") == r.seed);
  REQUIRE(replayed.at("scores").size() == 2);
  for (std::size_t s = 0; s < 2; ++s) CHECK(replayed.at("scores").at(s).get<double>() == r.seats[s].score);
}

TEST_CASE("referee league without --seed prints and records its seed, bots are frozen while idle by default",
          "[league][cli]") {
  const auto dir = testing::fresh_dir("league", "cli-seed");
  const std::string referee = ARENA_REFEREE;
  const std::string bots =
      fmt::format("--bot {} --bot {} --name g --name r --sandbox none", testing::greedy_bot(), testing::random_bot());
  auto c = testing::run(fmt::format("{} league {} --out {} 2>&1", referee, bots, (dir / "a").string()));
  INFO(c.out);
  REQUIRE(c.exit_code == 0);
  const json file = read_json_file(dir / "a" / "league.json");
  const auto seed = file.at("seed").get<std::uint64_t>();
  CHECK(file.at("seed_scheme") == "keyed-v1");
  CHECK_THAT(c.out,
             Contains(fmt::format("league seed {} (keyed-v1", seed)) && Contains(fmt::format("--seed {}", seed)));
  const json standings = read_json_file(dir / "a" / "standings.json");
  CHECK(standings.at("league").at("seed") == seed);
  // The printed seed plays the same league again.
  auto again =
      testing::run(fmt::format("{} league {} --seed {} --out {} 2>&1", referee, bots, seed, (dir / "b").string()));
  REQUIRE(again.exit_code == 0);
  auto first = league::read_journal(dir / "a" / "results.jsonl");
  auto second = league::read_journal(dir / "b" / "results.jsonl");
  REQUIRE(first.ok());
  REQUIRE(second.ok());
  const auto by_index = [](const league::MatchRecord& x, const league::MatchRecord& y) { return x.index < y.index; };
  std::sort(first->begin(), first->end(), by_index);
  std::sort(second->begin(), second->end(), by_index);
  CHECK(essence(*first) == essence(*second));
  // Frozen while idle is the default; --no-freeze-idle turns it off, --freeze-idle is still accepted.
  auto freeze_of = [&](const std::string& flag, const std::string& name) {
    const auto out = dir / name;
    const auto r = testing::run(fmt::format("{} league {} {} --out {} 2>&1", referee, bots, flag, out.string()));
    INFO(r.out);
    REQUIRE(r.exit_code == 0);
    auto replay = replay::read(out / "replays" / "m000000.jsonl");
    REQUIRE(replay.ok());
    return replay->header.extra.at("sandbox").at("freeze_idle").get<bool>();
  };
  CHECK(freeze_of("", "default"));
  CHECK(freeze_of("--freeze-idle", "on"));
  CHECK_FALSE(freeze_of("--no-freeze-idle", "off"));
  const auto play = testing::run(
      fmt::format("{} play --bot {} --bot {} --sandbox none --no-freeze-idle --seed 3 --out {} 2>/dev/null", referee,
                  testing::greedy_bot(), testing::random_bot(), (dir / "play").string()));
  REQUIRE(play.exit_code == 0);
  auto replay = replay::read(json::parse(play.out).at("replay").get<std::string>());
  REQUIRE(replay.ok());
  CHECK(replay->header.extra.at("sandbox").at("freeze_idle") == false);
}

namespace {

// The CPUs each bot of a league may use, as the bots saw them: a Python bot that writes
// os.sched_getaffinity(0) to its stderr and plays the first legal action; one set per stderr log.
std::vector<std::set<int>> bots_cpus(const fs::path& dir, bool affinity) {
  fs::create_directories(dir);
  const fs::path bot = dir / "cpus_bot.py";
  testing::write_first_legal_bot(bot,
                                 "print('cpus=' + ','.join(map(str, sorted(os.sched_getaffinity(0)))), "
                                 "file=sys.stderr)");
  const std::string command = "python3 " + bot.string();
  auto o = testing::league_options(dir / "out");
  o.affinity = affinity;
  auto r = league::run(spec_of({{"a", command}, {"b", command}}, 4, 2), o);
  REQUIRE(r.ok());
  REQUIRE(r->played_now == 8);
  std::vector<std::set<int>> out;
  for (const auto& e : fs::directory_iterator(dir / "out" / "logs")) {
    std::ifstream in(e.path());
    std::string line;
    std::getline(in, line);
    REQUIRE(line.rfind("cpus=", 0) == 0);
    std::set<int> cpus;
    std::stringstream list(line.substr(5));
    for (std::string cpu; std::getline(list, cpu, ',');) cpus.insert(std::stoi(cpu));
    out.push_back(cpus);
  }
  REQUIRE(out.size() == 16);
  return out;
}

}  // namespace

TEST_CASE("league --affinity: each worker's bots run on one CPU of the referee's, the workers on different ones",
          "[league]") {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  REQUIRE(::sched_getaffinity(0, sizeof allowed, &allowed) == 0);
  const int cpus = CPU_COUNT(&allowed);
  // Without it a bot may use every CPU the referee may.
  for (const auto& seen : bots_cpus(testing::fresh_dir("league", "unpinned"), false)) {
    CHECK(static_cast<int>(seen.size()) == cpus);
  }
  std::set<int> used;
  for (const auto& seen : bots_cpus(testing::fresh_dir("league", "pinned"), true)) {
    REQUIRE(seen.size() == 1);
    CHECK(CPU_ISSET(static_cast<std::size_t>(*seen.begin()), &allowed));
    used.insert(*seen.begin());
  }
  // Two workers, each on its own CPU (when there are two); which bot played under which worker
  // is the schedule's business.
  CHECK(static_cast<int>(used.size()) == std::min(cpus, 2));
}
