#pragma once
// The referee's version (CMakeLists.txt's project version), recorded in every replay header and
// printed by `referee --version`.

#include <string_view>

namespace arena {

std::string_view referee_version();  // "0.1.0"

}  // namespace arena
