#pragma once
// Shared helpers for tests that play real matches: bot command lines, options with generous
// limits, and a process-table check that nothing a match started is still alive.

#include <filesystem>
#include <string>
#include <vector>

#include "referee/league/league.hpp"
#include "referee/match/match.hpp"
#include "referee/replay/replay.hpp"
#include "tests/command.hpp"  // run(): a shell command's exit code and stdout

namespace arena::testing {

std::string random_bot();  // the C++ random bot
std::string greedy_bot();
std::string python_bot();  // "python3 .../random_bot.py"
std::string faulty_bot(const std::string& mode, const std::string& args = "");

// The referee under test, and <test output>/<name> (not created).
std::string referee();
std::string out_dir(const std::string& name);

// A replay from its lines (REQUIREs that they parse).
replay::Replay parse_lines(const std::vector<std::string>& lines);

// A copy of a built program where every uid can run it (as root each bot of tiers basic and strict
// has a uid of its own, which cannot reach a build folder inside a private one, e.g. a 0700
// `mktemp -d` clone), and the random bot's.
std::string reachable(const std::string& built);
std::string reachable_random_bot();

// Writes to `file` a Python bot (protocol 1) that plays the first legal action of every request:
// `on_start` runs once before it reads, `on_hello` before its ready, `on_request` before each
// answer (Python statements, one per line, without indentation; the json, os, sys and time
// modules are imported).
void write_first_legal_bot(const std::filesystem::path& file, const std::string& on_start = "",
                           const std::string& on_hello = "", const std::string& on_request = "");

// Reads the replay at `path` (REQUIREd to read), checks that it verifies (its message shown) and
// returns it.
replay::Replay require_verifies(const std::filesystem::path& path);

// A file's bytes ("" when it cannot be read).
std::string read_file(const std::filesystem::path& p);

// A short Stella Quest match between random bots played by the referee binary (`referee play
// --out dir`, seed 3, no sandbox); the replay's path. `dir` is created when missing.
std::filesystem::path play_replay(const std::filesystem::path& dir);

// <test output>/<group>/<name>, emptied and created.
std::filesystem::path fresh_dir(const std::string& group, const std::string& name);

// Options for a match in the test output folder; every bot gets a unique marker in its
// environment so that leftover processes can be found (see leftover_processes).
match::Options options(std::vector<std::string> bots, std::uint64_t seed, const std::string& stem);
// A bot of a match or a league from its command line (parsed as the CLI parses --bot; a command
// that does not parse throws: a test's own mistake).
match::BotSpec bot_spec(const std::string& command, const std::string& name = "");

// Run options for a league in `out`: this referee for the re-run commands, the current folder,
// PATH and a UTF-8 locale for the bots.
league::RunOptions league_options(const std::filesystem::path& out);

// Processes still alive (or zombies) carrying the marker of `o`, and zombie children of ours.
std::vector<std::string> leftover_processes(const match::Options& o);

}  // namespace arena::testing
