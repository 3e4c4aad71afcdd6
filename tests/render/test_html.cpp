// The web viewer's page (`referee html`, render/html.cpp) on in-process replays: the game comes
// from the registry only (an unknown one is refused by name), the page embeds the game's own web
// module and card table, each frame carries the legal actions of the seat to act (the last one of
// a match a bot forfeited: those of the request it got wrong), the title names no result, and the
// data (gzip in base64) cannot close its <script> element and keeps 64-bit seeds exact. The page
// in a browser: tests/browser.

#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>

#include "referee/games/game.hpp"
#include "referee/render/html.hpp"
#include "referee/render/page_data.hpp"
#include "tests/render/helpers.hpp"

using namespace arena;
using Catch::Contains;
using nlohmann::json;

namespace {

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// A random replay under the rules revision this referee implements.
replay::Replay random_replay(const std::string& game, int seats, std::uint64_t seed) {
  replay::Replay r = testing::random_replay(game, seats, seed);
  r.header.rules_revision = games::find_game(game)->info().rules_revision;
  return r;
}

std::string title_of(const std::string& page) {
  const std::size_t from = page.find("<title>");
  const std::size_t to = page.find("</title>");
  REQUIRE(from != std::string::npos);
  REQUIRE(to != std::string::npos);
  return page.substr(from + 7, to - from - 7);
}

constexpr std::string_view kDataOpen = "<script type=\"text/plain\" id=\"match-data\" data-encoding=\"gzip base64\">";

// The data block of a page as it stands (base64 text).
std::string data_block(const std::string& page) {
  const std::size_t from = page.find(kDataOpen);
  REQUIRE(from != std::string::npos);
  const std::size_t to = page.find("</script>", from);
  REQUIRE(to != std::string::npos);
  return page.substr(from + kDataOpen.size(), to - from - kDataOpen.size());
}

// The JSON text the page's data block holds, inflated.
std::string data_text(const std::string& page) {
  auto text = render::gunzip_base64(data_block(page), std::size_t{1} << 30);
  INFO((text.ok() ? std::string() : text.error()));
  REQUIRE(text.ok());
  return *text;
}

}  // namespace

TEST_CASE("html_page embeds the replay's game's module, card table and title from the registry", "[render][html]") {
  const std::string game_name = GENERATE(std::string("stellar"), std::string("stella_quest"));
  CAPTURE(game_name);
  const games::Game* game = games::find_game(game_name);
  REQUIRE(game != nullptr);
  const replay::Replay r = random_replay(game_name, 2, 4);

  auto page = render::html_page(r, "match.jsonl");
  INFO((page.ok() ? std::string() : page.error()));
  REQUIRE(page.ok());
  const games::WebModule module = game->web_module();
  REQUIRE_FALSE(module.script.empty());
  CHECK(count(*page, module.script) == 1);
  CHECK(count(*page, module.style) >= 1);
  CHECK(count(*page, "ArenaViewer.start();") == 1);
  CHECK(count(*page, "@@") == 0);  // every marker replaced

  // Spoiler-free: the game's title, the seed and the bots, nothing about the result.
  CHECK(title_of(*page) == fmt::format("{} seed 4: player0 vs player1", game->info().title));

  auto data = render::viewer_data(r, "match.jsonl");
  REQUIRE(data.ok());
  CHECK(data->at("game") == json{{"name", game_name}, {"title", game->info().title}});
  CHECK(data->at("cards") == game->card_table(r.header.config, replay::seat_configs(r.header)));
  CHECK(data->at("source") == "match.jsonl");
}

TEST_CASE("viewer_data gives each frame the legal actions of the seat to act", "[render][html]") {
  const std::string game_name = GENERATE(std::string("stellar"), std::string("stella_quest"));
  CAPTURE(game_name);
  const replay::Replay r = random_replay(game_name, 2, 6);
  auto data = render::viewer_data(r, "x.jsonl");
  INFO((data.ok() ? std::string() : data.error()));
  REQUIRE(data.ok());
  const json& frames = data->at("frames");
  REQUIRE(frames.size() == r.steps.size() + 1);
  for (std::size_t i = 0; i < r.steps.size(); ++i) {
    CAPTURE(i);
    const json& legal = frames[i].at("legal");
    REQUIRE(legal.is_array());
    CHECK(std::find(legal.begin(), legal.end(), r.steps[i].action) != legal.end());
  }
  CHECK(frames.back().at("legal").is_null());
}

TEST_CASE("viewer_data keeps the legal actions of the request a bot got wrong, in the last frame", "[render][html]") {
  // Real matches a faulty bot forfeits in a decision: the table at the end is the one it was asked
  // about, so the last frame's legal list is that request's (the viewer marks the answer there).
  const std::string mode = GENERATE(std::string("illegal"), std::string("garbage"));
  CAPTURE(mode);
  auto r = replay::read(
      testing::play("stellar", {testing::faulty_bot(mode + " --at 3"), testing::random_bot()}, 4, "fault-" + mode));
  INFO((r.ok() ? std::string() : r.error()));
  REQUIRE(r.ok());
  REQUIRE(r->footer);
  const json fault = r->footer->result.at("fault");
  CHECK(fault.at("phase") == "decision");
  auto data = render::viewer_data(*r, "fault.jsonl");
  REQUIRE(data.ok());
  const json& last = data->at("frames").back();
  CHECK(last.at("to_act") == fault.at("seat"));
  REQUIRE(last.at("legal").is_array());
  CHECK_FALSE(last.at("legal").empty());
  const json bad = {{"kind", "take"}, {"slot", 99}};  // what faulty_bot illegal answers
  CHECK(std::find(last.at("legal").begin(), last.at("legal").end(), bad) == last.at("legal").end());
  CHECK(data->at("footer").at("result").at("fault").at("request_id") == fault.at("request_id"));
}

TEST_CASE("html_page refuses a replay of a game the referee does not know, by name", "[render][html]") {
  replay::Replay r = random_replay("stellar", 2, 1);
  r.header.game = "chess";
  auto page = render::html_page(r, "x.jsonl");
  REQUIRE_FALSE(page.ok());
  CHECK(page.error() == "the replay's game \"chess\" is not one this referee knows");
  auto data = render::viewer_data(r, "x.jsonl");
  REQUIRE_FALSE(data.ok());
  CHECK_THAT(data.error(), Contains("\"chess\""));
}

TEST_CASE("bot text cannot end the page's data block", "[render][html]") {
  replay::Replay r = random_replay("stellar", 2, 2);
  r.header.bots[0].name = "</title><script>x()</script>";
  r.steps[0].debug = "</script><!-- & </SCRIPT>";
  auto page = render::html_page(r, "x.jsonl");
  REQUIRE(page.ok());
  const std::string block = data_block(*page);
  CHECK(block.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=") ==
        std::string::npos);
  const std::string text = data_text(*page);
  CHECK(text.find('<') == std::string::npos);  // the JSON inside is script-safe too
  const json data = json::parse(text);
  CHECK(data.at("header").at("bots").at(0).at("name") == "</title><script>x()</script>");
  CHECK(data.at("steps").at(0).at("debug") == "</script><!-- & </SCRIPT>");
  CHECK(title_of(*page).find('<') == std::string::npos);
  CHECK(render::script_safe_json(json("</script>&")) == "\"\\u003c/script\\u003e\\u0026\"");
}

TEST_CASE("the viewer takes the result only from a footer that verifies", "[render][html][forged]") {
  const std::string game_name =
      GENERATE(std::string("stellar"), std::string("stella_quest"), std::string("interstellar"));
  CAPTURE(game_name);
  const replay::Replay honest = random_replay(game_name, 2, 11);
  auto data = render::viewer_data(honest, "honest.jsonl");
  REQUIRE(data.ok());
  CHECK(data->at("unverified").is_null());
  REQUIRE(data->at("footer").is_object());
  json shown = honest.footer->result;
  shown["seed"] = std::to_string(honest.header.seed);  // the page's 64-bit numbers are text
  CHECK(data->at("footer").at("result") == shown);

  // The footer's winner and ranks handed to the other seat, as someone editing the file would.
  replay::Replay forged = honest;
  json& result = forged.footer->result;
  const json ranks = result.at("ranks");
  result["ranks"] = json{ranks.at(1), ranks.at(0)};
  result["winner"] = result.at("winner").is_null() ? json(0) : json(1 - result.at("winner").get<int>());
  auto page_data = render::viewer_data(forged, "forged.jsonl");
  REQUIRE(page_data.ok());
  CHECK(page_data->at("footer").is_null());  // nothing of the forged footer reaches the page
  REQUIRE(page_data->at("unverified").is_string());
  CHECK_THAT(page_data->at("unverified").get<std::string>(), Contains("result."));
  auto page = render::html_page(forged, "forged.jsonl");
  REQUIRE(page.ok());
  CHECK(count(*page, "Unverified replay") == 1);  // the viewer's notice (viewer_result.js)
}

TEST_CASE("the viewer's seeds are text: a seed beyond 2^53 reaches the page exactly", "[render][html]") {
  const std::uint64_t seed = 18446744073709551557u;
  const replay::Replay r = random_replay("stellar", 2, seed);
  auto data = render::viewer_data(r, "big-seed.jsonl");
  REQUIRE(data.ok());
  CHECK(data->at("header").at("seed") == "18446744073709551557");
  CHECK(data->at("footer").at("result").at("seed") == "18446744073709551557");
  auto page = render::html_page(r, "big-seed.jsonl");
  REQUIRE(page.ok());
  const std::string text = data_text(*page);
  CHECK(count(text, "\"seed\":\"18446744073709551557\"") == 2);
  CHECK(count(text, "\"seed\":18446744073709551557") == 0);
}

TEST_CASE("the page's data is gzip in base64: a long match's page is a fraction of its JSON", "[render][html]") {
  const replay::Replay r = random_replay("interstellar", 2, 21);
  auto page = render::html_page(r, "long.jsonl");
  REQUIRE(page.ok());
  auto data = render::viewer_data(r, "long.jsonl");
  REQUIRE(data.ok());
  const std::string text = data_text(*page);
  CHECK(text == render::script_safe_json(*data));
  CHECK(data_block(*page).size() * 4 < text.size());  // the repeated frames compress well
}

TEST_CASE("gzip_base64 and gunzip_base64 round-trip any bytes, and a broken block is an error", "[render][html]") {
  for (const std::string& bytes : {std::string(), std::string("a"), std::string("ab"), std::string("abc"),
                                   std::string("\0\xff\x80 <\"&", 7), std::string(100000, 'x')}) {
    CAPTURE(bytes.size());
    const std::string encoded = render::gzip_base64(bytes);
    CHECK(encoded.size() % 4 == 0);
    auto back = render::gunzip_base64(encoded, bytes.size() + 1);
    INFO((back.ok() ? std::string() : back.error()));
    REQUIRE(back.ok());
    CHECK(*back == bytes);
  }
  const std::string good = render::gzip_base64(std::string(5000, 'y'));
  auto cut = render::gunzip_base64(good.substr(0, good.size() - 8), 1 << 20);
  REQUIRE_FALSE(cut.ok());
  CHECK_THAT(cut.error(), Contains("gzip data is broken"));
  auto odd = render::gunzip_base64(good.substr(1), 1 << 20);
  REQUIRE_FALSE(odd.ok());
  CHECK_THAT(odd.error(), Contains("not a multiple of 4"));
  auto alien = render::gunzip_base64("ab<d" + good.substr(4), 1 << 20);
  REQUIRE_FALSE(alien.ok());
  CHECK(alien.error() == "character 2 of the base64 text is not base64");
  auto big = render::gunzip_base64(good, 4999);
  REQUIRE_FALSE(big.ok());
  CHECK(big.error() == "the compressed data inflates past 4999 bytes");
}
