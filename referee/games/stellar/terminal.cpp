// Stellar for people, from a view-shaped table: both telescopes as pyramids with slot numbers,
// notebooks as stacks per type, the row with slot numbers, hands, deck, phase; actions in words;
// the final score breakdown.

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "referee/games/draw.hpp"
#include "referee/games/stellar/telescope.hpp"
#include "referee/games/stellar/text.hpp"

namespace arena::stellar {

using nlohmann::json;
using namespace games::draw;
using Names = SeatNames;

namespace {

constexpr std::size_t kCellText = 19;  // inside the brackets of a telescope cell
constexpr std::size_t kHalfCell = 11;  // a cell is "[" + 19 + "]" plus one space: 22 columns
// Each card type's colour (its label is type_label's, its name in the JSON enum_name's).
constexpr std::array<std::pair<CardType, const char*>, 6> kTypeColours{{{CardType::planet, "33"},
                                                                        {CardType::moon, "36"},
                                                                        {CardType::asteroid, "31"},
                                                                        {CardType::cloud, "35"},
                                                                        {CardType::black_hole, "34"},
                                                                        {CardType::satellite, "32"}}};
constexpr std::size_t kTypeCount = EnumNames<CardType>::table.size();

const char* type_colour(CardType type) {
  return table_lookup(kTypeColours, type, "0");
}

// The colour of a card's "type" in a view ("0", the terminal's own, for a type it does not know).
std::string type_colour(const std::string& name) {
  const auto type = parse_enum<CardType>(name);
  return type ? type_colour(*type) : "0";
}

std::string card_name(const json& c) {
  return clean(c.value("name", std::string("?")), 16);
}

// "Moon 3 **": the name and one star per star (face up, the stars count).
std::string card_plain(const json& c) {
  const int stars = std::clamp(c.value("stars", 0), 0, 3);
  return card_name(c) + (stars > 0 ? " " + std::string(static_cast<std::size_t>(stars), '*') : "");
}

std::string card_text(const json& c, const Style& st) {
  return st.paint(card_plain(c), type_colour(c.value("type", "")));
}

std::string number_text(const json& c) {
  const json& n = c.at("number");
  return n.is_string() ? n.get<std::string>() : std::to_string(n.get<int>());
}

std::vector<std::string> card_list(const json& cards, const Style& st) {
  std::vector<std::string> out;
  for (const json& c : cards) out.push_back(card_text(c, st));
  return out;
}

// One telescope cell: "[ 7 Moon 3 **          ]".
std::string cell(const json& slot, int index, const Style& st) {
  std::string text;
  std::string colour;
  if (slot.is_null()) {
    text = ".";
    colour = "2";
  } else if (slot.value("face", "") == "up") {
    text = card_plain(slot.at("card"));
    colour = type_colour(slot.at("card").value("type", ""));
  } else if (slot.contains("card")) {
    text = "(" + card_name(slot.at("card")) + ")";
    colour = "2";
  } else {
    text = "face down";
    colour = "2";
  }
  const std::string number = fmt::format("{:>2}", index + 1);
  const std::string inside = st.bold(number) + " " + st.paint(text, colour);
  return "[" + pad(inside, kCellText) + "]";
}

std::string telescope(const json& slots, const Style& st) {
  std::string out;
  for (const PyramidRow& row : kPyramidRows) {
    std::string line(2 + row.indent * kHalfCell, ' ');
    for (std::size_t k = 0; k < row.count; ++k) {
      const int i = row.slots[k];
      if (k > 0) line += ' ';
      line += cell(slots.at(static_cast<std::size_t>(i)), i, st);
    }
    out += line + "\n";
  }
  return out;
}

// Notebook stacks, one column per type, numbers ascending (a 6/0 last).
std::string notebook(const json& cards, const Style& st) {
  if (cards.empty()) return "  notebook: empty\n";
  constexpr std::size_t kColumn = 12;
  std::array<std::vector<std::pair<int, std::string>>, kTypeCount> stacks;
  for (const json& c : cards) {
    const auto type = parse_enum<CardType>(c.value("type", ""));
    if (!type) continue;
    const std::string n = number_text(c);
    stacks[static_cast<std::size_t>(*type)].emplace_back(n == "6/0" ? 6 : std::stoi(n), n);
  }
  std::size_t height = 0;
  for (auto& s : stacks) {
    std::sort(s.begin(), s.end());
    height = std::max(height, s.size());
  }
  std::string out = fmt::format("  notebook ({} cards, stacks by type):\n    ", cards.size());
  for (std::size_t t = 0; t < kTypeCount; ++t) {
    const auto type = static_cast<CardType>(t);
    out += pad(st.paint(type_label(type), type_colour(type)), kColumn);
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  out += "\n";
  for (std::size_t row = 0; row < height; ++row) {
    std::string line = "    ";
    for (std::size_t t = 0; t < kTypeCount; ++t) {
      const std::string text = row < stacks[t].size() ? stacks[t][row].second : (row == 0 ? "-" : "");
      line += pad(text, kColumn);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string phase_text(const json& t) {
  const std::string phase = t.value("phase", "");
  const int round = t.value("round", 1);
  const int turn = t.value("turn", 0) + 1;
  if (phase == "choose_starter") return "setup: each seat chooses which starter goes to telescope slot 1";
  if (phase == "keep") return "end of round 11: each seat keeps one hand card for its notebook";
  if (phase == "over") return "game over";
  std::string step = phase == "refresh" ? "Step 0, refresh the row or not"
                     : phase == "take"  ? "Step 1, take a row card"
                     : phase == "play"  ? "Step 2, play a hand card"
                     : phase == "place" ? "Step 3, place the row card in the telescope"
                                        : phase;
  return fmt::format("round {} of 11, turn {} of 22: {}", round, turn, step);
}

// The card with this id in a player's hand or starters (the player's own view).
std::string player_card(const json& p, int id) {
  for (const char* key : {"hand", "starters"}) {
    if (!p.contains(key)) continue;
    for (const json& c : p.at(key)) {
      if (c.value("id", -1) == id) return card_plain(c);
    }
  }
  return fmt::format("card {}", id);
}

// The card with this id among the cards the acting seat could name.
std::string find_card(const json& before, int id) {
  const int seat = before.value("seat", -1);
  if (before.contains("players") && seat >= 0 && static_cast<std::size_t>(seat) < before.at("players").size()) {
    return player_card(before.at("players").at(static_cast<std::size_t>(seat)), id);
  }
  return fmt::format("card {}", id);
}

}  // namespace

std::string draw_table(const json& t, const Names& names, const Style& st) {
  std::string out;
  const json& to_act = t.at("to_act");
  std::vector<std::string> head = {st.bold(phase_text(t) + (to_act.is_null() ? "" : ";"))};
  if (!to_act.is_null()) head.push_back(names.seat(to_act.get<int>()) + " to act");
  out += wrap("", head, " ", 2);
  if (!t.at("start_player").is_null())
    out += fmt::format("start player: {}\n", names.seat(t.at("start_player").get<int>()));
  std::vector<std::string> row;
  for (std::size_t i = 0; i < t.at("row").size(); ++i) {
    const json& c = t.at("row").at(i);
    row.push_back(st.bold(std::to_string(i + 1)) + " " + (c.is_null() ? st.dim(".") : card_text(c, st)));
  }
  out += wrap("row (slots 1-5):  ", row, "   ", 18);
  const json& discard = t.at("discard");
  out += fmt::format("deck: {} cards; discard pile: {} cards{}\n", t.value("deck_size", 0), discard.size(),
                     discard.empty() ? std::string() : ", top " + card_text(discard.back(), st));
  if (t.value("refresh_available", false))
    out += "the seat to act may refresh the row (its opponent took a satellite)\n";
  if (!t.at("placing").is_null()) {
    out += "waiting for a telescope slot (Step 3's card): " + card_text(t.at("placing"), st) + "\n";
  }
  if (!t.at("last_step3_slot").is_null())
    out += fmt::format("Step 3 last took row slot {}\n", t.at("last_step3_slot").get<int>());

  const std::string phase = t.value("phase", "");
  for (const json& p : t.at("players")) {
    const int seat = p.value("seat", 0);
    out += seat_heading(names, seat, to_act, st);
    if (p.contains("hand")) {
      out += hand_line(card_list(p.at("hand"), st));
    } else {
      out += fmt::format("  hand: {} cards (hidden)\n", p.value("hand_size", 0));
    }
    if (phase == "choose_starter") {
      if (p.contains("starters")) {
        const json& choice = p.at("starter_choice");
        out += wrap("  starters: ", card_list(p.at("starters"), st), ", ", 4);
        out += choice.is_null() ? "  starter for slot 1: not chosen yet\n"
                                : "  starter for slot 1: " + player_card(p, choice.get<int>()) + "\n";
      } else {
        out += p.value("starter_chosen", false) ? "  starter for slot 1: chosen (hidden)\n"
                                                : "  starter for slot 1: not chosen yet\n";
      }
    }
    if (phase == "keep") {
      if (p.contains("keep_choice")) {
        const json& choice = p.at("keep_choice");
        out += choice.is_null() ? "  card to keep: not chosen yet\n"
                                : "  card to keep: " + player_card(p, choice.get<int>()) + "\n";
      } else {
        out += p.value("keep_chosen", false) ? "  card to keep: chosen (hidden)\n" : "  card to keep: not chosen yet\n";
      }
    }
    out += "  telescope (slots 1-12; face down in parentheses):\n";
    out += telescope(p.at("telescope"), st);
    out += notebook(p.at("notebook"), st);
  }
  return out;
}

std::string describe_action(const json& before, const json& a) {
  const std::string kind = a.value("kind", "");
  if (kind == "choose_starter")
    return "puts " + find_card(before, a.value("card", -1)) +
           " in telescope slot 1 (the other starter goes to the notebook)";
  if (kind == "refresh")
    return a.value("accept", false) ? "refreshes the row (5 new cards)" : "declines the row refresh";
  if (kind == "take") {
    const int slot = a.value("slot", 0);
    std::string name = "the card";
    if (slot >= 1 && slot <= 5 && before.contains("row") &&
        !before.at("row").at(static_cast<std::size_t>(slot - 1)).is_null()) {
      name = card_plain(before.at("row").at(static_cast<std::size_t>(slot - 1)));
    }
    return fmt::format("takes {} from row slot {}", name, slot);
  }
  if (kind == "play") {
    const std::string name = find_card(before, a.value("card", -1));
    if (a.value("area", "") == "notebook") return "plays " + name + " to the notebook";
    return fmt::format("plays {} face {} to telescope slot {}", name, a.value("face", "?"), a.value("slot", 0));
  }
  if (kind == "place") {
    const std::string name = before.contains("placing") && !before.at("placing").is_null()
                                 ? card_plain(before.at("placing"))
                                 : "Step 3's card";
    return fmt::format("places {} face {} in telescope slot {}", name, a.value("face", "?"), a.value("slot", 0));
  }
  if (kind == "keep")
    return "keeps " + find_card(before, a.value("card", -1)) + " for the notebook (the other card is discarded)";
  return "plays " + one_line(a);
}

std::string draw_outcome(const json& o, const json& cards, const Names& names, const Style& st) {
  auto name_of = [&](int id) {
    if (cards.is_array() && id >= 0 && static_cast<std::size_t>(id) < cards.size() &&
        cards[static_cast<std::size_t>(id)].is_object()) {
      return clean(cards[static_cast<std::size_t>(id)].value("name", std::string("?")), 16);
    }
    return fmt::format("card {}", id);
  };
  const json& players = o.at("players");
  constexpr std::size_t kLabel = 24;
  constexpr std::size_t kColumn = 34;
  std::string out =
      "score breakdown: per type, face-up stars x longest run in the notebook stack [stack];\n"
      "per section, the higher sum of numbers scores 10; 10 for all five types face up\n";
  out += pad("", kLabel);
  for (std::size_t s = 0; s < players.size(); ++s) out += pad(st.bold(names.seat(static_cast<int>(s))), kColumn);
  auto row = [&](const std::string& label, auto&& cell_of) {
    std::string line = pad("  " + label, kLabel);
    for (const json& p : players) line += pad(cell_of(p), kColumn);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  };
  while (!out.empty() && out.back() == ' ') out.pop_back();
  out += "\n";
  for (int t = 0; t < kTypedKinds; ++t) {
    const auto type = static_cast<CardType>(t);
    row(std::string(type_label(type)), [&](const json& p) {
      const json& ts = p.at("types").at(std::string(enum_name(type)));
      std::string stack;
      for (const json& n : ts.at("stack")) {
        if (!stack.empty()) stack += ' ';
        stack += n.dump();
      }
      return fmt::format("{} x {} = {}  [{}]", ts.at("stars").get<int>(), ts.at("run").get<int>(),
                         ts.at("points").get<int>(), stack);
    });
  }
  for (const char* section : {"top", "middle", "bottom"}) {
    const std::string range = std::string(section) == "top" ? "1-5" : std::string(section) == "middle" ? "6-8" : "9-12";
    row(fmt::format("{} section ({})", section, range), [&](const json& p) {
      const json& sec = p.at("sections").at(section);
      return fmt::format("sum {}: {} points", sec.at("sum").get<int>(), sec.at("points").get<int>());
    });
  }
  row("all five types up", [](const json& p) { return fmt::format("{} points", p.at("diversity").get<int>()); });
  row("total", [&](const json& p) { return st.bold(fmt::format("{} points", p.at("total").get<int>())); });
  for (std::size_t s = 0; s < players.size(); ++s) {
    std::vector<std::string> notes;
    for (const json& sat : players[s].at("satellites")) {
      const json& stack = sat.at("stack");
      notes.push_back(name_of(sat.at("card").get<int>()) + " -> " +
                      (stack.is_null() ? std::string("no stack") : stack.get<std::string>() + " stack"));
    }
    for (const json& sz : players[s].at("six_zero")) {
      notes.push_back(fmt::format("{} counts {}", name_of(sz.at("card").get<int>()), sz.at("value").get<int>()));
    }
    if (!notes.empty())
      out += wrap(fmt::format("  {} notebook choices: ", names.seat(static_cast<int>(s))), notes, ", ", 4);
  }
  const json& winner = o.at("winner");
  const json& scores = o.at("scores");
  if (winner.is_null()) {
    out += st.bold(fmt::format("a draw at {} points each", scores.at(0).dump())) + "\n";
  } else {
    const auto w = winner.get<std::size_t>();
    out += st.bold(fmt::format("{} wins with {} points to {}", names.seat(static_cast<int>(w)), scores.at(w).dump(),
                               scores.at(1 - w).dump())) +
           "\n";
  }
  return out;
}

std::string describe_seat_config(const nlohmann::json& seat_config) {
  const json& deck = seat_config.contains("deck") ? seat_config.at("deck") : json();
  if (!deck.is_array()) return one_line(seat_config, 300);
  // Equal cards in a row are counted once ("Mercury 1 *** x2"); starters are marked.
  std::vector<std::string> parts;
  std::string last;
  int count = 0;
  auto flush = [&] {
    if (count > 0) parts.push_back(count == 1 ? last : fmt::format("{} x{}", last, count));
  };
  for (const json& c : deck) {
    const std::string text = card_plain(c) + (c.value("starter", false) ? " (starter)" : "");
    if (text == last) {
      ++count;
      continue;
    }
    flush();
    last = text;
    count = 1;
  }
  flush();
  std::string out = fmt::format("a deck list of {} cards: ", deck.size());
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i == 0 ? "" : ", ") + parts[i];
  return out;
}

}  // namespace arena::stellar
