#pragma once
// `referee games`: the games this referee plays, with their seat counts and rules revisions.

#include <CLI/CLI.hpp>

#include "referee/cli/common.hpp"

namespace arena::cli {

RunCommand add_games(CLI::App& command);

}  // namespace arena::cli
