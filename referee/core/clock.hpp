#pragma once
// The wall-clock time as text, for file names and replay headers. Only the match, league and CLI
// layers use it: games have no clock.

#include <string>

namespace arena {

// The current UTC time formatted by strftime, e.g. "%Y%m%d-%H%M%S" or "%Y-%m-%dT%H:%M:%SZ".
std::string utc_now(const char* strftime_format);

}  // namespace arena
