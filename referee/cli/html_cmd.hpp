#pragma once
// `referee html REPLAY [-o FILE]`: the match as one self-contained web page; `referee html
// LEAGUE_FOLDER [-o FILE]`: the league's page (standings, crosstable, pairs, faults, every match)
// with a viewer page beside each replay, up to --match-pages of them (docs/cli.md).

#include <CLI/CLI.hpp>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "referee/cli/common.hpp"
#include "referee/core/result.hpp"
#include "referee/replay/replay.hpp"

namespace arena::cli {

// How many matches of a league get a viewer page by default (about 0.7 MB and 50 ms each for
// Stellar): the faulted ones first, then in index order; the others link to their replay.
inline constexpr std::size_t kDefaultMatchPages = 500;

struct HtmlArgs {
  std::string replay;         // a replay file, or a league's folder (league.json and results.jsonl)
  std::string out;            // default: the replay's path with .html; a league's: FOLDER/league.html
  bool share_output = false;  // the pages 0644 instead of 0600
  std::size_t match_pages = kDefaultMatchPages;  // a league's: viewer pages written at most
};

RunCommand add_html(CLI::App& command);
int run_html(const HtmlArgs& args);

// Whether `dir` is a league's folder: it holds league.json and results.jsonl.
bool is_league_folder(const std::filesystem::path& dir);

// The REPLAY argument of `command` (html, show, verify) when it names a folder (a league's, logs/):
// an error that says a replay file is wanted and, when the folder holds replays (replays/*.jsonl
// or *.jsonl, told by their header line), names the newest one to give instead; the caller exits
// with kUsage. Anything else (a file, a missing path) passes: reading the replay reports it.
Status replay_file_argument(const std::filesystem::path& replay, std::string_view command);

// The replay file `referee <command>` was given (show, html, verify), read. When it cannot be, the
// reason has been said and `exit` is the code to return: kUsage for a folder (above), kBadReplay
// for a file that is not a readable replay.
std::optional<replay::Replay> read_replay_argument(const std::filesystem::path& path, std::string_view command,
                                                   int& exit);

}  // namespace arena::cli
