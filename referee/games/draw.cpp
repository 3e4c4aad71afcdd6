#include "referee/games/draw.hpp"

#include <fmt/format.h>

#include "referee/core/markup.hpp"

namespace arena::games::draw {

std::string SeatNames::seat(int s) const {
  if (s >= 0 && static_cast<std::size_t>(s) < bots.size() && !bots[static_cast<std::size_t>(s)].empty()) {
    return fmt::format("seat {} ({})", s, bots[static_cast<std::size_t>(s)]);
  }
  return fmt::format("seat {}", s);
}

std::string Style::paint(std::string_view text, std::string_view sgr) const {
  if (!color_ || text.empty()) return std::string(text);
  return fmt::format("\x1b[{}m{}\x1b[0m", sgr, text);
}

std::size_t visible_width(std::string_view text) {
  std::size_t width = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == 0x1b && i + 1 < text.size() && text[i + 1] == '[') {
      i += 2;
      while (i < text.size() && (text[i] < '@' || text[i] > '~')) ++i;  // up to the final byte
      continue;
    }
    if ((c & 0xC0) != 0x80) ++width;  // not a UTF-8 continuation byte
  }
  return width;
}

std::string pad(std::string_view text, std::size_t width) {
  std::string out(text);
  const std::size_t w = visible_width(text);
  if (w < width) out.append(width - w, ' ');
  return out;
}

std::string wrap(std::string_view prefix, const std::vector<std::string>& items, std::string_view sep,
                 std::size_t indent) {
  std::string out(prefix);
  std::size_t col = visible_width(prefix);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string piece = items[i] + (i + 1 < items.size() ? std::string(sep) : std::string());
    const std::size_t w = visible_width(piece);
    if (i > 0 && col + w > kWidth) {
      while (!out.empty() && out.back() == ' ') out.pop_back();
      out += '\n';
      out.append(indent, ' ');
      col = indent;
    }
    out += piece;
    col += w;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out + "\n";
}

std::string clean(std::string_view text, std::size_t max) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const auto ch = decode_utf8(text.substr(i));
    const std::size_t size = ch ? ch->size : 1;
    const std::string piece = terminal_safe(text.substr(i, size));  // never cut inside an escape
    if (out.size() + piece.size() > max) return out + "...";
    out += piece;
    i += size;
  }
  return out;
}

std::string one_line(const nlohmann::json& value, std::size_t max) {
  return clean(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), max);
}

std::string seat_heading(const SeatNames& names, int seat, const nlohmann::json& to_act, const Style& style,
                         std::string_view extra) {
  std::string out = "\n";
  out += style.bold(names.seat(seat));
  out += extra;
  if (to_act.is_number_integer() && to_act.get<int>() == seat) out += style.paint("  <- to act", "1;32");
  out += '\n';
  return out;
}

std::string hand_line(const std::vector<std::string>& cards) {
  if (cards.empty()) return "  hand: empty\n";
  return wrap(fmt::format("  hand ({}): ", cards.size()), cards, ", ", 4);
}

}  // namespace arena::games::draw
