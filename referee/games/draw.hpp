#pragma once
// What a game's drawing for people is made of (games/<game>/terminal.cpp, and the generic drawing
// of game.cpp): optional ANSI styling that never changes the visible width, padding and wrapping by
// visible width, seat names, and cleaning of text that comes from bots (names, notes, fault
// messages) so it cannot move the cursor or break lines.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace arena::games::draw {

// Longest line the drawings write, so the output fits a 100-column terminal.
inline constexpr std::size_t kWidth = 98;

class Style {
 public:
  explicit Style(bool color) : color_(color) {}
  bool color() const { return color_; }
  // `text` wrapped in the SGR code (e.g. "1" bold, "2" dim, "31" red); plain text when off.
  std::string paint(std::string_view text, std::string_view sgr) const;
  std::string bold(std::string_view text) const { return paint(text, "1"); }
  std::string dim(std::string_view text) const { return paint(text, "2"); }

 private:
  bool color_ = false;
};

// Who sits where, for people: "seat 1 (random_bot)".
struct SeatNames {
  std::vector<std::string> bots;  // cleaned, one per seat (may be empty strings)
  std::string seat(int s) const;
};

// Columns `text` takes on a terminal: ANSI escape sequences take none, a UTF-8 sequence one.
std::size_t visible_width(std::string_view text);
// `text` followed by spaces up to `width` visible columns (never cut).
std::string pad(std::string_view text, std::size_t width);
// `prefix` then the items separated by `sep`, wrapped before kWidth; continuation lines are
// indented by `indent` spaces. Ends with a newline.
std::string wrap(std::string_view prefix, const std::vector<std::string>& items, std::string_view sep,
                 std::size_t indent);
// Text from a bot or a file, safe to print: terminal_safe (core/markup.hpp: controls, C1,
// bidirectional overrides and invalid UTF-8 shown as escapes), and at most `max` bytes of it (cut
// between characters and escapes, marked with "...").
std::string clean(std::string_view text, std::size_t max = 80);
// A JSON value on one line (invalid UTF-8 replaced), cleaned and cut to `max` bytes.
std::string one_line(const nlohmann::json& value, std::size_t max = 200);

// A seat's heading line in a table drawing: "\n" + its name in bold, then `extra` (plain text the
// game adds, e.g. its tokens), then "  <- to act" when `to_act` (a view's seat number or null)
// is this seat. Ends with a newline.
std::string seat_heading(const SeatNames& names, int seat, const nlohmann::json& to_act, const Style& style,
                         std::string_view extra = {});
// "  hand (N): a, b, ..." wrapped, or "  hand: empty". Ends with a newline.
std::string hand_line(const std::vector<std::string>& cards);

}  // namespace arena::games::draw
