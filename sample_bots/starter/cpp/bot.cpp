// Starter bot in C++20 (one file, nlohmann/json only): plays every game of the referee.
// Build: g++ -std=c++20 -O2 bot.cpp -o starter_cpp      (or the CMake target starter_cpp)
//
// The protocol (docs/protocol.md): one JSON object per line on stdin, one per line on stdout,
// flushed. Diagnostics go to stderr only: every stdout line must be a message.
//
//   hello     -> answer ready (protocol 2 when offered, else 1)
//   request   -> answer action: one entry of "legal", copied unchanged, with the request's id
//   game_over -> nothing to answer; keep reading: stdin closes (we exit) or a new hello comes
//
// It picks its action by a simple rule per game (choose_stellar, choose_stella_quest,
// choose_interstellar), and the first legal action in a game it does not know. Every answer is
// copied from "legal", so it is always legal.

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

using nlohmann::json;

namespace {

constexpr const char* kName = "starter_cpp";

// One message, one line, then flush: the referee waits for the newline and times out on a
// line stuck in a buffer.
void send(const json& message) {
  std::cout << message.dump() << '\n' << std::flush;
}

// The first action of `legal` with the highest key(action): the legal list's order breaks ties.
template <typename Key>
const json& best(const json& legal, Key key) {
  const json* top = &legal.front();
  auto top_key = key(*top);
  for (const json& action : legal) {
    const auto k = key(action);
    if (k > top_key) top = &action, top_key = k;
  }
  return *top;
}

// The first action for which pred(action) holds, else the first legal action.
template <typename Pred>
const json& first_or_any(const json& legal, Pred pred) {
  const auto it = std::find_if(legal.begin(), legal.end(), pred);
  return it != legal.end() ? *it : legal.front();
}

// ---------------------------------------------------------------------------------------------
// Stellar (docs/games/stellar.md). Cards are objects {"id","name","type","number","stars"} in
// protocol 1; in protocol 2 a view names them by id and hello["cards"][id] is the object.

// Turns what a view holds for a card (an object, or an id in protocol 2) into the object.
struct Cards {
  const json& table;  // protocol 2: hello["cards"], element i is card i (or null)
  const json& view;   // its "cards" holds the objects the table lacks (another seat's deck)

  json operator()(const json& ref) const {
    if (!ref.is_number_integer()) return ref;  // protocol 1: the object (or null, an empty slot)
    const auto id = ref.get<std::size_t>();
    if (id < table.size() && table[id].is_object()) return table[id];
    for (const json& card : view.value("cards", json::array())) {
      if (card.is_object() && card.value("id", -1) == ref) return card;
    }
    return {{"id", ref}, {"type", "?"}, {"number", 3}, {"stars", 0}};
  }
};

int number_value(const json& card) {
  return card["number"].is_string() ? 6 : card["number"].get<int>();  // "6/0" counts 6 here
}

// True when the card's number is next to a number of its type already in the notebook.
bool extends_run(const json& card, const json& notebook) {
  const int n = number_value(card);
  bool next_to = false;
  for (const json& c : notebook) {
    if (c["type"] != card["type"]) continue;
    if (number_value(c) == n) return false;  // a duplicate adds nothing to a run
    next_to = next_to || number_value(c) == n - 1 || number_value(c) == n + 1;
  }
  return next_to;
}

json choose_stellar(const json& request, const json& table) {
  const json& view = request["view"];
  const json& legal = request["legal"];
  const Cards card{table, view};
  const json& me = view["players"][view["seat"].get<std::size_t>()];
  json notebook = json::array();
  for (const json& c : me["notebook"]) notebook.push_back(card(c));
  std::map<std::int64_t, json> hand;  // card id -> card
  for (const json& c : me.value("hand", json::array())) hand[card(c)["id"].get<std::int64_t>()] = card(c);
  const auto in_hand = [&](const json& action) { return hand.at(action["card"].get<std::int64_t>()); };
  const std::string phase = view["phase"];

  if (phase == "take") {
    // The row card with the most stars (ties: the lowest slot, the first in "legal").
    return best(legal,
                [&](const json& a) { return card(view["row"][a["slot"].get<std::size_t>() - 1])["stars"].get<int>(); });
  }
  if (phase == "play") {
    // A card with stars goes face up into the telescope (stars count only face up); one
    // without, or one that lengthens a run of its type, into the notebook; never face down.
    return best(legal, [&](const json& a) {
      const json c = in_hand(a);
      if (a["area"] == "notebook") return extends_run(c, notebook) ? 3 : 1;
      return a["face"] == "up" ? 2 * c["stars"].get<int>() : 0;
    });
  }
  if (phase == "place") {
    // Step 3's card ("placing") must go into the telescope: face up if it may.
    return first_or_any(legal, [](const json& a) { return a["face"] == "up"; });
  }
  if (phase == "refresh") {
    // Refresh the row only when it holds no card with 2 stars or more.
    int stars = 0;
    for (const json& c : view["row"]) {
      if (!c.is_null()) stars = std::max(stars, card(c)["stars"].get<int>());
    }
    return first_or_any(legal, [&](const json& a) { return a["accept"] == (stars < 2); });
  }
  if (phase == "keep") {
    // The last card to the notebook: one that lengthens a run, else the first.
    return first_or_any(legal, [&](const json& a) { return extends_run(in_hand(a), notebook); });
  }
  return legal.front();  // choose_starter (both starters are 3s with 2 stars), or a new phase
}

// ---------------------------------------------------------------------------------------------
// Stella Quest (docs/games/stella_quest.md). Cards are faces: "Blue 6", "Break". Other hands
// show their colours only.

std::string face_colour(const std::string& face) {  // "Blue 6" -> "blue", "Break" -> "break"
  std::string colour = face.substr(0, face.find(' '));
  std::transform(colour.begin(), colour.end(), colour.begin(), [](unsigned char ch) { return std::tolower(ch); });
  return colour;
}

int face_number(const std::string& face) {  // "Blue 6" -> 6, "Break" -> 0
  const auto space = face.find(' ');
  return space == std::string::npos ? 0 : std::stoi(face.substr(space + 1));
}

int jewels(int number) {
  return number <= 2 ? 3 : number <= 4 ? 2 : 1;
}

json choose_stella_quest(const json& request) {
  const json& view = request["view"];
  const json& legal = request["legal"];
  const json& me = view["players"][view["seat"].get<std::size_t>()];
  const std::string phase = view["phase"];
  const auto face = [](const json& a) { return a["card"].get<std::string>(); };

  if (phase == "play") {
    // Never buy cards ("draw"). Winning while holding the marker costs a token: then try to
    // lose (a break, else the lowest card); otherwise try to win (a trump, else the highest).
    json plays = json::array();
    for (const json& a : legal) {
      if (a["kind"] == "play") plays.push_back(a);
    }
    if (plays.empty()) return legal.front();
    if (view["marker"] == view["seat"]) {
      return best(plays, [&](const json& a) { return face_colour(face(a)) == "break" ? 100 : -face_number(face(a)); });
    }
    const json trump = view["trump"];  // a colour, or null when a break is on top
    return best(plays, [&](const json& a) { return (trump == face_colour(face(a)) ? 10 : 0) + face_number(face(a)); });
  }
  if (phase == "collect") {
    // A number not yet collected, with the most jewels; else the duplicate costing least.
    return best(legal, [&](const json& a) {
      const int n = face_number(face(a));
      const bool have = std::any_of(me["collection"].begin(), me["collection"].end(),
                                    [&](const json& c) { return face_number(c.get<std::string>()) == n; });
      return have ? -jewels(n) : jewels(n);
    });
  }
  if (phase == "top") {
    // The card on top of the discard pile sets the next trump: the colour we hold most of.
    return best(legal, [&](const json& a) {
      return std::count(me["hand_colours"].begin(), me["hand_colours"].end(), face_colour(face(a)));
    });
  }
  return legal.front();
}

// ---------------------------------------------------------------------------------------------
// Interstellar (docs/games/interstellar.md). Each seat has a character ("hp") and its ship
// ("ship_hp"); the ship must fall before the character can be hit, and a character at 0 HP
// loses. A card is {"id","card"} in protocol 1 ("card" is its kind: "water_1", "e115", "earth",
// ...); in protocol 2 a view names it by id and hello["cards"][id] is the object (your own cards;
// the other seat's that a view names are in its "cards"). Only your own hand is shown
// (me["hand"]), the other seat's as counts.

bool is_star(const std::string& kind) {
  return kind == "proxima_centauri" || kind == "binary_star" || kind == "orions_belt";
}

json choose_interstellar(const json& request, const json& table) {
  const json& view = request["view"];
  const json& legal = request["legal"];
  const json& me = view["players"][view["seat"].get<std::size_t>()];
  const std::string phase = view["phase"];
  const auto is = [](const char* kind) { return [kind](const json& a) { return a["kind"] == kind; }; };

  if (phase == "reaction") {
    // Attacked out of turn: view["pending"] is the attack, {"by":"ship"|"character",
    // "target":"ship"|"character","base":DAMAGE before range}. Play a Force Field (-40 damage)
    // for our character, or for our ship when the blow could destroy it; else pass (legal[0]).
    const json& pending = view["pending"];
    const bool shield = pending["target"] == "character" || me["ship_hp"].get<int>() <= pending["base"].get<int>();
    return shield ? first_or_any(legal, is("force_field")) : legal.front();
  }
  if (phase != "main") return legal.front();  // timewarp: "keep" the opening hand

  const json& turn = view["this_turn"];  // this turn's counts: moves, played_card, attacks...
  const json& end_turn = first_or_any(legal, is("end_turn"));
  // Deck-out: with config "literal_win", a seat whose Main deck is empty and that plays no card
  // in a turn wins when the turn ends.
  if (view["config"]["deckout"] == "literal_win" && me["main_deck"] == 0 && !turn["played_card"].get<bool>()) {
    return end_turn;
  }
  std::map<std::int64_t, std::string> hand;  // card id -> kind
  for (const json& ref : me["hand"]) {       // protocol 1: the object; protocol 2: the id, in our table
    const json& c = ref.is_object() ? ref : table[ref.get<std::size_t>()];
    hand[c["id"].get<std::int64_t>()] = c["card"].get<std::string>();
  }
  for (const json& a : legal) {
    // 1. Cards that cost nothing and help at once: an E115 (pays 3, recharges every turn), a
    //    star (character attacks need one), Water into the empty slot (moving needs Water and a
    //    star; more Water stays in hand to pay costs), Reinforcements (15 damage at the start of
    //    each of our turns), Space Junk (2 Resource cards) while it is free: the turn's first
    //    action card costs nothing, each further one a card.
    if (a["kind"] != "play") continue;
    const std::string kind = hand[a["card"].get<std::int64_t>()];
    if (kind == "e115" || is_star(kind) || (kind.rfind("water", 0) == 0 && me["water"].empty()) ||
        kind == "reinforcements" || (kind == "space_junk" && turn["actions"] == 0)) {
      return a;
    }
  }
  // 2. The ship one step toward the Battlefield (less range penalty), once a turn: a 2nd move
  //    would end the turn. me["ship_at"]["zone"] is "planet", "orbit" or "battlefield".
  if (turn["moves"] == 0) {
    for (const json& a : legal) {
      if (a["kind"] == "move" && a["to"]["zone"] == "battlefield") return a;
    }
  }
  // 3. Attack while we can pay: the ship first (it comes first in "legal"), then the character.
  const json& attack = first_or_any(legal, is("attack"));
  if (attack["kind"] == "attack") return attack;
  // 4. Nothing left: end the turn.
  std::cerr << kName << ": turn " << view["turn"] << " ends: our hp " << me["hp"] << ", ship " << me["ship_hp"]
            << " at " << me["ship_at"]["zone"].get<std::string>() << '\n';
  return end_turn;
}

// ---------------------------------------------------------------------------------------------

// 2 when the referee offers it, 1 when hello says 1, 0 for a version we do not speak.
int choose_protocol(const json& hello) {
  for (const json& v : hello.value("protocols", json::array())) {
    if (v == 2) return 2;
  }
  return hello.value("protocol", 0) == 1 ? 1 : 0;
}

}  // namespace

int main() {
  std::ios::sync_with_stdio(false);  // fast reads (cin in blocks, not a character at a time)
  std::cin.tie(nullptr);

  int protocol = 1;
  std::string game;
  std::size_t seat = 0;
  json table = json::array();  // protocol 2: hello["cards"]
  std::string line;
  while (std::getline(std::cin, line)) {  // the loop ends at EOF: the referee has closed our stdin
    const json message = json::parse(line);
    const std::string type = message.value("type", "");

    if (type == "hello") {  // a new match
      protocol = choose_protocol(message);
      if (protocol == 0) {
        std::cerr << kName << ": unknown protocol " << message.value("protocol", json()) << ": stopping\n";
        return 1;
      }
      game = message["game"];
      seat = message["seat"];
      table = message.value("cards", json::array());
      std::cerr << kName << ": " << game << ", seat " << seat << " of " << message["seats"] << ", protocol " << protocol
                << '\n';
      json ready = {{"type", "ready"}, {"protocol", protocol}, {"name", kName}, {"version", "1.0"}};
      if (protocol == 2) ready["reuse"] = true;  // we treat every hello as a new match (version 2 only)
      send(ready);

    } else if (type == "request") {
      json action;
      if (game == "stellar") {
        action = choose_stellar(message, table);
      } else if (game == "stella_quest") {
        action = choose_stella_quest(message);
      } else if (game == "interstellar") {
        action = choose_interstellar(message, table);
      } else {
        action = message["legal"].front();  // a game this bot does not know: still legal
      }
      send({{"type", "action"}, {"protocol", protocol}, {"id", message["id"]}, {"action", action}});

    } else if (type == "game_over") {
      const json& result = message["result"];
      const json ranks = result.value("ranks", json::array());
      std::cerr << kName << ": game over: " << result["end"].get<std::string>() << ", our rank "
                << (seat < ranks.size() ? ranks[seat] : json()) << ", scores " << result["scores"] << '\n';
    }
  }
  return 0;
}
