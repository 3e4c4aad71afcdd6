// Interstellar for people, from a view-shaped table (json.cpp's view(), or the whole table merged
// from both views): the turn and its counters, a pending attack, where every unit stands on the
// line, per seat the character, ship and Reinforcements with HP bars, the primary slots, E115s,
// planets with their harvest, gates, escape pods, the hand (or its size), decks, discard and
// void; the latest events in words (dice, a Cloak's drawn card, damage); actions in words; the
// end. Cards are named by the catalogue (cards.hpp) from the view's card keys, with their ids
// ("Mars#40") where the id tells two copies apart.

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>

#include "referee/core/enum_names.hpp"
#include "referee/games/draw.hpp"
#include "referee/games/interstellar/cards.hpp"
#include "referee/games/interstellar/rules.hpp"
#include "referee/games/interstellar/text.hpp"

namespace arena::interstellar {

using nlohmann::json;
using namespace games::draw;
using Names = SeatNames;

namespace {

// ---- reading the view defensively (the drawing never throws on the game's own JSON) ----------

int num(const json& j, const char* key, int fallback = 0) {
  if (!j.is_object()) return fallback;
  auto it = j.find(key);
  return it != j.end() && it->is_number_integer() ? it->get<int>() : fallback;
}

std::string str(const json& j, const char* key, const std::string& fallback = "") {
  if (!j.is_object()) return fallback;
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : fallback;
}

const json& sub(const json& j, const char* key) {
  static const json kNull = nullptr;
  if (!j.is_object()) return kNull;
  auto it = j.find(key);
  return it == j.end() ? kNull : *it;
}

const json& list(const json& j, const char* key) {
  static const json kEmpty = json::array();
  const json& v = sub(j, key);
  return v.is_array() ? v : kEmpty;
}

const KindInfo* kind_of(const json& card) {
  const std::string key = str(card, "card");
  if (key.empty()) return nullptr;
  auto kind = kind_from_key(key);
  return kind ? &info(*kind) : nullptr;
}

// The terminal colour (an SGR code) of a card's category.
const char* category_colour(Category c) {
  // clang-format off
  static constexpr std::array<std::pair<Category, const char*>, 11> kColour{{
      {Category::water, "34"}, {Category::energy, "33"}, {Category::ammo, "31"}, {Category::e115, "35"},
      {Category::halley, "36"}, {Category::star, "1;33"}, {Category::planet, "32"}, {Category::action, "1"},
      {Category::reaction, "1;36"}, {Category::artifact, "36"}, {Category::creature, "1;32"}}};
  // clang-format on
  return table_lookup(kColour, c, "0");
}

// "Harvest" (a card object {"id", "card"}).
std::string card_name(const json& card) {
  const KindInfo* k = kind_of(card);
  return k != nullptr ? k->name : clean(str(card, "card", "?"), 20);
}

// "Mars#40".
std::string card_ref(const json& card) {
  return fmt::format("{}#{}", card_name(card), num(card, "id", -1));
}

std::string paint_card(const json& card, const std::string& text, const Style& st) {
  const KindInfo* k = kind_of(card);
  return k == nullptr ? text : st.paint(text, category_colour(k->category));
}

// Every card object the table shows, by id, so that an event or an action naming an id (a planet,
// a target) can name the card.
void collect_cards(const json& j, std::map<int, json>& out) {
  if (j.is_object()) {
    auto id = j.find("id");
    auto card = j.find("card");
    if (id != j.end() && id->is_number_integer() && card != j.end() && card->is_string()) {
      out.emplace(id->get<int>(), json{{"id", *id}, {"card", *card}});
    }
    for (const auto& [key, value] : j.items()) {
      if (value.is_structured()) collect_cards(value, out);
    }
  } else if (j.is_array()) {
    for (const json& v : j) collect_cards(v, out);
  }
}

struct Ctx {
  const json& table;
  const Names& names;
  const Style& st;
  std::map<int, json> cards;
};

std::string id_ref(const Ctx& c, const json& id) {
  if (!id.is_number_integer()) return "?";
  auto it = c.cards.find(id.get<int>());
  if (it == c.cards.end()) return fmt::format("card #{}", id.get<int>());
  return card_ref(it->second);
}

const CharacterInfo* character_of(const json& player) {
  auto ch = character_from_key(str(player, "character"));
  return ch ? &info(*ch) : nullptr;
}

const json& player(const json& table, int seat) {
  static const json kNull = nullptr;
  const json& players = list(table, "players");
  return seat >= 0 && static_cast<std::size_t>(seat) < players.size() ? players[static_cast<std::size_t>(seat)] : kNull;
}

std::string character_name(const json& p) {
  const CharacterInfo* ch = character_of(p);
  return ch != nullptr ? ch->name : "the character";
}
std::string ship_name(const json& p) {
  const CharacterInfo* ch = character_of(p);
  return ch != nullptr ? ch->ship_name : "the ship";
}

// "ship" or "character" of a seat: the unit's own name.
std::string unit_name(const json& p, const std::string& unit) {
  if (unit == "ship") return ship_name(p);
  if (unit == "character") return character_name(p);
  if (unit == "reinforcements") return "Reinforcements";
  return unit;
}

// A place on the owner's side: "Orbit", "the Battlefield", "Mars#40".
std::string place(const Ctx& c, const json& at) {
  const std::string zone = str(at, "zone");
  if (zone == "orbit") return "Orbit";
  if (zone == "battlefield") return "the Battlefield";
  if (zone == "planet") return id_ref(c, sub(at, "planet"));
  return "-";
}

// Index on the seat's own line: Planet section 0, Orbit 1, Battlefield 2.
int line_index_of(const json& at) {
  const std::string zone = str(at, "zone");
  return zone == "planet" ? 0 : zone == "orbit" ? 1 : 2;
}

std::string hp_bar(int hp, int max, const Style& st) {
  constexpr int kBar = 20;
  int filled = max > 0 ? std::clamp(hp * kBar / max, 0, kBar) : 0;
  if (hp > 0 && filled == 0) filled = 1;
  const int ratio = max > 0 ? hp * 100 / max : 0;
  const char* colour = ratio > 50 ? "32" : ratio > 25 ? "33" : "31";
  return "[" + st.paint(std::string(static_cast<std::size_t>(filled), '#'), colour) +
         st.dim(std::string(static_cast<std::size_t>(kBar - filled), '.')) + "]";
}

std::string hp_line(const std::string& label, int hp, int max, const std::string& where, const Style& st,
                    const char* at_zero = "destroyed") {
  std::string line = "  " + pad(label, 15) + hp_bar(hp, max, st) + fmt::format(" {:>3}/{} HP", hp, max);
  if (hp <= 0) line += " " + st.paint(fmt::format("({})", at_zero), "31");
  if (!where.empty()) line += "  " + where;
  return line + "\n";
}

std::string end_words(const std::string& end) {
  if (end == "defeated") return "defeated (a character reached 0 HP)";
  if (end == "deckout") return "deckout (an empty Main deck and a turn with no card played)";
  if (end == "turn_cap") return "the turn cap (the higher character HP takes the match, equal HP is a draw)";
  return end;
}

// ---- events in words ------------------------------------------------------------------------

std::string event_words(const Ctx& c, const json& e) {
  const int seat = num(e, "seat", -1);
  const json& p = player(c.table, seat);
  const std::string who = fmt::format("seat {}", seat);
  const std::string kind = str(e, "event");
  const Style& st = c.st;
  if (kind == "start") return st.bold(fmt::format("{} starts turn {}", who, num(e, "turn")));
  if (kind == "draw") return fmt::format("{} draws {} Main + {} Resource", who, num(e, "main"), num(e, "resource"));
  if (kind == "timewarp") {
    return sub(e, "took").is_boolean() && sub(e, "took").get<bool>() ? who + " takes TimeWarp"
                                                                     : who + " keeps its opening hand";
  }
  if (kind == "recharge") return fmt::format("{} recharges {} E115", who, num(e, "count"));
  if (kind == "play") {
    const json& card = sub(e, "card");
    std::string out = who + " plays " + paint_card(card, card_name(card), st);
    if (sub(e, "target").is_number_integer()) out += " on " + id_ref(c, sub(e, "target"));
    if (sub(e, "to").is_object()) out += " at " + place(c, sub(e, "to"));
    return out;
  }
  if (kind == "pay") {
    const json& card = sub(e, "card");
    const bool depleted = sub(e, "depleted").is_boolean() && sub(e, "depleted").get<bool>();
    return depleted ? who + " depletes " + paint_card(card, card_ref(card), st)
                    : who + " pays with " + paint_card(card, card_name(card), st);
  }
  if (kind == "move") {
    const std::string by = str(e, "by");
    const std::string unit = unit_name(p, str(e, "unit"));
    const std::string to = place(c, sub(e, "to"));
    if (by == "teleport") return fmt::format("{}'s {} teleports to a Gate at {}", who, unit, to);
    if (by == "escape_pod") return fmt::format("{}'s {} takes an Escape Pod to {}", who, unit, to);
    return fmt::format("{}'s {} moves to {}", who, unit, to);
  }
  if (kind == "collect") {
    return fmt::format("{} collects {} card{} from {}", who, num(e, "count"), num(e, "count") == 1 ? "" : "s",
                       id_ref(c, sub(e, "planet")));
  }
  if (kind == "harvest") {
    return fmt::format("{} harvests {} card{} onto {}", who, num(e, "count"), num(e, "count") == 1 ? "" : "s",
                       id_ref(c, sub(e, "planet")));
  }
  if (kind == "deplete") {
    return fmt::format("{} depleted ({} harvested card{} voided, {} draws {})", id_ref(c, sub(e, "planet")),
                       num(e, "voided"), num(e, "voided") == 1 ? "" : "s", who, num(e, "drawn"));
  }
  if (kind == "void") return fmt::format("{}'s {} goes to the void", who, card_ref(sub(e, "card")));
  if (kind == "discard") return fmt::format("{}'s {} is discarded", who, card_ref(sub(e, "card")));
  if (kind == "draw_resource") {
    std::string out = fmt::format("{} draws {} Resource card{}", who, num(e, "count"), num(e, "count") == 1 ? "" : "s");
    if (sub(e, "planet").is_number_integer()) out += " (Invasion of " + id_ref(c, sub(e, "planet")) + ")";
    return out;
  }
  if (kind == "attack") {
    const json& foe = player(c.table, 1 - seat);
    return st.bold(fmt::format("{} attacks with the {} at seat {}'s {} (base {})", who, unit_name(p, str(e, "by")),
                               1 - seat, unit_name(foe, str(e, "target")), num(e, "base")));
  }
  if (kind == "reaction") {
    const std::string r = str(e, "reaction");
    return st.paint(fmt::format("{} reacts: {}", who, r == "cloak" ? "Defensive Cloak" : "Force Field"), "1;36");
  }
  if (kind == "cloak") {
    const json& drawn = sub(e, "drawn");
    const std::string card = drawn.is_object() ? card_ref(drawn) : std::string("nothing (an empty Resource deck)");
    const json& base = sub(e, "base");
    return st.paint(fmt::format("{} draws {} for the Cloak: {}", who, card,
                                base.is_number_integer() ? fmt::format("base {}", base.get<int>()) : "a miss"),
                    "1;36");
  }
  if (kind == "roll") {
    std::vector<std::string> dice;
    for (const json& d : list(e, "dice")) dice.push_back(d.is_number_integer() ? std::to_string(d.get<int>()) : "?");
    std::string joined;
    for (const auto& d : dice) joined += (joined.empty() ? "" : " + ") + d;
    const std::string why = str(e, "for") == "bombard" ? " (bombard)" : " (the ship's shot at a character: even hits)";
    return st.paint(fmt::format("{} rolls {}{}", who, joined, why), "1;33");
  }
  if (kind == "damage") {
    return st.paint(fmt::format("seat {}'s {} loses {} HP", seat, unit_name(p, str(e, "unit")), num(e, "amount")),
                    "1;31");
  }
  if (kind == "destroyed") {
    return st.paint(fmt::format("seat {}'s {} is destroyed", seat, unit_name(p, str(e, "unit"))), "1;31");
  }
  if (kind == "formula") return fmt::format("{} turns {} face value into an E115", who, num(e, "value"));
  if (kind == "end_turn") {
    const std::string why = str(e, "why");
    return who + " ends the turn" +
           (why == "second_move"  ? " (second move)"
            : why == "escape_pod" ? " (Escape Pod)"
                                  : "");
  }
  return who + " " + one_line(e, 60);
}

// The events in words, a run of one seat's payments as one item.
std::vector<std::string> events_words(const Ctx& c, const json& events) {
  std::vector<std::string> out;
  int pay_seat = -1;
  std::string pays;
  auto flush = [&] {
    if (pay_seat >= 0) out.push_back(fmt::format("seat {} pays: {}", pay_seat, pays));
    pay_seat = -1;
    pays.clear();
  };
  for (const json& e : events) {
    if (str(e, "event") == "pay") {
      const int seat = num(e, "seat", -1);
      if (seat != pay_seat) flush();
      pay_seat = seat;
      const json& card = sub(e, "card");
      const bool depleted = sub(e, "depleted").is_boolean() && sub(e, "depleted").get<bool>();
      pays += (pays.empty() ? "" : ", ") +
              paint_card(card, depleted ? card_ref(card) + " (depleted)" : card_name(card), c.st);
      continue;
    }
    flush();
    out.push_back(event_words(c, e));
  }
  flush();
  return out;
}

// ---- the table --------------------------------------------------------------------------------

std::string turn_text(const Ctx& c) {
  const json& t = c.table;
  const std::string phase = str(t, "phase");
  const Style& st = c.st;
  std::string out;
  if (phase == "timewarp") {
    out +=
        wrap("",
             {st.bold("opening:"), c.names.seat(num(t, "to_act")), "to choose: keep its opening hand or take TimeWarp",
              fmt::format("(start player seat {})", num(t, "start_player"))},
             " ", 2);
    return out;
  }
  if (phase == "over") {
    const json& w = sub(t, "winner");
    out += wrap("",
                {st.bold(fmt::format("game over on turn {}:", num(t, "turn"))), end_words(str(t, "end")) + ";",
                 w.is_number_integer() ? c.names.seat(w.get<int>()) + " wins" : std::string("a draw")},
                " ", 2);
    return out;
  }
  out +=
      wrap("",
           {st.bold(fmt::format("turn {} of at most {}:", num(t, "turn"), num(sub(t, "config"), "max_turns"))),
            c.names.seat(num(t, "on_turn")), "on turn;", fmt::format("start player seat {}", num(t, "start_player"))},
           " ", 2);
  const json& tt = sub(t, "this_turn");
  if (tt.is_object()) {
    std::vector<std::string> items = {
        fmt::format("{} of {} moves left,", num(tt, "moves_left"), kMaxMoves),
        fmt::format("{} action card{} and {} artifact{} played,", num(tt, "actions"),
                    num(tt, "actions") == 1 ? "" : "s", num(tt, "artifacts"), num(tt, "artifacts") == 1 ? "" : "s"),
        fmt::format("bombards {} of {};", num(tt, "bombards"), kMaxBombards),
        fmt::format("next attack costs: ship {} Ammo, character {} Energy", num(tt, "next_ship_attack_ammo"),
                    num(tt, "next_character_attack_energy"))};
    out += wrap("this turn: ", items, " ", 2);
  }
  const json& pending = sub(t, "pending");
  if (pending.is_object()) {
    const int attacker = num(pending, "attacker");
    const json& a = player(t, attacker);
    const json& d = player(t, 1 - attacker);
    out += wrap("",
                {st.paint("pending attack:", "1;31"),
                 fmt::format("seat {}'s {} attacks seat {}'s {}, base {};", attacker, unit_name(a, str(pending, "by")),
                             1 - attacker, unit_name(d, str(pending, "target")), num(pending, "base")),
                 c.names.seat(1 - attacker), "may react (Defensive Cloak, Force Field or none)"},
                " ", 2);
  }
  return out;
}

// Where every unit stands on the line: seat 0's planets, its Orbit, the Battlefield, seat 1's
// Orbit, seat 1's planets; and the range between the active units.
std::string line_text(const Ctx& c) {
  std::array<std::vector<std::string>, 5> cells;
  std::array<int, kSeats> active{};
  for (int seat = 0; seat < kSeats; ++seat) {
    const json& p = player(c.table, seat);
    if (!p.is_object()) return "";
    const bool ship_alive = num(p, "ship_hp") > 0;
    const json& ship_at = sub(p, "ship_at");
    const json& char_at = sub(p, "character_at");
    auto cell_of = [&](const json& at) {
      const int i = line_index_of(at);
      return static_cast<std::size_t>(seat == 0 ? i : 4 - i);
    };
    auto put = [&](const json& at, const std::string& what) {
      std::string text = what;
      if (str(at, "zone") == "planet") text += " on " + place(c, at);
      if (str(at, "zone") == "battlefield") text += fmt::format(" (seat {})", seat);
      cells[cell_of(at)].push_back(text);
    };
    if (ship_alive && ship_at == char_at) {
      put(ship_at, ship_name(p) + " with " + character_name(p));
    } else {
      if (ship_alive) put(ship_at, ship_name(p));
      put(char_at, character_name(p));
    }
    active[static_cast<std::size_t>(seat)] = line_index_of(ship_alive ? ship_at : char_at);
  }
  const std::array<std::string, 5> labels = {"seat 0's planets", "seat 0's Orbit", "Battlefield", "seat 1's Orbit",
                                             "seat 1's planets"};
  std::vector<std::string> items;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    std::string units;
    for (const auto& u : cells[i]) units += (units.empty() ? "" : ", ") + u;
    items.push_back(fmt::format("[{}: {}]", labels[i], units.empty() ? "-" : c.st.bold(units)));
  }
  std::string out = wrap("the line: ", items, " - ", 4);
  out += fmt::format("  range between the active units: {} step{}\n", 4 - active[0] - active[1],
                     4 - active[0] - active[1] == 1 ? "" : "s");
  return out;
}

std::string seat_text(const Ctx& c, const json& p, int seat) {
  const Style& st = c.st;
  const json& t = c.table;
  std::string extra = fmt::format("  {} with the {}", character_name(p), ship_name(p));
  const std::string phase = str(t, "phase");
  if ((phase == "main" || phase == "reaction") && num(t, "on_turn", -1) == seat) extra += st.paint("  on turn", "1");
  std::string out = seat_heading(c.names, seat, sub(t, "to_act"), st, extra);

  const bool ship_alive = num(p, "ship_hp") > 0;
  const json& ship_at = sub(p, "ship_at");
  const json& char_at = sub(p, "character_at");
  out += hp_line(character_name(p), num(p, "hp"), num(p, "max_hp"),
                 ship_alive && ship_at == char_at ? "aboard, at " + place(c, char_at) : "at " + place(c, char_at), st,
                 "defeated");
  out += hp_line(ship_name(p), num(p, "ship_hp"), num(p, "max_ship_hp"),
                 (ship_alive ? "at " : "lost at ") + place(c, ship_at), st);
  const json& reinforcements = sub(p, "reinforcements");
  if (reinforcements.is_object()) {
    out += hp_line("Reinforcements", num(reinforcements, "hp"), kReinforcementsHp,
                   fmt::format("#{}", num(reinforcements, "id")), st);
  }

  // The primary slots as words that wrap between cards: "Water (2): Water +1, Water +2; Stars ...".
  std::vector<std::string> primary;
  auto slot = [&](const std::string& head, const char* key, const char* end) {
    const auto& cards = list(p, key);
    if (cards.empty()) {
      primary.push_back(head + " -" + end);
      return;
    }
    for (std::size_t i = 0; i < cards.size(); ++i) {
      primary.push_back((i == 0 ? head + " " : std::string()) + paint_card(cards[i], card_name(cards[i]), st) +
                        (i + 1 < cards.size() ? "," : end));
    }
  };
  slot(fmt::format("Water ({}):", list(p, "water").size()), "water", ";");
  slot(fmt::format("Stars (total {}):", num(p, "star_total")), "stars", "");
  out += wrap("  primary: ", primary, " ", 4);

  std::vector<std::string> elements;
  for (const json& e : list(p, "elements")) {
    const bool depleted = sub(e, "depleted").is_boolean() && sub(e, "depleted").get<bool>();
    elements.push_back(paint_card(e, card_ref(e), st) + (depleted ? st.dim(" (depleted)") : " (charged)"));
  }
  out += elements.empty() ? "  E115 in play: -\n" : wrap("  E115 in play: ", elements, ", ", 4);

  // One line per planet (wrapped): its R, colony, harvest (or how many cards lie face down).
  const json& planet_list = list(p, "planets");
  out += fmt::format("  planets ({}R of {}):{}\n", num(p, "planet_total"), kPlanetCap, planet_list.empty() ? " -" : "");
  for (const json& pl : planet_list) {
    const std::string head = "    " + paint_card(pl, card_ref(pl), st) + fmt::format(" {}R", num(pl, "r"));
    std::string tail;
    const json& colony = sub(pl, "colony");
    if (colony.is_object()) tail += ", colonised: " + paint_card(colony, card_ref(colony), st);
    if (sub(pl, "depleted").is_boolean() && pl.at("depleted").get<bool>()) tail += st.paint(" (depleted)", "31");
    const int size = num(pl, "harvest_size");
    std::vector<std::string> harvest;
    if (pl.contains("harvest") && pl.at("harvest").is_array()) {
      for (const json& card : pl.at("harvest")) harvest.push_back(paint_card(card, card_name(card), st));
    }
    if (!harvest.empty()) {
      harvest.back() += "]" + tail;
      out += wrap(head + fmt::format(" [{} harvested: ", size), harvest, ", ", 8);
    } else {
      out += head + (size > 0 ? fmt::format(" [{} harvested, face down]", size) : std::string(", no harvest")) + tail +
             "\n";
    }
  }

  std::vector<std::string> gates;
  for (const json& g : list(p, "gates")) {
    const bool usable = !sub(g, "usable").is_boolean() || g.at("usable").get<bool>();
    gates.push_back(
        fmt::format("{} at {} ({})", card_ref(g), place(c, sub(g, "at")), usable ? "usable" : "used this turn"));
  }
  out += gates.empty() ? "  gates: -\n" : wrap("  gates: ", gates, ", ", 4);
  std::vector<std::string> pods;
  for (const json& pod : list(p, "pods")) pods.push_back(card_ref(pod));
  std::vector<std::string> notes = {fmt::format("escape pods: {}", pods.size())};
  for (const auto& x : pods) notes.back() += (x == pods.front() ? " (" : ", ") + x + (x == pods.back() ? ")" : "");
  if (!reinforcements.is_object()) notes.push_back("no Reinforcements");
  if (str(p, "timewarp") == "took") notes.push_back("took TimeWarp");
  if (sub(p, "bonus_draw").is_boolean() && p.at("bonus_draw").get<bool>())
    notes.push_back("draws 2 + 2 on its first turn");
  if (sub(p, "invasion_used").is_boolean() && p.at("invasion_used").get<bool>()) notes.push_back("Invasion used");
  out += wrap("  ", notes, "; ", 4);

  if (p.contains("hand") && p.at("hand").is_array()) {
    std::vector<std::string> hand;
    for (const json& card : p.at("hand")) hand.push_back(paint_card(card, card_ref(card), st));
    out += hand_line(hand);
  } else {
    out += fmt::format("  hand: {} cards ({} Resource, {} Main), faces hidden\n", num(p, "hand_size"),
                       num(p, "hand_resource"), num(p, "hand_main"));
  }
  const json& discard = list(p, "discard");
  out +=
      fmt::format("  decks: {} Resource, {} Main; discard {}{}; void {}\n", num(p, "resource_deck"),
                  num(p, "main_deck"), discard.size(),
                  discard.empty() ? std::string() : " (top " + card_name(discard.back()) + ")", list(p, "void").size());
  return out;
}

}  // namespace

std::string draw_table(const json& t, const Names& names, const Style& st) {
  Ctx c{t, names, st, {}};
  collect_cards(t, c.cards);
  std::string out = turn_text(c);
  out += line_text(c);
  const json& players = list(t, "players");
  for (std::size_t s = 0; s < players.size(); ++s) out += seat_text(c, players[s], static_cast<int>(s));
  const auto now = events_words(c, list(t, "events"));
  const auto before = events_words(c, list(t, "last_events"));
  out += "\n";
  out += now.empty() ? "events this turn: none yet\n" : wrap("events this turn: ", now, "; ", 4);
  if (!before.empty()) out += wrap(st.dim("the turn before: "), before, "; ", 4);
  return out;
}

std::string describe_action(const json& before, const json& a) {
  const std::string kind = str(a, "kind");
  const json& actor_seat = sub(before, "to_act").is_number_integer() ? sub(before, "to_act") : sub(before, "seat");
  const int seat = actor_seat.is_number_integer() ? actor_seat.get<int>() : -1;
  const json& me = player(before, seat);
  const Style plain(false);
  const Names no_names;
  Ctx c{before, no_names, plain, {}};
  collect_cards(before, c.cards);
  const std::string unit = num(me, "ship_hp", 1) > 0 ? ship_name(me) : character_name(me);
  if (kind == "keep") return "keeps the opening hand";
  if (kind == "timewarp") return "takes TimeWarp (reshuffles, draws 3 Resource + 7 Main again)";
  if (kind == "end_turn") return "ends the turn";
  if (kind == "move") return fmt::format("moves the {} to {}", unit, place(c, sub(a, "to")));
  if (kind == "teleport") {
    std::string where = "?";
    for (const json& g : list(me, "gates")) {
      if (sub(g, "id") == sub(a, "gate")) where = place(c, sub(g, "at"));
    }
    return fmt::format("teleports the {} through {} to {}", unit, id_ref(c, sub(a, "gate")), where);
  }
  if (kind == "pod") {
    return fmt::format("escapes: the {} takes an Escape Pod to {} (the turn ends)", character_name(me),
                       place(c, sub(a, "to")));
  }
  if (kind == "play") {
    const json& id = sub(a, "card");
    auto it = id.is_number_integer() ? c.cards.find(id.get<int>()) : c.cards.end();
    std::string name = it == c.cards.end() ? fmt::format("card #{}", one_line(id, 12)) : card_name(it->second);
    const KindInfo* k = it == c.cards.end() ? nullptr : kind_of(it->second);
    if (k != nullptr && k->kind == Kind::into_the_void && sub(a, "target").is_number_integer()) {
      return "Into the Void on " + id_ref(c, sub(a, "target"));
    }
    std::string out = "plays " + name;
    if (sub(a, "target").is_number_integer()) out += " on " + id_ref(c, sub(a, "target"));
    if (sub(a, "to").is_object()) out += " at " + place(c, sub(a, "to"));
    if (k != nullptr) {
      switch (k->category) {
        case Category::water:
          out += " into the primary Water slot";
          break;
        case Category::star:
          out += " into the primary Star slot";
          break;
        case Category::e115:
          out += " into play (it enters depleted)";
          break;
        case Category::planet:
          out += fmt::format(" into its Planet section ({}R)", k->value);
          break;
        default:
          break;
      }
    }
    return out;
  }
  if (kind == "attack") {
    const std::string by = str(a, "by");
    const json& tt = sub(before, "this_turn");
    const std::string aim = sub(a, "target").is_number_integer() ? " at the Reinforcements" : "";
    if (by == "ship") {
      return fmt::format("attacks with the ship ({}, {} Ammo){}", ship_name(me), num(tt, "next_ship_attack_ammo"), aim);
    }
    return fmt::format("attacks with the character ({}, {} Energy){}", character_name(me),
                       num(tt, "next_character_attack_energy"), aim);
  }
  if (kind == "invasion") return "invades " + id_ref(c, sub(a, "planet")) + " (Invasion: draws Resource cards)";
  if (kind == "bombard") return "bombards the Reinforcements (pays 1, rolls 2 dice)";
  if (kind == "pass") return "does not react";
  if (kind == "cloak") return "Defensive Cloak (the attacker draws a Resource card that sets the damage)";
  if (kind == "force_field") return fmt::format("Force Field (-{} damage)", kForceField);
  return "plays " + one_line(a);
}

std::string draw_outcome(const json& o, const json&, const Names& names, const Style& st) {
  std::string out =
      wrap("", {"end:", end_words(str(o, "end")), fmt::format("after {} turns", num(o, "turns"))}, " ", 2);
  const json& hp = list(o, "hp");
  const json& ship = list(o, "ship_hp");
  const json& scores = list(o, "scores");
  for (std::size_t s = 0; s < hp.size(); ++s) {
    std::string line = "  " + pad(names.seat(static_cast<int>(s)), 28) +
                       fmt::format("character {:>3} HP, ship {:>3} HP", hp[s].is_number() ? hp[s].get<int>() : 0,
                                   s < ship.size() && ship[s].is_number() ? ship[s].get<int>() : 0);
    if (s < scores.size() && scores[s].is_number()) line += fmt::format("   score {}", scores[s].get<double>());
    out += line + "\n";
  }
  const json& w = sub(o, "winner");
  out += st.bold(w.is_number_integer() ? names.seat(w.get<int>()) + " wins" : std::string("a draw")) + "\n";
  return out;
}

}  // namespace arena::interstellar
