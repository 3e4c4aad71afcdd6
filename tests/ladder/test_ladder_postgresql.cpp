// The ladder across processes on a real PostgreSQL (started by the test: pg_cluster.hpp): a
// coordinator (`ladder run -j 0`) and two `ladder worker` processes. One worker is killed with
// SIGKILL while it plays; a forger claims matches and reports what it did not play. Nothing is
// lost (the killed worker's match expires and is played again), nothing is counted twice, every
// forgery is refused and logged, and the exported standings equal the database's games.

#include <signal.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "referee/ladder/leaderboard.hpp"
#include "referee/ladder/store.hpp"
#include "referee/league/deal.hpp"
#include "referee/replay/replay.hpp"
#include "tests/ladder/ladder_harness.hpp"
#include "tests/ladder/pg_cluster.hpp"
#include "tests/match/harness.hpp"

using namespace arena;
using namespace arena::testing;
namespace fs = std::filesystem;

namespace {

// A match claimed by the forger and reported with `legs`; whether the store took the report.
bool forge(ladder::Store& store, const std::string& forger,
           const std::function<std::vector<ladder::LegReport>(const ladder::Claim&)>& legs) {
  std::optional<ladder::Claim> claim;
  REQUIRE(wait_until(
      [&] {
        auto c = store.claim(forger, league::unix_ms(), 60000);
        REQUIRE(c);
        claim = *c;
        return claim.has_value();
      },
      std::chrono::seconds(120)));
  auto reported = store.report(*claim, legs(*claim), league::unix_ms());
  REQUIRE(reported);
  return *reported;
}

}  // namespace

TEST_CASE("ladder on PostgreSQL: a killed worker loses only its match, forged reports are refused", "[ladder]") {
  REQUIRE(PgCluster::available());  // scripts/test.sh installs postgresql
  PgCluster pg;
  const std::string db = pg.connection();
  const fs::path dir = fresh_dir("ladder", "postgresql");
  const fs::path l = dir / "ladder";
  // A short lease, so that the killed worker's match comes back within seconds.
  const fs::path settings = dir / "ladder-settings.json";
  std::ofstream(settings)
      << R"({"ladder": 1, "game": "stellar", "lease_s": 5, "placement_games": 2, "check_games": 1})";
  Command c = ladder_cli("init " + testing::quoted(l.string()) + " --from " + testing::quoted(settings.string()) +
                         " --db " + testing::quoted(db));
  INFO(c.out);
  REQUIRE(c.exit_code == 0);
  CHECK_FALSE(fs::exists(l / "ladder.db"));  // the database is PostgreSQL's
  const fs::path subs = dir / "submissions";
  for (const auto& [name, path] :
       std::vector<std::pair<std::string, fs::path>>{{"kit-python", starter_kit("python")},
                                                     {"kit-js", starter_kit("javascript")},
                                                     {"random", python_random_submission(subs)}}) {
    c = ladder_cli("submit " + testing::quoted(l.string()) + " " + testing::quoted(path.string()) + " --name " + name +
                   " --author alice --db " + testing::quoted(db));
    INFO(c.out);
    REQUIRE(c.exit_code == 0);
  }
  // Without --db the folder says where its database is.
  c = ladder_cli("status " + testing::quoted(l.string()));
  CHECK(c.exit_code == 2);
  CHECK(c.out.find("PostgreSQL") != std::string::npos);

  auto store = ladder::Store::open(ladder::Location{"", db});
  REQUIRE(store);
  Background coordinator(referee() + " ladder run " + testing::quoted(l.string()) + " -j 0 --db " + testing::quoted(db),
                         dir / "coordinator.log");
  auto worker = [&](const std::string& name) {
    return std::make_unique<Background>(referee() + " ladder worker -j 1 --db " + testing::quoted(db) + " --cache " +
                                            testing::quoted((dir / name).string()),
                                        dir / (name + ".log"));
  };
  auto doomed = worker("worker-a");
  auto steady = worker("worker-b");

  // The doomed worker is killed while it holds a match.
  std::optional<ladder::Id> lost;
  REQUIRE(wait_until(
      [&] {
        auto workers = (*store)->workers();
        REQUIRE(workers);
        for (const auto& w : *workers) {
          if (w.match && w.name.find(":" + std::to_string(doomed->pid()) + ":") != std::string::npos) lost = w.match;
        }
        return lost.has_value();
      },
      std::chrono::seconds(300)));
  CHECK(doomed->stop(SIGKILL) == 128 + SIGKILL);

  // Wait for a first counted match: its replay is the forger's material.
  REQUIRE(wait_until(
      [&] {
        auto n = (*store)->count_matches(ladder::MatchState::counted);
        return n && *n >= 1;
      },
      std::chrono::seconds(300)));
  auto games = (*store)->games(1);
  REQUIRE(games);
  REQUIRE(games->size() == 1);
  auto genuine_text = (*store)->replay((*games)[0].match, (*games)[0].leg);
  REQUIRE(genuine_text);
  auto genuine = replay::parse_text(*genuine_text);
  REQUIRE(genuine);
  const auto genuine_result = replay::verify(*genuine);
  REQUIRE(genuine_result.ok);

  // Forgery 1: another match's genuine replay reported for the claimed one (every leg).
  std::set<ladder::Id> forged;
  CHECK(forge(**store, "forger:1", [&](const ladder::Claim& claim) {
    forged.insert(claim.match.id);
    std::vector<ladder::LegReport> legs;
    for (int leg = 0; leg < claim.match.legs; ++leg) {
      legs.push_back(ladder::LegReport{leg, *genuine_result.result, *genuine_text, 0, 0});
    }
    return legs;
  }));
  // Forgery 2: the replay's winner flipped in the footer and in the reported result.
  CHECK(forge(**store, "forger:2", [&](const ladder::Claim& claim) {
    forged.insert(claim.match.id);
    replay::FinalResult flipped = *genuine_result.result;
    if (flipped.ranks.size() == 2) std::swap(flipped.ranks[0], flipped.ranks[1]);
    if (flipped.scores.size() == 2) std::swap(flipped.scores[0], flipped.scores[1]);
    replay::settle(flipped);
    replay::Replay r = *genuine;
    r.footer->result = replay::to_json(flipped);
    std::string text = replay::to_json(r.header).dump() + "\n";
    for (const auto& s : r.steps) text += replay::to_json(s).dump() + "\n";
    text += replay::to_json(*r.footer).dump() + "\n";
    std::vector<ladder::LegReport> legs;
    for (int leg = 0; leg < claim.match.legs; ++leg) legs.push_back(ladder::LegReport{leg, flipped, text, 0, 0});
    return legs;
  }));

  // The ladder goes on: both forged matches are played again by the steady worker, and the killed
  // worker's match too once its lease expired.
  REQUIRE(wait_until(
      [&] {
        auto counted = (*store)->matches(ladder::MatchState::counted, 100000);
        REQUIRE(counted);
        std::set<ladder::Id> done;
        for (const auto& m : *counted) done.insert(m.id);
        bool all = done.contains(*lost) && done.size() >= 8;
        for (ladder::Id id : forged) all = all && done.contains(id);
        return all;
      },
      std::chrono::seconds(600)));
  CHECK(steady->stop(SIGTERM) == 128 + SIGTERM);
  CHECK(coordinator.stop(SIGTERM) == 128 + SIGTERM);

  // Every forgery refused and logged; the lost lease logged.
  auto events = (*store)->events(1000);
  REQUIRE(events);
  std::size_t refused = 0;
  std::size_t expired = 0;
  for (const auto& e : *events) {
    refused += e.kind == ladder::EventKind::refused && e.message.find("forger") != std::string::npos ? 1u : 0u;
    expired += e.kind == ladder::EventKind::expired ? 1u : 0u;
  }
  CHECK(refused == 2);
  CHECK(expired >= 1);
  // Nothing counted twice: each counted match has exactly its legs as games, none of them forged.
  auto counted = (*store)->matches(ladder::MatchState::counted, 100000);
  REQUIRE(counted);
  std::map<ladder::Id, int> legs_of;
  for (const auto& m : *counted) legs_of[m.id] = m.legs;
  auto all_games = (*store)->games(1000000);
  REQUIRE(all_games);
  std::map<ladder::Id, int> games_of;
  for (const auto& g : *all_games) {
    ++games_of[g.match];
    auto text = (*store)->replay(g.match, g.leg);
    REQUIRE(text);
    CHECK((*text != *genuine_text || (g.match == (*games)[0].match && g.leg == (*games)[0].leg)));
  }
  CHECK(games_of.size() == legs_of.size());
  for (const auto& [id, legs] : legs_of) {
    INFO("match " << id);
    CHECK(games_of[id] == legs);
  }
  // The exported standings count exactly the database's games.
  const fs::path out = dir / "export";
  c = ladder_cli("export " + testing::quoted(l.string()) + " --out " + testing::quoted(out.string()) + " --db " +
                 testing::quoted(db));
  INFO(c.out);
  REQUIRE(c.exit_code == 0);
  const auto standings = nlohmann::json::parse(read_file(out / "standings.json"));
  CHECK(standings.at("matches").get<std::size_t>() == all_games->size());
}
