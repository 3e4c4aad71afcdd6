#include "referee/league/standings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace arena::league {

namespace {

// Head-to-head result of seat i against seat j within one match: 1, 0.5 or 0.
double head_to_head(const MatchRecord& r, std::size_t i, std::size_t j) {
  const int ri = r.seats[i].rank;
  const int rj = r.seats[j].rank;
  return ri < rj ? 1.0 : (ri == rj ? 0.5 : 0.0);
}

// One match of a bot: its rank points, and a win (first alone), a draw (first with others) or a
// loss; `firsts` is how many seats of the match ranked first.
void count_seat(BotStanding& bs, const SeatRecord& seat, std::ptrdiff_t firsts, double points) {
  ++bs.games;
  bs.points += points;
  if (seat.rank == 1 && firsts == 1) {
    ++bs.wins;
  } else if (seat.rank == 1) {
    ++bs.draws;
  } else {
    ++bs.losses;
  }
}

// One head-to-head game of a pair: a's points (1, 0.5 or 0) counted as a win, a draw or a loss.
void count_game(PairStanding& p, double a_points) {
  ++p.games;
  p.a_points += a_points;
  if (a_points == 1.0) {
    ++p.a_wins;
  } else if (a_points == 0.0) {
    ++p.b_wins;
  } else {
    ++p.draws;
  }
}

// A fault of match `r`, counted for its offender, whose first kFaultEntriesPerBot faults are kept
// whole (for JUnit).
void note_fault(BotStanding& bs, const MatchRecord& r) {
  const FaultRecord& f = *r.fault;
  ++bs.faults[std::string(enum_name(f.kind))];
  if (bs.fault_entries.size() >= kFaultEntriesPerBot) return;
  bs.fault_entries.push_back(FaultEntry{r.index, f.seat, f.kind, f.request_id, f.message, f.request, f.reply, r.replay,
                                        r.rerun, f.stderr_tail});
}

// The finishing order of match `r` for the multi-seat rating; `seat_bot` are its seats' bots.
void add_order(PlackettLuce& ranking, const MatchRecord& r, const std::vector<std::size_t>& seat_bot) {
  std::vector<int> ranks;
  for (const SeatRecord& seat : r.seats) ranks.push_back(seat.rank);
  ranking.add(seat_bot, ranks);
}

// The multi-seat rating of every bot, `bots` in index order (before sorting).
void set_ratings(std::vector<BotStanding>& bots, const PlackettLuce& ranking) {
  const std::vector<EloEstimate> ratings = ranking.fit(bots.size());
  for (std::size_t b = 0; b < bots.size(); ++b) bots[b].rating = ratings[b];
}

// The order of the standings: bots with games first, by points per game, then by name.
bool by_points(const BotStanding& x, const BotStanding& y) {
  if ((x.games > 0) != (y.games > 0)) return x.games > 0;
  if (x.points_per_game() != y.points_per_game()) return x.points_per_game() > y.points_per_game();
  return x.name < y.name;
}

}  // namespace

int BotStanding::fault_count() const {
  int n = 0;
  for (const auto& [kind, count] : faults) n += count;
  return n;
}

std::string points_rule(int seats) {
  if (seats == 2) return "win 1, draw 0.5, loss 0";
  if (seats < 2) {
    return "rank points: 1 for first, 0 for last, linear in between; tied seats share the "
           "average of the places they cover";
  }
  std::string places;
  for (int place = 1; place <= seats; ++place) {
    const double points = static_cast<double>(seats - place) / static_cast<double>(seats - 1);
    const int tens = place % 100 / 10;
    const int ones = place % 10;
    const char* suffix = tens == 1 ? "th" : ones == 1 ? "st" : ones == 2 ? "nd" : ones == 3 ? "rd" : "th";
    places += fmt::format("{}{}{} {:.3g}", place == 1 ? "" : ", ", place, suffix, points);
  }
  return fmt::format(
      "rank points: {} (1 for first, 0 for last, linear in between); tied seats share the "
      "average of the places they cover",
      places);
}

Standings compute_standings(const std::vector<MatchRecord>& records, const std::vector<std::string>& bot_names) {
  // The accumulator's own steps, fed in index order (so legs pair in index order).
  std::vector<const MatchRecord*> by_index;
  by_index.reserve(records.size());
  for (const MatchRecord& r : records) by_index.push_back(&r);
  std::stable_sort(by_index.begin(), by_index.end(),
                   [](const MatchRecord* x, const MatchRecord* y) { return x->index < y->index; });
  StandingsAccumulator acc(bot_names);
  for (const MatchRecord* r : by_index) acc.add(*r);
  auto standings = acc.finish([&](const std::function<void(const MatchRecord&)>& each) {
    for (const MatchRecord* r : by_index) each(*r);
    return Status{};
  });
  // The same records in the same order each pass: finish() has nothing to refuse.
  if (!standings) throw std::logic_error("compute_standings: " + standings.error());
  return std::move(standings).value();
}

// ---- one record at a time ------------------------------------------------------------------

namespace {

// Decision times as keys whose unsigned order is the order of the numbers (negative ones flipped).
std::uint64_t key_of(double x) {
  const auto bits = std::bit_cast<std::uint64_t>(x);
  return (bits >> 63) != 0 ? ~bits : bits | (std::uint64_t{1} << 63);
}

double value_of(std::uint64_t key) {
  return std::bit_cast<double>((key >> 63) != 0 ? key & ~(std::uint64_t{1} << 63) : ~key);
}

constexpr int kTopBits = 16;              // the histogram add() keeps: sign, exponent and 4 bits of mantissa
constexpr int kDigitBits = 12;            // each further pass of finish()
constexpr std::uint64_t kCollect = 4096;  // a cell this small is read whole in the next pass

// One wanted order statistic of a bot's decision times, narrowed pass by pass: the `count` keys
// whose bits above `shift` equal `prefix` hold it, as their `rank`-th smallest (0-based).
struct Wanted {
  std::size_t bot = 0;
  std::uint64_t overall_rank = 0;
  std::uint64_t rank = 0;
  std::uint64_t prefix = 0;
  int shift = 64;
  std::uint64_t count = 0;
  bool found = false;
  double value = 0;
};

}  // namespace

StandingsAccumulator::StandingsAccumulator(const std::vector<std::string>& bot_names, bool deals_in_order)
    : deals_in_order_(deals_in_order) {
  for (const std::string& name : bot_names) bot_index(name);
}

std::size_t StandingsAccumulator::bot_index(const std::string& name) {
  auto [it, added] = index_of_.try_emplace(name, bots_.size());
  if (added) {
    bots_.emplace_back();
    bots_.back().standing.name = name;
  }
  return it->second;
}

std::size_t StandingsAccumulator::held() const {
  std::size_t n = 0;
  for (const auto& [key, legs] : open_) n += legs.leg0.size() + legs.leg1.size();
  for (const BotTally& t : bots_) n += t.top.size();
  n += ranking_.orders();
  return n;
}

void StandingsAccumulator::add(const MatchRecord& r) {
  const int n = static_cast<int>(r.seats.size());
  if (n < 2) return;
  if (deals_in_order_) {
    if (matches_ > 0 && r.deal < last_deal_) {
      exact_ = false;
    } else if (matches_ == 0 || r.deal > last_deal_) {
      // Legs of earlier deals still alone now stay alone: no later record has their deal.
      while (!open_.empty() && std::get<0>(open_.begin()->first) < r.deal) open_.erase(open_.begin());
      last_deal_ = r.deal;
    }
  }
  if (++matches_ == 1) {
    seats_per_match_ = n;
  } else if (seats_per_match_ != n) {
    seats_per_match_ = 0;
  }
  const auto firsts = std::count_if(r.seats.begin(), r.seats.end(), [](const SeatRecord& s) { return s.rank == 1; });
  std::vector<std::size_t> seat_bot;
  for (int i = 0; i < n; ++i) {
    const SeatRecord& seat = r.seats[static_cast<std::size_t>(i)];
    const std::size_t b = bot_index(seat.bot);
    seat_bot.push_back(b);
    BotTally& t = bots_[b];
    BotStanding& bs = t.standing;
    const double pts = rank_points(r, i);
    count_seat(bs, seat, firsts, pts);
    t.score_sum += seat.score;
    for (double ms : seat.decision_ms) {
      if (t.decisions++ == 0 || t.decision_max < ms) t.decision_max = ms;
      const std::uint64_t key = key_of(ms);
      Cell& cell = t.top[static_cast<std::uint32_t>(key >> (64 - kTopBits))];
      ++cell.count;
      cell.low = std::min(cell.low, key);
      cell.high = std::max(cell.high, key);
    }
    bs.decision_total_ms += std::accumulate(seat.decision_ms.begin(), seat.decision_ms.end(), 0.0);
    bs.stderr_bytes += seat.stderr_bytes;
  }
  if (r.fault && r.fault->seat >= 0 && r.fault->seat < n) {
    note_fault(bots_[seat_bot[static_cast<std::size_t>(r.fault->seat)]].standing, r);
  }
  add_order(ranking_, r, seat_bot);
  for (std::size_t i = 0; i < seat_bot.size(); ++i) {
    for (std::size_t j = i + 1; j < seat_bot.size(); ++j) {
      if (seat_bot[i] == seat_bot[j]) continue;  // self-play has no head to head
      const bool i_first = seat_bot[i] < seat_bot[j];
      const std::size_t a_seat = i_first ? i : j;
      const std::size_t b_seat = i_first ? j : i;
      PairStanding& p = pairs_[{seat_bot[a_seat], seat_bot[b_seat]}];
      const double a_points = head_to_head(r, a_seat, b_seat);
      count_game(p, a_points);
      if (n == 2 && (r.leg == 0 || r.leg == 1)) {
        // The k-th leg 0 and the k-th leg 1 of a deal between two bots form a pair: first in, first paired.
        const auto key = std::make_tuple(r.deal, seat_bot[a_seat], seat_bot[b_seat]);
        OpenLegs& legs = open_[key];
        (r.leg == 0 ? legs.leg0 : legs.leg1).push_back(a_points);
        if (!legs.leg0.empty() && !legs.leg1.empty()) {
          const long bucket = std::lround(2 * (legs.leg0.front() + legs.leg1.front()));
          ++p.a_pairs.counts[static_cast<std::size_t>(std::clamp(bucket, 0L, 4L))];
          legs.leg0.erase(legs.leg0.begin());
          legs.leg1.erase(legs.leg1.begin());
        }
        if (legs.leg0.empty() && legs.leg1.empty()) open_.erase(key);
      }
    }
  }
}

Result<Standings> StandingsAccumulator::finish(const Pass& again) const {
  // The order statistics percentile() interpolates between, per bot: median and p99.
  struct Place {
    PercentilePlace median;
    PercentilePlace p99;
  };
  std::vector<Place> places(bots_.size());
  std::vector<Wanted> wanted;
  for (std::size_t b = 0; b < bots_.size(); ++b) {
    const std::uint64_t n = bots_[b].decisions;
    if (n == 0) continue;
    places[b] = {percentile_place(n, 0.5), percentile_place(n, 0.99)};
    std::vector<std::uint64_t> ranks;
    for (const PercentilePlace& p : {places[b].median, places[b].p99}) {
      ranks.push_back(p.rank);
      if (p.interpolate) ranks.push_back(p.rank + 1);
    }
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    for (std::uint64_t rank : ranks) wanted.push_back(Wanted{b, rank, rank, 0, 64, 0, false, 0});
  }
  // Narrows `w` to the cell of `histogram` that holds its rank (cells of `bits` bits below its
  // prefix); false when there is none (the records changed between passes).
  const auto narrow = [](Wanted& w, const Histogram& histogram, int bits) {
    for (const auto& [digit, cell] : histogram) {
      if (w.rank >= cell.count) {
        w.rank -= cell.count;
        continue;
      }
      w.prefix = (w.shift == 64 ? 0 : w.prefix << bits) | digit;
      w.shift -= bits;
      w.count = cell.count;
      if (cell.low == cell.high) {  // one value (certain once all 64 bits are fixed)
        w.found = true;
        w.value = value_of(cell.low);
      }
      return true;
    }
    return false;
  };
  const std::string changed = "the records changed between passes";
  for (Wanted& w : wanted) {
    if (!narrow(w, bots_[w.bot].top, kTopBits)) return fail(changed);
  }

  // Pass 1: each bot's squared deviations from its mean score, in the order of add(); and the
  // decision times in the cells still wanted: a small cell is read whole, a larger one counted
  // by its next 12 bits. Further passes: decision times only.
  std::vector<double> means(bots_.size());
  std::vector<double> squares(bots_.size(), 0.0);
  for (std::size_t b = 0; b < bots_.size(); ++b) {
    means[b] = score_mean(static_cast<std::uint64_t>(bots_[b].standing.games), bots_[b].standing.points);
  }
  for (int pass = 1;; ++pass) {
    std::vector<std::vector<std::size_t>> open_of(bots_.size());  // wanted, not found, per bot
    bool any_open = false;
    for (std::size_t i = 0; i < wanted.size(); ++i) {
      if (wanted[i].found) continue;
      open_of[wanted[i].bot].push_back(i);
      any_open = true;
    }
    if (pass > 1 && !any_open) break;
    std::vector<Histogram> next(wanted.size());
    std::vector<std::vector<std::uint64_t>> keys(wanted.size());  // of the cells small enough to read whole
    int seen = 0;
    std::string error;
    auto st = again([&](const MatchRecord& r) {
      const int n = static_cast<int>(r.seats.size());
      if (n < 2) return;
      ++seen;
      for (int i = 0; i < n; ++i) {
        const SeatRecord& seat = r.seats[static_cast<std::size_t>(i)];
        const auto it = index_of_.find(seat.bot);
        if (it == index_of_.end()) {
          error = fmt::format("bot {} was not in the records before", seat.bot);
          return;
        }
        const std::size_t b = it->second;
        if (pass == 1) squares[b] = add_squared_deviation(squares[b], rank_points(r, i), means[b]);
        for (std::size_t k : open_of[b]) {
          const Wanted& w = wanted[k];
          for (double ms : seat.decision_ms) {
            const std::uint64_t key = key_of(ms);
            if ((key >> w.shift) != w.prefix) continue;
            if (w.count <= kCollect) {
              keys[k].push_back(key);
              continue;
            }
            Cell& cell = next[k][static_cast<std::uint32_t>((key >> (w.shift - kDigitBits)) &
                                                            ((std::uint64_t{1} << kDigitBits) - 1))];
            ++cell.count;
            cell.low = std::min(cell.low, key);
            cell.high = std::max(cell.high, key);
          }
        }
      }
    });
    if (!st) return fail(st.error());
    if (!error.empty()) return fail(error);
    if (seen != matches_) return fail(fmt::format("{} ({} matches, then {})", changed, matches_, seen));
    for (std::size_t k = 0; k < wanted.size(); ++k) {
      Wanted& w = wanted[k];
      if (w.found) continue;
      if (w.count <= kCollect) {  // the cell read whole: its rank-th key is the value
        if (keys[k].size() != w.count) return fail(changed);
        const auto nth = keys[k].begin() + static_cast<std::ptrdiff_t>(w.rank);
        std::nth_element(keys[k].begin(), nth, keys[k].end());
        w.found = true;
        w.value = value_of(*nth);
      } else if (!narrow(w, next[k], kDigitBits)) {
        return fail(changed);
      }
    }
  }

  Standings st;
  st.matches = matches_;
  st.seats_per_match = seats_per_match_;
  std::vector<BotStanding> bots;
  for (std::size_t b = 0; b < bots_.size(); ++b) {
    const BotTally& t = bots_[b];
    BotStanding bs = t.standing;
    bs.elo = elo_from_score_sums(static_cast<std::uint64_t>(bs.games), bs.points, squares[b]);
    if (bs.games > 0) bs.score_per_game = t.score_sum / bs.games;
    if (t.decisions > 0) {
      const auto value = [&](std::uint64_t rank) {
        for (const Wanted& w : wanted) {
          if (w.bot == b && w.overall_rank == rank) return w.value;
        }
        return 0.0;
      };
      const auto at = [&](const PercentilePlace& p) {
        return percentile_value(p, value(p.rank), p.interpolate ? value(p.rank + 1) : 0.0);
      };
      bs.decision_median_ms = at(places[b].median);
      bs.decision_p99_ms = at(places[b].p99);
      bs.decision_max_ms = t.decision_max;
    }
    bots.push_back(std::move(bs));
  }
  set_ratings(bots, ranking_);
  for (const auto& [key, pair] : pairs_) {
    PairStanding p = pair;
    p.a = bots_[key.first].standing.name;
    p.b = bots_[key.second].standing.name;
    p.elo = p.a_pairs.pairs() > 0 ? elo_from_pentanomial(p.a_pairs) : elo_from_wdl(p.a_wins, p.draws, p.b_wins);
    st.pairs.push_back(std::move(p));
  }
  std::stable_sort(bots.begin(), bots.end(), by_points);
  st.bots = std::move(bots);
  st.points_rule = points_rule(st.seats_per_match);
  return st;
}

}  // namespace arena::league
