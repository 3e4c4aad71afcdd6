#include "tests/match/harness.hpp"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "referee/bots/process.hpp"
#include "referee/match/rerun.hpp"
#include "tests/match/proc_stat.hpp"

namespace fs = std::filesystem;

namespace arena::testing {

namespace {
std::atomic<int> g_counter{0};
}  // namespace

fs::path play_replay(const fs::path& dir) {
  fs::create_directories(dir);
  const auto c =
      run(fmt::format("{} play --game stella_quest --bot {} --bot {} --seed 3 --sandbox none --out {} 2>/dev/null",
                      ARENA_REFEREE, random_bot(), random_bot(), dir.string()));
  if (c.exit_code != 0) throw std::runtime_error("referee play failed: " + c.out);
  return nlohmann::json::parse(c.out).at("replay").get<std::string>();
}

namespace {

// Copies of built programs where every uid can run them. As root the sandbox runs each bot as a
// uid of its own, which cannot reach a build folder inside a private one (a clone in a 0700
// `mktemp -d` folder, a home directory): an explicit tier would refuse to start the bot.
struct FixtureDir {
  std::string path = "/tmp/arena-fixtures-XXXXXX";
  FixtureDir() {
    REQUIRE(::mkdtemp(path.data()) != nullptr);
    namespace p = std::filesystem;
    p::permissions(path, p::perms::owner_all | p::perms::group_read | p::perms::group_exec | p::perms::others_read |
                             p::perms::others_exec);
  }
  ~FixtureDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

}  // namespace

std::string reachable(const std::string& built) {
  static const FixtureDir dir;
  const std::string copy = dir.path + "/" + std::filesystem::path(built).filename().string();
  if (!std::filesystem::exists(copy)) std::filesystem::copy_file(built, copy);
  return copy;
}

std::string reachable_random_bot() {
  return reachable(ARENA_RANDOM_BOT);
}

void write_first_legal_bot(const std::filesystem::path& file, const std::string& on_start, const std::string& on_hello,
                           const std::string& on_request) {
  const auto indented = [](const std::string& code, const std::string& indent) {
    std::string out;
    std::istringstream lines(code);
    for (std::string line; std::getline(lines, line);) out += indent + line + "\n";
    return out;
  };
  std::ofstream(file)
      << "import json, os, sys, time\n"
      << indented(on_start, "") << "for line in sys.stdin:\n"
      << "    m = json.loads(line)\n"
         "    if m['type'] == 'hello':\n"
      << indented(on_hello, "        ")
      << "        print(json.dumps({'type': 'ready', 'protocol': 1, 'name': 'first_legal'}), flush=True)\n"
         "    elif m['type'] == 'request':\n"
      << indented(on_request, "        ")
      << "        print(json.dumps({'type': 'action', 'protocol': 1, 'id': m['id'], 'action': "
         "m['legal'][0]}), flush=True)\n"
         "    else:\n"
         "        break\n";
}

std::string referee() {
  return ARENA_REFEREE;
}

std::string out_dir(const std::string& name) {
  return std::string(ARENA_TEST_OUT) + "/" + name;
}

replay::Replay parse_lines(const std::vector<std::string>& lines) {
  std::stringstream ss;
  for (const auto& l : lines) ss << l << '\n';
  auto r = replay::parse(ss);
  REQUIRE(r.ok());
  return std::move(r).value();
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fs::path fresh_dir(const std::string& group, const std::string& name) {
  const fs::path dir = fs::path(ARENA_TEST_OUT) / group / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string random_bot() {
  return ARENA_RANDOM_BOT;
}
std::string greedy_bot() {
  return ARENA_GREEDY_BOT;
}
std::string python_bot() {
  return fmt::format("python3 {}/sample_bots/python/random_bot.py", ARENA_SOURCE_DIR);
}
std::string faulty_bot(const std::string& mode, const std::string& args) {
  return fmt::format("{} {} {}", ARENA_FAULTY_BOT, mode, args);
}

match::BotSpec bot_spec(const std::string& command, const std::string& name) {
  auto parsed = match::BotCommand::parse(command);
  if (!parsed) throw std::runtime_error(parsed.error());
  return {std::move(parsed).value(), name};
}

match::Options options(std::vector<std::string> bots, std::uint64_t seed, const std::string& stem) {
  bots::init_process_wide();
  match::Options o;
  o.seed = seed;
  for (const auto& b : bots) o.bots.push_back(bot_spec(b));
  const std::string unique = fmt::format("{}-{}-{}", stem, getpid(), g_counter++);
  o.log_dir = fs::path(ARENA_TEST_OUT) / "logs";
  o.log_stem = unique;
  o.replay_path = fs::path(ARENA_TEST_OUT) / "replays" / (unique + ".jsonl");
  o.working_dir = fs::current_path();
  const char* path = std::getenv("PATH");
  o.env = {fmt::format("PATH={}", path ? path : "/usr/bin:/bin"), "LANG=C.UTF-8", "PYTHONDONTWRITEBYTECODE=1",
           "ARENA_TEST_MARK=" + unique};
  // Generous: a slow or loaded machine must not fail a test.
  o.limits.init_ms = 20000;
  o.limits.decision_ms = 5000;
  o.grace = std::chrono::milliseconds(200);
  return o;
}

league::RunOptions league_options(const fs::path& out) {
  league::RunOptions o;
  o.out = out;
  o.working_dir = fs::current_path();
  o.rerun = [dir = o.working_dir](const match::Options& m) { return match::play_command(m, {ARENA_REFEREE, dir, {}}); };
  const char* path = std::getenv("PATH");
  o.env = {fmt::format("PATH={}", path ? path : "/usr/bin:/bin"), "LANG=C.UTF-8"};
  return o;
}

replay::Replay require_verifies(const std::filesystem::path& path) {
  auto replay = replay::read(path);
  REQUIRE(replay.ok());
  const auto v = replay::verify(*replay);
  INFO(v.message);
  CHECK(v.ok);
  return std::move(replay).value();
}

std::vector<std::string> leftover_processes(const match::Options& o) {
  std::string marker;
  for (const auto& e : o.env) {
    if (e.rfind("ARENA_TEST_MARK=", 0) == 0) marker = e;
  }
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string pid = entry.path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string env = read_file(entry.path() / "environ");
    std::string stat = read_file(entry.path() / "stat");
    // A marked process, alive or zombie.
    if (!marker.empty() && env.find(marker + '\0') != std::string::npos) found.push_back(pid + " " + stat);
    // A zombie child of this test process: a bot nobody reaped.
    const auto st = parse_proc_stat(stat);
    if (st && st->state == 'Z' && st->ppid == getpid()) found.push_back("zombie " + pid + " " + stat);
  }
  return found;
}

}  // namespace arena::testing
