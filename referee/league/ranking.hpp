#pragma once
// A rating for games of any number of seats: the Plackett-Luce model fitted by maximum likelihood
// (Newton's method), with 95% intervals, on the logistic Elo scale. Pure math, no I/O; the method,
// its tie rule and its prior are explained with numbers in docs/statistics.md ("Multi-seat rating").
//
// Model: bot b has a strength gamma_b = exp(theta_b). A finishing order b1 > b2 > ... > bn has
// probability prod_k gamma_{bk} / (gamma_{bk} + ... + gamma_{bn}): the winner is drawn among all
// seats in proportion to strength, the second among the rest, and so on. With two seats this is
// Bradley-Terry, P(a beats b) = 1 / (1 + exp(theta_b - theta_a)), the logistic Elo curve with
// Elo = theta * 400 / ln 10.
//
// Ties: a match whose seats tie counts as every order of the tied seats, each with an equal share
// of the match's weight (two seats tied: half a win each way, as a draw in Elo). A tie of k seats
// is k! orders, kept once per distinct finishing order.
//
// Prior: every bot plays `prior_draws` virtual drawn games against an anchor of strength 1
// (theta 0), so that a bot that won (or lost) every match still has a finite rating; with
// prior_draws = 0 the plain maximum-likelihood fit is returned (finite only when every bot both
// beat and was beaten by someone, through any chain of results).

#include <cstddef>
#include <cstdint>
#include <vector>

#include "referee/league/stats.hpp"

namespace arena::league {

struct RankingOptions {
  double prior_draws = 1.0;
  int max_iterations = 100000;  // Newton steps (each a pass over the distinct orders)
  double tolerance = 1e-12;     // stop when no log-strength would move more than this in one step
};

// What a fit leaves for the next one, so that a refit after a few new matches takes a few steps
// (the ladder refits its leaderboard every few seconds).
struct FitState {
  // In: where to start, per bot (bots beyond its size start at 0). Out: the log-strengths found
  // (theta_b against the anchor, or centred on the mean without a prior).
  std::vector<double> theta;
  int steps = 0;           // out: Newton and chord steps taken
  int factorizations = 0;  // out: Cholesky factorizations of the information (bots^3 / 3 each)
  // In and out: the bots that played and the Cholesky factor of the information where the fit
  // ended; the next fit over the same bots takes its first steps with it (chord steps) instead
  // of factoring anew.
  std::vector<std::size_t> active;
  std::vector<double> factor;
};

// The results of matches aggregated by finishing order: memory grows with the number of distinct
// orders (at most bots^seats times the tie patterns), never with the number of matches, and the
// fit does not depend on the order in which matches were added.
class PlackettLuce {
 public:
  // One match: seat_bots[i] is the bot (0-based index, below 2^32 - 1) in seat i, ranks[i] its
  // rank (1 = best, tied seats share a rank). Fewer than 2 seats, sizes that differ, or a larger
  // index are ignored.
  void add(const std::vector<std::size_t>& seat_bots, const std::vector<int>& ranks);

  std::size_t orders() const { return orders_.size(); }

  // Ratings of bots 0 .. bots-1 on the Elo scale, centred on the mean of the bots that played
  // (a bot that never played gets elo 0 and no interval); matches with a bot outside that range
  // are left out. The interval is elo -/+ kZ95 * 400 / ln 10 * sd, sd from the inverse of the
  // observed information of the log-likelihood in the log-strengths (a contrast against the
  // mean), clamped to kEloBound; a bot with fewer than kEloMinSamples games gets no interval
  // (IntervalKind::none). EloEstimate::samples is the bot's games; score its mean rank points is
  // not known here (0). With `state`, the fit starts from state->theta and leaves its own there.
  std::vector<EloEstimate> fit(std::size_t bots, const RankingOptions& options = {}, FitState* state = nullptr) const;

 private:
  // A distinct finishing order: its canonical sequence (bots from first to last, tied bots in
  // increasing order) is the first of the `sequences` orders its ties allow, stored back to back
  // in bots_ from `first`; ties_[first + k] is 1 when seat k is tied with seat k - 1.
  struct Order {
    std::size_t first = 0;
    std::uint32_t seats = 0;
    std::uint32_t sequences = 0;
    std::uint32_t max_bot = 0;
    std::uint64_t count = 0;
  };
  std::size_t find(const std::vector<std::uint32_t>& bots, const std::vector<std::uint8_t>& ties) const;
  void rebuild_index(std::size_t capacity);
  // The canonical order of orders (by canonical sequence, then ties): the fit sums over orders in
  // it, so that its result is the same bits whatever order the matches were added in.
  bool canonical_less(const Order& x, const Order& y) const;
  std::vector<std::uint32_t> sorted_tail() const;  // the orders past sorted_, in canonical order
  // Rewrites the orders in canonical order (the unsorted tail merged in), for sequential passes.
  void consolidate();

  std::vector<Order> orders_;  // [0, sorted_) in canonical order and stored in that order; then new ones
  std::size_t sorted_ = 0;
  std::vector<std::uint32_t> bots_;
  std::vector<std::uint8_t> ties_;    // per canonical sequence only (sized like bots_)
  std::vector<std::uint32_t> index_;  // open addressing: order + 1, 0 for an empty slot
  std::vector<std::uint64_t> games_;  // seats played, per bot
};

}  // namespace arena::league
