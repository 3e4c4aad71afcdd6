#pragma once
// The `referee play` command that plays one match again alone, from the options it was played
// with: the game, seed, config, bots (command, name, seat config, address space), time limits,
// grace, the sandbox in force and its limits, and the --env values given. A league prints and
// journals it for every match; validate for every fault.

#include <filesystem>
#include <string>
#include <vector>

#include "referee/match/match.hpp"

namespace arena::match {

struct RerunContext {
  std::string referee;  // the referee executable
  // The folder the bot commands are relative to: the command starts with `cd` there (none: empty).
  std::filesystem::path working_dir;
  std::vector<std::string> env;  // the --env values (KEY=VALUE) given, not the whole environment
};

// One shell line; every word the user or a bot chose is shell_quote'd.
std::string play_command(const Options& match, const RerunContext& context);

}  // namespace arena::match
