// hostile_bot's attacks on other processes: what /proc shows of them (proc-snoop), a descendant
// that tries to outlive its match (escape), ptrace of the referee and the other bot (ptrace).
// The modes and their reports are listed in hostile_bot.cpp.

#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <new>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "../faulty/bot_io.hpp"
#include "hostile.hpp"

using nlohmann::json;
using namespace hostile;

namespace {

std::string read_comm(const std::string& pid) {
  std::ifstream in("/proc/" + pid + "/comm");
  std::string comm;
  std::getline(in, comm);
  return comm;
}

// The processes an arena match consists of (the referee, the bots, the test programs).
bool arena_comm(const std::string& comm) {
  static const std::set<std::string> names = {"random_bot",     "greedy_bot",  "faulty_bot",
                                              "fault_injector", "hostile_bot", "referee"};
  return names.count(comm) > 0 || comm.rfind("test_", 0) == 0;
}

// The numeric entries of /proc other than ours.
std::vector<std::string> other_pids() {
  std::vector<std::string> pids;
  const std::string self = std::to_string(::getpid());
  DIR* dir = ::opendir("/proc");
  if (dir == nullptr) return pids;
  while (const dirent* e = ::readdir(dir)) {
    const std::string name = e->d_name;
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos || name == self) continue;
    pids.push_back(name);
  }
  ::closedir(dir);
  return pids;
}

// The parent field of /proc/PID/stat (after the parenthesised comm, which may hold spaces).
pid_t read_ppid(const std::string& pid) {
  std::ifstream in("/proc/" + pid + "/stat");
  std::string stat;
  std::getline(in, stat);
  const std::size_t close = stat.rfind(')');
  if (close == std::string::npos || close + 4 >= stat.size()) return -1;
  return static_cast<pid_t>(std::strtol(stat.c_str() + close + 4, nullptr, 10));
}

// This match: our parent (the referee, or the namespace's init) and all its descendants but us,
// as far as we can see them. A PID namespace shows nothing else; without one the machine's other
// processes (other matches, other people's work) are out of scope and never touched.
std::vector<std::string> match_pids() {
  const pid_t root = ::getppid();
  const std::vector<std::string> all = other_pids();
  if (root == 0) return all;  // we are the first process of our PID namespace
  std::set<pid_t> scope = {root};
  for (bool grew = true; grew;) {
    grew = false;
    for (const std::string& pid : all) {
      const pid_t p = static_cast<pid_t>(std::stol(pid));
      if (scope.count(p) == 0 && scope.count(read_ppid(pid)) > 0) grew = scope.insert(p).second;
    }
  }
  std::vector<std::string> out;
  for (const std::string& pid : all) {
    if (scope.count(static_cast<pid_t>(std::stol(pid))) > 0) out.push_back(pid);
  }
  return out;
}

std::string read_link(const std::string& path) {
  char buf[256];
  const ssize_t n = ::readlink(path.c_str(), buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
}

// The pipe descriptors of one process: (fd number, "pipe:[inode]").
std::vector<std::pair<std::string, std::string>> pipes_of(const std::string& pid, bool& listed) {
  std::vector<std::pair<std::string, std::string>> out;
  const std::string fd_dir = "/proc/" + pid + "/fd";
  DIR* dir = ::opendir(fd_dir.c_str());
  listed = dir != nullptr;
  if (dir == nullptr) return out;
  while (const dirent* e = ::readdir(dir)) {
    if (e->d_name[0] == '.') continue;
    const std::string target = read_link(fd_dir + "/" + e->d_name);
    if (target.rfind("pipe:[", 0) == 0) out.emplace_back(e->d_name, target);
  }
  ::closedir(dir);
  return out;
}

// Seizes `pid` and lets it go again; 0 on success, else the errno of PTRACE_SEIZE.
int seize_and_release(pid_t pid) {
  if (::ptrace(PTRACE_SEIZE, pid, nullptr, nullptr) != 0) return errno;
  // A seized tracee runs on, but a signal it gets would now stop it for us: stop it once on
  // purpose, wait for that stop (1 s at most), and detach, handing back a signal that came first.
  ::ptrace(PTRACE_INTERRUPT, pid, nullptr, nullptr);
  int pass_on = 0;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  for (;;) {
    int status = 0;
    const pid_t r = ::waitpid(pid, &status, __WALL | WNOHANG);
    if (r == pid && WIFSTOPPED(status)) {
      if ((status >> 16) != PTRACE_EVENT_STOP) pass_on = WSTOPSIG(status);
      break;
    }
    if (r < 0 || std::chrono::steady_clock::now() > give_up) break;
    bot_io::sleep_ms(1);
  }
  ::ptrace(PTRACE_DETACH, pid, nullptr, reinterpret_cast<void*>(static_cast<std::intptr_t>(pass_on)));
  return 0;
}

}  // namespace

namespace hostile {

void proc_snoop(const Options& o) {
  std::set<std::string> own;  // the pipes of our own stdin, stdout and stderr
  for (int fd = 0; fd <= 2; ++fd) own.insert(read_link("/proc/self/fd/" + std::to_string(fd)));
  const std::string forged = R"({"type":"action","protocol":1,"id":1,"action":null})"
                             "\n";
  const std::vector<std::string> all = other_pids();
  const std::vector<std::string> scope = match_pids();
  int listed = 0, pipes = 0;
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> in_match;  // pid -> its pipes
  std::set<std::string> outside;  // pipes also held by a process outside the match: never touched
  for (const std::string& pid : all) {
    bool readable = false;
    auto found = pipes_of(pid, readable);
    listed += readable ? 1 : 0;
    pipes += static_cast<int>(found.size());
    if (std::find(scope.begin(), scope.end(), pid) != scope.end()) {
      in_match[pid] = std::move(found);
    } else {
      for (const auto& [fd, pipe] : found) outside.insert(pipe);
    }
  }
  int opened = 0, writable = 0, injected = 0, skipped = 0;
  std::set<std::string> visited;  // a pipe shows up in several processes: each is tried once
  std::vector<std::string> targets;
  for (const auto& [pid, found] : in_match) {
    for (const auto& [fd, pipe] : found) {
      if (own.count(pipe) > 0 || !visited.insert(pipe).second) continue;
      if (outside.count(pipe) > 0) {
        ++skipped;
        continue;
      }
      const std::string path = "/proc/" + pid + "/fd/" + fd;
      const int r = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
      const int w = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
      if (w >= 0) {
        ++writable;
        if (::write(w, forged.data(), forged.size()) == static_cast<ssize_t>(forged.size())) ++injected;
      }
      if (r >= 0 || w >= 0) {
        ++opened;
        if (targets.size() < 6) targets.push_back(pid + ":" + fd + ":" + (r >= 0 ? "r" : "") + (w >= 0 ? "w" : ""));
      }
      if (r >= 0) ::close(r);
      if (w >= 0) ::close(w);
    }
  }
  std::string list;
  for (const std::string& t : targets) list += (list.empty() ? "" : ",") + t;
  report(o, "seen_pids=" + std::to_string(all.size()) + " fd_dirs_read=" + std::to_string(listed) +
                " match_pids=" + std::to_string(scope.size()) + " pipes_seen=" + std::to_string(pipes) +
                " foreign_pipes_opened=" + std::to_string(opened) + " write_ends_opened=" + std::to_string(writable) +
                " injected=" + std::to_string(injected) + " shared_outside=" + std::to_string(skipped) +
                " targets=" + (list.empty() ? "-" : list));
}

void escape(const Options& o) {
  struct Outcome {
    int setsid_errno;
    int fork_errno;
    pid_t pid;
  };
  int channel[2];
  if (::pipe2(channel, O_CLOEXEC) != 0) {
    report(o, "tag=" + o.tag + " setsid=skipped fork=" + errno_name(errno) + " pid=0");
    return;
  }
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(channel[0]);
    Outcome out{0, 0, 0};
    if (::setsid() < 0) out.setsid_errno = errno;
    const pid_t escaped = ::fork();
    if (escaped == 0) {
      ::prctl(PR_SET_NAME, o.tag.c_str(), 0, 0, 0);
      ::close(channel[1]);  // named: the bot may answer (and be frozen) now
      ::signal(SIGTERM, SIG_IGN);
      ::signal(SIGHUP, SIG_IGN);
      const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(o.lifetime_s);
      while (std::chrono::steady_clock::now() < end) bot_io::sleep_ms(1000);
      ::_exit(0);
    }
    if (escaped < 0) out.fork_errno = errno;
    out.pid = escaped;
    bot_io::write_all(channel[1], reinterpret_cast<const char*>(&out), sizeof out);
    ::_exit(0);
  }
  ::close(channel[1]);
  if (child < 0) {
    const int err = errno;
    ::close(channel[0]);
    report(o, "tag=" + o.tag + " setsid=skipped fork=" + errno_name(err) + " pid=0");
    return;
  }
  Outcome out{0, ECHILD, 0};
  std::size_t got = 0;
  while (got < sizeof out) {
    const ssize_t n = ::read(channel[0], reinterpret_cast<char*>(&out) + got, sizeof out - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  // End of file once the escaped grandchild has its name too (it holds the pipe until then).
  for (char drain = 0;;) {
    const ssize_t n = ::read(channel[0], &drain, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
  }
  ::close(channel[0]);
  ::waitpid(child, nullptr, 0);
  report(o, "tag=" + o.tag + " setsid=" + (out.setsid_errno == 0 ? std::string("ok") : errno_name(out.setsid_errno)) +
                " fork=" + (out.fork_errno == 0 ? std::string("ok") : errno_name(out.fork_errno)) +
                " pid=" + std::to_string(out.pid));
}

void ptrace_others(const Options& o) {
  const pid_t parent = ::getppid();
  std::string parent_result = "none";
  if (parent != 0) {
    const int err = seize_and_release(parent);
    parent_result = err == 0 ? "ok" : errno_name(err);
  }
  int tried = 0, ok = 0;
  std::string ok_pids;
  for (const std::string& pid : match_pids()) {
    const pid_t p = static_cast<pid_t>(std::stol(pid));
    if (p == parent || !arena_comm(read_comm(pid))) continue;
    ++tried;
    if (seize_and_release(p) == 0) {
      ++ok;
      ok_pids += (ok_pids.empty() ? "" : ",") + pid;
    }
  }
  report(o, "parent=" + parent_result + " ppid=" + std::to_string(parent) + " others_ok=" + std::to_string(ok) +
                " others_tried=" + std::to_string(tried) + " ok_pids=" + (ok_pids.empty() ? "-" : ok_pids));
}

}  // namespace hostile
