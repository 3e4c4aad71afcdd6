// The generic drawing of a game: what a game without its own drawing is shown with, in the
// terminal and in the web viewer (which has its own generic module). Nothing here knows a game.

#include "referee/games/game.hpp"

#include <fmt/format.h>

namespace arena::games {

namespace {

// A JSON value as indented lines, each cleaned for the terminal and cut to the page width.
std::string json_lines(const json& value, std::string_view indent) {
  const std::string text = value.dump(2, ' ', false, json::error_handler_t::replace);
  std::string out;
  std::size_t from = 0;
  while (from <= text.size()) {
    const std::size_t end = std::min(text.find('\n', from), text.size());
    out += std::string(indent) +
           draw::clean(std::string_view(text).substr(from, end - from), draw::kWidth - indent.size()) + "\n";
    from = end + 1;
  }
  return out;
}

}  // namespace

json Game::card_table(const json&, const std::vector<json>&) const {
  return nullptr;
}

json Game::whole_table(const std::vector<json>& views) const {
  return {{"views", views}};
}

std::string Game::draw_table(const json& table, const draw::SeatNames& names, const draw::Style& style) const {
  if (table.is_object() && table.contains("views") && table.at("views").is_array()) {
    std::string out;
    const json& views = table.at("views");
    for (std::size_t s = 0; s < views.size(); ++s) {
      out += style.bold(fmt::format("{} sees:", names.seat(static_cast<int>(s)))) + "\n";
      out += json_lines(views[s], "  ");
    }
    return out;
  }
  return json_lines(table, "");
}

std::string Game::describe_action(const json&, const json& action) const {
  return "plays " + draw::one_line(action);
}

std::string Game::draw_outcome(const json& outcome, const json&, const draw::SeatNames& names,
                               const draw::Style&) const {
  std::string out;
  if (outcome.is_object() && outcome.contains("scores") && outcome.at("scores").is_array()) {
    std::vector<std::string> scores;
    const json& s = outcome.at("scores");
    for (std::size_t i = 0; i < s.size(); ++i)
      scores.push_back(fmt::format("{} {}", names.seat(static_cast<int>(i)), draw::one_line(s[i], 20)));
    out += draw::wrap("scores: ", scores, ", ", 4);
  }
  return out + "outcome:\n" + json_lines(outcome, "  ");
}

std::string Game::describe_seat_config(const json& seat_config) const {
  return draw::one_line(seat_config, 300);
}

WebModule Game::web_module() const {
  return {};
}

std::string game_names() {
  std::string out;
  for (const Game* g : all_games()) out += (out.empty() ? "" : ", ") + g->info().name;
  return out;
}

std::string default_game_name() {
  return all_games().front()->info().name;
}

const Game* find_game(const std::string& name) {
  for (const Game* g : all_games()) {
    if (g->info().name == name) return g;
  }
  return nullptr;
}

json merge_player_views(const std::vector<json>& views) {
  if (views.empty()) return nullptr;
  json table = views[0];
  table["seat"] = nullptr;
  if (table.contains("players") && table.at("players").is_array()) {
    for (std::size_t s = 0; s < views.size() && s < table.at("players").size(); ++s) {
      table["players"][s] = views[s].at("players").at(s);
    }
  }
  return table;
}

Result<std::unique_ptr<GameState>> Game::state_from_view(const json& /*view*/, Seat /*seat*/, const json& /*config*/,
                                                         const std::vector<json>& /*seat_configs*/,
                                                         std::uint64_t /*seed*/) const {
  return fail(info().name + " cannot rebuild a state from a view (docs/library.md)");
}

json seat_card_table(const json& table, Seat seat) {
  if (!table.is_array()) return nullptr;
  json out = table;
  for (json& card : out) {
    if (!card.is_object()) continue;
    auto owner = card.find("owner");
    if (owner != card.end() && *owner != seat) card = nullptr;
  }
  return out;
}

}  // namespace arena::games
