// Stopping the referee: SIGINT, SIGTERM and SIGHUP end `play` and `league` at once whatever the
// bots do (one hangs here), with exit 128 + the signal; the match in flight is not journaled and
// a resume completes the league. A job-wide signal (a scheduler's: the bots die first, then the
// referee hears it) is not charged to the bots.

#include <dirent.h>
#include <fmt/format.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "referee/league/journal.hpp"
#include "tests/match/harness.hpp"

using namespace arena;
using Catch::Contains;
using nlohmann::json;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

extern "C" char** environ;

namespace {

// The referee started by /bin/sh in a process group of its own, output to `log`.
struct Running {
  pid_t pid = -1;
  fs::path log;
};

Running start(const std::string& command, const fs::path& log) {
  Running r;
  r.log = log;
  const std::string line = fmt::format("exec {} >{} 2>&1", command, log.string());
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  const char* argv[] = {"/bin/sh", "-c", line.c_str(), nullptr};
  if (posix_spawn(&r.pid, "/bin/sh", nullptr, &attr, const_cast<char* const*>(argv), environ) != 0) r.pid = -1;
  posix_spawnattr_destroy(&attr);
  return r;
}

bool wait_for_file(const fs::path& p, std::chrono::seconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < until) {
    if (fs::exists(p)) return true;
    std::this_thread::sleep_for(20ms);
  }
  return false;
}

// Waits for the process; its exit code (128 + signal if it was killed), and how long it took.
std::pair<int, double> wait_exit(pid_t pid, std::chrono::seconds limit) {
  const auto from = std::chrono::steady_clock::now();
  int status = 0;
  while (std::chrono::steady_clock::now() - from < limit) {
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - from).count();
      return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), took};
    }
    std::this_thread::sleep_for(5ms);
  }
  ::kill(-pid, SIGKILL);
  ::waitpid(pid, &status, 0);
  return {-1, 1e9};
}

// Every descendant of `root` (its children, theirs, ...), from /proc.
std::vector<pid_t> descendants(pid_t root) {
  std::vector<std::pair<pid_t, pid_t>> parent_of;  // (pid, ppid)
  if (DIR* d = ::opendir("/proc")) {
    while (dirent* e = ::readdir(d)) {
      const pid_t pid = std::atoi(e->d_name);
      if (pid <= 0) continue;
      const std::string stat = testing::read_file(fmt::format("/proc/{}/stat", pid));
      const auto close = stat.rfind(')');
      if (close == std::string::npos) continue;
      int ppid = 0;
      char state = 0;
      if (std::sscanf(stat.c_str() + close + 1, " %c %d", &state, &ppid) == 2) parent_of.emplace_back(pid, ppid);
    }
    ::closedir(d);
  }
  std::vector<pid_t> out = {root};
  for (std::size_t i = 0; i < out.size(); ++i) {
    for (const auto& [pid, ppid] : parent_of) {
      if (ppid == out[i]) out.push_back(pid);
    }
  }
  out.erase(out.begin());
  return out;
}

std::string hang_bot(const fs::path& flag) {
  return fmt::format("python3 {}/tests/match/hang_bot.py {}", ARENA_SOURCE_DIR, flag.string());
}

// A league's results without their times: index, seeds and every seat's bot, score and rank.
json results(const fs::path& folder) {
  auto records = league::read_journal(folder / "results.jsonl");
  REQUIRE(records.ok());
  std::sort(records->begin(), records->end(),
            [](const league::MatchRecord& a, const league::MatchRecord& b) { return a.index < b.index; });
  json out = json::array();
  for (const auto& r : *records) {
    json seats = json::array();
    for (const auto& s : r.seats) seats.push_back({s.bot, s.score, s.rank});
    out.push_back({r.index, r.seed, seats, r.fault ? enum_name(r.fault->kind) : ""});
  }
  return out;
}

}  // namespace

TEST_CASE("play: SIGINT and SIGTERM during a hanging decision end the match at once", "[interrupt][cli]") {
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    const fs::path dir = testing::fresh_dir("interrupt", fmt::format("play-{}", sig));
    // The bot never answers its second request; the decision limit is a minute.
    const auto r = start(fmt::format("{} play --bot '{}' --bot {} --seed 3 --decision-ms 60000 --out {}", ARENA_REFEREE,
                                     testing::faulty_bot("sleep", "--at 2"), testing::random_bot(), dir.string()),
                         dir / "play.log");
    REQUIRE(r.pid > 0);
    // It hangs once the first request is answered: give it the time to get there.
    std::this_thread::sleep_for(1500ms);
    ::kill(r.pid, sig);
    const auto [code, took] = wait_exit(r.pid, 60s);
    INFO(testing::read_file(r.log));
    CHECK(code == 128 + sig);
    CHECK(took < 5.0);  // at once: not after the 60-second limit
    const std::string out = testing::read_file(r.log);
    CHECK_THAT(out, Contains("\"end\":\"interrupted\""));
    CHECK_THAT(out, !Contains("timeout"));
  }
}

// A referee killed outright (SIGKILL: no handler, no clean-up) takes its bots with it: a bot is
// started with PR_SET_PDEATHSIG, also when it starts with vfork (tier none).
TEST_CASE("play: a referee killed by SIGKILL leaves no bot behind", "[interrupt][cli]") {
  const fs::path dir = testing::fresh_dir("interrupt", "killed");
  const fs::path flag = dir / "hang";
  { std::ofstream(flag) << "hang"; }
  const auto r = start(fmt::format("{} play --sandbox none --bot '{}' --bot {} --seed 3 --decision-ms 60000 --out {}",
                                   ARENA_REFEREE, hang_bot(flag), testing::random_bot(), dir.string()),
                       dir / "play.log");
  REQUIRE(r.pid > 0);
  REQUIRE(wait_for_file(dir / "hang.hanging", 60s));
  const pid_t bot = std::stoi(testing::read_file(dir / "hang.hanging"));
  REQUIRE(bot > 0);
  ::kill(r.pid, SIGKILL);
  wait_exit(r.pid, 60s);
  // Gone (or a zombie waiting for init to reap it) within seconds.
  bool gone = false;
  for (int i = 0; i < 500 && !gone; ++i) {
    gone = !testing::process_alive(bot);
    if (!gone) std::this_thread::sleep_for(20ms);
  }
  INFO(testing::read_file(r.log));
  CHECK(gone);
  if (!gone) ::kill(bot, SIGKILL);
}

TEST_CASE("league: a signal stops it at once, the match in flight is not journaled, resume finishes it",
          "[interrupt][league]") {
  const fs::path dir = testing::fresh_dir("interrupt", "league");
  const fs::path flag = dir / "hang.flag";
  std::ofstream(flag) << "hang";
  const std::string league = fmt::format(
      "{} league --sandbox none --bot {} --bot '{}' --name random --name hang --deals 3 -j 1 --seed 11 "
      "--decision-ms 60000 --out {}",
      ARENA_REFEREE, testing::random_bot(), hang_bot(flag), (dir / "lg").string());
  const auto r = start(league, dir / "league.log");
  REQUIRE(r.pid > 0);
  REQUIRE(wait_for_file(fs::path(flag.string() + ".hanging"), 60s));
  ::kill(r.pid, SIGTERM);
  const auto [code, took] = wait_exit(r.pid, 60s);
  INFO(testing::read_file(r.log));
  CHECK(code == 143);
  CHECK(took < 5.0);
  CHECK_THAT(testing::read_file(r.log), Contains("league --resume"));
  // Nothing of the match in flight: no journal line at all (it was the first), no fault.
  CHECK(testing::read_file(dir / "lg" / "results.jsonl").empty());
  const json standings = json::parse(testing::read_file(dir / "lg" / "standings.json"));
  CHECK(standings.at("league").at("interrupted") == true);

  // The bot no longer hangs: the resume plays the whole league.
  fs::remove(flag);
  const auto resumed = testing::run(
      fmt::format("{} league --resume --sandbox none --out {} 2>&1", ARENA_REFEREE, (dir / "lg").string()));
  INFO(resumed.out);
  CHECK(resumed.exit_code == 0);
  const json done = results(dir / "lg");
  CHECK(done.size() == 6);
  for (const auto& m : done) CHECK(m.at(3) == "");
}

TEST_CASE("league: a job-wide SIGTERM (bots first, then the referee) is no bot's crash", "[interrupt][league]") {
  const fs::path dir = testing::fresh_dir("interrupt", "job");
  const fs::path flag = dir / "hang.flag";
  const std::string bots = fmt::format(
      "--sandbox none --bot {} --bot '{}' --name random --name hang --deals 4 -j 2 "
      "--seed 12 --decision-ms 60000",
      testing::random_bot(), hang_bot(flag));
  // The league uninterrupted, for comparison.
  const auto whole =
      testing::run(fmt::format("{} league {} --out {} 2>&1", ARENA_REFEREE, bots, (dir / "whole").string()));
  REQUIRE(whole.exit_code == 0);

  std::ofstream(flag) << "hang";
  const auto r =
      start(fmt::format("{} league {} --out {}", ARENA_REFEREE, bots, (dir / "cut").string()), dir / "cut.log");
  REQUIRE(r.pid > 0);
  REQUIRE(wait_for_file(fs::path(flag.string() + ".hanging"), 60s));
  // As a scheduler does: every process of the job, the bots before the referee.
  for (pid_t bot : descendants(r.pid)) ::kill(bot, SIGTERM);
  std::this_thread::sleep_for(30ms);
  ::kill(-r.pid, SIGTERM);
  const auto [code, took] = wait_exit(r.pid, 60s);
  INFO(testing::read_file(r.log));
  CHECK(code == 143);
  CHECK(took < 5.0);
  const std::string journal = testing::read_file(dir / "cut" / "results.jsonl");
  CHECK_THAT(journal, !Contains("crash"));
  CHECK_THAT(journal, !Contains("\"fault\":{"));

  fs::remove(flag);
  const auto resumed =
      testing::run(fmt::format("{} league --resume --out {} 2>&1", ARENA_REFEREE, (dir / "cut").string()));
  INFO(resumed.out);
  CHECK(resumed.exit_code == 0);
  CHECK(results(dir / "cut") == results(dir / "whole"));
  // The standings agree too, times aside.
  auto standings = [&](const char* name) {
    json s = json::parse(testing::read_file(dir / name / "standings.json"));
    json bots_only = json::array();
    for (json b : s.at("bots")) {
      b.erase("decision_ms");
      b.erase("stderr_bytes");
      bots_only.push_back(b);
    }
    return bots_only;
  };
  CHECK(standings("cut") == standings("whole"));
}

TEST_CASE("league: resumed from another folder, relative commands still start", "[interrupt][league]") {
  const fs::path dir = testing::fresh_dir("interrupt", "elsewhere");
  // Relative commands from the source tree, as a user types them there.
  const std::string start_league = fmt::format(
      "cd {} && {} league --sandbox none --bot 'python3 sample_bots/python/random_bot.py' --bot "
      "'python3 tests/match/reuse_bot.py' --deals 3 -j 1 --seed 5 --out {}",
      ARENA_SOURCE_DIR, ARENA_REFEREE, (dir / "lg").string());
  // Stop after the first match by pretending Ctrl-C: a journal of one line, then resume elsewhere.
  const auto first = testing::run(start_league + " 2>&1");
  REQUIRE(first.exit_code == 0);
  auto journal = testing::read_file(dir / "lg" / "results.jsonl");
  const auto first_line_end = journal.find('\n');
  REQUIRE(first_line_end != std::string::npos);
  std::ofstream(dir / "lg" / "results.jsonl", std::ios::trunc) << journal.substr(0, first_line_end + 1);
  const json league = json::parse(testing::read_file(dir / "lg" / "league.json"));
  CHECK(league.at("working_dir") == fs::path(ARENA_SOURCE_DIR).lexically_normal().string());

  fs::create_directories(dir / "other");
  const auto resumed = testing::run(
      fmt::format("cd {} && {} league --resume --out ../lg 2>&1", (dir / "other").string(), ARENA_REFEREE));
  INFO(resumed.out);
  CHECK(resumed.exit_code == 0);
  const json done = results(dir / "lg");
  CHECK(done.size() == 6);
  for (const auto& m : done) CHECK(m.at(3) == "");
  CHECK_THAT(resumed.out, Contains(fmt::format("rerun: cd {} &&", ARENA_SOURCE_DIR)));
}

TEST_CASE("league: a compiled bot named by a relative path starts when resumed from another folder",
          "[interrupt][league]") {
  const fs::path dir = testing::fresh_dir("interrupt", "elsewhere-compiled");
  // build/sample_bots/random_bot as "sample_bots/random_bot", from the build folder.
  const fs::path bot = testing::random_bot();
  const fs::path base = bot.parent_path().parent_path();
  const std::string relative = (fs::path(bot.parent_path().filename()) / bot.filename()).string();
  // Tier none: the program is found by the referee before any jail (resolve_exe), the same in
  // every tier; a jailed bot's own uid could not enter a checkout in a private folder anyway.
  for (const char* tier : {"none"}) {
    const fs::path lg = dir / tier;
    const auto first = testing::run(
        fmt::format("cd {} && {} league --sandbox {} --bot {} --bot {} --deals 2 -j 1 --seed 6 --out {} 2>&1",
                    base.string(), ARENA_REFEREE, tier, relative, relative, lg.string()));
    INFO(first.out);
    REQUIRE(first.exit_code == 0);
    // Keep one match, resume the rest from another folder.
    const std::string journal = testing::read_file(lg / "results.jsonl");
    std::ofstream(lg / "results.jsonl", std::ios::trunc) << journal.substr(0, journal.find('\n') + 1);
    const auto resumed = testing::run(fmt::format("cd {} && {} league --resume --sandbox {} --out {} 2>&1",
                                                  dir.string(), ARENA_REFEREE, tier, lg.string()));
    INFO(resumed.out);
    CHECK(resumed.exit_code == 0);
    const json done = results(lg);
    CHECK(done.size() == 4);
    for (const auto& m : done) CHECK(m.at(3) == "");
  }
}

TEST_CASE("preflight: a bot that cannot start is a usage error naming it", "[cli][league]") {
  const fs::path dir = testing::fresh_dir("interrupt", "preflight");
  const std::string ok = testing::random_bot();
  struct Case {
    std::string bot;
    std::string says;
  };
  for (const Case& c : {Case{"/nonexistent/bot", "no such file"}, Case{"no_such_program_here", "not found in PATH"},
                        Case{"python3 /nonexistent/bot.py", "no such file"}, Case{dir.string(), "is a folder"}}) {
    const auto play = testing::run(
        fmt::format("{} play --bot '{}' --bot {} --out {} 2>&1", ARENA_REFEREE, c.bot, ok, (dir / "play").string()));
    INFO(play.out);
    CHECK(play.exit_code == 2);
    CHECK_THAT(play.out, Contains(c.says) && Contains("--bot"));
    const auto lg = testing::run(fmt::format("{} league --bot '{}' --bot {} --name missing --name fine --out {} 2>&1",
                                             ARENA_REFEREE, c.bot, ok, (dir / "lg").string()));
    INFO(lg.out);
    CHECK(lg.exit_code == 2);
    CHECK_THAT(lg.out, Contains("bot missing") && Contains(c.says));
    CHECK_FALSE(fs::exists(dir / "lg"));  // nothing was created for a league that cannot start
  }
  // Not executable, and a script whose #! interpreter is missing.
  const fs::path plain = dir / "plain.sh";
  std::ofstream(plain) << "#!/bin/sh\necho hi\n";
  auto c = testing::run(fmt::format("{} play --bot {} --bot {} --out {} 2>&1", ARENA_REFEREE, plain.string(), ok,
                                    (dir / "play").string()));
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("not executable"));
  const fs::path orphan = dir / "orphan.py";
  std::ofstream(orphan) << "#!/usr/bin/env no_such_interpreter_3\nprint('hi')\n";
  fs::permissions(orphan, fs::perms::owner_all);
  c = testing::run(fmt::format("{} play --bot {} --bot {} --out {} 2>&1", ARENA_REFEREE, orphan.string(), ok,
                               (dir / "play").string()));
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("no_such_interpreter_3"));
}
