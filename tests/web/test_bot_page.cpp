// The bot page's pieces in this process (referee/web/bot_page.hpp, bot_records.hpp): every bot- and
// author-written text inert (a name, an author, a build log, a rejection and a fault with markup,
// quotes and script), logs drawn by the server only where ladder.json makes them public, the
// rating chart's bands only where a refit had an interval, and the head-to-head tallies.

#include <catch2/catch.hpp>
#include <string>

#include "referee/league/stats.hpp"
#include "referee/web/bot_page.hpp"
#include "referee/web/bot_records.hpp"

using namespace arena;
using namespace arena::web;

namespace {

const std::string kName = "x\"><script>alert('name')</script>";
const std::string kAuthor = "<img src=x onerror=alert(1)>'\"";
const std::string kLog = "</pre><script>alert(\"log\")</script>";
const std::string kFault = "<b onmouseover=\"alert('fault')\">'quoted'</b>";
const std::string kPlayFault = "<svg onload=alert(2)>";

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

ladder::GameRow game(ladder::Id id, std::vector<ladder::Id> seats, std::vector<int> ranks) {
  ladder::GameRow g;
  g.id = id;
  g.match = id;
  g.seats = std::move(seats);
  g.ranks = std::move(ranks);
  g.scores = {1, 0};
  g.end_ms = 1'700'000'000'000 + id * 60'000;
  return g;
}

// A bot of two versions: v1 rejected (markup in its log and reason), v2 active with a history and
// a fault in play, against one other bot.
struct Fixture {
  ladder::LadderConfig config;
  FirstFault fault{7, 3, 1, replay::FaultKind::crash, kPlayFault};
  BotView bot;
  Fixture() {
    config.game = "stellar";
    config.seats = 2;
    ladder::VersionRow v1;
    v1.id = 1;
    v1.bot = kName;
    v1.author = kAuthor;
    v1.number = 1;
    v1.state = ladder::VersionState::rejected;
    v1.build_log = kLog;
    v1.fault = kFault;
    ladder::VersionRow v2 = v1;
    v2.id = 2;
    v2.number = 2;
    v2.state = ladder::VersionState::active;
    v2.build_log = "built";
    v2.fault.clear();
    VersionView first;
    first.row.version = v1;
    VersionView second;
    second.row.version = v2;
    second.row.rating.games = 4;
    second.row.rating.rating = 30;
    second.row.rating.wins = 3;
    second.row.rating.losses = 1;
    second.history = {{2, 0, -league::kEloBound, league::kEloBound, 1, 1'700'000'000'000},
                      {2, 20, -80, 120, 3, 1'700'000'060'000},
                      {2, 30, -50, 110, 4, 1'700'000'120'000}};
    second.first_fault = &fault;
    bot.name = kName;
    bot.author = kAuthor;
    bot.versions = {first, second};
    bot.rivals = {Rivalry{"other", 4, 3, 0, 1, 1.25}};
    ladder::VersionRow other;
    other.id = 9;
    other.bot = "other";
    other.author = "bob";
    other.number = 1;
    bot.recent.versions = {v1, v2, other};
    bot.recent.games = {game(5, {2, 9}, {1, 2})};
  }
};

}  // namespace

TEST_CASE("bot page: markup, quotes and script in a name, an author, a log and faults are inert text", "[ladder]") {
  Fixture f;
  for (const bool logs_public : {true, false}) {
    f.config.logs_public = logs_public;
    const std::string page = bot_page(f.config, f.bot);
    INFO(page);
    for (const std::string& raw : {kName, kAuthor, kLog, kFault, kPlayFault})
      CHECK(page.find(raw) == std::string::npos);
    CHECK(page.find("<img") == std::string::npos);
    CHECK(page.find("<svg onload") == std::string::npos);
    CHECK(page.find("<b ") == std::string::npos);
    CHECK_THAT(page, Catch::Contains("&lt;img src=x onerror=alert(1)&gt;"));
    // The page's own script, when it has one, is the only one.
    CHECK(count(page, "<script") == (logs_public ? 0u : 1u));
    CHECK_THAT(page, Catch::Contains(R"(<a href="/matches/5/0#step=0">watch</a>)"));
    CHECK_THAT(page, Catch::Contains(R"(<a class="bot-link" href="/bots/other">other@v1</a>)"));
    CHECK_THAT(page, Catch::Contains(R"(<td class="num">3/0/1</td><td class="num">75%</td>)"));
    CHECK_THAT(page, Catch::Contains(R"(data-testid="rating-chart")"));
    // The rejected version has no rating to wait for; the active one its interval drawn.
    CHECK_THAT(page,
               Catch::Contains(R"(<td><span class="state-rejected">rejected</span></td><td class="hide-narrow">)"));
    CHECK_THAT(page, Catch::Contains(R"(<span class="elo-none">none</span>)"));
    CHECK(count(page, R"(class="elo-bar")") == 1);
    if (logs_public) {
      // Drawn by the server, escaped.
      CHECK_THAT(page, Catch::Contains("&lt;/pre&gt;&lt;script&gt;alert(&quot;log&quot;)&lt;/script&gt;"));
      CHECK_THAT(page, Catch::Contains("why it was rejected: &lt;b onmouseover="));
      CHECK_THAT(page, Catch::Contains("first fault in play: crash (&lt;svg onload=alert(2)&gt;)"));
      CHECK_THAT(page, Catch::Contains(R"(<a href="/matches/3/1#step=0">game 7</a>)"));
    } else {
      // Not on the page: its script reads them with the author's token.
      CHECK(page.find("alert(&quot;log&quot;)") == std::string::npos);
      CHECK(page.find("why it was rejected: &lt;") == std::string::npos);
      CHECK_THAT(page, Catch::Contains("read('/api/v1/versions/' + cell.dataset.logs, token)"));
      CHECK_THAT(page, Catch::Contains("sessionStorage.getItem(kTokenKey)"));
      CHECK(page.find(".innerHTML") == std::string::npos);
    }
  }
}

TEST_CASE("bot page: the rating chart draws each version's line, its interval only where it had one", "[ladder]") {
  Fixture f;
  const std::string chart = rating_chart(f.bot);
  CHECK(count(chart, "<polyline") == 1);                     // v1 never played
  CHECK(count(chart, R"(<polygon class="interval")") == 1);  // the two refits with an interval, one band
  CHECK_THAT(chart, Catch::Contains("+30 [-50, +110] after 4 games"));
  CHECK(chart.find("+1000") == std::string::npos);  // the unrated bounds do not stretch the scale
  f.bot.versions[1].history.resize(1);
  const std::string unrated = rating_chart(f.bot);
  CHECK(count(unrated, "<polygon") == 0);
  CHECK_THAT(unrated, Catch::Contains("(too few games for an interval)"));
  f.bot.versions[1].history.clear();
  CHECK_THAT(rating_chart(f.bot), Catch::Contains("No rating yet"));

  std::vector<ladder::RatingRow> long_history(1000);
  for (std::size_t i = 0; i < long_history.size(); ++i) long_history[i].games = i;
  const auto sampled = sample_history(long_history, kHistoryPoints);
  REQUIRE(sampled.size() == kHistoryPoints);
  CHECK(sampled.front().games == 0);
  CHECK(sampled.back().games == 999);
}

TEST_CASE("bot records: head to head by bot over every version, pairwise results and places, first faults",
          "[ladder]") {
  BotRecords records;
  records.add(game(1, {1, 9}, {1, 2}));        // a (v1) beats b
  records.add(game(2, {9, 2}, {1, 1}));        // a (v2) draws with b
  records.add(game(3, {2, 9, 8}, {3, 2, 1}));  // three seats: a last, behind b and c
  ladder::GameRow faulted = game(4, {2, 8}, {2, 1});
  faulted.fault_seat = 0;
  faulted.fault_kind = replay::FaultKind::timeout;
  faulted.fault_message = "late";
  records.add(faulted);
  records.add(game(5, {1, 2}, {1, 2}));  // a against itself: no rival
  const std::map<ladder::Id, std::string> bot_of{{1, "a"}, {2, "a"}, {8, "c"}, {9, "b"}};
  const std::vector<Rivalry> rivals = records.of({1, 2}, bot_of);
  REQUIRE(rivals.size() == 2);
  CHECK(rivals[0].opponent == "b");
  CHECK(rivals[0].games == 3);
  CHECK(rivals[0].wins == 1);
  CHECK(rivals[0].draws == 1);
  CHECK(rivals[0].losses == 1);
  CHECK(rivals[0].mean_place == Approx((1 + 1 + 3) / 3.0));
  CHECK(rivals[0].score() == Approx(0.5));
  CHECK(rivals[1].opponent == "c");
  CHECK(rivals[1].games == 2);
  CHECK(rivals[1].losses == 2);
  const FirstFault* first = records.first_fault(2);
  REQUIRE(first != nullptr);
  CHECK(first->game == 4);
  CHECK(first->kind == replay::FaultKind::timeout);
  CHECK(records.first_fault(1) == nullptr);
  CHECK(records.of({9}, bot_of).size() == 2);  // b met a and c
}
