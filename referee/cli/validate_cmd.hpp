#pragma once
// `referee validate CMD`: a conformance check for bot authors (docs/validate.md). A handshake on
// its own, then N matches against each opponent (by default the sample bots built next to the
// referee) in every seat, for each seat count asked for (--seats); every fault of the bot with
// the request it was answering, its reply and the tail of its stderr; decision times against the
// limit; stderr volume; the sandbox tier each seat had; each replay verified. Exit 0 only when
// all of it is clean. validate_cmd.cpp: the flags and the flow; validate_checks.cpp: the handshake
// and the matches; validate_report.cpp: the report.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "referee/cli/common.hpp"
#include "referee/games/game.hpp"

namespace arena::cli {

struct ValidateArgs {
  std::string bot;  // the command line of the bot under test
  std::string game = games::default_game_name();
  std::vector<std::string> opponents;  // empty: the sample bots next to the referee
  std::string seats;                   // empty: the game's minimum; a count, or "all" (each the game plays)
  int games = 3;                       // per opponent, seat count and seat
  std::uint64_t seed = 0;
  bool seed_given = false;  // else a random seed, printed
  std::string config;       // JSON or @FILE
  std::int64_t init_ms = 10000;
  std::int64_t decision_ms = 1000;
  double time_scale = 1.0;
  std::string out;  // empty: logs/validate-<time>
  std::vector<std::string> env;
  SandboxArgs sandbox;
  bool json = false;          // the machine-readable report on stdout
  bool share_output = false;  // the files readable by others once the bots are gone
};

// Adds the options of `referee validate` to `command`; the run fills ValidateArgs and calls run_validate.
RunCommand add_validate(CLI::App& command);

// Runs it; returns the process exit code (common.hpp: kFinished, kBotFault, kUsage, kInterrupted).
int run_validate(const ValidateArgs& args);

}  // namespace arena::cli
