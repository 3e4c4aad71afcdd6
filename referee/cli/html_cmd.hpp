#pragma once
// `referee html REPLAY [-o FILE]`: the match as one self-contained web page (docs/cli.md).

#include <CLI/CLI.hpp>
#include <filesystem>
#include <string>
#include <string_view>

#include "referee/core/result.hpp"

namespace arena::cli {

struct HtmlArgs {
  std::string replay;
  std::string out;            // default: the replay's path with the extension .html
  bool share_output = false;  // the page 0644 instead of 0600
};

CLI::App* add_html(CLI::App& app, HtmlArgs& args);
int run_html(const HtmlArgs& args);

// The REPLAY argument of `command` (html, show, verify) when it names a folder (a league's, logs/):
// an error that says a replay file is wanted and, when the folder holds replays (replays/*.jsonl
// or *.jsonl, told by their header line), names the newest one to give instead; the caller exits
// with kUsage. Anything else (a file, a missing path) passes: reading the replay reports it.
Status replay_file_argument(const std::filesystem::path& replay, std::string_view command);

}  // namespace arena::cli
