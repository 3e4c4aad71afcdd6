// The multi-seat rating (Plackett-Luce, Hunter's MM) against closed forms and its own likelihood
// equations: Bradley-Terry for two bots, draws as half wins, the maximum-likelihood condition for
// 3 and 4 seats, the prior that keeps a bot that always wins finite, independence of the order of
// matches, and memory bounded by the distinct finishing orders.

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <vector>

#include "referee/league/ranking.hpp"
#include "tests/league/elo_approx.hpp"

using namespace arena::league;

namespace {

constexpr double kEloPerTheta = 400.0 / 2.302585092994046;

// `times` matches with the given seats and ranks.
void add(PlackettLuce& pl, const std::vector<std::size_t>& bots, const std::vector<int>& ranks, int times) {
  for (int k = 0; k < times; ++k) pl.add(bots, ranks);
}

}  // namespace

TEST_CASE("Plackett-Luce: two bots are Bradley-Terry, with its closed form") {
  // Without a prior the maximum-likelihood strengths satisfy gamma_a / gamma_b = wins_a / wins_b:
  // 7 wins to 3 -> theta_a - theta_b = ln(7/3), 147.19 Elo apart, +/-73.60 around their mean.
  // The information in theta_a - theta_b is n p (1-p) = 10 * 0.7 * 0.3 = 2.1, so
  // sd(theta_a - mean) = 1 / (2 sqrt(2.1)) = 0.34503 -> 1.96 * 173.72 * 0.34503 = 117.48 Elo.
  PlackettLuce pl;
  add(pl, {0, 1}, {1, 2}, 4);
  add(pl, {1, 0}, {2, 1}, 3);  // seats do not matter, only the order
  add(pl, {0, 1}, {2, 1}, 3);
  const std::vector<EloEstimate> r = pl.fit(2, RankingOptions{0.0});
  REQUIRE(r.size() == 2);
  CHECK(r[0].elo == elo_near(73.60));
  CHECK(r[1].elo == elo_near(-73.60));
  CHECK(r[0].elo - r[1].elo == elo_near(400 * std::log10(7.0 / 3.0)));
  CHECK(r[0].interval == IntervalKind::normal);
  CHECK(r[0].low == elo_near(-43.88));
  CHECK(r[0].high == elo_near(191.07));
  CHECK(r[0].samples == 10);
  CHECK(r[1].high == elo_near(43.88));
}

TEST_CASE("Plackett-Luce: a tie counts as half a win each way") {
  // 5 wins, 2 draws, 3 losses: as 6 wins to 4, ln(1.5) apart -> +/-35.22 Elo; information
  // 10 * 0.6 * 0.4 = 2.4 -> half-width 1.96 * 173.72 / (2 sqrt 2.4) = 109.89.
  PlackettLuce pl;
  add(pl, {0, 1}, {1, 2}, 5);
  add(pl, {0, 1}, {1, 1}, 2);
  add(pl, {0, 1}, {2, 1}, 3);
  const std::vector<EloEstimate> r = pl.fit(2, RankingOptions{0.0});
  CHECK(r[0].elo == elo_near(35.22));
  CHECK(r[0].high - r[0].elo == elo_near(109.89));
  CHECK(r[0].elo - r[0].low == elo_near(109.89));
}

TEST_CASE("Plackett-Luce: the fit solves the likelihood equations for 3 and 4 seats") {
  // At the maximum of the log-likelihood, for each bot, the times it was placed next equal the
  // sum over all stages it was in of its probability gamma / (sum of the stage's gammas). Ties are
  // every order of the tied seats, weighted equally.
  struct Match {
    std::vector<std::size_t> bots;
    std::vector<int> ranks;
    int times;
  };
  const std::vector<Match> data = {
      {{0, 1, 2}, {1, 2, 3}, 5},       {{0, 1, 2}, {2, 1, 3}, 3},       {{0, 1, 2}, {3, 2, 1}, 2},
      {{2, 0, 1}, {1, 2, 2}, 2},  // bot 2 first, 0 and 1 tied second
      {{0, 1, 2, 3}, {1, 2, 3, 4}, 3}, {{3, 2, 1, 0}, {1, 2, 3, 4}, 4}, {{0, 3, 1, 2}, {1, 1, 3, 4}, 2},
  };
  PlackettLuce pl;
  for (const Match& m : data) add(pl, m.bots, m.ranks, m.times);
  const std::vector<EloEstimate> r = pl.fit(4, RankingOptions{0.0});
  std::vector<double> gamma;
  for (const EloEstimate& e : r) gamma.push_back(std::exp(e.elo / kEloPerTheta));
  std::vector<double> chosen(4, 0.0);
  std::vector<double> expected(4, 0.0);
  const auto stages = [&](const std::vector<std::size_t>& order, double w) {
    for (std::size_t k = 0; k + 1 < order.size(); ++k) {
      double total = 0;
      for (std::size_t j = k; j < order.size(); ++j) total += gamma[order[j]];
      chosen[order[k]] += w;
      for (std::size_t j = k; j < order.size(); ++j) expected[order[j]] += w * gamma[order[j]] / total;
    }
  };
  stages({0, 1, 2}, 5);
  stages({1, 0, 2}, 3);
  stages({2, 1, 0}, 2);
  stages({2, 0, 1}, 1);  // the tie: half each way
  stages({2, 1, 0}, 1);
  stages({0, 1, 2, 3}, 3);
  stages({3, 2, 1, 0}, 4);
  stages({0, 3, 1, 2}, 1);  // 0 and 3 tied first
  stages({3, 0, 1, 2}, 1);
  for (std::size_t b = 0; b < 4; ++b) {
    INFO("bot " << b);
    CHECK(expected[b] == Approx(chosen[b]).epsilon(1e-8));
  }
  // The ratings are centred on the mean of the bots that played.
  CHECK(r[0].elo + r[1].elo + r[2].elo + r[3].elo == Approx(0).margin(1e-9));
  // Bot 3 (9 matches) has too few games for an interval; bot 0 (21) has one.
  CHECK(r[3].interval == IntervalKind::none);
  CHECK(r[0].interval == IntervalKind::normal);
  CHECK(r[0].low < r[0].elo);
  CHECK(r[0].elo < r[0].high);
}

TEST_CASE("Plackett-Luce: the prior keeps a bot that always wins finite") {
  // Bot 0 beats bot 1 20 times. With one virtual draw each against an anchor of strength 1, the
  // strengths solve gamma_0 = 20.5 / (20 / (g0 + g1) + 1 / (g0 + 1)) and
  // gamma_1 = 0.5 / (20 / (g0 + g1) + 1 / (g1 + 1)): 7.2038 and 0.13881, i.e. +/-343.03 Elo
  // around their mean, with a half-width of 261.30 (computed independently, by the same
  // equations iterated in Python).
  PlackettLuce pl;
  add(pl, {0, 1}, {1, 2}, 20);
  const std::vector<EloEstimate> r = pl.fit(3);  // bot 2 never played
  CHECK(r[0].elo == elo_near(343.03));
  CHECK(r[1].elo == elo_near(-343.03));
  CHECK(r[0].high - r[0].elo == Approx(261.30).margin(0.01));
  CHECK(std::isfinite(r[0].low));
  CHECK(r[2].elo == 0);
  CHECK(r[2].samples == 0);
  CHECK_FALSE(r[2].known());
  // Without the prior the fit runs away (bot 1 never won), and stays clamped to the bound.
  const std::vector<EloEstimate> raw = pl.fit(2, RankingOptions{0.0, 2000});
  CHECK(raw[0].elo > 900);
  CHECK(raw[0].elo <= kEloBound);
}

TEST_CASE("Plackett-Luce: the fit depends on the matches, not on their order, in bounded memory") {
  std::vector<std::vector<int>> ranks;
  std::uint64_t x = 12345;
  const auto next = [&x]() {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int>((x >> 33) % 4) + 1;
  };
  for (int m = 0; m < 5000; ++m) ranks.push_back({next(), next(), next(), next()});
  PlackettLuce forward;
  PlackettLuce backward;
  for (std::size_t m = 0; m < ranks.size(); ++m) {
    forward.add({0, 1, 2, 3}, ranks[m]);
    backward.add({0, 1, 2, 3}, ranks[ranks.size() - 1 - m]);
  }
  const std::vector<EloEstimate> a = forward.fit(4);
  const std::vector<EloEstimate> b = backward.fit(4);
  for (std::size_t k = 0; k < 4; ++k) {
    CHECK(a[k].elo == b[k].elo);
    CHECK(a[k].low == b[k].low);
    CHECK(a[k].high == b[k].high);
  }
  // Four ranks drawn in 1..4 per seat make at most 4^4 = 256 rank vectors: the orders held are
  // bounded by the distinct finishing orders (75 for 4 seats with ties), not by the 5000 matches.
  CHECK(forward.orders() <= 75);
  CHECK(forward.orders() > 20);
  // Uniform random ranks: nobody is much stronger.
  for (const EloEstimate& e : a) CHECK(std::abs(e.elo) < 30);
}

TEST_CASE("Plackett-Luce: many distinct orders, added in any order, give the same bits") {
  // 12,000 four-seat matches among 30 bots: past 4,096 distinct orders the stored orders are
  // rewritten in their canonical order (and again every eighth more), at different moments for
  // the two insertion orders; the sums run in the canonical order all the same.
  std::vector<std::vector<std::size_t>> seats;
  std::vector<std::vector<int>> ranks;
  std::uint64_t x = 99;
  const auto next = [&x](std::uint64_t bound) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return (x >> 33) % bound;
  };
  for (int m = 0; m < 12000; ++m) {
    std::vector<std::size_t> s;
    while (s.size() < 4) {
      const std::size_t b = next(30);
      if (std::find(s.begin(), s.end(), b) == s.end()) s.push_back(b);
    }
    seats.push_back(s);
    // Lower index, stronger: rank by index plus noise, ties when equal.
    std::vector<int> r;
    std::vector<std::uint64_t> perf;
    for (std::size_t b : s) perf.push_back(b + next(20));
    for (std::uint64_t p : perf)
      r.push_back(1 +
                  static_cast<int>(std::count_if(perf.begin(), perf.end(), [&](std::uint64_t q) { return q < p; })));
    ranks.push_back(r);
  }
  PlackettLuce forward;
  PlackettLuce backward;
  for (std::size_t m = 0; m < seats.size(); ++m) {
    forward.add(seats[m], ranks[m]);
    backward.add(seats[seats.size() - 1 - m], ranks[seats.size() - 1 - m]);
  }
  CHECK(forward.orders() == backward.orders());
  CHECK(forward.orders() > 4096);
  const std::vector<EloEstimate> a = forward.fit(30);
  const std::vector<EloEstimate> b = backward.fit(30);
  for (std::size_t k = 0; k < 30; ++k) {
    INFO("bot " << k);
    CHECK(a[k].elo == b[k].elo);
    CHECK(a[k].low == b[k].low);
    CHECK(a[k].high == b[k].high);
  }
  CHECK(a[0].elo > a[29].elo);
}
