#pragma once
// Files and folders the referee writes at run time (replays, journals, standings, pages, logs):
// owner-only, 0600 files and 0700 folders, whatever the umask, so that a bot running as another
// uid cannot read a match while it is played. With --share-output the CLI makes them readable by
// others (0644 files, 0755 folders) once the bots of their match are gone (docs/cli.md). This is
// the one place that sets these modes.

#include <sys/types.h>

#include <filesystem>
#include <fstream>
#include <string_view>
#include <vector>

#include "referee/core/result.hpp"

namespace arena::files {

inline constexpr ::mode_t kPrivateFile = 0600;
inline constexpr ::mode_t kPrivateDir = 0700;
inline constexpr ::mode_t kSharedFile = 0644;
inline constexpr ::mode_t kSharedDir = 0755;

// Creates `dir` and its missing parents, each with mode 0700. Returns the folders it created,
// outermost first (none when `dir` existed); folders that existed keep their mode.
Result<std::vector<std::filesystem::path>> make_private_dirs(const std::filesystem::path& dir);

// Opens `path` for writing (`mode`: trunc or app), creating it with mode 0600. An existing
// regular file is set to 0600 as well; anything else (/dev/null, a pipe) keeps its mode.
Result<std::ofstream> open_private(const std::filesystem::path& path,
                                   std::ios::openmode mode = std::ios::out | std::ios::trunc);

// `text` as the whole content of `path`, through open_private; with `share_now` (a file no bot
// runs beside, e.g. the standings) it is then made 0644. The error names the file.
Status write_private(const std::filesystem::path& path, std::string_view text, bool share_now = false);

// Creates `path` exclusively with mode 0600: true when created, false when it already existed.
Result<bool> create_private(const std::filesystem::path& path);

// --share-output: each regular file becomes 0644 and each folder 0755; a path that is missing
// (a log a bot that never started did not get) or of another kind is skipped.
Status share(const std::vector<std::filesystem::path>& paths);

}  // namespace arena::files
