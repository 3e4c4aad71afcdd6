#pragma once
// League statistics as pure math: logistic Elo with 95% confidence intervals from game
// (trinomial) or duplicate-pair (pentanomial) results, nElo, LOS, draw and pairs ratios, the
// generalised SPRT that fishtest and fastchess use, and percentiles of decision times. No I/O;
// every formula is written above its function; docs/statistics.md explains them with numbers.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "referee/core/enum_names.hpp"
#include "referee/core/result.hpp"

namespace arena::league {

// |Elo| never exceeds this: a mean score of 0 or 1 (or an interval end beyond it) maps to
// -kEloBound / +kEloBound, so every estimate is finite and JSON-safe. 1000 Elo is a score of
// 0.9968.
inline constexpr double kEloBound = 1000.0;

// z of a two-sided 95% normal interval: Phi^-1(0.975).
inline constexpr double kZ95 = 1.959963984540054;

// Below this many samples (games, or pairs for the pentanomial) no interval is given: a normal
// interval on a handful of results is not worth its digits (docs/statistics.md, "Too few games").
inline constexpr std::uint64_t kEloMinSamples = 10;

// What the interval of an EloEstimate is.
enum class IntervalKind {
  none,    // too few samples (< kEloMinSamples): low/high are the widest, and mean nothing
  normal,  // mean -/+ kZ95 standard errors (the variance of the samples is positive)
  exact,   // every sample had the same value c: the exact 95% bound [c q, c q + 1 - q] on the
           // mean score, q = 0.025^(1/n) (Clopper-Pearson on "a sample scores c")
};

}  // namespace arena::league

// Its name in standings.json.
template <>
struct arena::EnumNames<arena::league::IntervalKind> {
  using E = league::IntervalKind;
  static constexpr auto table = name_table(E::none, "none", E::normal, "normal", E::exact, "exact");
};

namespace arena::league {

// A logistic Elo difference with its 95% confidence interval; low <= elo <= high, all finite.
// nelo, nelo_error and los are meaningful only with a normal interval.
struct EloEstimate {
  double elo = 0;
  double low = -kEloBound;
  double high = kEloBound;
  IntervalKind interval = IntervalKind::none;
  std::uint64_t samples = 0;  // games, or pairs for the pentanomial
  double score = 0;           // mean score of a sample, in [0,1]
  // Normalized Elo (fastchess's nElo): (score - 0.5) / (sd of one game's score) * 800 / ln 10;
  // for pairs the per-game sd is sqrt(2 var(pair)). nelo_error is the half-width of its interval.
  double nelo = 0;
  double nelo_error = 0;
  // Likelihood of superiority: Phi((score - 0.5) / se), the chance that the true score is above
  // one half under the normal approximation.
  double los = 0.5;

  bool known() const { return interval != IntervalKind::none; }
};

// Expected score of an Elo difference: s = 1 / (1 + 10^(-elo/400)).
double score_from_elo(double elo);

// Inverse: elo = -400 * log10(1/s - 1), clamped to [-kEloBound, kEloBound]; s <= 0 gives
// -kEloBound, s >= 1 gives +kEloBound (also for s outside [0,1], an interval end).
double elo_from_score(double s);

// Elo of a list of per-game scores in [0,1] (game results 0/0.5/1, or rank points of a game of
// more seats). s = mean, var = (1/n) * sum (x_i - s)^2 (population variance of one game),
// se = sqrt(var / n), interval = elo_from_score(s -/+ kZ95 * se).
// Fewer than kEloMinSamples scores: elo of the mean, interval none. Zero variance (all wins, all
// losses, all draws): the exact bound (IntervalKind::exact).
EloEstimate elo_from_scores(const std::vector<double>& scores);

// elo_from_scores in two passes over scores that are not kept (league standings fed one match at a
// time), with the same arithmetic in the same order, so the same bits: the first pass sums the
// scores (sum = sum + x, from 0, in order), the second sums their squared deviations from
// score_mean(n, sum) with add_squared_deviation, in the same order.
double score_mean(std::uint64_t n, double sum);
double add_squared_deviation(double squared_deviations, double x, double mean);
EloEstimate elo_from_score_sums(std::uint64_t n, double sum, double squared_deviations);

// Trinomial Elo of wins/draws/losses: elo_from_scores of W ones, D halves and L zeros, i.e.
// s = (W + D/2) / n, var = (W (1-s)^2 + D (1/2-s)^2 + L s^2) / n.
EloEstimate elo_from_wdl(int wins, int draws, int losses);

// Duplicate-deal pairs by a bot's total over the pair's two games: counts[k] = pairs in which it
// scored k/2 points, i.e. LL, LD, DD or WL, WD, WW (as fastchess and fishtest report them).
struct Pentanomial {
  std::array<int, 5> counts{};

  int pairs() const;
  bool operator==(const Pentanomial&) const = default;
};

// Pentanomial Elo: each pair is one sample x = (pair points) / 2 in {0, 1/4, 1/2, 3/4, 1};
// s = mean x, var = population variance of x per pair, se = sqrt(var / pairs),
// interval = elo_from_score(s -/+ kZ95 * se). Same edge cases as elo_from_scores, counted in pairs.
EloEstimate elo_from_pentanomial(const Pentanomial& p);

// Draw ratio as fastchess reports it: draws / games, and for pairs (DD + WL) / pairs, i.e. the
// pairs scoring exactly one point. 0 with no games (pairs).
double draw_ratio(int wins, int draws, int losses);
double draw_ratio(const Pentanomial& p);
// Pairs ratio (fastchess): pairs won (WW + WD) over pairs lost (LD + LL); nullopt when no pair
// was lost (the ratio is infinite or undefined).
std::optional<double> pairs_ratio(const Pentanomial& p);

// Sequential probability ratio test of H0: elo = elo0 against H1: elo = elo1 (logistic Elo),
// with false-positive rate alpha and false-negative rate beta.
struct SprtConfig {
  double elo0 = 0;
  double elo1 = 5;
  double alpha = 0.05;
  double beta = 0.05;
};

// The SPRT decides nothing before this many complete duplicate pairs (pentanomial) or games
// (trinomial), whatever the LLR: identical early results say little about a bot's strength, and
// the regularised LLR below can still be lucky on very few samples.
inline constexpr int kSprtMinPairs = 10;
inline constexpr int kSprtMinGames = 20;
// The count given to an empty cell of the pentanomial (trinomial) before the LLR is computed, as
// fishtest's regularize and fastchess do: the maximum-likelihood fits below need every outcome
// to have a positive frequency.
inline constexpr double kSprtEmptyCell = 1e-3;

struct SprtState {
  enum class Decision { none, accept_h0, accept_h1 };
  double llr = 0;    // log-likelihood ratio so far
  double lower = 0;  // log(beta / (1 - alpha)): at or below it, accept H0
  double upper = 0;  // log((1 - beta) / alpha): at or above it, accept H1
  Decision decision = Decision::none;
  int samples = 0;             // pairs (pentanomial) or games (trinomial) counted
  int min_samples = 0;         // kSprtMinPairs or kSprtMinGames
  bool below_minimum = false;  // samples < min_samples: no decision yet, whatever the LLR
};

// "none", "accept_h0" or "accept_h1", as standings.json reports the decision.
std::string_view to_string(SprtState::Decision d);

// Generalised SPRT with the logistic Elo model, as fastchess and fishtest compute it. The
// outcomes a_i (pair points / 2, or game points) have empirical frequencies p_i (zero counts
// replaced by kSprtEmptyCell, N = the sum of these counts). Under H_k the mean score is
// s_k = score_from_elo(elo_k); the distribution closest to the data with that mean (maximum
// likelihood, Van den Bergh, "Comments on Normalized Elo", Prop. 1.1) is
//   q_i = p_i / (1 + theta (a_i - s_k)),  theta solving  sum_i p_i (a_i - s_k) / (1 + theta (a_i - s_k)) = 0,
// and LLR = N * sum_i p_i log(q1_i / q0_i). No samples: llr 0 (the bounds are still filled in).
// A decision needs min_samples samples (see above).
SprtState sprt_trinomial(int wins, int draws, int losses, const SprtConfig& config);

// Same over N pairs, the outcomes being pair points / 2 (pentanomial). This is the right test
// for duplicate deals: the two games of a deal are correlated.
SprtState sprt_pentanomial(const Pentanomial& p, const SprtConfig& config);

// The p-quantile (p in [0,1], clamped) by linear interpolation between closest ranks
// (numpy's default, "type 7"): sorted x, h = p * (n - 1), x[floor h] + (h - floor h) *
// (x[floor h + 1] - x[floor h]). p = 0 is the minimum, p = 1 the maximum. Empty: 0.
double percentile(std::vector<double> values, double p);
double median(std::vector<double> values);

// Where percentile() looks among n >= 1 sorted values, for callers that find order statistics
// without sorting (league standings): the value is `at` (the `rank`-th smallest, 0-based) when
// `interpolate` is false, else at + fraction * (next - at) with `next` the (rank + 1)-th smallest.
// percentile_value() computes it exactly as percentile() does.
struct PercentilePlace {
  std::uint64_t rank = 0;
  bool interpolate = false;
  double fraction = 0;
};
PercentilePlace percentile_place(std::uint64_t n, double p);
double percentile_value(const PercentilePlace& place, double at, double next);

// Parses the CLI form "elo0=0 elo1=5 alpha=0.05 beta=0.05" (separated by spaces and/or
// commas, in any order). All four keys are required, each once; alpha and beta in (0,1) with
// alpha + beta < 1, and elo1 > elo0.
Result<SprtConfig> parse_sprt_config(std::string_view text);

}  // namespace arena::league
