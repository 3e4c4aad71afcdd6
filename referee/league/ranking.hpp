#pragma once
// A rating for games of any number of seats: the Plackett-Luce model fitted by Hunter's MM
// algorithm, with 95% intervals, on the logistic Elo scale. Pure math, no I/O; the method, its
// tie rule and its prior are explained with numbers in docs/statistics.md ("Multi-seat rating").
//
// Model: bot b has a strength gamma_b = exp(theta_b). A finishing order b1 > b2 > ... > bn has
// probability prod_k gamma_{bk} / (gamma_{bk} + ... + gamma_{bn}): the winner is drawn among all
// seats in proportion to strength, the second among the rest, and so on. With two seats this is
// Bradley-Terry, P(a beats b) = 1 / (1 + exp(theta_b - theta_a)), the logistic Elo curve with
// Elo = theta * 400 / ln 10.
//
// Ties: a match whose seats tie counts as every order of the tied seats, each with an equal share
// of the match's weight (two seats tied: half a win each way, as a draw in Elo).
//
// Prior: every bot plays `prior_draws` virtual drawn games against an anchor of strength 1
// (theta 0), so that a bot that won (or lost) every match still has a finite rating; with
// prior_draws = 0 the plain maximum-likelihood fit is returned (finite only when every bot both
// beat and was beaten by someone, through any chain of results).

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "referee/league/stats.hpp"

namespace arena::league {

struct RankingOptions {
  double prior_draws = 1.0;
  int max_iterations = 100000;
  double tolerance = 1e-12;  // stop when no log-strength moves more than this in one iteration
};

// The results of matches aggregated by finishing order: memory grows with the number of distinct
// orders (at most bots^seats times the tie patterns), never with the number of matches, and the
// fit does not depend on the order in which matches were added.
class PlackettLuce {
 public:
  // One match: seat_bots[i] is the bot (0-based index) in seat i, ranks[i] its rank (1 = best,
  // tied seats share a rank). Fewer than 2 seats, or sizes that differ, are ignored.
  void add(const std::vector<std::size_t>& seat_bots, const std::vector<int>& ranks);

  std::size_t orders() const { return orders_.size(); }

  // Ratings of bots 0 .. bots-1 on the Elo scale, centred on the mean of the bots that played
  // (a bot that never played gets elo 0 and no interval). The interval is
  // elo -/+ kZ95 * 400 / ln 10 * sd, sd from the inverse of the observed information of the
  // log-likelihood in the log-strengths (a contrast against the mean), clamped to kEloBound;
  // a bot with fewer than kEloMinSamples games gets no interval (IntervalKind::none).
  // EloEstimate::samples is the bot's games; score its mean rank points is not known here (0).
  std::vector<EloEstimate> fit(std::size_t bots, const RankingOptions& options = {}) const;

 private:
  // A finishing order: groups of tied bots from first to last, each group sorted.
  using Order = std::vector<std::vector<std::size_t>>;
  std::map<Order, std::uint64_t> orders_;
  std::vector<std::uint64_t> games_;  // seats played, per bot
};

}  // namespace arena::league
