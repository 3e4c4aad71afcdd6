// Swiss rounds (rounds.hpp, docs/league.md "Swiss"): the order after the complete rounds with its
// tie-breaks, and one round's tables: byes to the lowest-ranked bots with the fewest byes, tables
// of neighbours in the order that never met, or the fallback when no such tables exist.
#include <algorithm>
#include <cstdint>

#include "referee/core/rng.hpp"
#include "referee/league/rounds.hpp"

namespace arena::league {

namespace {

// The search for tables without a repeated meeting gives up after this many candidates tried
// (a league where few such tables exist would otherwise search for a very long time).
constexpr long kSwissSearchBudget = 200'000;

struct SwissSearch {
  const std::vector<int>& rest;  // bots to seat, best first
  std::size_t seats;
  const std::vector<std::vector<int>>& met;
  std::vector<char> used;
  std::vector<std::vector<int>> tables;
  long budget = kSwissSearchBudget;

  bool met_any(int bot, const std::vector<int>& table) const {
    return std::any_of(table.begin(), table.end(), [&](int other) {
      return met[static_cast<std::size_t>(bot)][static_cast<std::size_t>(other)] > 0;
    });
  }

  // Seats every unseated bot; false when no tables without repeats were found (within the budget).
  bool seat_all() {
    const auto first = std::find(used.begin(), used.end(), 0);
    if (first == used.end()) return true;
    const auto i = static_cast<std::size_t>(first - used.begin());
    used[i] = 1;
    std::vector<int> table = {rest[i]};
    const bool done = fill(table, i + 1);
    if (!done) used[i] = 0;
    return done;
  }

  // Completes `table` with unseated bots from position `from` on, then seats the others.
  bool fill(std::vector<int>& table, std::size_t from) {
    if (table.size() == seats) {
      tables.push_back(table);
      if (seat_all()) return true;
      tables.pop_back();
      return false;
    }
    for (std::size_t j = from; j < rest.size(); ++j) {
      if (used[j] != 0) continue;
      if (--budget < 0) return false;
      if (met_any(rest[j], table)) continue;
      used[j] = 1;
      table.push_back(rest[j]);
      if (fill(table, j + 1)) return true;
      table.pop_back();
      used[j] = 0;
    }
    return false;
  }

  // The fallback: the best unseated bot, then one at a time the bot that met the table's bots the
  // fewest times (the best ranked among equals).
  void seat_fewest_repeats() {
    tables.clear();
    std::fill(used.begin(), used.end(), 0);
    for (std::size_t i = 0; i < rest.size(); ++i) {
      if (used[i] != 0) continue;
      used[i] = 1;
      std::vector<int> table = {rest[i]};
      while (table.size() < seats) {
        std::size_t best = rest.size();
        int best_meetings = 0;
        for (std::size_t j = i + 1; j < rest.size(); ++j) {
          if (used[j] != 0) continue;
          int meetings = 0;
          for (const int other : table)
            meetings += met[static_cast<std::size_t>(rest[j])][static_cast<std::size_t>(other)];
          if (best == rest.size() || meetings < best_meetings) {
            best = j;
            best_meetings = meetings;
          }
        }
        used[best] = 1;
        table.push_back(rest[best]);
      }
      tables.push_back(std::move(table));
    }
  }
};

}  // namespace

std::vector<SwissStanding> swiss_order(int bots, std::uint64_t seed, double bye_points, std::uint64_t per_table,
                                       const std::vector<PlayedRound>& rounds) {
  std::vector<SwissStanding> st(static_cast<std::size_t>(bots));
  for (int b = 0; b < bots; ++b) {
    SwissStanding& s = st[static_cast<std::size_t>(b)];
    s.bot = b;
    std::uint64_t state = seed ^ (std::uint64_t{0x9E3779B97F4A7C15} * static_cast<std::uint64_t>(b + 1));
    s.draw = splitmix64(state);
  }
  const auto per = static_cast<double>(per_table);
  for (const PlayedRound& round : rounds) {
    if (!round.complete) continue;
    for (const int b : round.byes) {
      st[static_cast<std::size_t>(b)].score += bye_points;
      ++st[static_cast<std::size_t>(b)].byes;
    }
    for (const TableTally& t : round.tables) {
      for (std::size_t i = 0; i < t.bots.size(); ++i)
        st[static_cast<std::size_t>(t.bots[i])].score += t.points[i] / per;
    }
  }
  // The tie-breaks, on the final scores: each round at a table counts its tablemates' mean score.
  for (const PlayedRound& round : rounds) {
    if (!round.complete) continue;
    for (const TableTally& t : round.tables) {
      double sum = 0;
      for (const int b : t.bots) sum += st[static_cast<std::size_t>(b)].score;
      for (std::size_t i = 0; i < t.bots.size(); ++i) {
        SwissStanding& s = st[static_cast<std::size_t>(t.bots[i])];
        const double mates = (sum - s.score) / static_cast<double>(t.bots.size() - 1);
        s.buchholz += mates;
        s.sonneborn_berger += t.points[i] / per * mates;
      }
    }
  }
  std::sort(st.begin(), st.end(), [](const SwissStanding& a, const SwissStanding& b) {
    if (a.score != b.score) return a.score > b.score;
    if (a.buchholz != b.buchholz) return a.buchholz > b.buchholz;
    if (a.sonneborn_berger != b.sonneborn_berger) return a.sonneborn_berger > b.sonneborn_berger;
    if (a.draw != b.draw) return a.draw < b.draw;
    return a.bot < b.bot;
  });
  return st;
}

SwissPairing swiss_pair(const std::vector<int>& order, int seats, const std::vector<std::vector<int>>& met,
                        const std::vector<int>& byes) {
  const auto k = static_cast<std::size_t>(seats);
  SwissPairing pairing;
  // Byes: the lowest-ranked among the bots with the fewest byes.
  std::vector<int> candidates(order.rbegin(), order.rend());
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&](int a, int b) { return byes[static_cast<std::size_t>(a)] < byes[static_cast<std::size_t>(b)]; });
  candidates.resize(order.size() % k);
  pairing.byes = candidates;
  std::vector<int> rest;
  for (const int b : order) {
    if (std::find(candidates.begin(), candidates.end(), b) == candidates.end()) rest.push_back(b);
  }
  SwissSearch search{rest, k, met, std::vector<char>(rest.size(), 0), {}};
  if (!search.seat_all()) {
    search.seat_fewest_repeats();
    pairing.repeats = true;
  }
  pairing.tables = std::move(search.tables);
  std::sort(pairing.byes.begin(), pairing.byes.end(), [&](int a, int b) {
    return std::find(order.begin(), order.end(), a) < std::find(order.begin(), order.end(), b);
  });
  return pairing;
}

}  // namespace arena::league
