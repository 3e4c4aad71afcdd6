// What one decision costs the referee, for every registered game, side by side with the raw pipe
// round trip measured in the same run.
//
//   bench_referee RANDOM_BOT [matches=150] [seconds=6] [--no-freeze-idle] [game...]
//
// Prints, all from one run, one match at a time, the instant C++ random bot (a sample bot, which
// speaks protocol 2 with view deltas and plays every game) on every seat:
//   - the machine (cores, CPU model, load average);
//   - per game, the protocol-2 request sizes of whole random games (median, p90, max), whole and
//     as view deltas;
//   - the raw pipe round trip of a median Stellar request through `cat`: the floor;
//   - one table: for every game, in tiers none and strict (strict when this machine offers it),
//     with bots started per match and kept across matches (match::KeptBot, what `league --reuse`
//     does): matches/s, decisions/s, the decision round trip inside matches (median), and the
//     referee's own CPU per decision (getrusage of this process, every thread, over the matches,
//     divided by the decisions; spawning included), user + system;
//   - per game and tier, what starting the bots costs per match: the referee's CPU and the wall
//     time per match with bots started, minus the same with bots kept.
// Each configuration plays `matches` matches or for `seconds`, whichever ends first (at least 5
// matches), so the whole run stays within a couple of minutes on two cores. Idle bots are frozen
// as the CLI does by default (--no-freeze-idle: not). Run-time files go under logs/bench_referee/
// (run it from the project root) and are removed. A benchmark prints figures; it never fails on
// speed.

#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "referee/bots/process.hpp"
#include "referee/games/game.hpp"
#include "referee/match/match.hpp"
#include "referee/match/view_delta.hpp"
#include "referee/replay/replay.hpp"
#include "tests/bench/random_requests.hpp"

using namespace arena;
namespace fs = std::filesystem;

namespace {

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(p * static_cast<double>(v.size() - 1))];
}

// This process's CPU time so far, in seconds: user and system (the kernel's pipe, poll and
// process work done for it).
struct Cpu {
  double user = 0, system = 0;
};
Cpu cpu_of_this_process() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return {static_cast<double>(u.ru_utime.tv_sec) + static_cast<double>(u.ru_utime.tv_usec) / 1e6,
          static_cast<double>(u.ru_stime.tv_sec) + static_cast<double>(u.ru_stime.tv_usec) / 1e6};
}

// The protocol-2 request line of every decision of `games` random games of `game`: their sizes,
// with the whole view and with view deltas (what the random bot asks for: match::ViewDelta).
struct RequestSizes {
  std::vector<double> whole, delta;
};
RequestSizes request_sizes(const games::Game& game, int games) {
  RequestSizes sizes;
  std::string view, delta, removed;
  for (int g = 0; g < games; ++g) {
    std::map<Seat, match::ViewDelta> deltas;
    testing::random_game_requests(
        game, static_cast<std::uint64_t>(g), 2,
        [&](const std::string& line, games::GameState& state, Seat seat, std::int64_t id) {
          sizes.whole.push_back(static_cast<double>(line.size()));
          view.clear();
          state.write_view_v2(seat, view);
          deltas[seat].write(view, delta, removed);
          const auto legal_at = line.find(R"("legal":)") + 8;
          const auto legal_end = line.find(R"(,"protocol":)");
          const std::string delta_line =
              protocol::request_line(2, id, seat, delta, std::string_view(line).substr(legal_at, legal_end - legal_at),
                                     1000, 0, true, removed);
          sizes.delta.push_back(static_cast<double>(delta_line.size()));
        });
  }
  return sizes;
}

std::vector<double> raw_round_trips(std::size_t line_bytes, int n, const fs::path& out) {
  bots::SpawnOptions spawn;
  spawn.argv = {"/bin/cat"};
  spawn.working_dir = fs::current_path();
  spawn.env = {"PATH=/usr/bin:/bin"};
  spawn.stderr_path = out / "cat.stderr.log";
  auto cat = bots::BotProcess::spawn(spawn);
  if (!cat) {
    fmt::print(stderr, "cannot start cat: {}\n", cat.error());
    std::exit(3);
  }
  const std::string line(line_bytes, 'x');
  std::vector<double> us;
  for (int i = 0; i < n + 200; ++i) {
    const auto t0 = bots::Clock::now();
    const auto deadline = t0 + std::chrono::seconds(5);
    (*cat)->write_line(line, deadline);
    auto r = (*cat)->read_line(deadline);
    if (r.status != bots::ReadStatus::line) std::exit(3);
    if (i >= 200) us.push_back(std::chrono::duration<double, std::micro>(bots::Clock::now() - t0).count());
  }
  (*cat)->shutdown(std::chrono::milliseconds(100));
  return us;
}

std::string machine() {
  std::ifstream in("/proc/cpuinfo");
  std::string line, model = "unknown CPU";
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      model = line.substr(line.find(':') + 2);
      break;
    }
  }
  double load[3] = {0, 0, 0};
  ::getloadavg(load, 3);
  return fmt::format("{} CPUs online, {}; load average {:.2f} {:.2f} {:.2f}", ::sysconf(_SC_NPROCESSORS_ONLN), model,
                     load[0], load[1], load[2]);
}

// What one configuration measured.
struct Measured {
  int matches = 0;
  std::int64_t decisions = 0;
  double wall = 0;                 // seconds
  double user_us = 0, sys_us = 0;  // referee CPU per decision
  double cpu_per_match_ms = 0;     // referee CPU per match
  double step_median_us = 0;       // decision round trip
  double idle_cpu_ms = 0;          // a bot's CPU while idle, per match (frozen or not)
  double decisions_per_s() const { return wall > 0 ? static_cast<double>(decisions) / wall : 0; }
};

struct Config {
  std::string random_bot;
  int matches = 150;
  double seconds = 6;
  fs::path out;
};

Measured run(const Config& c, const std::string& game, const bots::SandboxPolicy& policy, bool reuse) {
  const games::Game& g = *games::find_game(game);
  std::vector<match::KeptBot> kept(static_cast<std::size_t>(g.info().min_seats));
  std::vector<match::BotSpec> bots;
  for (std::size_t i = 0; i < kept.size(); ++i) bots.emplace_back(match::BotCommand::parse(c.random_bot).value());
  std::vector<double> step_us;
  Measured m;
  const Cpu cpu0 = cpu_of_this_process();
  const auto t0 = std::chrono::steady_clock::now();
  const auto until = t0 + std::chrono::duration<double>(c.seconds);
  for (int i = 0; i < c.matches && (i < 5 || std::chrono::steady_clock::now() < until); ++i) {
    match::Options o;
    o.game = game;
    o.seed = static_cast<std::uint64_t>(i);
    o.bots = bots;
    o.log_dir = c.out;
    o.log_stem = fmt::format("m{}", i);
    o.replay_path = c.out / fmt::format("m{}.jsonl", i);
    o.working_dir = fs::current_path();
    o.env = {"PATH=/usr/bin:/bin"};
    o.grace = std::chrono::milliseconds(50);
    o.sandbox = policy;
    if (reuse) {
      for (auto& k : kept) o.kept.push_back(&k);
    }
    auto r = match::play(o);
    if (!r || r->end != replay::End::finished) {
      fmt::print(stderr, "{} match {} did not finish: {}\n", game, i, r ? replay::to_json(*r).dump() : r.error());
      std::exit(1);
    }
    m.decisions += r->decisions;
    ++m.matches;
    for (const auto& seat : r->seats) {
      for (double ms : seat.decision_ms) step_us.push_back(ms * 1000);
      m.idle_cpu_ms += seat.idle_cpu_ms / static_cast<double>(r->seats.size());
    }
  }
  m.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const Cpu cpu1 = cpu_of_this_process();
  for (auto& k : kept) {
    if (k.process) k.process->shutdown(std::chrono::milliseconds(200));
  }
  const double per_decision = 1e6 / static_cast<double>(std::max<std::int64_t>(1, m.decisions));
  m.user_us = (cpu1.user - cpu0.user) * per_decision;
  m.sys_us = (cpu1.system - cpu0.system) * per_decision;
  m.cpu_per_match_ms = (cpu1.user - cpu0.user + cpu1.system - cpu0.system) * 1000 / m.matches;
  m.step_median_us = percentile(step_us, 0.5);
  m.idle_cpu_ms /= m.matches;
  fs::remove_all(c.out);
  fs::create_directories(c.out);
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fmt::print(stderr, "usage: bench_referee RANDOM_BOT [matches] [seconds] [--no-freeze-idle] [game...]\n");
    return 2;
  }
  bots::init_process_wide();
  Config c;
  c.random_bot = argv[1];
  bool freeze_idle = true;
  std::vector<std::string> numbers, game_names;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--no-freeze-idle") {
      freeze_idle = false;
    } else if (!a.empty() && std::isdigit(static_cast<unsigned char>(a[0])) != 0) {
      numbers.push_back(a);
    } else if (games::find_game(a) != nullptr) {
      game_names.push_back(a);
    } else {
      fmt::print(stderr, "unknown game or option \"{}\" (games: {})\n", a, games::game_names());
      return 2;
    }
  }
  if (!numbers.empty()) c.matches = std::max(5, std::atoi(numbers[0].c_str()));
  if (numbers.size() > 1) c.seconds = std::atof(numbers[1].c_str());
  if (game_names.empty()) {
    for (const games::Game* g : games::all_games()) game_names.push_back(g->info().name);
  }
  c.out = fs::path("logs") / "bench_referee";
  fs::create_directories(c.out);

  struct TierRun {
    std::string name;
    bots::SandboxPolicy policy;
  };
  std::vector<TierRun> tiers;
  for (bots::Tier t : {bots::Tier::none, bots::Tier::strict}) {
    auto policy = bots::resolve_policy(t, bots::SandboxLimits{}, freeze_idle);
    if (!policy) {
      fmt::print("sandbox {}: not measured ({})\n", enum_name(t), policy.error());
      continue;
    }
    tiers.push_back({std::string(enum_name(t)), *policy});
  }
  fmt::print("machine: {}\n", machine());
  fmt::print("random bot on every seat, one match at a time, idle bots {}; up to {} matches or {:.0f} s each\n",
             freeze_idle ? "frozen (the CLI's default)" : "not frozen", c.matches, c.seconds);

  double stellar_median = 0;
  for (const std::string& game : game_names) {
    const auto sizes = request_sizes(*games::find_game(game), 100);
    if (game == "stellar" || stellar_median == 0) stellar_median = percentile(sizes.whole, 0.5);
    fmt::print(
        "{} request bytes (protocol 2, 100 random games): median {:.0f}, p90 {:.0f}, max {:.0f}; "
        "with view deltas: median {:.0f}, p90 {:.0f}, max {:.0f}\n",
        game, percentile(sizes.whole, 0.5), percentile(sizes.whole, 0.9), percentile(sizes.whole, 1),
        percentile(sizes.delta, 0.5), percentile(sizes.delta, 0.9), percentile(sizes.delta, 1));
  }
  const auto raw = raw_round_trips(static_cast<std::size_t>(stellar_median), 5000, c.out);
  const double raw_median = percentile(raw, 0.5);
  fmt::print("raw pipe round trip of a {:.0f}-byte line through cat: median {:.1f} us, p99 {:.1f} us\n\n",
             stellar_median, raw_median, percentile(raw, 0.99));

  fmt::print("{:<13} {:<7} {:<8} {:>8} {:>10} {:>12} {:>9} {:>17} {:>10}\n", "game", "sandbox", "bots", "matches",
             "matches/s", "decisions/s", "rtt us", "CPU us/decision", "x raw rtt");
  struct Row {
    std::string game, tier;
    Measured started, kept;
  };
  std::vector<Row> rows;
  for (const std::string& game : game_names) {
    for (const TierRun& t : tiers) {
      Row row{game, t.name, {}, {}};
      for (bool reuse : {false, true}) {
        const Measured m = run(c, game, t.policy, reuse);
        (reuse ? row.kept : row.started) = m;
        const double cpu = m.user_us + m.sys_us;
        fmt::print("{:<13} {:<7} {:<8} {:>8} {:>10.1f} {:>12.0f} {:>9.1f} {:>7.1f} ({:.0f}+{:.0f}) {:>10.1f}\n", game,
                   t.name, reuse ? "kept" : "started", m.matches, m.matches / m.wall, m.decisions_per_s(),
                   m.step_median_us, cpu, m.user_us, m.sys_us, cpu / raw_median);
        std::fflush(stdout);
      }
      rows.push_back(std::move(row));
    }
  }
  fmt::print(
      "\nstarting the bots, per match (started minus kept): referee CPU, wall time; and a bot's CPU while idle, per "
      "match (started, kept)\n");
  for (const Row& r : rows) {
    const double wall_started = r.started.wall / r.started.matches * 1000,
                 wall_kept = r.kept.wall / r.kept.matches * 1000;
    fmt::print("{:<13} {:<7} {:>6.2f} ms CPU, {:>6.2f} ms wall; idle CPU {:.3f}, {:.3f} ms\n", r.game, r.tier,
               r.started.cpu_per_match_ms - r.kept.cpu_per_match_ms, wall_started - wall_kept, r.started.idle_cpu_ms,
               r.kept.idle_cpu_ms);
  }
  fmt::print("\nstrict against none, decisions/s with bots kept:");
  for (const Row& r : rows) {
    if (r.tier != "strict") continue;
    for (const Row& n : rows) {
      if (n.game == r.game && n.tier == "none") {
        fmt::print(" {} {:.2f}x", r.game, n.kept.decisions_per_s() / std::max(1.0, r.kept.decisions_per_s()));
      }
    }
  }
  fmt::print("\n");
  fs::remove_all(c.out);
  return 0;
}
