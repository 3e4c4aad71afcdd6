#pragma once
// `referee verify REPLAY`: re-simulates a replay without bots and checks every step (docs/cli.md).

#include <CLI/CLI.hpp>

#include "referee/cli/common.hpp"

namespace arena::cli {

RunCommand add_verify(CLI::App& command);

}  // namespace arena::cli
