#pragma once
// `referee league`: a league from a league file and/or flags, with a journal, resume, standings
// in three formats, Swiss and knockout rounds, and an optional SPRT (docs/league.md).

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
  std::string deals_file;   // a deal book (docs/league.md, "Deal books")
  std::string deals_order;  // "file" or "shuffled"
  bool no_duplicate = false;
  int concurrency = 0;
  std::uint64_t seed = 0;
  // The match options; the limits and time scale given override the league file's.
  MatchArgs match;
  std::string sprt;
  std::string out;
  bool resume = false;
  bool fail_on_fault = false;          // the same as --fail-on fault
  std::vector<std::string> fail_on;    // --fail-on conditions (league_verdict.hpp)
  bool reuse = false;                  // keep bots that ask for it alive across matches
  bool affinity = false;               // pin each worker and its bots to one CPU
  std::uint64_t rating_interval = 10;  // print the scores and points every N matches; 0: never
  int rounds = 0;                      // --rounds (swiss)
  std::string shard;                   // "I/N": play that shard of the league only
  // `league merge SHARD_DIR... --out DIR [--partial]`; match.share_output opens its files too
  std::vector<std::string> merge_shards;
  std::string merge_out;
  bool merge_partial = false;  // merge what there is: the standings marked partial
};

// Adds the options of `referee league` (and its `merge` subcommand) to `command`.
RunCommand add_league(CLI::App& command);
// Runs it; stops at once on SIGINT, SIGTERM or SIGHUP (exit 128 + the signal, the league resumable).
int run_league(const CLI::App& command, const LeagueArgs& args);

}  // namespace arena::cli
