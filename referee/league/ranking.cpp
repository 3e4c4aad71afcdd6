#include "referee/league/ranking.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

namespace arena::league {

namespace {

// Elo per unit of log-strength: a difference theta gives a score 1 / (1 + exp(-theta)), which is
// score_from_elo(theta * 400 / ln 10).
constexpr double kEloPerTheta = 400.0 / 2.302585092994046;

// A choice set of one stage of a finishing order (the seats not yet placed, as bot indices with
// repeats for self-play, sorted) and how many stages of all matches had exactly that set.
using ChoiceSets = std::map<std::vector<std::size_t>, double>;

// Every order of the seats of `order` that its ties allow, each with weight `weight` / (number of
// such orders), as stages: `sets` gets each stage's choice set, `chosen[b]` each time bot b was
// the one placed next.
void add_stages(const std::vector<std::vector<std::size_t>>& order, double weight, ChoiceSets& sets,
                std::vector<double>& chosen) {
  // Positions within each tie group, permuted independently (positions, not bots, so that two
  // seats of one bot tied together still count as two orders).
  std::vector<std::vector<std::size_t>> perm;
  double orders = 1;
  for (const auto& group : order) {
    perm.emplace_back(group.size());
    std::iota(perm.back().begin(), perm.back().end(), std::size_t{0});
    for (std::size_t k = 2; k <= group.size(); ++k) orders *= static_cast<double>(k);
  }
  const double share = weight / orders;
  while (true) {
    std::vector<std::size_t> sequence;
    for (std::size_t g = 0; g < order.size(); ++g) {
      for (std::size_t pos : perm[g]) sequence.push_back(order[g][pos]);
    }
    for (std::size_t k = 0; k + 1 < sequence.size(); ++k) {
      std::vector<std::size_t> set(sequence.begin() + static_cast<std::ptrdiff_t>(k), sequence.end());
      std::sort(set.begin(), set.end());
      sets[set] += share;
      chosen[sequence[k]] += share;
    }
    // The next combination of group permutations, like an odometer; done when all wrapped.
    std::size_t g = 0;
    while (g < perm.size() && !std::next_permutation(perm[g].begin(), perm[g].end())) ++g;
    if (g == perm.size()) break;
  }
}

// The inverse of a symmetric positive definite matrix by Gauss-Jordan elimination with partial
// pivoting; false when a pivot vanishes (the information says nothing about some direction).
bool invert(std::vector<std::vector<double>>& m) {
  const std::size_t n = m.size();
  std::vector<std::vector<double>> inv(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n; ++i) inv[i][i] = 1;
  for (std::size_t col = 0; col < n; ++col) {
    std::size_t pivot = col;
    for (std::size_t r = col + 1; r < n; ++r) {
      if (std::abs(m[r][col]) > std::abs(m[pivot][col])) pivot = r;
    }
    if (!(std::abs(m[pivot][col]) > 1e-12)) return false;
    std::swap(m[pivot], m[col]);
    std::swap(inv[pivot], inv[col]);
    const double d = m[col][col];
    for (std::size_t c = 0; c < n; ++c) {
      m[col][c] /= d;
      inv[col][c] /= d;
    }
    for (std::size_t r = 0; r < n; ++r) {
      if (r == col || m[r][col] == 0) continue;
      const double f = m[r][col];
      for (std::size_t c = 0; c < n; ++c) {
        m[r][c] -= f * m[col][c];
        inv[r][c] -= f * inv[col][c];
      }
    }
  }
  m = std::move(inv);
  return true;
}

}  // namespace

void PlackettLuce::add(const std::vector<std::size_t>& seat_bots, const std::vector<int>& ranks) {
  if (seat_bots.size() < 2 || seat_bots.size() != ranks.size()) return;
  std::vector<std::pair<int, std::size_t>> by_rank;
  for (std::size_t i = 0; i < seat_bots.size(); ++i) by_rank.emplace_back(ranks[i], seat_bots[i]);
  std::sort(by_rank.begin(), by_rank.end());
  Order order;
  for (std::size_t i = 0; i < by_rank.size(); ++i) {
    if (i == 0 || by_rank[i].first != by_rank[i - 1].first) order.emplace_back();
    order.back().push_back(by_rank[i].second);
  }
  ++orders_[order];
  for (std::size_t b : seat_bots) {
    if (b >= games_.size()) games_.resize(b + 1, 0);
    ++games_[b];
  }
}

std::vector<EloEstimate> PlackettLuce::fit(std::size_t bots, const RankingOptions& options) const {
  const bool prior = options.prior_draws > 0;
  const std::size_t anchor = bots;  // an extra item of strength 1, present only with a prior
  std::vector<std::uint64_t> games(bots, 0);
  for (std::size_t b = 0; b < std::min(bots, games_.size()); ++b) games[b] = games_[b];
  ChoiceSets sets;
  std::vector<double> chosen(bots + 1, 0.0);
  for (const auto& [order, count] : orders_) {
    const bool known = std::all_of(order.begin(), order.end(), [&](const std::vector<std::size_t>& group) {
      return std::all_of(group.begin(), group.end(), [&](std::size_t b) { return b < bots; });
    });
    if (known) add_stages(order, static_cast<double>(count), sets, chosen);
  }
  if (prior) {
    for (std::size_t b = 0; b < bots; ++b) add_stages({{b, anchor}}, options.prior_draws, sets, chosen);
  }
  std::vector<std::size_t> active;  // bots that played, in index order
  for (std::size_t b = 0; b < bots; ++b) {
    if (games[b] > 0) active.push_back(b);
  }

  // Hunter's MM step: gamma_t <- (times t was chosen) / sum over stages whose set holds t of
  // (multiplicity of t in the set) / (sum of the set's strengths).
  std::vector<double> gamma(bots + 1, 1.0);
  for (int it = 0; it < options.max_iterations; ++it) {
    std::vector<double> denominator(bots + 1, 0.0);
    for (const auto& [set, weight] : sets) {
      double total = 0;
      for (std::size_t u : set) total += gamma[u];
      for (std::size_t u : set) denominator[u] += weight / total;
    }
    double moved = 0;
    std::vector<double> next = gamma;
    for (std::size_t b : active) next[b] = denominator[b] > 0 ? chosen[b] / denominator[b] : gamma[b];
    if (!prior && !active.empty()) {  // no anchor: fix the scale by a geometric mean of 1
      double log_mean = 0;
      for (std::size_t b : active) log_mean += std::log(std::max(next[b], 1e-300));
      log_mean /= static_cast<double>(active.size());
      for (std::size_t b : active) next[b] /= std::exp(log_mean);
    }
    for (std::size_t b : active) {
      moved = std::max(moved, std::abs(std::log(std::max(next[b], 1e-300)) - std::log(std::max(gamma[b], 1e-300))));
    }
    gamma = std::move(next);
    if (moved < options.tolerance) break;
  }

  std::vector<double> theta(bots, 0.0);
  double mean = 0;
  for (std::size_t b : active) {
    theta[b] = std::log(std::max(gamma[b], 1e-300));
    mean += theta[b];
  }
  if (!active.empty()) mean /= static_cast<double>(active.size());

  // Observed information in the active bots' log-strengths: for each choice set with weight w
  // and choice probabilities P (per bot, summed over its seats), w (diag(P) - P P^T).
  const std::size_t a = active.size();
  std::vector<std::size_t> slot(bots + 1, a);  // bot -> row, a for none
  for (std::size_t i = 0; i < a; ++i) slot[active[i]] = i;
  std::vector<std::vector<double>> info(a, std::vector<double>(a, 0.0));
  for (const auto& [set, weight] : sets) {
    double total = 0;
    for (std::size_t u : set) total += gamma[u];
    std::vector<std::pair<std::size_t, double>> p;  // (row, probability), rows of active bots only
    for (std::size_t u : set) {
      if (slot[u] == a) continue;
      if (!p.empty() && p.back().first == slot[u]) {
        p.back().second += gamma[u] / total;
      } else {
        p.emplace_back(slot[u], gamma[u] / total);
      }
    }
    for (const auto& [i, pi] : p) {
      info[i][i] += weight * pi;
      for (const auto& [j, pj] : p) info[i][j] -= weight * pi * pj;
    }
  }
  // Without an anchor the information is singular along "all strengths up": adding J / a (J all
  // ones) and inverting gives a matrix that acts as its pseudo-inverse on contrasts.
  if (!prior) {
    for (auto& row : info) {
      for (double& x : row) x += 1.0 / static_cast<double>(a);
    }
  }
  const bool covariance = a > 0 && invert(info);

  std::vector<EloEstimate> out(bots);
  for (std::size_t b = 0; b < bots; ++b) {
    EloEstimate& e = out[b];
    e.samples = games[b];
    if (games[b] == 0) continue;
    e.elo = std::clamp(kEloPerTheta * (theta[b] - mean), -kEloBound, kEloBound) + 0.0;
    if (!covariance || games[b] < kEloMinSamples) continue;
    // Variance of theta_b - mean(theta): c^T M c with c = e_b - 1/a.
    const std::size_t i = slot[b];
    const double inv_a = 1.0 / static_cast<double>(a);
    double var = 0;
    for (std::size_t r = 0; r < a; ++r) {
      const double cr = (r == i ? 1.0 : 0.0) - inv_a;
      for (std::size_t c = 0; c < a; ++c) var += cr * info[r][c] * ((c == i ? 1.0 : 0.0) - inv_a);
    }
    if (!(var >= 0)) continue;
    const double half = kZ95 * kEloPerTheta * std::sqrt(var);
    e.interval = IntervalKind::normal;
    e.low = std::clamp(e.elo - half, -kEloBound, kEloBound) + 0.0;
    e.high = std::clamp(e.elo + half, -kEloBound, kEloBound) + 0.0;
  }
  return out;
}

}  // namespace arena::league
