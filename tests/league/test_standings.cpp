// Standings over hand-built league records, with every number worked out by hand, and the
// writers: JSON (finite, versioned), Markdown, the terminal table and JUnit XML (checked by a
// small well-formedness parser, since the project has no XML library).

#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "referee/core/markup.hpp"
#include "referee/league/standings.hpp"
#include "tests/league/elo_approx.hpp"

using namespace arena;
using namespace arena::league;
using Catch::Matchers::Contains;

namespace {

SeatRecord seat(std::string bot, double score, int rank, std::vector<double> decision_ms = {},
                std::uint64_t stderr_bytes = 0) {
  return SeatRecord{std::move(bot), score, rank, std::move(decision_ms), stderr_bytes};
}

MatchRecord match(std::uint64_t index, std::uint64_t deal, int leg, std::vector<SeatRecord> seats) {
  MatchRecord r;
  r.index = index;
  r.deal = deal;
  r.leg = leg;
  r.seed = 1000 + deal;
  r.end = replay::End::finished;
  r.seats = std::move(seats);
  return r;
}

// A 2-seat league of alpha, beta, gamma and delta (who never plays):
//   #0 deal 0 leg 0: alpha 30 (1st)  beta 20 (2nd)
//   #1 deal 0 leg 1: beta 25 (1st)   alpha 22 (2nd)       -> alpha's pair: 1 + 0 = 1 (WL)
//   #2 deal 1 leg 0: alpha 21 (1st)  beta 21 (1st, draw)
//   #3 deal 1 leg 1: beta 18 (2nd)   alpha 24 (1st)       -> alpha's pair: 0.5 + 1 = 1.5 (WD)
//   #4 deal 2 leg 0: alpha 15 (1st)  gamma 0 (2nd, timeout)
//   #5 deal 2 leg 1: beta 19 (1st)   gamma 12 (2nd)       -> a different pair: no duplicate
std::vector<MatchRecord> two_seat_league() {
  std::vector<MatchRecord> r;
  r.push_back(match(0, 0, 0, {seat("alpha", 30, 1, {1, 2, 3}, 100), seat("beta", 20, 2, {4, 5}, 7)}));
  r.push_back(match(1, 0, 1, {seat("beta", 25, 1, {6}), seat("alpha", 22, 2, {2, 4})}));
  r.push_back(match(2, 1, 0, {seat("alpha", 21, 1, {5}), seat("beta", 21, 1, {1})}));
  r.push_back(match(3, 1, 1, {seat("beta", 18, 2, {2}), seat("alpha", 24, 1, {1})}));
  MatchRecord fault = match(4, 2, 0, {seat("alpha", 15, 1, {10, 0.5}, 20), seat("gamma", 0, 2, {3}, 5000)});
  fault.end = replay::End::fault;
  fault.fault = FaultRecord{1, replay::FaultKind::timeout, 7, "no reply within 1000 ms"};
  fault.fault->request = "{\"type\":\"act\",\"id\":7}";
  fault.fault->reply = "";
  fault.replay = "replays/m000004.jsonl";
  fault.rerun = "referee play --seed 1002 --bot ./alpha --bot ./gamma";
  r.push_back(fault);
  r.push_back(match(5, 2, 1, {seat("beta", 19, 1), seat("gamma", 12, 2, {2, 2})}));
  return r;
}

const std::vector<std::string> kBots = {"alpha", "beta", "gamma", "delta"};

// ---- A minimal XML 1.0 well-formedness checker: elements, attributes, text, entities. ----

struct Element {
  std::string name;
  std::map<std::string, std::string> attrs;  // decoded values
  std::vector<Element> children;
  std::string text;  // decoded character data directly inside

  std::vector<const Element*> all(std::string_view child) const {
    std::vector<const Element*> out;
    for (const Element& e : children) {
      if (e.name == child) out.push_back(&e);
    }
    return out;
  }
};

class XmlParser {
 public:
  explicit XmlParser(std::string_view text) : s_(text) {}

  // Throws std::runtime_error at the first violation.
  Element document() {
    if (s_.substr(0, 5) == "<?xml") {
      const std::size_t end = s_.find("?>");
      if (end == std::string_view::npos) fail("unterminated XML declaration");
      i_ = end + 2;
    }
    skip_space();
    Element root = element();
    skip_space();
    if (i_ != s_.size()) fail("content after the root element");
    return root;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(what + " at offset " + std::to_string(i_));
  }
  bool at_end() const { return i_ >= s_.size(); }
  char peek() const { return at_end() ? '\0' : s_[i_]; }
  bool starts(std::string_view t) const { return s_.substr(i_, t.size()) == t; }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++i_;
  }
  bool skip_space() {
    const std::size_t from = i_;
    while (!at_end() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r')) ++i_;
    return i_ > from;
  }
  static bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_' || c == ':'; }
  static bool name_char(char c) {
    return name_start(c) || std::isdigit(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '.';
  }
  std::string name() {
    if (!name_start(peek())) fail("expected a name");
    const std::size_t from = i_;
    while (!at_end() && name_char(s_[i_])) ++i_;
    return std::string(s_.substr(from, i_ - from));
  }
  // After '&': one of the five predefined entities or a character reference.
  std::string entity() {
    const std::size_t semi = s_.find(';', i_);
    if (semi == std::string_view::npos || semi - i_ > 10) fail("unterminated entity");
    const std::string_view e = s_.substr(i_, semi - i_);
    i_ = semi + 1;
    if (e == "amp") return "&";
    if (e == "lt") return "<";
    if (e == "gt") return ">";
    if (e == "quot") return "\"";
    if (e == "apos") return "'";
    if (e.size() >= 2 && e[0] == '#') {
      const bool hex = e[1] == 'x';
      const std::string_view digits = e.substr(hex ? 2 : 1);
      if (digits.empty()) fail("empty character reference");
      long code = 0;
      for (char c : digits) {
        if (!(hex ? std::isxdigit(static_cast<unsigned char>(c)) : std::isdigit(static_cast<unsigned char>(c)))) {
          fail("bad character reference");
        }
        code = code * (hex ? 16 : 10) + std::stol(std::string(1, c), nullptr, 16);
      }
      if (code != 9 && code != 10 && code != 13 && (code < 0x20 || code > 0x7F)) {
        fail("character reference outside what this checker decodes");  // enough for our output
      }
      return std::string(1, static_cast<char>(code));
    }
    fail("unknown entity &" + std::string(e) + ";");
  }
  void check_char(char c) const {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 && c != '\t' && c != '\n' && c != '\r') fail("control character");
  }
  Element element() {
    expect('<');
    Element e;
    e.name = name();
    while (true) {
      const bool spaced = skip_space();
      if (starts("/>")) {
        i_ += 2;
        return e;
      }
      if (peek() == '>') {
        ++i_;
        break;
      }
      if (!spaced) fail("attributes must be separated by whitespace");
      const std::string key = name();
      skip_space();
      expect('=');
      skip_space();
      const char quote = peek();
      if (quote != '"' && quote != '\'') fail("unquoted attribute value");
      ++i_;
      std::string value;
      while (peek() != quote) {
        if (at_end()) fail("unterminated attribute value");
        const char c = s_[i_++];
        if (c == '<') fail("'<' in an attribute value");
        check_char(c);
        value += c == '&' ? entity() : std::string(1, c);
      }
      ++i_;
      if (!e.attrs.emplace(key, value).second) fail("duplicate attribute " + key);
    }
    while (true) {
      if (at_end()) fail("unclosed element <" + e.name + ">");
      if (starts("</")) {
        i_ += 2;
        if (name() != e.name) fail("mismatched closing tag for <" + e.name + ">");
        skip_space();
        expect('>');
        return e;
      }
      if (starts("<!--")) {
        const std::size_t end = s_.find("-->", i_);
        if (end == std::string_view::npos) fail("unterminated comment");
        i_ = end + 3;
      } else if (peek() == '<') {
        e.children.push_back(element());
      } else {
        const char c = s_[i_++];
        check_char(c);
        e.text += c == '&' ? entity() : std::string(1, c);
      }
    }
  }

  std::string_view s_;
  std::size_t i_ = 0;
};

Element parse_xml(const std::string& text) {
  return XmlParser(text).document();
}

// Checks the JUnit shape and that every count attribute matches the elements, for any suite.
// The JUnit shape: a suite "league", a suite "sprt" with an SPRT, and one suite per bot, the
// counts adding up at both levels; every failure has a message. Returns the suites by name.
std::map<std::string, const Element*> check_junit(const Element& root, const Standings& st) {
  REQUIRE(root.name == "testsuites");
  const auto suites = root.all("testsuite");
  REQUIRE(suites.size() == st.bots.size() + 1 + (st.sprt ? 1 : 0));
  std::map<std::string, const Element*> by_name;
  int tests = 0;
  int failed = 0;
  for (const Element* suite : suites) {
    by_name[suite->attrs.at("name")] = suite;
    const auto cases = suite->all("testcase");
    int suite_failed = 0;
    for (const Element* c : cases) {
      const auto failures = c->all("failure");
      CHECK(failures.size() <= 1);
      if (!failures.empty()) {
        ++suite_failed;
        CHECK(failures[0]->attrs.count("message") == 1);
      }
      CHECK(c->attrs.count("name") == 1);
      CHECK(c->attrs.count("classname") == 1);
    }
    CHECK(suite->attrs.at("tests") == std::to_string(cases.size()));
    CHECK(suite->attrs.at("failures") == std::to_string(suite_failed));
    const auto skipped =
        std::count_if(cases.begin(), cases.end(), [](const Element* c) { return !c->all("skipped").empty(); });
    CHECK(suite->attrs.at("skipped") == std::to_string(skipped));
    tests += static_cast<int>(cases.size());
    failed += suite_failed;
  }
  CHECK(suites[0]->attrs.at("name") == "league");
  CHECK(root.attrs.at("tests") == std::to_string(tests));
  CHECK(root.attrs.at("failures") == std::to_string(failed));
  return by_name;
}

// The one test case of `suite` in the JUnit XML of `st` (the shape checked), named `name`.
Element only_case(const Standings& st, const std::string& suite, const std::string& name) {
  Element root;
  REQUIRE_NOTHROW(root = parse_xml(junit_xml(st, "ci")));
  const auto suites = check_junit(root, st);
  const auto cases = suites.at(suite)->all("testcase");
  REQUIRE(cases.size() == 1);
  CHECK(cases[0]->attrs.at("name") == name);
  return *cases[0];
}

// True if every number anywhere in `j` is finite.
bool all_finite(const nlohmann::json& j) {
  if (j.is_number_float()) return std::isfinite(j.get<double>());
  if (j.is_structured()) {
    for (const auto& v : j) {
      if (!all_finite(v)) return false;
    }
  }
  return true;
}

}  // namespace

TEST_CASE("Standings: a 2-seat league with a duplicate pair, a draw and a fault") {
  const Standings st = compute_standings(two_seat_league(), kBots);
  CHECK(st.matches == 6);
  CHECK(st.seats_per_match == 2);
  CHECK(st.points_rule == "win 1, draw 0.5, loss 0");
  REQUIRE(st.bots.size() == 4);
  // By points per game: alpha 3.5/5 = 0.7, beta 2.5/5 = 0.5, gamma 0/2, delta without games.
  CHECK(st.bots[0].name == "alpha");
  CHECK(st.bots[1].name == "beta");
  CHECK(st.bots[2].name == "gamma");
  CHECK(st.bots[3].name == "delta");

  const BotStanding& alpha = st.bots[0];
  CHECK(alpha.games == 5);
  CHECK(alpha.points == 3.5);  // won #0 #3 #4, lost #1, drew #2
  CHECK(alpha.wins == 3);
  CHECK(alpha.draws == 1);
  CHECK(alpha.losses == 1);
  CHECK(alpha.score_per_game == Approx(22.4));  // (30 + 22 + 21 + 24 + 15) / 5
  // Rank points {1, 0, 0.5, 1, 1}: s = 0.7 -> 147.19; 5 games are too few for an interval.
  CHECK(alpha.elo.elo == elo_near(147.19));
  CHECK(alpha.elo.interval == IntervalKind::none);
  CHECK(alpha.elo.samples == 5);
  CHECK(alpha.faults.empty());
  // Decisions {1,2,3, 2,4, 5, 1, 10,0.5} sorted: 0.5 1 1 2 2 3 4 5 10. Median: h = 4 -> 2.
  // p99: h = 0.99 * 8 = 7.92 -> 5 + 0.92 * (10 - 5) = 9.6. Total 28.5.
  CHECK(alpha.decision_median_ms == Approx(2));
  CHECK(alpha.decision_p99_ms == Approx(9.6));
  CHECK(alpha.decision_max_ms == 10);
  CHECK(alpha.decision_total_ms == Approx(28.5));
  CHECK(alpha.stderr_bytes == 120);

  const BotStanding& beta = st.bots[1];
  CHECK(beta.games == 5);
  CHECK(beta.points == 2.5);
  CHECK(beta.wins == 2);
  CHECK(beta.draws == 1);
  CHECK(beta.losses == 2);
  CHECK(beta.score_per_game == Approx(20.6));  // (20 + 25 + 21 + 18 + 19) / 5
  // {0, 1, 0.5, 0, 1}: s = 0.5 -> 0, no interval.
  CHECK(beta.elo.elo == 0);
  CHECK_FALSE(beta.elo.known());
  // Decisions 1 2 4 5 6: median 4, p99 h = 3.96 -> 5 + 0.96 = 5.96.
  CHECK(beta.decision_median_ms == Approx(4));
  CHECK(beta.decision_p99_ms == Approx(5.96));
  CHECK(beta.decision_max_ms == 6);
  CHECK(beta.stderr_bytes == 7);

  const BotStanding& gamma = st.bots[2];
  CHECK(gamma.games == 2);
  CHECK(gamma.points == 0);
  CHECK(gamma.losses == 2);
  CHECK(gamma.score_per_game == Approx(6));
  CHECK(gamma.faults == std::map<std::string, int>{{"timeout", 1}});
  CHECK(gamma.fault_count() == 1);
  CHECK(gamma.elo.elo == -kEloBound);
  CHECK_FALSE(gamma.elo.known());                // 2 games, both lost: no "[-1000, -1000]"
  CHECK(gamma.decision_p99_ms == Approx(2.98));  // 2 2 3: h = 1.98 -> 2 + 0.98
  CHECK(gamma.stderr_bytes == 5000);

  const BotStanding& delta = st.bots[3];
  CHECK(delta.games == 0);
  CHECK(delta.points == 0);
  CHECK(delta.score_per_game == 0);
  CHECK(delta.elo.elo == 0);
  CHECK(delta.elo.samples == 0);
  CHECK_FALSE(delta.elo.known());
  CHECK_FALSE(delta.rating.known());
  CHECK(delta.decision_max_ms == 0);

  REQUIRE(st.pairs.size() == 3);
  const PairStanding& ab = st.pairs[0];
  CHECK(ab.a == "alpha");
  CHECK(ab.b == "beta");
  CHECK(ab.games == 4);
  CHECK(ab.a_points == 2.5);
  CHECK(ab.a_wins == 2);
  CHECK(ab.draws == 1);
  CHECK(ab.b_wins == 1);
  // Deal 0: 1 + 0 = 1 point (index 2); deal 1: 0.5 + 1 = 1.5 points (index 3).
  CHECK(ab.a_pairs.counts == std::array<int, 5>{0, 0, 1, 1, 0});
  // Pentanomial: samples {0.5, 0.75}: s = 0.625 -> 88.74; 2 pairs give no interval.
  CHECK(ab.elo.elo == elo_near(88.74));
  CHECK(ab.elo.samples == 2);
  CHECK_FALSE(ab.elo.known());

  // alpha-gamma played only leg 0 of deal 2; beta-gamma only leg 1 of it: no complete pair,
  // so their Elo is trinomial (1 win: +bound, and no interval).
  const PairStanding& ag = st.pairs[1];
  CHECK(ag.a == "alpha");
  CHECK(ag.b == "gamma");
  CHECK(ag.games == 1);
  CHECK(ag.a_points == 1);
  CHECK(ag.a_pairs.pairs() == 0);
  CHECK(ag.elo.elo == kEloBound);
  CHECK_FALSE(ag.elo.known());
  const PairStanding& bg = st.pairs[2];
  CHECK(bg.a == "beta");
  CHECK(bg.b == "gamma");
  CHECK(bg.a_wins == 1);
  CHECK(bg.a_pairs.pairs() == 0);
}

TEST_CASE("Standings: a 3-seat league uses linear rank points and head to head") {
  // #0: x 1st, y 2nd, z 3rd      -> x 1, y 0.5, z 0
  // #1: x, y tied 1st, z 3rd     -> x, y (1 + 0.5)/2 = 0.75 each (draws), z 0
  // #2: z 1st, x, y tied 2nd     -> z 1, x, y (0.5 + 0)/2 = 0.25 each (losses)
  std::vector<MatchRecord> records;
  records.push_back(match(0, 0, 0, {seat("x", 10, 1), seat("y", 8, 2), seat("z", 5, 3)}));
  records.push_back(match(1, 1, 0, {seat("y", 9, 1), seat("z", 3, 3), seat("x", 9, 1)}));
  records.push_back(match(2, 2, 0, {seat("z", 12, 1), seat("x", 4, 2), seat("y", 4, 2)}));
  const Standings st = compute_standings(records, {"z", "y", "x"});
  CHECK(st.seats_per_match == 3);
  CHECK(st.points_rule ==
        "rank points: 1st 1, 2nd 0.5, 3rd 0 (1 for first, 0 for last, linear in between); tied "
        "seats share the average of the places they cover");
  REQUIRE(st.bots.size() == 3);
  const BotStanding& x = st.bots[0];
  const BotStanding& y = st.bots[1];
  const BotStanding& z = st.bots[2];
  CHECK(x.name == "x");
  CHECK(x.points == 2.0);
  CHECK(x.wins == 1);
  CHECK(x.draws == 1);
  CHECK(x.losses == 1);
  // {1, 0.75, 0.25}: s = 2/3 -> 120.41 (3 games: no interval).
  CHECK(x.elo.elo == elo_near(120.41));
  CHECK_FALSE(x.elo.known());
  CHECK(y.name == "y");
  CHECK(y.points == 1.5);
  CHECK(y.wins == 0);
  CHECK(y.draws == 1);
  CHECK(y.losses == 2);
  // {0.5, 0.75, 0.25}: s = 0.5.
  CHECK(y.elo.elo == 0);
  CHECK(z.name == "z");
  CHECK(z.points == 1.0);
  CHECK(z.wins == 1);
  CHECK(z.draws == 0);
  CHECK(z.losses == 2);
  CHECK(z.score_per_game == Approx(20.0 / 3.0));
  // {0, 0, 1}: s = 1/3 -> -120.41.
  CHECK(z.elo.elo == elo_near(-120.41));
  // The Plackett-Luce rating orders them as the points do: x above y above z? x finished
  // first, tied first and tied second; y second, tied first, tied second; z last, last, first.
  CHECK(x.rating.elo > y.rating.elo);
  CHECK(x.rating.samples == 3);
  CHECK(x.rating.elo + y.rating.elo + z.rating.elo == Approx(0).margin(1e-9));

  // Pairs in league order (z, y, x); head to head per match: better rank 1, equal 0.5.
  REQUIRE(st.pairs.size() == 3);
  const PairStanding& zy = st.pairs[0];
  CHECK(zy.a == "z");
  CHECK(zy.b == "y");
  CHECK(zy.games == 3);
  CHECK(zy.a_points == 1);  // 0, 0, 1
  CHECK(zy.a_wins == 1);
  CHECK(zy.b_wins == 2);
  const PairStanding& zx = st.pairs[1];
  CHECK(zx.a == "z");
  CHECK(zx.b == "x");
  CHECK(zx.a_points == 1);
  const PairStanding& yx = st.pairs[2];
  CHECK(yx.a == "y");
  CHECK(yx.b == "x");
  CHECK(yx.a_points == 1);  // 0, 0.5, 0.5
  CHECK(yx.a_wins == 0);
  CHECK(yx.draws == 2);
  CHECK(yx.b_wins == 1);
  CHECK(yx.a_pairs.pairs() == 0);  // 3-seat matches make no duplicate pairs
  const EloEstimate trinomial = elo_from_wdl(0, 2, 1);
  CHECK(yx.elo.elo == trinomial.elo);
  CHECK(yx.elo.low == trinomial.low);
}

TEST_CASE("Standings: edge cases") {
  // No records: every bot listed in league order (all without games), no pairs.
  const Standings empty = compute_standings({}, {"b", "a"});
  CHECK(empty.matches == 0);
  CHECK(empty.seats_per_match == 0);
  REQUIRE(empty.bots.size() == 2);
  CHECK(empty.bots[0].name == "a");  // ties on points per game sort by name
  CHECK(empty.pairs.empty());
  // A bot in the records but not in the list is added; several pairs of one deal pair up in
  // index order; self-play has no head to head.
  std::vector<MatchRecord> r;
  r.push_back(match(3, 7, 1, {seat("q", 1, 2), seat("p", 2, 1)}));  // p wins leg 1
  r.push_back(match(0, 7, 0, {seat("p", 1, 2), seat("q", 2, 1)}));  // p loses leg 0
  r.push_back(match(1, 7, 0, {seat("p", 2, 1), seat("q", 2, 1)}));  // draw, leg 0 again
  r.push_back(match(4, 7, 1, {seat("q", 2, 1), seat("p", 2, 1)}));  // draw, leg 1 again
  r.push_back(match(5, 8, 0, {seat("p", 2, 1), seat("p", 1, 2)}));  // self-play
  const Standings st = compute_standings(r, {"p"});
  REQUIRE(st.bots.size() == 2);
  CHECK(st.bots[1].name == "q");
  CHECK(st.bots[0].name == "p");
  CHECK(st.bots[0].games == 6);  // two seats in the self-play match
  REQUIRE(st.pairs.size() == 1);
  // Index order: leg 0 #0 (0) with leg 1 #3 (1) -> 1 point; leg 0 #1 (0.5) with leg 1 #4 (0.5)
  // -> 1 point.
  CHECK(st.pairs[0].a == "p");
  CHECK(st.pairs[0].games == 4);
  CHECK(st.pairs[0].a_pairs.counts == std::array<int, 5>{0, 0, 2, 0, 0});
}

TEST_CASE("Standings JSON: versioned, complete, finite") {
  const Standings st = compute_standings(two_seat_league(), kBots);
  const nlohmann::json j = standings_json(st);
  CHECK(j.at("standings_version") == 2);
  CHECK(j.at("matches") == 6);
  CHECK(j.at("points_rule") == "win 1, draw 0.5, loss 0");
  REQUIRE(j.at("bots").size() == 4);
  const nlohmann::json& alpha = j.at("bots").at(0);
  CHECK(alpha.at("place") == 1);
  CHECK(alpha.at("name") == "alpha");
  CHECK(alpha.at("points") == 3.5);
  // 5 games: no interval, so its ends are null (never a made-up number), as are nElo and LOS.
  CHECK(alpha.at("elo").at("elo").get<double>() == elo_near(147.19));
  CHECK(alpha.at("elo").at("high").is_null());
  CHECK(alpha.at("elo").at("low").is_null());
  CHECK(alpha.at("elo").at("los").is_null());
  CHECK(alpha.at("elo").at("interval") == "none");
  CHECK(alpha.at("elo").at("samples") == 5);
  CHECK(alpha.at("rating").at("samples") == 5);
  CHECK(j.at("completion").at("partial") == false);
  CHECK(j.at("completion").at("message") == "");
  CHECK(j.at("not_counted") == 0);
  // gamma's timeout, whole, for JUnit and for machines.
  const nlohmann::json& entry = j.at("bots").at(2).at("fault_entries").at(0);
  CHECK(entry.at("match") == 4);
  CHECK(entry.at("kind") == "timeout");
  CHECK(entry.at("message") == "no reply within 1000 ms");
  CHECK(entry.at("replay") == "replays/m000004.jsonl");
  CHECK(alpha.at("decision_ms").at("p99").get<double>() == Approx(9.6));
  CHECK(j.at("bots").at(2).at("faults") == nlohmann::json{{"timeout", 1}});
  CHECK(j.at("bots").at(2).at("fault_count") == 1);
  const nlohmann::json& ab = j.at("pairs").at(0);
  CHECK(ab.at("pentanomial") == nlohmann::json::array({0, 0, 1, 1, 0}));
  CHECK(ab.at("elo_model") == "pentanomial");
  CHECK(j.at("pairs").at(1).at("elo_model") == "trinomial");
  CHECK(ab.at("draw_ratio") == 0.5);      // one pair of two scored exactly 1 point
  CHECK(ab.at("pairs_ratio").is_null());  // no pair lost: infinite
  CHECK(all_finite(j));
  // It round-trips through text (a NaN or inf would dump as null).
  CHECK(nlohmann::json::parse(j.dump()) == j);
}

TEST_CASE("Standings Markdown and terminal table") {
  const Standings st = compute_standings(two_seat_league(), kBots);
  const std::string md = standings_markdown(st);
  CHECK_THAT(md, Contains("6 matches, 2 seats per match. Points: win 1, draw 0.5, loss 0."));
  // 5 games: the Elo says so instead of a made-up interval; points with two decimals.
  CHECK_THAT(md, Contains("| 1 | alpha | 5 | 3.50 | 0.700 | 3 | 1 | 1 | 22.4 | +147 [not enough games] | 0 | "
                          "2.00 / 9.60 / 10.00 | 120 |"));
  CHECK_THAT(md, Contains("| 4 | delta | 0 | 0.00 | 0.000 | 0 | 0 | 0 | 0.0 | - | 0 |"));
  CHECK_THAT(md, Contains("| alpha | beta | 4 | 2.50 | 2 / 1 / 1 | 0 / 0 / 1 / 1 / 0 | +89 [not enough games] | - |"));
  CHECK_THAT(md, Contains("## Faults\n\n- gamma: 1 timeout\n"));
  // The crosstable: row bot's head-to-head points against the column bot, in standings order.
  CHECK_THAT(md, Contains("| | alpha | beta | gamma | delta |\n|:--|--:|--:|--:|--:|\n"));
  CHECK_THAT(md, Contains("| alpha | - | 2.5/4 | 1/1 |  |\n"));
  CHECK_THAT(md, Contains("| beta | 1.5/4 | - | 1/1 |  |\n"));
  CHECK_THAT(md, Contains("| gamma | 0/1 | 0/1 | - |  |\n"));
  // A 2-seat league has no rating column, and a complete one no PARTIAL line.
  CHECK(md.find("Rating") == std::string::npos);
  CHECK(md.find("PARTIAL") == std::string::npos);
  // Names cannot break the table.
  const Standings odd = compute_standings({}, {"a|b"});
  CHECK_THAT(standings_markdown(odd), Contains("| a\\|b |"));
  CHECK_THAT(standings_markdown(odd), Contains("No two bots met."));
  CHECK_THAT(standings_markdown(odd), Contains("No faults."));

  const std::string table = standings_table(st);
  CHECK_THAT(table, Contains("6 matches; points: win 1, draw 0.5, loss 0"));
  CHECK_THAT(table, Contains("gamma: 1 timeout"));
  // The bot table (header, rule, 4 rows) is aligned: its last column is right-aligned, so all
  // six lines have the same width, and every column starts at the same place.
  std::vector<std::string> lines;
  std::size_t from = table.find("\n\n") + 2;
  for (int k = 0; k < 6; ++k) {
    const std::size_t nl = table.find('\n', from);
    lines.push_back(table.substr(from, nl - from));
    from = nl + 1;
  }
  CHECK(lines[0].rfind("#  bot", 0) == 0);
  for (const std::string& line : lines) {
    CHECK(line.size() == lines[0].size());
    CHECK(line.find("  ") == lines[0].find("  "));
  }
  CHECK_THAT(lines[2], Contains("alpha"));
  CHECK_THAT(lines[2], Contains("+147 [not enough games]"));
  CHECK_THAT(lines[2], Contains("3.50"));
}

TEST_CASE("Standings: intervals from kEloMinSamples games on, exact bounds for constant results") {
  // hare beats tortoise 6 times, draws 2, loses 2: 10 games, the trinomial of elo_from_wdl.
  std::vector<MatchRecord> r;
  for (std::uint64_t i = 0; i < 10; ++i) {
    const int hare = i < 6 ? 1 : i < 8 ? 1 : 2;
    const int tortoise = i < 6 ? 2 : i < 8 ? 1 : 1;
    r.push_back(match(i, i, 0, {seat("hare", 1, hare), seat("tortoise", 1, tortoise)}));
  }
  const Standings st = compute_standings(r, {"hare", "tortoise"});
  const EloEstimate expected = elo_from_wdl(6, 2, 2);
  REQUIRE(expected.interval == IntervalKind::normal);
  CHECK(st.bots[0].elo.low == expected.low);
  CHECK(st.bots[0].elo.high == expected.high);
  CHECK(st.pairs[0].elo.los == expected.los);
  CHECK_THAT(standings_table(st), Contains(format_elo(expected)));
  // 10 wins in 10: +1000 with the exact bound [+140, +1000], never "[+1000, +1000]".
  std::vector<MatchRecord> sweep;
  for (std::uint64_t i = 0; i < 10; ++i) sweep.push_back(match(i, i, 0, {seat("hare", 1, 1), seat("tortoise", 0, 2)}));
  const Standings swept = compute_standings(sweep, {"hare", "tortoise"});
  CHECK(format_elo(swept.bots[0].elo) == "+1000 [+140, +1000] exact");
  CHECK(format_elo(swept.bots[1].elo) == "-1000 [-1000, -140] exact");
  const nlohmann::json j = standings_json(swept);
  CHECK(j.at("bots").at(0).at("elo").at("interval") == "exact");
  CHECK(j.at("bots").at(0).at("elo").at("low").get<double>() == Approx(140.22).margin(0.01));
  CHECK(j.at("bots").at(0).at("elo").at("nelo").is_null());
  // 4 games: the complaint's case.
  sweep.resize(4);
  CHECK(format_elo(compute_standings(sweep, {"hare", "tortoise"}).bots[0].elo) == "+1000 [not enough games]");
}

TEST_CASE("Standings of 3 and 4 seats: the rating column, no pentanomial, points to 2 decimals") {
  // Four bots, 4 seats, 12 matches in which the finishing order rotates but a is ahead of b ahead
  // of c ahead of d twice as often as not; one 3-way tie.
  std::vector<MatchRecord> r;
  const std::vector<std::vector<int>> ranks = {{1, 2, 3, 4}, {1, 2, 3, 4}, {2, 1, 4, 3}, {1, 3, 2, 4},
                                               {1, 2, 3, 4}, {4, 1, 2, 3}, {1, 2, 4, 3}, {2, 2, 2, 1},
                                               {1, 2, 3, 4}, {3, 4, 1, 2}, {1, 2, 3, 4}, {1, 3, 2, 4}};
  for (std::uint64_t i = 0; i < ranks.size(); ++i) {
    r.push_back(match(
        i, i, 0,
        {seat("a", 0, ranks[i][0]), seat("b", 0, ranks[i][1]), seat("c", 0, ranks[i][2]), seat("d", 0, ranks[i][3])}));
  }
  const Standings st = compute_standings(r, {"a", "b", "c", "d"});
  REQUIRE(st.seats_per_match == 4);
  CHECK(st.bots[0].name == "a");
  // The rating agrees with PlackettLuce fed the same orders, and has a 95% interval (12 games).
  PlackettLuce pl;
  for (const auto& rk : ranks) pl.add({0, 1, 2, 3}, rk);
  const std::vector<EloEstimate> fitted = pl.fit(4);
  CHECK(st.bots[0].rating.elo == fitted[0].elo);
  CHECK(st.bots[0].rating.interval == IntervalKind::normal);
  CHECK(st.bots[0].rating.elo > 0);
  const std::string table = standings_table(st);
  CHECK_THAT(table, Contains("rating [95% CI]"));
  CHECK_THAT(table, Contains(format_elo(st.bots[0].rating)));
  CHECK(table.find("LL / LD") == std::string::npos);
  const std::string md = standings_markdown(st);
  CHECK_THAT(md, Contains("Rating [95% CI]"));
  CHECK(md.find("LL / LD") == std::string::npos);
  CHECK(md.find("0 / 0 / 0 / 0 / 0") == std::string::npos);
  // Rank points in thirds print with two decimals: d has 1/3 + 0 + 1/3 + 0 + 0 + 2/3 + 1/3 + 1 + 0
  //   + 1/3 + 0 + 0 = 3.
  for (const BotStanding& b : st.bots) {
    CHECK_THAT(table, Contains(format_points(b.points)));
  }
  CHECK(format_points(1.0 + 5.0 / 6.0) == "1.83");
  CHECK(standings_json(st).at("bots").at(0).at("rating").at("interval") == "normal");
}

TEST_CASE("Standings: a partial league and uncounted matches say so in every format") {
  Standings st = compute_standings(two_seat_league(), kBots);
  st.completion = Completion{true, PartialReason::interrupted, 37, 120};
  st.not_counted = 3;
  const std::string line = "PARTIAL: 37 of 120 matches (interrupted); finish with --resume";
  CHECK(completion_text(st) == line);
  CHECK(not_counted_text(st) == "3 matches journaled after the SPRT decided are not counted");
  CHECK_THAT(standings_markdown(st), Contains(fmt::format("**{}**", line)));
  CHECK_THAT(standings_table(st), Catch::StartsWith(line));
  CHECK_THAT(standings_table(st), Contains("3 matches journaled after the SPRT decided are not counted"));
  const nlohmann::json j = standings_json(st);
  CHECK(j.at("completion").at("partial") == true);
  CHECK(j.at("completion").at("journaled") == 37);
  CHECK(j.at("completion").at("total") == 120);
  CHECK(j.at("completion").at("message") == line);
  CHECK(j.at("not_counted") == 3);
  // JUnit: the "league complete" testcase fails with the line, so CI shows it.
  const Element league_case = only_case(st, "league", "league complete");
  const auto failure = league_case.all("failure");
  REQUIRE(failure.size() == 1);
  CHECK(failure[0]->attrs.at("message") == line);
  CHECK_THAT(failure[0]->text, Contains("not counted"));
  // Another reason has no resume hint.
  st.completion.reason = PartialReason::shard;
  st.completion.shard = 2;
  st.completion.shards = 4;
  CHECK(completion_text(st) ==
        "PARTIAL: 37 of 120 matches (shard 2/4); combine the shards with `referee league merge`");
  CHECK(standings_json(st).at("completion").at("reason") == "shard 2/4");
  st.completion.reason = PartialReason::merged_shards;
  st.completion.shard = 1;
  CHECK(completion_text(st) == "PARTIAL: 37 of 120 matches (merged without 1 of 4 shards)");
}

TEST_CASE("The SPRT's verdict is in the terminal table, standings.md and a JUnit test case that fails on H0") {
  Standings st = compute_standings(two_seat_league(), kBots);
  CHECK(sprt_text(st, terminal_safe).empty());
  SprtVerdict v;
  v.bot = "new_*bot*";
  v.config = SprtConfig{-10, 0, 0.05, 0.05};
  v.state.llr = -3.21;
  v.state.lower = -2.944;
  v.state.upper = 2.944;
  v.state.samples = 24;
  v.state.decision = SprtState::Decision::accept_h0;
  v.pairs = true;
  v.counted_matches = 48;
  st.sprt = v;
  const std::string h0 =
      "SPRT of new_*bot* [elo0 -10, elo1 0, alpha 0.05, beta 0.05]: H0 accepted, elo0 rather than elo1 (llr -3.21 <= "
      "-2.94 after 24 pairs)";
  CHECK(sprt_text(st, terminal_safe) == h0);
  CHECK_THAT(standings_table(st), Catch::StartsWith(h0 + "\n"));
  CHECK_THAT(standings_markdown(st), Contains("**SPRT of new\\_\\*bot\\* [elo0 -10"));
  const auto sprt_case = [](const Standings& s) { return only_case(s, "sprt", "new_*bot* not rejected by the SPRT"); };
  Element c = sprt_case(st);
  REQUIRE(c.all("failure").size() == 1);
  CHECK(c.all("failure")[0]->attrs.at("type") == "sprt-h0");
  CHECK(c.all("failure")[0]->attrs.at("message") == h0);
  // Undecided: skipped, with the reason; H1: passes.
  st.sprt->state.decision = SprtState::Decision::none;
  st.sprt->state.llr = 0.5;
  CHECK(sprt_text(st, terminal_safe) ==
        "SPRT of new_*bot* [elo0 -10, elo1 0, alpha 0.05, beta 0.05]: undecided (llr 0.50 in (-2.94, 2.94) after 24 "
        "pairs)");
  c = sprt_case(st);
  CHECK(c.all("failure").empty());
  REQUIRE(c.all("skipped").size() == 1);
  CHECK_THAT(c.all("skipped")[0]->attrs.at("message"), Contains("undecided"));
  st.sprt->state.decision = SprtState::Decision::accept_h1;
  st.sprt->state.llr = 3.0;
  st.sprt->pairs = false;
  CHECK_THAT(sprt_text(st, terminal_safe),
             Contains(": H1 accepted, elo1 rather than elo0 (llr 3.00 >= 2.94 after 24 games)"));
  c = sprt_case(st);
  CHECK(c.all("failure").empty());
  CHECK(c.all("skipped").empty());
}

TEST_CASE("JUnit XML: the well-formedness checker rejects broken XML") {
  CHECK_NOTHROW(parse_xml("<?xml version=\"1.0\"?>\n<a x='1' y=\"&amp;&#10;\"><b/>t &lt; u</a>\n"));
  CHECK_THROWS(parse_xml("<a><b></a></b>"));           // tags not nested
  CHECK_THROWS(parse_xml("<a><b></b>"));               // unclosed
  CHECK_THROWS(parse_xml("<a x=1></a>"));              // unquoted attribute
  CHECK_THROWS(parse_xml("<a x=\"1\"x=\"2\"></a>"));   // no space between attributes
  CHECK_THROWS(parse_xml("<a x=\"1\" x=\"2\"></a>"));  // duplicate attribute
  CHECK_THROWS(parse_xml("<a>fish & chips</a>"));      // raw &
  CHECK_THROWS(parse_xml("<a>&nbsp;</a>"));            // not an XML entity
  CHECK_THROWS(parse_xml("<a x=\"<\"></a>"));          // < in an attribute
  CHECK_THROWS(parse_xml("<a></a><b></b>"));           // two roots
}

TEST_CASE("JUnit XML: a suite per bot, a failing testcase per faulty match") {
  const Standings st = compute_standings(two_seat_league(), kBots);
  const std::string xml = junit_xml(st, "league & co");
  Element root;
  REQUIRE_NOTHROW(root = parse_xml(xml));
  const auto suites = check_junit(root, st);
  CHECK(root.attrs.at("name") == "league & co");
  CHECK(root.attrs.at("tests") == "5");  // league complete + 4 bots, one testcase each
  CHECK(root.attrs.at("failures") == "1");
  // A complete league: "league complete" passes.
  CHECK(suites.at("league")->all("testcase")[0]->all("failure").empty());
  // A clean bot: one passing testcase, its summary in system-out, its decision time as the time.
  const Element& alpha = *suites.at("alpha");
  CHECK(std::stod(alpha.attrs.at("time")) == Approx(0.0285).margin(0.001));  // 28.5 ms
  REQUIRE(alpha.all("testcase").size() == 1);
  CHECK(alpha.all("testcase")[0]->attrs.at("name") == "no faults");
  CHECK(alpha.all("testcase")[0]->all("failure").empty());
  CHECK_THAT(alpha.all("system-out")[0]->text, Contains("W/D/L 3/1/1"));
  // gamma's timeout: the match, the message, the request, the replay and the re-run command.
  const auto cases = suites.at("gamma")->all("testcase");
  REQUIRE(cases.size() == 1);
  CHECK(cases[0]->attrs.at("name") == "m000004 timeout");
  CHECK(cases[0]->attrs.at("classname") == "league & co.gamma");
  const auto failure = cases[0]->all("failure");
  REQUIRE(failure.size() == 1);
  CHECK(failure[0]->attrs.at("type") == "timeout");
  CHECK(failure[0]->attrs.at("message") == "gamma timeout in match m000004: no reply within 1000 ms");
  CHECK(failure[0]->text ==
        "bot: gamma\nmatch: m000004 (seat 1)\nfault: timeout\nmessage: no reply within 1000 ms\n"
        "request (id 7): {\"type\":\"act\",\"id\":7}\nreplay: replays/m000004.jsonl\n"
        "re-run: referee play --seed 1002 --bot ./alpha --bot ./gamma\n");
}

TEST_CASE("JUnit XML: the fault testcases of a bot are bounded") {
  // 130 crashes of one bot: the first kFaultEntriesPerBot (100) listed, then one "30 more faults".
  std::vector<MatchRecord> r;
  for (std::uint64_t i = 0; i < 130; ++i) {
    MatchRecord m = match(i, i, 0, {seat("crashy", 0, 2), seat("steady", 1, 1)});
    m.end = replay::End::fault;
    m.fault = FaultRecord{0, replay::FaultKind::crash, 1, fmt::format("exit {}", i)};
    m.replay = fmt::format("replays/m{:06}.jsonl", i);
    r.push_back(std::move(m));
  }
  const Standings st = compute_standings(r, {"crashy", "steady"});
  REQUIRE(st.bots[1].name == "crashy");
  CHECK(st.bots[1].fault_count() == 130);
  CHECK(st.bots[1].fault_entries.size() == kFaultEntriesPerBot);
  CHECK(st.bots[1].fault_entries.back().index == 99);
  Element root;
  REQUIRE_NOTHROW(root = parse_xml(junit_xml(st, "bounded")));
  const auto suites = check_junit(root, st);
  const auto cases = suites.at("crashy")->all("testcase");
  REQUIRE(cases.size() == kFaultEntriesPerBot + 1);
  CHECK(cases[0]->attrs.at("name") == "m000000 crash");
  CHECK(cases[99]->attrs.at("name") == "m000099 crash");
  CHECK(cases[100]->attrs.at("name") == "30 more faults");
  CHECK_THAT(cases[100]->all("failure")[0]->attrs.at("message"), Contains("130 faults (130 crash)"));
  CHECK(suites.at("crashy")->attrs.at("failures") == "101");
}

TEST_CASE("JUnit XML: names with markup characters are escaped") {
  // Every character XML treats specially, plus a tab and a control character.
  const std::string nasty = "a&b <\"q'>\tz\x01";
  MatchRecord r = match(0, 0, 0, {seat(nasty, 0, 2), seat("plain", 1, 1)});
  r.end = replay::End::fault;
  r.fault = FaultRecord{0, replay::FaultKind::crash, 3, "exit 1"};
  MatchRecord again = r;
  again.index = 1;
  again.fault->kind = replay::FaultKind::malformed;
  const Standings st = compute_standings({r, again}, {nasty, "plain"});
  const std::string xml = junit_xml(st, "suite \"q\" <x>");
  Element root;
  REQUIRE_NOTHROW(root = parse_xml(xml));
  const auto suites = check_junit(root, st);
  CHECK(root.attrs.at("failures") == "2");  // two faulty matches
  // Decoded back, the name is the original but for the forbidden control character.
  REQUIRE(suites.count("a&b <\"q'>\tz?") == 1);
  const auto cases = suites.at("a&b <\"q'>\tz?")->all("testcase");
  REQUIRE(cases.size() == 2);
  CHECK(cases[0]->attrs.at("name") == "m000000 crash");
  CHECK(cases[1]->attrs.at("name") == "m000001 malformed");
  const auto failure = cases[1]->all("failure");
  REQUIRE(failure.size() == 1);
  CHECK_THAT(failure[0]->attrs.at("message"), Contains("malformed in match m000001: exit 1"));
  CHECK_THAT(failure[0]->text, Contains("bot: a&b <\"q'>\tz?\n"));
  // Empty standings are still a valid report.
  const Standings none = compute_standings({}, {});
  Element empty_root;
  REQUIRE_NOTHROW(empty_root = parse_xml(junit_xml(none, "empty")));
  check_junit(empty_root, none);
  CHECK(empty_root.attrs.at("tests") == "1");
}

TEST_CASE("Journal record: the fault's request and reply excerpts are optional keys") {
  MatchRecord r = match(3, 1, 1, {seat("a", 0, 2), seat("b", 1, 1)});
  r.end = replay::End::fault;
  r.fault = FaultRecord{0, replay::FaultKind::illegal, 12, "not a legal action"};
  r.fault->request = "{\"type\":\"act\",\"id\":12,\"legal\":[\"take 1\"]}";
  r.fault->reply = "{\"action\":\"take 9\"}";
  const json j = to_json(r);
  CHECK(j.at("fault").at("request") == r.fault->request);
  CHECK(j.at("fault").at("reply") == r.fault->reply);
  auto back = record_from_json(j);
  REQUIRE(back.ok());
  REQUIRE(back->fault.has_value());
  CHECK(back->fault->request == r.fault->request);
  CHECK(back->fault->reply == r.fault->reply);
  // A line of an earlier version, written before the excerpts existed, still reads, with "".
  const json old = json::parse(
      R"({"journal":1,"index":3,"deal":1,"leg":1,"seed":1001,"end":"fault",)"
      R"("seats":[{"bot":"a","score":0,"rank":2,"decision_ms":[1.5]},{"bot":"b","score":1,"rank":1,"decision_ms":[]}],)"
      R"("fault":{"seat":0,"kind":"timeout","request_id":4,"message":"no reply"},)"
      R"("replay":"replays/m000003.jsonl","rerun":"referee play"})");
  auto earlier = record_from_json(old);
  REQUIRE(earlier.ok());
  REQUIRE(earlier->fault.has_value());
  CHECK(earlier->fault->kind == replay::FaultKind::timeout);
  CHECK(earlier->fault->request.empty());
  CHECK(earlier->fault->reply.empty());
  // Without excerpts, none are written (the journal stays as it was).
  r.fault->request.clear();
  r.fault->reply.clear();
  CHECK_FALSE(to_json(r).at("fault").contains("request"));
  CHECK_FALSE(to_json(r).at("fault").contains("reply"));
  // Standings from the old record: the fault entry has empty excerpts, and JUnit leaves them out.
  const Standings st = compute_standings({*earlier}, {"a", "b"});
  REQUIRE(st.bots[1].fault_entries.size() == 1);
  CHECK(st.bots[1].fault_entries[0].request.empty());
  CHECK(junit_xml(st, "old").find("request (id") == std::string::npos);
}
