#include "referee/render/html.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>
#include <utility>

#include "referee/core/markup.hpp"
#include "referee/games/game.hpp"
#include "referee/render/frames.hpp"
#include "referee/render/page_data.hpp"
#include "referee/render/web_assets.hpp"

namespace arena::render {

using nlohmann::json;

namespace {

// Version of the embedded data's layout, read by viewer.js. 2: "game" (name and title), "cards"
// may be null, frames carry "legal" and "progress" (Frame::progress; null when the game gives
// none, absent in older pages: the viewer then shows no running score).
constexpr int kViewerFormat = 2;

constexpr std::size_t kMarkers = 6;
using Parts = std::array<std::pair<std::string_view, std::string>, kMarkers>;

// The template with each marker replaced once, in a single pass over the template, so text that
// is inserted (bot names, debug text, a game's script) is never searched for markers itself.
Result<std::string> fill(const std::string& page, const Parts& parts) {
  for (const auto& p : parts) {
    std::size_t count = 0;
    for (std::size_t at = page.find(p.first); at != std::string::npos; at = page.find(p.first, at + 1)) ++count;
    if (count != 1) return fail(fmt::format("the viewer template has {} markers {} (expected one)", count, p.first));
  }
  std::string out;
  std::size_t from = 0;
  while (from < page.size()) {
    std::size_t next = std::string::npos;
    const std::pair<std::string_view, std::string>* part = nullptr;
    for (const auto& p : parts) {
      const std::size_t at = page.find(p.first, from);
      if (at < next) {
        next = at;
        part = &p;
      }
    }
    if (part == nullptr) {
      out.append(page, from, std::string::npos);
      break;
    }
    out.append(page, from, next - from);
    out.append(part->second);
    from = next + part->first.size();
  }
  return out;
}

bool contains_nocase(std::string_view text, std::string_view needle) {
  return std::search(text.begin(), text.end(), needle.begin(), needle.end(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
         }) != text.end();
}

// A game's web module goes into the page's <script> and <style> elements as it is: build-time text
// (games/<game>/web/, checked by embed_text.cmake), never data. Checked again here, for a game
// whose module is made some other way, so that it can never end its element early.
Status check_module(const std::string& game, const games::WebModule& module) {
  if (contains_nocase(module.script, "</script")) {
    return fail(fmt::format("the web module of the game \"{}\" has \"</script\" in its script", game));
  }
  if (contains_nocase(module.style, "</style")) {
    return fail(fmt::format("the web module of the game \"{}\" has \"</style\" in its style", game));
  }
  return {};
}

Result<const games::Game*> game_of(const replay::Header& header) {
  const games::Game* game = games::find_game(header.game);
  if (game == nullptr) return fail(fmt::format("the replay's game \"{}\" is not one this referee knows", header.game));
  return game;
}

// The legal actions at a frame (what the seat to act was offered), or null once the game is over.
Result<json> legal_actions(const games::Game& game, const Frame& frame) {
  if (frame.to_act < 0) return json(nullptr);
  auto state = game.state_from_json(frame.state);
  if (!state) return fail(fmt::format("frame {}: {}", frame.step, state.error()));
  json legal = json::array();
  for (json& a : (*state)->legal_actions()) legal.push_back(std::move(a));
  return legal;
}

}  // namespace

json exact_in_javascript(json j) {
  constexpr std::uint64_t kExact = (std::uint64_t{1} << 53) - 1;  // Number.MAX_SAFE_INTEGER
  if (j.is_number_unsigned()) {
    if (j.get<std::uint64_t>() > kExact) return std::to_string(j.get<std::uint64_t>());
  } else if (j.is_number_integer()) {
    const std::int64_t v = j.get<std::int64_t>();
    if (v > static_cast<std::int64_t>(kExact) || v < -static_cast<std::int64_t>(kExact)) return std::to_string(v);
  } else if (j.is_structured()) {
    for (json& child : j) child = exact_in_javascript(std::move(child));
  }
  return j;
}

std::string script_safe_json(const json& j) {
  const std::string text = exact_in_javascript(j).dump(-1, ' ', false, json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size() + text.size() / 16);
  for (char c : text) {
    switch (c) {
      case '<':
        out += "\\u003c";
        break;
      case '>':
        out += "\\u003e";
        break;
      case '&':
        out += "\\u0026";
        break;
      default:
        out += c;
    }
  }
  return out;
}

Result<json> viewer_data(const replay::Replay& replay, const std::string& source_name) {
  auto game = game_of(replay.header);
  if (!game) return fail(game.error());
  auto frames = simulate(replay);
  if (!frames) return fail(frames.error());

  replay::Replay with_views = replay;
  restore_views(with_views, *frames);
  json steps = json::array();
  for (const replay::Step& s : with_views.steps) steps.push_back(replay::to_json(s));
  json frame_list = json::array();
  for (auto& f : *frames) {
    auto legal = legal_actions(**game, f);
    if (!legal) return fail(legal.error());
    frame_list.push_back({{"step", f.step},
                          {"to_act", f.to_act},
                          {"state", std::move(f.state)},
                          {"views", std::move(f.views)},
                          {"legal", std::move(legal).value()},
                          {"progress", std::move(f.progress)}});
  }
  // The result comes only from what verify accepts: a footer that does not verify is left out
  // and the page says why (a footer someone edited names no winner).
  json footer = nullptr, unverified = nullptr;
  if (replay.footer) {
    const replay::Verification v = replay::verify(replay);
    if (v.ok && v.result) {
      json result = replay::to_json(*v.result);
      result["seed"] = std::to_string(v.result->seed);  // as every 64-bit number of a page: text
      footer = replay::to_json(replay::Footer{v.result->end, std::move(result)});
    } else {
      unverified = v.message;
    }
  }
  json header = replay::to_json(replay.header);
  header["seed"] = std::to_string(replay.header.seed);
  const games::GameInfo& info = (*game)->info();
  return json{{"format", kViewerFormat},
              {"source", source_name},
              {"game", {{"name", info.name}, {"title", info.title}}},
              {"header", std::move(header)},
              {"cards", (*game)->card_table(replay.header.config, replay::seat_configs(replay.header))},
              {"steps", std::move(steps)},
              {"frames", std::move(frame_list)},
              {"footer", std::move(footer)},
              {"unverified", std::move(unverified)}};
}

Result<std::string> html_page(const replay::Replay& replay, const std::string& source_name) {
  auto game = game_of(replay.header);
  if (!game) return fail(game.error());
  const games::WebModule module = (*game)->web_module();
  if (auto checked = check_module(replay.header.game, module); !checked) return fail(checked.error());
  auto data = viewer_data(replay, source_name);
  if (!data) return fail(data.error());
  // The title names the game, the seed and the bots, never the result: it shows in tab bars and
  // window lists before anyone opens the page.
  std::string players;
  for (const auto& b : replay.header.bots)
    players += (players.empty() ? "" : " vs ") + (b.name.empty() ? std::string("?") : b.name);
  const std::string title = fmt::format("{} seed {}: {}", (*game)->info().title, replay.header.seed, players);
  return fill(web::viewer_html(), {{{"@@TITLE@@", markup_escape(title)},
                                    {"@@STYLE@@", web::viewer_css()},
                                    {"@@GAME_STYLE@@", module.style},
                                    {"@@DATA@@", gzip_base64(script_safe_json(*data))},
                                    {"@@SCRIPT@@", web::viewer_js()},
                                    {"@@GAME_SCRIPT@@", module.script}}});
}

}  // namespace arena::render
