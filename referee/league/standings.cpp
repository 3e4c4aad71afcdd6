#include "referee/league/standings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>
#include <tuple>
#include <utility>

#include "referee/core/markup.hpp"

namespace arena::league {

namespace {

constexpr std::string_view kPentanomialLabels = "LL / LD / DD+WL / WD / WW";

// Accumulates one bot's games before they become a BotStanding.
struct BotTally {
  std::vector<double> rank_points;
  std::vector<double> decisions;
  double score_sum = 0;
};

// One leg of a 2-seat match between two bots, from the earlier bot's (a's) point of view.
struct Leg {
  std::uint64_t index = 0;
  int leg = 0;
  double a_points = 0;
};

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

double finite(double x) {
  return std::isfinite(x) ? x : 0.0;
}

nlohmann::json elo_json(const EloEstimate& e) {
  return {{"elo", finite(e.elo)}, {"low", finite(e.low)}, {"high", finite(e.high)}};
}

std::string faults_text(const BotStanding& b) {
  std::string out;
  for (const auto& [kind, n] : b.faults) {
    if (!out.empty()) out += ", ";
    out += fmt::format("{} {}", n, kind);
  }
  return out;
}

std::string pentanomial_text(const Pentanomial& p) {
  return fmt::format("{} / {} / {} / {} / {}", p.counts[0], p.counts[1], p.counts[2], p.counts[3], p.counts[4]);
}

// Terminal width of UTF-8 text: its code points (continuation bytes do not count).
std::size_t display_width(std::string_view text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

// Columns padded to their widest cell, two spaces apart; `right[i]` right-aligns column i.
std::string render_table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows,
                         const std::vector<bool>& right) {
  std::vector<std::size_t> width(header.size(), 0);
  for (std::size_t c = 0; c < header.size(); ++c) width[c] = display_width(header[c]);
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], display_width(row[c]));
  }
  std::string out;
  const auto line = [&](const std::vector<std::string>& cells) {
    std::string text;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const std::string pad(width[c] - display_width(cells[c]), ' ');
      if (c > 0) text += "  ";
      text += right[c] ? pad + cells[c] : cells[c] + pad;
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out += text + '\n';
  };
  line(header);
  std::vector<std::string> rule;
  for (std::size_t w : width) rule.emplace_back(w, '-');
  line(rule);
  for (const auto& row : rows) line(row);
  return out;
}

std::string ms(double x) {
  return fmt::format("{:.2f}", x);
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

std::string format_elo(const EloEstimate& e) {
  // Rounded first, then + 0.0, so that -0.3 prints as "+0", never "-0".
  const auto whole = [](double x) { return std::round(finite(x)) + 0.0; };
  return fmt::format("{:+.0f} [{:+.0f}, {:+.0f}]", whole(e.elo), whole(e.low), whole(e.high));
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
  Standings st;
  std::vector<BotStanding> bots;
  std::vector<BotTally> tallies;
  std::map<std::string, std::size_t> index_of;
  const auto bot_index = [&](const std::string& name) {
    auto [it, added] = index_of.try_emplace(name, bots.size());
    if (added) {
      bots.push_back(BotStanding{});
      bots.back().name = name;
      tallies.emplace_back();
    }
    return it->second;
  };
  for (const std::string& name : bot_names) bot_index(name);

  // Head-to-head pairs keyed by (index of a, index of b), a < b in league order.
  std::map<std::pair<std::size_t, std::size_t>, PairStanding> pairs;
  // 2-seat legs keyed by (deal, a, b), for the pentanomial.
  std::map<std::tuple<std::uint64_t, std::size_t, std::size_t>, std::vector<Leg>> legs;

  bool first = true;
  for (const MatchRecord& r : records) {
    const int n = static_cast<int>(r.seats.size());
    if (n < 2) continue;  // not a match (record_from_json refuses it); rank points need 2 seats
    ++st.matches;
    if (first) {
      st.seats_per_match = n;
      first = false;
    } else if (st.seats_per_match != n) {
      st.seats_per_match = 0;
    }
    const auto firsts = std::count_if(r.seats.begin(), r.seats.end(), [](const SeatRecord& s) { return s.rank == 1; });
    std::vector<std::size_t> seat_bot;
    for (int i = 0; i < n; ++i) {
      const SeatRecord& seat = r.seats[static_cast<std::size_t>(i)];
      const std::size_t b = bot_index(seat.bot);
      seat_bot.push_back(b);
      BotStanding& bs = bots[b];
      BotTally& t = tallies[b];
      const double pts = rank_points(r, i);
      count_seat(bs, seat, firsts, pts);
      t.rank_points.push_back(pts);
      t.score_sum += seat.score;
      t.decisions.insert(t.decisions.end(), seat.decision_ms.begin(), seat.decision_ms.end());
      bs.decision_total_ms += std::accumulate(seat.decision_ms.begin(), seat.decision_ms.end(), 0.0);
      bs.stderr_bytes += seat.stderr_bytes;
    }
    if (r.fault && r.fault->seat >= 0 && r.fault->seat < n) {
      ++bots[seat_bot[static_cast<std::size_t>(r.fault->seat)]].faults[r.fault->kind];
    }
    for (std::size_t i = 0; i < seat_bot.size(); ++i) {
      for (std::size_t j = i + 1; j < seat_bot.size(); ++j) {
        if (seat_bot[i] == seat_bot[j]) continue;  // self-play has no head to head
        const bool i_first = seat_bot[i] < seat_bot[j];
        const std::size_t a_seat = i_first ? i : j;
        const std::size_t b_seat = i_first ? j : i;
        const double a_points = head_to_head(r, a_seat, b_seat);
        count_game(pairs[{seat_bot[a_seat], seat_bot[b_seat]}], a_points);
        if (n == 2 && (r.leg == 0 || r.leg == 1)) {
          legs[{r.deal, seat_bot[a_seat], seat_bot[b_seat]}].push_back(Leg{r.index, r.leg, a_points});
        }
      }
    }
  }

  // The k-th leg 0 and the k-th leg 1 (in index order) of a deal between two bots form a pair.
  for (auto& [key, list] : legs) {
    std::sort(list.begin(), list.end(), [](const Leg& x, const Leg& y) { return x.index < y.index; });
    std::vector<double> leg0;
    std::vector<double> leg1;
    for (const Leg& l : list) (l.leg == 0 ? leg0 : leg1).push_back(l.a_points);
    PairStanding& p = pairs[{std::get<1>(key), std::get<2>(key)}];
    for (std::size_t k = 0; k < std::min(leg0.size(), leg1.size()); ++k) {
      const long bucket = std::lround(2 * (leg0[k] + leg1[k]));
      ++p.a_pairs.counts[static_cast<std::size_t>(std::clamp(bucket, 0L, 4L))];
    }
  }

  for (std::size_t b = 0; b < bots.size(); ++b) {
    BotStanding& bs = bots[b];
    const BotTally& t = tallies[b];
    bs.elo = elo_from_scores(t.rank_points);
    if (bs.games > 0) bs.score_per_game = t.score_sum / bs.games;
    bs.decision_median_ms = median(t.decisions);
    bs.decision_p99_ms = percentile(t.decisions, 0.99);
    bs.decision_max_ms = t.decisions.empty() ? 0.0 : *std::max_element(t.decisions.begin(), t.decisions.end());
  }
  for (auto& [key, p] : pairs) {
    p.a = bots[key.first].name;
    p.b = bots[key.second].name;
    p.elo = p.a_pairs.pairs() > 0 ? elo_from_pentanomial(p.a_pairs) : elo_from_wdl(p.a_wins, p.draws, p.b_wins);
    st.pairs.push_back(std::move(p));
  }

  std::stable_sort(bots.begin(), bots.end(), by_points);
  st.bots = std::move(bots);
  st.points_rule = points_rule(st.seats_per_match);
  return st;
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
  return n;
}

// The same steps as compute_standings' loop, in the same order.
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
    ++bots_[seat_bot[static_cast<std::size_t>(r.fault->seat)]].standing.faults[r.fault->kind];
  }
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

SprtTally::SprtTally(std::string bot, bool pairs, const SprtConfig& config)
    : bot_(std::move(bot)), pairs_(pairs), config_(config) {}

void SprtTally::add(const MatchRecord& r) {
  double x = 0;  // the bot's rank points; 0 when it did not play
  for (std::size_t s = 0; s < r.seats.size(); ++s) {
    if (r.seats[s].bot == bot_) {
      x = rank_points(r, static_cast<int>(s));
      break;
    }
  }
  if (!pairs_) {
    (x > 0.75 ? wins_ : x < 0.25 ? losses_ : draws_) += 1;
    return;
  }
  OpenDeal& deal = open_[r.deal];
  deal.points += x;
  if (++deal.games < 2) return;
  pentanomial_.counts[static_cast<std::size_t>(deal.points * 2 + 0.5)] += 1;
  open_.erase(r.deal);
}

SprtState SprtTally::state() const {
  return pairs_ ? sprt_pentanomial(pentanomial_, config_) : sprt_trinomial(wins_, draws_, losses_, config_);
}

nlohmann::json standings_json(const Standings& s) {
  nlohmann::json bots = nlohmann::json::array();
  int place = 0;
  for (const BotStanding& b : s.bots) {
    bots.push_back({{"place", ++place},
                    {"name", b.name},
                    {"games", b.games},
                    {"points", finite(b.points)},
                    {"points_per_game", finite(b.points_per_game())},
                    {"wins", b.wins},
                    {"draws", b.draws},
                    {"losses", b.losses},
                    {"score_per_game", finite(b.score_per_game)},
                    {"elo", elo_json(b.elo)},
                    {"faults", b.faults},
                    {"fault_count", b.fault_count()},
                    {"decision_ms",
                     {{"median", finite(b.decision_median_ms)},
                      {"p99", finite(b.decision_p99_ms)},
                      {"max", finite(b.decision_max_ms)},
                      {"total", finite(b.decision_total_ms)}}},
                    {"stderr_bytes", b.stderr_bytes}});
  }
  nlohmann::json pairs = nlohmann::json::array();
  for (const PairStanding& p : s.pairs) {
    pairs.push_back({{"a", p.a},
                     {"b", p.b},
                     {"games", p.games},
                     {"a_points", finite(p.a_points)},
                     {"a_wins", p.a_wins},
                     {"draws", p.draws},
                     {"b_wins", p.b_wins},
                     {"pairs", p.a_pairs.pairs()},
                     {"pentanomial", p.a_pairs.counts},
                     {"elo_model", p.a_pairs.pairs() > 0 ? "pentanomial" : "trinomial"},
                     {"elo", elo_json(p.elo)}});
  }
  return {{"standings_version", kStandingsVersion},
          {"matches", s.matches},
          {"seats_per_match", s.seats_per_match},
          {"points_rule", s.points_rule},
          {"elo_bound", kEloBound},
          {"bots", bots},
          {"pairs", pairs}};
}

std::string standings_markdown(const Standings& s) {
  std::string out = "# Standings\n\n";
  out += fmt::format(
      "{} matches, {} seats per match. Points: {}. Elo is logistic, against the field, with a 95% "
      "confidence interval (clamped to ±{:.0f}).\n\n",
      s.matches, s.seats_per_match > 0 ? fmt::format("{}", s.seats_per_match) : "mixed", s.points_rule, kEloBound);
  out +=
      "| # | Bot | Games | Points | Points/game | W | D | L | Score/game | Elo [95% CI] | Faults "
      "| Decision ms median / p99 / max | Stderr bytes |\n";
  out += "|--:|:--|--:|--:|--:|--:|--:|--:|--:|:--|--:|--:|--:|\n";
  int place = 0;
  for (const BotStanding& b : s.bots) {
    out += fmt::format("| {} | {} | {} | {:g} | {:.3f} | {} | {} | {} | {:.1f} | {} | {} | {} / {} / {} | {} |\n",
                       ++place, markdown_escape(b.name), b.games, b.points, b.points_per_game(), b.wins, b.draws,
                       b.losses, b.score_per_game, format_elo(b.elo), b.fault_count(), ms(b.decision_median_ms),
                       ms(b.decision_p99_ms), ms(b.decision_max_ms), b.stderr_bytes);
  }

  out += "\n## Head to head\n\n";
  if (s.pairs.empty()) {
    out += "No two bots met.\n";
  } else {
    out += fmt::format(
        "Pairs are duplicate deals (both legs of one deal); {} counts the pairs in which A scored "
        "0, 0.5, 1, 1.5, 2 points. Elo of A is pentanomial when there are pairs, else from the "
        "games.\n\n",
        kPentanomialLabels);
    out += fmt::format("| A | B | Games | A points | A wins / draws / B wins | Pairs {} | Elo of A [95% CI] |\n",
                       kPentanomialLabels);
    out += "|:--|:--|--:|--:|--:|--:|:--|\n";
    for (const PairStanding& p : s.pairs) {
      out +=
          fmt::format("| {} | {} | {} | {:g} | {} / {} / {} | {} | {} |\n", markdown_escape(p.a), markdown_escape(p.b),
                      p.games, p.a_points, p.a_wins, p.draws, p.b_wins, pentanomial_text(p.a_pairs), format_elo(p.elo));
    }
  }

  out += "\n## Faults\n\n";
  bool any = false;
  for (const BotStanding& b : s.bots) {
    if (b.faults.empty()) continue;
    any = true;
    out += fmt::format("- {}: {}\n", markdown_escape(b.name), faults_text(b));
  }
  if (!any) out += "No faults.\n";
  return out;
}

std::string junit_xml(const Standings& s, const std::string& suite_name) {
  const std::string suite = markup_escape(suite_name);
  const int tests = static_cast<int>(s.bots.size());
  const int failures = static_cast<int>(
      std::count_if(s.bots.begin(), s.bots.end(), [](const BotStanding& b) { return !b.faults.empty(); }));
  double total_ms = 0;
  for (const BotStanding& b : s.bots) total_ms += finite(b.decision_total_ms);

  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuites name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" time=\"{:.3f}\">\n", suite,
                     tests, failures, total_ms / 1000);
  out += fmt::format(
      "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\" "
      "time=\"{:.3f}\">\n",
      suite, tests, failures, total_ms / 1000);
  out += "    <properties>\n";
  out += fmt::format("      <property name=\"matches\" value=\"{}\"/>\n", s.matches);
  out += fmt::format("      <property name=\"seats_per_match\" value=\"{}\"/>\n", s.seats_per_match);
  out += fmt::format("      <property name=\"points_rule\" value=\"{}\"/>\n", markup_escape(s.points_rule));
  out += "    </properties>\n";
  for (const BotStanding& b : s.bots) {
    out += fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3f}\">\n", suite, markup_escape(b.name),
                       finite(b.decision_total_ms) / 1000);
    if (!b.faults.empty()) {
      std::string body;
      for (const auto& [kind, n] : b.faults) body += fmt::format("{}: {}\n", kind, n);
      out += fmt::format("      <failure message=\"{}\" type=\"fault\">{}</failure>\n",
                         markup_escape(fmt::format("{} committed {} fault{}: {}", b.name, b.fault_count(),
                                                   b.fault_count() == 1 ? "" : "s", faults_text(b))),
                         markup_escape(body));
    }
    out += fmt::format("      <system-out>{}</system-out>\n",
                       markup_escape(fmt::format("games {}, points {:g} ({:.3f} per game), W/D/L {}/{}/{}, Elo {}, "
                                                 "decision ms median {} p99 {} max {}, stderr bytes {}",
                                                 b.games, b.points, b.points_per_game(), b.wins, b.draws, b.losses,
                                                 format_elo(b.elo), ms(b.decision_median_ms), ms(b.decision_p99_ms),
                                                 ms(b.decision_max_ms), b.stderr_bytes)));
    out += "    </testcase>\n";
  }
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

std::string standings_table(const Standings& s) {
  std::string out = fmt::format("{} matches; points: {}\n\n", s.matches, s.points_rule);
  std::vector<std::vector<std::string>> rows;
  int place = 0;
  for (const BotStanding& b : s.bots) {
    rows.push_back({fmt::format("{}", ++place), terminal_safe(b.name), fmt::format("{}", b.games),
                    fmt::format("{:g}", b.points), fmt::format("{:.3f}", b.points_per_game()),
                    fmt::format("{}", b.wins), fmt::format("{}", b.draws), fmt::format("{}", b.losses),
                    fmt::format("{:.1f}", b.score_per_game), format_elo(b.elo), fmt::format("{}", b.fault_count()),
                    ms(b.decision_median_ms), ms(b.decision_p99_ms), ms(b.decision_max_ms)});
  }
  out += render_table({"#", "bot", "games", "points", "pts/game", "W", "D", "L", "score/game", "elo [95% CI]", "faults",
                       "ms median", "ms p99", "ms max"},
                      rows, {true, false, true, true, true, true, true, true, true, false, true, true, true, true});
  if (!s.pairs.empty()) {
    std::vector<std::vector<std::string>> pair_rows;
    for (const PairStanding& p : s.pairs) {
      pair_rows.push_back({terminal_safe(p.a), terminal_safe(p.b), fmt::format("{}", p.games),
                           fmt::format("{:g}", p.a_points), fmt::format("{}/{}/{}", p.a_wins, p.draws, p.b_wins),
                           pentanomial_text(p.a_pairs), format_elo(p.elo)});
    }
    out += "\n";
    out +=
        render_table({"a", "b", "games", "a points", "a/draw/b", std::string(kPentanomialLabels), "elo of a [95% CI]"},
                     pair_rows, {false, false, true, true, true, true, false});
  }
  const auto faulted =
      std::count_if(s.bots.begin(), s.bots.end(), [](const BotStanding& b) { return !b.faults.empty(); });
  if (faulted > 0) {
    out += "\nfaults:\n";
    for (const BotStanding& b : s.bots) {
      if (!b.faults.empty()) out += fmt::format("  {}: {}\n", terminal_safe(b.name), faults_text(b));
    }
  }
  return out;
}

}  // namespace arena::league
