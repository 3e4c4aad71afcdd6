#pragma once
// Raw descriptor I/O shared by the test bots (faulty_bot, fault_injector, hostile_bot): whole
// writes, lines read from a descriptor with our own buffer (so poll() on the descriptor tells the
// truth, which it does not under std::cin's buffering), and sleeping. Header-only, POSIX and the
// standard library only, like every sample bot.

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <thread>

namespace bot_io {

// Writes all of `size` bytes to `fd`; false once the reader is gone (or any other error).
inline bool write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

// `line` plus a newline, in one write when it fits the pipe (so lines of several writers never mix).
inline bool write_line(int fd, std::string_view line) {
  std::string data;
  data.reserve(line.size() + 1);
  data.append(line).push_back('\n');
  return write_all(fd, data.data(), data.size());
}

inline void sleep_ms(int ms) {
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

[[noreturn]] inline void sleep_forever() {
  for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
}

// Lines from one descriptor. `fill` reads once (blocking unless the descriptor is non-blocking);
// `pop` hands out complete lines, without the newline.
class LineReader {
 public:
  enum class Fill { data, again, eof };

  explicit LineReader(int fd) : fd_(fd) {}

  int fd() const { return fd_; }
  bool eof() const { return eof_; }
  bool has_line() const { return buffer_.find('\n') != std::string::npos; }
  // Bytes received after the last complete line.
  const std::string& pending() const { return buffer_; }

  Fill fill() {
    if (eof_) return Fill::eof;
    char chunk[1 << 16];
    for (;;) {
      const ssize_t n = ::read(fd_, chunk, sizeof chunk);
      if (n > 0) {
        buffer_.append(chunk, static_cast<std::size_t>(n));
        return Fill::data;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return Fill::again;
      eof_ = true;  // end of file, or an error that ends the stream just as well
      return Fill::eof;
    }
  }

  bool pop(std::string& line) {
    const std::size_t nl = buffer_.find('\n');
    if (nl == std::string::npos) return false;
    line.assign(buffer_, 0, nl);
    buffer_.erase(0, nl + 1);
    return true;
  }

  // The next line, waiting for it; false at end of input.
  bool next(std::string& line) {
    while (!pop(line)) {
      if (fill() == Fill::eof) return false;
    }
    return true;
  }

 private:
  int fd_;
  bool eof_ = false;
  std::string buffer_;
};

// True when `fd` has input (or end of input) right now, without waiting.
inline bool readable_now(int fd) {
  pollfd p{fd, POLLIN, 0};
  return ::poll(&p, 1, 0) > 0;
}

}  // namespace bot_io
