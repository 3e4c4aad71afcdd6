// The ladder's store (referee/ladder/store.hpp) under load: how fast workers can claim and report
// matches, and how long reading every counted game of a big ladder takes (what the ratings do).
//
//   bench_ladder_store [POSTGRES_CONNECTION] [--pairs N] [--versions V] [--games G]
//
// For SQLite (a folder under the system's temporary folder, removed at the end) and, when a
// connection string is given, PostgreSQL (its database must be empty: the bench creates the
// schema, and leaves its rows there):
// - claim + report pairs per second and the claim latency (p50, p99) for 1 and 2 claimers, each a
//   thread with its own connection, over N queued one-leg matches (default 4,000) whose reports
//   carry a 15 KB replay (a Stellar replay's mean size);
// - the seeding time of V versions (default 1,000, through the store) and G counted games
//   (default 1,000,000: one transaction of batched inserts), then the time to read all games
//   through Store::games in pages of 100,000, and the time to compute the leaderboard from that
//   database as `referee ladder status` does (a fresh Leaderboard: load every game, fit, rank the
//   active versions), wall and CPU.
// A benchmark prints figures; it never fails on speed.

#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "referee/core/rng.hpp"
#include "referee/ladder/leaderboard.hpp"
#include "referee/ladder/roster.hpp"
#include "referee/ladder/store.hpp"
#include "referee/ladder/store_sql.hpp"
#include "tests/bench/ladder_seed.hpp"

using namespace arena;
using namespace arena::ladder;
using namespace arena::bench;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// This process's CPU time (user + system, every thread).
double cpu_seconds() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  const auto s = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
  return s(u.ru_utime) + s(u.ru_stime);
}

// A two-seat leg as a worker reports it, with `replay` as its replay.
LegReport report_of(const std::string& replay) {
  LegReport l;
  auto& r = l.result;
  r.scores = {3, 1};
  r.outcome = json::object();
  r.game = "stellar";
  r.config = json::object();
  r.seats.resize(2);
  r.seats[0].name = "first";
  r.seats[1].name = "second";
  replay::settle(r);
  l.replay = replay;
  return l;
}

struct Pairs {
  std::size_t pairs = 0;
  double seconds = 0;
  std::vector<double> claim_us;
};

// `claimers` threads claim and report until the queue is empty.
Pairs claim_and_report(const Location& where, int claimers, const std::string& replay) {
  std::vector<Pairs> each(static_cast<std::size_t>(claimers));
  const auto start = Clock::now();
  std::vector<std::thread> threads;
  for (int t = 0; t < claimers; ++t)
    threads.emplace_back([&, t] {
      auto s = open_or_die(where);
      auto& mine = each[static_cast<std::size_t>(t)];
      const std::string worker = "bench:" + std::to_string(t);
      const std::vector<LegReport> legs{report_of(replay)};
      int empty = 0;
      while (empty < 3) {  // with SKIP LOCKED an empty claim may only mean "all locked now"
        const auto t0 = Clock::now();
        const auto c = must(s->claim(worker, 1000, 600000));
        mine.claim_us.push_back(seconds_since(t0) * 1e6);
        if (!c) {
          ++empty;
          continue;
        }
        empty = 0;
        if (!must(s->report(*c, legs, 2000))) {
          fmt::print(stderr, "bench_ladder_store: a report was fenced off\n");
          std::exit(1);
        }
        ++mine.pairs;
      }
    });
  for (auto& th : threads) th.join();
  Pairs all;
  all.seconds = seconds_since(start);
  for (auto& p : each) {
    all.pairs += p.pairs;
    all.claim_us.insert(all.claim_us.end(), p.claim_us.begin(), p.claim_us.end());
  }
  return all;
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}

void bench_pairs(const std::string& engine, const std::function<Location()>& fresh, std::size_t n) {
  // 15 KB of replay lines that compress about as a real one does.
  std::string replay;
  for (int i = 0; replay.size() < 15000; ++i)
    replay += "{\"step\":" + std::to_string(i) + ",\"seat\":" + std::to_string(i % 2) + ",\"action\":\"take " +
              std::to_string(i * 37 % 11) + "\"}\n";
  for (int claimers : {1, 2}) {
    const Location where = fresh();
    {
      auto s = open_or_die(where);
      const Id a = active(*s, "a"), b = active(*s, "b");
      std::vector<NewMatch> matches(n, NewMatch{{a, b}, 7, 1, 1, 1});
      must(s->enqueue(matches));
    }
    const Pairs p = claim_and_report(where, claimers, replay);
    fmt::print(
        "{:<10} {} claimer(s): {:>6} claim+report pairs in {:.2f} s = {:>7.0f} pairs/s; claim p50 {:.0f} us, "
        "p99 {:.0f} us\n",
        engine, claimers, p.pairs, p.seconds, static_cast<double>(p.pairs) / p.seconds, percentile(p.claim_us, 0.5),
        percentile(p.claim_us, 0.99));
  }
}

void bench_games(const std::string& engine, const Location& where, int versions, std::int64_t games) {
  auto store = open_or_die(where);
  auto start = Clock::now();
  std::vector<Id> ids;
  for (int v = 0; v < versions; ++v) ids.push_back(active(*store, "bot" + std::to_string(v)));
  const double version_s = seconds_since(start);

  // The games: one transaction of multi-row inserts (ladder_seed.hpp).
  start = Clock::now();
  seed_games(*store, ids, games);
  const double seed_s = seconds_since(start);
  fmt::print("{:<10} seeding: {} versions through the store in {:.2f} s; {} games in one transaction in {:.2f} s\n",
             engine, versions, version_s, games, seed_s);

  start = Clock::now();
  std::size_t read = 0;
  double checksum = 0;
  Id after = 0;
  for (;;) {
    const auto page = must(store->games(100000, after));
    if (page.empty()) break;
    read += page.size();
    for (const auto& g : page) checksum += g.scores[0];
    after = page.back().id;
  }
  const double read_s = seconds_since(start);
  fmt::print("{:<10} read all {} games (pages of 100,000) in {:.2f} s = {:.0f} games/s (checksum {:.0f})\n", engine,
             read, read_s, static_cast<double>(read) / read_s, checksum);

  // The leaderboard from this database, from nothing, as `referee ladder status` computes it.
  start = Clock::now();
  const double cpu = cpu_seconds();
  Leaderboard board;
  must(board.load(*store));
  const auto active_versions = must(store->versions(VersionState::active));
  const auto rows = board.rows(active_versions);
  const double board_s = seconds_since(start), board_cpu = cpu_seconds() - cpu;
  fmt::print(
      "{:<10} leaderboard of {} versions from {} games (load, fit, rank): {:.2f} s wall, {:.2f} s CPU;"
      " first {} {:+.0f}\n",
      engine, rows.size(), board.games(), board_s, board_cpu,
      rows.empty() ? std::string("-") : version_label(rows.front().version),
      rows.empty() ? 0.0 : rows.front().rating.rating);
}

}  // namespace

int main(int argc, char** argv) {
  std::string postgres;
  std::size_t pairs = 4000;
  int versions = 1000;
  std::int64_t games = 1000000;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--pairs" && i + 1 < argc) {
      pairs = std::stoul(argv[++i]);
    } else if (a == "--versions" && i + 1 < argc) {
      versions = std::stoi(argv[++i]);
    } else if (a == "--games" && i + 1 < argc) {
      games = std::stoll(argv[++i]);
    } else if (!a.empty() && a[0] != '-') {
      postgres = a;
    } else {
      fmt::print(stderr, "usage: bench_ladder_store [POSTGRES_CONNECTION] [--pairs N] [--versions V] [--games G]\n");
      return 2;
    }
  }
  fmt::print("bench_ladder_store: {} cores, load {}\n", std::thread::hardware_concurrency(), [] {
    double load[1] = {0};
    return ::getloadavg(load, 1) == 1 ? fmt::format("{:.2f}", load[0]) : std::string("unknown");
  }());

  std::string templ = (fs::temp_directory_path() / "bench-ladder-XXXXXX").string();
  if (::mkdtemp(templ.data()) == nullptr) return 1;
  const fs::path base = templ;
  int n = 0;
  bench_pairs(
      "SQLite",
      [&] {
        return Location{base / std::to_string(++n), ""};
      },
      pairs);
  bench_games("SQLite", Location{base / "games", ""}, versions, games);
  std::error_code ec;
  fs::remove_all(base, ec);

  if (!postgres.empty()) {
    // One database for every part: the queue is emptied before each (the games part adds its own
    // versions).
    const Location where{fs::temp_directory_path(), postgres};
    const auto empty_queue = [&] {
      auto s = open_or_die(where);
      auto& db = dynamic_cast<sql::SqlStore&>(*s).db();
      db.exec("DELETE FROM legs");
      db.exec("DELETE FROM matches");
      return where;
    };
    bench_pairs("PostgreSQL", empty_queue, pairs);
    empty_queue();
    bench_games("PostgreSQL", where, versions, games);
  }
  return 0;
}
