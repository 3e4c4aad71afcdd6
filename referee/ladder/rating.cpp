#include "referee/ladder/rating.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "referee/league/record.hpp"

namespace arena::ladder {

Rating::Rating(RatingSettings settings) : settings_(settings) {}

Status Rating::add(const std::vector<Id>& seats, const std::vector<int>& ranks) {
  if (seats.size() < 2) return fail(fmt::format("a rated game needs 2 seats or more, not {}", seats.size()));
  if (seats.size() != ranks.size()) {
    return fail(fmt::format("a rated game has {} seats but {} ranks", seats.size(), ranks.size()));
  }
  for (std::size_t i = 0; i < seats.size(); ++i) {
    for (std::size_t j = i + 1; j < seats.size(); ++j) {
      if (seats[i] == seats[j]) return fail(fmt::format("version {} holds seats {} and {}", seats[i], i, j));
    }
    // A seat ranked r has exactly r - 1 seats ranked better (ties share the best of their places).
    const auto better = std::count_if(ranks.begin(), ranks.end(), [&](int r) { return r < ranks[i]; });
    if (ranks[i] < 1 || better != ranks[i] - 1) {
      std::string shown;
      for (int r : ranks) shown += (shown.empty() ? "" : ",") + std::to_string(r);
      return fail(fmt::format("ranks {} are not 1 for the best with ties sharing the best of their places", shown));
    }
  }
  std::vector<std::size_t> bots;
  for (Id v : seats) {
    const auto [it, added] = index_.try_emplace(v, versions_.size());
    if (added) {
      versions_.push_back(v);
      tallies_.emplace_back();
    }
    bots.push_back(it->second);
  }
  model_.add(bots, ranks);
  ++games_;
  for (std::size_t i = 0; i < seats.size(); ++i) {
    Tally& t = tallies_[bots[i]];
    ++t.games;
    t.points += league::rank_points(ranks, i);
    if (seats.size() == 2) {
      const int other = ranks[1 - i];
      ++(ranks[i] < other ? t.wins : ranks[i] == other ? t.draws : t.losses);
    } else {
      if (t.places.size() < seats.size()) t.places.resize(seats.size(), 0);
      ++t.places[static_cast<std::size_t>(ranks[i] - 1)];
    }
  }
  return {};
}

std::vector<VersionRating> Rating::fit() {
  league::RankingOptions options;
  options.prior_draws = settings_.prior_draws;
  const std::vector<league::EloEstimate> estimates = model_.fit(versions_.size(), options, &state_);
  std::vector<std::size_t> order(versions_.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return versions_[a] < versions_[b]; });
  std::vector<VersionRating> out;
  out.reserve(order.size());
  for (std::size_t b : order) {
    const league::EloEstimate& e = estimates[b];
    const Tally& t = tallies_[b];
    VersionRating r;
    r.version = versions_[b];
    r.rating = e.elo;
    r.rated = e.known() && t.games >= settings_.interval_games;
    if (r.rated) {
      r.low = e.low;
      r.high = e.high;
    }
    r.games = t.games;
    r.points = t.games > 0 ? t.points / static_cast<double>(t.games) : 0.0;
    r.wins = t.wins;
    r.draws = t.draws;
    r.losses = t.losses;
    r.places = t.places;
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace arena::ladder
