#pragma once
// Runs a shell command as a test's user would (popen): its exit code and what it printed on
// stdout (the command line sends stderr where it wants it, e.g. 2>&1); and whether a process a
// test started still runs.

#include <sys/types.h>

#include <string>

namespace arena::testing {

struct Command {
  int exit_code = -1;  // -1 when it could not start or was killed by a signal
  std::string out;
};
Command run(const std::string& shell_command);

// True while `pid` exists and is not a zombie (one that ended and waits to be reaped counts as gone).
bool process_alive(pid_t pid);

}  // namespace arena::testing
