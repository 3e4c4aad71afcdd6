// A league's standings without its records in memory: StandingsAccumulator (one record at a time,
// then a pass or a few more) against compute_standings over the same records in hand, byte for
// byte in every output; 200,000 synthetic matches through it, checked against tallies kept here,
// with its held state bounded (and the multi-seat rating's orders with it); the journal
// streamed in index order (nearly sorted, scrambled, with a far-off block, a repeated index, a
// torn last line, deals out of order); and the index ranges the runner keeps.

#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "referee/league/journal.hpp"
#include "referee/league/standings.hpp"

using namespace arena;
using namespace arena::league;
namespace fs = std::filesystem;

namespace {

// SplitMix64: a fixed stream per match, so a match can be generated again for another pass.
struct Draw {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  std::uint64_t below(std::uint64_t n) { return next() % n; }
  bool one_in(std::uint64_t n) { return below(n) == 0; }
};

enum class Kind {
  duplicate,     // 2 seats, 4 bots, duplicate deals (legs 0 and 1 of deal i/2), faults, draws
  no_duplicate,  // 2 seats, 3 bots, one leg 0 per deal: every leg stays alone
  four_seats,    // 4 of 5 bots per match, ties: rank points in thirds
  irregular,     // mixed seat counts, self-play, a bot not in the list, repeated legs, deals out of order
};

const std::vector<std::string> kNames = {"alpha", "beta", "gamma", "delta", "eps"};

// Decision times: `fine` at nanosecond resolution over 0-50 ms (as a real league measures them,
// so the order statistics need the further passes), else one of 4,096 values.
std::vector<double> decisions(Draw& d, bool fine) {
  std::vector<double> out(d.below(9));
  for (double& ms : out) {
    if (fine) {
      ms = d.one_in(20) ? 1.0 : static_cast<double>(d.below(50'000'000)) / 1e6;
      if (d.one_in(500)) ms = 900.0 + static_cast<double>(d.below(1000));
    } else {
      ms = static_cast<double>(d.below(4096) + 1) * 0.0137;
    }
  }
  return out;
}

// Ranks from points per seat: higher is better, equal points share a rank.
void rank_by(MatchRecord& r, const std::vector<std::uint64_t>& points) {
  for (std::size_t i = 0; i < r.seats.size(); ++i) {
    r.seats[i].rank = 1 + static_cast<int>(std::count_if(points.begin(), points.end(),
                                                         [&](std::uint64_t p) { return p > points[i]; }));
  }
}

MatchRecord synthetic(Kind kind, std::uint64_t index, bool fine_times = true) {
  Draw d{index * 0x100000001B3ULL + static_cast<std::uint64_t>(kind) * 7919};
  MatchRecord r;
  r.index = index;
  r.end = replay::End::finished;
  std::vector<std::string> bots;
  switch (kind) {
    case Kind::duplicate: {
      static const std::vector<std::pair<int, int>> pairs = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
      r.deal = index / 2;
      r.leg = static_cast<int>(index % 2);
      const auto& [a, b] = pairs[r.deal % pairs.size()];
      bots = r.leg == 0
                 ? std::vector<std::string>{kNames[static_cast<std::size_t>(a)], kNames[static_cast<std::size_t>(b)]}
                 : std::vector<std::string>{kNames[static_cast<std::size_t>(b)], kNames[static_cast<std::size_t>(a)]};
      break;
    }
    case Kind::no_duplicate:
      r.deal = index;
      bots = {kNames[index % 3], kNames[(index + 1 + index / 3 % 2) % 3]};
      break;
    case Kind::four_seats: {
      r.deal = index;
      for (std::size_t b = 0; b < 5; ++b) {
        if (b != index % 5) bots.push_back(kNames[b]);
      }
      std::rotate(bots.begin(), bots.begin() + static_cast<std::ptrdiff_t>(index / 5 % 4), bots.end());
      break;
    }
    case Kind::irregular: {
      r.deal = index / 2;
      r.leg = static_cast<int>(index % 2);
      if (index % 7 == 3) r.leg = 0;                     // a deal with two legs 0
      if (index % 131 == 0 && r.deal >= 5) r.deal -= 5;  // an earlier deal again
      bots = {kNames[index % 4], kNames[(index / 2 + 1) % 4]};
      if (index % 89 == 3) bots[1] = bots[0];          // self-play
      if (index % 113 == 9) bots[0] = "zed";           // not in the league's list
      if (index % 97 == 5) bots.push_back(kNames[4]);  // 3 seats
      if (index % 101 == 7) bots.resize(1);            // not a match: ignored
      break;
    }
  }
  r.seed = 1000 + r.deal;
  for (const std::string& bot : bots) {
    SeatRecord s;
    s.bot = bot;
    s.score = static_cast<double>(d.below(120)) + (d.one_in(4) ? 0.25 : 0.0);
    s.decision_ms = decisions(d, fine_times);
    s.stderr_bytes = d.below(1000);
    r.seats.push_back(std::move(s));
  }
  std::vector<std::uint64_t> points;
  for (std::size_t i = 0; i < r.seats.size(); ++i) points.push_back(d.below(kind == Kind::four_seats ? 3 : 2));
  rank_by(r, points);
  if (r.seats.size() >= 2 && d.one_in(40)) {
    const auto seat = static_cast<int>(d.below(r.seats.size()));
    r.end = replay::End::fault;
    r.fault = FaultRecord{seat, d.one_in(2) ? replay::FaultKind::timeout : replay::FaultKind::illegal,
                          static_cast<std::int64_t>(d.below(50)), "x"};
    std::vector<std::uint64_t> forfeit(r.seats.size(), 1);
    forfeit[static_cast<std::size_t>(seat)] = 0;
    rank_by(r, forfeit);
    r.seats[static_cast<std::size_t>(seat)].score = 0;
  }
  return r;
}

std::vector<MatchRecord> league_of(Kind kind, std::uint64_t n) {
  std::vector<MatchRecord> out;
  for (std::uint64_t i = 0; i < n; ++i) out.push_back(synthetic(kind, i));
  return out;
}

StandingsAccumulator::Pass pass_over(const std::vector<MatchRecord>& records) {
  return [&records](const std::function<void(const MatchRecord&)>& each) {
    for (const MatchRecord& r : records) each(r);
    return Status{};
  };
}

// Every output of the standings, as the league writes and prints them.
struct Outputs {
  std::string json, markdown, junit, table;
  bool operator==(const Outputs&) const = default;
};
Outputs outputs(const Standings& s) {
  return {standings_json(s).dump(2), standings_markdown(s), junit_xml(s, "stellar-arena league"), standings_table(s)};
}

const std::vector<std::string> kLeague = {"alpha", "beta", "gamma", "delta", "eps"};

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::path(ARENA_TEST_OUT) / "journal" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write_journal(const fs::path& path, const std::vector<MatchRecord>& records, const std::string& tail = "") {
  std::ofstream out(path);
  for (const MatchRecord& r : records)
    out << to_json(r).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  out << tail;
}

Outputs from_journal(const fs::path& path) {
  auto streamed = standings_from_journal(path, kLeague);
  INFO((streamed ? std::string() : streamed.error()));
  REQUIRE(streamed.ok());
  return outputs(*streamed);
}

std::vector<MatchRecord> sorted_by_index(std::vector<MatchRecord> records) {
  std::stable_sort(records.begin(), records.end(),
                   [](const MatchRecord& a, const MatchRecord& b) { return a.index < b.index; });
  return records;
}

}  // namespace

TEST_CASE("Standings one record at a time equal compute_standings byte for byte", "[standings][accumulator]") {
  for (Kind kind : {Kind::duplicate, Kind::no_duplicate, Kind::four_seats, Kind::irregular}) {
    INFO("kind " << static_cast<int>(kind));
    const std::vector<MatchRecord> records = league_of(kind, 2000);
    const Outputs batch = outputs(compute_standings(records, kLeague));
    for (bool deals_in_order : {false, true}) {
      StandingsAccumulator acc(kLeague, deals_in_order);
      for (const MatchRecord& r : records) acc.add(r);
      if (kind == Kind::irregular && deals_in_order) {
        CHECK_FALSE(acc.exact());  // an earlier deal came again: the shortcut does not apply
        continue;
      }
      REQUIRE(acc.exact());
      auto streamed = acc.finish(pass_over(records));
      REQUIRE(streamed.ok());
      const Outputs one_by_one = outputs(*streamed);
      CHECK(one_by_one.json == batch.json);
      CHECK(one_by_one.markdown == batch.markdown);
      CHECK(one_by_one.junit == batch.junit);
      CHECK(one_by_one.table == batch.table);
    }
  }
  // Small cases: nothing, a bot that never played, decision times all equal.
  const std::vector<MatchRecord> none;
  StandingsAccumulator empty(kLeague);
  auto nothing = empty.finish(pass_over(none));
  REQUIRE(nothing.ok());
  CHECK(outputs(*nothing) == outputs(compute_standings(none, kLeague)));
  std::vector<MatchRecord> same = league_of(Kind::duplicate, 6);
  for (MatchRecord& r : same) {
    for (SeatRecord& s : r.seats) s.decision_ms.assign(3, 0.25);
  }
  StandingsAccumulator flat(kLeague);
  for (const MatchRecord& r : same) flat.add(r);
  auto equal_times = flat.finish(pass_over(same));
  REQUIRE(equal_times.ok());
  CHECK(outputs(*equal_times) == outputs(compute_standings(same, kLeague)));
}

TEST_CASE("Standings accumulator: the passes must see the same records", "[standings][accumulator]") {
  const std::vector<MatchRecord> records = league_of(Kind::duplicate, 100);
  StandingsAccumulator acc(kLeague);
  for (const MatchRecord& r : records) acc.add(r);
  const std::vector<MatchRecord> fewer(records.begin(), records.begin() + 50);
  auto changed = acc.finish(pass_over(fewer));
  REQUIRE_FALSE(changed.ok());
  CHECK_THAT(changed.error(), Catch::Contains("changed between passes"));
  auto failing =
      acc.finish([](const std::function<void(const MatchRecord&)>&) { return Status(fail(std::string("disk gone"))); });
  REQUIRE_FALSE(failing.ok());
  CHECK(failing.error() == "disk gone");
}

TEST_CASE("200,000 synthetic matches through the accumulator: exact, in bounded memory", "[standings][accumulator]") {
  constexpr std::uint64_t kMatches = 200000;
  const auto generate = [](std::uint64_t i) { return synthetic(Kind::duplicate, i, false); };

  // What the standings must say, tallied here from the same matches.
  struct Expected {
    int games = 0, wins = 0, draws = 0, losses = 0;
    double points = 0;
    std::vector<double> rank_points;
    std::map<double, std::uint64_t> times;  // at most 4,096 distinct values
    double max = 0;
    std::map<std::string, int> faults;
  };
  std::map<std::string, Expected> expected;
  std::map<std::pair<std::string, std::string>, Pentanomial> pairs;
  double first_leg = 0;

  StandingsAccumulator acc(kLeague, true);
  std::size_t held_at_half = 0;
  std::size_t most_held = 0;
  for (std::uint64_t i = 0; i < kMatches; ++i) {
    const MatchRecord r = generate(i);
    acc.add(r);
    most_held = std::max(most_held, acc.held());
    if (i + 1 == kMatches / 2) held_at_half = acc.held();
    for (std::size_t s = 0; s < 2; ++s) {
      Expected& e = expected[r.seats[s].bot];
      const double pts = rank_points(r, static_cast<int>(s));
      ++e.games;
      e.points += pts;
      e.rank_points.push_back(pts);
      (r.seats[s].rank == 1 ? (r.seats[1 - s].rank == 1 ? e.draws : e.wins) : e.losses) += 1;
      for (double ms : r.seats[s].decision_ms) {
        e.times[ms] += 1;
        e.max = std::max(e.max, ms);
      }
    }
    if (r.fault)
      expected[r.seats[static_cast<std::size_t>(r.fault->seat)].bot].faults[std::string(enum_name(r.fault->kind))] += 1;
    // Leg 0 seats the earlier bot of the pair first; its points over both legs make the pair.
    const double a_points = rank_points(r, r.leg == 0 ? 0 : 1);
    if (r.leg == 0) {
      first_leg = a_points;
    } else {
      const auto bucket = static_cast<std::size_t>(std::lround(2 * (first_leg + a_points)));
      pairs[{r.seats[1].bot, r.seats[0].bot}].counts[bucket] += 1;
    }
  }
  // Legs wait for their partner one deal at a time; the histogram cells depend on the spread of
  // the decision times (4,096 values here), not on how many there are: the second 100,000
  // matches add nothing.
  CHECK(most_held < 1000);
  CHECK(acc.held() == held_at_half);

  int passes = 0;
  auto result = acc.finish([&](const std::function<void(const MatchRecord&)>& each) {
    ++passes;
    for (std::uint64_t i = 0; i < kMatches; ++i) each(generate(i));
    return Status{};
  });
  REQUIRE(result.ok());
  CHECK(passes >= 1);
  CHECK(passes <= 5);
  const Standings& st = *result;
  CHECK(st.matches == static_cast<int>(kMatches));
  REQUIRE(st.bots.size() == kLeague.size());
  // The k-th smallest decision time of a bot, from its counts.
  const auto kth = [](const std::map<double, std::uint64_t>& times, std::uint64_t k) {
    for (const auto& [ms, n] : times) {
      if (k < n) return ms;
      k -= n;
    }
    return 0.0;
  };
  const auto percentile_of = [&](const std::map<double, std::uint64_t>& times, std::uint64_t n, double p) {
    const PercentilePlace place = percentile_place(n, p);
    return percentile_value(place, kth(times, place.rank), place.interpolate ? kth(times, place.rank + 1) : 0.0);
  };
  for (const BotStanding& b : st.bots) {
    INFO(b.name);
    if (b.name == "eps") {
      CHECK(b.games == 0);
      continue;
    }
    const Expected& e = expected.at(b.name);
    CHECK(b.games == e.games);
    CHECK(b.wins == e.wins);
    CHECK(b.draws == e.draws);
    CHECK(b.losses == e.losses);
    CHECK(b.points == e.points);
    CHECK(b.faults == e.faults);
    const EloEstimate elo = elo_from_scores(e.rank_points);
    CHECK(b.elo.elo == elo.elo);
    CHECK(b.elo.low == elo.low);
    CHECK(b.elo.high == elo.high);
    std::uint64_t n = 0;
    for (const auto& [ms, count] : e.times) n += count;
    CHECK(b.decision_max_ms == e.max);
    CHECK(b.decision_median_ms == percentile_of(e.times, n, 0.5));
    CHECK(b.decision_p99_ms == percentile_of(e.times, n, 0.99));
  }
  REQUIRE(st.pairs.size() == 6);
  for (const PairStanding& p : st.pairs) {
    INFO(p.a << " vs " << p.b);
    CHECK(p.a_pairs == pairs.at({p.a, p.b}));
    CHECK(p.a_pairs.pairs() == p.games / 2);
  }

  // Without duplicate deals every 2-seat leg stays alone: the order of deals lets them go.
  StandingsAccumulator in_order(kLeague, true);
  StandingsAccumulator any_order(kLeague, false);
  for (std::uint64_t i = 0; i < 20000; ++i) {
    const MatchRecord r = synthetic(Kind::no_duplicate, i, false);
    in_order.add(r);
    any_order.add(r);
  }
  CHECK(in_order.held() < 1000);
  CHECK(any_order.held() >= 20000);
}

TEST_CASE("IndexSet: journaled indices as ranges", "[journal]") {
  IndexSet s;
  CHECK(s.insert(5));
  CHECK(s.insert(7));
  CHECK(s.ranges().size() == 2);
  CHECK(s.insert(6));  // joins both
  CHECK(s.ranges() == std::map<std::uint64_t, std::uint64_t>{{5, 7}});
  CHECK_FALSE(s.insert(6));
  CHECK(s.insert(4));
  CHECK(s.insert(8));
  CHECK(s.insert(0));
  CHECK(s.ranges() == std::map<std::uint64_t, std::uint64_t>{{0, 0}, {4, 8}});
  CHECK(s.size() == 6);
  CHECK(s.contains(0));
  CHECK_FALSE(s.contains(1));
  CHECK(s.contains(8));
  CHECK_FALSE(s.contains(9));
  CHECK(s.insert(UINT64_MAX));  // the top of the range of indices: no overflow
  CHECK(s.insert(UINT64_MAX - 1));
  CHECK(s.contains(UINT64_MAX));
  CHECK(s.contains(UINT64_MAX - 1));
  CHECK_FALSE(s.contains(UINT64_MAX - 2));
  CHECK(s.ranges().rbegin()->first == UINT64_MAX - 1);
  CHECK(s.ranges().rbegin()->second == UINT64_MAX);
  // A league finished out of order by two workers still makes one range.
  IndexSet league;
  for (std::uint64_t i = 0; i < 100000; i += 2) {
    league.insert(i + 1);
    league.insert(i);
  }
  CHECK(league.ranges() == std::map<std::uint64_t, std::uint64_t>{{0, 99999}});
  CHECK(league.size() == 100000);
}

TEST_CASE("The journal streamed in index order gives the standings of the records in hand", "[journal]") {
  const fs::path dir = fresh_dir("by-index");
  std::vector<MatchRecord> records = league_of(Kind::duplicate, 3000);
  // As two workers finish them: neighbours swapped.
  for (std::size_t i = 0; i + 1 < records.size(); i += 3) std::swap(records[i], records[i + 1]);
  // As a resume leaves them: a block of early matches at the end, and one match journaled twice.
  std::rotate(records.begin() + 100, records.begin() + 160, records.end());
  records.push_back(records[500]);
  const fs::path path = dir / "results.jsonl";
  write_journal(path, records, R"({"journal":1,"index":7,"deal")");  // torn by a kill

  CHECK(from_journal(path) == outputs(compute_standings(sorted_by_index(records), kLeague)));

  // The order itself, with the whole buffer and with room for one line (the rest as offsets).
  for (std::size_t buffer : {JournalByIndex::kBufferBytes, std::size_t{2000}}) {
    auto journal = JournalByIndex::open(path, buffer);
    REQUIRE(journal.ok());
    CHECK(journal->records() == records.size());
    std::vector<std::uint64_t> order;
    REQUIRE(journal->pass([&](const MatchRecord& r) { order.push_back(r.index); }).ok());
    std::vector<std::uint64_t> sorted;
    for (const MatchRecord& r : sorted_by_index(records)) sorted.push_back(r.index);
    CHECK(order == sorted);
    CHECK(journal->held_back() >= 60);  // all that was read while the late block was awaited
    if (buffer == 2000) CHECK(journal->held_as_offsets() > 0);
  }

  // A journal in the order a league writes it holds back a few records, not a share of them.
  std::vector<MatchRecord> near = league_of(Kind::duplicate, 3000);
  for (std::size_t i = 0; i + 3 < near.size(); i += 4) std::swap(near[i], near[i + 3]);
  write_journal(path, near);
  auto nearly = JournalByIndex::open(path);
  REQUIRE(nearly.ok());
  REQUIRE(nearly->pass([](const MatchRecord&) {}).ok());
  CHECK(nearly->held_back() <= 3);
  CHECK(from_journal(path) == outputs(compute_standings(league_of(Kind::duplicate, 3000), kLeague)));

  // Deals out of index order (a hand-made journal): still exact, through the slower pairing.
  std::vector<MatchRecord> irregular = league_of(Kind::irregular, 1500);
  std::erase_if(irregular, [](const MatchRecord& r) { return r.seats.size() < 2; });  // not journaled
  write_journal(path, irregular);
  CHECK(from_journal(path) == outputs(compute_standings(irregular, kLeague)));

  // No journal: no matches. A broken line in the middle: an error naming it.
  auto missing = standings_from_journal(dir / "missing.jsonl", kLeague);
  REQUIRE(missing.ok());
  CHECK(missing->matches == 0);
  write_journal(path, league_of(Kind::duplicate, 3), "not json\n{}\n");
  auto broken = standings_from_journal(path, kLeague);
  REQUIRE_FALSE(broken.ok());
  CHECK_THAT(broken.error(), Catch::Contains("line 4: not JSON"));
}

TEST_CASE("stream_journal reports a torn or unterminated end", "[journal]") {
  const fs::path dir = fresh_dir("tail");
  const fs::path path = dir / "results.jsonl";
  const std::vector<MatchRecord> records = league_of(Kind::duplicate, 4);
  write_journal(path, records, R"({"journal":1,"ind)");
  std::uint64_t seen = 0;
  auto read = stream_journal(path, [&](const MatchRecord&) { ++seen; });
  REQUIRE(read.ok());
  CHECK(seen == 4);
  CHECK(read->records == 4);
  CHECK(read->torn);
  CHECK_FALSE(read->unterminated);
  CHECK(read->valid_bytes + std::string(R"({"journal":1,"ind)").size() == fs::file_size(path));

  write_journal(path, records);
  fs::resize_file(path, fs::file_size(path) - 1);  // the newline of the last record lost
  read = stream_journal(path, [](const MatchRecord&) {});
  REQUIRE(read.ok());
  CHECK(read->records == 4);
  CHECK_FALSE(read->torn);
  CHECK(read->unterminated);
  CHECK(read->valid_bytes == fs::file_size(path));

  // The records as a lazily read, sorted list.
  write_journal(path, {records[2], records[0], records[3], records[1]});
  const JournalRecords list(path, 4);
  CHECK(list.size() == 4);
  REQUIRE(list.all().size() == 4);
  for (std::size_t i = 0; i < 4; ++i) CHECK(list[i].index == i);
}
