// Knockout brackets (rounds.hpp, docs/league.md "Knockout"): the seeds in bracket order, the
// seeding, and who goes through a table.
#include <algorithm>

#include "referee/league/rounds.hpp"

namespace arena::league {

std::vector<int> bracket_order(int size) {
  std::vector<int> order = {1};
  while (static_cast<int>(order.size()) < size) {
    const int next_size = static_cast<int>(order.size()) * 2;
    std::vector<int> next;
    for (const int seed : order) {
      next.push_back(seed);
      next.push_back(next_size + 1 - seed);
    }
    order = std::move(next);
  }
  return order;
}

std::vector<int> knockout_seeds(const LeagueSpec& spec) {
  std::vector<int> bots(spec.bots.size());
  for (std::size_t i = 0; i < bots.size(); ++i) bots[i] = static_cast<int>(i);
  if (spec.seeding == Seeding::rating && spec.ratings.size() == bots.size()) {
    std::stable_sort(bots.begin(), bots.end(), [&](int a, int b) {
      return spec.ratings[static_cast<std::size_t>(a)].value_or(0) >
             spec.ratings[static_cast<std::size_t>(b)].value_or(0);
    });
  }
  return bots;
}

std::pair<int, std::string> knockout_winner(const TableTally& table, const std::vector<int>& seed_of) {
  if (table.points[0] != table.points[1]) return {table.points[0] > table.points[1] ? 0 : 1, "points"};
  if (table.scores[0] != table.scores[1]) return {table.scores[0] > table.scores[1] ? 0 : 1, "score"};
  const int seed0 = seed_of[static_cast<std::size_t>(table.bots[0])];
  const int seed1 = seed_of[static_cast<std::size_t>(table.bots[1])];
  return {seed0 < seed1 ? 0 : 1, "seed"};
}

}  // namespace arena::league
