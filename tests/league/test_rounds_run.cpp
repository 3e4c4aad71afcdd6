// Swiss and knockout leagues played for real with the sample bots (league/rounds.hpp): no repeated
// pairing, at most one bye per bot, standings in the tie-break order, a 3-seat Swiss in Stella
// Quest, a knockout's full bracket and winner; each interrupted after its first round (as Ctrl-C
// would, or a referee killed mid-round) and resumed to exactly the uninterrupted league; the
// command's refusals (exit 2).

#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "referee/league/folder.hpp"
#include "referee/league/journal.hpp"
#include "referee/league/league.hpp"
#include "referee/league/rounds.hpp"
#include "tests/league/sample_league.hpp"
#include "tests/match/harness.hpp"

using namespace arena;
using Catch::Contains;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// Five sample bots: two greedy, three random.
league::LeagueSpec rr_spec(league::Format format, int seats, std::optional<int> rounds) {
  league::LeagueSpec s;
  s.game = seats > 2 ? "stella_quest" : "stellar";
  const std::vector<std::pair<std::string, std::string>> bots = {{"greedy-a", testing::greedy_bot()},
                                                                 {"random-a", testing::random_bot()},
                                                                 {"greedy-b", testing::greedy_bot()},
                                                                 {"random-b", testing::random_bot()},
                                                                 {"random-c", testing::random_bot()}};
  for (const auto& [name, command] : bots) s.bots.push_back(testing::bot_spec(command, name));
  s.format = format;
  s.seats = seats;
  s.rounds = rounds;
  s.concurrency = 2;
  return testing::sample_league(std::move(s));
}

league::RoundsReport rr_report(const league::LeagueSpec& spec, const fs::path& out) {
  auto report = league::rounds_report_from_journal(spec, out / league::kJournalFile);
  INFO((report ? std::string() : report.error()));
  REQUIRE(report.ok());
  return std::move(report).value();
}

// Plays the league whole, then again stopped once its first round is journaled and resumed: the
// same matches, the same rounds.
void rr_check_resume(const league::LeagueSpec& spec, const std::string& name) {
  const fs::path whole_dir = testing::fresh_dir("league-rounds", name + "-whole");
  auto whole = league::run(spec, testing::league_options(whole_dir));
  REQUIRE(whole.ok());
  REQUIRE(whole->journaled == whole->total);
  const league::RoundLayout layout(spec);
  const std::uint64_t first_round = layout.round_begin(1);

  const fs::path dir = testing::fresh_dir("league-rounds", name + "-stopped");
  const auto part = testing::run_stopped_after(spec, dir, first_round);
  CHECK(part.interrupted);
  CHECK(part.journaled == first_round);  // the second round had not started
  auto again = testing::league_options(dir);
  again.resume = true;
  auto resumed = league::run(spec, again);
  REQUIRE(resumed.ok());
  CHECK_FALSE(resumed->interrupted);
  CHECK(resumed->played_now == whole->total - first_round);
  CHECK(testing::league_essence(resumed->records) == testing::league_essence(whole->records));
  CHECK(league::to_json(rr_report(spec, dir)) == league::to_json(rr_report(spec, whole_dir)));

  // A referee killed in the second round: its journal holds round 1, one match of round 2 and a
  // torn line. The resume plays the rest of round 2 with the same tables.
  const fs::path killed = testing::fresh_dir("league-rounds", name + "-killed");
  fs::create_directories(killed);
  fs::copy_file(whole_dir / league::kLeagueFile, killed / league::kLeagueFile);
  {
    std::ofstream journal(killed / league::kJournalFile);
    for (const auto& r : whole->records.all()) {
      if (r.index <= first_round) journal << league::journal_line(r) << '\n';
    }
    journal << R"({"index": 99, "dea)";
  }
  auto after_kill = testing::league_options(killed);
  after_kill.resume = true;
  auto finished = league::run(spec, after_kill);
  REQUIRE(finished.ok());
  CHECK(finished->played_now == whole->total - first_round - 1);
  CHECK(testing::league_essence(finished->records) == testing::league_essence(whole->records));
  CHECK(league::to_json(rr_report(spec, killed)) == league::to_json(rr_report(spec, whole_dir)));
}

}  // namespace

TEST_CASE("a Swiss league of 5 bots over 3 rounds: no repeated pairing, one bye each at most, the tie-break order",
          "[league][rounds]") {
  const auto spec = rr_spec(league::Format::swiss, 2, 3);
  const fs::path out = testing::fresh_dir("league-rounds", "swiss");
  auto result = league::run(spec, testing::league_options(out));
  REQUIRE(result.ok());
  // 3 rounds x 2 tables (the fifth bot has a bye) x 1 deal x 2 legs.
  REQUIRE(result->total == 12);
  REQUIRE(result->records.size() == 12);
  const league::RoundsReport report = rr_report(spec, out);
  REQUIRE(report.played.size() == 3);
  std::set<std::set<std::string>> pairs;
  std::map<std::string, int> byes;
  std::map<std::string, double> score;
  for (const auto& round : report.played) {
    CHECK(round.complete);
    REQUIRE(round.byes.size() == 1);
    ++byes[round.byes[0]];
    score[round.byes[0]] += 1.0;
    REQUIRE(round.tables.size() == 2);
    for (const auto& t : round.tables) {
      CHECK(pairs.insert({t.bots.begin(), t.bots.end()}).second);  // never met before
      // The table's matches sit exactly its bots.
      for (std::uint64_t i = t.first_index; i < t.first_index + t.matches; ++i) {
        const auto& r = result->records[static_cast<std::size_t>(i)];
        CHECK(std::set<std::string>{r.seats[0].bot, r.seats[1].bot} ==
              std::set<std::string>(t.bots.begin(), t.bots.end()));
      }
    }
  }
  for (const auto& [bot, n] : byes) CHECK(n == 1);
  CHECK(byes.size() == 3);
  // The score re-derived from the journal: each round's rank points over its 2 legs, a bye 1.
  for (const auto& r : result->records.all()) {
    for (int s = 0; s < 2; ++s) score[r.seats[static_cast<std::size_t>(s)].bot] += league::rank_points(r, s) / 2;
  }
  REQUIRE(report.swiss.size() == 5);
  for (std::size_t i = 0; i < report.swiss.size(); ++i) {
    const auto& row = report.swiss[i];
    CHECK(row.score == Approx(score[row.bot]));
    if (i == 0) continue;
    const auto& above = report.swiss[i - 1];
    const auto key = [](const league::SwissRow& x) { return std::make_tuple(x.score, x.buchholz, x.sonneborn_berger); };
    CHECK(key(above) >= key(row));
  }
  // The standings files list the bots in the Swiss order and carry the rounds.
  auto folder = league::LeagueFolder::open(out);
  REQUIRE(folder.ok());
  league::LeagueFacts facts;
  facts.folder = out.string();
  facts.total = result->total;
  facts.journaled = result->journaled;
  facts.rounds_of = &spec;
  auto standings = folder->write_standings({"greedy-a", "random-a", "greedy-b", "random-b", "random-c"}, facts, false);
  REQUIRE(standings.ok());
  for (std::size_t i = 0; i < 5; ++i) CHECK(standings->bots[i].name == report.order[i]);
  const json written = json::parse(testing::read_file(out / league::kStandingsJson));
  CHECK(written.at("rounds").at("format") == "swiss");
  CHECK(written.at("rounds").at("played").size() == 3);
  CHECK(written.at("bots").at(0).at("name") == report.order[0]);
  CHECK_THAT(testing::read_file(out / league::kStandingsMarkdown),
             Contains("## Swiss: 3 rounds") && Contains("### Round 3"));
}

TEST_CASE("a Swiss league interrupted after round 1 resumes to the same pairings and standings", "[league][rounds]") {
  rr_check_resume(rr_spec(league::Format::swiss, 2, 3), "swiss-resume");
}

TEST_CASE("a 3-seat Swiss league in Stella Quest: tables of 3, two byes a round, none twice", "[league][rounds]") {
  const auto spec = rr_spec(league::Format::swiss, 3, 2);
  const fs::path out = testing::fresh_dir("league-rounds", "swiss-3");
  auto result = league::run(spec, testing::league_options(out));
  REQUIRE(result.ok());
  CHECK(result->total == 2);  // 2 rounds x 1 table x 1 deal (no duplicate deals for 3 seats)
  const league::RoundsReport report = rr_report(spec, out);
  REQUIRE(report.played.size() == 2);
  std::set<std::string> had_bye;
  std::set<std::set<std::string>> met;
  for (const auto& round : report.played) {
    REQUIRE(round.tables.size() == 1);
    CHECK(round.tables[0].bots.size() == 3);
    REQUIRE(round.byes.size() == 2);
    for (const auto& b : round.byes) CHECK(had_bye.insert(b).second);
    const auto& bots = round.tables[0].bots;
    for (std::size_t i = 0; i < 3; ++i) {
      for (std::size_t j = i + 1; j < 3; ++j) CHECK(met.insert({bots[i], bots[j]}).second);
    }
  }
  CHECK(report.bye_points == 0.5);
  for (const auto& r : result->records.all()) CHECK(r.seats.size() == 3);
}

TEST_CASE("a knockout of 5 bots: byes to the top seeds, a full bracket, a winner, resumed identically",
          "[league][rounds]") {
  const auto spec = rr_spec(league::Format::knockout, 2, std::nullopt);
  const fs::path out = testing::fresh_dir("league-rounds", "knockout");
  auto result = league::run(spec, testing::league_options(out));
  REQUIRE(result.ok());
  CHECK(result->total == 8);  // 4 tables (4 bots go out) x 2 legs
  const league::RoundsReport report = rr_report(spec, out);
  REQUIRE(report.played.size() == 3);
  // The top three seeds (the league's order: seeding "order"), in bracket order.
  CHECK(report.played[0].byes == std::vector<std::string>{"greedy-a", "random-a", "greedy-b"});
  REQUIRE(report.played[0].tables.size() == 1);
  CHECK(report.played[0].tables[0].bots == std::vector<std::string>{"random-b", "random-c"});
  CHECK(report.played[0].tables[0].seeds == std::vector<int>{4, 5});
  CHECK(report.played[1].tables.size() == 2);
  REQUIRE(report.played[2].tables.size() == 1);
  std::map<std::string, int> lost;
  for (const auto& round : report.played) {
    for (const auto& t : round.tables) {
      REQUIRE(t.winner >= 0);
      ++lost[t.bots[static_cast<std::size_t>(1 - t.winner)]];
    }
  }
  CHECK(lost.size() == 4);  // every bot but the winner goes out once
  CHECK_FALSE(report.winner.empty());
  CHECK(lost.count(report.winner) == 0);
  const auto& final_table = report.played[2].tables[0];
  CHECK(final_table.bots[static_cast<std::size_t>(final_table.winner)] == report.winner);
  CHECK(report.order.front() == report.winner);
  rr_check_resume(spec, "knockout-resume");
}

TEST_CASE("referee league refuses a knockout of 3 seats, a shard of a Swiss league, --rounds elsewhere",
          "[league][rounds]") {
  const std::string referee = ARENA_REFEREE;
  const fs::path dir = testing::fresh_dir("league-rounds", "cli");
  const std::string bots = fmt::format("--bot {0} --bot {1} --bot {0}", testing::random_bot(), testing::greedy_bot());
  struct Case {
    std::string flags;
    std::string says;
  };
  for (const Case& c :
       std::vector<Case>{{"--format knockout --game stella_quest --seats 3", "a knockout is played by 2 seats, not 3"},
                         {"--format swiss --shard 1/2", "--shard cannot split a swiss league"},
                         {"--format round-robin --rounds 2", "\"rounds\" (--rounds) is for a swiss league"},
                         {"--format swiss --sprt \"elo0=0 elo1=5 alpha=0.05 beta=0.05\"", "--sprt"},
                         {"--format ladder", "\"swiss\" or \"knockout\""}}) {
    const auto run = testing::run(
        fmt::format("{} league {} {} --sandbox none --out {} 2>&1", referee, bots, c.flags, (dir / "never").string()));
    INFO(c.flags << ": " << run.out);
    CHECK(run.exit_code == 2);
    CHECK_THAT(run.out, Contains(c.says));
  }
  // A Swiss league resumed as another format: the format named, nothing played.
  const std::string out = (dir / "swiss").string();
  auto first =
      testing::run(fmt::format("{} league {} --format swiss --rounds 1 --seed 5 --sandbox none "
                               "--rating-interval 0 --out {} 2>&1",
                               referee, bots, out));
  INFO(first.out);
  REQUIRE(first.exit_code == 0);
  CHECK_THAT(first.out, Contains("Swiss: 1 rounds") && Contains("Round 1"));
  auto other = testing::run(fmt::format("{} league --resume --format knockout --out {} 2>&1", referee, out));
  CHECK(other.exit_code == 2);
  CHECK_THAT(other.out, Contains("--format \"knockout\" here, \"format\": \"swiss\" there"));
  // Its page without standings.json (a league stopped hard): the rounds come from the journal.
  fs::remove(fs::path(out) / league::kStandingsJson);
  auto page = testing::run(fmt::format("{} html {} 2>&1", referee, out));
  INFO(page.out);
  REQUIRE(page.exit_code == 0);
  CHECK_THAT(testing::read_file(fs::path(out) / "league.html"), Contains(R"("format":"swiss")"));
  // Forged shards of a Swiss league (none is ever played): `league merge` refuses them.
  const json recorded = json::parse(testing::read_file(fs::path(out) / league::kLeagueFile));
  for (int i = 1; i <= 2; ++i) {
    const fs::path shard = dir / fmt::format("shard{}", i);
    fs::create_directories(shard);
    json forged = recorded;
    forged["shard"] = {{"index", i}, {"count", 2}};
    std::ofstream(shard / league::kLeagueFile) << forged.dump();
    std::ofstream(shard / league::kJournalFile) << "";
  }
  auto merged = testing::run(fmt::format("{} league merge {} {} --out {} 2>&1", referee, (dir / "shard1").string(),
                                         (dir / "shard2").string(), (dir / "merged").string()));
  CHECK(merged.exit_code == 2);
  CHECK_THAT(merged.out, Contains("--shard cannot split a swiss league"));
}
