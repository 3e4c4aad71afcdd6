// League statistics against values computed by hand (the computation is in the comments).

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "referee/league/stats.hpp"

using namespace arena::league;
using Decision = SprtState::Decision;

namespace {
// Elo to 0.01.
Approx elo(double x) {
  return Approx(x).margin(0.01);
}
}  // namespace

TEST_CASE("Elo: score and Elo are inverse logistic functions") {
  CHECK(score_from_elo(0) == Approx(0.5));
  // 400 Elo = odds 10:1, s = 10/11.
  CHECK(score_from_elo(400) == Approx(10.0 / 11.0));
  CHECK(elo_from_score(10.0 / 11.0) == elo(400));
  CHECK(elo_from_score(0.5) == elo(0));
  CHECK(elo_from_score(score_from_elo(-123.4)) == elo(-123.4));
  // Out of (0,1) and NaN map to the finite bound.
  CHECK(elo_from_score(1) == kEloBound);
  CHECK(elo_from_score(1.3) == kEloBound);
  CHECK(elo_from_score(0) == -kEloBound);
  CHECK(elo_from_score(-0.2) == -kEloBound);
  CHECK(elo_from_score(std::nan("")) == -kEloBound);
  CHECK(elo_from_score(1e-9) == -kEloBound);  // -3600 Elo, clamped
}

TEST_CASE("Elo: 60 wins, 20 draws, 20 losses") {
  // n = 100, s = (60 + 20/2) / 100 = 0.7, elo = -400 log10(1/0.7 - 1) = -400 log10(0.428571)
  //   = 147.19.
  // var = (60 * 0.3^2 + 20 * 0.2^2 + 20 * 0.7^2) / 100 = (5.4 + 0.8 + 9.8) / 100 = 0.16,
  // se = sqrt(0.16 / 100) = 0.04, s +- 1.96 se = [0.62160, 0.77840]
  //   -> elo [-400 log10(0.60875), -400 log10(0.28469)] = [86.23, 218.25].
  const EloEstimate e = elo_from_wdl(60, 20, 20);
  CHECK(e.elo == elo(147.19));
  CHECK(e.low == elo(86.23));
  CHECK(e.high == elo(218.25));
  // Mirror image for the loser.
  const EloEstimate m = elo_from_wdl(20, 20, 60);
  CHECK(m.elo == elo(-147.19));
  CHECK(m.low == elo(-218.25));
  CHECK(m.high == elo(-86.23));
  // elo_from_scores of the same games agrees.
  std::vector<double> scores(60, 1.0);
  scores.insert(scores.end(), 20, 0.5);
  scores.insert(scores.end(), 20, 0.0);
  const EloEstimate s = elo_from_scores(scores);
  CHECK(s.elo == elo(e.elo));
  CHECK(s.low == elo(e.low));
  CHECK(s.high == elo(e.high));
}

TEST_CASE("Elo: edge cases stay finite") {
  // No games: 0 with the widest interval.
  const EloEstimate none = elo_from_wdl(0, 0, 0);
  CHECK(none.elo == 0);
  CHECK(none.low == -kEloBound);
  CHECK(none.high == kEloBound);
  // All wins: s = 1, var = 0: +bound three times.
  const EloEstimate wins = elo_from_wdl(10, 0, 0);
  CHECK(wins.elo == kEloBound);
  CHECK(wins.low == kEloBound);
  CHECK(wins.high == kEloBound);
  const EloEstimate losses = elo_from_wdl(0, 0, 7);
  CHECK(losses.elo == -kEloBound);
  CHECK(losses.high == -kEloBound);
  // All draws: s = 0.5, var = 0: exactly 0.
  const EloEstimate draws = elo_from_wdl(0, 9, 0);
  CHECK(draws.elo == 0);
  CHECK(draws.low == 0);
  CHECK(draws.high == 0);
  // 1 win 1 loss: s = 0.5, var = 0.25, se = sqrt(0.25/2) = 0.35355, s + 1.96 se = 1.193 > 1:
  // the interval is clamped to the bounds.
  const EloEstimate coin = elo_from_wdl(1, 0, 1);
  CHECK(coin.elo == elo(0));
  CHECK(coin.low == -kEloBound);
  CHECK(coin.high == kEloBound);
  for (const EloEstimate& e : {none, wins, losses, draws, coin}) {
    CHECK(std::isfinite(e.elo));
    CHECK(std::isfinite(e.low));
    CHECK(std::isfinite(e.high));
    CHECK(e.low <= e.elo);
    CHECK(e.elo <= e.high);
  }
}

TEST_CASE("Elo: pentanomial LL 5, LD 10, DD/WL 20, WD 30, WW 15") {
  // 80 pairs, samples x = pair points / 2:
  // s = (5*0 + 10*0.25 + 20*0.5 + 30*0.75 + 15*1) / 80 = 50 / 80 = 0.625, elo = -400 log10(0.6)
  //   = 88.74.
  // var = (5*0.625^2 + 10*0.375^2 + 20*0.125^2 + 30*0.125^2 + 15*0.375^2) / 80
  //     = (1.953125 + 1.40625 + 0.3125 + 0.46875 + 2.109375) / 80 = 6.25 / 80 = 0.078125,
  // se = sqrt(0.078125 / 80) = 0.03125, s +- 1.96 se = [0.56375, 0.68625] -> [44.54, 135.96].
  Pentanomial p;
  p.counts = {5, 10, 20, 30, 15};
  CHECK(p.pairs() == 80);
  const EloEstimate e = elo_from_pentanomial(p);
  CHECK(e.elo == elo(88.74));
  CHECK(e.low == elo(44.54));
  CHECK(e.high == elo(135.96));
  // No pairs and one-sided pairs stay finite.
  const EloEstimate none = elo_from_pentanomial(Pentanomial{});
  CHECK(none.elo == 0);
  CHECK(none.low == -kEloBound);
  CHECK(none.high == kEloBound);
  Pentanomial ww;
  ww.counts = {0, 0, 0, 0, 4};
  CHECK(elo_from_pentanomial(ww).low == kEloBound);
}

TEST_CASE("SPRT: bounds and the LLR of 60 wins, 20 draws, 20 losses") {
  const SprtConfig c{0, 5, 0.05, 0.05};
  // lower = log(0.05 / 0.95) = -2.94444, upper = log(0.95 / 0.05) = +2.94444.
  // s0 = 0.5, s1 = 1 / (1 + 10^(-5/400)) = 0.507195; mean 0.7, var 0.16 (as above):
  // LLR = 100 * 0.007195 * (1.4 - 0.5 - 0.507195) / (2 * 0.16) = 0.88321.
  const SprtState st = sprt_trinomial(60, 20, 20, c);
  CHECK(st.lower == Approx(-2.94444).margin(1e-5));
  CHECK(st.upper == Approx(2.94444).margin(1e-5));
  CHECK(st.llr == Approx(0.88321).margin(1e-5));
  CHECK(st.decision == Decision::none);
  CHECK(to_string(st.decision) == "none");
}

TEST_CASE("SPRT: the decision flips exactly where the LLR crosses a bound") {
  const SprtConfig c{0, 5, 0.05, 0.05};
  // Proportions 3:1:1 give 0.0088321 LLR per game; upper 2.94444 needs 333.4 games.
  // 330 games (198/66/66): LLR 2.91458, no decision; 335 games (201/67/67): 2.95874, H1.
  const SprtState below = sprt_trinomial(198, 66, 66, c);
  CHECK(below.llr == Approx(2.91458).margin(1e-5));
  CHECK(below.decision == Decision::none);
  const SprtState above = sprt_trinomial(201, 67, 67, c);
  CHECK(above.llr == Approx(2.95874).margin(1e-5));
  CHECK(above.decision == Decision::accept_h1);
  CHECK(to_string(above.decision) == "accept_h1");
  // Proportions 1:1:3 (s = 0.3, var 0.16): LLR = N * 0.007195 * (0.6 - 1.007195) / 0.32
  //   = -0.0091556 per game. 320 games: -2.92980, none; 325 games: -2.97556, H0.
  const SprtState h0_below = sprt_trinomial(64, 64, 192, c);
  CHECK(h0_below.llr == Approx(-2.92980).margin(1e-5));
  CHECK(h0_below.decision == Decision::none);
  const SprtState h0 = sprt_trinomial(65, 65, 195, c);
  CHECK(h0.llr == Approx(-2.97556).margin(1e-5));
  CHECK(h0.decision == Decision::accept_h0);
  CHECK(to_string(h0.decision) == "accept_h0");
}

TEST_CASE("SPRT: pentanomial and degenerate data") {
  const SprtConfig c{0, 5, 0.05, 0.05};
  // The pentanomial example: N = 80 pairs, mean 0.625, var 0.078125:
  // LLR = 80 * 0.007195 * (1.25 - 1.007195) / (2 * 0.078125) = 0.89446.
  Pentanomial p;
  p.counts = {5, 10, 20, 30, 15};
  const SprtState st = sprt_pentanomial(p, c);
  CHECK(st.llr == Approx(0.89446).margin(1e-5));
  CHECK(st.decision == Decision::none);
  // No data: LLR 0, no decision, bounds set.
  for (const SprtState& s : {sprt_trinomial(0, 0, 0, c), sprt_pentanomial(Pentanomial{}, c)}) {
    CHECK(s.llr == 0);
    CHECK(s.decision == Decision::none);
    CHECK(s.upper == Approx(2.94444).margin(1e-5));
  }
  // Zero variance (every game or pair alike): a pseudo-count of 1e-3 per outcome keeps the test
  // going. 9 pairs all won (WW) -> mean 0.999..., tiny variance: H1 at once; 50 draws -> mean 0.5,
  // below (s0 + s1) / 2 for elo0 0 < elo1: H0.
  CHECK(sprt_trinomial(50, 0, 0, c).decision == Decision::accept_h1);
  CHECK(sprt_pentanomial(Pentanomial{{0, 0, 0, 0, 9}}, c).decision == Decision::accept_h1);
  CHECK(sprt_trinomial(0, 50, 0, c).decision == Decision::accept_h0);
  CHECK(sprt_trinomial(0, 0, 50, c).decision == Decision::accept_h0);
  // Asymmetric error rates: alpha 0.05, beta 0.1: lower = log(0.1/0.95) = -2.25129,
  // upper = log(0.9/0.05) = 2.89037.
  const SprtState asym = sprt_trinomial(1, 1, 1, SprtConfig{0, 10, 0.05, 0.1});
  CHECK(asym.lower == Approx(-2.25129).margin(1e-5));
  CHECK(asym.upper == Approx(2.89037).margin(1e-5));
}

TEST_CASE("Percentile: linear interpolation between closest ranks") {
  // Sorted {1, 2, 3, 4, 10}: p = 0.5 -> h = 2 -> 3; p = 0.99 -> h = 3.96 -> 4 + 0.96 * 6 = 9.76;
  // p = 0.25 -> h = 1 -> 2; p = 0.1 -> h = 0.4 -> 1.4.
  const std::vector<double> v = {10, 3, 1, 4, 2};
  CHECK(median(v) == Approx(3));
  CHECK(percentile(v, 0.99) == Approx(9.76));
  CHECK(percentile(v, 0.25) == Approx(2));
  CHECK(percentile(v, 0.1) == Approx(1.4));
  CHECK(percentile(v, 0) == 1);
  CHECK(percentile(v, 1) == 10);
  CHECK(percentile(v, 7) == 10);  // p is clamped
  // An even count: the median is the mean of the middle two.
  CHECK(median({4, 1, 3, 2}) == Approx(2.5));
  CHECK(median({}) == 0);
  CHECK(percentile({5}, 0.99) == 5);
}

TEST_CASE("SPRT config: parsed from the CLI form") {
  const auto spaced = parse_sprt_config("elo0=0 elo1=5 alpha=0.05 beta=0.05");
  REQUIRE(spaced.ok());
  CHECK(spaced->elo0 == 0);
  CHECK(spaced->elo1 == 5);
  CHECK(spaced->alpha == Approx(0.05));
  CHECK(spaced->beta == Approx(0.05));
  const auto commas = parse_sprt_config("beta=0.1,alpha=0.02, elo1=+2.5,elo0=-1.5");
  REQUIRE(commas.ok());
  CHECK(commas->elo0 == -1.5);
  CHECK(commas->elo1 == 2.5);
  CHECK(commas->alpha == Approx(0.02));
  CHECK(commas->beta == Approx(0.1));
}

TEST_CASE("SPRT config: each mistake gets a clear error") {
  const auto error_of = [](const char* text) {
    const auto r = parse_sprt_config(text);
    REQUIRE_FALSE(r.ok());
    return r.error();
  };
  using Catch::Matchers::Contains;
  CHECK_THAT(error_of("elo0=0 elo1=5 alpha=0.05 beta=0.05 gamma=1"), Contains("unknown key \"gamma\""));
  CHECK_THAT(error_of("elo0=0 elo1=5 alpha=0.05"), Contains("missing beta"));
  CHECK_THAT(error_of(""), Contains("missing elo0"));
  CHECK_THAT(error_of("elo0=0 elo1=5 alpha=0 beta=0.05"), Contains("alpha=0 is not in (0,1)"));
  CHECK_THAT(error_of("elo0=0 elo1=5 alpha=1.5 beta=0.05"), Contains("alpha=1.5 is not in (0,1)"));
  CHECK_THAT(error_of("elo0=0 elo1=5 alpha=0.05 beta=1"), Contains("beta=1 is not in (0,1)"));
  CHECK_THAT(error_of("elo0=0 elo1=5 alpha=0.6 beta=0.5"), Contains("alpha + beta"));
  CHECK_THAT(error_of("elo0=5 elo1=5 alpha=0.05 beta=0.05"), Contains("elo1=5 must be greater than elo0=5"));
  CHECK_THAT(error_of("elo0=5 elo1=0 alpha=0.05 beta=0.05"), Contains("must be greater"));
  CHECK_THAT(error_of("elo0=zero elo1=5 alpha=0.05 beta=0.05"), Contains("elo0=zero is not a number"));
  CHECK_THAT(error_of("elo0=1x elo1=5 alpha=0.05 beta=0.05"), Contains("is not a number"));
  CHECK_THAT(error_of("elo0= elo1=5 alpha=0.05 beta=0.05"), Contains("is not a number"));
  CHECK_THAT(error_of("elo0=0 elo1=5 elo1=6 alpha=0.05 beta=0.05"), Contains("elo1 given twice"));
  CHECK_THAT(error_of("elo0 0 elo1=5 alpha=0.05 beta=0.05"), Contains("is not key=value"));
  CHECK_THAT(error_of("elo0=0 elo1=inf alpha=0.05 beta=0.05"), Contains("is not a number"));
}
