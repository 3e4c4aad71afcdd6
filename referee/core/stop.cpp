#include "referee/core/stop.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <thread>

namespace arena {

namespace {

std::atomic<StopSignal*> g_installed{nullptr};  // lock-free: read in the signal handler

extern "C" void on_stop_signal(int sig) {
  StopSignal* const stop = g_installed.load();
  if (stop == nullptr) return;
  if (sig == SIGINT && stop->requested()) {
    // Ctrl-C a second time: the user wants out now. The bots die with us (parent-death signal);
    // a journal line cut in the middle is repaired by --resume.
    std::signal(SIGINT, SIG_DFL);
    ::raise(SIGINT);
    return;
  }
  stop->request(sig);
}

}  // namespace

StopSignal::StopSignal() : fd_(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {}

StopSignal::~StopSignal() {
  StopSignal* self = this;
  g_installed.compare_exchange_strong(self, nullptr);
  if (fd_ >= 0) ::close(fd_);
}

void StopSignal::request(int signal) noexcept {
  int none = 0;
  signal_.compare_exchange_strong(none, signal, std::memory_order_acq_rel);
  requested_.store(true, std::memory_order_release);
  if (fd_ >= 0) {
    const std::uint64_t one = 1;
    // A full counter (never, at one write per request) would only mean it is readable already.
    [[maybe_unused]] const auto written = ::write(fd_, &one, sizeof one);
  }
}

bool StopSignal::wait_for(std::chrono::milliseconds limit) const noexcept {
  const auto until = std::chrono::steady_clock::now() + limit;
  pollfd p{fd_, POLLIN, 0};
  while (!requested()) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(until - std::chrono::steady_clock::now()).count();
    if (left <= 0) break;
    if (fd_ < 0) {  // no eventfd: look at the flag now and then
      std::this_thread::sleep_for(std::chrono::milliseconds(std::min<std::int64_t>(left, 10)));
    } else if (::poll(&p, 1, static_cast<int>(left)) < 0 && errno != EINTR) {
      break;
    }
  }
  return requested();
}

void StopSignal::install_handlers(StopSignal& stop) {
  g_installed.store(&stop);
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(sig, &action, nullptr);
}

int interrupted_exit_code(int signal) noexcept {
  return signal > 0 && signal < 64 ? 128 + signal : 130;
}

}  // namespace arena
