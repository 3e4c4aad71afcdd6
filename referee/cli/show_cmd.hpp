#pragma once
// `referee show REPLAY [--step N] [--seat S] [--color auto|always|never]`: the table of a replay at
// any step, drawn in the terminal; with --seat, exactly what that seat's bot was sent; with
// --request N [--seat S], the request line decision N answered, exactly as sent (docs/cli.md).

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "referee/cli/common.hpp"

namespace arena::cli {

struct ShowArgs {
  std::string replay;
  std::int64_t step = -1;     // -1: the end
  int seat = -1;              // -1: the whole table
  std::int64_t request = -1;  // --request N: print the request line decision N answered
  std::string color = "auto";
};

RunCommand add_show(CLI::App& command);
int run_show(const CLI::App& command, const ShowArgs& args);

}  // namespace arena::cli
