// The `referee` executable: the only code that reads argv, the environment and files given by
// the user. Its commands are the table below, one file each (<name>_cmd.cpp); docs/cli.md,
// docs/validate.md and docs/league.md describe them.

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "protocol/codec.hpp"
#include "referee/bots/process.hpp"
#include "referee/cli/common.hpp"
#include "referee/cli/games_cmd.hpp"
#include "referee/cli/html_cmd.hpp"
#include "referee/cli/ladder_cmd.hpp"
#include "referee/cli/league_cmd.hpp"
#include "referee/cli/play_cmd.hpp"
#include "referee/cli/show_cmd.hpp"
#include "referee/cli/suggest.hpp"
#include "referee/cli/validate_cmd.hpp"
#include "referee/cli/verify_cmd.hpp"
#include "referee/core/version.hpp"

using namespace arena;
using namespace arena::cli;

namespace {

// A command: its name and one line for --help, and how to add its options to the subcommand
// (which returns how to run it). A new command is a <name>_cmd.cpp and a row here.
struct Command {
  const char* name;
  const char* description;
  RunCommand (*add)(CLI::App& command);
};

// In the order `referee --help` lists them.
constexpr Command kCommands[] = {
    {"play", "Play one match between bot executables", add_play},
    {"games", "List the games and their seat counts", add_games},
    {"verify", "Re-simulate a replay without bots and check every step", add_verify},
    {"validate", "Check a bot: handshake, matches against the sample bots in every seat, faults, timing", add_validate},
    {"league", "Run a league of many bots and matches in parallel (docs/league.md)", add_league},
    {"ladder", "A competition that runs itself: submissions, matchmaking, ratings, workers (docs/ladder.md)",
     add_ladder},
    {"html", "Write a replay as one self-contained web page that plays the match step by step", add_html},
    {"show", "Draw the table of a replay at any step in the terminal", add_show},
};

// The referee's command line names the seed, the replay and the other bots' commands, and
// /proc/<pid>/cmdline is readable by every process (and the strict tier's namespace init is a
// fork of the referee): after it is copied, only "referee" is left of it in memory.
void hide_command_line(int argc, char** argv) {
  if (argc < 1) return;
  char* const begin = argv[0];
  char* const end = argv[argc - 1] + std::strlen(argv[argc - 1]);
  std::memset(begin, 0, static_cast<std::size_t>(end - begin));
  std::memcpy(begin, "referee", std::min<std::size_t>(7, static_cast<std::size_t>(end - begin)));
}

}  // namespace

int main(int argc, char** argv) {
  try {
    bots::init_process_wide();
    std::vector<std::string> arg_text(argv, argv + argc);
    std::vector<char*> arg_copy;
    for (std::string& a : arg_text) arg_copy.push_back(a.data());
    arg_copy.push_back(nullptr);
    hide_command_line(argc, argv);
    argv = arg_copy.data();
    CLI::App app{"Stellar Arena referee: plays matches between bot executables over line-delimited JSON."};
    app.require_subcommand(1);
    app.set_version_flag("--version", fmt::format("stellar-arena {} (commit {}), protocols 1-{}", referee_version(),
                                                  referee_commit(), protocol::kLatestVersion));

    std::vector<std::pair<CLI::App*, RunCommand>> commands;
    for (const Command& c : kCommands) {
      CLI::App* sub = app.add_subcommand(c.name, c.description);
      commands.emplace_back(sub, c.add(*sub));
    }

    try {
      app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
      return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
      return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
      return app.exit(e);
    } catch (const CLI::ParseError& e) {
      app.exit(e);
      say("{}", did_you_mean(app, std::vector<std::string>(arg_text.begin() + 1, arg_text.end())));
      return kUsage;
    }
    for (const auto& [sub, run] : commands) {
      if (sub->parsed()) return run(*sub);
    }
    return kUsage;
  } catch (const std::exception& e) {
    say("referee: internal error: {}\n", e.what());
    return kInternal;
  }
}
