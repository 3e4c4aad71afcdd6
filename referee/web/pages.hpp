#pragma once
// The ladder's web pages (docs/ladder.md "The web pages"), served by the API's server next to
// /api/v1/: server-rendered HTML in the viewer's colours, every bot- and author-written text
// escaped; a page's script refreshes what the server drew from the JSON API.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "referee/core/result.hpp"
#include "referee/ladder/config.hpp"
#include "referee/ladder/leaderboard.hpp"
#include "referee/ladder/store.hpp"

namespace arena::web {

// The Content-Security-Policy of every page: nothing from elsewhere, requests to this server only.
inline constexpr const char* kPagePolicy =
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; "
    "base-uri 'none'; form-action 'self'";
// The match viewer's (a page of `referee html`, self-contained): also images from data: URLs.
inline constexpr const char* kViewerPolicy =
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; base-uri 'none'; "
    "form-action 'none'";

// A time (ms since 1970) to the minute in UTC, "2026-11-27 13:40"; "-" for 0 (never).
std::string minute_text(std::int64_t ms);

// GET /: the leaderboard (rank, bot, author, version, rating with its interval drawn, games,
// W/D/L or places, faults, last match), refreshing itself from GET /api/v1/leaderboard.
std::string leaderboard_page(const ladder::LadderConfig& config, const std::vector<ladder::BoardRow>& rows,
                             std::size_t games);

// GET /matches/ID/LEG: the replay viewer (`referee html`'s page) of a counted leg's replay, from
// the database; deep links as the viewer's (#step=N&seat=K). An error when the replay does not
// parse or re-simulate.
Result<std::string> match_page(const std::string& replay_text, const std::string& source_name);

// Counted games, newest first, with every version (to name the seats); `next_before`: the id to
// pass as `before` for the next page, when there are more.
struct GamesFound {
  std::vector<ladder::GameRow> games;
  std::vector<ladder::VersionRow> versions;
  std::optional<ladder::Id> next_before;
};

// GET /matches[?bot=NAME][&fault=KIND][&before=GAME]: the recent counted games with their filters
// (a form), each leg linked to its viewer (/matches/ID/LEG).
std::string matches_page(const ladder::LadderConfig& config, const GamesFound& found,
                         const std::map<std::string, std::string>& query);

// GET /organiser: the workers with their last heartbeat, the queue, the rejected versions with
// why, and the events; the page holds no data until the organiser's token is typed in (its script
// reads /api/v1/status, queue, versions?state=rejected and events with it, every 5 s).
std::string organiser_page(const ladder::LadderConfig& config);

// --- Pieces the pages share (pages.cpp)

// The style sheet of every page: the league page's and the pages' own (`forms`: also the forms').
std::string page_style(bool forms);

// The scale every interval bar of one table shares: each interval's ends and 0, with a margin.
struct RatingScale {
  double lo = -1;
  double hi = 1;
  std::string at(double x) const;  // "12.34%" along the bar
};
RatingScale rating_scale(const std::vector<ladder::BoardRow>& rows);
// A rating as text and with its interval drawn ("placing" before its first game).
std::string rating_cell(const ladder::VersionRating& r, const RatingScale& s);
// W/D/L (two seats) or the places (1st/2nd/...).
std::string record_text(const ladder::VersionRating& r);
// `text` (escaped) as a link to the bot's page, /bots/NAME.
std::string bot_link(const std::string& name, const std::string& text);
// The table of games (id "games"): each game's id, when it ended, its seats (bot@vN linked to the
// bot's page, the winner in bold), its scores or its fault, and its viewer (#step=0).
std::string games_table(const GamesFound& found);

// GET /submit: the upload form (token, name, file, language), sent by its script to
// POST /api/v1/submit with the token as its Bearer header; the answer shown as text.
std::string submit_page(const ladder::LadderConfig& config);

// GET /me: the account page; it holds no data until a token is typed in (or the one this tab's
// submit page kept): its script reads /api/v1/me and /api/v1/bots with it and lists the
// account's bots (every bot for the organiser), each linked to its page.
std::string account_page(const ladder::LadderConfig& config);

}  // namespace arena::web
