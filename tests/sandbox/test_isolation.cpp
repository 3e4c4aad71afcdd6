// The hostile-bot suite, part two: what a bot may see, keep and leave behind (docs/security.md,
// "Hidden means hidden"). Each attack runs on every tier the machine offers that claims to stop
// it; tier none, which claims nothing, is run where it shows the difference and its outcome is
// printed, not asserted. The leak test goes through the `referee` executable, as an organiser
// runs it, so that the referee's own command line is the one a bot would read.

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "referee/bots/sandbox.hpp"
#include "referee/league/league.hpp"
#include "referee/replay/replay.hpp"
#include "tests/match/harness.hpp"
#include "tests/sandbox/hostile_harness.hpp"

extern char** environ;

using namespace arena;
using bots::Tier;
using match::shell_quote;
using testing::hostile_bot;
using testing::tiers;

namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A fresh folder for one test's outputs (the referee's own: 0700 where it creates them).
fs::path out_dir(const std::string& name) {
  const fs::path dir = fs::path(ARENA_TEST_OUT) / fmt::format("isolation-{}-{}", name, ::getpid());
  fs::remove_all(dir);
  return dir;
}

// The tiers that claim to stop an attack: basic and strict as root (a uid per bot), strict only
// otherwise (basic as a non-root user runs every bot as that user).
bool claims_isolation(Tier t) {
  return t == Tier::strict || (t == Tier::basic && bots::sandbox_support().root);
}

// Starts the referee (args[0]) with `args`, its output discarded; its pid.
pid_t start_referee(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t referee = -1;
  REQUIRE(::posix_spawn(&referee, argv[0], &actions, nullptr, argv.data(), environ) == 0);
  posix_spawn_file_actions_destroy(&actions);
  return referee;
}

// The uids of the bots `referee` started that are running `program` by now (its children that
// run it as another uid; not those still between fork and exec, nor its short-lived helpers).
std::set<uid_t> bot_uids(pid_t referee, const std::string& program) {
  std::set<uid_t> out;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string status = slurp(entry.path() / "status");
    const auto ppid = status.find("\nPPid:\t");
    const auto uid = status.find("\nUid:\t");
    if (status.rfind("Name:\t" + program + "\n", 0) != 0 || ppid == std::string::npos || uid == std::string::npos)
      continue;
    if (std::stol(status.substr(ppid + 7)) != referee) continue;
    const auto u = static_cast<uid_t>(std::stoul(status.substr(uid + 6)));
    if (u != ::getuid()) out.insert(u);
  }
  return out;
}

}  // namespace

TEST_CASE("isolation: a bot reads none of the referee's files, not its command line, not the seed",
          "[hostile][isolation]") {
  for (Tier t : tiers()) {
    INFO("tier " << enum_name(t));
    const fs::path dir = out_dir(fmt::format("leak-{}", enum_name(t)));
    const fs::path replay = dir / "match.jsonl";
    // Every file the referee writes during the match: the replay, the stderr logs (listed through
    // their folder), and a file of an earlier match in the same folder.
    fs::create_directories(dir);
    std::ofstream(dir / "earlier.jsonl") << "{\"seed\":1}\n";
    ::chmod((dir / "earlier.jsonl").c_str(), 0600);
    const std::string paths = fmt::format("{}:{}:{}:{}", replay.string(), dir.string(),
                                          (dir / "earlier.jsonl").string(), testing::reachable_random_bot());
    const std::string command = fmt::format(
        "{} play --sandbox {} --seed 918273645 --decision-ms 60000 --out {} --replay {} --env ARENA_LEAK_PATHS={} {}"
        "--bot {} --bot {} 2>&1",
        ARENA_REFEREE, enum_name(t), shell_quote(dir.string()), shell_quote(replay.string()), shell_quote(paths),
        t == Tier::strict ? "" : "--env ARENA_LEAK_NO_WALK=1 ",  // the walk is asserted in strict only
        shell_quote(hostile_bot("leak --at 3")), shell_quote(testing::reachable_random_bot()));
    const auto run = testing::run(command);
    INFO(run.out);
    REQUIRE(run.exit_code == 0);
    std::string log;
    for (const auto& e : fs::directory_iterator(dir)) {
      if (e.path().string().find(".seat0.stderr.log") != std::string::npos) log = slurp(e.path());
    }
    const auto kv = testing::parse_hostile(log);
    INFO(log);
    REQUIRE(kv.count("readable") == 1);
    if (!claims_isolation(t)) {
      WARN(fmt::format("tier {} (claims no isolation): readable={} uid={} paths={}", enum_name(t), kv.at("readable"),
                       kv.at("uid"), kv.at("readable_paths")));
      continue;
    }
    // No root, nothing of the referee's.
    CHECK(kv.at("uid") != "0");
    CHECK(kv.at("euid") != "0");
    CHECK(kv.at("shadow") == "refused");
    CHECK(kv.at("write_root") != "ok");
    CHECK(kv.at("readable_paths").find(replay.filename().string()) == std::string::npos);
    CHECK(kv.at("readable_paths").find("stderr") == std::string::npos);
    CHECK(kv.at("readable_paths").find("earlier") == std::string::npos);
    // The referee's command line (the seed, the replay, the other bot) is nowhere to be read.
    for (const char* key : {"pid1", "parent"}) {
      CHECK(kv.at(key).find("918273645") == std::string::npos);
      CHECK(kv.at(key).find("--seed") == std::string::npos);
      CHECK(kv.at(key).find(dir.filename().string()) == std::string::npos);
    }
    if (t == Tier::strict) {
      // Its own root: nothing but itself, the system and scratch space; no path of the host.
      CHECK(kv.at("readable") == "0");
      CHECK(kv.at("listed") == "0");
      CHECK(kv.at("walk_readable") == "0");
      CHECK(kv.at("argv").rfind("/bot/hostile_bot,leak", 0) == 0);
      CHECK(kv.at("home") == "/home/bot");
      CHECK(kv.at("cwd") == "/home/bot");
    } else {
      // Basic cannot hide what others may read (the other bot's program is o+r): documented.
      CHECK(kv.at("readable_paths").find("match") == std::string::npos);
    }
    // The files are the referee's: the replay and the logs are not readable by others.
    struct stat st {};
    REQUIRE(::stat(replay.c_str(), &st) == 0);
    CHECK((st.st_mode & 0077) == 0);
    fs::remove_all(dir);
  }
}

TEST_CASE("isolation: scratch space is private, bounded and gone after the match", "[hostile][isolation]") {
  for (Tier t : tiers()) {
    if (!claims_isolation(t)) continue;
    INFO("tier " << enum_name(t));
    const std::string tag = fmt::format("s{}{}", static_cast<int>(t), ::getpid() % 100000);
    auto o = testing::options({hostile_bot(fmt::format("scratch --tag {} --mb 40", tag)),
                               hostile_bot(fmt::format("scratch-peek --tag {} --at 3", tag))},
                              21, fmt::format("isolation-scratch-{}", enum_name(t)));
    o.sandbox = testing::policy(t);
    o.sandbox.limits.scratch_mb = 24;
    o.sandbox.limits.file_size_mb = 64;
    o.limits.decision_ms = 10000;
    auto r = match::play(o);
    REQUIRE(r.ok());
    INFO(replay::to_json(*r).dump(2));
    CHECK(r->end == replay::End::finished);
    const auto writer = testing::hostile_report(*r, 0);
    const auto peeker = testing::hostile_report(*r, 1);
    REQUIRE(writer.count("tmp_mb") == 1);
    REQUIRE(peeker.count("tmp") == 1);
    if (t == Tier::strict) {
      // One tmpfs of 24 MiB for /tmp, /var/tmp, /dev/shm and the home together.
      const int total = std::stoi(writer.at("tmp_mb")) + std::stoi(writer.at("var_tmp_mb")) +
                        std::stoi(writer.at("shm_mb")) + std::stoi(writer.at("home_mb"));
      CHECK(total <= 24);
      // The other bot sees none of it: its own /tmp, IPC namespace and network namespace.
      CHECK(peeker.at("tmp") == "absent");
      CHECK(peeker.at("var_tmp") == "absent");
      CHECK(peeker.at("shm") == "absent");
      CHECK(peeker.at("sysv") == "ENOENT");
      CHECK(peeker.at("abstract") != "connected");
    } else {
      // Basic shares /tmp (a bot of another uid may see a name), but no IPC and no listening.
      CHECK(writer.at("sysv") == "EPERM");
      CHECK(writer.at("abstract") == "EPERM");
      CHECK(peeker.at("sysv") != "seen");
      CHECK(peeker.at("abstract") != "connected");
    }
    // Nothing left on the machine.
    for (const char* place : {"/tmp", "/var/tmp", "/dev/shm"}) {
      CHECK_FALSE(fs::exists(fmt::format("{}/hostile-scratch-{}", place, tag)));
    }
    CHECK(testing::leftover_processes(o).empty());
  }
}

TEST_CASE("isolation: the memory limit holds for the whole process tree", "[hostile][isolation]") {
  for (Tier t : tiers()) {
    if (t == Tier::none) continue;  // tier none limits nothing
    INFO("tier " << enum_name(t));
    // Four processes of 160 MiB each: every one within its address space, the tree over 256 MiB.
    auto p = testing::play_hostile(t, "mem-tree --procs 4 --mb 160", "memtree", [](match::Options& o) {
      o.sandbox.limits.memory_mb = 256;
      o.sandbox.limits.address_space_mb = 512;
    });
    INFO(replay::to_json(p.result).dump(2));
    REQUIRE(p.result.fault.has_value());
    CHECK(p.result.fault->seat == 0);
    CHECK(p.result.fault->kind == match::FaultKind::crash);
    if (!bots::sandbox_support().cgroup_memory) CHECK_THAT(p.result.fault->message, Catch::Contains("memory limit"));
  }
}

TEST_CASE("isolation: nothing of a bot outlives a referee killed with SIGKILL", "[hostile][isolation]") {
  for (Tier t : tiers()) {
    if (!claims_isolation(t)) continue;
    INFO("tier " << enum_name(t));
    const std::string tag = fmt::format("surv{}{}", static_cast<int>(t), ::getpid() % 10000);
    const fs::path dir = out_dir(fmt::format("survive-{}", enum_name(t)));
    // The escaped grandchild lives on while the other bot sleeps on its request: the referee is
    // killed mid-match.
    const std::vector<std::string> args = {
        ARENA_REFEREE,   "play",
        "--sandbox",     std::string(enum_name(t)),
        "--seed",        "5",
        "--decision-ms", "60000",
        "--out",         dir.string(),
        "--bot",         hostile_bot(fmt::format("escape --tag {} --lifetime-s 120", tag)),
        "--bot",         testing::reachable(ARENA_FAULTY_BOT) + " sleep --at 2"};
    const pid_t referee = start_referee(args);
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (testing::processes_named(tag).empty() && std::chrono::steady_clock::now() < until) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    REQUIRE_FALSE(testing::processes_named(tag).empty());
    ::kill(referee, SIGKILL);
    int status = 0;
    ::waitpid(referee, &status, 0);
    const auto gone_by = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!testing::processes_named(tag).empty() && std::chrono::steady_clock::now() < gone_by) {
      while (::waitpid(-1, nullptr, WNOHANG) > 0) {
      }  // orphans of the referee come back to this process when it is a subreaper
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    CHECK(testing::processes_named(tag).empty());
    fs::remove_all(dir);
  }
}

// The uids a referee killed with SIGKILL held are free at once (their locks go with it), and
// another referee may claim them before that referee's guardian purges them: the guardian must
// then leave them alone, or it kills the new owner's bots and deletes their files. A referee is
// killed holding two uids while its bots sleep; a match then starts at once in this process and
// claims the lowest free uids (the dead referee's, unless another test holds them) with a bot
// that stops itself: it must end as that bot's timeout, not as a crash by an outside SIGKILL.
TEST_CASE("isolation: a killed referee's guardian leaves alone the uids another referee claimed since",
          "[hostile][isolation]") {
  if (!bots::sandbox_support().root) {
    WARN("not root: every bot runs as this user, there are no uids to claim");
    return;
  }
  for (int round = 0; round < 2; ++round) {
    INFO("round " << round);
    const fs::path dir = out_dir(fmt::format("claimed-{}", round));
    const std::string sleeper = testing::reachable(ARENA_FAULTY_BOT) + " sleep --at 1";
    const pid_t referee = start_referee({ARENA_REFEREE, "play", "--sandbox", "basic", "--seed", "5", "--decision-ms",
                                         "60000", "--out", dir.string(), "--bot", sleeper, "--bot", sleeper});
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    std::set<uid_t> held;
    while ((held = bot_uids(referee, "faulty_bot")).size() < 2 && std::chrono::steady_clock::now() < until) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    REQUIRE(held.size() == 2);
    ::kill(referee, SIGKILL);
    int status = 0;
    ::waitpid(referee, &status, 0);
    auto p = testing::play_hostile(Tier::basic, "self-stop", fmt::format("claimed{}", round));
    auto replay = replay::read(p.result.replay);
    REQUIRE(replay.ok());
    const auto& seats = replay->header.extra.at("sandbox").at("seats");
    const bool reused =
        held.count(seats.at(0).at("uid").get<uid_t>()) + held.count(seats.at(1).at("uid").get<uid_t>()) > 0;
    INFO(fmt::format("the match's bots ran as uids {} and {}, the killed referee's were {}",
                     seats.at(0).at("uid").dump(), seats.at(1).at("uid").dump(), fmt::join(held, ", ")));
    if (!reused) WARN("another test held the killed referee's uids: this round did not reuse them");
    REQUIRE(p.result.fault.has_value());
    CHECK(p.result.fault->kind == match::FaultKind::timeout);
    fs::remove_all(dir);
  }
}
