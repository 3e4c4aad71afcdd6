#pragma once
// What hostile_bot's attacks share (hostile_bot.cpp: attacks on limits; processes.cpp: on other
// processes; isolation.cpp: on what a bot may see and keep; memory.cpp, channels.cpp).

#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "../faulty/bot_io.hpp"

namespace hostile {

struct Options {
  std::string mode;
  std::uint64_t seed = 0;
  int at = 1;
  int limit = 3000;
  int mb = -1;  // -1: the mode's default
  int port = -1;
  std::string tag;
  bool keep = false;
  int lifetime_s = 600;
  int procs = 4;  // mem-tree
};

inline std::string errno_name(int err) {
  if (err == 0) return "none";
  if (const char* name = ::strerrorname_np(err)) return name;
  return "errno" + std::to_string(err);
}

inline std::string result_of(int rc) {
  return rc == 0 ? "ok" : errno_name(errno);
}

// A value for the report: no spaces, and bytes outside a safe set as %XX.
inline std::string encode(const std::string& text, std::size_t cap = 300) {
  std::string out;
  for (const char ch : text.substr(0, cap)) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) != 0 || std::strchr("/._:=,-+", c) != nullptr) {
      out += static_cast<char>(c);
    } else {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", c);
      out += hex;
    }
  }
  return out.empty() ? "-" : out;
}

// The one report line, written at once.
inline void report(const Options& o, const std::string& fields) {
  bot_io::write_line(STDERR_FILENO, "HOSTILE " + o.mode + " " + fields);
}

// processes.cpp
void proc_snoop(const Options& o);
void escape(const Options& o);
void ptrace_others(const Options& o);

// isolation.cpp
void leak(const Options& o);
void scratch(const Options& o);
void scratch_peek(const Options& o);

// memory.cpp
void mem_tree(const Options& o);
void shared_anonymous(const Options& o, bool one);
void memfd(const Options& o);
void memfd_mapped(const Options& o);
void tmpfs_files(const Options& o);
void sysv(const Options& o);

// channels.cpp. `view` is the request's view as text (what the bot must keep to itself).
std::uint32_t secret_of(const std::string& view);
void lock_send(const Options& o, const std::string& view);
void lock_watch(const Options& o);
void lock_receive(const Options& o);
void leave(const Options& o, const std::string& view);
void find_left(const Options& o);
void host_socket(const Options& o);
void proc_view(const Options& o);
void host_details(const Options& o);

}  // namespace hostile
