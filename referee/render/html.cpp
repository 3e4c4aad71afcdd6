#include "referee/render/html.hpp"

#include "referee/core/markup.hpp"

#include <array>
#include <cstddef>
#include <utility>

#include <fmt/format.h>

#include "referee/games/stella_quest/cards.hpp"
#include "referee/games/stellar/cards.hpp"
#include "referee/games/stellar/json.hpp"
#include "referee/render/frames.hpp"
#include "referee/render/web_assets.hpp"

namespace arena::render {

using nlohmann::json;

namespace {

// Version of the embedded data's layout, read by viewer.js.
constexpr int kViewerFormat = 1;

// Every card of the game by id, as the viewer draws it.
Result<json> card_table(const replay::Header& header) {
  json cards = json::array();
  if (header.game == "stellar") {
    auto config = stellar::config_from_json(header.config);
    if (!config) return fail(config.error());
    const auto& deck = config->deck;
    for (std::size_t id = 0; id < deck.size(); ++id) {
      cards.push_back(stellar::card_to_json(deck[id], static_cast<stellar::CardId>(id)));
    }
    return cards;
  }
  if (header.game == "stella_quest") {
    const auto& table = stella_quest::card_table();
    for (std::size_t id = 0; id < table.size(); ++id) {
      const auto& c = table[id];
      cards.push_back({{"id", id},
                       {"name", c.name},
                       {"colour", std::string(stella_quest::colour_name(c.colour))},
                       {"number", c.number},
                       {"jewels", c.jewels}});
    }
    return cards;
  }
  return fail(fmt::format("the web viewer cannot draw the game \"{}\"", header.game));
}

// The template with each marker replaced once, in a single pass over the template, so text that
// is inserted (bot names, debug text) is never searched for markers itself.
Result<std::string> fill(const std::string& page, const std::array<std::pair<std::string_view, std::string>, 4>& parts) {
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
  for (const auto& p : parts) {
    std::size_t count = 0;
    for (std::size_t at = page.find(p.first); at != std::string::npos; at = page.find(p.first, at + 1)) ++count;
    if (count != 1) return fail(fmt::format("the viewer template has {} markers {} (expected one)", count, p.first));
  }
  return out;
}

}  // namespace

std::string script_safe_json(const json& j) {
  const std::string text = j.dump(-1, ' ', false, json::error_handler_t::replace);
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
  auto frames = simulate(replay);
  if (!frames) return fail(frames.error());
  auto cards = card_table(replay.header);
  if (!cards) return fail(cards.error());

  json steps = json::array();
  for (const replay::Step& s : replay.steps) steps.push_back(replay::to_json(s));
  json frame_list = json::array();
  for (auto& f : *frames) {
    frame_list.push_back({{"step", f.step}, {"to_act", f.to_act}, {"state", std::move(f.state)}, {"views", std::move(f.views)}});
  }
  return json{{"format", kViewerFormat},
              {"source", source_name},
              {"header", replay::to_json(replay.header)},
              {"cards", std::move(cards).value()},
              {"steps", std::move(steps)},
              {"frames", std::move(frame_list)},
              {"footer", replay.footer ? replay::to_json(*replay.footer) : json(nullptr)}};
}

Result<std::string> html_page(const replay::Replay& replay, const std::string& source_name) {
  auto data = viewer_data(replay, source_name);
  if (!data) return fail(data.error());
  std::string players;
  for (const auto& b : replay.header.bots) players += (players.empty() ? "" : " vs ") + (b.name.empty() ? std::string("?") : b.name);
  const std::string title = fmt::format("{} seed {}: {}", replay.header.game, replay.header.seed, players);
  return fill(web::viewer_html(), {{{"@@TITLE@@", markup_escape(title)},
                                    {"@@STYLE@@", web::viewer_css()},
                                    {"@@DATA@@", script_safe_json(*data)},
                                    {"@@SCRIPT@@", web::viewer_js()}}});
}

}  // namespace arena::render
