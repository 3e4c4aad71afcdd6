// The rounds report's writers (rounds_report.hpp): JSON for standings.json, Markdown, terminal text.
#include "referee/league/rounds_report.hpp"

#include <fmt/format.h>

#include "referee/core/markup.hpp"
#include "referee/league/standings.hpp"

namespace arena::league {

namespace {

// "a 1.50 - 0.50 b" for a table (with seeds for a knockout: "(1) a"), each name through `escape`;
// the winner marked; "(1 of 4 matches)" while not all are played.
std::string table_line(const TableView& t, std::string (*escape)(std::string_view), const char* mark) {
  std::string out;
  for (std::size_t i = 0; i < t.bots.size(); ++i) {
    if (i > 0) out += " | ";
    if (!t.seeds.empty()) out += fmt::format("({}) ", t.seeds[i]);
    out += fmt::format("{}{} {}", escape(t.bots[i]), static_cast<int>(i) == t.winner ? mark : "",
                       format_points(t.points[i]));
  }
  if (t.played < t.matches) out += fmt::format(" ({} of {} matches)", t.played, t.matches);
  if (!t.decided_by.empty() && t.decided_by != "points") out += fmt::format(" (decided by {})", t.decided_by);
  return out;
}

std::string rounds_text(const RoundsReport& r, std::string (*escape)(std::string_view), bool markdown) {
  std::string out;
  const char* heading = markdown ? "## " : "";
  const char* item = markdown ? "- " : "  ";
  if (r.knockout) {
    out += fmt::format("{}Knockout: {} rounds; winner: {}\n\n", heading, r.rounds,
                       r.winner.empty() ? std::string("not decided yet") : escape(r.winner));
  } else {
    out += fmt::format(
        "{}Swiss: {} rounds; a bye scores {}; order: score, then Buchholz, then Sonneborn-Berger, then a seeded "
        "draw\n\n",
        heading, r.rounds, format_points(r.bye_points));
    if (markdown) {
      out += "| # | Bot | Score | Buchholz | Sonneborn-Berger | Byes |\n|---|---|---|---|---|---|\n";
    } else {
      out += fmt::format("  {:>3} {:<24} {:>6} {:>9} {:>17} {:>4}\n", "#", "bot", "score", "buchholz",
                         "sonneborn-berger", "byes");
    }
    int place = 0;
    for (const SwissRow& row : r.swiss) {
      out += markdown
                 ? fmt::format("| {} | {} | {} | {} | {} | {} |\n", ++place, escape(row.bot), format_points(row.score),
                               format_points(row.buchholz), format_points(row.sonneborn_berger), row.byes)
                 : fmt::format("  {:>3} {:<24} {:>6} {:>9} {:>17} {:>4}\n", ++place, escape(row.bot),
                               format_points(row.score), format_points(row.buchholz),
                               format_points(row.sonneborn_berger), row.byes);
    }
    out += "\n";
  }
  for (const RoundView& round : r.played) {
    out += fmt::format("{}{}Round {}{}\n", markdown ? "#" : "", heading, round.number,
                       round.complete ? "" : " (not complete)");
    if (markdown) out += "\n";
    for (const TableView& t : round.tables) out += fmt::format("{}{}\n", item, table_line(t, escape, " *"));
    for (const std::string& bye : round.byes) out += fmt::format("{}{}: bye\n", item, escape(bye));
    out += "\n";
  }
  return out;
}

}  // namespace

nlohmann::json to_json(const RoundsReport& r) {
  nlohmann::json played = nlohmann::json::array();
  for (const RoundView& round : r.played) {
    nlohmann::json tables = nlohmann::json::array();
    for (const TableView& t : round.tables) {
      tables.push_back({{"bots", t.bots},
                        {"seeds", t.seeds},
                        {"points", t.points},
                        {"scores", t.scores},
                        {"first_match", t.first_index},
                        {"matches", t.matches},
                        {"played", t.played},
                        {"winner", t.winner < 0 ? nlohmann::json(nullptr)
                                                : nlohmann::json(t.bots[static_cast<std::size_t>(t.winner)])},
                        {"decided_by", t.decided_by.empty() ? nlohmann::json(nullptr) : nlohmann::json(t.decided_by)}});
    }
    played.push_back({{"round", round.number}, {"complete", round.complete}, {"byes", round.byes}, {"tables", tables}});
  }
  nlohmann::json j = {
      {"format", r.knockout ? "knockout" : "swiss"}, {"rounds", r.rounds}, {"played", played}, {"order", r.order}};
  if (r.knockout) {
    j["winner"] = r.winner.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.winner);
  } else {
    j["bye_points"] = r.bye_points;
    nlohmann::json rows = nlohmann::json::array();
    for (const SwissRow& row : r.swiss) {
      rows.push_back({{"bot", row.bot},
                      {"score", row.score},
                      {"buchholz", row.buchholz},
                      {"sonneborn_berger", row.sonneborn_berger},
                      {"byes", row.byes}});
    }
    j["swiss"] = rows;
  }
  return j;
}

std::string rounds_markdown(const RoundsReport& r) {
  return rounds_text(r, markdown_escape, true);
}

std::string rounds_table(const RoundsReport& r) {
  return rounds_text(r, terminal_safe, false);
}

}  // namespace arena::league
