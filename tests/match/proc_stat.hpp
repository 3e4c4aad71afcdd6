#pragma once
// A process's state letter and parent pid, read from the text of its /proc/<pid>/stat: the
// fields after the command name in parentheses (which may itself hold spaces or parentheses).
// Shared by the leftover-process checks of the match harness and the stress test.

#include <optional>
#include <sstream>
#include <string>

namespace arena::testing {

struct ProcStat {
  char state = 0;  // 'R', 'S', 'Z', ...
  long ppid = 0;
};

// nullopt when the text holds no command name (the process ended while it was read).
inline std::optional<ProcStat> parse_proc_stat(const std::string& stat) {
  const auto close = stat.rfind(')');
  if (close == std::string::npos || close + 2 > stat.size()) return std::nullopt;
  std::istringstream rest(stat.substr(close + 2));
  ProcStat out;
  rest >> out.state >> out.ppid;
  return out;
}

}  // namespace arena::testing
