#include "referee/bots/affinity.hpp"

#include <sched.h>
#include <unistd.h>

#include <vector>

namespace arena::bots {

int pin_thread_to_cpu(std::size_t index) {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  // The process's set is its main thread's (thread id = process id), which nothing pins.
  if (::sched_getaffinity(::getpid(), sizeof allowed, &allowed) != 0) return -1;
  std::vector<std::size_t> cpus;
  for (std::size_t cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &allowed)) cpus.push_back(cpu);
  }
  if (cpus.empty()) return -1;
  const std::size_t cpu = cpus[index % cpus.size()];
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  return ::sched_setaffinity(0, sizeof one, &one) == 0 ? static_cast<int>(cpu) : -1;  // 0: the calling thread
}

}  // namespace arena::bots
