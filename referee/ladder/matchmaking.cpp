#include "referee/ladder/matchmaking.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <unordered_set>

#include "referee/core/rng.hpp"

namespace arena::ladder {

namespace {

// A uniform double in [0, 1) from 53 random bits.
double uniform(Rng& rng) {
  return static_cast<double>(rng.next() >> 11) * 0x1.0p-53;
}

struct Entry {
  const Candidate* c = nullptr;
  std::uint64_t load = 0;
  double entitlement = 0;  // ms of an equal share since it became active
  double rate = 0;         // past placement: load beyond placement per ms of entitlement
  double variance = 0;     // s^2
  bool newcomer = false;
};

}  // namespace

Result<std::vector<Table>> choose_tables(const std::vector<Candidate>& active, const MatchmakingSettings& settings,
                                         std::int64_t now_ms, std::uint64_t seed) {
  if (settings.seats < 2) return fail(fmt::format("a table needs 2 seats or more, not {}", settings.seats));
  if (settings.tables < 0) return fail(fmt::format("cannot add {} tables", settings.tables));
  if (!(settings.newcomer_share >= 0 && settings.newcomer_share < 1)) {
    return fail(fmt::format("the newcomers' share must be in [0, 1), not {}", settings.newcomer_share));
  }
  if (!(settings.jitter >= 0) || !(settings.fairness_slack >= 0) || !(settings.unrated_uncertainty > 0)) {
    return fail(std::string("jitter and fairness slack must be 0 or more, the unrated uncertainty above 0"));
  }
  if (!(settings.explore >= 0 && settings.explore <= 1)) {
    return fail(fmt::format("the chance to explore must be in [0, 1], not {}", settings.explore));
  }
  std::unordered_set<Id> seen;
  for (const Candidate& c : active) {
    if (!seen.insert(c.version).second) return fail(fmt::format("version {} is listed twice", c.version));
    if (!std::isfinite(c.rating) || (c.uncertainty && !(*c.uncertainty >= 0 && std::isfinite(*c.uncertainty)))) {
      return fail(fmt::format("version {} has a rating or uncertainty that is not a finite number", c.version));
    }
  }
  std::vector<Table> out;
  const auto seats = static_cast<std::size_t>(settings.seats);
  if (active.size() < seats) return out;

  std::vector<Entry> entries(active.size());
  for (std::size_t i = 0; i < active.size(); ++i) {
    const Candidate& c = active[i];
    const double s = c.uncertainty ? *c.uncertainty : settings.unrated_uncertainty;
    entries[i] = Entry{&c, c.games + c.pending, 0, 0, s * s, false};
  }
  // Newcomers by load, the others by rate; ties by uncertainty, age, id.
  const auto more_in_need = [](const Entry& a, const Entry& b) {
    if (a.newcomer != b.newcomer) return a.newcomer;
    if (a.newcomer && a.load != b.load) return a.load < b.load;
    if (!a.newcomer && a.rate != b.rate) return a.rate < b.rate;
    if (a.variance != b.variance) return a.variance > b.variance;
    if (a.c->active_since_ms != b.c->active_since_ms) return a.c->active_since_ms < b.c->active_since_ms;
    return a.c->version < b.c->version;
  };

  // Entitlements: W_v = integral from v's activation to now of dt / (versions active at t), from
  // the activation times sorted t_0 <= ... <= t_{n-1} (t_n = now): W at t_k is
  // sum_{j >= k} (t_{j+1} - t_j) / (j + 1).
  std::vector<std::int64_t> times;
  for (const Candidate& c : active) times.push_back(std::min(c.active_since_ms, now_ms));
  std::sort(times.begin(), times.end());
  std::vector<double> from(times.size() + 1, 0.0);
  for (std::size_t k = times.size(); k-- > 0;) {
    const std::int64_t next = k + 1 < times.size() ? times[k + 1] : now_ms;
    from[k] = from[k + 1] + static_cast<double>(next - times[k]) / static_cast<double>(k + 1);
  }
  for (Entry& e : entries) {
    const auto k = std::lower_bound(times.begin(), times.end(), std::min(e.c->active_since_ms, now_ms)) - times.begin();
    e.entitlement = std::max(from[static_cast<std::size_t>(k)], 1e-3);
  }

  Rng rng(seed);
  std::vector<std::size_t> by_need(entries.size());
  std::vector<char> seated(entries.size(), 0);
  for (int t = 0; t < settings.tables; ++t) {
    // The classes, the rates and the newcomers' chance to seed this table.
    std::size_t newcomers = 0;
    double rates = 0;
    std::int64_t first_newcomer = std::numeric_limits<std::int64_t>::max();
    for (Entry& e : entries) {
      e.newcomer = e.load < settings.placement_games;
      e.rate = e.newcomer ? 0.0 : static_cast<double>(e.load - settings.placement_games) / e.entitlement;
      if (e.newcomer) {
        ++newcomers;
        first_newcomer = std::min(first_newcomer, e.c->active_since_ms);
      } else {
        rates += e.rate;
      }
    }
    const std::size_t others = entries.size() - newcomers;
    const bool older = std::any_of(entries.begin(), entries.end(), [&](const Entry& e) {
      return !e.newcomer && e.c->active_since_ms < first_newcomer;
    });
    const double natural = static_cast<double>(newcomers) / static_cast<double>(entries.size());
    const double chance = newcomers == 0 ? 0.0 : others == 0 ? 1.0 : older ? settings.newcomer_share : natural;
    const bool newcomer_seed = uniform(rng) < chance;
    const double bar = others == 0 ? 0.0 : (1 + settings.fairness_slack) * rates / static_cast<double>(others);

    // Newcomers first, then the others, each by need; the seed is the first of its class.
    std::iota(by_need.begin(), by_need.end(), std::size_t{0});
    std::sort(by_need.begin(), by_need.end(),
              [&](std::size_t a, std::size_t b) { return more_in_need(entries[a], entries[b]); });
    const std::size_t seed_at = newcomer_seed ? 0 : newcomers;
    std::rotate(by_need.begin(), by_need.begin() + static_cast<std::ptrdiff_t>(seed_at),
                by_need.begin() + static_cast<std::ptrdiff_t>(seed_at + 1));
    // The pool of opponents: newcomers and the others within the bar, then the others most in
    // need when fewer qualify.
    std::size_t pool = 1;
    while (pool < by_need.size() &&
           (pool < seats || entries[by_need[pool]].newcomer || entries[by_need[pool]].rate <= bar)) {
      ++pool;
    }

    std::vector<std::size_t> group{by_need[0]};
    seated[by_need[0]] = 1;
    while (group.size() < seats) {
      std::size_t best = entries.size();
      double best_gain = -1;
      const bool explore = uniform(rng) < settings.explore;
      for (std::size_t k = 1; k < pool; ++k) {
        const std::size_t c = by_need[k];
        if (seated[c] != 0) continue;
        double gain = 0;
        for (std::size_t m : group) {
          const double p = 1 / (1 + std::pow(10.0, (entries[m].c->rating - entries[c].c->rating) / 400));
          gain += (entries[c].variance + entries[m].variance) * p * (1 - p);
        }
        gain = explore ? uniform(rng) : gain * (1 + settings.jitter * uniform(rng));
        if (gain > best_gain) {
          best_gain = gain;
          best = c;
        }
      }
      group.push_back(best);
      seated[best] = 1;
    }
    Table table;
    table.priority = 1;
    for (std::size_t m : group) {
      table.seats.push_back(entries[m].c->version);
      if (entries[m].newcomer) table.priority = 0;
      ++entries[m].load;
      seated[m] = 0;
    }
    out.push_back(std::move(table));
  }
  return out;
}

}  // namespace arena::ladder
