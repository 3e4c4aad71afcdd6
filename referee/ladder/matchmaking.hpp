#pragma once
// The ladder's matchmaking: which tables to queue next. Pure: the same versions, settings, time
// and seed give the same tables (core Rng).
//
// Fair shares. A version's load is its games plus its tables pending (queued or running). Its
// first `placement_games` seats are placement: while load < placement_games it is a newcomer, and
// a table that seats a newcomer has priority 0 (played first), every other table priority 1.
// Each table is seeded by a newcomer with a chance of
//   newcomer_share   when some version past placement is older than every newcomer;
//   newcomers / all  when none is (a cohort that started together, a ladder's first versions);
//   1 or 0           when every version, or none, is a newcomer;
// drawn from the seeded Rng, so that newcomers take newcomer_share of the tables however many
// arrive at once and however few tables a call adds, and the established versions keep the rest
// (Halite reserved shares the same way): a lone newcomer gets its placement fast, a surge cannot
// starve the others, and the placement tables are created only at that rate, so their priority
// 0 cannot take the workers from the rest. Within its class the seed is the version most in need:
// the newcomer with the least load; the other with the least rate
//   (load - placement_games) / W,  W = integral from its activation to now of dt / N(t),
// N(t) the versions (of those listed) active at t: its entitlement, the time it would have had
// the whole ladder to itself under equal shares (stride scheduling's pass, without state). A
// version placed recently does not have to catch up on the games the old ones played before it
// came, nor do the old ones wait for it to; its placement games are not held against it. Then the
// largest uncertainty, the earliest active, the smallest id.
//
// Opponents reduce uncertainty most. Opponents are added one at a time among the newcomers (their
// load is bounded by placement) and the others whose rate is at most (1 + fairness_slack) times
// their mean rate (so that nobody's games run far ahead of its share; the most in need fill in
// when too few qualify), each maximising
//   sum over the table's members m of (s_c^2 + s_m^2) p_cm (1 - p_cm) * (1 + jitter * u),
// s the interval half-width (Elo; unrated_uncertainty for a version without an interval),
// p_cm = 1 / (1 + 10^((r_m - r_c) / 400)) the Bradley-Terry chance of c against m, u uniform in
// [0, 1). Both factors grow the information the game adds (docs/statistics.md: an even game adds
// p (1 - p) = 1/4 to theta_c - theta_m, and counts most where the variance is large). With
// chance `explore` an opponent is drawn uniformly from the pool instead: the rule alone pairs
// near neighbours (it sees each version's variance, not the covariance of neighbours), the games
// form a chain, and the one-draw prior then compresses the ratings' spread: in a simulated
// population of 24 versions (2 seats, 2,400 games, 10 seeds) the 95% intervals covered the truth
// 80% of the time by the rule alone, 92% with explore 0.3 and 95% with 0.5 (half-intervals,
// 67% expected: 45%, 65%, 70%); games drawn at random covered 93% (71%). A version sits at most
// once per table; tables of 3-4 seats are drawn the same way; fewer active versions than seats:
// no table.

#include <cstdint>
#include <optional>
#include <vector>

#include "referee/core/result.hpp"
#include "referee/ladder/store.hpp"
#include "referee/league/stats.hpp"

namespace arena::ladder {

struct Candidate {
  Id version = 0;
  double rating = 0;                  // Elo
  std::optional<double> uncertainty;  // 95% interval half-width (Elo); none: not rated yet
  std::uint64_t games = 0;
  std::uint64_t pending = 0;         // its tables queued or running
  std::int64_t active_since_ms = 0;  // when it became active
};

struct MatchmakingSettings {
  int seats = 2;
  int tables = 1;  // how many tables to add
  std::uint64_t placement_games = 10;
  double newcomer_share = 0.25;  // in [0, 1)
  double unrated_uncertainty = league::kEloBound;
  double jitter = 0.1;
  double explore = 0.3;  // chance that an opponent is drawn uniformly from the pool instead, in [0, 1]
  double fairness_slack = 0.5;
};

struct Table {
  std::vector<Id> seats;  // the seed first
  int priority = 1;       // 0 with a newcomer (placement), else 1
};

// The next tables for `active` (every active version once) at time now_ms. Refused with the reason for settings
// out of range, a version listed twice, or a rating or uncertainty that is not a finite number.
Result<std::vector<Table>> choose_tables(const std::vector<Candidate>& active, const MatchmakingSettings& settings,
                                         std::int64_t now_ms, std::uint64_t seed);

}  // namespace arena::ladder
