// What one decision costs the referee, against the raw pipe round trip measured in the same run.
//
//   bench_referee RANDOM_BOT GREEDY_BOT [matches=200] [none|basic|strict]
//
// Prints, all from one run, one Stellar match at a time:
//   - the request sizes of whole random games in protocol 1 and 2 (median, p90, max);
//   - the raw pipe round trip of a median protocol-2 request through `cat`: the floor;
//   - for random vs random and greedy vs random (the C++ sample bots, which speak protocol 2), each
//     with bots started per match and with bots kept across matches (match::KeptBot, what `league
//     --reuse` does): matches/s, decisions/s, the decision round trip inside matches, and the
//     referee's own CPU per decision (getrusage of this process, every thread, over the matches,
//     divided by the decisions) with its ratio to the raw round trip.
// Run-time files go under logs/bench_referee/ (run it from the project root) and are removed.

#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "protocol/codec.hpp"
#include "referee/bots/process.hpp"
#include "referee/core/rng.hpp"
#include "referee/games/game.hpp"
#include "referee/match/match.hpp"
#include "referee/replay/replay.hpp"

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

// Every request of `games` random Stellar games, as protocol 1 and protocol 2 lines: their sizes.
void request_sizes(int games, std::vector<double>& v1, std::vector<double>& v2) {
  const games::Game& game = *games::find_game("stellar");
  for (int g = 0; g < games; ++g) {
    auto state = std::move(game.new_game(nullptr, static_cast<std::uint64_t>(g), 2)).value();
    Rng chooser(static_cast<std::uint64_t>(g) + 1);
    for (std::int64_t id = 1; !state->is_over(); ++id) {
      const Seat seat = state->to_act();
      std::string view, legal;
      state->write_view_v2(seat, view);
      state->write_legal(legal);
      v2.push_back(static_cast<double>(protocol::request_line(2, id, seat, view, legal, 1000, 0).size()));
      v1.push_back(static_cast<double>(
          protocol::request_line(1, id, seat, games::dump_line(state->view(seat)), legal, 1000, 0).size()));
      state->apply_index(chooser.below(state->legal_count()));
    }
  }
}

std::vector<double> raw_round_trips(std::size_t line_bytes, int n) {
  bots::SpawnOptions spawn;
  spawn.argv = {"/bin/cat"};
  spawn.working_dir = fs::current_path();
  spawn.env = {"PATH=/usr/bin:/bin"};
  spawn.stderr_path = fs::path("logs") / "bench_referee" / "cat.stderr.log";
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
  return fmt::format("{} CPUs online, {}", ::sysconf(_SC_NPROCESSORS_ONLN), model);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    fmt::print(stderr, "usage: bench_referee RANDOM_BOT GREEDY_BOT [matches] [none|basic|strict]\n");
    return 2;
  }
  bots::init_process_wide();
  const int matches = argc > 3 ? std::atoi(argv[3]) : 200;
  const auto tier = bots::parse_tier(argc > 4 ? argv[4] : "none");
  if (!tier) {
    fmt::print(stderr, "unknown sandbox tier \"{}\" (none, basic or strict)\n", argv[4]);
    return 2;
  }
  auto policy = bots::resolve_policy(*tier, bots::SandboxLimits{}, false);
  if (!policy) {
    fmt::print(stderr, "sandbox {}: {}\n", bots::tier_name(*tier), policy.error());
    return 3;
  }
  const fs::path out = fs::path("logs") / "bench_referee";
  fs::create_directories(out);
  fmt::print("machine: {}; sandbox {}\n", machine(), bots::tier_name(*tier));

  std::vector<double> v1, v2;
  request_sizes(200, v1, v2);
  fmt::print(
      "Stellar request bytes (200 random games): protocol 1 median {:.0f}, p90 {:.0f}, max {:.0f}; "
      "protocol 2 median {:.0f}, p90 {:.0f}, max {:.0f}\n",
      percentile(v1, 0.5), percentile(v1, 0.9), percentile(v1, 1), percentile(v2, 0.5), percentile(v2, 0.9),
      percentile(v2, 1));
  const auto raw = raw_round_trips(static_cast<std::size_t>(percentile(v2, 0.5)), 5000);
  const double raw_median = percentile(raw, 0.5);
  fmt::print("raw pipe round trip of a {:.0f}-byte line through cat: median {:.1f} us, p99 {:.1f} us\n",
             percentile(v2, 0.5), raw_median, percentile(raw, 0.99));

  auto run = [&](const std::string& a, const std::string& b, const char* label, bool reuse) {
    std::vector<match::KeptBot> kept(2);
    std::vector<double> step_us;
    std::int64_t decisions = 0;
    const Cpu cpu0 = cpu_of_this_process();
    const std::vector<match::BotSpec> bots = {{match::BotCommand::parse(a).value(), ""},
                                              {match::BotCommand::parse(b).value(), ""}};  // the bench's own
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < matches; ++i) {
      match::Options o;
      o.seed = static_cast<std::uint64_t>(i);
      o.bots = bots;
      o.log_dir = out;
      o.log_stem = fmt::format("m{}", i);
      o.replay_path = out / fmt::format("m{}.jsonl", i);
      o.working_dir = fs::current_path();
      o.env = {"PATH=/usr/bin:/bin"};
      o.grace = std::chrono::milliseconds(50);
      o.sandbox = *policy;
      if (reuse) o.kept = {&kept[0], &kept[1]};
      auto m = match::play(o);
      if (!m || m->end != replay::End::finished) {
        fmt::print(stderr, "match {} did not finish: {}\n", i, m ? replay::to_json(*m).dump() : m.error());
        std::exit(1);
      }
      decisions += m->decisions;
      for (const auto& seat : m->seats) {
        for (double ms : seat.decision_ms) step_us.push_back(ms * 1000);
      }
    }
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const Cpu cpu1 = cpu_of_this_process();
    const double per_decision = 1e6 / static_cast<double>(decisions);
    const double user_us = (cpu1.user - cpu0.user) * per_decision,
                 system_us = (cpu1.system - cpu0.system) * per_decision;
    const double cpu_us = user_us + system_us;
    for (auto& k : kept) {
      if (k.process) k.process->shutdown(std::chrono::milliseconds(200));
    }
    fmt::print("{} ({}): {} matches in {:.2f} s = {:.1f} matches/s, {:.0f} decisions/s ({:.1f} decisions/match)\n",
               label, reuse ? "bots kept across matches" : "bots started per match", matches, wall, matches / wall,
               static_cast<double>(decisions) / wall, static_cast<double>(decisions) / matches);
    fmt::print("  decision round trip (request written -> reply read): median {:.1f} us, p99 {:.1f} us\n",
               percentile(step_us, 0.5), percentile(step_us, 0.99));
    fmt::print(
        "  referee CPU per decision (all its threads, spawning included): {:.1f} us ({:.1f} user + {:.1f} "
        "system) = {:.1f}x the raw round trip\n",
        cpu_us, user_us, system_us, cpu_us / raw_median);
  };
  run(argv[1], argv[1], "random vs random", false);
  run(argv[1], argv[1], "random vs random", true);
  run(argv[2], argv[1], "greedy vs random", false);
  run(argv[2], argv[1], "greedy vs random", true);
  fs::remove_all(out);
  return 0;
}
