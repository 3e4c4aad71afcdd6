#pragma once
// A bot's stderr, drained on its own thread (BotProcess's internals: process.cpp and
// stderr_drain.cpp only; not for other layers).
//
// The drain runs for the bot's whole life: the first `cap` bytes go to the log file, the last few
// KiB stay in memory for fault records (stderr_tail), the first few KiB since the last take()
// are kept for the replay's step (stderr_since_last), the rest is counted and dropped. A wake-up
// pipe ends it at teardown even if a stray descendant keeps stderr open.
//
// `mu` is held while a chunk is read from the pipe and consumed, so that the referee's thread can
// read the rest of the pipe itself (take()) and know that every byte the bot wrote before is
// counted. While take() waits for `mu` (`wanted`), the drain thread does not take it again: a
// bot that writes without pause cannot keep the referee out.

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "referee/bots/process.hpp"

namespace arena::bots {

inline constexpr std::size_t kStderrRing = 16 * 1024;  // the stderr tail kept in memory

struct BotProcess::StderrDrain {
  int fd = -1;  // the pipe's read end, non-blocking
  int log = -1;
  int wake[2] = {-1, -1};
  std::uint64_t cap = 0;
  std::atomic<std::uint64_t> total{0};
  std::atomic<bool> stopping{false};
  std::atomic<bool> wanted{false};  // take() waits for `mu`
  mutable std::mutex mu;
  std::string ring;
  std::string window;              // the first bytes since window_start (kStderrSinceBytes at most)
  std::uint64_t window_start = 0;  // `total` at the last take()
  std::thread thread;

  void run();  // the thread's body, until stop() or EOF
  // On the referee's thread: what was written since the last call, the pipe read up to now (at
  // most 1 MiB by this call).
  StderrSince take();
  void stop();  // ends the thread (after reading what is already there), closes the descriptors

 private:
  bool drain_available(std::vector<char>& buf);  // reads until the pipe is empty; false at EOF
  void consume(std::string_view bytes);          // under `mu`
};

}  // namespace arena::bots
