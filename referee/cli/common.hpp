#pragma once
// What the `referee` subcommands share (main.cpp, validate.cpp): the exit codes, the bots'
// environment, output-name timestamps and the --config reader.

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "referee/core/result.hpp"

namespace arena::cli {

// Documented in docs/cli.md; distinct so scripts and CI can tell them apart.
enum Exit : int {
  kFinished = 0,
  kBotFault = 1,
  kUsage = 2,
  kInternal = 3,
  kDiverged = 4,
  kBadReplay = 5,
  kInterrupted = 130,
};

// UTC now as 20250131-235959, for file and folder names.
std::string timestamp();

// --config takes JSON text or @FILE; empty text is null (the game's defaults).
Result<nlohmann::json> read_config(const std::string& text);

// A bot's whole environment: PATH (the referee's), LANG, HOME (= working_dir), the Python
// settings, then `extra` ("KEY=VALUE"). Nothing else is inherited; the match adds ARENA_SEAT.
std::vector<std::string> bot_environment(const std::filesystem::path& working_dir,
                                         const std::vector<std::string>& extra);

}  // namespace arena::cli
