#include "referee/games/stella_quest/text.hpp"

#include <fmt/format.h>

#include "referee/games/stella_quest/json.hpp"

namespace arena::stella_quest {

namespace {

std::string list(const std::vector<CardId>& cards) {
  std::string out;
  for (CardId c : cards) out += (out.empty() ? "" : ", ") + card(c).name;
  return out.empty() ? "-" : out;
}

std::string seat_text(std::int8_t seat) {
  if (seat == kDummy) return "the Dummy";
  if (seat == kNone) return "nobody";
  return fmt::format("seat {}", seat);
}

}  // namespace

std::string describe(const State& s) {
  std::string out;
  const CardId top = s.discard.back();
  out += fmt::format("trick {} of at most {}; phase {}; {} leads; marker: {}\n", s.tricks + (is_over(s) ? 0 : 1),
                     s.config.max_tricks, enum_name(s.phase), seat_text(s.leader), seat_text(s.marker));
  out += fmt::format("discard top: {} (trump: {}); discard pile {} cards; deck {} cards\n", card(top).name,
                     is_break(top) ? "none" : enum_name(trump_colour(top)), s.discard.size(), s.deck.size());
  if (!s.trick.empty()) {
    std::string trick;
    for (const Play& p : s.trick)
      trick += fmt::format("{}{}: {}", trick.empty() ? "" : ", ", seat_text(p.seat), card(p.card).name);
    out += "current trick: " + trick + "\n";
  }
  const Outcome o = score(s);
  for (int seat = 0; seat < s.seats; ++seat) {
    const Player& p = s.players[static_cast<std::size_t>(seat)];
    out += fmt::format("seat {}: {} lit token{}{}\n  hand: {}\n  collection: {}\n", seat, p.tokens,
                       p.tokens == 1 ? "" : "s", s.marker == seat ? ", holds the Black Star" : "", list(p.hand),
                       list(p.collection));
  }
  if (is_over(s)) {
    out += fmt::format("game over: {}{}\n", enum_name(s.end),
                       s.decided == kNone ? "" : fmt::format(" (seat {})", s.decided));
    for (int seat = 0; seat < s.seats; ++seat) {
      const PlayerScore& ps = o.players[static_cast<std::size_t>(seat)];
      out += fmt::format("seat {}: {} tokens + {} jewels = {} points{}{}\n", seat, ps.tokens, ps.jewels, ps.points,
                         ps.face_down.empty() ? "" : fmt::format(" (face down: {})", list(ps.face_down)),
                         s.end == End::elimination && s.decided == seat ? ", eliminated" : "");
    }
    if (o.winners.size() == 1) {
      out += fmt::format("seat {} wins\n", o.winners[0]);
    } else {
      std::string w;
      for (int seat : o.winners) w += fmt::format("{}{}", w.empty() ? "" : ", ", seat);
      out += fmt::format("seats {} share the victory\n", w);
    }
  }
  return out;
}

}  // namespace arena::stella_quest
