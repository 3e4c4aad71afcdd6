#include "tests/command.hpp"

#include <sys/wait.h>

#include <cstdio>

namespace arena::testing {

Command run(const std::string& shell_command) {
  Command c;
  FILE* pipe = popen(shell_command.c_str(), "r");
  if (pipe == nullptr) return c;
  char buf[4096];
  std::size_t n = 0;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) c.out.append(buf, n);
  const int status = pclose(pipe);
  c.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return c;
}

}  // namespace arena::testing
