#pragma once
// `referee league`: a league from a league file and/or flags, with a journal, resume, standings
// in three formats and an optional SPRT (docs/league.md).

#include <CLI/CLI.hpp>
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "referee/cli/common.hpp"

namespace arena::cli {

struct LeagueArgs {
  std::string file;  // a league file (JSON); flags override its values
  std::vector<std::string> bots;
  std::vector<std::string> names;
  std::vector<std::string> seat_configs;  // one per --bot: JSON, @FILE or a path; "-" = none
  std::string game;
  std::string config;
  std::string format;
  int seats = 0;
  std::uint64_t deals = 0;
  bool no_duplicate = false;
  int concurrency = 0;
  std::uint64_t seed = 0;
  std::int64_t init_ms = 0;
  std::int64_t decision_ms = 0;
  std::int64_t time_bank_ms = -1;
  double time_scale = 0;
  std::uint64_t max_line_bytes = 0;
  std::int64_t grace_ms = 200;
  std::string sprt;
  std::string out;
  bool resume = false;
  bool fail_on_fault = false;
  bool share_output = false;  // each deal's files once its matches are over, the league's at the end
  bool reuse = false;         // keep bots that ask for it alive across matches
  std::uint64_t rating_interval = 10;
  std::string shard;  // "I/N": play that shard of the league only (docs/distributed.md)
  // `league merge SHARD_DIR... --out DIR [--partial]`
  std::vector<std::string> merge_shards;
  std::string merge_out;
  bool merge_partial = false;  // print the scores and points
                               // every N matches; 0: never
  std::vector<std::string> env;
  SandboxArgs sandbox;
};

// Adds the options of `referee league` (and its `merge` subcommand) to `command`.
RunCommand add_league(CLI::App& command);
// Runs it; stops at once on SIGINT, SIGTERM or SIGHUP (exit 128 + the signal, the league resumable).
int run_league(const CLI::App& command, const LeagueArgs& args);

}  // namespace arena::cli
