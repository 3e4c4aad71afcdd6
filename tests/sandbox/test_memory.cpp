// The memory limit against memory that is not a process's own (docs/security.md): shared
// anonymous mappings across forked children, memfd (held open, or mapped one page deep), files on
// a tmpfs, SysV shared memory. Each runs under --memory-mb 256 --address-space-mb 256 on every
// tier the machine offers that limits memory (tier none limits nothing), and must end in the
// memory-limit fault that names the shared part; memory that two processes share honestly
// counts once.

#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "referee/bots/sandbox.hpp"
#include "tests/match/harness.hpp"
#include "tests/sandbox/hostile_harness.hpp"

using namespace arena;
using bots::Tier;

namespace {

testing::Played hold(Tier t, const std::string& attack, const std::string& stem) {
  return testing::play_hostile(t, attack, stem, [](match::Options& o) {
    o.sandbox.limits.memory_mb = 256;
    o.sandbox.limits.address_space_mb = 256;
    o.sandbox.limits.scratch_mb = 1024;  // strict and basic as root: the scratch tmpfs is no limit of its own here
  });
}

// The tree went over the limit and was killed for it, the shared part named.
void check_killed(const testing::Played& p) {
  INFO(replay::to_json(p.result).dump(2));
  REQUIRE(p.result.fault.has_value());
  CHECK(p.result.fault->seat == 0);
  CHECK(p.result.fault->kind == match::FaultKind::crash);
  if (!bots::sandbox_support().cgroup_memory) {
    CHECK_THAT(p.result.fault->message, Catch::Contains("memory limit: its processes held"));
    CHECK_THAT(p.result.fault->message, Catch::Matches(".*\\(([1-9][0-9]*) MiB of it shared\\).*"));
  }
}

}  // namespace

TEST_CASE("memory: shared anonymous memory across forked children, memfd open or kept by one page, count whole",
          "[hostile][memory]") {
  for (Tier t : testing::tiers()) {
    if (t == Tier::none) continue;
    INFO("tier " << enum_name(t));
    for (const char* attack : {"shm-anon --procs 4 --mb 160", "memfd --mb 640", "memfd-map --mb 640"}) {
      INFO(attack);
      check_killed(hold(t, attack, std::string(attack).substr(0, std::string(attack).find(' '))));
    }
  }
}

TEST_CASE("memory: files on a tmpfs count", "[hostile][memory]") {
  for (Tier t : testing::tiers()) {
    if (t == Tier::none) continue;
    if (t == Tier::basic && !bots::sandbox_support().root) continue;  // one uid for all: security.md says so
    INFO("tier " << enum_name(t));
    check_killed(hold(t, "tmpfs-file --mb 640", "tmpfs"));
  }
}

TEST_CASE("memory: SysV shared memory counts in strict and is refused in basic", "[hostile][memory]") {
  for (Tier t : testing::tiers()) {
    if (t == Tier::none) continue;
    INFO("tier " << enum_name(t));
    auto p = hold(t, "sysv --mb 640", "sysv");
    if (t == Tier::strict) {
      check_killed(p);
    } else {
      INFO(replay::to_json(p.result).dump(2));
      CHECK_FALSE(p.result.fault.has_value());
      CHECK(p.hostile["objects"] == "0");
      CHECK(p.hostile["errno"] == "EPERM");
    }
  }
}

TEST_CASE("memory: memory that the bot's processes share counts once", "[hostile][memory]") {
  for (Tier t : testing::tiers()) {
    if (t == Tier::none) continue;
    INFO("tier " << enum_name(t));
    // One region of 100 MiB, touched by four processes: 100 MiB, not 400, under a 256 MiB limit.
    auto p = hold(t, "shm-one --procs 4 --mb 100", "shm-one");
    INFO(replay::to_json(p.result).dump(2));
    CHECK_FALSE(p.result.fault.has_value());
    CHECK(p.hostile["full"] == "4");
  }
}

TEST_CASE("memory: the referee's own memory is not charged to a strict bot", "[hostile][memory]") {
  // A strict bot's cgroup also holds two processes of the referee's (the one it started, which
  // waits, and the namespace's init), copies of the referee made by fork: their resident memory
  // is the referee's, shared copy-on-write. A referee holding 192 MiB must not push a bot that
  // holds a few MiB over a 128 MiB limit.
  const auto& s = bots::sandbox_support();
  if (!s.namespaces) {
    WARN("tier strict is not available here: " << s.namespaces_note);
    return;
  }
  if (s.cgroup_memory)
    WARN("the kernel holds the limit here (memory.max), which charges a page to who touched it first");
  std::vector<char> held(std::size_t{192} << 20);
  std::fill(held.begin(), held.end(), '\1');  // resident, in this process and in copies of it
  auto o = testing::options({testing::reachable_random_bot(), testing::reachable_random_bot()}, 5, "referee-memory");
  o.sandbox = testing::policy(Tier::strict);
  o.sandbox.limits.memory_mb = 128;
  auto r = match::play(o);
  REQUIRE(r.ok());
  INFO(replay::to_json(*r).dump(2));
  CHECK_FALSE(r->fault.has_value());
  CHECK(r->end == match::End::finished);
  CHECK(held[held.size() / 2] == '\1');
}
