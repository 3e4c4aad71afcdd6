#include "tests/command.hpp"

#include <signal.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <iterator>

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

bool process_alive(pid_t pid) {
  if (::kill(pid, 0) != 0) return false;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string all((std::istreambuf_iterator<char>(stat)), {});
  const auto close = all.rfind(')');
  return close == std::string::npos || all.size() < close + 2 || all[close + 2] != 'Z';
}

}  // namespace arena::testing
