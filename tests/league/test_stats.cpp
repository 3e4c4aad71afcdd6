// League statistics against values computed by hand (the computation is in the comments).

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "referee/league/stats.hpp"
#include "tests/league/elo_approx.hpp"

using namespace arena::league;
using Decision = SprtState::Decision;

TEST_CASE("Elo: score and Elo are inverse logistic functions") {
  CHECK(score_from_elo(0) == Approx(0.5));
  // 400 Elo = odds 10:1, s = 10/11.
  CHECK(score_from_elo(400) == Approx(10.0 / 11.0));
  CHECK(elo_from_score(10.0 / 11.0) == elo_near(400));
  CHECK(elo_from_score(0.5) == elo_near(0));
  CHECK(elo_from_score(score_from_elo(-123.4)) == elo_near(-123.4));
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
  CHECK(e.elo == elo_near(147.19));
  CHECK(e.low == elo_near(86.23));
  CHECK(e.high == elo_near(218.25));
  // Mirror image for the loser.
  const EloEstimate m = elo_from_wdl(20, 20, 60);
  CHECK(m.elo == elo_near(-147.19));
  CHECK(m.low == elo_near(-218.25));
  CHECK(m.high == elo_near(-86.23));
  // elo_from_scores of the same games agrees.
  std::vector<double> scores(60, 1.0);
  scores.insert(scores.end(), 20, 0.5);
  scores.insert(scores.end(), 20, 0.0);
  const EloEstimate s = elo_from_scores(scores);
  CHECK(s.elo == elo_near(e.elo));
  CHECK(s.low == elo_near(e.low));
  CHECK(s.high == elo_near(e.high));
}

TEST_CASE("Elo: too few games give no interval, constant results an exact bound") {
  // No games: 0, no interval (the ends are the widest, and mean nothing).
  const EloEstimate none = elo_from_wdl(0, 0, 0);
  CHECK(none.elo == 0);
  CHECK(none.interval == IntervalKind::none);
  CHECK_FALSE(none.known());
  CHECK(none.low == -kEloBound);
  CHECK(none.high == kEloBound);
  // 4 wins out of 4 (the complaint "+1000 [+1000, +1000]"): the score is 1, so the estimate is
  // the bound, but 4 < kEloMinSamples games give no interval at all.
  const EloEstimate four = elo_from_wdl(4, 0, 0);
  CHECK(four.elo == kEloBound);
  CHECK(four.interval == IntervalKind::none);
  CHECK(four.samples == 4);
  // 9 games with spread: still none; 3 wins 3 draws 3 losses would be a normal interval at 10+.
  CHECK(elo_from_wdl(3, 3, 3).interval == IntervalKind::none);
  CHECK(elo_from_wdl(4, 3, 3).interval == IntervalKind::normal);
  // 10 wins: zero variance. q = 0.025^(1/10) = 0.691503, the mean score is in [q, 1]:
  // elo [-400 log10(1/q - 1), +bound] = [+140.22, +1000].
  const EloEstimate wins = elo_from_wdl(10, 0, 0);
  CHECK(wins.interval == IntervalKind::exact);
  CHECK(wins.elo == kEloBound);
  CHECK(wins.low == elo_near(140.22));
  CHECK(wins.high == kEloBound);
  // 10 losses: the mirror image, [-1000, -140.22].
  const EloEstimate losses = elo_from_wdl(0, 0, 10);
  CHECK(losses.elo == -kEloBound);
  CHECK(losses.low == -kEloBound);
  CHECK(losses.high == elo_near(-140.22));
  // 20 draws: q = 0.025^(1/20) = 0.831700, mean in [q/2, q/2 + 1 - q] = [0.41585, 0.58415]
  //   -> [-59.08, +59.08].
  const EloEstimate draws = elo_from_wdl(0, 20, 0);
  CHECK(draws.interval == IntervalKind::exact);
  CHECK(draws.elo == 0);
  CHECK(draws.low == elo_near(-59.08));
  CHECK(draws.high == elo_near(59.08));
  // 5 wins 5 losses: s = 0.5, var = 0.25, se = 0.158114, s + 1.96 se = 0.80990 -> +251.78.
  const EloEstimate coin = elo_from_wdl(5, 0, 5);
  CHECK(coin.interval == IntervalKind::normal);
  CHECK(coin.elo == elo_near(0));
  CHECK(coin.low == elo_near(-251.78));
  CHECK(coin.high == elo_near(251.78));
  for (const EloEstimate& e : {none, four, wins, losses, draws, coin}) {
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
  CHECK(e.elo == elo_near(88.74));
  CHECK(e.low == elo_near(44.54));
  CHECK(e.high == elo_near(135.96));
  CHECK(e.samples == 80);
  // nElo per game: sd of a game = sqrt(2 var) = 0.395285; (0.625 - 0.5) / 0.395285 * 800 / ln 10
  //   = 109.87; its half-width 1.96 * 0.03125 / 0.395285 * 347.436 = 53.83.
  CHECK(e.nelo == elo_near(109.87));
  CHECK(e.nelo_error == elo_near(53.83));
  // LOS = Phi(0.125 / 0.03125) = Phi(4) = 0.9999683.
  CHECK(e.los == Approx(0.9999683).margin(1e-7));
  // Draw ratio: DD+WL pairs / pairs = 20 / 80; pairs ratio: (WD + WW) / (LL + LD) = 45 / 15.
  CHECK(draw_ratio(p) == Approx(0.25));
  REQUIRE(pairs_ratio(p).has_value());
  CHECK(*pairs_ratio(p) == Approx(3.0));
  // No pairs and one-sided pairs stay finite, and say what they know.
  const EloEstimate none = elo_from_pentanomial(Pentanomial{});
  CHECK(none.elo == 0);
  CHECK_FALSE(none.known());
  Pentanomial ww;
  ww.counts = {0, 0, 0, 0, 4};
  CHECK(elo_from_pentanomial(ww).interval == IntervalKind::none);  // 4 pairs < kEloMinSamples
  CHECK_FALSE(pairs_ratio(ww).has_value());                        // no pair lost: infinite
  ww.counts = {0, 0, 0, 0, 10};
  CHECK(elo_from_pentanomial(ww).interval == IntervalKind::exact);
  CHECK(elo_from_pentanomial(ww).low == elo_near(140.22));
  CHECK(draw_ratio(3, 4, 3) == Approx(0.4));
}

// Published values of fastchess's own tests (github.com/Disservin/fastchess, app/tests/elo_test.cpp,
// "EloWDL 1/2", "EloPentanomial 1/2"), printed to 2 decimals; fastchess's "error" is the half-width
// of the Elo interval, (high - low) / 2. Its Stats(w, l, d) takes wins, losses, draws, and
// Stats(ll, ld, wl, dd, wd, ww) the pentanomial with WL and DD apart (we count them together).
TEST_CASE("Elo, nElo and LOS match fastchess's published values") {
  const Approx two_decimals = Approx(0).margin(0.0051);
  const auto half_width = [](const EloEstimate& e) { return (e.high - e.low) / 2; };
  // EloWDL 2: Stats(136, 96, 111) -> elo 40.70 +/- 30.43, nElo 49.77 +/- 36.77, LOS 99.60 %.
  const EloEstimate w2 = elo_from_wdl(136, 111, 96);
  CHECK(w2.elo == two_decimals(40.70));
  CHECK(half_width(w2) == two_decimals(30.43));
  CHECK(w2.nelo == two_decimals(49.77));
  CHECK(w2.nelo_error == two_decimals(36.77));
  CHECK(w2.los * 100 == two_decimals(99.60));
  // EloWDL 1: Stats(76, 89, 123) -> nElo -20.76 +/- 40.13, LOS 15.53 %.
  const EloEstimate w1 = elo_from_wdl(76, 123, 89);
  CHECK(w1.nelo == two_decimals(-20.76));
  CHECK(w1.nelo_error == two_decimals(40.13));
  CHECK(w1.los * 100 == two_decimals(15.53));
  // EloPentanomial 1: Stats(34, 54, 31, 32, 64, 75) -> elo 55.58 +/- 27.65,
  // nElo 57.94 +/- 28.28, LOS 100.00 %.
  const EloEstimate p1 = elo_from_pentanomial(Pentanomial{{34, 54, 31 + 32, 64, 75}});
  CHECK(p1.elo == two_decimals(55.58));
  CHECK(half_width(p1) == two_decimals(27.65));
  CHECK(p1.nelo == two_decimals(57.94));
  CHECK(p1.nelo_error == two_decimals(28.28));
  CHECK(p1.los * 100 == two_decimals(100.00));
  // EloPentanomial 2: Stats(332, 433, 457, 41, 333, 334) -> elo -8.64 +/- 10.33,
  // nElo -9.17 +/- 10.96, LOS 5.05 %.
  const EloEstimate p2 = elo_from_pentanomial(Pentanomial{{332, 433, 457 + 41, 333, 334}});
  CHECK(p2.elo == two_decimals(-8.64));
  CHECK(half_width(p2) == two_decimals(10.33));
  CHECK(p2.nelo == two_decimals(-9.17));
  CHECK(p2.nelo_error == two_decimals(10.96));
  CHECK(p2.los * 100 == two_decimals(5.05));
}

TEST_CASE("SPRT: bounds and the LLR of 60 wins, 20 draws, 20 losses") {
  const SprtConfig c{0, 5, 0.05, 0.05};
  // lower = log(0.05 / 0.95) = -2.94444, upper = log(0.95 / 0.05) = +2.94444.
  // s0 = 0.5, s1 = 0.507195. Frequencies (L, D, W) = (0.2, 0.2, 0.6) at scores (0, 0.5, 1);
  // the distributions nearest to them with means s0 and s1 (theta0 = 2.058, theta1 = 1.997 in
  // q_i = p_i / (1 + theta (a_i - s))) give LLR = 100 * sum p_i log(q1_i / q0_i) = 0.70725.
  // (The normal approximation of earlier versions gave 0.88321.)
  const SprtState st = sprt_trinomial(60, 20, 20, c);
  CHECK(st.lower == Approx(-2.94444).margin(1e-5));
  CHECK(st.upper == Approx(2.94444).margin(1e-5));
  CHECK(st.llr == Approx(0.70725).margin(1e-5));
  CHECK(st.decision == Decision::none);
  CHECK(st.samples == 100);
  CHECK(st.min_samples == kSprtMinGames);
  CHECK_FALSE(st.below_minimum);
  CHECK(to_string(st.decision) == "none");
}

TEST_CASE("SPRT: the decision flips exactly where the LLR crosses a bound") {
  const SprtConfig c{0, 5, 0.05, 0.05};
  // Proportions 3:1:1 give 0.0070725 LLR per game; upper 2.94444 needs 416.3 games.
  // 415 games (249/83/83): LLR 2.93508, no decision; 420 games (252/84/84): 2.97044, H1.
  const SprtState below = sprt_trinomial(249, 83, 83, c);
  CHECK(below.llr == Approx(2.93508).margin(1e-5));
  CHECK(below.decision == Decision::none);
  const SprtState above = sprt_trinomial(252, 84, 84, c);
  CHECK(above.llr == Approx(2.97044).margin(1e-5));
  CHECK(above.decision == Decision::accept_h1);
  CHECK(to_string(above.decision) == "accept_h1");
  // Proportions 1:1:3 (s = 0.3): -0.0073180 per game. 400 games: -2.92736, none;
  // 405 games: -2.96395, H0.
  const SprtState h0_below = sprt_trinomial(80, 80, 240, c);
  CHECK(h0_below.llr == Approx(-2.92736).margin(1e-5));
  CHECK(h0_below.decision == Decision::none);
  const SprtState h0 = sprt_trinomial(81, 81, 243, c);
  CHECK(h0.llr == Approx(-2.96395).margin(1e-5));
  CHECK(h0.decision == Decision::accept_h0);
  CHECK(to_string(h0.decision) == "accept_h0");
}

// Published values of fastchess's tests (github.com/Disservin/fastchess, app/tests/sprt_test.cpp,
// "logistic trinomial 1/2" and "logistic pentanomial 1/2", checked there to 1%): the same GSPRT,
// so the same LLR. Stats(w, l, d); Stats(ll, ld, wl, dd, wd, ww).
TEST_CASE("SPRT: the LLR matches fastchess's published values") {
  // logistic trinomial 1: Stats(21404, 21184, 40708), elo0 0.5, elo1 2.5 -> -1.57.
  CHECK(sprt_trinomial(21404, 40708, 21184, SprtConfig{0.5, 2.5, 0.05, 0.05}).llr == Approx(-1.57).margin(0.005));
  // logistic trinomial 2: Stats(57433, 57030, 106593), elo0 0, elo1 2 -> -2.59.
  CHECK(sprt_trinomial(57433, 106593, 57030, SprtConfig{0, 2, 0.05, 0.05}).llr == Approx(-2.59).margin(0.005));
  // logistic pentanomial 1: Stats(223, 9863, 20279, 1000, 10037, 246), elo0 0.5, elo1 2.5 -> -3.07.
  const SprtState p1 = sprt_pentanomial(Pentanomial{{223, 9863, 20279 + 1000, 10037, 246}}, {0.5, 2.5, 0.05, 0.05});
  CHECK(p1.llr == Approx(-3.07).margin(0.005));
  CHECK(p1.decision == Decision::accept_h0);
  // logistic pentanomial 2: Stats(871, 26175, 55003, 980, 26678, 821), elo0 0, elo1 2 -> -4.98.
  const SprtState p2 = sprt_pentanomial(Pentanomial{{871, 26175, 55003 + 980, 26678, 821}}, {0, 2, 0.05, 0.05});
  CHECK(p2.llr == Approx(-4.98).margin(0.005));
}

TEST_CASE("SPRT: identical results cannot decide early") {
  // The complaint: one duplicate pair lost twice (LL) with elo0 0, elo1 50 printed llr 17.836 and
  // accept_h1 (the zero-variance pseudo-count made the normal approximation explode). Now the
  // empty cells get 1e-3 each and the LLR is that of the MLE fits: -0.15456, and 1 pair is below
  // the minimum of kSprtMinPairs.
  const SprtConfig wide{0, 50, 0.05, 0.05};
  const SprtState ll = sprt_pentanomial(Pentanomial{{1, 0, 0, 0, 0}}, wide);
  CHECK(ll.llr == Approx(-0.15456).margin(1e-5));
  CHECK(ll.decision == Decision::none);
  CHECK(ll.below_minimum);
  CHECK(ll.samples == 1);
  // Every pair won twice: the LLR grows by about 0.134 a pair (1 pair 0.13384, 10 pairs 1.33616,
  // 20 pairs 2.67208), so even without the minimum 22 pairs are needed for elo1 = 50.
  CHECK(sprt_pentanomial(Pentanomial{{0, 0, 0, 0, 1}}, wide).llr == Approx(0.13384).margin(1e-5));
  CHECK(sprt_pentanomial(Pentanomial{{0, 0, 0, 0, 10}}, wide).llr == Approx(1.33616).margin(1e-5));
  CHECK(sprt_pentanomial(Pentanomial{{0, 0, 0, 0, 20}}, wide).llr == Approx(2.67208).margin(1e-5));
  CHECK(sprt_pentanomial(Pentanomial{{0, 0, 0, 0, 20}}, wide).decision == Decision::none);
  // With elo1 = 400 a few identical pairs pass the bound: 9 WW pairs give 5.38062 > 2.94444 and
  // still no decision, being below the minimum; the 10th pair decides.
  const SprtConfig huge{0, 400, 0.05, 0.05};
  const SprtState nine = sprt_pentanomial(Pentanomial{{0, 0, 0, 0, kSprtMinPairs - 1}}, huge);
  CHECK(nine.llr == Approx(5.38062).margin(1e-5));
  CHECK(nine.below_minimum);
  CHECK(nine.decision == Decision::none);
  const SprtState ten = sprt_pentanomial(Pentanomial{{0, 0, 0, 0, kSprtMinPairs}}, huge);
  CHECK_FALSE(ten.below_minimum);
  CHECK(ten.decision == Decision::accept_h1);
  // Games: 19 wins give 11.35780 and no decision (below kSprtMinGames); 20 wins decide.
  const SprtState nineteen = sprt_trinomial(kSprtMinGames - 1, 0, 0, huge);
  CHECK(nineteen.llr == Approx(11.35780).margin(1e-5));
  CHECK(nineteen.decision == Decision::none);
  CHECK(sprt_trinomial(kSprtMinGames, 0, 0, huge).decision == Decision::accept_h1);
  // All draws lean to H0 (their mean 0.5 is s0) but slowly: 50 draws with elo1 5 give -0.71786.
  CHECK(sprt_trinomial(0, 50, 0, SprtConfig{0, 5, 0.05, 0.05}).llr == Approx(-0.71786).margin(1e-5));
}

TEST_CASE("SPRT: pentanomial and degenerate data") {
  const SprtConfig c{0, 5, 0.05, 0.05};
  // The pentanomial example (80 pairs, mean 0.625): LLR 0.70438 (normal approximation: 0.89446).
  Pentanomial p;
  p.counts = {5, 10, 20, 30, 15};
  const SprtState st = sprt_pentanomial(p, c);
  CHECK(st.llr == Approx(0.70438).margin(1e-5));
  CHECK(st.decision == Decision::none);
  CHECK(st.samples == 80);
  CHECK(st.min_samples == kSprtMinPairs);
  // No data: LLR 0, no decision, bounds set.
  for (const SprtState& s : {sprt_trinomial(0, 0, 0, c), sprt_pentanomial(Pentanomial{}, c)}) {
    CHECK(s.llr == 0);
    CHECK(s.decision == Decision::none);
    CHECK(s.below_minimum);
    CHECK(s.upper == Approx(2.94444).margin(1e-5));
  }
  // Asymmetric error rates: alpha 0.05, beta 0.1: lower = log(0.1/0.95) = -2.25129,
  // upper = log(0.9/0.05) = 2.89037.
  const SprtState asym = sprt_trinomial(1, 1, 1, SprtConfig{0, 10, 0.05, 0.1});
  CHECK(asym.lower == Approx(-2.25129).margin(1e-5));
  CHECK(asym.upper == Approx(2.89037).margin(1e-5));
  CHECK(asym.llr == Approx(-0.00186).margin(1e-5));
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
