#pragma once
// What the league tests that run real bots share: a league normalized with the limits a slow
// machine needs and the seed 2026, and what two runs of one league must have in common.

#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <vector>

#include "referee/core/stop.hpp"
#include "referee/league/league.hpp"
#include "tests/match/harness.hpp"

namespace arena::testing {

// `s` with the seed (2026 unless given) and generous limits, normalized (the test stops when it is
// refused).
inline league::LeagueSpec sample_league(league::LeagueSpec s, std::uint64_t seed = 2026) {
  s.seed = seed;
  s.limits.init_ms = 20000;
  s.limits.decision_ms = 5000;
  auto normalized = league::normalize(s);
  INFO((normalized ? std::string() : normalized.error()));
  REQUIRE(normalized.ok());
  return std::move(normalized).value();
}

// `spec` run into `dir` and stopped, as Ctrl-C would stop it, once `matches` matches are journaled:
// its outcome, which the test checks (interrupted, what was journaled).
inline league::LeagueOutcome run_stopped_after(const league::LeagueSpec& spec, const std::filesystem::path& dir,
                                               std::uint64_t matches) {
  StopSignal stop;
  auto o = league_options(dir);
  o.stop = &stop;
  o.on_match = [&](const league::MatchRecord&, std::uint64_t done, std::uint64_t) {
    if (done >= matches) stop.request();
  };
  auto outcome = league::run(spec, o);
  INFO((outcome ? std::string() : outcome.error()));
  REQUIRE(outcome.ok());
  return std::move(outcome).value();
}

// What must be identical between two runs of one league: the schedule and every outcome.
inline nlohmann::json league_essence(const std::vector<league::MatchRecord>& records) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : records) {
    nlohmann::json seats = nlohmann::json::array();
    for (const auto& s : r.seats) seats.push_back({s.bot, s.score, s.rank});
    out.push_back({r.index, r.deal, r.leg, r.seed, enum_name(r.end), seats, r.fault ? enum_name(r.fault->kind) : ""});
  }
  return out;
}

}  // namespace arena::testing
