// Files from strangers (docs/security.md): a replay or a league folder someone sent may hold
// symbolic links, FIFOs, huge files and paths that lead out of it. Every reader (`html`, `show`,
// `verify`, `league --resume`, `league merge`, the league page) refuses them or replaces what is
// at its output path, never writing through a link nor reading outside the folder; the file
// outside ("the victim") keeps its bytes and its mode.

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "referee/league/journal.hpp"
#include "tests/match/harness.hpp"

using namespace arena;
using Catch::Contains;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

constexpr const char* kPrecious = "precious bytes\n";

std::string referee() {
  return ARENA_REFEREE;
}

unsigned mode_of(const fs::path& p) {
  struct stat st {};
  REQUIRE(::lstat(p.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

// A file outside every folder a reader is given, mode 0640: it must stay as it is.
fs::path victim(const fs::path& dir) {
  const fs::path v = dir / "victim.txt";
  std::ofstream(v) << kPrecious;
  fs::permissions(v, fs::perms(0640));
  return v;
}

void check_untouched(const fs::path& v) {
  CHECK(testing::read_file(v) == kPrecious);
  CHECK(mode_of(v) == 0640);
}

// A small real league: 2 deals of Stella Quest between random bots.
fs::path play_league(const fs::path& out) {
  const auto c =
      testing::run(fmt::format("{} league --sandbox none --game stella_quest --bot {} --bot {} --name a "
                               "--name b --deals 2 --seed 5 --rating-interval 0 --out {} 2>&1",
                               referee(), testing::random_bot(), testing::random_bot(), out.string()));
  INFO(c.out);
  REQUIRE(c.exit_code == 0);
  return out;
}

// Replaces `file` by a symbolic link to `target`.
void plant_link(const fs::path& file, const fs::path& target) {
  fs::remove(file);
  fs::create_symlink(target, file);
}

}  // namespace

TEST_CASE("html: a link planted at the page's path is replaced, not written through", "[security][files]") {
  const fs::path dir = testing::fresh_dir("planted", "replay-page");
  const fs::path v = victim(dir);
  const fs::path replay = testing::play_replay(dir / "sent");
  const fs::path page = fs::path(replay).replace_extension(".html");
  plant_link(page, v);
  const auto c = testing::run(fmt::format("{} html {} 2>&1", referee(), replay.string()));
  INFO(c.out);
  CHECK(c.exit_code == 0);
  check_untouched(v);
  CHECK_FALSE(fs::is_symlink(page));
  CHECK(mode_of(page) == 0600);
  CHECK_THAT(testing::read_file(page), Contains("<html"));
}

TEST_CASE("show, verify and html refuse a replay that is a link, a FIFO or a huge sparse file", "[security][files]") {
  const fs::path dir = testing::fresh_dir("planted", "replay-kinds");
  const fs::path replay = testing::play_replay(dir / "real");
  const fs::path link = dir / "link.jsonl";
  fs::create_symlink(replay, link);
  const fs::path fifo = dir / "fifo.jsonl";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const fs::path huge = dir / "huge.jsonl";
  {
    std::ofstream(huge) << "{\"type\":\"header\"}\n";
    fs::resize_file(huge, std::uintmax_t{8} << 30);  // sparse: 8 GiB that take no disk
  }
  for (const std::string command : {"show", "verify", "html"}) {
    for (const auto& [file, says] :
         {std::pair{link, "symbolic link"}, std::pair{fifo, "not a regular file"}, std::pair{huge, "larger than"}}) {
      INFO(command << " " << file);
      // `timeout`: a reader that waits on the FIFO fails the test instead of hanging it.
      const auto c = testing::run(fmt::format("timeout 60 {} {} {} 2>&1", referee(), command, file.string()));
      INFO(c.out);
      CHECK(c.exit_code == 5);
      CHECK_THAT(c.out, Contains(says));
    }
  }
  CHECK_FALSE(fs::exists(dir / "link.html"));
}

TEST_CASE("the league page: links at its outputs are replaced, replay paths outside the folder refused",
          "[security][files][league]") {
  const fs::path dir = testing::fresh_dir("planted", "league-page");
  const fs::path v = victim(dir);
  const fs::path league = play_league(dir / "league");
  // Links at the page and at a match page beside a replay.
  plant_link(league / "league.html", v);
  plant_link(league / "replays" / "m000000.html", v);
  auto c = testing::run(fmt::format("{} html {} 2>&1", referee(), league.string()));
  INFO(c.out);
  CHECK(c.exit_code == 0);
  check_untouched(v);
  CHECK_FALSE(fs::is_symlink(league / "league.html"));
  CHECK_FALSE(fs::is_symlink(league / "replays" / "m000000.html"));

  // A replay that is a link to a file outside: refused, the page says nothing of the victim.
  plant_link(league / "replays" / "m000001.jsonl", v);
  c = testing::run(fmt::format("{} html {} 2>&1", referee(), league.string()));
  INFO(c.out);
  CHECK(c.exit_code == 5);
  CHECK_THAT(c.out, Contains("m000001.jsonl") && Contains("link"));
  check_untouched(v);

  // Journal lines naming replays outside the folder.
  const std::string journal = testing::read_file(league / "results.jsonl");
  for (const std::string outside : {"/etc/passwd", "../../victim.txt", "replays/../../victim.txt"}) {
    INFO(outside);
    auto records = league::read_journal(league / "results.jsonl");
    REQUIRE(records.ok());
    std::string forged;
    for (league::MatchRecord r : *records) {
      r.replay = outside;
      forged += league::journal_line(r) + '\n';
    }
    std::ofstream(league / "results.jsonl", std::ios::trunc) << forged;
    c = testing::run(fmt::format("{} html {} 2>&1", referee(), league.string()));
    INFO(c.out);
    CHECK(c.exit_code == 5);
    CHECK_THAT(c.out, Contains("only files inside the folder are read"));
    CHECK_THAT(testing::read_file(league / "league.html"), !Contains("passwd"));
  }
  std::ofstream(league / "results.jsonl", std::ios::trunc) << journal;
  check_untouched(v);
}

TEST_CASE("the league page refuses a folder that is a link and links at its own files", "[security][files][league]") {
  const fs::path dir = testing::fresh_dir("planted", "league-files");
  const fs::path v = victim(dir);
  const fs::path league = play_league(dir / "league");
  const fs::path alias = dir / "alias";
  fs::create_symlink(league, alias);
  auto c = testing::run(fmt::format("{} html {} 2>&1", referee(), alias.string()));
  INFO(c.out);
  CHECK(c.exit_code != 0);
  CHECK_FALSE(fs::exists(league / "league.html"));

  for (const char* file : {"results.jsonl", "league.json", "standings.json"}) {
    INFO(file);
    const fs::path copy = dir / (std::string(file) + ".kept");
    fs::copy_file(league / file, copy, fs::copy_options::overwrite_existing);
    plant_link(league / file, v);
    c = testing::run(fmt::format("{} html {} 2>&1", referee(), league.string()));
    INFO(c.out);
    CHECK(c.exit_code != 0);
    CHECK(c.exit_code != 3);
    CHECK_THAT(c.out, Contains(file));
    check_untouched(v);
    fs::remove(league / file);
    fs::copy_file(copy, league / file);
  }
}

TEST_CASE("league --resume refuses a journal or league file that is a link, and standings replace links",
          "[security][files][league]") {
  const fs::path dir = testing::fresh_dir("planted", "resume");
  const fs::path v = victim(dir);
  const fs::path league = play_league(dir / "league");
  const std::string resume = fmt::format(
      "{} league --sandbox none --game stella_quest --bot {} --bot {} --name a --name b --deals 2 "
      "--seed 5 --rating-interval 0 --resume --out {} 2>&1",
      referee(), testing::random_bot(), testing::random_bot(), league.string());
  for (const char* file : {"results.jsonl", "league.json"}) {
    INFO(file);
    const fs::path copy = dir / (std::string(file) + ".kept");
    fs::copy_file(league / file, copy, fs::copy_options::overwrite_existing);
    plant_link(league / file, v);
    const auto c = testing::run(resume);
    INFO(c.out);
    CHECK(c.exit_code != 0);
    CHECK(c.exit_code != 3);
    CHECK_THAT(c.out, Contains("symbolic link"));
    check_untouched(v);
    fs::remove(league / file);
    fs::copy_file(copy, league / file);
  }
  // The league folder itself given as a link.
  fs::create_symlink(league, dir / "alias");
  const auto aliased =
      testing::run(resume.substr(0, resume.find("--out")) + "--out " + (dir / "alias").string() + " 2>&1");
  INFO(aliased.out);
  CHECK(aliased.exit_code == 2);
  CHECK_THAT(aliased.out, Contains("is a symbolic link"));

  for (const char* file : {"standings.json", "standings.md", "junit.xml"}) plant_link(league / file, v);
  const auto c = testing::run(resume);
  INFO(c.out);
  CHECK(c.exit_code == 0);
  check_untouched(v);
  for (const char* file : {"standings.json", "standings.md", "junit.xml"}) CHECK_FALSE(fs::is_symlink(league / file));
}

TEST_CASE("league merge never follows a link in a shard folder", "[security][files][league]") {
  const fs::path dir = testing::fresh_dir("planted", "merge");
  const fs::path v = victim(dir);
  const fs::path whole = play_league(dir / "whole");
  json league = json::parse(testing::read_file(whole / "league.json"));
  league["shard"] = {{"index", 1}, {"count", 1}};
  const fs::path shard = dir / "s1";
  fs::create_directories(shard / "replays");
  std::ofstream(shard / "league.json") << league.dump(2) << '\n';
  fs::copy_file(whole / "results.jsonl", shard / "results.jsonl");
  fs::copy_file(whole / "replays" / "m000000.jsonl", shard / "replays" / "m000000.jsonl");
  fs::create_symlink(v, shard / "replays" / "m000001.jsonl");  // a replay that is a link out
  const auto c = testing::run(
      fmt::format("{} league merge {} --out {} 2>&1", referee(), shard.string(), (dir / "merged").string()));
  INFO(c.out);
  CHECK(c.exit_code != 0);
  CHECK(c.exit_code != 3);
  CHECK_THAT(c.out, Contains("m000001.jsonl"));
  check_untouched(v);
  CHECK_FALSE(fs::exists(dir / "merged" / "replays" / "m000001.jsonl"));

  // A shard folder that is itself a link.
  fs::remove(shard / "replays" / "m000001.jsonl");
  fs::create_symlink(shard, dir / "s1-link");
  const auto l = testing::run(
      fmt::format("{} league merge {} --out {} 2>&1", referee(), (dir / "s1-link").string(), (dir / "m2").string()));
  INFO(l.out);
  CHECK(l.exit_code != 0);
  CHECK_THAT(l.out, Contains("symbolic link"));
}
