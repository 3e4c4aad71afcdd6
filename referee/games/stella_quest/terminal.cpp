// Stella Quest for people, from a view-shaped table: the trick, the discard top and trump, the
// deck, the marker, every hand (coloured; a hidden hand shows only its colours), collections,
// tokens, the Dummy with 2 seats; actions in words; the final score breakdown.

#include <fmt/format.h>

#include <algorithm>

#include "referee/games/draw.hpp"
#include "referee/games/stella_quest/text.hpp"

namespace arena::stella_quest {

using nlohmann::json;
using namespace games::draw;
using Names = SeatNames;

namespace {

std::string colour_code(std::string_view colour) {
  if (colour == "blue") return "1;34";
  if (colour == "green") return "1;32";
  if (colour == "red") return "1;31";
  if (colour == "yellow") return "1;33";
  return "1;35";  // break
}

// "Blue 6" -> "blue"; "Break" -> "break".
std::string colour_of_name(const std::string& name) {
  std::string word = name.substr(0, name.find(' '));
  std::transform(word.begin(), word.end(), word.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return word;
}

std::string card_text(const json& name, const Style& st) {
  const std::string n = clean(name.get<std::string>(), 12);
  return st.paint(n, colour_code(colour_of_name(n)));
}

std::vector<std::string> card_list(const json& names, const Style& st) {
  std::vector<std::string> out;
  for (const json& n : names) out.push_back(card_text(n, st));
  return out;
}

std::string seat_or_dummy(const json& seat, const Names& names) {
  if (seat.is_null()) return "nobody";
  if (seat.is_string()) return "the Dummy";
  return names.seat(seat.get<int>());
}

std::string end_text(const std::string& end) {
  if (end == "enlightenment") return "enlightenment (a collection holds all of 1-6: that seat wins alone)";
  if (end == "elimination") return "elimination (a seat lost its last token: it loses, the others are scored)";
  if (end == "trick_cap") return "the trick cap (max_tricks reached: everyone is scored)";
  if (end == "exhausted") return "exhausted (a seat had to play with no card left to draw: everyone is scored)";
  return end;
}

}  // namespace

std::string draw_table(const json& t, const Names& names, const Style& st) {
  std::string out;
  const std::string phase = t.value("phase", "");
  const json& to_act = t.at("to_act");
  const int tricks = t.value("tricks_played", 0);
  if (phase == "over") {
    out += wrap("", {st.bold(fmt::format("game over after {} tricks:", tricks)), end_text(t.value("end", ""))}, " ", 2);
  } else {
    const std::string doing = phase == "play"      ? "to play a card (or darken a token to draw)"
                              : phase == "collect" ? "won the trick: collects one of its emotion cards"
                              : phase == "top"     ? "won the trick: chooses the new top of the discard pile"
                                                   : phase;
    out += wrap("",
                {st.bold(fmt::format("trick {} (at most {}):", tricks + 1, t.value("max_tricks", 0))),
                 names.seat(to_act.get<int>()), doing},
                " ", 2);
  }
  out += wrap(
      "", {names.seat(t.value("leader", 0)) + " leads;", "Black Star marker: " + seat_or_dummy(t.at("marker"), names)},
      " ", 2);
  const json& discard = t.at("discard");
  const json& trump = t.at("trump");
  out += fmt::format("discard pile: {} cards, top {} -> trump: {}\n", discard.size(),
                     discard.empty() ? std::string("-") : card_text(discard.back(), st),
                     trump.is_null() ? std::string("none")
                                     : st.paint(trump.get<std::string>(), colour_code(trump.get<std::string>())));
  const json& deck_top = t.at("deck_top_colour");
  out += fmt::format("deck: {} cards{}\n", t.value("deck_size", 0),
                     deck_top.is_null() ? std::string()
                                        : ", top card " + st.paint(deck_top.get<std::string>(),
                                                                   colour_code(deck_top.get<std::string>())));
  std::vector<std::string> trick;
  for (const json& p : t.at("trick"))
    trick.push_back(seat_or_dummy(p.at("seat"), names) + ": " + card_text(p.at("card"), st));
  const json& leading = t.at("leading_colour");
  if (trick.empty()) {
    out += "current trick: no card played yet\n";
  } else {
    out += wrap(fmt::format("current trick (leading colour {}): ",
                            leading.is_null() ? std::string("none yet") : leading.get<std::string>()),
                trick, ", ", 4);
  }
  if (!t.at("winner").is_null()) out += fmt::format("trick won by {}\n", seat_or_dummy(t.at("winner"), names));

  for (const json& p : t.at("players")) {
    const int seat = p.value("seat", 0);
    const int tokens = p.value("tokens", 0);
    const std::size_t lamps = static_cast<std::size_t>(std::max(tokens, 5));
    std::string lit = std::string(static_cast<std::size_t>(std::max(tokens, 0)), '*') +
                      std::string(lamps - static_cast<std::size_t>(std::max(tokens, 0)), '.');
    std::string extra = fmt::format("  tokens: {} lit [{}]", tokens, lit);
    if (t.at("marker").is_number_integer() && t.at("marker").get<int>() == seat) extra += "  holds the Black Star";
    out += seat_heading(names, seat, to_act, st, extra);
    if (p.contains("hand")) {
      out += hand_line(card_list(p.at("hand"), st));
    } else {
      std::vector<std::string> colours;
      for (const json& c : p.at("hand_colours"))
        colours.push_back(st.paint(c.get<std::string>(), colour_code(c.get<std::string>())));
      out += colours.empty() ? "  hand: empty\n"
                             : wrap(fmt::format("  hand ({}, numbers hidden): ", colours.size()), colours, ", ", 4);
    }
    const auto collection = card_list(p.at("collection"), st);
    out += collection.empty() ? "  collection: empty\n"
                              : wrap(fmt::format("  collection ({}): ", collection.size()), collection, ", ", 4);
  }
  if (t.value("dummy", false)) {
    out += "\n" + st.bold("the Dummy");
    if (t.at("marker").is_string()) out += "  holds the Black Star";
    out += "\n  no hand: after the leader it plays the top deck card";
    out += deck_top.is_null() ? std::string(" (the deck is empty)") : " (now " + deck_top.get<std::string>() + ")";
    out += "\n";
  }
  return out;
}

std::string describe_action(const json&, const json& a) {
  const std::string kind = a.value("kind", "");
  const std::string card =
      a.contains("card") && a.at("card").is_string() ? clean(a.at("card").get<std::string>(), 12) : "?";
  if (kind == "play") return "plays " + card;
  if (kind == "draw") return "darkens a token and draws 3 cards (fewer near 10 in hand)";
  if (kind == "collect") return "collects " + card + " from the trick";
  if (kind == "top") return "puts " + card + " on top of the discard pile (the next trump)";
  return "plays " + one_line(a);
}

std::string draw_outcome(const json& o, const json&, const Names& names, const Style& st) {
  std::string out = "end: " + end_text(o.value("end", "")) + "\n";
  out += "score breakdown (lit tokens + jewels on face-up collection cards; duplicated numbers face down):\n";
  const json& players = o.at("players");
  const json& scores = o.at("scores");
  for (std::size_t s = 0; s < players.size(); ++s) {
    const json& p = players[s];
    std::string line = "  " + pad(names.seat(static_cast<int>(s)), 28) +
                       fmt::format("{} tokens + {} jewels = {}", p.at("tokens").get<int>(), p.at("jewels").get<int>(),
                                   st.bold(fmt::format("{} points", p.at("points").get<int>())));
    if (s < scores.size()) line += fmt::format("   ranking score {}", scores[s].dump());
    out += line + "\n";
    if (!p.at("face_down").empty()) out += wrap("      face down: ", card_list(p.at("face_down"), st), ", ", 6);
  }
  std::vector<std::string> winners;
  for (const json& w : o.at("winners")) winners.push_back(names.seat(w.get<int>()));
  if (winners.size() == 1) {
    out += st.bold(winners[0] + " wins") + "\n";
  } else {
    std::string list;
    for (const auto& w : winners) list += (list.empty() ? "" : ", ") + w;
    out += st.bold(list + " share the victory") + "\n";
  }
  return out;
}

nlohmann::json card_table_json() {
  json cards = json::array();
  const auto& table = card_table();
  for (std::size_t id = 0; id < table.size(); ++id) {
    const Card& c = table[id];
    cards.push_back({{"id", id},
                     {"name", c.name},
                     {"colour", std::string(enum_name(c.colour))},
                     {"number", c.number},
                     {"jewels", c.jewels}});
  }
  return cards;
}

}  // namespace arena::stella_quest
