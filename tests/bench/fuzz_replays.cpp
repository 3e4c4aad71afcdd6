// fuzz_replays [COUNT] [SEED] [REPLAY...]: COUNT mutated replays (default 100000) read the way
// `referee verify`, `show` and `html` read them (html on one case in 20), each in its own child
// process so that a crash or a hang is counted, not fatal. The base replays are the given files,
// else one game of every registered game played in-process. Prints the count of each exit class,
// of crashes and hangs, and the cases that gave an internal error (replay the case with its seed).
// Not a test: it never fails on speed; its exit code is 1 when a crash, hang or internal error
// was seen.

#include <fmt/format.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "referee/games/game.hpp"
#include "tests/render/replay_fuzz.hpp"

using namespace arena;

namespace {

constexpr int kHangSeconds = 60;
constexpr long kBatch = 500;     // cases per child process
constexpr long kHtmlEvery = 20;  // one case in this many goes through `referee html` as well

std::uint64_t case_seed(std::uint64_t seed, long i) {
  return seed * 1000003ULL + static_cast<std::uint64_t>(i);
}

std::string read_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

int main(int argc, char** argv) {
  const long count = argc > 1 ? std::atol(argv[1]) : 100000;
  const std::uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
  std::vector<std::string> bases;
  for (int i = 3; i < argc; ++i) bases.push_back(read_file(argv[i]));
  if (bases.empty()) {
    for (const games::Game* g : games::all_games()) bases.push_back(fuzz::played_replay(g->info().name, seed));
  }
  std::array<long, 4> classes{};
  long crashes = 0, hangs = 0;
  std::map<std::string, long> internal_kinds;
  // Cases run in batches in a child process, one report line each; when the child dies, the case
  // it was on is a crash (or a hang) and the next batch starts after it.
  long next = 0;
  while (next < count) {
    const long batch_end = std::min(count, next + kBatch);
    int pipe_fds[2];
    if (::pipe(pipe_fds) != 0) return 2;
    const pid_t child = ::fork();
    if (child < 0) return 2;
    if (child == 0) {
      ::close(pipe_fds[0]);
      for (long i = next; i < batch_end; ++i) {
        ::alarm(kHangSeconds);
        std::string what;
        const std::string text =
            fuzz::mutate(bases[static_cast<std::size_t>(i) % bases.size()], case_seed(seed, i), what);
        const fuzz::Reading r = fuzz::read_like_the_cli(text, i % kHtmlEvery == 0);
        std::string message = r.message.substr(0, 300);
        std::replace(message.begin(), message.end(), '\n', ' ');
        const std::string report = fmt::format("{} {} {}\n", i, static_cast<int>(r.outcome), message);
        (void)!::write(pipe_fds[1], report.data(), report.size());
      }
      ::_exit(0);
    }
    ::close(pipe_fds[1]);
    std::string buffer;
    char chunk[4096];
    long last_done = next - 1;
    for (ssize_t n; (n = ::read(pipe_fds[0], chunk, sizeof chunk)) > 0;) {
      buffer.append(chunk, static_cast<std::size_t>(n));
      for (std::size_t eol; (eol = buffer.find('\n')) != std::string::npos; buffer.erase(0, eol + 1)) {
        std::istringstream line(buffer.substr(0, eol));
        long i = 0;
        int cls = 0;
        line >> i >> cls;
        std::string message;
        std::getline(line, message);
        last_done = i;
        classes[static_cast<std::size_t>(cls)]++;
        if (static_cast<fuzz::Outcome>(cls) == fuzz::Outcome::internal && internal_kinds[message]++ < 3) {
          std::string what;
          (void)fuzz::mutate(bases[static_cast<std::size_t>(i) % bases.size()], case_seed(seed, i), what);
          fmt::print("INTERNAL case {} (seed {}): {}:{}\n", i, case_seed(seed, i), what, message);
        }
        if ((i + 1) % 10000 == 0) fmt::print("... {} cases\n", i + 1);
        std::fflush(stdout);
      }
    }
    ::close(pipe_fds[0]);
    int status = 0;
    ::waitpid(child, &status, 0);
    next = last_done + 1;
    if (next < batch_end) {  // the child died on case `next`
      const bool hang = WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM;
      (hang ? hangs : crashes)++;
      std::string what;
      (void)fuzz::mutate(bases[static_cast<std::size_t>(next) % bases.size()], case_seed(seed, next), what);
      fmt::print("{} case {} (seed {}): {} [status {}]\n", hang ? "HANG" : "CRASH", next, case_seed(seed, next), what,
                 status);
      ++next;
    }
  }
  fmt::print("{} mutated replays of {} base replays (seed {}):\n", count, bases.size(), seed);
  for (int c = 0; c < 4; ++c)
    fmt::print("  {:<26} {}\n", enum_name(static_cast<fuzz::Outcome>(c)), classes[static_cast<std::size_t>(c)]);
  fmt::print("  {:<26} {}\n  {:<26} {}\n", "crashes", crashes, "hangs", hangs);
  return crashes + hangs + classes[static_cast<std::size_t>(fuzz::Outcome::internal)] == 0 ? 0 : 1;
}
