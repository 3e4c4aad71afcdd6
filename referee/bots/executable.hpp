#pragma once
// Where a bot's program and the files its arguments name are on the host, found before the
// spawn (process.cpp) with the PATH and the working directory the bot will get.

#include <filesystem>
#include <string>
#include <vector>

#include "referee/core/result.hpp"

namespace arena::bots {

// The executable for argv[0]: a path with a '/' is taken relative to `base` (the bots' working
// directory, which a resumed league takes from its league.json; empty: the referee's own); a
// bare name is looked up in the PATH the bot will get (`env`'s PATH=, else the system's).
Result<std::string> resolve_exe(const std::string& name, const std::vector<std::string>& env,
                                const std::filesystem::path& base);

// Arguments naming an existing file relative to `base` (the referee's directory when empty),
// made absolute: a sandboxed bot runs in its private directory, where "bots/x.py" would not
// resolve. An argument counts when it contains a '/' or names a regular file.
std::vector<std::string> absolute_file_arguments(const std::vector<std::string>& args,
                                                 const std::filesystem::path& base);

}  // namespace arena::bots
