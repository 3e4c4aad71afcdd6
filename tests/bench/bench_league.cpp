// Leagues as `referee league` runs them (league::run: journal, replays, logs; then the standings
// streamed from the journal and written out as text), in this process, between two copies of the
// instant C++ random bot at Stellar: throughput and memory.
//
//   bench_league RANDOM_BOT [MATCHES=1000] [LARGE=10000]
//
// Prints the machine (cores, CPU model, load); the peak resident memory of this process
// (getrusage ru_maxrss) after a league of 1,000 matches and after one of LARGE matches (0: not
// run), and the growth between them, measured first so that nothing else has raised the peak;
// then, for each sandbox tier (none, and strict when the machine offers it) and concurrency
// (-j1, -j2), with bots started per match and kept across matches (--reuse), a league of MATCHES
// matches: matches/s, decisions/s, and the time the standings took. Everything it writes is under logs/bench_league/
// (run it from the project root), removed at the end. A benchmark prints figures; it never fails on speed.

#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "referee/bots/process.hpp"
#include "referee/bots/sandbox.hpp"
#include "referee/league/journal.hpp"
#include "referee/league/league.hpp"
#include "referee/league/standings.hpp"

using namespace arena;
namespace fs = std::filesystem;

namespace {

// One configuration of the league runner; every league below is one of them.
struct Setup {
  std::string sandbox_label;
  bots::SandboxPolicy sandbox;
  int concurrency = 1;
  bool reuse = false;  // league --reuse: bots kept across matches
};

struct Measured {
  std::uint64_t matches = 0;
  std::uint64_t decisions = 0;
  double seconds = 0;            // league::run
  double standings_seconds = 0;  // standings_from_journal and the three writers
  long peak_kb = 0;              // ru_maxrss after the league and its standings
  long hwm_kb = 0;               // VmHWM then (also counts a resident set not yet folded into ru_maxrss)
  long rss_kb = 0;               // VmRSS then
};

long peak_rss_kb() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;  // KiB on Linux
}

long status_kb(const std::string& key) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key + ":", 0) == 0) return std::atol(line.c_str() + key.size() + 1);
  }
  return -1;
}

std::string first_line_of(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (key.empty()) return line;
    if (line.rfind(key, 0) == 0) {
      const auto colon = line.find(':');
      return colon == std::string::npos ? line : line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  }
  return "unknown";
}

double mb(long kb) {
  return static_cast<double>(kb) / 1024.0;
}

[[noreturn]] void die(const std::string& what) {
  fmt::print(stderr, "bench_league: {}\n", what);
  std::exit(3);
}

// A league of `matches` matches (duplicate deals: two legs each) in a fresh folder under `root`,
// then its standings from the journal, as the CLI writes them; the folder is removed afterwards.
Measured run_league(const std::string& bot, const Setup& setup, std::uint64_t matches, const fs::path& root) {
  static int number = 0;
  const fs::path out = root / fmt::format("league-{}", ++number);
  league::LeagueSpec spec;
  const auto command = match::BotCommand::parse(bot);
  if (!command) die(command.error());
  spec.bots.push_back({*command, "random-a"});
  spec.bots.push_back({*command, "random-b"});
  spec.deals = std::max<std::uint64_t>(1, matches / 2);
  spec.concurrency = setup.concurrency;
  spec.seed = 2026;
  spec.limits.init_ms = 20000;  // a loaded machine
  auto normalized = league::normalize(spec);
  if (!normalized) die(normalized.error());

  Measured m;
  league::RunOptions o;
  o.out = out;
  o.working_dir = fs::current_path();
  const char* path = std::getenv("PATH");
  o.env = {fmt::format("PATH={}", path != nullptr ? path : "/usr/bin:/bin"), "LANG=C.UTF-8"};
  o.sandbox = setup.sandbox;
  o.reuse = setup.reuse;
  o.on_match = [&](const league::MatchRecord& r, std::uint64_t, std::uint64_t) {  // called under the runner's lock
    for (const league::SeatRecord& s : r.seats) m.decisions += s.decision_ms.size();
  };
  const auto t0 = std::chrono::steady_clock::now();
  auto outcome = league::run(*normalized, o);
  const auto t1 = std::chrono::steady_clock::now();
  if (!outcome) die(outcome.error());
  if (!outcome->error.empty() || outcome->interrupted) die(fmt::format("the league stopped: {}", outcome->error));
  m.matches = outcome->played_now;
  auto standings = league::standings_from_journal(out / "results.jsonl", {"random-a", "random-b"});
  if (!standings) die(standings.error());
  const std::size_t bytes = league::standings_json(*standings).dump(2).size() +
                            league::standings_markdown(*standings).size() +
                            league::junit_xml(*standings, "bench").size() + league::standings_table(*standings).size();
  if (bytes == 0 || standings->matches != static_cast<int>(m.matches)) die("the standings do not count the league");
  const auto t2 = std::chrono::steady_clock::now();
  m.seconds = std::chrono::duration<double>(t1 - t0).count();
  m.standings_seconds = std::chrono::duration<double>(t2 - t1).count();
  m.peak_kb = peak_rss_kb();
  m.hwm_kb = status_kb("VmHWM");
  m.rss_kb = status_kb("VmRSS");
  std::error_code ec;
  fs::remove_all(out, ec);
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fmt::print(stderr, "usage: bench_league RANDOM_BOT [matches=1000] [large=10000]\n");
    return 2;
  }
  bots::init_process_wide();
  const std::string bot = fs::absolute(argv[1]).string();
  const std::uint64_t matches = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1000;
  const std::uint64_t large = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 10000;
  if (matches < 2) die("give at least 2 matches");
  // Run-time files go under logs/ (run from the project root), removed at the end.
  const fs::path root = fs::path("logs") / "bench_league";
  fs::remove_all(root);
  fs::create_directories(root);

  fmt::print("machine: {} cores online (nproc), {}; load average {}\n", ::sysconf(_SC_NPROCESSORS_ONLN),
             first_line_of("/proc/cpuinfo", "model name"), first_line_of("/proc/loadavg", ""));
  fmt::print("league: Stellar, 2 x {} (instant random bot), duplicate deals, freeze while idle\n\n", bot);
  std::fflush(stdout);

  auto none = bots::resolve_policy(bots::Tier::none, {}, true);
  if (!none) die(none.error());
  std::vector<Setup> tiers = {{"none", *none, 1}};
  auto strict = bots::resolve_policy(bots::Tier::strict, {}, true);
  if (strict) tiers.push_back({"strict", *strict, 1});

  // Memory first, so that no other league has raised the peak: 1,000 matches, then `large`.
  fmt::print("memory (sandbox none, -j2; peak RSS = getrusage ru_maxrss after the league and its standings)\n");
  Setup memory = tiers.front();
  memory.concurrency = 2;
  const auto print_memory = [](const Measured& m) {
    fmt::print(
        "  {:>7} matches: peak RSS {:5.1f} MB (VmHWM {:5.1f} MB), RSS now {:5.1f} MB; {:.1f} matches/s, "
        "standings {:.2f} s\n",
        m.matches, mb(m.peak_kb), mb(m.hwm_kb), mb(m.rss_kb), static_cast<double>(m.matches) / m.seconds,
        m.standings_seconds);
    std::fflush(stdout);  // a league takes a while: each line as soon as it is measured
  };
  const Measured small = run_league(bot, memory, 1000, root);
  print_memory(small);
  if (large > 0) {
    const Measured big = run_league(bot, memory, large, root);
    print_memory(big);
    const long growth = big.peak_kb - small.peak_kb;
    const std::uint64_t more = big.matches > small.matches ? big.matches - small.matches : 1;
    fmt::print("  growth of the peak from {} to {} matches: {:+.1f} MB ({:+.3f} KB per extra match; x{:.2f})\n",
               small.matches, big.matches, mb(growth), static_cast<double>(growth) / static_cast<double>(more),
               static_cast<double>(big.peak_kb) / static_cast<double>(small.peak_kb));
    std::fflush(stdout);
  }

  fmt::print("\nthroughput ({} matches per league)\n", matches);
  fmt::print("  {:<8} {:>3} {:>6} {:>10} {:>12} {:>16} {:>8} {:>12}\n", "sandbox", "-j", "reuse", "matches/s",
             "decisions/s", "decisions/match", "wall s", "standings s");
  for (const Setup& tier : tiers) {
    for (bool reuse : {false, true}) {
      for (int j : {1, 2}) {
        Setup s = tier;
        s.concurrency = j;
        s.reuse = reuse;
        const Measured m = run_league(bot, s, matches, root);
        fmt::print("  {:<8} {:>3} {:>6} {:>10.1f} {:>12.0f} {:>16.1f} {:>8.2f} {:>12.2f}\n", s.sandbox_label, j,
                   reuse ? "yes" : "no", static_cast<double>(m.matches) / m.seconds,
                   static_cast<double>(m.decisions) / m.seconds,
                   static_cast<double>(m.decisions) / static_cast<double>(m.matches), m.seconds, m.standings_seconds);
        std::fflush(stdout);
      }
    }
  }
  if (!strict) fmt::print("strict: unavailable ({})\n", strict.error());
  fs::remove_all(root);
  return 0;
}
