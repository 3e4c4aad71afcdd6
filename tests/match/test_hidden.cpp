// "Hidden means hidden": what the referee writes while bots run is the organiser's alone (files
// 0600, the folders it creates 0700, whatever the umask; --share-output opens them once the bots
// are gone), default names carry no seed, and every number given as a flag or in a league file is
// range-checked (exit 2 naming the flag or key) instead of wrapping or overflowing a deadline.

#include <fmt/format.h>
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>

#include "protocol/codec.hpp"
#include "referee/core/bounds.hpp"
#include "referee/league/league.hpp"
#include "tests/match/harness.hpp"

using namespace arena;
using Catch::Contains;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// stellar-<8 digits>-<6 digits>[-<n>].jsonl: the time, no seed. (No std::regex: GCC 12 warns
// about its own headers in the sanitizer build.)
bool default_replay_name(const std::string& name) {
  auto digits = [&](std::size_t from, std::size_t count) {
    if (from + count > name.size()) return false;
    for (std::size_t i = from; i < from + count; ++i) {
      if (name[i] < '0' || name[i] > '9') return false;
    }
    return true;
  };
  if (name.rfind("stellar-", 0) != 0 || !digits(8, 8) || name.size() < 23 || name[16] != '-' || !digits(17, 6))
    return false;
  std::string rest = name.substr(23);
  if (!rest.empty() && rest[0] == '-') {
    std::size_t n = 1;
    while (n < rest.size() && rest[n] >= '0' && rest[n] <= '9') ++n;
    if (n == 1) return false;
    rest = rest.substr(n);
  }
  return rest == ".jsonl";
}

std::string referee() {
  return ARENA_REFEREE;
}

fs::path fresh(const std::string& name) {
  const fs::path dir = fs::path(ARENA_TEST_OUT) / "hidden" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::permissions(dir, fs::perms(0755));
  return dir;
}

unsigned mode_of(const fs::path& p) {
  struct stat st {};
  REQUIRE(::stat(p.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

// Every file and folder below `root` (not `root` itself) by its mode.
std::map<std::string, unsigned> modes_below(const fs::path& root) {
  std::map<std::string, unsigned> modes;
  for (const auto& entry : fs::recursive_directory_iterator(root)) modes[entry.path().string()] = mode_of(entry.path());
  return modes;
}

// Checks that everything below `root` has the file or folder mode wanted; at least `min_files`.
void check_modes(const fs::path& root, unsigned file_mode, unsigned dir_mode, std::size_t min_files) {
  std::size_t files = 0;
  for (const auto& [path, mode] : modes_below(root)) {
    INFO(fmt::format("{} is {:o}", path, mode));
    if (fs::is_directory(path)) {
      CHECK(mode == dir_mode);
    } else {
      CHECK(mode == file_mode);
      ++files;
    }
  }
  CHECK(files >= min_files);
}

// `command` run by sh with the umask `mask` (the referee must not depend on it).
testing::Command run_with_umask(const char* mask, const std::string& command) {
  return testing::run(fmt::format("umask {}; exec {}", mask, command));
}

// Runs `check(mask, root)` under the umasks 0 and 022 (the referee must not depend on it), each
// with the fresh folder <prefix>-<mask>.
void under_each_umask(const std::string& prefix,
                      const std::function<void(const char* mask, const fs::path& root)>& check) {
  for (const char* mask : {"0", "022"}) {
    INFO("umask " << mask);
    check(mask, fresh(fmt::format("{}-{}", prefix, mask)));
  }
}

std::string two_bots() {
  return fmt::format("--bot {} --bot {}", testing::random_bot(), testing::random_bot());
}

}  // namespace

TEST_CASE("play: replays and logs are 0600 in new 0700 folders, whatever the umask, no seed in the name",
          "[hidden][cli]") {
  under_each_umask("play", [](const char* mask, const fs::path& root) {
    const auto c = run_with_umask(
        mask, fmt::format("{} play {} --seed 4242 --out {}/new/logs --replay {}/elsewhere/r.jsonl 2>/dev/null",
                          referee(), two_bots(), root.string(), root.string()));
    REQUIRE(c.exit_code == 0);
    CHECK(mode_of(root) == 0755);      // a folder that existed keeps its mode
    check_modes(root, 0600, 0700, 3);  // the replay and two stderr logs
    CHECK(fs::exists(root / "elsewhere" / "r.jsonl"));

    // The default name: <game>-<time>.jsonl, in a folder that already exists (0755, kept).
    const fs::path shared_dir = fresh(fmt::format("play-default-{}", mask));
    const auto d = run_with_umask(
        mask, fmt::format("{} play {} --seed 4242 --out {} 2>/dev/null", referee(), two_bots(), shared_dir.string()));
    REQUIRE(d.exit_code == 0);
    const std::string replay = json::parse(d.out).at("replay");
    CHECK(default_replay_name(fs::path(replay).filename().string()));
    CHECK(mode_of(shared_dir) == 0755);
    check_modes(shared_dir, 0600, 0700, 3);
  });
}

TEST_CASE("play --share-output: the match's files 0644 and its new folders 0755 once it is over", "[hidden][cli]") {
  const fs::path root = fresh("play-shared");
  const auto c = run_with_umask("0", fmt::format("{} play {} --seed 7 --out {}/a/b --share-output 2>/dev/null",
                                                 referee(), two_bots(), root.string()));
  REQUIRE(c.exit_code == 0);
  check_modes(root, 0644, 0755, 3);
}

TEST_CASE("league: league.json, the journal, replays, logs and standings are 0600 in 0700 folders",
          "[hidden][league]") {
  under_each_umask("league", [](const char* mask, const fs::path& root) {
    const auto c = run_with_umask(
        mask, fmt::format("{} league {} --deals 1 -j 1 --out {}/x/league 2>&1", referee(), two_bots(), root.string()));
    INFO(c.out);
    REQUIRE(c.exit_code == 0);
    for (const char* f : {"league.json", "results.jsonl", "standings.json", "standings.md", "junit.xml",
                          "replays/m000001.jsonl", "logs/m000001.seat1.stderr.log"}) {
      CHECK(fs::exists(root / "x" / "league" / f));
    }
    check_modes(root, 0600, 0700, 11);  // 5 league files, 2 replays, 4 logs
  });
  const fs::path root = fresh("league-shared");
  const auto c = run_with_umask("0", fmt::format("{} league {} --deals 1 -j 1 --out {}/x/league --share-output 2>&1",
                                                 referee(), two_bots(), root.string()));
  INFO(c.out);
  REQUIRE(c.exit_code == 0);
  check_modes(root, 0644, 0755, 11);
}

TEST_CASE("league --share-output opens a deal's files only once all its legs are journaled", "[hidden][league]") {
  const fs::path out = fresh("league-deals") / "out";
  league::LeagueSpec s;
  s.bots = {testing::bot_spec(testing::random_bot(), "a"), testing::bot_spec(testing::random_bot(), "b")};
  s.deals = 2;
  s.concurrency = 1;
  s.seed = 99;
  auto spec = league::normalize(s);
  REQUIRE(spec.ok());
  league::RunOptions o;
  o.out = out;
  o.working_dir = fs::current_path();
  o.env = {"PATH=/usr/bin:/bin"};
  o.share_output = true;
  std::vector<std::pair<unsigned, unsigned>> seen;  // (leg, mode of leg 0's replay) when each match is journaled
  o.on_match = [&](const league::MatchRecord& r, std::uint64_t, std::uint64_t) {
    const fs::path leg0 = out / "replays" / fmt::format("m{:06}.jsonl", r.index - static_cast<std::uint64_t>(r.leg));
    seen.emplace_back(static_cast<unsigned>(r.leg), mode_of(leg0));
    CHECK(mode_of(out / "results.jsonl") == 0600);  // the league's own files: at the end
  };
  auto result = league::run(*spec, o);
  REQUIRE(result.ok());
  REQUIRE(seen.size() == 4);
  for (const auto& [leg, mode] : seen) {
    INFO("leg " << leg);
    CHECK(mode == (leg == 0 ? 0600U : 0644U));  // leg 1 has the same cards: leg 0 stays private until it is played
  }
  CHECK(mode_of(out / "results.jsonl") == 0644);
  CHECK(mode_of(out) == 0755);
}

TEST_CASE("validate and html: their files are 0600 (0644 with --share-output)", "[hidden][validate]") {
  const fs::path root = fresh("validate");
  auto c = run_with_umask("0", fmt::format("{} validate {} --opponent {} --games 1 --seed 3 --out {}/v 2>/dev/null",
                                           referee(), testing::random_bot(), testing::random_bot(), root.string()));
  REQUIRE(c.exit_code == 0);
  check_modes(root, 0600, 0700, 7);  // the handshake's log, 2 replays, 4 logs
  const fs::path shared = fresh("validate-shared");
  c = run_with_umask(
      "0", fmt::format("{} validate {} --opponent {} --games 1 --seed 3 --out {}/v --share-output 2>/dev/null",
                       referee(), testing::random_bot(), testing::random_bot(), shared.string()));
  REQUIRE(c.exit_code == 0);
  check_modes(shared, 0644, 0755, 7);

  fs::path replay;
  for (const auto& e : fs::directory_iterator(root / "v")) {
    if (e.path().extension() == ".jsonl") replay = e.path();
  }
  REQUIRE(!replay.empty());
  const fs::path pages = fresh("html");
  c = run_with_umask("0",
                     fmt::format("{} html {} -o {}/p.html 2>/dev/null", referee(), replay.string(), pages.string()));
  REQUIRE(c.exit_code == 0);
  CHECK(mode_of(pages / "p.html") == 0600);
  c = run_with_umask("0", fmt::format("{} html {} -o {}/q.html --share-output 2>/dev/null", referee(), replay.string(),
                                      pages.string()));
  REQUIRE(c.exit_code == 0);
  CHECK(mode_of(pages / "q.html") == 0644);
}

TEST_CASE("bad numbers as flags: exit 2 naming the flag, nothing wrapped", "[hidden][cli]") {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"play", "--memory-mb -1"},
      {"play", "--address-space-mb -1"},
      {"play", "--address-space-mb 1048577"},
      {"play", "--cpu-limit-s 0"},
      {"play", "--file-size-mb 18446744073709551615"},
      {"play", "--open-files 15"},
      {"play", "--processes -5"},
      {"play", "--decision-ms 9223372036854775807"},
      {"play", "--decision-ms 0"},
      {"play", "--init-ms 600001"},
      {"play", "--time-bank-ms -1"},
      {"play", "--time-scale 1e308"},
      {"play", "--time-scale 0.001"},
      {"play", "--time-scale nan"},
      {"play", "--max-line-bytes -1"},
      {"play", "--max-line-bytes 1.5"},
      {"play", "--grace-ms 60001"},
      {"play", "--seed -1"},
      {"league", "--deals 9223372036854775808"},
      {"league", "--concurrency 0"},
      {"league", "-j 1025"},
      {"league", "--seats 65"},
      {"league", "--decision-ms abc"},
      {"validate", "--games 0"},
      {"validate", "--time-scale inf"},
      {"validate", "--memory-mb -1"},
  };
  const fs::path root = fresh("bad-flags");
  for (const auto& [command, flag] : bad) {
    const std::string bots = command == "validate" ? testing::random_bot() : two_bots();
    const auto c =
        testing::run(fmt::format("{} {} {} {} --out {}/o 2>&1", referee(), command, bots, flag, root.string()));
    INFO(command << " " << flag << ": " << c.out);
    CHECK(c.exit_code == 2);
    const std::string name = flag.substr(0, flag.find(' ')) == "-j" ? "--concurrency" : flag.substr(0, flag.find(' '));
    CHECK_THAT(c.out, Contains(name + ":") && Contains(flag.substr(flag.find(' ') + 1)) && Contains(".."));
  }
  CHECK(modes_below(root).empty());  // refused before anything was written
}

TEST_CASE("bad numbers in a league file: exit 2 naming the key, the value and the range", "[hidden][league]") {
  const std::string whole = " is not a whole number in ";
  const std::vector<std::pair<std::string, std::string>> bad = {
      {R"("deals": 9223372036854775808)", "league: \"deals\" 9223372036854775808" + whole + "1..10000000"},
      {R"("deals": 0)", "league: \"deals\" 0" + whole + "1..10000000"},
      {R"("deals": -3)", "league: \"deals\" -3" + whole + "1..10000000"},
      {R"("deals": 2.5)", "league: \"deals\" 2.5" + whole + "1..10000000"},
      {R"("deals": "10")", "league: \"deals\" \"10\"" + whole + "1..10000000"},
      {R"("seed": -1)", "league: \"seed\" -1" + whole + "0..18446744073709551615"},
      {R"("concurrency": 100000)", "league: \"concurrency\" 100000" + whole + "1..1024"},
      {R"("seats": -1)", "league: \"seats\" -1" + whole + "1..64"},
      {R"("time_scale": 1e308)", "league: \"time_scale\" 1e+308 is not a number in 0.01..1000"},
      {R"("time_scale": 0)", "league: \"time_scale\" 0 is not a number in 0.01..1000"},
      {R"("limits": {"max_line_bytes": -1})", "league limits: \"max_line_bytes\" -1" + whole + "64..16777216"},
      {R"("limits": {"decision_ms": 9223372036854775807})",
       "league limits: \"decision_ms\" 9223372036854775807" + whole + "1..86400000"},
      {R"("limits": {"init_ms": 600001})", "league limits: \"init_ms\" 600001" + whole + "1..600000"},
      {R"("limits": {"time_bank_ms": 9.2e18})", "league limits: \"time_bank_ms\" 9.2e+18" + whole + "0..86400000"},
      {R"("limits": {"decision_ms": null})", "league limits: \"decision_ms\" null" + whole + "1..86400000"},
      {R"("sprt": {"elo0": 0, "elo1": 1e300, "alpha": 0.05, "beta": 0.05})",
       "league sprt: \"elo1\" 1e+300 is not a number in -1000..1000"},
      {R"("deals": 10000000, "bots": ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p"])",
       "the league would play 2400000000 matches (10000000 deals x 120 groups of bots x 2 legs); at most 100000000"},
  };
  const fs::path root = fresh("bad-files");
  int n = 0;
  for (const auto& [entry, named] : bad) {
    const fs::path file = root / fmt::format("bad{}.json", ++n);
    const std::string bots = fmt::format(R"("bots": [{{"command": "{}", "address_space_mb": 8192}}, "{}"])",
                                         testing::random_bot(), testing::random_bot());
    std::ofstream(file) << "{" << (entry.find("\"bots\"") == std::string::npos ? bots + ", " : "") << entry << "}";
    const auto c =
        testing::run(fmt::format("{} league {} --out {}/o{} 2>&1", referee(), file.string(), root.string(), n));
    INFO(entry << ": " << c.out);
    CHECK(c.exit_code == 2);
    CHECK_THAT(c.out, Contains(named));
  }
  std::ofstream(root / "bot.json") << R"({"bots": [{"command": "x", "address_space_mb": -1}, "y"]})";
  const auto c =
      testing::run(fmt::format("{} league {} --out {}/o 2>&1", referee(), (root / "bot.json").string(), root.string()));
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("\"address_space_mb\" -1 is not a whole number in 0..1048576"));
}

TEST_CASE("the edge of every range is accepted", "[hidden][cli][league]") {
  // Flags: the upper edges of the times and sizes, in a real match.
  const fs::path root = fresh("edges");
  auto c = testing::run(fmt::format(
      "{} play {} --out {} --init-ms 600000 --decision-ms 86400000 --time-bank-ms 86400000 --time-scale 1000 "
      "--max-line-bytes 16777216 --grace-ms 60000 --cpu-limit-s 604800 --address-space-mb 1048576 --memory-mb 1048576 "
      "--file-size-mb 1048576 --seed 18446744073709551615 2>&1",
      referee(), two_bots(), root.string()));
  INFO(c.out);
  CHECK(c.exit_code == 0);
  // The lower edges are accepted too (the bots may then time out or not start: exit 1, not a
  // usage error), and the descriptor and process limits at either edge.
  c = testing::run(fmt::format(
      "{} play {} --out {} --init-ms 1 --decision-ms 1 --time-bank-ms 0 --time-scale 0.01 --max-line-bytes 64 "
      "--grace-ms 0 --cpu-limit-s 1 --address-space-mb 0 --memory-mb 1 --file-size-mb 1 --open-files 16 "
      "--processes 1 --seed 0 2>&1",
      referee(), two_bots(), root.string()));
  INFO(c.out);
  CHECK((c.exit_code == 0 || c.exit_code == 1));
  // 16 descriptors are enough for a bot in every tier (the limit is set in the bot only, not in
  // the sandbox's helper processes, which inherit the referee's descriptor numbers).
  c = testing::run(fmt::format("{} play {} --out {} --open-files 16 2>&1", referee(), two_bots(), root.string()));
  INFO(c.out);
  CHECK(c.exit_code == 0);
  c = testing::run(fmt::format("{} play {} --out {} --open-files 1048576 --processes 1048576 2>&1", referee(),
                               two_bots(), root.string()));
  INFO(c.out);
  CHECK((c.exit_code == 0 || c.exit_code == 1));

  // A league file at the edges: read and normalized (10^7 deals x 1 pair x 2 legs is within the cap).
  const json file = {
      {"bots", {{{"command", "a"}, {"address_space_mb", 1048576}}, {{"command", "b"}, {"address_space_mb", 0}}}},
      {"deals", 10000000},
      {"concurrency", 1024},
      {"seats", 2},
      {"time_scale", 1000},
      {"limits",
       {{"init_ms", 600000}, {"decision_ms", 86400000}, {"time_bank_ms", 86400000}, {"max_line_bytes", 16777216}}},
      {"sprt", {{"elo0", -1000}, {"elo1", 1000}, {"alpha", 0.05}, {"beta", 0.05}}}};
  auto spec = league::spec_from_json(file);
  INFO((spec ? std::string() : spec.error()));
  REQUIRE(spec.ok());
  auto normalized = league::normalize(*spec);
  INFO((normalized ? std::string() : normalized.error()));
  REQUIRE(normalized.ok());
  CHECK(league::Schedule(*normalized).total() == 20000000);
  const json low = {{"bots", {"a", "b"}},
                    {"deals", 1},
                    {"concurrency", 1},
                    {"time_scale", 0.01},
                    {"limits", {{"init_ms", 1}, {"decision_ms", 1}, {"time_bank_ms", 0}, {"max_line_bytes", 64}}}};
  auto low_spec = league::spec_from_json(low);
  REQUIRE(low_spec.ok());
  CHECK(league::normalize(*low_spec).ok());
}

TEST_CASE("the library cannot overflow a deadline: limits are checked and scaling saturates", "[hidden]") {
  CHECK(protocol::scaled_ms(std::numeric_limits<std::int64_t>::max(), 1e308) == bounds::kMaxScaledMs);
  CHECK(protocol::scaled_ms(1000, std::nan("")) == 0);
  CHECK(protocol::scaled_ms(-5, 1.0) == 0);
  CHECK(protocol::scaled_ms(86'400'000, 1000) == bounds::kMaxScaledMs);
  CHECK(protocol::scaled_ms(1500, 0.5) == 750);
  protocol::Limits l;
  CHECK(protocol::check_limits(l, 1.0).ok());
  l.time_bank_ms = std::numeric_limits<std::int64_t>::max();
  auto st = protocol::check_limits(l, 1.0);
  REQUIRE_FALSE(st.ok());
  CHECK_THAT(st.error(), Contains("time_bank_ms") && Contains("0..86400000"));
  CHECK_THAT(protocol::check_limits({}, 1e308).error(), Contains("time_scale"));

  // match::play refuses such limits instead of blaming a bot with a timeout.
  auto o = testing::options({testing::random_bot(), testing::random_bot()}, 1, "hidden-overflow");
  o.limits.decision_ms = std::numeric_limits<std::int64_t>::max();
  auto m = match::play(o);
  REQUIRE_FALSE(m.ok());
  CHECK_THAT(m.error(), Contains("decision_ms"));
  o.limits.decision_ms = 1000;
  o.time_scale = std::nan("");
  m = match::play(o);
  REQUIRE_FALSE(m.ok());
  CHECK_THAT(m.error(), Contains("time_scale"));
}
