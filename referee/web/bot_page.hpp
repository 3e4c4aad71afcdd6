#pragma once
// The bot page, GET /bots/NAME (docs/ladder.md "The web pages"): every version of one bot with its
// state, rating and build log, a chart of its rating over time with the intervals drawn (inline
// SVG, from the ratings table's history), its head-to-head record against every other bot, and
// its recent games linked to the match viewer. Server-rendered, every bot- and author-written text
// escaped; build logs and faults drawn by the server when ladder.json makes them public, else read
// by the page's script with the author's token.

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "referee/ladder/config.hpp"
#include "referee/ladder/leaderboard.hpp"
#include "referee/ladder/store.hpp"
#include "referee/web/bot_records.hpp"
#include "referee/web/pages.hpp"

namespace arena::web {

// At most this many points of each version's rating history are drawn and returned.
inline constexpr std::size_t kHistoryPoints = 200;

// One version as the bot page shows it.
struct VersionView {
  ladder::BoardRow row;                     // the version and its rating now (games 0: it has not played)
  std::vector<ladder::RatingRow> history;   // its rating after each refit, oldest first (sampled)
  const FirstFault* first_fault = nullptr;  // its first fault in play, if any
};

struct BotView {
  std::string name;
  std::string author;
  std::vector<VersionView> versions;  // oldest first
  std::vector<Rivalry> rivals;        // by the other bot's name
  GamesFound recent;                  // its latest counted games, newest first
};

// At most `points` rows of `history`, evenly spaced, its first and last kept.
std::vector<ladder::RatingRow> sample_history(const std::vector<ladder::RatingRow>& history, std::size_t points);

// The chart of every version's rating over time (x: the time of each refit; y: the rating, its 95%
// interval drawn as a band), inline SVG; a note when no version has a rating yet.
std::string rating_chart(const BotView& bot);

std::string bot_page(const ladder::LadderConfig& config, const BotView& bot);

}  // namespace arena::web
