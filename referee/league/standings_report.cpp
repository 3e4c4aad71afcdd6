// The standings writers for machines and people: JSON, Markdown and the terminal table, with the
// text pieces they share with the JUnit writer (report_text.hpp).

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "referee/core/markup.hpp"
#include "referee/league/report_text.hpp"
#include "referee/league/standings.hpp"

namespace arena::league {

namespace report_text {

double finite(double x) {
  return std::isfinite(x) ? x : 0.0;
}

std::string faults_text(const BotStanding& b) {
  std::string out;
  for (const auto& [kind, n] : b.faults) {
    if (!out.empty()) out += ", ";
    out += fmt::format("{} {}", n, kind);
  }
  return out;
}

std::string ms(double x) {
  return fmt::format("{:.2f}", x);
}

std::string bot_summary(const BotStanding& b) {
  return fmt::format(
      "games {}, points {} ({:.3f} per game), W/D/L {}/{}/{}, Elo {}, rating {}, decision ms median {} p99 {} max "
      "{}, stderr bytes {}",
      b.games, format_points(b.points), b.points_per_game(), b.wins, b.draws, b.losses, format_elo(b.elo),
      format_elo(b.rating), ms(b.decision_median_ms), ms(b.decision_p99_ms), ms(b.decision_max_ms), b.stderr_bytes);
}

}  // namespace report_text

namespace {

using report_text::faults_text;
using report_text::finite;
using report_text::ms;

constexpr std::string_view kPentanomialLabels = "LL / LD / DD+WL / WD / WW";

// An EloEstimate in JSON: unknown interval ends, nElo and LOS are null.
nlohmann::json elo_json(const EloEstimate& e) {
  const bool normal = e.interval == IntervalKind::normal;
  const auto known = [](bool yes, double x) { return yes ? nlohmann::json(finite(x)) : nlohmann::json(nullptr); };
  return {{"elo", finite(e.elo)},
          {"low", known(e.known(), e.low)},
          {"high", known(e.known(), e.high)},
          {"interval", enum_name(e.interval)},
          {"samples", e.samples},
          {"nelo", known(normal, e.nelo)},
          {"nelo_error", known(normal, e.nelo_error)},
          {"los", known(normal, e.los)}};
}

std::string pentanomial_text(const Pentanomial& p) {
  return fmt::format("{} / {} / {} / {} / {}", p.counts[0], p.counts[1], p.counts[2], p.counts[3], p.counts[4]);
}

// "97.5%" when the estimate has a normal interval, else "-".
std::string los_text(const EloEstimate& e) {
  return e.interval == IntervalKind::normal ? fmt::format("{:.1f}%", 100 * e.los) : std::string("-");
}

// The multi-seat rating is shown when matches have more than two seats (or differ in seats);
// the pentanomial only when they have two (it is about 2-seat duplicate pairs).
bool shows_rating(const Standings& s) {
  return s.seats_per_match > 2 || (s.seats_per_match == 0 && s.matches > 0);
}
bool shows_pentanomial(const Standings& s) {
  return s.seats_per_match <= 2;
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

// The head-to-head score of bot `row` against bot `col` as "points/games", "" when they never met.
std::string crosstable_cell(const Standings& s, const std::string& row, const std::string& col) {
  for (const PairStanding& p : s.pairs) {
    if (p.games == 0) continue;
    if (p.a == row && p.b == col) return fmt::format("{:g}/{}", p.a_points, p.games);
    if (p.b == row && p.a == col) return fmt::format("{:g}/{}", p.games - p.a_points, p.games);
  }
  return "";
}

// The lines a partial league (and a decided SPRT's extra matches) put at the top of a report,
// each with `prefix`, ending in a blank line; "" when there is nothing to say.
// `escape` makes the SPRT line's bot name safe for the report (terminal_safe, markdown_escape).
std::string status_lines(const Standings& s, std::string_view prefix, std::string_view suffix,
                         std::string (*escape)(std::string_view)) {
  std::string out;
  for (const std::string& line : {completion_text(s), sprt_text(s, escape), not_counted_text(s)}) {
    if (!line.empty()) out += fmt::format("{}{}{}\n", prefix, line, suffix);
  }
  return out.empty() ? out : out + "\n";
}

}  // namespace

std::string format_elo(const EloEstimate& e) {
  // Rounded first, then + 0.0, so that -0.3 prints as "+0", never "-0".
  const auto whole = [](double x) { return std::round(finite(x)) + 0.0; };
  switch (e.interval) {
    case IntervalKind::normal:
      return fmt::format("{:+.0f} [{:+.0f}, {:+.0f}]", whole(e.elo), whole(e.low), whole(e.high));
    case IntervalKind::exact:
      return fmt::format("{:+.0f} [{:+.0f}, {:+.0f}] exact", whole(e.elo), whole(e.low), whole(e.high));
    case IntervalKind::none:
      break;
  }
  if (e.samples == 0) return "-";
  return fmt::format("{:+.0f} [not enough games]", whole(e.elo));
}

std::string format_points(double points) {
  return fmt::format("{:.2f}", finite(points) + 0.0);
}

std::string reason_text(const Completion& c) {
  switch (c.reason) {
    case PartialReason::interrupted:
      return "interrupted";
    case PartialReason::error:
      return "stopped by an error";
    case PartialReason::shard:
      return fmt::format("shard {}/{}", c.shard, c.shards);
    case PartialReason::merged_missing:
      return "merged; matches missing";
    case PartialReason::merged_shards:
      return fmt::format("merged without {} of {} shards", c.shard, c.shards);
  }
  return "interrupted";
}

std::string completion_text(const Standings& s) {
  if (!s.completion.partial) return "";
  const PartialReason r = s.completion.reason;
  return fmt::format("PARTIAL: {} of {} matches ({}){}", s.completion.journaled, s.completion.total,
                     reason_text(s.completion),
                     r == PartialReason::interrupted ? "; finish with --resume"
                     : r == PartialReason::shard     ? "; combine the shards with `referee league merge`"
                                                     : "");
}

std::string not_counted_text(const Standings& s) {
  if (s.not_counted == 0) return "";
  return fmt::format("{} match{} journaled after the SPRT decided {} not counted", s.not_counted,
                     s.not_counted == 1 ? "" : "es", s.not_counted == 1 ? "is" : "are");
}

std::string sprt_text(const Standings& s, std::string (*escape)(std::string_view)) {
  if (!s.sprt) return "";
  const SprtVerdict& v = *s.sprt;
  const SprtState& t = v.state;
  const std::string settings = fmt::format("SPRT of {} [elo0 {:g}, elo1 {:g}, alpha {:g}, beta {:g}]", escape(v.bot),
                                           v.config.elo0, v.config.elo1, v.config.alpha, v.config.beta);
  const std::string samples = fmt::format("{} {}", t.samples, v.pairs ? "pairs" : "games");
  switch (t.decision) {
    case SprtState::Decision::accept_h1:
      return fmt::format("{}: H1 accepted, elo1 rather than elo0 (llr {:.2f} >= {:.2f} after {})", settings, t.llr,
                         t.upper, samples);
    case SprtState::Decision::accept_h0:
      return fmt::format("{}: H0 accepted, elo0 rather than elo1 (llr {:.2f} <= {:.2f} after {})", settings, t.llr,
                         t.lower, samples);
    case SprtState::Decision::none:
      break;
  }
  return fmt::format("{}: undecided (llr {:.2f} in ({:.2f}, {:.2f}) after {}{})", settings, t.llr, t.lower, t.upper,
                     samples, t.below_minimum ? fmt::format("; none before {}", t.min_samples) : std::string());
}

nlohmann::json standings_json(const Standings& s) {
  nlohmann::json bots = nlohmann::json::array();
  int place = 0;
  for (const BotStanding& b : s.bots) {
    nlohmann::json entries = nlohmann::json::array();
    for (const FaultEntry& f : b.fault_entries) {
      entries.push_back({{"match", f.index},
                         {"seat", f.seat},
                         {"kind", enum_name(f.kind)},
                         {"request_id", f.request_id},
                         {"message", f.message},
                         {"request", f.request},
                         {"reply", f.reply},
                         {"stderr_tail", f.stderr_tail},
                         {"replay", f.replay},
                         {"rerun", f.rerun}});
    }
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
                    {"rating", elo_json(b.rating)},
                    {"faults", b.faults},
                    {"fault_count", b.fault_count()},
                    {"fault_entries", entries},
                    {"decision_ms",
                     {{"median", finite(b.decision_median_ms)},
                      {"p99", finite(b.decision_p99_ms)},
                      {"max", finite(b.decision_max_ms)},
                      {"total", finite(b.decision_total_ms)}}},
                    {"stderr_bytes", b.stderr_bytes}});
  }
  nlohmann::json pairs = nlohmann::json::array();
  for (const PairStanding& p : s.pairs) {
    const bool by_pairs = p.a_pairs.pairs() > 0;
    const std::optional<double> ratio = pairs_ratio(p.a_pairs);
    pairs.push_back({{"a", p.a},
                     {"b", p.b},
                     {"games", p.games},
                     {"a_points", finite(p.a_points)},
                     {"a_wins", p.a_wins},
                     {"draws", p.draws},
                     {"b_wins", p.b_wins},
                     {"pairs", p.a_pairs.pairs()},
                     {"pentanomial", p.a_pairs.counts},
                     {"elo_model", by_pairs ? "pentanomial" : "trinomial"},
                     {"elo", elo_json(p.elo)},
                     {"draw_ratio", finite(by_pairs ? draw_ratio(p.a_pairs) : draw_ratio(p.a_wins, p.draws, p.b_wins))},
                     {"pairs_ratio", by_pairs && ratio ? nlohmann::json(finite(*ratio)) : nlohmann::json(nullptr)}});
  }
  return {{"standings_version", kStandingsVersion},
          {"matches", s.matches},
          {"seats_per_match", s.seats_per_match},
          {"points_rule", s.points_rule},
          {"elo_bound", kEloBound},
          {"elo_min_samples", kEloMinSamples},
          {"completion",
           {{"partial", s.completion.partial},
            {"reason", s.completion.partial ? reason_text(s.completion) : std::string()},
            {"journaled", s.completion.journaled},
            {"total", s.completion.total},
            {"message", completion_text(s)}}},
          {"not_counted", s.not_counted},
          {"bots", bots},
          {"pairs", pairs},
          {"rounds", s.rounds ? to_json(*s.rounds) : nlohmann::json(nullptr)}};
}

std::string standings_markdown(const Standings& s) {
  const bool rating = shows_rating(s);
  const bool penta = shows_pentanomial(s);
  std::string out = "# Standings\n\n";
  out += status_lines(s, "**", "**", markdown_escape);
  out += fmt::format(
      "{} matches, {} seats per match. Points: {}. Elo is logistic, against the field, with a 95% "
      "confidence interval (clamped to ±{:.0f}; none below {} games).{}\n\n",
      s.matches, s.seats_per_match > 0 ? fmt::format("{}", s.seats_per_match) : "mixed", s.points_rule, kEloBound,
      kEloMinSamples,
      rating ? " Rating is the Plackett-Luce rating over finishing orders, on the Elo scale against the "
               "field's mean (docs/statistics.md)."
             : "");
  out += fmt::format(
      "| # | Bot | Games | Points | Points/game | W | D | L | Score/game | Elo [95% CI] |{} Faults "
      "| Decision ms median / p99 / max | Stderr bytes |\n",
      rating ? " Rating [95% CI] |" : "");
  out += fmt::format("|--:|:--|--:|--:|--:|--:|--:|--:|--:|:--|{}--:|--:|--:|\n", rating ? ":--|" : "");
  int place = 0;
  for (const BotStanding& b : s.bots) {
    out += fmt::format("| {} | {} | {} | {} | {:.3f} | {} | {} | {} | {:.1f} | {} |{} {} | {} / {} / {} | {} |\n",
                       ++place, markdown_escape(b.name), b.games, format_points(b.points), b.points_per_game(), b.wins,
                       b.draws, b.losses, b.score_per_game, format_elo(b.elo),
                       rating ? fmt::format(" {} |", format_elo(b.rating)) : "", b.fault_count(),
                       ms(b.decision_median_ms), ms(b.decision_p99_ms), ms(b.decision_max_ms), b.stderr_bytes);
  }

  if (!s.pairs.empty()) {
    out +=
        "\n## Crosstable\n\nPoints of the row bot against the column bot, head to head, out of the games they met "
        "in.\n\n|";
    std::string rule = "|:--|";
    for (const BotStanding& col : s.bots) {
      out += fmt::format(" | {}", markdown_escape(col.name));
      rule += "--:|";
    }
    out += " |\n";
    out += rule;
    out += "\n";
    for (const BotStanding& row : s.bots) {
      out += fmt::format("| {} |", markdown_escape(row.name));
      for (const BotStanding& col : s.bots) {
        out += fmt::format(" {} |", row.name == col.name ? std::string("-") : crosstable_cell(s, row.name, col.name));
      }
      out += "\n";
    }
  }

  out += "\n## Head to head\n\n";
  if (s.pairs.empty()) {
    out += "No two bots met.\n";
  } else {
    if (penta) {
      out += fmt::format(
          "Pairs are duplicate deals (both legs of one deal); {} counts the pairs in which A scored "
          "0, 0.5, 1, 1.5, 2 points. Elo of A is pentanomial when there are pairs, else from the "
          "games. LOS: the chance that A is the stronger.\n\n",
          kPentanomialLabels);
      out +=
          fmt::format("| A | B | Games | A points | A wins / draws / B wins | Pairs {} | Elo of A [95% CI] | LOS |\n",
                      kPentanomialLabels);
      out += "|:--|:--|--:|--:|--:|--:|:--|--:|\n";
    } else {
      out +=
          "Each two seats of a match are one head-to-head game (better rank 1, equal 0.5). LOS: the chance that A "
          "is the stronger.\n\n";
      out += "| A | B | Games | A points | A wins / draws / B wins | Elo of A [95% CI] | LOS |\n";
      out += "|:--|:--|--:|--:|--:|:--|--:|\n";
    }
    for (const PairStanding& p : s.pairs) {
      out += fmt::format("| {} | {} | {} | {} | {} / {} / {} |{} {} | {} |\n", markdown_escape(p.a),
                         markdown_escape(p.b), p.games, format_points(p.a_points), p.a_wins, p.draws, p.b_wins,
                         penta ? fmt::format(" {} |", pentanomial_text(p.a_pairs)) : "", format_elo(p.elo),
                         los_text(p.elo));
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
  if (s.rounds) out += "\n" + rounds_markdown(*s.rounds);
  return out;
}

std::string standings_table(const Standings& s) {
  const bool rating = shows_rating(s);
  const bool penta = shows_pentanomial(s);
  std::string out = status_lines(s, "", "", terminal_safe);
  out += fmt::format("{} matches; points: {}\n\n", s.matches, s.points_rule);
  std::vector<std::vector<std::string>> rows;
  int place = 0;
  for (const BotStanding& b : s.bots) {
    std::vector<std::string> row = {fmt::format("{}", ++place),
                                    terminal_safe(b.name),
                                    fmt::format("{}", b.games),
                                    format_points(b.points),
                                    fmt::format("{:.3f}", b.points_per_game()),
                                    fmt::format("{}", b.wins),
                                    fmt::format("{}", b.draws),
                                    fmt::format("{}", b.losses),
                                    fmt::format("{:.1f}", b.score_per_game),
                                    format_elo(b.elo)};
    if (rating) row.push_back(format_elo(b.rating));
    for (std::string cell :
         {fmt::format("{}", b.fault_count()), ms(b.decision_median_ms), ms(b.decision_p99_ms), ms(b.decision_max_ms)}) {
      row.push_back(std::move(cell));
    }
    rows.push_back(std::move(row));
  }
  std::vector<std::string> header = {"#", "bot", "games", "points",     "pts/game",
                                     "W", "D",   "L",     "score/game", "elo [95% CI]"};
  std::vector<bool> right = {true, false, true, true, true, true, true, true, true, false};
  if (rating) {
    header.emplace_back("rating [95% CI]");
    right.push_back(false);
  }
  for (const char* h : {"faults", "ms median", "ms p99", "ms max"}) {
    header.emplace_back(h);
    right.push_back(true);
  }
  out += render_table(header, rows, right);
  if (!s.pairs.empty()) {
    std::vector<std::vector<std::string>> pair_rows;
    for (const PairStanding& p : s.pairs) {
      std::vector<std::string> row = {terminal_safe(p.a), terminal_safe(p.b), fmt::format("{}", p.games),
                                      format_points(p.a_points), fmt::format("{}/{}/{}", p.a_wins, p.draws, p.b_wins)};
      if (penta) row.push_back(pentanomial_text(p.a_pairs));
      row.push_back(format_elo(p.elo));
      row.push_back(los_text(p.elo));
      pair_rows.push_back(std::move(row));
    }
    std::vector<std::string> pair_header = {"a", "b", "games", "a points", "a/draw/b"};
    std::vector<bool> pair_right = {false, false, true, true, true};
    if (penta) {
      pair_header.emplace_back(kPentanomialLabels);
      pair_right.push_back(true);
    }
    pair_header.emplace_back("elo of a [95% CI]");
    pair_right.push_back(false);
    pair_header.emplace_back("los");
    pair_right.push_back(true);
    out += "\n";
    out += render_table(pair_header, pair_rows, pair_right);
  }
  const auto faulted =
      std::count_if(s.bots.begin(), s.bots.end(), [](const BotStanding& b) { return !b.faults.empty(); });
  if (faulted > 0) {
    out += "\nfaults:\n";
    for (const BotStanding& b : s.bots) {
      if (!b.faults.empty()) out += fmt::format("  {}: {}\n", terminal_safe(b.name), faults_text(b));
    }
  }
  if (s.rounds) out += "\n" + rounds_table(*s.rounds);
  return out;
}

}  // namespace arena::league
