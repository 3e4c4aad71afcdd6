// The league page (`referee html LEAGUE_FOLDER`, render/league_page.cpp) on hand-made data: bot
// text cannot close the data's <script> element nor reach the title as markup, the page shows only
// some of league.json, and every marker of the template is filled. The page in a browser, on real
// leagues: tests/browser/league_test.js.

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>

#include "referee/render/html.hpp"
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

TEST_CASE("league page data gives the league's seed as text and every integer beyond 2^53 as text", "[league_page]") {
  render::LeaguePage page = hostile_page();
  page.league["seed"] = std::uint64_t{18446744073709551557u};
  page.matches[0]["seed"] = "9007199254740993";  // league/folder's page_match writes it as text
  page.standings["bots"][0]["stderr_bytes"] = std::uint64_t{9007199254740993u};
  const json data = render::league_page_data(page);
  CHECK(data["league"]["seed"] == "18446744073709551557");
  auto html = render::league_page(page);
  REQUIRE(html);
  CHECK_THAT(*html, Catch::Contains(R"("seed":"18446744073709551557")") &&
                        Catch::Contains(R"("stderr_bytes":"9007199254740993")") && Catch::Contains(R"("place":1)"));
  CHECK(html->find("18446744073709551557,") == std::string::npos);
}

TEST_CASE("exact_in_javascript: integers JavaScript cannot hold become their decimal text", "[league_page]") {
  const json in = {{"a", std::uint64_t{9007199254740991u}},
                   {"b", std::uint64_t{9007199254740992u}},
                   {"c", std::int64_t{-9007199254740992}},
                   {"d", json::array({1, std::uint64_t{18446744073709551615u}, 0.5, "x"})}};
  const json out = render::exact_in_javascript(in);
  CHECK(out["a"] == 9007199254740991u);  // Number.MAX_SAFE_INTEGER: exact
  CHECK(out["b"] == "9007199254740992");
  CHECK(out["c"] == "-9007199254740992");
  CHECK(out["d"] == json::array({1, "18446744073709551615", 0.5, "x"}));
}

TEST_CASE("league page draws a knockout's bracket from standings.rounds, bot text as data", "[league_page]") {
  render::LeaguePage page = hostile_page();
  page.standings["rounds"] = {{"format", "knockout"},
                              {"rounds", 1},
                              {"winner", kBot},
                              {"order", json::array({kBot, "b"})},
                              {"played", json::array({{{"round", 1},
                                                       {"complete", true},
                                                       {"byes", json::array()},
                                                       {"tables", json::array({{{"bots", json::array({kBot, "b"})},
                                                                                {"seeds", json::array({1, 2})},
                                                                                {"points", json::array({1.5, 0.5})},
                                                                                {"scores", json::array({10, 4})},
                                                                                {"first_match", 0},
                                                                                {"matches", 2},
                                                                                {"played", 2},
                                                                                {"winner", kBot},
                                                                                {"decided_by", "points"}}})}}})}};
  auto html = render::league_page(page);
  REQUIRE(html);
  // The section the script builds, and the script that fills it from standings.rounds.
  CHECK_THAT(*html, Catch::Contains("'data-testid': 'bracket'") && Catch::Contains("function drawRounds()") &&
                        Catch::Contains("standings.rounds"));
  const std::string open = R"(<script type="application/json" id="league-data">)";
  const std::size_t from = html->find(open);
  const std::string data = html->substr(from + open.size(), html->find("</script>", from) - from - open.size());
  CHECK(data.find('<') == std::string::npos);
  const json parsed = json::parse(data);
  CHECK(parsed["standings"]["rounds"]["winner"] == kBot);
  CHECK(parsed["standings"]["rounds"]["played"][0]["tables"][0]["bots"][0] == kBot);
  CHECK(html->find("<img") == std::string::npos);
}
