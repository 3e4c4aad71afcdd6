#pragma once
// What hostile_bot's attacks share (hostile_bot.cpp: attacks on processes and limits;
// isolation.cpp: attacks on what a bot may see and keep).

#include <unistd.h>

#include <cerrno>
#include <cstdint>
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

// The one report line, written at once.
inline void report(const Options& o, const std::string& fields) {
  bot_io::write_line(STDERR_FILENO, "HOSTILE " + o.mode + " " + fields);
}

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

}  // namespace hostile
