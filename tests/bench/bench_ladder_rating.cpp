// bench_ladder_rating [versions] [games] [2|4]: the ladder's rating and matchmaking at scale (default
// 1,000 versions, 1,000,000 games). For 2 and 4 seats: games drawn from the Plackett-Luce model
// (strengths N(0, 1); opponents mostly near in strength, as matchmaking picks them, one table in
// five at random), added to a Rating; a cold fit; refits after 100 new games (also with a new
// version among them); then choose_tables over the versions. Prints the figures; never fails on
// speed.

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

#include "referee/core/rng.hpp"
#include "referee/ladder/matchmaking.hpp"
#include "referee/ladder/rating.hpp"

using namespace arena;
using namespace arena::ladder;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Process CPU seconds (less sensitive than the wall clock to other work on a shared machine).
double cpu_seconds() {
  return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

double uniform(Rng& rng) {
  return (static_cast<double>(rng.next() >> 11) + 0.5) * 0x1.0p-53;
}

std::string peak_memory() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return line.substr(6);
  }
  return " unknown";
}

struct World {
  Rng rng{2026};
  std::vector<double> theta;  // by version id - 1, sorted: id order is strength order
  std::size_t seats = 2;

  // One game: a seed at random; opponents within 30 versions of it (one table in five: anywhere).
  void game(Rating& rating, std::size_t versions) {
    const bool anywhere = rng.below(5) == 0;
    const std::size_t seed = rng.below(versions);
    std::vector<Id> table{static_cast<Id>(seed + 1)};
    while (table.size() < seats) {
      std::size_t v = 0;
      if (anywhere) {
        v = rng.below(versions);
      } else {
        const std::size_t lo = seed >= 30 ? seed - 30 : 0;
        const std::size_t hi = std::min(versions - 1, seed + 30);
        v = lo + rng.below(hi - lo + 1);
      }
      if (std::find(table.begin(), table.end(), static_cast<Id>(v + 1)) == table.end())
        table.push_back(static_cast<Id>(v + 1));
    }
    std::vector<double> perf;
    for (Id v : table) perf.push_back(theta[static_cast<std::size_t>(v - 1)] - std::log(-std::log(uniform(rng))));
    std::vector<int> ranks;
    for (double p : perf)
      ranks.push_back(1 + static_cast<int>(std::count_if(perf.begin(), perf.end(), [&](double q) { return q > p; })));
    if (!rating.add(table, ranks).ok()) std::abort();
  }
};

void bench_rating(std::size_t versions, std::size_t games, std::size_t seats) {
  World w;
  w.seats = seats;
  for (std::size_t v = 0; v < versions; ++v) {
    const double u = (static_cast<double>(v) + 0.5) / static_cast<double>(versions);
    w.theta.push_back(std::sqrt(2.0) * std::erf(2 * u - 1) * 1.2);  // a spread of about +/-300 Elo
  }
  Rating rating;
  auto t = Clock::now();
  for (std::size_t g = 0; g < games; ++g) w.game(rating, versions);
  fmt::print("{} seats: {} versions, {} games added in {:.2f} s\n", seats, versions, games, seconds_since(t));
  t = Clock::now();
  double cpu = cpu_seconds();
  std::vector<VersionRating> board = rating.fit();
  fmt::print("  cold fit: {:.2f} s, {:.2f} s CPU ({} steps, {} factorizations), peak memory{}\n", seconds_since(t),
             cpu_seconds() - cpu, rating.last_fit().steps, rating.last_fit().factorizations, peak_memory());
  double width = 0;
  for (const VersionRating& r : board) width += r.high - r.low;
  fmt::print("  mean 95% interval width {:.1f} Elo, top {} at {:+.1f}\n", width / static_cast<double>(board.size()),
             board.back().version, board.back().rating);
  for (int k = 0; k < 3; ++k) {
    for (int g = 0; g < 100; ++g) w.game(rating, versions);
    t = Clock::now();
    cpu = cpu_seconds();
    board = rating.fit();
    fmt::print("  refit after 100 new games: {:.3f} s, {:.3f} s CPU ({} steps, {} factorizations)\n", seconds_since(t),
               cpu_seconds() - cpu, rating.last_fit().steps, rating.last_fit().factorizations);
  }
  // A new version (the strongest yet) with its first 10 games among the next 100.
  w.theta.push_back(1.5);
  for (int g = 0; g < 90; ++g) w.game(rating, versions);
  for (int g = 0; g < 10; ++g) {
    const Id other = static_cast<Id>(1 + w.rng.below(versions));
    if (!rating
             .add({static_cast<Id>(versions + 1), other}, g % 3 == 0 ? std::vector<int>{2, 1} : std::vector<int>{1, 2})
             .ok())
      std::abort();
  }
  t = Clock::now();
  cpu = cpu_seconds();
  board = rating.fit();
  fmt::print("  refit after 100 new games with a new version: {:.3f} s, {:.3f} s CPU ({} steps, {} factorizations)\n",
             seconds_since(t), cpu_seconds() - cpu, rating.last_fit().steps, rating.last_fit().factorizations);
}

void bench_matchmaking(std::size_t versions) {
  Rng rng(5);
  std::vector<Candidate> active;
  for (std::size_t v = 0; v < versions; ++v) {
    Candidate c;
    c.version = static_cast<Id>(v + 1);
    c.rating = 300 * (uniform(rng) * 2 - 1);
    c.games = 900 + rng.below(200);
    c.uncertainty = v % 50 == 0 ? std::nullopt : std::optional<double>(40 + 20 * uniform(rng));
    c.pending = rng.below(3);
    c.active_since_ms = static_cast<std::int64_t>(rng.below(86'400'000));
    active.push_back(c);
  }
  for (int seats : {2, 4}) {
    for (int tables : {1, 100}) {
      MatchmakingSettings s;
      s.seats = seats;
      s.tables = tables;
      const auto t = Clock::now();
      int calls = 0;
      while (seconds_since(t) < 0.5) {
        if (!choose_tables(active, s, 100'000'000, static_cast<std::uint64_t>(calls)).ok()) std::abort();
        ++calls;
      }
      fmt::print("choose_tables, {} versions, {} seats, {} tables: {:.2f} ms a call\n", versions, seats, tables,
                 1000 * seconds_since(t) / calls);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t versions = argc > 1 ? std::stoul(argv[1]) : 1000;
  const std::size_t games = argc > 2 ? std::stoul(argv[2]) : 1'000'000;
  const std::string only = argc > 3 ? argv[3] : "";  // "2" or "4": one number of seats (its own peak memory)
  if (only != "4") bench_rating(versions, games, 2);
  if (only != "2") bench_rating(versions, games, 4);
  if (only.empty()) bench_matchmaking(versions);
}
