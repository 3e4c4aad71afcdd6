#include "referee/render/league_page.hpp"

#include <fmt/format.h>

#include <array>
#include <string_view>
#include <utility>

#include "referee/core/markup.hpp"
#include "referee/render/html.hpp"

namespace arena::render {

using nlohmann::json;

namespace {

// The fields of league.json the page shows; the rest (bot commands, the working folder, limits)
// stays out of a page that may be shared.
constexpr std::array<std::string_view, 6> kLeagueFields = {"game", "format", "seats", "deals", "duplicate", "seed"};

// The template's markers in the order they appear, each once: the page is the template with each
// replaced, searched for from the end of the previous one, so inserted text (bot names in the
// data) is never searched for a marker.
using Part = std::pair<std::string_view, std::string>;

Result<std::string> fill_in_order(const std::string& page, const std::array<Part, 4>& parts) {
  std::string out;
  std::size_t from = 0;
  for (const auto& [marker, text] : parts) {
    const std::size_t at = page.find(marker, from);
    if (at == std::string::npos || page.find(marker, at + marker.size()) != std::string::npos) {
      return fail(fmt::format("the league page's template does not have the marker {} once, in order", marker));
    }
    out.append(page, from, at - from);
    out.append(text);
    from = at + marker.size();
  }
  out.append(page, from, std::string::npos);
  return out;
}

}  // namespace

json league_page_data(const LeaguePage& page) {
  json league = json::object();
  if (page.league.is_object()) {
    for (std::string_view field : kLeagueFields) {
      const auto it = page.league.find(field);
      if (it == page.league.end()) continue;
      // The seed as text, as every 64-bit number of a page (JavaScript's numbers end at 2^53).
      league[std::string(field)] =
          field == "seed" && it->is_number_unsigned() ? json(std::to_string(it->get<std::uint64_t>())) : *it;
    }
  }
  return {{"format", kLeaguePageFormat},
          {"name", page.name},
          {"league", std::move(league)},
          {"standings", page.standings},
          {"standings_source", page.standings_from_journal ? "journal" : "standings.json"},
          {"matches", page.matches},
          {"pages", {{"limit", page.page_limit}}}};
}

Result<std::string> league_page(const LeaguePage& page) {
  std::string game;
  if (page.league.is_object()) {
    const auto it = page.league.find("game");
    if (it != page.league.end() && it->is_string()) game = it->get<std::string>();
  }
  const std::string title = fmt::format("League {}{}", page.name, game.empty() ? "" : " (" + game + ")");
  return fill_in_order(web::league_html(), {{{"@@TITLE@@", markup_escape(title)},
                                             {"@@STYLE@@", web::league_css()},
                                             {"@@DATA@@", script_safe_json(league_page_data(page))},
                                             {"@@SCRIPT@@", web::league_js()}}});
}

}  // namespace arena::render
