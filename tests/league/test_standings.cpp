// Standings over hand-built league records, with every number worked out by hand, and the
// writers: JSON (finite, versioned), Markdown, the terminal table and JUnit XML (checked by a
// small well-formedness parser, since the project has no XML library).

#include <catch2/catch.hpp>
#include <cctype>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "referee/league/standings.hpp"

using namespace arena;
using namespace arena::league;
using Catch::Matchers::Contains;

namespace {

Approx elo(double x) {
  return Approx(x).margin(0.01);
}

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
  fault.fault = FaultRecord{1, "timeout", 7, "no reply within 1000 ms"};
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
void check_junit(const Element& root, const Standings& st) {
  REQUIRE(root.name == "testsuites");
  const auto suites = root.all("testsuite");
  REQUIRE(suites.size() == 1);
  const Element& suite = *suites[0];
  const auto cases = suite.all("testcase");
  int failed = 0;
  for (const Element* c : cases) {
    const auto failures = c->all("failure");
    CHECK(failures.size() <= 1);
    if (!failures.empty()) {
      ++failed;
      CHECK(failures[0]->attrs.count("message") == 1);
    }
    CHECK(c->attrs.count("name") == 1);
    CHECK(c->attrs.count("classname") == 1);
  }
  CHECK(cases.size() == st.bots.size());
  for (const Element* e : {&root, &suite}) {
    CHECK(e->attrs.at("tests") == std::to_string(cases.size()));
    CHECK(e->attrs.at("failures") == std::to_string(failed));
  }
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
  // Rank points {1, 0, 0.5, 1, 1}: s = 0.7 -> 147.19; var = (3*0.09 + 0.04 + 0.49)/5 = 0.16,
  // se = sqrt(0.16/5) = 0.17889, s -/+ 1.96 se = [0.34939, 1.0506] -> [-108.00, +bound].
  CHECK(alpha.elo.elo == elo(147.19));
  CHECK(alpha.elo.low == elo(-108.00));
  CHECK(alpha.elo.high == kEloBound);
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
  // {0, 1, 0.5, 0, 1}: s = 0.5, var = 0.2, se = 0.2 -> [0.108, 0.892] -> 0 [-366.76, +366.76].
  CHECK(beta.elo.elo == 0);
  CHECK(beta.elo.low == elo(-366.76));
  CHECK(beta.elo.high == elo(366.76));
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
  CHECK(gamma.elo.high == -kEloBound);
  CHECK(gamma.decision_p99_ms == Approx(2.98));  // 2 2 3: h = 1.98 -> 2 + 0.98
  CHECK(gamma.stderr_bytes == 5000);

  const BotStanding& delta = st.bots[3];
  CHECK(delta.games == 0);
  CHECK(delta.points == 0);
  CHECK(delta.score_per_game == 0);
  CHECK(delta.elo.elo == 0);
  CHECK(delta.elo.low == -kEloBound);
  CHECK(delta.elo.high == kEloBound);
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
  // Pentanomial: samples {0.5, 0.75}: s = 0.625 -> 88.74; var = 0.015625, se = sqrt(var/2)
  // = 0.088388, s -/+ 1.96 se = [0.45176, 0.79824] -> [-33.62, 238.92].
  CHECK(ab.elo.elo == elo(88.74));
  CHECK(ab.elo.low == elo(-33.62));
  CHECK(ab.elo.high == elo(238.92));

  // alpha-gamma played only leg 0 of deal 2; beta-gamma only leg 1 of it: no complete pair,
  // so their Elo is trinomial (1 win: +bound).
  const PairStanding& ag = st.pairs[1];
  CHECK(ag.a == "alpha");
  CHECK(ag.b == "gamma");
  CHECK(ag.games == 1);
  CHECK(ag.a_points == 1);
  CHECK(ag.a_pairs.pairs() == 0);
  CHECK(ag.elo.low == kEloBound);
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
  // {1, 0.75, 0.25}: s = 2/3 -> 120.41; var = ((1/3)^2 + (1/12)^2 + (5/12)^2)/3 = 0.097222,
  // se = 0.18002, s -/+ 1.96 se = [0.31383, 1.0195] -> [-135.89, +bound].
  CHECK(x.elo.elo == elo(120.41));
  CHECK(x.elo.low == elo(-135.89));
  CHECK(x.elo.high == kEloBound);
  CHECK(y.name == "y");
  CHECK(y.points == 1.5);
  CHECK(y.wins == 0);
  CHECK(y.draws == 1);
  CHECK(y.losses == 2);
  // {0.5, 0.75, 0.25}: s = 0.5, var = 1/24, se = 0.11785 -> [-173.65, +173.65].
  CHECK(y.elo.elo == 0);
  CHECK(y.elo.low == elo(-173.65));
  CHECK(y.elo.high == elo(173.65));
  CHECK(z.name == "z");
  CHECK(z.points == 1.0);
  CHECK(z.wins == 1);
  CHECK(z.draws == 0);
  CHECK(z.losses == 2);
  CHECK(z.score_per_game == Approx(20.0 / 3.0));
  // {0, 0, 1}: s = 1/3 -> -120.41, var = 2/9, se = 0.27217 -> [-bound, 325.32].
  CHECK(z.elo.elo == elo(-120.41));
  CHECK(z.elo.low == -kEloBound);
  CHECK(z.elo.high == elo(325.32));

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
  CHECK(j.at("standings_version") == 1);
  CHECK(j.at("matches") == 6);
  CHECK(j.at("points_rule") == "win 1, draw 0.5, loss 0");
  REQUIRE(j.at("bots").size() == 4);
  const nlohmann::json& alpha = j.at("bots").at(0);
  CHECK(alpha.at("place") == 1);
  CHECK(alpha.at("name") == "alpha");
  CHECK(alpha.at("points") == 3.5);
  CHECK(alpha.at("elo").at("high") == kEloBound);
  CHECK(alpha.at("decision_ms").at("p99").get<double>() == Approx(9.6));
  CHECK(j.at("bots").at(2).at("faults") == nlohmann::json{{"timeout", 1}});
  CHECK(j.at("bots").at(2).at("fault_count") == 1);
  const nlohmann::json& ab = j.at("pairs").at(0);
  CHECK(ab.at("pentanomial") == nlohmann::json::array({0, 0, 1, 1, 0}));
  CHECK(ab.at("elo_model") == "pentanomial");
  CHECK(j.at("pairs").at(1).at("elo_model") == "trinomial");
  CHECK(all_finite(j));
  // It round-trips through text (a NaN or inf would dump as null).
  CHECK(nlohmann::json::parse(j.dump()) == j);
}

TEST_CASE("Standings Markdown and terminal table") {
  const Standings st = compute_standings(two_seat_league(), kBots);
  const std::string md = standings_markdown(st);
  CHECK_THAT(md, Contains("6 matches, 2 seats per match. Points: win 1, draw 0.5, loss 0."));
  CHECK_THAT(md, Contains("| 1 | alpha | 5 | 3.5 | 0.700 | 3 | 1 | 1 | 22.4 | +147 [-108, +1000] | 0 | "
                          "2.00 / 9.60 / 10.00 | 120 |"));
  CHECK_THAT(md, Contains("| 4 | delta | 0 | 0 | 0.000 | 0 | 0 | 0 | 0.0 | +0 [-1000, +1000] | 0 |"));
  CHECK_THAT(md, Contains("| alpha | beta | 4 | 2.5 | 2 / 1 / 1 | 0 / 0 / 1 / 1 / 0 | +89 [-34, +239] |"));
  CHECK_THAT(md, Contains("## Faults\n\n- gamma: 1 timeout\n"));
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
  CHECK_THAT(lines[2], Contains("+147 [-108, +1000]"));
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

TEST_CASE("JUnit XML: one testcase per bot, a failure for each bot that faulted") {
  const Standings st = compute_standings(two_seat_league(), kBots);
  const std::string xml = junit_xml(st, "league & co");
  Element root;
  REQUIRE_NOTHROW(root = parse_xml(xml));
  check_junit(root, st);
  const Element& suite = *root.all("testsuite")[0];
  CHECK(suite.attrs.at("name") == "league & co");
  CHECK(suite.attrs.at("tests") == "4");
  CHECK(suite.attrs.at("failures") == "1");
  const auto cases = suite.all("testcase");
  CHECK(cases[0]->attrs.at("name") == "alpha");
  CHECK(std::stod(cases[0]->attrs.at("time")) == Approx(0.0285).margin(0.001));  // 28.5 ms
  CHECK(cases[0]->all("failure").empty());
  const auto failure = cases[2]->all("failure");
  REQUIRE(failure.size() == 1);
  CHECK(cases[2]->attrs.at("name") == "gamma");
  CHECK(failure[0]->attrs.at("message") == "gamma committed 1 fault: 1 timeout");
  CHECK(failure[0]->text == "timeout: 1\n");
}

TEST_CASE("JUnit XML: names with markup characters are escaped") {
  // Every character XML treats specially, plus a tab and a control character.
  const std::string nasty = "a&b <\"q'>\tz\x01";
  MatchRecord r = match(0, 0, 0, {seat(nasty, 0, 2), seat("plain", 1, 1)});
  r.end = replay::End::fault;
  r.fault = FaultRecord{0, "crash", 3, "exit 1"};
  MatchRecord again = r;
  again.index = 1;
  again.fault->kind = "malformed";
  const Standings st = compute_standings({r, again}, {nasty, "plain"});
  const std::string xml = junit_xml(st, "suite \"q\" <x>");
  Element root;
  REQUIRE_NOTHROW(root = parse_xml(xml));
  check_junit(root, st);
  CHECK(root.attrs.at("failures") == "1");
  const Element& suite = *root.all("testsuite")[0];
  const auto cases = suite.all("testcase");
  REQUIRE(cases.size() == 2);
  // Decoded back, the name is the original but for the forbidden control character.
  CHECK(cases[1]->attrs.at("name") == "a&b <\"q'>\tz?");
  const auto failure = cases[1]->all("failure");
  REQUIRE(failure.size() == 1);
  CHECK_THAT(failure[0]->attrs.at("message"), Contains("2 faults: 1 crash, 1 malformed"));
  CHECK(failure[0]->text == "crash: 1\nmalformed: 1\n");
  // Empty standings are still a valid report.
  const Standings none = compute_standings({}, {});
  Element empty_root;
  REQUIRE_NOTHROW(empty_root = parse_xml(junit_xml(none, "empty")));
  check_junit(empty_root, none);
}
