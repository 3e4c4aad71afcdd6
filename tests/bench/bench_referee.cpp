// Referee overhead per decision, against the raw pipe round trip, and complete Stellar matches
// per second between the two C++ sample bots, one match at a time.
//
//   bench_referee RANDOM_BOT GREEDY_BOT [matches=200]
//
// Prints (all in one run): the pipe round trip of a request-sized line through `cat` (median,
// p99); the decision round trip inside real matches (request written -> reply read, which also
// contains the bot's own parsing); the wall time per decision of whole matches; and the referee's
// own share = wall time per decision - median decision round trip.

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "referee/bots/process.hpp"
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

std::vector<double> raw_round_trips(std::size_t line_bytes, int n) {
  bots::SpawnOptions spawn;
  spawn.argv = {"/bin/cat"};
  spawn.working_dir = fs::current_path();
  spawn.env = {"PATH=/usr/bin:/bin"};
  spawn.stderr_path = fs::path("logs") / "bench_referee_cat.stderr.log";
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

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    fmt::print(stderr, "usage: bench_referee RANDOM_BOT GREEDY_BOT [matches]\n");
    return 2;
  }
  bots::init_process_wide();
  const int matches = argc > 3 ? std::atoi(argv[3]) : 200;
  // Run-time files go under logs/ (run from the project root), removed at the end.
  const fs::path out = fs::path("logs") / "bench_referee";
  fs::create_directories(out);

  auto run = [&](const std::string& a, const std::string& b, const char* label) {
    std::vector<double> step_us;
    std::int64_t decisions = 0;
    std::size_t request_bytes = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < matches; ++i) {
      match::Options o;
      o.seed = static_cast<std::uint64_t>(i);
      o.bots = {{i % 2 ? b : a, ""}, {i % 2 ? a : b, ""}};
      o.log_dir = out;
      o.log_stem = fmt::format("m{}", i);
      o.replay_path = out / fmt::format("m{}.jsonl", i);
      o.working_dir = fs::current_path();
      o.env = {"PATH=/usr/bin:/bin"};
      o.grace = std::chrono::milliseconds(50);
      auto m = match::play(o);
      if (!m || m->end != replay::End::finished) {
        fmt::print(stderr, "match {} did not finish: {}\n", i, m ? m->result.dump() : m.error());
        return;
      }
      decisions += m->decisions;
    }
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    // Decision round trips, from the last replay's records and a sample of others.
    for (int i = 0; i < matches; i += std::max(1, matches / 50)) {
      auto r = replay::read(out / fmt::format("m{}.jsonl", i));
      if (!r) continue;
      for (const auto& s : r->steps) {
        step_us.push_back(s.time_ms * 1000);
        request_bytes = std::max(request_bytes, s.view.dump().size());
      }
    }
    const double per_decision_us = wall * 1e6 / static_cast<double>(decisions);
    fmt::print("{}: {} matches in {:.2f} s = {:.1f} matches/s; {:.1f} decisions/match\n", label, matches, wall,
               matches / wall, static_cast<double>(decisions) / matches);
    fmt::print("  decision round trip in matches (request written -> reply read): median {:.1f} us, p99 {:.1f} us\n",
               percentile(step_us, 0.5), percentile(step_us, 0.99));
    fmt::print("  wall time per decision (everything, spawning included): {:.1f} us\n", per_decision_us);
    fmt::print("  referee's own share per decision (wall - median round trip): {:.1f} us\n",
               per_decision_us - percentile(step_us, 0.5));
    const auto raw = raw_round_trips(request_bytes + 600, 5000);
    fmt::print("  raw pipe round trip of a {}-byte line through cat: median {:.1f} us, p99 {:.1f} us\n",
               request_bytes + 600, percentile(raw, 0.5), percentile(raw, 0.99));
  };
  run(argv[1], argv[1], "random vs random (C++)");
  run(argv[2], argv[1], "greedy vs random (C++)");
  fs::remove_all(out);
  return 0;
}
