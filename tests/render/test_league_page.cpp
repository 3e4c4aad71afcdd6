// The league page (`referee html LEAGUE_FOLDER`, render/league_page.cpp) on hand-made data: bot
// text cannot close the data's <script> element nor reach the title as markup, the page shows only
// some of league.json, and every marker of the template is filled. The page in a browser, on real
// leagues: tests/browser/league_test.js.

#include <catch2/catch.hpp>
#include <string>

#include "referee/render/league_page.hpp"

using namespace arena;
using nlohmann::json;

namespace {

const std::string kBot = "</script><img src=x onerror=alert(1)>@@DATA@@";

render::LeaguePage hostile_page() {
  render::LeaguePage page;
  page.name = "<b>league</b>";
  page.league = {{"game", "stellar"},
                 {"seats", 2},
                 {"working_dir", "/home/organiser"},
                 {"bots", json::array({{{"name", kBot}, {"command", "secret --token"}}})}};
  page.standings = {{"bots", json::array({{{"name", kBot}, {"place", 1}}})}, {"pairs", json::array()}};
  page.matches = json::array({{{"index", 0},
                               {"seats", json::array({{{"bot", kBot}, {"score", 1}, {"rank", 1}}})},
                               {"fault", {{"seat", 0}, {"kind", "malformed"}, {"message", "</SCRIPT><!--"}}}}});
  page.page_limit = 7;
  return page;
}

}  // namespace

TEST_CASE("league page keeps bot text inside its data element", "[league_page]") {
  auto page = render::league_page(hostile_page());
  REQUIRE(page);
  // The data element holds no '<' at all (script_safe_json), so it ends at the template's own
  // "</script>" and reads back as the bot's text, "@@DATA@@" in it unreplaced.
  const std::string open = R"(<script type="application/json" id="league-data">)";
  const std::size_t from = page->find(open);
  REQUIRE(from != std::string::npos);
  const std::size_t to = page->find("</script>", from);
  const std::string data = page->substr(from + open.size(), to - from - open.size());
  CHECK(data.find('<') == std::string::npos);
  const json parsed = json::parse(data);
  CHECK(parsed["standings"]["bots"][0]["name"] == kBot);
  CHECK(parsed["matches"][0]["fault"]["message"] == "</SCRIPT><!--");
  for (const char* marker : {"@@TITLE@@", "@@STYLE@@", "@@SCRIPT@@"}) CHECK(page->find(marker) == std::string::npos);
  CHECK(page->find("<img") == std::string::npos);
  CHECK(page->find("<title>League &lt;b&gt;league&lt;/b&gt; (stellar)</title>") != std::string::npos);
}

TEST_CASE("league page data shows the league's settings but not its commands", "[league_page]") {
  const json data = render::league_page_data(hostile_page());
  CHECK(data["format"] == render::kLeaguePageFormat);
  CHECK(data["league"] == json({{"game", "stellar"}, {"seats", 2}}));
  CHECK(data["standings_source"] == "standings.json");
  CHECK(data["pages"]["limit"] == 7);
  CHECK(data["matches"].size() == 1);
  CHECK(data.dump().find("secret") == std::string::npos);
}
