#include "referee/league/stats.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <numeric>

namespace arena::league {

namespace {

// Mean and population variance of weighted samples (value, count).
struct Moments {
  double n = 0;
  double mean = 0;
  double var = 0;
};

template <std::size_t K>
Moments moments(const std::array<double, K>& values, const std::array<int, K>& counts) {
  Moments m;
  for (std::size_t k = 0; k < K; ++k) m.n += counts[k];
  if (m.n <= 0) return m;
  for (std::size_t k = 0; k < K; ++k) m.mean += counts[k] * values[k];
  m.mean /= m.n;
  for (std::size_t k = 0; k < K; ++k) m.var += counts[k] * (values[k] - m.mean) * (values[k] - m.mean);
  m.var /= m.n;
  return m;
}

// 800 / ln 10: one unit of the logistic's natural scale in Elo, times two (nElo's constant).
constexpr double kNeloScale = 800.0 / 2.302585092994046;
// A variance this small is rounding of a constant sample (e.g. rank points of 1/3 summed).
constexpr double kZeroVariance = 1e-12;
// One-sided tail of the exact bound: the two-sided 95% interval leaves 2.5% on each side.
constexpr double kTail = 0.025;

// `pairs`: the samples are pairs of games, whose per-game standard deviation is sqrt(2 var).
EloEstimate estimate(const Moments& m, bool pairs) {
  EloEstimate e;
  e.samples = static_cast<std::uint64_t>(m.n);
  if (m.n <= 0) return e;
  e.score = m.mean;
  e.elo = elo_from_score(m.mean);
  if (e.samples < kEloMinSamples) return e;
  if (!(m.var > kZeroVariance)) {
    // Every sample scored c = mean. P(a sample scores c) = q is at least 0.025^(1/n) with 97.5%
    // confidence, and the mean score is then between c q (the rest scoring 0) and c q + 1 - q.
    const double q = std::pow(kTail, 1.0 / m.n);
    e.interval = IntervalKind::exact;
    e.low = elo_from_score(m.mean * q);
    e.high = elo_from_score(m.mean * q + 1 - q);
    e.elo = std::clamp(e.elo, e.low, e.high);
    return e;
  }
  const double se = std::sqrt(m.var / m.n);
  const double game_sd = std::sqrt(pairs ? 2 * m.var : m.var);
  e.interval = IntervalKind::normal;
  e.low = elo_from_score(m.mean - kZ95 * se);
  e.high = elo_from_score(m.mean + kZ95 * se);
  e.nelo = (m.mean - 0.5) / game_sd * kNeloScale;
  e.nelo_error = kZ95 * se / game_sd * kNeloScale;
  e.los = 0.5 * (1 + std::erf((m.mean - 0.5) / (se * std::sqrt(2.0))));
  return e;
}

// theta of the maximum-likelihood distribution with mean s (see sprt_trinomial): the root of
// f(theta) = sum_i p_i (a_i - s) / (1 + theta (a_i - s)), which decreases from +inf to -inf on
// (-1 / (a_max - s), -1 / (a_min - s)) when every p_i > 0; found by bisection to the last bit.
template <std::size_t K>
double mle_theta(const std::array<double, K>& a, const std::array<double, K>& p, double s) {
  double lo = -1.0 / (a[K - 1] - s);
  double hi = -1.0 / (a[0] - s);
  for (int step = 0; step < 2000; ++step) {
    const double mid = lo + (hi - lo) / 2;
    if (!(mid > lo && mid < hi)) break;
    double f = 0;
    for (std::size_t i = 0; i < K; ++i) f += p[i] * (a[i] - s) / (1 + mid * (a[i] - s));
    (f > 0 ? lo : hi) = mid;
  }
  return lo + (hi - lo) / 2;
}

template <std::size_t K>
SprtState gsprt(const std::array<double, K>& a, const std::array<int, K>& counts, int min_samples,
                const SprtConfig& c) {
  SprtState st;
  st.lower = std::log(c.beta / (1 - c.alpha));
  st.upper = std::log((1 - c.beta) / c.alpha);
  st.samples = std::accumulate(counts.begin(), counts.end(), 0);
  st.min_samples = min_samples;
  st.below_minimum = st.samples < min_samples;
  if (st.samples <= 0) return st;
  std::array<double, K> p{};
  double total = 0;
  for (std::size_t i = 0; i < K; ++i) {
    p[i] = counts[i] > 0 ? static_cast<double>(counts[i]) : kSprtEmptyCell;
    total += p[i];
  }
  for (double& x : p) x /= total;
  const double s0 = score_from_elo(c.elo0);
  const double s1 = score_from_elo(c.elo1);
  const double t0 = mle_theta(a, p, s0);
  const double t1 = mle_theta(a, p, s1);
  // log(q1_i / q0_i) = log(1 + t0 (a_i - s0)) - log(1 + t1 (a_i - s1)).
  double sum = 0;
  for (std::size_t i = 0; i < K; ++i) sum += p[i] * (std::log1p(t0 * (a[i] - s0)) - std::log1p(t1 * (a[i] - s1)));
  st.llr = total * sum;
  if (st.below_minimum) return st;
  if (st.llr >= st.upper) {
    st.decision = SprtState::Decision::accept_h1;
  } else if (st.llr <= st.lower) {
    st.decision = SprtState::Decision::accept_h0;
  }
  return st;
}

constexpr std::array<double, 3> kTrinomialScores = {0.0, 0.5, 1.0};
constexpr std::array<double, 5> kPentanomialScores = {0.0, 0.25, 0.5, 0.75, 1.0};

Moments trinomial(int wins, int draws, int losses) {
  return moments(kTrinomialScores, std::array<int, 3>{losses, draws, wins});
}

}  // namespace

double score_from_elo(double elo) {
  return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0));
}

double elo_from_score(double s) {
  if (!(s > 0)) return -kEloBound;  // also catches NaN
  if (s >= 1) return kEloBound;
  // + 0.0 turns -0.0 (at s = 0.5) into 0.0.
  return std::clamp(-400.0 * std::log10(1.0 / s - 1.0), -kEloBound, kEloBound) + 0.0;
}

EloEstimate elo_from_scores(const std::vector<double>& scores) {
  const double sum = std::accumulate(scores.begin(), scores.end(), 0.0);
  const double mean = score_mean(scores.size(), sum);
  double squared_deviations = 0;
  for (double x : scores) squared_deviations = add_squared_deviation(squared_deviations, x, mean);
  return elo_from_score_sums(scores.size(), sum, squared_deviations);
}

double score_mean(std::uint64_t n, double sum) {
  return n == 0 ? 0.0 : sum / static_cast<double>(n);
}

double add_squared_deviation(double squared_deviations, double x, double mean) {
  return squared_deviations + (x - mean) * (x - mean);
}

EloEstimate elo_from_score_sums(std::uint64_t n, double sum, double squared_deviations) {
  Moments m;
  m.n = static_cast<double>(n);
  if (n == 0) return estimate(m, false);
  m.mean = score_mean(n, sum);
  m.var = squared_deviations / m.n;
  return estimate(m, false);
}

EloEstimate elo_from_wdl(int wins, int draws, int losses) {
  return estimate(trinomial(wins, draws, losses), false);
}

int Pentanomial::pairs() const {
  return std::accumulate(counts.begin(), counts.end(), 0);
}

EloEstimate elo_from_pentanomial(const Pentanomial& p) {
  return estimate(moments(kPentanomialScores, p.counts), true);
}

double draw_ratio(int wins, int draws, int losses) {
  const int n = wins + draws + losses;
  return n > 0 ? static_cast<double>(draws) / n : 0.0;
}

double draw_ratio(const Pentanomial& p) {
  return p.pairs() > 0 ? static_cast<double>(p.counts[2]) / p.pairs() : 0.0;
}

std::optional<double> pairs_ratio(const Pentanomial& p) {
  const int lost = p.counts[0] + p.counts[1];
  if (lost == 0) return std::nullopt;
  return static_cast<double>(p.counts[3] + p.counts[4]) / lost;
}

std::string_view to_string(SprtState::Decision d) {
  switch (d) {
    case SprtState::Decision::accept_h0:
      return "accept_h0";
    case SprtState::Decision::accept_h1:
      return "accept_h1";
    case SprtState::Decision::none:
      break;
  }
  return "none";
}

SprtState sprt_trinomial(int wins, int draws, int losses, const SprtConfig& config) {
  return gsprt(kTrinomialScores, std::array<int, 3>{losses, draws, wins}, kSprtMinGames, config);
}

SprtState sprt_pentanomial(const Pentanomial& p, const SprtConfig& config) {
  return gsprt(kPentanomialScores, p.counts, kSprtMinPairs, config);
}

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const PercentilePlace place = percentile_place(values.size(), p);
  const auto i = static_cast<std::size_t>(place.rank);
  return percentile_value(place, values[i], place.interpolate ? values[i + 1] : values[i]);
}

PercentilePlace percentile_place(std::uint64_t n, double p) {
  const double h = std::clamp(p, 0.0, 1.0) * static_cast<double>(n - 1);
  const double lo = std::floor(h);
  const auto i = static_cast<std::uint64_t>(lo);
  if (i + 1 >= n) return PercentilePlace{n - 1, false, 0};
  return PercentilePlace{i, true, h - lo};
}

double percentile_value(const PercentilePlace& place, double at, double next) {
  return place.interpolate ? at + place.fraction * (next - at) : at;
}

double median(std::vector<double> values) {
  return percentile(std::move(values), 0.5);
}

Result<SprtConfig> parse_sprt_config(std::string_view text) {
  std::map<std::string, double> seen;
  std::size_t pos = 0;
  const auto is_sep = [](char c) { return c == ' ' || c == ',' || c == '\t'; };
  while (pos < text.size()) {
    if (is_sep(text[pos])) {
      ++pos;
      continue;
    }
    std::size_t end = pos;
    while (end < text.size() && !is_sep(text[end])) ++end;
    const std::string_view item = text.substr(pos, end - pos);
    pos = end;
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos) {
      return fail(
          fmt::format("SPRT: \"{}\" is not key=value (expected e.g. "
                      "\"elo0=0 elo1=5 alpha=0.05 beta=0.05\")",
                      item));
    }
    const std::string key(item.substr(0, eq));
    std::string_view value = item.substr(eq + 1);
    if (key != "elo0" && key != "elo1" && key != "alpha" && key != "beta") {
      return fail(fmt::format("SPRT: unknown key \"{}\" (keys: elo0, elo1, alpha, beta)", key));
    }
    if (seen.count(key) != 0) return fail(fmt::format("SPRT: {} given twice", key));
    if (!value.empty() && value.front() == '+') value.remove_prefix(1);
    double number = 0;
    const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
    if (value.empty() || ec != std::errc() || ptr != value.data() + value.size() || !std::isfinite(number)) {
      return fail(fmt::format("SPRT: {}={} is not a number", key, item.substr(eq + 1)));
    }
    seen[key] = number;
  }
  for (const char* key : {"elo0", "elo1", "alpha", "beta"}) {
    if (seen.count(key) == 0) {
      return fail(fmt::format("SPRT: missing {} (expected \"elo0=0 elo1=5 alpha=0.05 beta=0.05\")", key));
    }
  }
  const SprtConfig c{seen["elo0"], seen["elo1"], seen["alpha"], seen["beta"]};
  if (!(c.alpha > 0 && c.alpha < 1)) return fail(fmt::format("SPRT: alpha={} is not in (0,1)", c.alpha));
  if (!(c.beta > 0 && c.beta < 1)) return fail(fmt::format("SPRT: beta={} is not in (0,1)", c.beta));
  if (c.alpha + c.beta >= 1) {
    return fail(fmt::format("SPRT: alpha + beta = {} must be below 1", c.alpha + c.beta));
  }
  if (!(c.elo1 > c.elo0)) {
    return fail(fmt::format("SPRT: elo1={} must be greater than elo0={}", c.elo1, c.elo0));
  }
  return c;
}

}  // namespace arena::league
