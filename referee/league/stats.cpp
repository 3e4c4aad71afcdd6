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

// `pseudo` is added to every count: 0 normally; see regularized_sprt.
template <std::size_t K>
Moments moments(const std::array<double, K>& values, const std::array<int, K>& int_counts, double pseudo = 0) {
  std::array<double, K> counts{};
  for (std::size_t k = 0; k < K; ++k) counts[k] = int_counts[k] + pseudo;
  Moments m;
  for (std::size_t k = 0; k < K; ++k) m.n += counts[k];
  if (m.n <= 0) return m;
  for (std::size_t k = 0; k < K; ++k) m.mean += counts[k] * values[k];
  m.mean /= m.n;
  for (std::size_t k = 0; k < K; ++k) m.var += counts[k] * (values[k] - m.mean) * (values[k] - m.mean);
  m.var /= m.n;
  return m;
}

EloEstimate estimate(const Moments& m) {
  if (m.n <= 0) return EloEstimate{0, -kEloBound, kEloBound};
  const double se = std::sqrt(std::max(0.0, m.var) / m.n);
  return EloEstimate{elo_from_score(m.mean), elo_from_score(m.mean - kZ95 * se), elo_from_score(m.mean + kZ95 * se)};
}

SprtState sprt(const Moments& m, const SprtConfig& c) {
  SprtState st;
  st.lower = std::log(c.beta / (1 - c.alpha));
  st.upper = std::log((1 - c.beta) / c.alpha);
  if (m.n <= 0 || !(m.var > 0)) return st;
  const double s0 = score_from_elo(c.elo0);
  const double s1 = score_from_elo(c.elo1);
  st.llr = m.n * (s1 - s0) * (2 * m.mean - s0 - s1) / (2 * m.var);
  if (st.llr >= st.upper) {
    st.decision = SprtState::Decision::accept_h1;
  } else if (st.llr <= st.lower) {
    st.decision = SprtState::Decision::accept_h0;
  }
  return st;
}

constexpr std::array<double, 3> kTrinomialScores = {0.0, 0.5, 1.0};
constexpr std::array<double, 5> kPentanomialScores = {0.0, 0.25, 0.5, 0.75, 1.0};

Moments trinomial(int wins, int draws, int losses, double pseudo = 0) {
  return moments(kTrinomialScores, std::array<int, 3>{losses, draws, wins}, pseudo);
}

// When every game (pair) so far has the same outcome the variance is 0 and the LLR undefined, so
// a test between a strong and a weak bot would never stop. As fishtest does, a tiny pseudo-count
// (1e-3) is then added to every outcome: the variance becomes small but positive and the LLR
// grows with the evidence. With any variance in the data the counts are used as they are.
constexpr double kPseudoCount = 1e-3;

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
  if (n == 0) return estimate(m);
  m.mean = score_mean(n, sum);
  m.var = squared_deviations / m.n;
  return estimate(m);
}

EloEstimate elo_from_wdl(int wins, int draws, int losses) {
  return estimate(trinomial(wins, draws, losses));
}

int Pentanomial::pairs() const {
  return std::accumulate(counts.begin(), counts.end(), 0);
}

EloEstimate elo_from_pentanomial(const Pentanomial& p) {
  return estimate(moments(kPentanomialScores, p.counts));
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
  const Moments m = trinomial(wins, draws, losses);
  return sprt(m.n > 0 && !(m.var > 0) ? trinomial(wins, draws, losses, kPseudoCount) : m, config);
}

SprtState sprt_pentanomial(const Pentanomial& p, const SprtConfig& config) {
  const Moments m = moments(kPentanomialScores, p.counts);
  return sprt(m.n > 0 && !(m.var > 0) ? moments(kPentanomialScores, p.counts, kPseudoCount) : m, config);
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
