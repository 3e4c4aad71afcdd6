#include "referee/core/stop.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>

namespace arena {

namespace {

StopSignal* g_installed = nullptr;

extern "C" void on_stop_signal(int sig) {
  if (g_installed == nullptr) return;
  if (sig == SIGINT && g_installed->requested()) {
    // Ctrl-C a second time: the user wants out now. The bots die with us (parent-death signal);
    // a journal line cut in the middle is repaired by --resume.
    std::signal(SIGINT, SIG_DFL);
    ::raise(SIGINT);
    return;
  }
  g_installed->request(sig);
}

}  // namespace

StopSignal::StopSignal() : fd_(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {}

StopSignal::~StopSignal() {
  if (g_installed == this) g_installed = nullptr;
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

void StopSignal::install_handlers(StopSignal& stop) {
  g_installed = &stop;
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
