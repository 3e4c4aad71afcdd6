#pragma once
// A request to stop, made from a signal handler or another thread, that every wait of the referee
// sees at once: a flag to test between steps, and a descriptor that becomes readable for good
// when the request is made, so a poll() on a bot's pipe wakes too (bots/process.hpp). One
// StopSignal serves a whole run (`play`, `league`, `validate`): matches in flight end as
// interrupted within a poll's wake-up, whatever their bots do.

#include <atomic>
#include <chrono>

namespace arena {

class StopSignal {
 public:
  StopSignal();  // an eventfd; -1 (flag only) if the kernel refuses one
  ~StopSignal();
  StopSignal(const StopSignal&) = delete;
  StopSignal& operator=(const StopSignal&) = delete;

  // Async-signal-safe. `signal` is the signal that asked (SIGINT, SIGTERM, SIGHUP), 0 for
  // another reason; the first request's is kept.
  void request(int signal = 0) noexcept;
  bool requested() const noexcept { return requested_.load(std::memory_order_acquire); }
  int signal() const noexcept { return signal_.load(std::memory_order_acquire); }
  // Readable (POLLIN) once requested, and stays so: never read it.
  int fd() const noexcept { return fd_; }
  // Waits up to `limit` for a request; whether there is one.
  bool wait_for(std::chrono::milliseconds limit) const noexcept;

  // Routes SIGINT, SIGTERM and SIGHUP to `stop` (which must outlive the process's use of it). A
  // second SIGINT ends the referee at once (the default action), for an impatient Ctrl-C Ctrl-C;
  // SIGTERM and SIGHUP, which schedulers send to every process of a job, possibly more than once,
  // only ever ask for the orderly stop.
  static void install_handlers(StopSignal& stop);

 private:
  int fd_ = -1;
  std::atomic<bool> requested_{false};
  std::atomic<int> signal_{0};
};

// The exit status of a run stopped by `signal`: 128 + the signal (130 SIGINT, 143 SIGTERM,
// 129 SIGHUP), as shells report a process killed by it; 130 for a stop without a signal.
int interrupted_exit_code(int signal) noexcept;

}  // namespace arena
