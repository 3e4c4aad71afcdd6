#include "tests/sandbox/hostile_harness.hpp"

#include <dirent.h>
#include <fmt/format.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "referee/replay/replay.hpp"
#include "tests/match/harness.hpp"

namespace arena::testing {

using bots::Tier;

std::string hostile_bot(const std::string& args) {
  return fmt::format("{} {}", reachable(ARENA_HOSTILE_BOT), args);
}

// The tiers to test: those this machine offers; the others are reported once.
std::vector<Tier> tiers() {
  std::vector<Tier> out;
  for (Tier t : {Tier::none, Tier::basic, Tier::strict}) {
    auto p = bots::resolve_policy(t, {}, false);
    if (p) {
      out.push_back(t);
    } else {
      static std::map<Tier, bool> said;
      if (!said[t]) WARN(fmt::format("tier {} skipped on this machine: {}", enum_name(t), p.error()));
      said[t] = true;
    }
  }
  return out;
}

bots::SandboxPolicy policy(Tier tier) {
  bots::SandboxLimits l;
  l.processes = 64;
  l.address_space_mb = 768;
  l.file_size_mb = 16;
  l.cpu_seconds = 60;
  auto p = bots::resolve_policy(tier, l, false);
  REQUIRE(p.ok());
  return *p;
}

std::map<std::string, std::string> parse_hostile(const std::string& text) {
  std::istringstream in(text);
  std::map<std::string, std::string> kv;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("HOSTILE ", 0) != 0) continue;
    std::istringstream words(line);
    std::string w;
    words >> w >> kv["mode"];
    while (words >> w) {
      const auto eq = w.find('=');
      if (eq != std::string::npos) kv[w.substr(0, eq)] = w.substr(eq + 1);
    }
  }
  return kv;
}

std::map<std::string, std::string> hostile_report(const match::MatchResult& m, int seat) {
  std::ifstream in(m.seats[static_cast<std::size_t>(seat)].stderr_log);
  std::stringstream text;
  text << in.rdbuf();
  return parse_hostile(text.str());
}

std::vector<int> processes_named(const std::string& comm) {
  std::vector<int> out;
  DIR* d = ::opendir("/proc");
  while (const dirent* e = d ? ::readdir(d) : nullptr) {
    const int pid = std::atoi(e->d_name);
    if (pid <= 0) continue;
    std::ifstream in(fmt::format("/proc/{}/comm", pid));
    std::string name;
    if (!std::getline(in, name) || name != comm) continue;
    std::ifstream stat(fmt::format("/proc/{}/stat", pid));
    std::string line;
    std::getline(stat, line);
    const auto close = line.rfind(')');
    if (close != std::string::npos && close + 2 < line.size() && line[close + 2] == 'Z')
      continue;  // dead, not yet reaped
    out.push_back(pid);
  }
  if (d) ::closedir(d);
  return out;
}

// hostile_bot in seat 0 against random_bot; checks what every tier promises whatever the attack:
// the match ends, nothing is charged to the opponent, nothing is left running, the replay
// verifies, the header says which sandbox was in force.
Played play_hostile(Tier tier, const std::string& attack, const std::string& stem,
                    const std::function<void(match::Options&)>& adjust) {
  Played out;
  out.options = testing::options({hostile_bot(attack), reachable_random_bot()}, 99,
                                 fmt::format("hostile-{}-{}", stem, enum_name(tier)));
  out.options.sandbox = policy(tier);
  out.options.limits.decision_ms = 3000;
  out.options.limits.init_ms = 10000;
  if (adjust) adjust(out.options);
  auto r = match::play(out.options);
  REQUIRE(r.ok());
  out.result = std::move(r).value();
  out.hostile = hostile_report(out.result, 0);
  INFO(replay::to_json(out.result).dump(2));
  if (out.result.fault) CHECK(out.result.fault->seat == 0);
  CHECK(testing::leftover_processes(out.options).empty());
  auto replay = replay::read(out.result.replay);
  REQUIRE(replay.ok());
  CHECK(replay::verify(*replay).ok);
  CHECK(replay->header.extra.at("sandbox").at("tier") == enum_name(tier));
  return out;
}

}  // namespace arena::testing
