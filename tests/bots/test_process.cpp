// The process layer on its own, with small shell programs as bots: deadlines on reads and writes,
// EOF and exit status, line caps, stderr capping, descriptor and environment hygiene, and a
// teardown that leaves nothing behind whatever the bot does. Deadlines are generous upper bounds:
// a slow machine must pass.

#include <fmt/format.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "referee/bots/process.hpp"
#include "referee/bots/sandbox_detail.hpp"
#include "tests/command.hpp"

using namespace arena;
using namespace std::chrono_literals;
using bots::BotProcess;
using bots::Clock;
using bots::ReadStatus;
using bots::WriteStatus;
using Catch::Contains;
using testing::process_alive;
namespace fs = std::filesystem;

namespace {

fs::path out_dir() {
  const fs::path dir = fs::path(ARENA_TEST_OUT) / "bots";
  fs::create_directories(dir);
  return dir;
}

bots::SpawnOptions shell(const std::string& script, const std::string& stem = "bot") {
  bots::init_process_wide();
  bots::SpawnOptions o;
  o.argv = {"/bin/sh", "-c", script};
  o.env = {"PATH=/usr/bin:/bin", "ARENA_MARK=test-bots"};
  o.stderr_path = out_dir() / (stem + ".stderr.log");
  return o;
}

std::unique_ptr<BotProcess> start(const bots::SpawnOptions& o) {
  auto p = BotProcess::spawn(o);
  INFO((p ? std::string() : p.error()));
  REQUIRE(p.ok());
  return std::move(p).value();
}

double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// Reads every line until EOF.
std::vector<std::string> all_lines(BotProcess& p) {
  std::vector<std::string> lines;
  for (;;) {
    auto r = p.read_line(Clock::now() + 10s);
    if (r.status != ReadStatus::line) break;
    lines.push_back(r.line);
  }
  return lines;
}

}  // namespace

TEST_CASE("a line goes out and comes back, and stdin closing ends the bot", "[bots]") {
  auto cat = start(shell("exec cat"));
  REQUIRE(cat->write_line("{\"type\":\"hello\"}", Clock::now() + 10s) == WriteStatus::ok);
  auto r = cat->read_line(Clock::now() + 10s);
  REQUIRE(r.status == ReadStatus::line);
  CHECK(r.line == "{\"type\":\"hello\"}");
  cat->close_stdin();
  CHECK(cat->read_line(Clock::now() + 10s).status == ReadStatus::eof);
  CHECK(cat->shutdown(5000ms).describe() == "exit code 0");
}

TEST_CASE("a read waits until its absolute deadline and keeps the partial line", "[bots]") {
  auto p = start(shell("printf 'half a li'; exec sleep 60"));
  const auto t0 = Clock::now();
  auto r = p->read_line(t0 + 300ms);
  const double waited = ms_since(t0);
  CHECK(r.status == ReadStatus::timeout);
  CHECK(r.partial == "half a li");
  CHECK(waited >= 299);
  CHECK(waited < 5000);
  const auto status = p->shutdown(0ms);
  CHECK(status.describe() == "killed by the referee (SIGKILL)");
}

TEST_CASE("a write to a bot that never reads stops at its deadline", "[bots]") {
  auto p = start(shell("exec sleep 60"));
  const std::string big(4 << 20, 'x');  // far more than a pipe holds
  const auto t0 = Clock::now();
  CHECK(p->write_line(big, t0 + 300ms) == WriteStatus::timeout);
  CHECK(ms_since(t0) < 5000);
}

TEST_CASE("a write to a dead bot is `closed`, never SIGPIPE", "[bots]") {
  auto p = start(shell("exit 0"));
  CHECK(p->read_line(Clock::now() + 10s).status == ReadStatus::eof);
  WriteStatus w = WriteStatus::ok;
  for (int i = 0; i < 100 && w == WriteStatus::ok; ++i) w = p->write_line(std::string(70000, 'y'), Clock::now() + 1s);
  CHECK(w == WriteStatus::closed);
}

TEST_CASE("exit codes and signals are told apart", "[bots]") {
  auto exits = start(shell("exit 3"));
  CHECK(exits->read_line(Clock::now() + 10s).status == ReadStatus::eof);
  CHECK(exits->shutdown(5000ms).describe() == "exit code 3");

  auto segv = start(shell("kill -SEGV $$"));
  CHECK(segv->read_line(Clock::now() + 10s).status == ReadStatus::eof);
  CHECK(segv->shutdown(5000ms).describe() == "killed by signal SIGSEGV");
}

TEST_CASE("lines longer than the cap are refused, CR LF is accepted", "[bots]") {
  auto o = shell("printf 'ok\\r\\n'; head -c 300000 /dev/zero | tr '\\0' x; echo; exec sleep 60");
  o.max_line_bytes = 1000;
  auto p = start(o);
  auto first = p->read_line(Clock::now() + 10s);
  REQUIRE(first.status == ReadStatus::line);
  CHECK(first.line == "ok");
  auto second = p->read_line(Clock::now() + 10s);
  CHECK(second.status == ReadStatus::too_long);
  CHECK(second.partial.size() <= 4096);
}

TEST_CASE("output nobody asked for is noticed without waiting", "[bots]") {
  auto p = start(shell("echo one; echo two; exec sleep 60"));
  REQUIRE(p->read_line(Clock::now() + 10s).line == "one");
  const auto t0 = Clock::now();
  bool seen = false;
  while (!seen && ms_since(t0) < 10000) seen = p->has_unread_output();
  CHECK(seen);
  CHECK(p->read_line(Clock::now() + 10s).line == "two");
}

TEST_CASE("stderr is drained into a capped log while the bot runs", "[bots]") {
  auto o = shell("head -c 3000000 /dev/zero | tr '\\0' e >&2; echo >&2; echo >&2 last words; echo done", "stderr-cap");
  o.stderr_cap = 10000;
  auto p = start(o);
  // The bot writes 3 MB on stderr before its stdout line: without a drain it would block.
  auto r = p->read_line(Clock::now() + 30s);
  REQUIRE(r.status == ReadStatus::line);
  CHECK(r.line == "done");
  p->shutdown(5000ms);
  CHECK(p->stderr_bytes() == 3000000 + 1 + 11);
  CHECK(fs::file_size(o.stderr_path) == 10000);
  const auto tail = p->stderr_tail(3);
  REQUIRE(!tail.empty());
  CHECK(tail.back() == "last words");
}

TEST_CASE("a bot gets exactly the environment and working directory it is given", "[bots]") {
  auto o = shell("env | sort; pwd");
  o.env = {"PATH=/usr/bin:/bin", "ONLY=this"};
  o.working_dir = out_dir();
  auto p = start(o);
  const auto lines = all_lines(*p);
  std::set<std::string> got(lines.begin(), lines.end());
  CHECK(got.count("ONLY=this") == 1);
  CHECK(got.count(fs::canonical(out_dir()).string()) == 1);
  for (const auto& line : lines) {
    const auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    const auto key = line.substr(0, eq);
    // sh itself adds PWD (and may add SHLVL, _); nothing of the referee's leaks through.
    CHECK((key == "PATH" || key == "ONLY" || key == "PWD" || key == "SHLVL" || key == "_" || key == "OLDPWD"));
  }
}

TEST_CASE("a bot inherits no descriptor of the referee or of another bot", "[bots]") {
  auto a = start(shell("exec cat", "fd-a"));
  auto b = start(shell("exec ls /proc/self/fd", "fd-b"));
  const auto fds = all_lines(*b);
  // 0, 1, 2 and the directory ls itself opened to list them.
  CHECK(fds.size() <= 4);
  for (const auto& fd : fds) CHECK((fd == "0" || fd == "1" || fd == "2" || fd == "3"));
}

TEST_CASE("a bot starts with default signal dispositions and its own session", "[bots]") {
  // The referee ignores SIGPIPE; a bot must not inherit that.
  auto p = start(shell("grep -E '^(SigIgn|NSpgid|NSsid)' /proc/self/status; echo pid $$; cat /proc/self/stat"));
  const auto lines = all_lines(*p);
  CHECK(std::find(lines.begin(), lines.end(), "SigIgn:\t0000000000000000") != lines.end());
  CHECK(::getsid(0) != p->pid());
  p->shutdown(5000ms);
}

TEST_CASE("a missing executable is a clear error, not a crash", "[bots]") {
  auto o = shell("");
  o.argv = {"/nonexistent/bot"};
  auto p = BotProcess::spawn(o);
  REQUIRE(!p.ok());
  CHECK_THAT(p.error(), Contains("/nonexistent/bot") && Contains("no such file"));

  o.argv = {"no-such-bot-anywhere"};
  p = BotProcess::spawn(o);
  REQUIRE(!p.ok());
  CHECK_THAT(p.error(), Contains("not found in the bot's PATH"));

  o.argv = {"/bin/true"};
  o.working_dir = "/nonexistent/dir";
  p = BotProcess::spawn(o);
  REQUIRE(!p.ok());
  CHECK_THAT(p.error(), Contains("/bin/true") && Contains("No such file"));
}

TEST_CASE("teardown kills the whole tree: grandchildren holding the pipes, SIGTERM ignorers", "[bots]") {
  // The bot starts a grandchild that keeps stdout open, prints its pid and exits: no EOF comes.
  auto p = start(shell("sleep 60 & echo $!; exit 0"));
  auto r = p->read_line(Clock::now() + 10s);
  REQUIRE(r.status == ReadStatus::line);
  const pid_t grandchild = static_cast<pid_t>(std::stol(r.line));
  CHECK(p->read_line(Clock::now() + 300ms).status == ReadStatus::timeout);
  CHECK(process_alive(grandchild));
  const auto t0 = Clock::now();
  p->shutdown(100ms);
  CHECK(ms_since(t0) < 5000);
  CHECK_FALSE(process_alive(grandchild));
  CHECK(::kill(grandchild, 0) != 0);  // reaped too, not a zombie of ours

  auto stubborn = start(shell("trap '' TERM INT HUP; echo ready; while :; do sleep 1; done"));
  REQUIRE(stubborn->read_line(Clock::now() + 10s).line == "ready");
  const pid_t pid = stubborn->pid();
  stubborn->shutdown(100ms);
  CHECK_FALSE(process_alive(pid));
}

TEST_CASE("destroying a BotProcess without shutdown still kills and reaps it", "[bots]") {
  pid_t pid = 0;
  {
    auto p = start(shell("exec sleep 60"));
    pid = p->pid();
  }
  CHECK(::kill(pid, 0) != 0);
}

// A sandbox uid (as root) is purged of its files in the host's temporary folders at its claim
// unless its last holder purged it at its release: a referee killed while holding the uid (here:
// its lock closed without the release) leaves it to be purged at the next claim.
TEST_CASE("a sandbox uid left by a killed referee is purged at its next claim and one released is not walked again",
          "[bots]") {
  if (::geteuid() != 0) {
    WARN("not root: sandbox uids are taken only as root");
    return;
  }
  bots::init_process_wide();
  auto claimed = bots::detail::claim_uid();
  REQUIRE(claimed.ok());
  const auto [uid, lock] = *claimed;
  const fs::path left = fs::path("/tmp") / fmt::format("arena-test-uid-{}-{}", uid, ::getpid());
  std::ofstream(left) << "left behind\n";
  REQUIRE(::chown(left.c_str(), uid, uid) == 0);
  // The referee dies holding the uid: no release, no purge.
  bots::detail::guard(std::to_string(uid), false);
  ::close(lock);

  // The next claims until that uid comes back (another referee may take it first: its claim
  // purges it the same way).
  std::vector<std::pair<uid_t, int>> held;
  bool again = false;
  for (int i = 0; i < 64 && !again; ++i) {
    auto next = bots::detail::claim_uid();
    REQUIRE(next.ok());
    held.push_back(*next);
    again = next->first == uid;
  }
  std::error_code ec;
  CHECK_FALSE(fs::exists(left, ec));

  // Released with its purge, then a file of the uid appears (nothing of the uid runs: only a test
  // can make one): the next claim trusts the recorded purge and does not walk the folders.
  for (const auto& [u, fd] : held) bots::detail::release_uid(u, fd, true, true);
  if (again) {
    std::ofstream(left) << "made after the release\n";
    REQUIRE(::chown(left.c_str(), uid, uid) == 0);
    auto back = bots::detail::claim_uid();
    REQUIRE(back.ok());
    if (back->first == uid) {
      CHECK(fs::exists(left, ec));
      bots::detail::release_uid(back->first, back->second, true, true);  // this release purges it
      CHECK_FALSE(fs::exists(left, ec));
    } else {
      // A referee running beside this test claimed the uid first (its release purges it).
      bots::detail::release_uid(back->first, back->second, true, true);
    }

    // The mark is not trusted from a lock file the uid could have written: owned by the uid, the
    // same purged lock asks for the purge again.
    const fs::path lock_file = bots::detail::uid_lock_path(uid);
    REQUIRE(fs::exists(lock_file, ec));
    std::ofstream(left) << "made after the release\n";
    REQUIRE(::chown(left.c_str(), uid, uid) == 0);
    REQUIRE(::chown(lock_file.c_str(), uid, uid) == 0);
    auto forged = bots::detail::claim_uid();
    REQUIRE(::chown(lock_file.c_str(), 0, 0) == 0);
    REQUIRE(forged.ok());
    if (forged->first == uid) CHECK_FALSE(fs::exists(left, ec));
    bots::detail::release_uid(forged->first, forged->second, true, true);
  }
  fs::remove(left, ec);
}
