// The SPRT of a league, looked at only after whole blocks of deals in schedule order: the same
// decision, at the same deal, whatever order the matches are journaled in.

#include <algorithm>
#include <catch2/catch.hpp>
#include <random>

#include "referee/league/sprt_tally.hpp"

using namespace arena::league;

namespace {

// Deal d of a two-bot duplicate league: leg 0 and leg 1, "alpha" scoring `points` (0, 0.5, 1)
// in each leg as the outcome pattern says.
MatchRecord leg(std::uint64_t deal, int leg_number, double alpha_points) {
  MatchRecord r;
  r.index = deal * 2 + static_cast<std::uint64_t>(leg_number);
  r.deal = deal;
  r.leg = leg_number;
  const int alpha_rank = alpha_points > 0.75 ? 1 : alpha_points < 0.25 ? 2 : 1;
  const int beta_rank = alpha_points > 0.75 ? 2 : alpha_points < 0.25 ? 1 : 1;
  SeatRecord a{"alpha", 0, alpha_rank, {}, 0};
  SeatRecord b{"beta", 0, beta_rank, {}, 0};
  if (leg_number == 0) {
    r.seats = {a, b};
  } else {
    r.seats = {b, a};
  }
  return r;
}

// A league in which alpha is a little stronger: wins 55%, draws 10%.
std::vector<MatchRecord> journal(std::uint64_t deals, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<MatchRecord> out;
  for (std::uint64_t d = 0; d < deals; ++d) {
    for (int l = 0; l < 2; ++l) {
      const auto u = static_cast<double>(rng() % 1000) / 1000.0;
      out.push_back(leg(d, l, u < 0.55 ? 1.0 : u < 0.65 ? 0.5 : 0.0));
    }
  }
  return out;
}

}  // namespace

TEST_CASE("SPRT tally: decided at block ends, the same in any journal order", "[sprt]") {
  const SprtConfig config{0, 30, 0.05, 0.05};
  const auto records = journal(400, 7);
  SprtTally in_order("alpha", 2, 400, config);
  std::vector<std::uint64_t> looks;  // counted deals after each add, when it changed
  for (const auto& r : records) {
    const auto before = in_order.counted_deals();
    in_order.add(r);
    if (in_order.counted_deals() != before) looks.push_back(in_order.counted_deals());
  }
  REQUIRE_FALSE(looks.empty());
  for (std::uint64_t counted : looks) CHECK((counted % kSprtBlockDeals == 0 || counted == 400));
  INFO("llr " << in_order.state().llr);
  REQUIRE(in_order.decided());

  for (std::uint64_t seed : {1U, 2U, 3U}) {
    auto shuffled = records;
    // Out of order as workers finish: shuffled within windows of 6 deals.
    std::mt19937_64 rng(seed);
    for (std::size_t from = 0; from < shuffled.size(); from += 12) {
      const auto to = std::min(shuffled.size(), from + 12);
      std::shuffle(shuffled.begin() + static_cast<std::ptrdiff_t>(from),
                   shuffled.begin() + static_cast<std::ptrdiff_t>(to), rng);
    }
    SprtTally tally("alpha", 2, 400, config);
    for (const auto& r : shuffled) tally.add(r);
    CHECK(tally.counted_deals() == in_order.counted_deals());
    CHECK(tally.state().llr == in_order.state().llr);
    CHECK(tally.state().decision == in_order.state().decision);
    CHECK(tally.open_deals() == 0);  // nothing is held once decided
  }
}

TEST_CASE("SPRT tally: a block with a missing leg waits, later deals wait for it", "[sprt]") {
  const SprtConfig config{0, 30, 0.05, 0.05};
  const auto records = journal(64, 9);
  SprtTally tally("alpha", 2, 64, config);
  for (const auto& r : records) {
    if (r.index == 3) continue;  // deal 1, leg 1 not played yet
    tally.add(r);
  }
  CHECK(tally.counted_deals() == 0);
  CHECK(tally.open_deals() == 64);  // every deal, deal 1 with one leg
  CHECK(tally.state().llr == 0);
  tally.add(records[3]);
  CHECK(tally.counted_deals() > 0);
}

TEST_CASE("SPRT tally: games without duplicate deals, and a last short block", "[sprt]") {
  const SprtConfig config{-10, 10, 0.05, 0.05};
  SprtTally tally("alpha", 1, 11, config);  // 11 deals: blocks of 8 and 3
  for (std::uint64_t d = 0; d < 11; ++d) {
    MatchRecord r = leg(d, 0, d % 2 == 0 ? 1.0 : 0.0);
    r.index = d;
    tally.add(r);
    if (d == 7) CHECK(tally.counted_deals() == 8);
    if (d < 7) CHECK(tally.counted_deals() == 0);
  }
  CHECK(tally.counted_deals() == 11);
}
