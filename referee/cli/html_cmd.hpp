#pragma once
// `referee html REPLAY [-o FILE]`: the match as one self-contained web page (docs/cli.md).

#include <CLI/CLI.hpp>
#include <string>

namespace arena::cli {

struct HtmlArgs {
  std::string replay;
  std::string out;            // default: the replay's path with the extension .html
  bool share_output = false;  // the page 0644 instead of 0600
};

CLI::App* add_html(CLI::App& app, HtmlArgs& args);
int run_html(const HtmlArgs& args);

}  // namespace arena::cli
