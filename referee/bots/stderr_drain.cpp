#include "referee/bots/stderr_drain.hpp"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "referee/bots/sandbox_detail.hpp"

namespace arena::bots {

namespace {

constexpr std::size_t kChunk = 64 * 1024;
constexpr std::size_t kCatchUp = 1 << 20;  // bytes take() reads itself, at most

}  // namespace

using detail::close_fd;

void BotProcess::StderrDrain::run() {
  std::vector<char> buf(kChunk);
  for (;;) {
    pollfd p[2] = {{fd, POLLIN, 0}, {wake[0], POLLIN, 0}};
    if (::poll(p, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (p[1].revents != 0) {
      // Only stop() ends the drain: a byte someone else wrote into the wake pipe (a bot that
      // opened the referee's descriptors through /proc, tier none) is read and ignored.
      char junk[64];
      while (::read(wake[0], junk, sizeof junk) > 0) {
      }
      if (stopping.load()) {
        drain_available(buf);  // what is already there, then stop
        return;
      }
    }
    if (p[0].revents != 0 && !drain_available(buf)) return;
  }
}

bool BotProcess::StderrDrain::drain_available(std::vector<char>& buf) {
  for (;;) {
    wanted.wait(true);  // take() first
    std::unique_lock lock(mu);
    const ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n > 0) {
      consume(std::string_view(buf.data(), static_cast<std::size_t>(n)));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return n < 0 && errno == EAGAIN;
  }
}

void BotProcess::StderrDrain::consume(std::string_view bytes) {
  const std::uint64_t before = total.fetch_add(bytes.size());
  if (log >= 0 && before < cap) {
    const std::size_t room = static_cast<std::size_t>(std::min<std::uint64_t>(cap - before, bytes.size()));
    std::size_t done = 0;
    while (done < room) {
      const ssize_t w = ::write(log, bytes.data() + done, room - done);
      if (w <= 0) break;
      done += static_cast<std::size_t>(w);
    }
  }
  ring.append(bytes.size() > kStderrRing ? bytes.substr(bytes.size() - kStderrRing) : bytes);
  if (ring.size() > kStderrRing) ring.erase(0, ring.size() - kStderrRing);
  if (window.size() < kStderrSinceBytes) window.append(bytes.substr(0, kStderrSinceBytes - window.size()));
}

BotProcess::StderrSince BotProcess::StderrDrain::take() {
  StderrSince out;
  wanted.store(true);
  {
    std::lock_guard lock(mu);
    char chunk[kChunk];
    std::size_t read = 0;
    while (fd >= 0 && read < kCatchUp) {
      const ssize_t n = ::read(fd, chunk, std::min(sizeof chunk, kCatchUp - read));
      if (n > 0) {
        consume(std::string_view(chunk, static_cast<std::size_t>(n)));
        read += static_cast<std::size_t>(n);
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      break;  // empty (EAGAIN), EOF or an error: the drain thread sees it too
    }
    const std::uint64_t now = total.load();
    out.bytes = now - window_start;
    out.head.swap(window);
    window.clear();
    window_start = now;
  }
  wanted.store(false);
  wanted.notify_all();
  return out;
}

void BotProcess::StderrDrain::stop() {
  if (thread.joinable()) {
    stopping.store(true);
    const char c = 0;
    (void)!::write(wake[1], &c, 1);
    thread.join();
  }
  close_fd(fd);
  close_fd(log);
  close_fd(wake[0]);
  close_fd(wake[1]);
}

}  // namespace arena::bots
