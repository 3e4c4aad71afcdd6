#pragma once
// A simulated ladder for the rating and matchmaking tests: versions of fixed true strengths
// theta, games drawn from the Plackett-Luce model itself (each seat's performance is theta plus a
// standard Gumbel draw; the order of performances is a Plackett-Luce sample), tables chosen by
// choose_tables, results counted by the ladder's Rating, refitted as the leaderboard would be.

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <map>
#include <vector>

#include "referee/core/rng.hpp"
#include "referee/ladder/matchmaking.hpp"
#include "referee/ladder/rating.hpp"

namespace arena::ladder::test {

inline constexpr double kEloPerTheta = 400.0 / 2.302585092994046;

inline double uniform(Rng& rng) {
  return (static_cast<double>(rng.next() >> 11) + 0.5) * 0x1.0p-53;  // in (0, 1)
}

inline double normal(Rng& rng) {  // Box-Muller
  return std::sqrt(-2 * std::log(uniform(rng))) * std::cos(6.283185307179586 * uniform(rng));
}

struct Population {
  Rng rng;
  MatchmakingSettings settings;
  Rating rating;
  std::map<Id, double> theta;  // true log-strengths
  std::vector<Candidate> active;
  std::map<Id, VersionRating> board;  // the last fit
  std::int64_t now_ms = 0;
  std::uint64_t round = 0;
  std::uint64_t tables_played = 0;
  std::uint64_t placement_tables = 0;  // priority 0
  std::map<Id, std::uint64_t> seeded;  // tables each version was the seed of
  std::uint64_t newcomer_seeded = 0;   // tables seeded by a version in placement
  std::vector<Table> history;
  double tie_margin = 0;  // 2 seats: performances closer than this are a draw

  explicit Population(std::uint64_t seed, MatchmakingSettings s = {}) : rng(seed), settings(s) {}

  void join(Id id, double strength) {
    theta[id] = strength;
    active.push_back(Candidate{id, 0, std::nullopt, 0, 0, now_ms});
  }

  // Ranks of one table from the Plackett-Luce model.
  std::vector<int> play(const std::vector<Id>& seats) {
    std::vector<double> perf;
    for (Id v : seats) perf.push_back(theta.at(v) - std::log(-std::log(uniform(rng))));
    std::vector<int> ranks;
    for (std::size_t i = 0; i < seats.size(); ++i) {
      int r = 1;
      for (std::size_t j = 0; j < seats.size(); ++j) {
        const bool tied = seats.size() == 2 && std::abs(perf[j] - perf[i]) < tie_margin;
        if (j != i && perf[j] > perf[i] && !tied) ++r;
      }
      ranks.push_back(r);
    }
    return ranks;
  }

  // One round: choose `settings.tables` tables, play them all, count them, refit, a minute passes.
  void step() {
    auto tables = choose_tables(active, settings, now_ms, derive_seed(7, round++));
    REQUIRE(tables.ok());
    std::map<Id, std::uint64_t> games;
    for (const Candidate& c : active) games[c.version] = c.games;
    for (const Table& t : tables.value()) {
      if (games[t.seats[0]] < settings.placement_games) ++newcomer_seeded;
      for (Id v : t.seats) ++games[v];
      history.push_back(t);
      ++tables_played;
      placement_tables += t.priority == 0 ? 1 : 0;
      ++seeded[t.seats[0]];
      REQUIRE(rating.add(t.seats, play(t.seats)).ok());
    }
    refresh();
    now_ms += 60'000;
  }

  void refresh() {
    board.clear();
    for (const VersionRating& r : rating.fit()) board[r.version] = r;
    for (Candidate& c : active) {
      const auto it = board.find(c.version);
      if (it == board.end()) continue;
      c.rating = it->second.rating;
      c.uncertainty = it->second.rated ? std::optional<double>((it->second.high - it->second.low) / 2) : std::nullopt;
      c.games = it->second.games;
    }
  }

  // True Elo of a version, against the mean of `ids`.
  double true_elo(Id v, const std::vector<Id>& ids) const {
    double mean = 0;
    for (Id i : ids) mean += theta.at(i);
    return kEloPerTheta * (theta.at(v) - mean / static_cast<double>(ids.size()));
  }
};

// Spearman's rank correlation of two lists without ties.
inline double spearman(const std::vector<double>& a, const std::vector<double>& b) {
  const auto ranks = [](const std::vector<double>& x) {
    std::vector<std::size_t> idx(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) idx[i] = i;
    std::sort(idx.begin(), idx.end(), [&](std::size_t p, std::size_t q) { return x[p] < x[q]; });
    std::vector<double> r(x.size());
    for (std::size_t k = 0; k < idx.size(); ++k) r[idx[k]] = static_cast<double>(k);
    return r;
  };
  const std::vector<double> ra = ranks(a);
  const std::vector<double> rb = ranks(b);
  double d2 = 0;
  for (std::size_t i = 0; i < a.size(); ++i) d2 += (ra[i] - rb[i]) * (ra[i] - rb[i]);
  const double n = static_cast<double>(a.size());
  return 1 - 6 * d2 / (n * (n * n - 1));
}

}  // namespace arena::ladder::test
