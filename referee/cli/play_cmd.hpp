#pragma once
// `referee play`: one match between bot executables; its result as JSON on stdout, a summary on
// stderr, the replay and each seat's stderr log in --out (docs/cli.md).

#include <CLI/CLI.hpp>

#include "referee/cli/common.hpp"

namespace arena::cli {

RunCommand add_play(CLI::App& command);

}  // namespace arena::cli
