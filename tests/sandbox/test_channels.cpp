// The hostile-bot suite, part three: what bots share (docs/security.md, "No channel between
// bots"). Two hostile bots in one match, or the two legs of a duplicate deal, try to pass one
// seat's hidden view to the other through kernel state attached to files both can see, through
// files left behind, through host sockets; a bot looks for other processes and for the host's
// paths and cgroup names. Run on every tier the machine offers: tier none, which claims nothing,
// is the control that shows each attack is real (where it can be shown), the others must stop it.

#include <fmt/format.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "referee/bots/sandbox.hpp"
#include "tests/match/harness.hpp"
#include "tests/sandbox/hostile_harness.hpp"

using namespace arena;
using bots::Tier;
using testing::hostile_bot;
using testing::tiers;

namespace fs = std::filesystem;

namespace {

// basic keeps bots apart only with a uid of its own per bot and its own mount namespace (root).
bool claims_channel_isolation(Tier t) {
  const auto& s = bots::sandbox_support();
  return t == Tier::strict || (t == Tier::basic && s.root && s.private_mounts);
}

std::string tag_for(const char* what, Tier t) {
  return fmt::format("{}{}{}", what, static_cast<int>(t), ::getpid() % 100000);
}

match::MatchResult play_checked(const match::Options& o) {
  auto r = match::play(o);
  REQUIRE(r.ok());
  INFO(replay::to_json(*r).dump(2));
  CHECK(testing::leftover_processes(o).empty());
  return std::move(r).value();
}

// A listening unix socket, as a service of the host would have: at a path anyone may connect to,
// or at an abstract name.
struct HostSocket {
  int fd = -1;
  std::string path;
  HostSocket(const std::string& name, bool abstract) {
    fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    REQUIRE(fd >= 0);
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    std::memcpy(a.sun_path + (abstract ? 1 : 0), name.data(), name.size());
    const auto len =
        static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + (abstract ? 1 : 0) + name.size() + (abstract ? 0 : 1));
    if (!abstract) {
      path = name;
      ::unlink(path.c_str());
    }
    REQUIRE(::bind(fd, reinterpret_cast<const sockaddr*>(&a), len) == 0);
    REQUIRE(::listen(fd, 16) == 0);
    if (!abstract) ::chmod(path.c_str(), 0777);
  }
  ~HostSocket() {
    ::close(fd);
    if (!path.empty()) ::unlink(path.c_str());
  }
};

}  // namespace

TEST_CASE("channels: a bot cannot signal another through locks, leases, watches or times of shared files",
          "[hostile][channels]") {
  for (Tier t : tiers()) {
    INFO("tier " << enum_name(t));
    // Both seats run the same program (one file for both), and both see /etc/passwd. The sender
    // encodes its view's hash in locks at its 4th request; the receiver watches from its 1st and
    // decodes at its 12th.
    auto o = testing::options({hostile_bot("lock-send --at 4"), hostile_bot("lock-recv --at 12")}, 31,
                              fmt::format("channels-locks-{}", enum_name(t)));
    o.sandbox = testing::policy(t);
    o.limits.decision_ms = 10000;
    const auto r = play_checked(o);
    const auto sender = testing::hostile_report(r, 0);
    const auto receiver = testing::hostile_report(r, 1);
    INFO("sender: " << testing::read_file(r.seats[0].stderr_log));
    INFO("receiver: " << testing::read_file(r.seats[1].stderr_log));
    REQUIRE(sender.count("sent") == 1);
    REQUIRE(receiver.count("received") == 1);
    if (t == Tier::none) {
      // The control: without a sandbox the channel carries the sender's secret whole.
      CHECK(receiver.at("received") == sender.at("sent"));
      CHECK(receiver.at("received_ofd") == sender.at("sent"));
      CHECK(receiver.at("flock_busy") == "yes");
      CHECK(receiver.at("inotify") == "ok");
      CHECK(receiver.at("events") != "0");
      continue;
    }
    // Locks succeed for the program that asks (SQLite and the like run) and do nothing.
    CHECK(sender.at("flock") == "ok");
    CHECK(sender.at("setlk") == "ok");
    CHECK(sender.at("ofd") == "ok");
    CHECK(receiver.at("received") == "0");
    CHECK(receiver.at("received_ofd") == "0");
    CHECK(receiver.at("flock_busy") == "no");
    // Leases, directory notification and inotify are refused; times of the shared devices too.
    CHECK(sender.at("lease") == "EPERM");
    CHECK(receiver.at("notify") == "EPERM");
    CHECK(receiver.at("inotify") == "EPERM");
    CHECK(receiver.at("events") == "0");
    CHECK(sender.at("utime") != "ok");
    CHECK(receiver.at("devnull_touched") == "no");
  }
}

TEST_CASE("channels: a file left by one leg of a duplicate deal is gone for the next", "[hostile][channels]") {
  for (Tier t : tiers()) {
    INFO("tier " << enum_name(t));
    const std::string tag = tag_for("left", t);
    // Leg one: seat 0 writes its view's hash in every folder it may write; leg two (the same
    // seed, seats swapped, as a duplicate deal plays them one after the other): seat 1 looks.
    auto leg = [&](std::vector<std::string> seats, const char* stem) {
      auto o = testing::options(std::move(seats), 41, fmt::format("channels-{}-{}", stem, enum_name(t)));
      o.sandbox = testing::policy(t);
      o.limits.decision_ms = 20000;
      return play_checked(o);
    };
    const auto leg1 = leg({hostile_bot("leave --tag " + tag), testing::reachable_random_bot()}, "leave");
    const auto left = testing::hostile_report(leg1, 0);
    INFO("leg 1: " << testing::read_file(leg1.seats[0].stderr_log));
    REQUIRE(left.count("wrote") == 1);
    const auto leg2 = leg({testing::reachable_random_bot(), hostile_bot("find-left --tag " + tag)}, "find");
    const auto found = testing::hostile_report(leg2, 1);
    INFO("leg 2: " << testing::read_file(leg2.seats[1].stderr_log));
    REQUIRE(found.count("found") == 1);
    std::vector<std::string> wrote;
    std::stringstream paths(left.at("paths"));
    for (std::string p; std::getline(paths, p, ',');) {
      if (p != "-") wrote.push_back(p);
    }
    if (!claims_channel_isolation(t)) {
      if (t == Tier::none) CHECK(found.at("found") != "0");  // the control: the attack is real
      WARN(fmt::format("tier {} (no private mounts here): wrote {} files, the next leg found {}", enum_name(t),
                       left.at("wrote"), found.at("found")));
      for (const std::string& p : wrote) fs::remove(p);
      continue;
    }
    CHECK(found.at("found") == "0");
    // Nothing of it on the machine: every place it wrote was its own, and went with it.
    for (const std::string& p : wrote) CHECK_FALSE(fs::exists(p));
  }
}

TEST_CASE("channels: a bot reaches no host socket and sees no other process or cgroup", "[hostile][channels]") {
  for (Tier t : tiers()) {
    INFO("tier " << enum_name(t));
    const std::string tag = tag_for("sock", t);
    const HostSocket at_path("/tmp/hostile-sock-" + tag, false);
    const HostSocket abstract("hostile-sock-" + tag, true);
    auto sockets = testing::play_hostile(t, "host-socket --tag " + tag, "channels-socket");
    auto procs = testing::play_hostile(t, "proc-view", "channels-proc");
    INFO(testing::read_file(sockets.result.seats[0].stderr_log));
    INFO(testing::read_file(procs.result.seats[0].stderr_log));
    REQUIRE(sockets.hostile.count("socket") == 1);
    REQUIRE(procs.hostile.count("other_uids") == 1);
    if (t == Tier::none) {
      CHECK(sockets.hostile.at("path") == "connected");  // the control
      CHECK(sockets.hostile.at("abstract") == "connected");
      continue;
    }
    CHECK(sockets.hostile.at("socketpair") == "ok");  // runtimes keep their own pairs
    CHECK(sockets.hostile.at("socket") == "EPERM");
    CHECK(sockets.hostile.at("path") != "connected");
    CHECK(sockets.hostile.at("abstract") != "connected");
    if (!claims_channel_isolation(t)) {
      WARN(fmt::format("tier {} (no private mounts here): sees {} processes of other uids", enum_name(t),
                       procs.hostile.at("other_uids")));
      continue;
    }
    CHECK(procs.hostile.at("other_uids") == "0");
    CHECK(procs.hostile.at("cmdlines_read") == "0");
    CHECK(procs.hostile.at("cgroup_entries") == "0");
  }
}

TEST_CASE("channels: a strict bot reads no host path of its folder and no cgroup name of the referee",
          "[hostile][channels]") {
  for (Tier t : tiers()) {
    if (t != Tier::strict) continue;
    auto p = testing::play_hostile(t, "host-details", "channels-host");
    INFO(testing::read_file(p.result.seats[0].stderr_log));
    REQUIRE(p.hostile.count("paths") == 1);
    // Its program's folder on the host (the fixtures' folder), by any of its names.
    const fs::path folder = fs::path(testing::reachable_random_bot()).parent_path();
    CHECK(p.hostile.at("paths").find(folder.filename().string()) == std::string::npos);
    CHECK(p.hostile.at("paths").find("stellar-arena") == std::string::npos);  // the private folders' root
    // Its cgroup is the root of its own cgroup namespace.
    const auto& s = bots::sandbox_support();
    CHECK(p.hostile.at("cgroup").find("stellar-arena") == std::string::npos);
    if (s.cgroup) CHECK(p.hostile.at("cgroup").find(s.cgroup_dir.filename().string()) == std::string::npos);
    std::stringstream lines(p.hostile.at("cgroup"));
    for (std::string line; std::getline(lines, line, '%');) {
      if (line.rfind("3B", 0) == 0) line.erase(0, 2);
      if (!line.empty()) CHECK_THAT(line, Catch::EndsWith(":/"));
    }
  }
}

TEST_CASE("channels: honest programs that lock their own files run in every tier", "[hostile][channels]") {
  for (Tier t : tiers()) {
    INFO("tier " << enum_name(t));
    // Python with SQLite in its home (rollback journal, then WAL with a second connection), and
    // flock and lockf: the locks succeed (without effect on others in basic and strict).
    // The system's Python: an interpreter installed in a private home (pyenv under /root) is out
    // of reach of a bot's own uid in basic, by design.
    const std::string python = fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
    auto o = testing::options({python + " " + testing::reachable(ARENA_SOURCE_DIR "/tests/sandbox/sqlite_bot.py"),
                               testing::reachable_random_bot()},
                              51, fmt::format("channels-sqlite-{}", enum_name(t)));
    o.sandbox = testing::policy(t);
    o.limits.decision_ms = 20000;
    const auto r = play_checked(o);
    INFO(testing::read_file(r.seats[0].stderr_log));
    CHECK(r.end == replay::End::finished);
    const auto kv = testing::hostile_report(r, 0);
    CHECK(kv.count("error") == 0);
    CHECK(kv.count("rows") == 1);
    if (kv.count("rows") == 1) CHECK(kv.at("rows") == "11");
    if (kv.count("wal") == 1) CHECK(kv.at("wal") == "wal");
    if (kv.count("flock") == 1) CHECK(kv.at("flock") == "ok");
    if (kv.count("lockf") == 1) CHECK(kv.at("lockf") == "ok");
  }
}

TEST_CASE("channels: basic as root without CAP_SYS_ADMIN says so, and purges what a bot left anywhere",
          "[hostile][channels]") {
  // Root in a container without CAP_SYS_ADMIN: no mount namespace for basic bots, so the uid
  // purge is the backstop, in every world-writable folder of the machine.
  if (!bots::sandbox_support().root || !fs::exists("/usr/bin/setpriv")) {
    WARN("needs root and setpriv: skipped");
    return;
  }
  const std::string tag = tag_for("capless", Tier::basic);
  const fs::path dir = testing::fresh_dir("channels", "capless");
  const auto run = testing::run(
      fmt::format("/usr/bin/setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin {} play --sandbox basic --verbose "
                  "--decision-ms 20000 --out {} --bot '{}' --bot {} 2>&1",
                  ARENA_REFEREE, dir.string(), hostile_bot("leave --tag " + tag), testing::reachable_random_bot()));
  INFO(run.out);
  REQUIRE(run.exit_code == 0);
  CHECK_THAT(run.out, Catch::Contains("no mount namespace"));
  std::string log;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().string().find(".seat0.stderr.log") != std::string::npos) log = testing::read_file(e.path());
  }
  INFO(log);
  const auto kv = testing::parse_hostile(log);
  REQUIRE(kv.count("wrote") == 1);
  CHECK(kv.at("wrote") != "0");  // it could write: the folders were the host's
  std::stringstream paths(kv.at("paths"));
  for (std::string p; std::getline(paths, p, ',');) {
    if (p != "-") CHECK_FALSE(fs::exists(p));
  }
}
