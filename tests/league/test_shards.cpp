// One league cut in shards (league --shard I/N) and merged back (league merge): the merged
// standings are a single machine's, byte for byte, for the same matches; every inconsistency is
// refused with its reason; a shard resumes only itself.

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "referee/league/journal.hpp"
#include "referee/league/league.hpp"
#include "tests/match/harness.hpp"

using namespace arena;
using Catch::Contains;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::string league_flags() {
  return fmt::format(
      "--sandbox none --bot {} --bot {} --bot {} --name greedy --name random --name random2 --deals 4 --seed 77 "
      "--rating-interval 0",
      testing::greedy_bot(), testing::random_bot(), testing::random_bot());
}

// Shard folders cut by hand from a whole league's folder, as `--shard I/N` would have written
// them: league.json with "shard", the journal lines of its deals (in reverse order: a merge must
// not care), the replays.
void cut(const fs::path& whole, const fs::path& into, int count) {
  json league = json::parse(testing::read_file(whole / "league.json"));
  auto records = league::read_journal(whole / "results.jsonl");
  REQUIRE(records.ok());
  for (int i = 1; i <= count; ++i) {
    const fs::path shard = into / fmt::format("s{}", i);
    fs::create_directories(shard / "replays");
    league["shard"] = {{"index", i}, {"count", count}};
    std::ofstream(shard / "league.json") << league.dump(2) << '\n';
    std::ofstream journal(shard / "results.jsonl");
    for (auto it = records->rbegin(); it != records->rend(); ++it) {
      if (it->deal % static_cast<std::uint64_t>(count) != static_cast<std::uint64_t>(i - 1)) continue;
      journal << league::journal_line(*it) << '\n';
      const fs::path replay = fs::path(it->replay);
      fs::copy_file(replay, shard / "replays" / replay.filename());
    }
  }
}

json without_folder(const fs::path& standings) {
  json j = json::parse(testing::read_file(standings));
  j.at("league").erase("folder");
  return j;
}

}  // namespace

TEST_CASE("league merge: shards cut from one journal give its standings byte for byte", "[league][shards]") {
  const fs::path dir = testing::fresh_dir("shards", "bytes");
  const auto whole = testing::run(
      fmt::format("{} league {} -j 2 --out {} 2>&1", ARENA_REFEREE, league_flags(), (dir / "whole").string()));
  INFO(whole.out);
  REQUIRE(whole.exit_code == 0);
  cut(dir / "whole", dir, 3);
  const auto merged =
      testing::run(fmt::format("{} league merge {} {} {} --out {} 2>&1", ARENA_REFEREE, (dir / "s3").string(),
                               (dir / "s1").string(), (dir / "s2").string(), (dir / "merged").string()));
  INFO(merged.out);
  REQUIRE(merged.exit_code == 0);
  CHECK_THAT(merged.out, Contains("24 of 24 matches from 3 shard folders"));
  for (const char* file : {"standings.md", "junit.xml"}) {
    INFO(file);
    CHECK(testing::read_file(dir / "merged" / file) == testing::read_file(dir / "whole" / file));
  }
  CHECK(without_folder(dir / "merged" / "standings.json") == without_folder(dir / "whole" / "standings.json"));
  // The journal in index order, every replay there, and the per-shard summary.
  auto journal = league::read_journal(dir / "merged" / "results.jsonl");
  REQUIRE(journal.ok());
  REQUIRE(journal->size() == 24);
  for (std::size_t i = 0; i < journal->size(); ++i) {
    CHECK((*journal)[i].index == i);
    CHECK(fs::exists((*journal)[i].replay));
  }
  const json shards = json::parse(testing::read_file(dir / "merged" / "shards.json"));
  REQUIRE(shards.at("shards").size() == 3);
  CHECK(shards.at("shards").at(0).at("matches") == 8);  // deals 0, 3, 6 and 9, two legs each
}

TEST_CASE("league merge refuses foreign, duplicate, missing and mixed shards, with the reason", "[league][shards]") {
  const fs::path dir = testing::fresh_dir("shards", "refused");
  REQUIRE(testing::run(
              fmt::format("{} league {} -j 2 --out {} 2>&1", ARENA_REFEREE, league_flags(), (dir / "whole").string()))
              .exit_code == 0);
  cut(dir / "whole", dir, 3);
  const auto merge = [&](const std::string& folders, const std::string& out, const std::string& extra = "") {
    return testing::run(
        fmt::format("{} league merge {} --out {} {} 2>&1", ARENA_REFEREE, folders, (dir / out).string(), extra));
  };
  const std::string s1 = (dir / "s1").string(), s2 = (dir / "s2").string(), s3 = (dir / "s3").string();

  auto c = merge(fmt::format("{} {}", s1, s2), "m-missing");
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("shard 3/3 missing"));
  CHECK_FALSE(fs::exists(dir / "m-missing"));  // nothing written for a refused merge

  c = merge(fmt::format("{} {}", s1, s2), "m-partial", "--partial");
  CHECK(c.exit_code == 0);
  CHECK_THAT(testing::read_file(dir / "m-partial" / "standings.md"), Contains("PARTIAL"));
  CHECK(json::parse(testing::read_file(dir / "m-partial" / "standings.json")).at("league").at("matches_done") == 16);
  CHECK(json::parse(testing::read_file(dir / "m-partial" / "shards.json")).at("missing_shards") == json::array({3}));

  c = merge(fmt::format("{} {} {} {}", s1, s2, s3, s1), "m-twice");
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("shard 1/3 given twice"));

  // A record of another shard in a shard's journal, and a record journaled twice.
  const auto first_line = [&](const fs::path& folder) {
    const std::string text = testing::read_file(folder / "results.jsonl");
    return text.substr(0, text.find('\n') + 1);
  };
  fs::copy(dir / "s2", dir / "s2-foreign", fs::copy_options::recursive);
  std::ofstream(dir / "s2-foreign" / "results.jsonl", std::ios::app) << first_line(dir / "s1");
  c = merge(fmt::format("{} {} {}", s1, (dir / "s2-foreign").string(), s3), "m-foreign");
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("belongs to shard 1/3"));
  fs::copy(dir / "s2", dir / "s2-dup", fs::copy_options::recursive);
  std::ofstream(dir / "s2-dup" / "results.jsonl", std::ios::app) << first_line(dir / "s2");
  c = merge(fmt::format("{} {} {}", s1, (dir / "s2-dup").string(), s3), "m-dup");
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("journaled twice"));

  // A shard of another league: another seed.
  fs::copy(dir / "s3", dir / "s3-other", fs::copy_options::recursive);
  json other = json::parse(testing::read_file(dir / "s3-other" / "league.json"));
  other["seed"] = 78;
  std::ofstream(dir / "s3-other" / "league.json") << other.dump(2);
  c = merge(fmt::format("{} {} {}", s1, s2, (dir / "s3-other").string()), "m-other");
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("different leagues"));

  // A record whose seed is not the schedule's (an edited or foreign journal line).
  fs::copy(dir / "s3", dir / "s3-forged", fs::copy_options::recursive);
  std::string lines = testing::read_file(dir / "s3-forged" / "results.jsonl");
  const auto seed_at = lines.find("\"seed\":");
  REQUIRE(seed_at != std::string::npos);
  lines.insert(seed_at + 7, "1");
  std::ofstream(dir / "s3-forged" / "results.jsonl") << lines;
  c = merge(fmt::format("{} {} {}", s1, s2, (dir / "s3-forged").string()), "m-forged");
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("is not this league's"));

  // Shards cut two ways, and a whole league given as a shard.
  cut(dir / "whole", dir / "fourths", 4);
  c = merge(fmt::format("{} {} {}", s1, s2, (dir / "fourths" / "s3").string()), "m-mixed");
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("different leagues") || Contains("cut one way"));
  c = merge(fmt::format("{} {}", s1, (dir / "whole").string()), "m-whole");
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("not a shard"));
}

TEST_CASE("league --shard plays its deals only, resumes only itself, refuses --sprt", "[league][shards]") {
  const fs::path dir = testing::fresh_dir("shards", "play");
  const auto shard = [&](const std::string& which, const std::string& extra = "") {
    return testing::run(fmt::format("{} league {} --shard {} --out {} {} 2>&1", ARENA_REFEREE, league_flags(), which,
                                    (dir / "s2").string(), extra));
  };
  auto c = shard("2/3");
  INFO(c.out);
  REQUIRE(c.exit_code == 0);
  auto records = league::read_journal(dir / "s2" / "results.jsonl");
  REQUIRE(records.ok());
  CHECK(records->size() == 8);  // 12 deals (4 per pairing, 3 pairings): 1, 4, 7 and 10, two legs each
  for (const auto& r : *records) CHECK(r.deal % 3 == 1);
  const json standings = json::parse(testing::read_file(dir / "s2" / "standings.json"));
  CHECK(standings.at("league").at("shard").at("index") == 2);
  CHECK_THAT(testing::read_file(dir / "s2" / "standings.md"), Contains("PARTIAL") && Contains("shard 2/3"));
  const json manifest = json::parse(testing::read_file(dir / "s2" / "shard.json"));
  CHECK(manifest.at("runs").size() == 1);
  CHECK(manifest.at("runs").at(0).at("played") == 8);

  // A resume of another shard into this folder is refused; of this one plays nothing more.
  c = testing::run(fmt::format("{} league --resume --shard 1/3 --out {} 2>&1", ARENA_REFEREE, (dir / "s2").string()));
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("holds shard 2/3"));
  c = testing::run(fmt::format("{} league --resume --out {} 2>&1", ARENA_REFEREE, (dir / "s2").string()));
  CHECK(c.exit_code == 0);
  CHECK(json::parse(testing::read_file(dir / "s2" / "shard.json")).at("runs").size() == 2);

  // --sprt needs the whole schedule in order.
  c =
      testing::run(fmt::format("{} league --sandbox none --bot {} --bot {} --deals 4 --shard 1/2 --sprt "
                               "'elo0=0 elo1=10 alpha=0.05 beta=0.05' --out {} 2>&1",
                               ARENA_REFEREE, testing::greedy_bot(), testing::random_bot(), (dir / "sprt").string()));
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("--sprt cannot run on a shard"));
  c = shard("4/3");
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("--shard"));
}
