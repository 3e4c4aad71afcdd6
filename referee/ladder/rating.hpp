#pragma once
// The ladder's leaderboard rating: the league's Plackett-Luce maximum-likelihood fit
// (referee/league/ranking.hpp; docs/statistics.md "Multi-seat rating") over every counted game
// of the versions, 2 to 4 seats (or more), ties included. A version never changes, so the model
// has no recency and no drift: the fit depends on the set of games, not on their order, and more
// games of a fixed population only narrow the intervals. One virtual draw against an anchor is
// the prior, so a version that won every game still has a finite rating; a new version starts
// with no games and gets an interval once it has `interval_games` of them.
//
// Incremental: games are added one at a time (memory grows with distinct finishing orders), and
// each fit starts from the previous fit's log-strengths, so a refit after a few new games takes a
// few Newton or chord steps (tests/bench/bench_ladder_rating.cpp measures it).
//
// Beside the rating, per version: games, points (mean rank points per game: 1 for first, 0 for
// last, linear in between, ties sharing their places, as league::rank_points), wins, draws and
// losses in games of two seats, and places in games of more.

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "referee/core/result.hpp"
#include "referee/ladder/store.hpp"
#include "referee/league/ranking.hpp"

namespace arena::ladder {

struct RatingSettings {
  double prior_draws = 1.0;  // virtual draws of each version against the anchor
  // Fewer games: no interval (the fit gives none below league::kEloMinSamples either).
  std::uint64_t interval_games = league::kEloMinSamples;
};

struct VersionRating {
  Id version = 0;
  // Elo scale (400 / ln 10 per unit of log-strength), centred on the mean of the versions that
  // played; [low, high] its 95% interval when `rated`, else [-kEloBound, +kEloBound].
  double rating = 0;
  double low = -league::kEloBound;
  double high = league::kEloBound;
  bool rated = false;
  std::uint64_t games = 0;
  double points = 0;       // mean rank points per game, in [0, 1]
  std::uint64_t wins = 0;  // games of two seats
  std::uint64_t draws = 0;
  std::uint64_t losses = 0;
  // Games of three or more seats: places[k] is how many finished at rank k + 1 (tied seats share
  // the better rank: 1, 1, 3, 4).
  std::vector<std::uint64_t> places;
};

class Rating {
 public:
  explicit Rating(RatingSettings settings = {});

  // One counted game: the version in each seat and its rank (1 = best, tied seats share the best
  // of their places: 1, 1, 3). Refused, and nothing counted, when it has fewer than 2 seats, the
  // sizes differ, a version holds two seats, or the ranks are not of that form.
  Status add(const std::vector<Id>& seats, const std::vector<int>& ranks);
  Status add(const GameRow& game) { return add(game.seats, game.ranks); }

  // Every version that played, by version id.
  std::vector<VersionRating> fit();

  std::uint64_t games() const { return games_; }
  // The last fit's Newton and chord steps and factorizations.
  const league::FitState& last_fit() const { return state_; }

 private:
  struct Tally {
    std::uint64_t games = 0;
    double points = 0;  // sum
    std::uint64_t wins = 0;
    std::uint64_t draws = 0;
    std::uint64_t losses = 0;
    std::vector<std::uint64_t> places;
  };

  RatingSettings settings_;
  league::PlackettLuce model_;
  std::unordered_map<Id, std::size_t> index_;  // version -> the model's bot index
  std::vector<Id> versions_;                   // bot index -> version
  std::vector<Tally> tallies_;
  std::uint64_t games_ = 0;
  league::FitState state_;
};

}  // namespace arena::ladder
