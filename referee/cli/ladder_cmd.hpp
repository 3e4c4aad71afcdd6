#pragma once
// `referee ladder ...`: a competition that runs itself (docs/ladder.md). The subcommands:
//   init DIR       a new ladder folder (ladder.json, its SQLite database or a PostgreSQL one)
//   submit DIR P   a bot's next version from a folder or an archive with a bot.json (or
//                  submit P --server URL: through a ladder's web server)
//   withdraw, list, log        the bots, their versions and their build logs
//   run DIR        the coordinator (builds, audits, ratings, the queue) and -j local workers
//   worker         more workers, on any machine that reaches the database
//   serve DIR      the HTTP API alone (run --listen starts it beside the coordinator)
//   author add|list  the HTTP API's accounts: an author's or the organiser's token
//   status, export the leaderboard, queue and workers; the ladder as a league folder
// ladder_cmd.cpp: the flags and the bots' subcommands; ladder_run.cpp: run, worker and serve;
// ladder_report.cpp: status and export; ladder_author.cpp: author.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "referee/cli/common.hpp"
#include "referee/ladder/config.hpp"
#include "referee/ladder/leaderboard.hpp"
#include "referee/ladder/store.hpp"
#include "referee/web/submission.hpp"

namespace arena::cli {

struct LadderArgs {
  std::string dir;  // the ladder folder
  std::string db;   // --db: a PostgreSQL connection string (else ARENA_LADDER_DB, else SQLite in DIR)
  // init
  std::string from;  // --from ladder.json: settings to start from
  std::string game;
  int seats = 0;
  std::string config;
  bool no_duplicate = false;
  bool seat_configs = false;
  int placement_games = -1;
  int check_games = -1;
  MatchArgs match;  // the limits and the sandbox recorded in ladder.json
  // submit, withdraw, log
  std::string path;
  std::string name;
  std::string author;      // default: the login name
  std::string server;      // submit: the ladder's web server (http://HOST:PORT), instead of DIR
  std::string token;       // submit --server: the account's token (default: $ARENA_LADDER_TOKEN)
  bool organiser = false;  // author add: the organiser's account
  int version = 0;         // log: 0 = the latest
  // run, worker
  int workers = -1;       // -j; run: default 1, worker: default the usable CPUs
  bool affinity = false;  // --affinity: each worker and its bots pinned to one CPU
  std::string cache;
  std::uint64_t stop_after = 0;  // run: stop once this many matches are counted (0: never)
  std::uint64_t idle_exit_s = 0;
  std::vector<std::string> opponents;  // the conformance check's; default: the sample bots
  std::string listen;                  // run, serve: the web server's address (run: none when empty)
  // status, export
  std::string out;
  std::size_t recent = 10;
};

// Exit codes of the ladder's subcommands beyond common.hpp's (docs/cli.md "Exit codes").
enum LadderExit : int {
  kSubmissionRefused = 6,  // submit: the files or their bot.json are refused (the message names the entry)
  kNotYours = 7,           // submit, withdraw: the bot's name belongs to another author
  kDatabase = 8,           // the ladder's database cannot be opened or used (the reason named)
  kServer = 9,             // submit --server: the server cannot be reached, refuses the token, or fails
};

RunCommand add_ladder(CLI::App& command);

// The ladder's location from its arguments: --db, else ARENA_LADDER_DB, else SQLite in DIR (which
// must be a ladder folder unless `creating`).
Result<ladder::Location> ladder_location(const LadderArgs& a, bool creating);

// The ladder's database, opened (its schema checked or migrated); `exit` says why not (kUsage
// for the location, kDatabase for the database).
Result<std::unique_ptr<ladder::Store>> open_ladder_store(const LadderArgs& a, bool creating, int& exit);
// The ladder's database and settings, opened for subcommand `command` (open_ladder_store, then
// ladder_config); nullopt once the failure is said (ladder_fails), `exit` set.
struct OpenedLadder {
  std::unique_ptr<ladder::Store> store;
  ladder::LadderConfig config;
};
std::optional<OpenedLadder> open_ladder(const LadderArgs& a, std::string_view command, int& exit);
// A subcommand's failure: says "referee ladder <command>: <message>" on stderr and returns `exit`.
int ladder_fails(std::string_view command, int exit, const std::string& message);
// The ladder's settings: its folder's ladder.json, or (a worker without a folder) the copy in its
// database.
Result<ladder::LadderConfig> ladder_config(const LadderArgs& a, ladder::Store* store);
// A bot's or an account's name (web/submission.hpp); the error starts with `what` (the flag).
using web::check_name;
// The leaderboard in the terminal (ladder_report.cpp).
void print_leaderboard(ladder::Store& store, const ladder::LadderConfig& config, ladder::Leaderboard& board);

int run_ladder_run(const LadderArgs& a);
int run_ladder_worker(const LadderArgs& a);
int run_ladder_serve(const LadderArgs& a);
int run_ladder_author_add(const LadderArgs& a);  // ladder_author.cpp
int run_ladder_author_list(const LadderArgs& a);
int run_ladder_status(const LadderArgs& a);
int run_ladder_export(const LadderArgs& a);

}  // namespace arena::cli
