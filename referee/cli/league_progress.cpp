#include "referee/cli/league_progress.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "referee/core/markup.hpp"

namespace arena::cli {

LiveScore::LiveScore(std::vector<std::string> bot_names) : names_(std::move(bot_names)), bots_(names_.size()) {}

std::size_t LiveScore::index_of(const std::string& name) {
  const auto it = std::find(names_.begin(), names_.end(), name);
  if (it != names_.end()) return static_cast<std::size_t>(it - names_.begin());
  names_.push_back(name);  // not in the league's list (never, from the runner): counted anyway
  bots_.emplace_back();
  return names_.size() - 1;
}

void LiveScore::add(const league::MatchRecord& r) {
  ++matches_;
  std::vector<std::size_t> who;
  for (std::size_t s = 0; s < r.seats.size(); ++s) {
    who.push_back(index_of(r.seats[s].bot));
    Bot& b = bots_[who.back()];
    const double x = league::rank_points(r, static_cast<int>(s));
    ++b.games;
    b.points += x;
    const int rank = r.seats[s].rank;
    const auto firsts = std::count_if(r.seats.begin(), r.seats.end(), [](const auto& seat) { return seat.rank == 1; });
    if (rank == 1 && firsts == 1) {
      ++b.wins;
    } else if (rank == 1) {
      ++b.draws;
    } else {
      ++b.losses;
    }
  }
  for (std::size_t i = 0; i < who.size(); ++i) {
    for (std::size_t k = i + 1; k < who.size(); ++k) {
      if (who[i] == who[k]) continue;  // self-play
      const bool swap = who[i] > who[k];
      Head& h = heads_[swap ? std::pair{who[k], who[i]} : std::pair{who[i], who[k]}];
      const int a = r.seats[swap ? k : i].rank;
      const int b = r.seats[swap ? i : k].rank;
      (a < b ? h.wins : a > b ? h.losses : h.draws) += 1;
    }
  }
}

std::string LiveScore::report() const {
  std::string out;
  for (const auto& [pair, h] : heads_) {
    const int n = h.wins + h.losses + h.draws;
    const double ratio = n > 0 ? (h.wins + 0.5 * h.draws) / n : 0.0;
    out += fmt::format("Score of {} vs {}: {} - {} - {}  [{:.3f}] {}\n", terminal_safe(names_[pair.first]),
                       terminal_safe(names_[pair.second]), h.wins, h.losses, h.draws, ratio, n);
  }
  std::vector<std::size_t> order(bots_.size());
  std::iota(order.begin(), order.end(), 0);
  const auto per_game = [&](std::size_t i) { return bots_[i].games > 0 ? bots_[i].points / bots_[i].games : -1.0; };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return per_game(a) > per_game(b); });
  std::size_t width = 4;
  for (const std::string& name : names_) width = std::max(width, terminal_safe(name).size());
  out +=
      fmt::format("  {:>3} {:<{}} {:>6} {:>9} {:>7}  {}\n", "#", "bot", width, "games", "points", "per game", "W-D-L");
  int place = 0;
  for (std::size_t i : order) {
    const Bot& b = bots_[i];
    out += fmt::format("  {:>3} {:<{}} {:>6} {:>9.2f} {:>7.3f}  {}-{}-{}\n", ++place, terminal_safe(names_[i]), width,
                       b.games, b.points, std::max(per_game(i), 0.0), b.wins, b.draws, b.losses);
  }
  out += fmt::format("  after {} matches\n", matches_);
  return out;
}

}  // namespace arena::cli
