#pragma once
// The machine a run is on, as records and workers name it.

#include <string>

namespace arena {

// The host's name (gethostname), "unknown" when it has none.
std::string host_name();
// The CPU's model name (/proc/cpuinfo), "unknown" when it is not there.
std::string cpu_model();

}  // namespace arena
