// The ladder's rating: what it counts beside the rating (W/D/L, places, points, ties), what it
// refuses, intervals only after enough games, refits from the last fit equal a cold fit, and a
// simulated population of fixed strengths (2 and 4 seats) played through choose_tables: the
// order converges, the intervals cover the truth at about their level, and more games move the
// ratings within their intervals (no drift).

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <vector>

#include "tests/ladder/population.hpp"

using namespace arena;
using namespace arena::ladder;
using arena::ladder::test::Population;

namespace {

const VersionRating& of(const std::vector<VersionRating>& board, Id v) {
  for (const VersionRating& r : board) {
    if (r.version == v) return r;
  }
  FAIL("version " << v << " has no rating");
  return board.front();
}

}  // namespace

TEST_CASE("Ladder rating: wins, draws, losses, places and points beside the rating") {
  Rating rating;
  // Two seats: 101 beats 102 three times, draws once, loses twice.
  for (int k = 0; k < 3; ++k) REQUIRE(rating.add({101, 102}, {1, 2}).ok());
  REQUIRE(rating.add({102, 101}, {1, 1}).ok());
  for (int k = 0; k < 2; ++k) REQUIRE(rating.add({102, 101}, {1, 2}).ok());
  // Four seats with a tie for second: 201 first, 202 and 203 second, 204 last.
  REQUIRE(rating.add({203, 201, 204, 202}, {2, 1, 4, 2}).ok());
  REQUIRE(rating.add({201, 202, 203, 204}, {4, 3, 2, 1}).ok());
  CHECK(rating.games() == 8);
  const std::vector<VersionRating> board = rating.fit();
  REQUIRE(board.size() == 6);
  CHECK(board[0].version == 101);  // by version id
  const VersionRating& a = of(board, 101);
  CHECK(a.games == 6);
  CHECK(a.wins == 3);
  CHECK(a.draws == 1);
  CHECK(a.losses == 2);
  CHECK(a.points == Approx(3.5 / 6));
  CHECK(a.places.empty());
  CHECK(of(board, 102).losses == 3);
  CHECK(a.rating > of(board, 102).rating);
  // Places: rank 1, 2 (shared), 4; points: first 1, tied second (2/3 + 1/3) / 2 = 1/2, last 0.
  const VersionRating& b = of(board, 201);
  CHECK(b.wins == 0);
  REQUIRE(b.places.size() == 4);
  CHECK(b.places == std::vector<std::uint64_t>{1, 0, 0, 1});
  CHECK(b.points == Approx(0.5));
  CHECK(of(board, 202).places == std::vector<std::uint64_t>{0, 1, 1, 0});
  CHECK(of(board, 202).points == Approx((0.5 + 1.0 / 3) / 2));
  CHECK(of(board, 204).places == std::vector<std::uint64_t>{1, 0, 0, 1});
  // Too few games for an interval.
  for (const VersionRating& r : board) {
    CHECK_FALSE(r.rated);
    CHECK(r.low == -league::kEloBound);
    CHECK(r.high == league::kEloBound);
  }
}

TEST_CASE("Ladder rating: malformed games are refused with the reason, and nothing is counted") {
  Rating rating;
  const auto refused = [&](const std::vector<Id>& seats, const std::vector<int>& ranks, const std::string& words) {
    const Status st = rating.add(seats, ranks);
    REQUIRE_FALSE(st.ok());
    CHECK_THAT(st.error(), Catch::Contains(words));
  };
  refused({1}, {1}, "2 seats or more");
  refused({1, 2}, {1}, "2 seats but 1 ranks");
  refused({1, 1}, {1, 2}, "version 1 holds seats 0 and 1");
  refused({1, 2, 3}, {1, 3, 3}, "ranks 1,3,3");
  refused({1, 2}, {0, 1}, "ranks 0,1");
  refused({1, 2, 3}, {1, 1, 2}, "ranks 1,1,2");
  CHECK(rating.games() == 0);
  CHECK(rating.fit().empty());
  CHECK(rating.add({1, 2, 3}, {1, 1, 3}).ok());
}

TEST_CASE("Ladder rating: a new version gets an interval once it has enough games") {
  RatingSettings settings;
  settings.interval_games = 12;
  Rating rating(settings);
  Rng rng(3);
  for (int k = 0; k < 200; ++k) {
    const Id a = 1 + static_cast<Id>(rng.below(5));
    const Id b = 1 + (a + static_cast<Id>(rng.below(4))) % 5;
    REQUIRE(rating.add({a, b}, rng.below(2) == 0 ? std::vector<int>{1, 2} : std::vector<int>{2, 1}).ok());
  }
  for (int k = 0; k < 11; ++k) REQUIRE(rating.add({9, 1 + k % 5}, {1, 2}).ok());
  const VersionRating after11 = of(rating.fit(), 9);
  CHECK(after11.games == 11);
  CHECK_FALSE(after11.rated);  // 11 < 12
  CHECK(after11.rating > 0);   // a point estimate all the same
  REQUIRE(rating.add({9, 2}, {2, 1}).ok());
  const VersionRating after12 = of(rating.fit(), 9);
  CHECK(after12.rated);
  CHECK(after12.low < after12.rating);
  CHECK(after12.rating < after12.high);
}

TEST_CASE("Ladder rating: refits from the last fit equal a cold fit, whatever the order of the games") {
  struct Game {
    std::vector<Id> seats;
    std::vector<int> ranks;
  };
  std::vector<Game> games;
  Rng rng(11);
  for (int k = 0; k < 12000; ++k) {  // past 4,096 distinct orders: stored orders are rewritten
    Game g;
    const std::size_t seats = 2 + rng.below(3);
    while (g.seats.size() < seats) {
      const Id v = 1 + static_cast<Id>(rng.below(40));
      if (std::find(g.seats.begin(), g.seats.end(), v) == g.seats.end()) g.seats.push_back(v);
    }
    // Ranks from strengths v / 10 with Gumbel noise, a tie when two seats round alike.
    std::vector<double> perf;
    for (Id v : g.seats)
      perf.push_back(std::round(static_cast<double>(v) / 10 - std::log(-std::log(test::uniform(rng)))));
    for (std::size_t i = 0; i < seats; ++i) {
      g.ranks.push_back(
          1 + static_cast<int>(std::count_if(perf.begin(), perf.end(), [&](double p) { return p > perf[i]; })));
    }
    games.push_back(g);
  }
  Rating warm;
  for (std::size_t k = 0; k < games.size(); ++k) {
    REQUIRE(warm.add(games[k].seats, games[k].ranks).ok());
    if (k % 1000 == 999) warm.fit();
  }
  const std::vector<VersionRating> refit = warm.fit();
  CHECK(warm.last_fit().factorizations <= 3);  // started at the last fit: no Newton from scratch
  Rating cold;
  for (std::size_t k = games.size(); k-- > 0;) REQUIRE(cold.add(games[k].seats, games[k].ranks).ok());
  const std::vector<VersionRating> fresh = cold.fit();

  REQUIRE(refit.size() == 40);
  REQUIRE(fresh.size() == 40);
  for (std::size_t i = 0; i < refit.size(); ++i) {
    INFO("version " << refit[i].version);
    CHECK(refit[i].version == fresh[i].version);
    CHECK(refit[i].rating == Approx(fresh[i].rating).margin(1e-9));
    CHECK(refit[i].low == Approx(fresh[i].low).margin(1e-9));
    CHECK(refit[i].high == Approx(fresh[i].high).margin(1e-9));
    CHECK(refit[i].points == Approx(fresh[i].points).epsilon(1e-12));
    CHECK(refit[i].places == fresh[i].places);
  }
}

namespace {

// A population of 24 versions of strengths theta ~ N(0, 1) (a spread of about +/-300 Elo), all
// active from the start, played round after round through choose_tables.
Population population(std::uint64_t seed, int seats, int tables) {
  MatchmakingSettings s;
  s.seats = seats;
  s.tables = tables;
  Population p(seed, s);
  for (Id v = 1; v <= 24; ++v) p.join(v, test::normal(p.rng));
  return p;
}

struct Check {
  double spearman = 0;
  int covered = 0;       // true Elo within the 95% interval
  int covered_half = 0;  // within half of it (+/-0.98 sd: 67% for a normal estimate)
  int versions = 0;
};

Check check(const Population& p) {
  std::vector<Id> ids;
  for (const auto& [v, t] : p.theta) ids.push_back(v);
  std::vector<double> truth;
  std::vector<double> estimate;
  Check c;
  for (Id v : ids) {
    const VersionRating& r = p.board.at(v);
    const double t = p.true_elo(v, ids);
    truth.push_back(t);
    estimate.push_back(r.rating);
    REQUIRE(r.rated);
    ++c.versions;
    c.covered += r.low <= t && t <= r.high ? 1 : 0;
    const double half = (r.high - r.low) / 4;
    c.covered_half += std::abs(t - r.rating) <= half ? 1 : 0;
  }
  c.spearman = test::spearman(truth, estimate);
  return c;
}

}  // namespace

TEST_CASE("Ladder rating: a simulated population converges to the true order, intervals at their level, no drift") {
  // 2 seats: 120 rounds of 20 tables (2,400 games, 200 per version); 4 seats: 60 rounds of 10
  // (600 games, 100 per version). The design study measured, for 24 such bots and this
  // uncertainty rule, a mean Spearman of 0.963 at 1,200 two-seat games and 0.986 at 1,200
  // four-seat games (16 seeds; 0.902 and 0.963 at 300). Each run here has at least as many seats
  // per version as the study's 1,200-game two-seat run, so 0.9 is a bound a correct fit passes
  // with room (a fit that confused the order by one neighbour pair in five would not).
  for (const auto& [seats, rounds, tables] : {std::tuple{2, 120, 20}, std::tuple{4, 60, 10}}) {
    INFO(seats << " seats");
    Check total;
    for (std::uint64_t seed : {1U, 2U, 3U}) {
      Population p = population(seed * 100 + static_cast<std::uint64_t>(seats), seats, tables);
      for (int r = 0; r < rounds; ++r) p.step();
      const Check first = check(p);
      INFO("seed " << seed << ": Spearman " << first.spearman);
      CHECK(first.spearman > 0.9);
      total.covered += first.covered;
      total.covered_half += first.covered_half;
      total.versions += first.versions;
      // No drift: as many games again move every rating within its earlier 95% interval (the
      // earlier estimate is within its interval of the truth, the later one nearer to it).
      const std::map<Id, VersionRating> before = p.board;
      for (int r = 0; r < rounds; ++r) p.step();
      int inside = 0;
      double moved = 0;
      for (const auto& [v, r] : p.board) {
        inside += before.at(v).low <= r.rating && r.rating <= before.at(v).high ? 1 : 0;
        moved += std::abs(r.rating - before.at(v).rating);
        CHECK(r.high - r.low < before.at(v).high - before.at(v).low);  // more games, narrower
      }
      CHECK(inside >= 23);  // of 24
      const Check second = check(p);
      CHECK(second.spearman >= 0.9);
      INFO("mean move " << moved / 24);
      CHECK(moved / 24 < 40);  // Elo; the mean 95% half-width is about 60 after the first half
    }
    // Coverage over 72 intervals: 95% expects 68.4, and fewer than 62 has a binomial chance
    // below 0.3%; the intervals are not needlessly wide either: half of each covers about 67%
    // (48 expected), and more than 60 has a chance below 0.1%.
    INFO("covered " << total.covered << " and " << total.covered_half << " of " << total.versions);
    CHECK(total.covered >= 62);
    CHECK(total.covered_half <= 60);
    CHECK(total.covered_half >= 36);
  }
}
