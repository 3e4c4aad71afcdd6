#include "referee/league/ranking.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>

namespace arena::league {

namespace {

// Elo per unit of log-strength: a difference theta gives a score 1 / (1 + exp(-theta)), which is
// score_from_elo(theta * 400 / ln 10).
constexpr double kEloPerTheta = 400.0 / 2.302585092994046;

// Log-strengths stay within +/- this (6,948 Elo, far past the +/-kEloBound shown), so that a fit
// without a prior whose maximum does not exist (a bot that never lost) stops at a finite point and
// exp() never overflows (a stage's total stays within e^+/-40 times its seats).
constexpr double kThetaBound = 40.0;

// Newton's method refactors the information at every step while steps are large; once a step is
// below kChordStep it keeps the last factor (a chord step: a pass over the data, no
// factorization) as long as each step shrinks by kChordShrink or more.
constexpr double kChordStep = 1e-2;
constexpr double kChordShrink = 0.1;

// A pivot of the information at or below this: the matrix says nothing about some direction
// (no covariance, or a ridge added for a Newton step).
constexpr double kPivot = 1e-12;

std::uint64_t mix(std::uint64_t h, std::uint64_t x) {
  h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdULL;
}

std::uint64_t hash_order(const std::uint32_t* bots, const std::uint8_t* ties, std::size_t seats) {
  std::uint64_t h = seats;
  for (std::size_t k = 0; k < seats; ++k) h = mix(h, (std::uint64_t{bots[k]} << 1) | ties[k]);
  return h ^ (h >> 29);
}

// In-place Cholesky factor L (lower, row-major n x n; the upper part is not read) of a symmetric
// matrix, with `ridge` added to its diagonal: false when a pivot is kPivot or less.
// L_ij = (A_ij - sum_{k<j} L_ik L_jk) / L_jj, L_jj = sqrt(A_jj + ridge - sum_{k<j} L_jk^2).
bool cholesky(std::vector<double>& m, std::size_t n, double ridge) {
  for (std::size_t i = 0; i < n; ++i) {
    double* ri = &m[i * n];
    for (std::size_t j = 0; j <= i; ++j) {
      const double* rj = &m[j * n];
      double s0 = 0, s1 = 0, s2 = 0, s3 = 0;  // four sums: the dot product pipelines
      std::size_t k = 0;
      for (; k + 4 <= j; k += 4) {
        s0 += ri[k] * rj[k];
        s1 += ri[k + 1] * rj[k + 1];
        s2 += ri[k + 2] * rj[k + 2];
        s3 += ri[k + 3] * rj[k + 3];
      }
      for (; k < j; ++k) s0 += ri[k] * rj[k];
      const double v = ri[j] - ((s0 + s1) + (s2 + s3));
      if (i == j) {
        if (!(v + ridge > kPivot)) return false;
        ri[j] = std::sqrt(v + ridge);
      } else {
        ri[j] = v / rj[j];
      }
    }
  }
  return true;
}

// x <- (L L^T)^-1 x: forward then backward substitution.
void solve(const std::vector<double>& l, std::size_t n, std::vector<double>& x) {
  for (std::size_t i = 0; i < n; ++i) {
    const double* ri = &l[i * n];
    double s = x[i];
    for (std::size_t k = 0; k < i; ++k) s -= ri[k] * x[k];
    x[i] = s / ri[i];
  }
  for (std::size_t i = n; i-- > 0;) {
    x[i] /= l[i * n + i];
    const double xi = x[i];
    const double* ri = &l[i * n];
    for (std::size_t k = 0; k < i; ++k) x[k] -= ri[k] * xi;
  }
}

// Variances of theta_b - mean(theta) for every row b, from the Cholesky factor L of the
// information M: with C = M^-1 = X^T X, X = L^-1 (lower), and c = e_b - 1/n,
// var_b = c^T C c = C_bb - 2/n (C 1)_b + (1^T C 1) / n^2, where C_bb = sum_{i>=b} X_ib^2,
// y = X 1, C 1 = X^T y and 1^T C 1 = |y|^2.
std::vector<double> contrast_variances(const std::vector<double>& l, std::size_t n) {
  // Row i of X: (e_i - sum_{k<i} L_ik X_k) / L_ii, X_k zero past column k.
  std::vector<double> x(n * n, 0.0);
  std::vector<double> acc(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::fill(acc.begin(), acc.begin() + static_cast<std::ptrdiff_t>(i), 0.0);
    const double* li = &l[i * n];
    for (std::size_t k = 0; k < i; ++k) {
      const double f = li[k];
      const double* xk = &x[k * n];
      for (std::size_t c = 0; c <= k; ++c) acc[c] -= f * xk[c];
    }
    double* xi = &x[i * n];
    for (std::size_t c = 0; c < i; ++c) xi[c] = acc[c] / li[i];
    xi[i] = 1.0 / li[i];
  }
  std::vector<double> diag(n, 0.0);
  std::vector<double> y(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    const double* xi = &x[i * n];
    for (std::size_t c = 0; c <= i; ++c) {
      diag[c] += xi[c] * xi[c];
      y[i] += xi[c];
    }
  }
  std::vector<double> c1(n, 0.0);
  double total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double* xi = &x[i * n];
    for (std::size_t c = 0; c <= i; ++c) c1[c] += xi[c] * y[i];
    total += y[i] * y[i];
  }
  const double inv_n = 1.0 / static_cast<double>(n);
  std::vector<double> var(n);
  for (std::size_t b = 0; b < n; ++b) var[b] = diag[b] - 2 * inv_n * c1[b] + total * inv_n * inv_n;
  return var;
}

}  // namespace

std::size_t PlackettLuce::find(const std::vector<std::uint32_t>& bots, const std::vector<std::uint8_t>& ties) const {
  if (index_.empty()) return orders_.size();
  const std::size_t mask = index_.size() - 1;
  for (std::size_t slot = hash_order(bots.data(), ties.data(), bots.size()) & mask;; slot = (slot + 1) & mask) {
    if (index_[slot] == 0) return orders_.size();
    const Order& o = orders_[index_[slot] - 1];
    if (o.seats == bots.size() &&
        std::equal(bots.begin(), bots.end(), bots_.begin() + static_cast<std::ptrdiff_t>(o.first)) &&
        std::equal(ties.begin(), ties.end(), ties_.begin() + static_cast<std::ptrdiff_t>(o.first))) {
      return index_[slot] - 1;
    }
  }
}

void PlackettLuce::rebuild_index(std::size_t capacity) {
  index_.assign(capacity, 0);
  const std::size_t mask = index_.size() - 1;
  for (std::size_t i = 0; i < orders_.size(); ++i) {
    const Order& o = orders_[i];
    std::size_t slot = hash_order(&bots_[o.first], &ties_[o.first], o.seats) & mask;
    while (index_[slot] != 0) slot = (slot + 1) & mask;
    index_[slot] = static_cast<std::uint32_t>(i + 1);
  }
}

bool PlackettLuce::canonical_less(const Order& x, const Order& y) const {
  if (x.seats != y.seats) return x.seats < y.seats;
  const auto xb = bots_.begin() + static_cast<std::ptrdiff_t>(x.first);
  const auto yb = bots_.begin() + static_cast<std::ptrdiff_t>(y.first);
  if (const auto [i, j] = std::mismatch(xb, xb + x.seats, yb); i != xb + x.seats) return *i < *j;
  const auto xt = ties_.begin() + static_cast<std::ptrdiff_t>(x.first);
  const auto yt = ties_.begin() + static_cast<std::ptrdiff_t>(y.first);
  return std::lexicographical_compare(xt, xt + x.seats, yt, yt + y.seats);
}

std::vector<std::uint32_t> PlackettLuce::sorted_tail() const {
  std::vector<std::uint32_t> tail(orders_.size() - sorted_);
  std::iota(tail.begin(), tail.end(), static_cast<std::uint32_t>(sorted_));
  std::sort(tail.begin(), tail.end(),
            [this](std::uint32_t a, std::uint32_t b) { return canonical_less(orders_[a], orders_[b]); });
  return tail;
}

void PlackettLuce::consolidate() {
  const std::vector<std::uint32_t> tail = sorted_tail();
  std::vector<Order> orders;
  std::vector<std::uint32_t> bots;
  std::vector<std::uint8_t> ties;
  orders.reserve(orders_.size());
  bots.reserve(bots_.size());
  ties.reserve(ties_.size());
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < sorted_ || j < tail.size()) {
    const bool main = j == tail.size() || (i < sorted_ && canonical_less(orders_[i], orders_[tail[j]]));
    Order o = orders_[main ? i++ : tail[j++]];
    const auto from = static_cast<std::ptrdiff_t>(o.first);
    const auto size = static_cast<std::ptrdiff_t>(std::size_t{o.seats} * o.sequences);
    o.first = bots.size();
    bots.insert(bots.end(), bots_.begin() + from, bots_.begin() + from + size);
    ties.insert(ties.end(), ties_.begin() + from, ties_.begin() + from + size);
    orders.push_back(o);
  }
  orders_ = std::move(orders);
  bots_ = std::move(bots);
  ties_ = std::move(ties);
  sorted_ = orders_.size();
  std::size_t capacity = std::max<std::size_t>(64, index_.size());
  while (capacity < orders_.size() * 2) capacity *= 2;
  rebuild_index(capacity);
}

void PlackettLuce::add(const std::vector<std::size_t>& seat_bots, const std::vector<int>& ranks) {
  if (seat_bots.size() < 2 || seat_bots.size() != ranks.size()) return;
  constexpr std::size_t kMaxBot = std::numeric_limits<std::uint32_t>::max() - 1;
  if (std::any_of(seat_bots.begin(), seat_bots.end(), [](std::size_t b) { return b > kMaxBot; })) return;
  std::vector<std::pair<int, std::uint32_t>> by_rank;
  for (std::size_t i = 0; i < seat_bots.size(); ++i)
    by_rank.emplace_back(ranks[i], static_cast<std::uint32_t>(seat_bots[i]));
  std::sort(by_rank.begin(), by_rank.end());
  std::vector<std::uint32_t> bots;
  std::vector<std::uint8_t> ties;
  for (std::size_t i = 0; i < by_rank.size(); ++i) {
    bots.push_back(by_rank[i].second);
    ties.push_back(i > 0 && by_rank[i].first == by_rank[i - 1].first ? 1 : 0);
  }
  for (std::size_t b : seat_bots) {
    if (b >= games_.size()) games_.resize(b + 1, 0);
    ++games_[b];
  }
  if (const std::size_t found = find(bots, ties); found < orders_.size()) {
    ++orders_[found].count;
    return;
  }
  // A new order: every order of its tie groups (positions permuted within each group, like an
  // odometer, so that two seats of one bot tied together still count as two orders).
  Order o;
  o.first = bots_.size();
  o.seats = static_cast<std::uint32_t>(bots.size());
  o.max_bot = *std::max_element(bots.begin(), bots.end());
  o.count = 1;
  std::vector<std::pair<std::size_t, std::size_t>> groups;  // [begin, end) of each tie group
  for (std::size_t k = 0; k < bots.size(); ++k) {
    if (ties[k] == 0) groups.emplace_back(k, k);
    groups.back().second = k + 1;
  }
  std::vector<std::vector<std::size_t>> perm;
  for (const auto& [begin, end] : groups) {
    perm.emplace_back(end - begin);
    std::iota(perm.back().begin(), perm.back().end(), begin);
  }
  while (true) {
    for (const auto& p : perm) {
      for (std::size_t pos : p) bots_.push_back(bots[pos]);
    }
    ++o.sequences;
    std::size_t g = 0;
    while (g < perm.size() && !std::next_permutation(perm[g].begin(), perm[g].end())) ++g;
    if (g == perm.size()) break;
  }
  ties_.resize(bots_.size(), 0);
  std::copy(ties.begin(), ties.end(), ties_.begin() + static_cast<std::ptrdiff_t>(o.first));
  orders_.push_back(o);
  if (orders_.size() - sorted_ > std::max<std::size_t>(4096, sorted_ / 8)) {
    consolidate();  // every orders/8 new orders (amortized O(1) per match); indexes them all
    return;
  }
  if (orders_.size() * 2 > index_.size()) {
    rebuild_index(std::max<std::size_t>(64, index_.size() * 2));
  } else {
    const std::size_t mask = index_.size() - 1;
    std::size_t slot = hash_order(bots.data(), ties.data(), bots.size()) & mask;
    while (index_[slot] != 0) slot = (slot + 1) & mask;
    index_[slot] = static_cast<std::uint32_t>(orders_.size());
  }
}

namespace {

// The log-likelihood of the matches (each order's sequences with weight count / sequences) and
// of the prior, in the log-strengths of the active bots (rows), with its gradient and (on
// request) the information, i.e. minus its Hessian:
//   loglik = sum_r chosen_r theta_r - sum over stages k of a sequence of w log T_k,
//   T_k = sum_{j>=k} gamma_{x_j} (a stage: the seats not yet placed; the last seat is no stage),
//   gradient_r = chosen_r - sum over stages of w P_r, P_r = (r's seats' gammas) / T_k,
//   information = sum over stages of w (diag(P) - P P^T).
// For one sequence: sum over its stages of w e_j / T_k (k <= j) is e_j A_j with
// A_j = sum_{k <= j} w / T_k, and sum of w e_i e_j / T_k^2 over stages holding both (k <= i <= j)
// is e_i e_j Q_i with Q_i = sum_{k <= i} w / T_k^2: a pass is O(seats^2) per sequence.
// The prior: per active bot, half a win and half a loss of weight `prior` against the anchor
// (gamma 1): prior/2 theta - prior log(gamma + 1), gradient prior (1/2 - p), information
// prior p (1 - p), p = gamma / (gamma + 1).
struct Likelihood {
  double value = 0;
  std::vector<double> gradient;
  std::vector<double> information;  // rows x rows, lower triangle (row >= column)
};

struct Data {
  std::size_t rows = 0;
  std::vector<std::size_t> row;  // bot -> row, rows for none
  std::vector<double> chosen;    // per row: the weight of stages where it was placed next (with the prior)
  double prior = 0;
  // Sequences of the known orders: bots as rows, back to back, `seats` each, weight per sequence.
  std::vector<std::uint32_t> seats;
  std::vector<std::size_t> offset;  // sequence s is seats[offset[s] .. offset[s + 1])
  std::vector<double> weight;
};

void evaluate(const Data& d, const std::vector<double>& theta, bool with_information, Likelihood& out) {
  const std::size_t n = d.rows;
  std::vector<double> gamma(n);
  for (std::size_t r = 0; r < n; ++r) gamma[r] = std::exp(theta[r]);
  out.value = 0;
  out.gradient.assign(n, 0.0);
  if (with_information) out.information.assign(n * n, 0.0);
  double* info = out.information.data();
  double log_sum = 0;
  std::vector<double> e;
  std::vector<double> q;
  for (std::size_t s = 0; s + 1 < d.offset.size(); ++s) {
    const std::uint32_t* x = &d.seats[d.offset[s]];
    const std::size_t m = d.offset[s + 1] - d.offset[s];
    const double w = d.weight[s];
    e.resize(m);
    q.resize(m);
    for (std::size_t j = 0; j < m; ++j) e[j] = gamma[x[j]];
    // Suffix totals, from the last stage (k = m - 2) back; the stage's log accumulates in a
    // product flushed to log_sum before it could leave the double range.
    double t = e[m - 1];
    double product = 1;
    std::vector<double>& total = q;  // total[k] first, then reused for Q
    for (std::size_t k = m - 1; k-- > 0;) {
      t += e[k];
      total[k] = t;
      product *= t;
      if (product > 1e150 || product < 1e-150) {
        log_sum += w * std::log(product);
        product = 1;
      }
    }
    log_sum += w * std::log(product);
    double a = 0;
    double qq = 0;
    for (std::size_t j = 0; j < m; ++j) {
      if (j + 1 < m) {
        const double inv = 1.0 / total[j];
        a += w * inv;
        qq += w * inv * inv;
      }
      const double expected = e[j] * a;
      out.gradient[x[j]] -= expected;
      if (with_information) {
        info[x[j] * n + x[j]] += expected;
        q[j] = qq;  // total[j] is no longer needed
      }
    }
    if (!with_information) continue;
    for (std::size_t i = 0; i < m; ++i) {
      const double ei_qi = e[i] * q[i];
      for (std::size_t j = i; j < m; ++j) {
        const std::size_t ri = x[i];
        const std::size_t rj = x[j];
        // Both (i, j) and (j, i): one entry of the lower triangle, twice on the diagonal when a
        // bot holds both seats.
        const double v = ei_qi * e[j];
        if (ri == rj) {
          info[ri * n + ri] -= i == j ? v : 2 * v;
        } else {
          info[std::max(ri, rj) * n + std::min(ri, rj)] -= v;
        }
      }
    }
  }
  out.value = -log_sum;
  for (std::size_t r = 0; r < n; ++r) {
    out.value += d.chosen[r] * theta[r];
    out.gradient[r] += d.chosen[r];
    if (d.prior > 0) {
      const double p = gamma[r] / (gamma[r] + 1);
      out.value -= d.prior * std::log1p(gamma[r]);
      out.gradient[r] -= d.prior * p;
      if (with_information) info[r * n + r] += d.prior * p * (1 - p);
    }
  }
}

// The information to factor: without the anchor it is singular along "all strengths up", so
// J / n (J all ones) is added; on contrasts its inverse acts as the pseudo-inverse.
void complete(const Data& d, std::vector<double>& information) {
  if (d.prior > 0) return;
  const double add = 1.0 / static_cast<double>(d.rows);
  for (std::size_t r = 0; r < d.rows; ++r) {
    for (std::size_t c = 0; c <= r; ++c) information[r * d.rows + c] += add;
  }
}

}  // namespace

std::vector<EloEstimate> PlackettLuce::fit(std::size_t bots, const RankingOptions& options, FitState* state) const {
  std::vector<std::uint64_t> games(bots, 0);
  for (std::size_t b = 0; b < std::min(bots, games_.size()); ++b) games[b] = games_[b];
  Data d;
  d.prior = std::max(options.prior_draws, 0.0);
  d.row.assign(bots, bots);
  std::vector<std::size_t> active;  // bots that played, in index order
  for (std::size_t b = 0; b < bots; ++b) {
    if (games[b] == 0) continue;
    d.row[b] = active.size();
    active.push_back(b);
  }
  d.rows = active.size();
  const std::size_t n = d.rows;
  d.chosen.assign(n, d.prior / 2);
  d.offset.push_back(0);
  // The orders in canonical order: the stored ones merged with the newest, sorted here.
  const std::vector<std::uint32_t> tail = sorted_tail();
  std::size_t next_stored = 0;
  std::size_t next_new = 0;
  while (next_stored < sorted_ || next_new < tail.size()) {
    const bool stored = next_new == tail.size() ||
                        (next_stored < sorted_ && canonical_less(orders_[next_stored], orders_[tail[next_new]]));
    const Order& o = orders_[stored ? next_stored++ : tail[next_new++]];
    if (o.max_bot >= bots) continue;
    const double w = static_cast<double>(o.count) / o.sequences;
    for (std::uint32_t s = 0; s < o.sequences; ++s) {
      const std::uint32_t* x = &bots_[o.first + std::size_t{s} * o.seats];
      for (std::uint32_t k = 0; k < o.seats; ++k) {
        d.seats.push_back(static_cast<std::uint32_t>(d.row[x[k]]));
        if (k + 1 < o.seats) d.chosen[d.row[x[k]]] += w;
      }
      d.offset.push_back(d.seats.size());
      d.weight.push_back(w);
    }
  }

  // Newton's method on the concave log-likelihood: step = information^-1 gradient, halved until
  // the log-likelihood does not fall (Armijo, with a slack for rounding); a ridge is added to a
  // factor that is not positive definite (a runaway bot's information tends to 0).
  std::vector<double> theta(n, 0.0);
  if (state != nullptr) {
    for (std::size_t r = 0; r < n; ++r) {
      if (active[r] < state->theta.size()) theta[r] = std::clamp(state->theta[active[r]], -kThetaBound, kThetaBound);
    }
  }
  const auto recentre = [&](std::vector<double>& t) {
    if (d.prior > 0 || n == 0) return;
    const double mean = std::accumulate(t.begin(), t.end(), 0.0) / static_cast<double>(n);
    for (double& x : t) x -= mean;
  };
  recentre(theta);
  int factorizations = 0;
  std::vector<double> factor;
  // Factors the information (completed) into `factor`; true when it is positive definite as it
  // is (what the intervals need). With `ridge_allowed` (a Newton step), a factor that fails is
  // retried with a growing ridge on the diagonal.
  const auto factorize = [&](std::vector<double> information, bool ridge_allowed) {
    complete(d, information);
    double largest = 0;
    for (std::size_t r = 0; r < n; ++r) largest = std::max(largest, information[r * n + r]);
    double ridge = 0;
    for (int attempt = 0; attempt < 40; ++attempt) {
      factor = information;
      ++factorizations;
      if (cholesky(factor, n, ridge)) return ridge == 0;
      if (!ridge_allowed) return false;
      ridge = ridge == 0 ? 1e-10 * std::max(largest, 1.0) : ridge * 100;
    }
    return false;
  };
  Likelihood here;
  int steps = 0;
  bool factor_here = false;  // the factor is the information at `theta`, with no ridge
  if (n > 0) {
    // The last fit's factor, when it was over the same bots, serves for the first (chord) steps:
    // after a few new matches the information has hardly changed.
    const bool reuse = state != nullptr && state->active == active && state->factor.size() == n * n;
    if (reuse) {
      factor = state->factor;
      evaluate(d, theta, false, here);
    } else {
      evaluate(d, theta, true, here);
      factor_here = factorize(here.information, true);
    }
    bool ridged = !reuse && !factor_here;  // the factor in use needed a ridge
    double last_step = std::numeric_limits<double>::infinity();
    Likelihood next;
    std::vector<double> delta(n);
    std::vector<double> trial(n);
    for (; steps < options.max_iterations; ++steps) {
      delta = here.gradient;
      solve(factor, n, delta);
      // Shortened so that no log-strength leaves +/-kThetaBound (still an ascent direction); a
      // fit that reaches the bound stops there.
      double room = 1;
      for (std::size_t r = 0; r < n; ++r) {
        if (theta[r] + delta[r] > kThetaBound) room = std::min(room, (kThetaBound - theta[r]) / delta[r]);
        if (theta[r] + delta[r] < -kThetaBound) room = std::min(room, (-kThetaBound - theta[r]) / delta[r]);
      }
      double step = 0;
      double slope = 0;
      for (std::size_t r = 0; r < n; ++r) {
        delta[r] *= std::max(room, 0.0);
        step = std::max(step, std::abs(delta[r]));
        slope += here.gradient[r] * delta[r];
      }
      if (!(step >= options.tolerance) || !(slope > 0)) break;
      // A factor that needed a ridge: the likelihood is flat along some direction (without a prior,
      // a bot that never lost or a group that never met the rest). Stop once a step would gain
      // nothing within rounding instead of creeping toward a maximum that does not exist.
      if (ridged && slope < 1e-12 * (std::abs(here.value) + 1)) break;
      bool refactor = step > kChordStep || step > last_step * kChordShrink;
      double t = 1;
      for (;;) {
        for (std::size_t r = 0; r < n; ++r) trial[r] = theta[r] + t * delta[r];
        recentre(trial);
        evaluate(d, trial, refactor, next);
        const double slack = 1e-12 * (std::abs(here.value) + 1);
        if (next.value >= here.value + 1e-4 * t * slope - slack) break;
        t /= 2;
        refactor = true;  // a step that overshot: Newton again from where it lands
        if (t < 1e-12) break;
      }
      if (t < 1e-12) break;  // no ascent left within rounding
      theta = trial;
      std::swap(here, next);
      last_step = step * t;
      if (refactor) {
        factor_here = factorize(here.information, true);
        ridged = !factor_here;
      } else {
        factor_here = false;
      }
    }
    // The intervals need the information where the fit ended.
    if (!factor_here) {
      evaluate(d, theta, true, here);
      factor_here = factorize(here.information, false);
    }
  }
  if (state != nullptr) {
    state->theta.assign(bots, 0.0);
    for (std::size_t r = 0; r < n; ++r) state->theta[active[r]] = theta[r];
    state->steps = steps;
    state->factorizations = factorizations;
    state->active = active;
    state->factor.clear();
    if (factor_here) state->factor = factor;
  }

  const double mean = n > 0 ? std::accumulate(theta.begin(), theta.end(), 0.0) / static_cast<double>(n) : 0.0;
  const std::vector<double> var = factor_here ? contrast_variances(factor, n) : std::vector<double>{};
  std::vector<EloEstimate> out(bots);
  for (std::size_t b = 0; b < bots; ++b) {
    EloEstimate& e = out[b];
    e.samples = games[b];
    if (games[b] == 0) continue;
    const std::size_t r = d.row[b];
    e.elo = std::clamp(kEloPerTheta * (theta[r] - mean), -kEloBound, kEloBound) + 0.0;
    if (var.empty() || games[b] < kEloMinSamples) continue;
    if (!(var[r] >= 0)) continue;
    const double half = kZ95 * kEloPerTheta * std::sqrt(var[r]);
    e.interval = IntervalKind::normal;
    e.low = std::clamp(e.elo - half, -kEloBound, kEloBound) + 0.0;
    e.high = std::clamp(e.elo + half, -kEloBound, kEloBound) + 0.0;
  }
  return out;
}

}  // namespace arena::league
