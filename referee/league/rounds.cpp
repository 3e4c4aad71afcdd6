// The rounds of a Swiss or knockout league: their layout in the index space, the tables of each
// round replayed from the journal, the report the standings carry (rounds.hpp). The pairing rules
// are swiss.cpp's and knockout.cpp's.
#include "referee/league/rounds.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>

#include "referee/league/journal.hpp"
#include "referee/league/seeds.hpp"

namespace arena::league {

int default_swiss_rounds(std::size_t bots) {
  int log2 = 0;
  while ((std::size_t{1} << log2) < bots) ++log2;
  return log2 + 1;
}

double swiss_bye_points(int seats) {
  return seats == 2 ? 1.0 : 0.5;
}

Status check_rounds_on_shard(const LeagueSpec& spec, const std::optional<Shard>& shard) {
  if (plays_in_rounds(spec.format) && shard && shard->count > 1) {
    return fail(fmt::format(
        "--shard cannot split a {} league: each round is paired from the results of the round before, which no "
        "single shard plays; run it whole",
        format_name(spec.format)));
  }
  return {};
}

Status normalize_rounds(LeagueSpec& s) {
  if (s.rounds && s.format != Format::swiss) {
    return fail(fmt::format("\"rounds\" (--rounds) is for a swiss league, not a {} one", format_name(s.format)));
  }
  if (s.seeding && s.format != Format::knockout) {
    return fail(fmt::format("\"seeding\" is for a knockout league, not a {} one", format_name(s.format)));
  }
  if (!s.ratings.empty() && s.ratings.size() != s.bots.size()) s.ratings.clear();  // bots given by flags
  if (!plays_in_rounds(s.format)) return {};
  if (s.sprt) {
    return fail(fmt::format("--sprt is for round-robin and gauntlet leagues of two bots, not a {} league",
                            format_name(s.format)));
  }
  if (s.format == Format::swiss) {
    if (!s.rounds) s.rounds = default_swiss_rounds(s.bots.size());
    if (!kRounds.contains(*s.rounds)) {
      return fail(bounds::out_of_range("rounds", std::to_string(*s.rounds), kRounds));
    }
    return {};
  }
  if (s.seats != 2) {
    return fail(fmt::format("a knockout is played by 2 seats, not {}: use swiss for tables of more seats", s.seats));
  }
  if (!s.seeding) s.seeding = Seeding::order;
  if (*s.seeding == Seeding::rating) {
    for (std::size_t i = 0; i < s.bots.size(); ++i) {
      if (i >= s.ratings.size() || !s.ratings[i]) {
        return fail(
            fmt::format("\"seeding\": \"rating\" needs a \"rating\" for every bot of the league file; {} has "
                        "none",
                        s.bots[i].name));
      }
    }
  }
  return {};
}

// ---- the layout ----------------------------------------------------------------------------

RoundLayout::RoundLayout(const LeagueSpec& spec) {
  const auto n = static_cast<std::uint64_t>(spec.bots.size());
  const auto k = static_cast<std::uint64_t>(std::max(spec.seats, 1));  // normalized: at least the game's minimum
  legs_ = spec.duplicate.value_or(false) ? spec.seats : 1;
  per_table_ = spec.deals * static_cast<std::uint64_t>(legs_);
  std::vector<std::uint64_t> tables;
  if (spec.format == Format::knockout) {
    const std::uint64_t size = std::bit_ceil(n);
    // Round 0: the bots without a bye (n - size/2 pairs); then a full bracket halving each round.
    for (std::uint64_t t = n - size / 2; size > 1 && tables.size() < static_cast<std::size_t>(std::countr_zero(size));
         t = size >> (tables.size() + 1)) {
      tables.push_back(t);
    }
  } else {
    tables.assign(static_cast<std::size_t>(spec.rounds.value_or(1)), n / k);
  }
  begin_ = {0};
  for (const std::uint64_t t : tables) begin_.push_back(begin_.back() + t * per_table_);
}

std::uint64_t RoundLayout::tables(int round) const {
  const auto r = static_cast<std::size_t>(round);
  return (begin_[r + 1] - begin_[r]) / per_table_;
}

int RoundLayout::round_of(std::uint64_t index) const {
  const auto it = std::upper_bound(begin_.begin(), begin_.end(), index);
  return static_cast<int>(it - begin_.begin()) - 1;
}

Scheduled round_match(const LeagueSpec& spec, const RoundLayout& layout, std::uint64_t index,
                      const std::vector<TableTally>& tables) {
  const int round = layout.round_of(index);
  const std::uint64_t offset = index - layout.round_begin(round);
  const auto legs = static_cast<std::uint64_t>(layout.legs());
  const std::vector<int>& table = tables[static_cast<std::size_t>(offset / layout.per_table())].bots;
  const std::uint64_t within = offset % layout.per_table();
  Scheduled m;
  m.index = index;
  m.leg = static_cast<int>(within % legs);
  m.deal = index / legs;
  deal_of(spec, within / legs, m);  // a deal book: every table plays the book's deals in order
  const auto k = table.size();
  // Duplicate deals rotate seats by leg; single deals by the round and their number within the
  // table, so the best-ranked bot of a table does not always sit first.
  const std::uint64_t rotation =
      legs > 1 ? static_cast<std::uint64_t>(m.leg) : (static_cast<std::uint64_t>(round) + within / legs) % k;
  for (std::size_t s = 0; s < k; ++s) m.seat_bots.push_back(table[(s + rotation) % k]);
  return m;
}

// ---- the rounds from the journal -----------------------------------------------------------

RoundsPlay::RoundsPlay(const LeagueSpec& spec) : spec_(spec), layout_(spec_) {
  for (std::size_t i = 0; i < spec_.bots.size(); ++i) bot_of_[spec_.bots[i].name] = static_cast<int>(i);
}

void RoundsPlay::add(const MatchRecord& record) {
  if (record.index >= layout_.total()) return;  // not this league's: the standings say so
  const int round = layout_.round_of(record.index);
  const std::uint64_t table = (record.index - layout_.round_begin(round)) / layout_.per_table();
  Acc& acc = acc_[{round, table}];
  ++acc.played;
  for (std::size_t s = 0; s < record.seats.size(); ++s) {
    const auto it = bot_of_.find(record.seats[s].bot);
    if (it == bot_of_.end()) {
      if (error_.empty()) {
        error_ = fmt::format("match {} of the journal seats \"{}\", not a bot of this league", record.index,
                             record.seats[s].bot);
      }
      continue;
    }
    acc.points[it->second] += rank_points(record, static_cast<int>(s));
    acc.scores[it->second] += record.seats[s].score;
  }
}

Status RoundsPlay::tally(int round, PlayedRound& played) const {
  played.complete = true;
  for (std::size_t t = 0; t < played.tables.size(); ++t) {
    TableTally& table = played.tables[t];
    table.points.assign(table.bots.size(), 0.0);
    table.scores.assign(table.bots.size(), 0.0);
    if (const auto it = acc_.find({round, t}); it != acc_.end()) {
      table.played = it->second.played;
      for (const auto& [bot, points] : it->second.points) {
        const auto at = std::find(table.bots.begin(), table.bots.end(), bot);
        if (at == table.bots.end()) {
          return fail(fmt::format(
              "the journal has {} at table {} of round {}, which that round pairs otherwise: a journal of another "
              "league",
              spec_.bots[static_cast<std::size_t>(bot)].name, t + 1, round + 1));
        }
        const auto pos = static_cast<std::size_t>(at - table.bots.begin());
        table.points[pos] = points;
        table.scores[pos] = it->second.scores.at(bot);
      }
    }
    if (table.played < layout_.per_table()) played.complete = false;
  }
  return {};
}

Result<std::vector<PlayedRound>> RoundsPlay::rounds() const {
  if (!error_.empty()) return fail(error_);
  std::vector<PlayedRound> out;
  for (int r = 0; r < layout_.rounds(); ++r) {
    // A round's tables depend only on the complete rounds before it, which no later record
    // changes: each is paired once (a league of many rounds pairs each round once, not once per
    // round after it).
    auto known = paired_.find(r);
    if (known == paired_.end()) {
      known = paired_.emplace(r, spec_.format == Format::knockout ? knockout_round(r, out) : swiss_round(out)).first;
    }
    PlayedRound played = known->second;
    if (auto st = tally(r, played); !st) return fail(st.error());
    out.push_back(std::move(played));
    if (!out.back().complete) break;
  }
  return out;
}

PlayedRound RoundsPlay::swiss_round(const std::vector<PlayedRound>& before) const {
  const std::size_t n = spec_.bots.size();
  std::vector<std::vector<int>> met(n, std::vector<int>(n, 0));
  std::vector<int> byes(n, 0);
  for (const PlayedRound& p : before) {
    for (const int b : p.byes) ++byes[static_cast<std::size_t>(b)];
    for (const TableTally& t : p.tables) {
      for (const int a : t.bots) {
        for (const int b : t.bots) {
          if (a != b) ++met[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
        }
      }
    }
  }
  std::vector<int> order;
  for (const SwissStanding& s : swiss_order(static_cast<int>(n), spec_.seed.value(), swiss_bye_points(spec_.seats),
                                            layout_.per_table(), before)) {
    order.push_back(s.bot);
  }
  SwissPairing pairing = swiss_pair(order, spec_.seats, met, byes);
  PlayedRound played;
  for (std::vector<int>& t : pairing.tables) played.tables.push_back({std::move(t), {}, {}, 0});
  played.byes = std::move(pairing.byes);
  return played;
}

PlayedRound RoundsPlay::knockout_round(int round, const std::vector<PlayedRound>& before) const {
  const std::vector<int> seeds = knockout_seeds(spec_);  // bot by seed
  std::vector<int> seed_of(seeds.size());
  for (std::size_t s = 0; s < seeds.size(); ++s) seed_of[static_cast<std::size_t>(seeds[s])] = static_cast<int>(s) + 1;
  const int size = static_cast<int>(std::bit_ceil(seeds.size()));
  std::vector<int> entrants;  // bot per bracket position, -1: nobody (a bye's missing opponent)
  for (const int seed : bracket_order(size)) {
    entrants.push_back(seed <= static_cast<int>(seeds.size()) ? seeds[static_cast<std::size_t>(seed - 1)] : -1);
  }
  for (int r = 0;; ++r) {
    PlayedRound played;
    std::vector<int> next;
    for (std::size_t p = 0; p + 1 < entrants.size(); p += 2) {
      const int a = entrants[p];
      const int b = entrants[p + 1];
      if (a < 0 || b < 0) {
        played.byes.push_back(a < 0 ? b : a);
        next.push_back(a < 0 ? b : a);
        continue;
      }
      const bool a_first = seed_of[static_cast<std::size_t>(a)] < seed_of[static_cast<std::size_t>(b)];
      played.tables.push_back({a_first ? std::vector<int>{a, b} : std::vector<int>{b, a}, {}, {}, 0});
      if (r < round) {  // complete: its winner goes through
        const TableTally& t = before[static_cast<std::size_t>(r)].tables[played.tables.size() - 1];
        next.push_back(t.bots[static_cast<std::size_t>(knockout_winner(t, seed_of).first)]);
      }
    }
    if (r == round) return played;
    entrants = std::move(next);
  }
}

Result<RoundsReport> RoundsPlay::report() const {
  auto rounds = this->rounds();
  if (!rounds) return fail(rounds.error());
  const auto name = [&](int bot) { return spec_.bots[static_cast<std::size_t>(bot)].name; };
  RoundsReport report;
  report.knockout = spec_.format == Format::knockout;
  report.rounds = layout_.rounds();
  std::vector<int> seed_of(spec_.bots.size());
  const std::vector<int> seeds = knockout_seeds(spec_);
  for (std::size_t s = 0; s < seeds.size(); ++s) seed_of[static_cast<std::size_t>(seeds[s])] = static_cast<int>(s) + 1;
  // Knockout: the round each bot went out in (rounds(): still in; rounds() + 1: the winner).
  std::vector<int> level(spec_.bots.size(), layout_.rounds());
  std::vector<PlayedRound> complete;
  for (std::size_t r = 0; r < rounds->size(); ++r) {
    const PlayedRound& p = (*rounds)[r];
    RoundView view;
    view.number = static_cast<int>(r) + 1;
    view.complete = p.complete;
    for (const int b : p.byes) view.byes.push_back(name(b));
    for (std::size_t t = 0; t < p.tables.size(); ++t) {
      const TableTally& tally = p.tables[t];
      TableView table;
      for (const int b : tally.bots) {
        table.bots.push_back(name(b));
        if (report.knockout) table.seeds.push_back(seed_of[static_cast<std::size_t>(b)]);
      }
      table.points = tally.points;
      table.scores = tally.scores;
      table.first_index = layout_.round_begin(static_cast<int>(r)) + t * layout_.per_table();
      table.matches = layout_.per_table();
      table.played = tally.played;
      if (report.knockout && tally.played == layout_.per_table()) {
        const auto [winner, why] = knockout_winner(tally, seed_of);
        table.winner = winner;
        table.decided_by = why;
        level[static_cast<std::size_t>(tally.bots[static_cast<std::size_t>(1 - winner)])] = static_cast<int>(r);
        if (static_cast<int>(r) + 1 == layout_.rounds()) {
          report.winner = name(tally.bots[static_cast<std::size_t>(winner)]);
          level[static_cast<std::size_t>(tally.bots[static_cast<std::size_t>(winner)])] = layout_.rounds() + 1;
        }
      }
      view.tables.push_back(std::move(table));
    }
    report.played.push_back(std::move(view));
    if (p.complete) complete.push_back(p);
  }
  if (report.knockout) {
    std::vector<int> bots = seeds;  // by seed, then stably by level
    std::stable_sort(bots.begin(), bots.end(), [&](int a, int b) {
      return level[static_cast<std::size_t>(a)] > level[static_cast<std::size_t>(b)];
    });
    for (const int b : bots) report.order.push_back(name(b));
    return report;
  }
  report.bye_points = swiss_bye_points(spec_.seats);
  for (const SwissStanding& s : swiss_order(static_cast<int>(spec_.bots.size()), spec_.seed.value(), report.bye_points,
                                            layout_.per_table(), complete)) {
    report.swiss.push_back({name(s.bot), s.score, s.buchholz, s.sonneborn_berger, s.byes});
    report.order.push_back(name(s.bot));
  }
  return report;
}

Result<RoundsReport> rounds_report_from_journal(const LeagueSpec& spec, const std::filesystem::path& journal) {
  RoundsPlay play(spec);
  auto read = stream_journal(journal, [&](const MatchRecord& r) { play.add(r); });
  if (!read) return fail(read.error());
  return play.report();
}

}  // namespace arena::league
