#pragma once
// What the hostile-bot suites share (test_containment.cpp: processes and limits;
// test_isolation.cpp: what a bot may see, keep and leave behind; test_channels, test_memory,
// test_wrappers): the tiers this machine offers, one hostile match with the checks every tier promises, and the
// bot's HOSTILE report.

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "referee/bots/sandbox.hpp"
#include "referee/match/match.hpp"
#include "tests/match/harness.hpp"  // reachable()

namespace arena::testing {

std::string hostile_bot(const std::string& args);  // a reachable copy of hostile_bot, with `args`

// The tiers this machine offers; the others are reported once (WARN) with the reason.
std::vector<bots::Tier> tiers();
// A tier with the suites' limits: 64 processes, 768 MiB address space, 16 MiB files, 60 s CPU.
bots::SandboxPolicy policy(bots::Tier tier);

// The HOSTILE report line in a bot's stderr text, as key -> value ("mode" -> the mode).
std::map<std::string, std::string> parse_hostile(const std::string& text);
// The same, from a seat's stderr log.
std::map<std::string, std::string> hostile_report(const match::MatchResult& m, int seat);
// Every process whose name is `comm`.
std::vector<int> processes_named(const std::string& comm);

struct Played {
  match::Options options;
  match::MatchResult result;
  std::map<std::string, std::string> hostile;
};
// hostile_bot `attack` in seat 0 against random_bot, checking what every tier promises whatever
// the attack: the match ends, nothing is charged to the opponent, nothing is left running, the
// replay verifies, the header says which sandbox was in force. `adjust` may change the options.
Played play_hostile(bots::Tier tier, const std::string& attack, const std::string& stem,
                    const std::function<void(match::Options&)>& adjust = {});

}  // namespace arena::testing
