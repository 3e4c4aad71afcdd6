#pragma once
// The referee's version (CMakeLists.txt's project version), recorded in every replay header and
// printed by `referee --version`.

#include <string_view>

namespace arena {

std::string_view referee_version();  // "0.1.0"
// The git commit it was built from: 12 hex digits, "-dirty" when built with uncommitted changes
// to tracked files, or "unknown" (not built from a git checkout).
std::string_view referee_commit();

}  // namespace arena
