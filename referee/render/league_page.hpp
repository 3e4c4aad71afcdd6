#pragma once
// The page of a league (`referee html LEAGUE_FOLDER`): one self-contained HTML page with the
// standings (each bot's Elo interval drawn on a common scale), the crosstable, the head-to-head
// pairs, the faults and every match, linked to its viewer page (html.hpp) or its replay. Its HTML,
// CSS and JavaScript are referee/render/web/league.{html,css,js}, embedded at build time; the
// league's data is embedded as JSON (script_safe_json), and the script puts every text of it into
// the page as text, never as markup. This layer takes the league as JSON: the folder's files and
// each match's data come from league/folder.hpp (read beneath the folder, never through a link),
// put together by the command (referee/cli/html_cmd.cpp).

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "referee/core/result.hpp"

namespace arena::render {

// Version of the embedded data's layout, read by league.js.
inline constexpr int kLeaguePageFormat = 1;

struct LeaguePage {
  std::string name;  // the league folder's name: the page's title
  // league.json as the league wrote it (or null): the page shows its game, format, seats, deals,
  // duplicate and seed, nothing else (not the bots' commands nor the working folder).
  nlohmann::json league = nullptr;
  nlohmann::json standings = nlohmann::json::object();  // standings.json, or league::standings_json()
  bool standings_from_journal = false;                  // no standings.json: computed from the journal
  // One object per match, in index order: index, deal, leg, seed, end, seats [{bot, score, rank}],
  // fault {seat, kind, message} or null, replay and page: the replay's and its viewer page's path
  // relative to the page's folder ('/'-separated), or null when there is none.
  nlohmann::json matches = nlohmann::json::array();
  std::size_t page_limit = 0;  // at most this many matches were given a viewer page
};

// The data league.js reads: {"format", "name", "league", "standings", "standings_source",
// "matches", "pages": {"limit"}}.
nlohmann::json league_page_data(const LeaguePage& page);

// The whole page. An error only when the embedded template is broken (a marker missing).
Result<std::string> league_page(const LeaguePage& page);

}  // namespace arena::render

namespace arena::render::web {

// referee/render/web/league.html (after the shared page_head.html, with its markers), league.css
// (after the shared page.css) and league.js, embedded by arena_embed_text()
// (referee/embed_text.cmake); the definitions are generated.
std::string league_html();
std::string league_css();
std::string league_js();

}  // namespace arena::render::web
