#pragma once
// What the `referee` subcommands (the *_cmd.cpp files) share: how a command is added, the exit codes,
// the bots' environment, output-name timestamps, the --config reader and the sandbox options.

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/codec.hpp"
#include "referee/bots/sandbox.hpp"
#include "referee/core/bounds.hpp"
#include "referee/core/result.hpp"
#include "referee/core/stop.hpp"
#include "referee/match/match.hpp"

namespace arena::cli {

// Documented in docs/cli.md; distinct so scripts and CI can tell them apart.
enum Exit : int {
  kFinished = 0,
  kBotFault = 1,
  kUsage = 2,
  kInternal = 3,
  kDiverged = 4,
  kBadReplay = 5,
  kSprtH0 = 6,           // league --fail-on sprt-h0: the SPRT accepted H0
  kEloBelow = 7,         // league --fail-on elo-below=X: the first bot's Elo is below X
  kUnsupportedGame = 8,  // a bot's ready lists the games it plays, not this one (play, league, validate)
  kInterrupted = 130,    // SIGINT; a run stopped by another signal exits 128 + it (interrupted_exit_code)
};

// The help of --affinity (league, ladder run, ladder worker: bots/affinity.hpp).
inline constexpr const char* kAffinityHelp =
    "Pin each worker, and the bots it starts, to one CPU (round robin over those the referee may use): "
    "faster and steadier with fast bots; a bot then has one core however many threads it runs";

// A command of `referee` (main.cpp's table): its add function binds its options to `command`,
// the subcommand main.cpp created with its name and description, and returns how to run it once
// argv is parsed. The run gets the parsed subcommand and returns the exit code.
using RunCommand = std::function<int(const CLI::App& command)>;

// The run's stop request: SIGINT, SIGTERM and SIGHUP once StopSignal::install_handlers(stop_signal())
// (play, league, validate). The exit code of a run it stopped is interrupted_exit_code(signal).
StopSignal& stop_signal();

// fmt::print that a closed or full stream (`2>&1 | head`, `2>/dev/full`) cannot end: the run goes
// on (a league keeps journaling, its standings are written) and its result is in the exit code.
// say() prints on stderr, where everything for people goes; say_to() on another stream.
template <typename... T>
void say_to(std::FILE* to, fmt::format_string<T...> format, T&&... args) noexcept {
  try {
    fmt::print(to, format, std::forward<T>(args)...);
  } catch (...) {  // EPIPE, ENOSPC: nobody reads it any more
  }
}
template <typename... T>
void say(fmt::format_string<T...> format, T&&... args) noexcept {
  say_to(stderr, format, std::forward<T>(args)...);
}

// UTC now as 20250131-235959, for file and folder names.
std::string timestamp();

// --config takes JSON text or @FILE; empty text is null (the game's defaults).
// A JSON argument: inline JSON text, @FILE, or the path of an existing file; "" or "-" = null.
// An error names `option` and, for a file, the file and the line and column where parsing failed.
Result<nlohmann::json> read_json_arg(const std::string& text, std::string_view option);
Result<nlohmann::json> read_config(const std::string& text);  // read_json_arg(text, "--config")

// Bot command lines as given (--bot, --opponent), each parsed once here (match::BotCommand); an
// error names `flag` and the command (an unterminated quote, an empty command).
Result<std::vector<match::BotCommand>> parse_bot_commands(const std::vector<std::string>& texts, std::string_view flag);

// A bot's whole environment: PATH (the referee's), LANG, HOME (= working_dir), the Python
// settings, then `extra` ("KEY=VALUE"). Nothing else is inherited; the match adds ARENA_SEAT.
std::vector<std::string> bot_environment(const std::filesystem::path& working_dir,
                                         const std::vector<std::string>& extra);

// The sample bots next to this referee (random_bot, greedy_bot), absolute paths: built
// (<build>/referee/cli/referee -> <build>/sample_bots/) or installed (<prefix>/bin/referee ->
// <prefix>/libexec/stellar-arena/sample_bots/); the opponents of validate and of the ladder's
// conformance check. An error names both places and how to build them.
Result<std::vector<std::filesystem::path>> sample_bots();
// The same as shell-quoted commands.
Result<std::vector<std::string>> sample_bot_commands();

// A check for a numeric flag: its text is a number in `range` (a whole one for the integer
// ranges), else "--flag: -1 is not a whole number in 1..1048576" and exit code 2. It reads the
// text itself, so CLI11 never gets to wrap "-1" into an unsigned option.
CLI::Validator within(const bounds::Range<std::int64_t>& range);
CLI::Validator within(const bounds::Range<std::uint64_t>& range);
CLI::Validator within(const bounds::Range<double>& range);

// --share-output: the files of a match readable by others once its bots are gone (docs/cli.md).
void add_share_output(CLI::App* command, bool& share);

// --sandbox and the limits behind it, the same for play, league and validate (docs/security.md).
struct SandboxArgs {
  std::string tier;  // empty: the strictest the machine supports
  bots::SandboxLimits limits;
  std::vector<std::uint64_t> address_space_mb;  // one value for every bot, or one per --bot
  bool freeze_idle = true;  // fair timing by default (docs/league.md); --no-freeze-idle turns it off
};
void add_sandbox_options(CLI::App* command, SandboxArgs& args);
// The options of a match that play, league and validate share, added and checked here once
// (docs/cli.md "Match options"): the time limits, --env, --grace-ms, the sandbox and its limits,
// --share-output. A bad value (--env FOO, a limit out of its range, an unknown tier) is refused
// while argv is parsed: the same message and exit code 2 from every command.
struct MatchArgs {
  protocol::Limits limits;  // --init-ms, --decision-ms, --time-bank-ms, --max-line-bytes
  double time_scale = 1.0;
  std::vector<std::string> env;  // --env KEY=VALUE, repeatable
  std::int64_t grace_ms = match::kDefaultGrace.count();
  SandboxArgs sandbox;
  bool share_output = false;
};
void add_match_options(CLI::App* command, MatchArgs& args);
// The match options in force: limits, time scale, grace and sandbox on `o` (the sandbox for
// o.bots.size() bots, each bot's --address-space-mb when given once per bot); an error names the
// flag (a wrong count of --address-space-mb, a tier this machine cannot give).
Status apply_match_options(const MatchArgs& args, match::Options& o);

// The command that plays a match again alone (match::play_command, journaled by a league, printed
// by validate for a fault): `referee` run from `working_dir` (empty: where the user is), with the
// --env values of `args`; the limits, time scale, grace, sandbox and its limits are the match's
// own options, which apply_match_options (or a league's spec) set from the same `args`.
std::function<std::string(const match::Options&)> rerun_command(const MatchArgs& args,
                                                                const std::filesystem::path& referee,
                                                                const std::filesystem::path& working_dir);
// This executable (/proc/self/exe), for the re-run commands; "referee" when it cannot be read.
std::filesystem::path referee_path();

// The policy in force; an error names the flag (a tier this machine cannot give, a wrong count).
Result<bots::SandboxPolicy> sandbox_policy(const SandboxArgs& args, std::size_t bots);
// The address-space limit of bot `i`, when --address-space-mb gave one per bot.
std::optional<std::uint64_t> address_space_for(const SandboxArgs& args, std::size_t i);

}  // namespace arena::cli
