#pragma once
// interstellar_policy.hpp: a heuristic Interstellar policy, header-only and standalone (the
// standard library and nlohmann/json only). `interstellar_policy::decide(request)` takes a
// request whose view is an Interstellar view (protocol 1's, or protocol 2's expanded by
// protocol2.hpp's CardTable: greedy_bot does that) and returns
// one of its legal actions. greedy_bot uses it through greedy::decide; copy it and improve it.
//
// The game in one breath: each seat has a character and its ship; the ship must fall before the
// character can be hit, and a character at 0 HP loses. A turn is any number of actions, ended by
// "end_turn" or by the 2nd move. Attacks cost Ammo (ship) or Energy (character), one more per
// attack of that unit this turn, and lose damage with range: 30 per step for a ship, 5 for a
// character, on the line own Planet - own Orbit - Battlefield - their Orbit - their Planet.
//
// The policy scores every legal action and takes the best; "end_turn" is worth 0, so the turn
// ends when nothing positive is left. By score, so in this order within a turn:
//   1. deck-out: with the config's "literal_win", a seat whose Main deck is empty and that has
//      played no card this turn wins by ending it: end the turn at once. With "loss" the same
//      turn loses: play a card first (Harvest, which goes back into the Main deck, if it can).
//   2. free cards that build the engine: an E115 (a wild 3 that recharges every turn), Water
//      when the primary slot is empty (moving needs Water and a star; further Water stays in
//      hand to pay), every star (character attacks need one), Secret Formula (5 of face value in
//      hand become one more E115), Reinforcements (15 damage at the start of each of our turns);
//   3. one move toward the Battlefield (each step is 30 more ship damage; the range is the same
//      both ways, so only when a ship attack is affordable now);
//   4. cards that draw resources: Depletion on the planet that gives most (its uncollected
//      cards plus R/2 or R/3; an opponent's planet on a tie), Space Junk while it is the free
//      action card of the turn, a planet of R 6 or more while it is the free artifact and a
//      Depletion in hand can turn it into cards; Into the Void on the opponent's Reinforcements;
//   5. attacks while they are affordable and do damage after range: the ship, then the
//      character (a ship's shot at a character lands on an even die only: half its value);
//      Invasion of the biggest planet (after a character attack, as the rules require);
//   6. then, with what is left: Harvest when it puts 2 cards or more on planets that the ship
//      or a Depletion in hand can collect, Into the Void on an E115 (or, paid with a card, on
//      Reinforcements), Space Junk paid with a card, bombarding Reinforcements with spare cards
//      (Halley's Comet, Water);
//   7. the 2nd move (it ends the turn) only toward the Battlefield, as the turn's last action.
// Out of turn, when attacked: Force Field (-40) or the UFO's Defensive Cloak (the attacker
// draws a card that sets the damage; about 48 on average instead of 125) when the damage it
// saves is worth the cards it costs: always for the character, and for the ship against a heavy
// blow or the one that would destroy it.
// Never: TimeWarp (the opponent would draw 2 + 2 on its first turn), Gates, teleports, Escape
// Pods.

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace interstellar_policy {

using nlohmann::json;

struct Decision {
  json action;        // one of the request's legal actions
  std::string debug;  // a short note for the replay
};

namespace detail {

// IS-Core's numbers (referee/games/interstellar/cards.cpp, docs/games/interstellar.md).
constexpr int kShipStep = 30;      // range penalty per step, ship attacks
constexpr int kCharacterStep = 5;  // the same for character attacks
constexpr int kForceField = 40;    // damage a Force Field takes off
constexpr int kUfoSplash = 10;     // the UFO's beams on a ship also hit its character
constexpr double kCloakBase = 48;  // the Defensive Cloak's expected base damage (IS-Core deck)
constexpr int kMinPlanetForDepletion = 6;

inline int ship_damage(const json& player) {  // the ship's primary attack before range
  return player.value("ship", "") == "star_cruiser" ? 110 : 125;
}
inline int character_damage(const json& player) {  // Shifter's Mirror: 30 + 5; Shane: 30
  return player.value("character", "") == "shifter" ? 35 : 30;
}

// A place's index on its owner's line: planet 0, orbit 1, battlefield 2.
inline int line_index(const json& at) {
  if (!at.is_object()) return 1;
  const std::string zone = at.value("zone", "orbit");
  return zone == "planet" ? 0 : zone == "battlefield" ? 2 : 1;
}
// Steps between a unit of one seat at `from` and a unit of the other at `to`.
inline int distance(const json& from, const json& to) {
  return 4 - line_index(from) - line_index(to);
}

inline bool starts_with(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}
inline bool is_star(const std::string& key) {
  return key == "proxima_centauri" || key == "binary_star" || key == "orions_belt";
}
inline int planet_r(const std::string& key) {  // R of a planet card, 0 for any other card
  static const std::map<std::string, int> kR = {{"proxima_b", 12}, {"earth", 12}, {"titan", 9},   {"unknown_planet", 9},
                                                {"saturn", 6},     {"mars", 6},   {"venus", 6},   {"jupiter", 6},
                                                {"mercury", 3},    {"uranus", 3}, {"neptune", 3}, {"pluto", 3}};
  const auto it = kR.find(key);
  return it == kR.end() ? 0 : it->second;
}
// Cards a Depletion on a planet of R `r` draws besides its uncollected ones.
inline int depletion_more(int r) {
  return r % 2 == 1 ? r / 3 : r / 2;
}

struct Context {
  const json& view;
  const json& me;
  const json& opp;
  const json& turn;                       // view["this_turn"]
  std::map<long long, std::string> hand;  // card id -> card key
  bool literal_win = true;                // config "deckout"
  bool must_play = false;                 // "loss": an empty Main deck, no card played yet this turn
  int hand_depletions = 0;
  int spare = 0;             // hand cards a generic cost takes first and attacks never need (Halley, Water)
  bool ship_attack = false;  // a ship attack is legal now

  Context(const json& v, const json& m, const json& o)
      : view(v), me(m), opp(o), turn(v.contains("this_turn") && v["this_turn"].is_object() ? v["this_turn"] : v) {
    for (const json& c : me.value("hand", json::array())) {
      const std::string key = c.value("card", "");
      hand[c.value("id", -1LL)] = key;
      if (key == "depletion") ++hand_depletions;
      if (key == "halley" || starts_with(key, "water")) ++spare;
    }
    literal_win = view.value("config", json::object()).value("deckout", "literal_win") != "loss";
    must_play = !literal_win && me.value("main_deck", 1) == 0 && !turn.value("played_card", true);
  }

  std::string card(const json& action) const {
    const auto it = hand.find(action.value("card", -1LL));
    return it == hand.end() ? std::string() : it->second;
  }
  bool ship_alive(const json& player) const { return player.value("ship_hp", 0) > 0; }
  // Where a player's active unit stands: the ship while it lives, else the character.
  const json& unit_at(const json& player) const {
    return ship_alive(player) ? player["ship_at"] : player["character_at"];
  }
  // The extra generic cost (cards) of the next action card / artifact this turn.
  int action_extra() const { return turn.value("actions", 0) >= 1 ? 1 : 0; }
  int artifact_extra() const { return turn.value("artifacts", 0) >= 1 ? 1 : 0; }
};

// The expected damage of our next attack with `by` ("ship" or "character") on the opponent.
inline double attack_damage(const Context& c, const std::string& by) {
  const bool target_ship = c.ship_alive(c.opp);
  const json& target = c.unit_at(c.opp);
  if (by == "ship") {
    double dealt = std::max(0, ship_damage(c.me) - kShipStep * distance(c.me["ship_at"], target));
    if (!target_ship) return dealt / 2;  // lands on an even die only
    if (c.me.value("ship", "") == "ufo") dealt += kUfoSplash;
    return dealt;
  }
  return std::max(0, character_damage(c.me) - kCharacterStep * distance(c.me["character_at"], target));
}

// The value of one planet as a Depletion target: the cards it draws (capped by our deck).
inline int depletion_draw(const Context& c, long long planet_id, bool* opponents) {
  for (const json* owner : {&c.me, &c.opp}) {
    for (const json& pl : (*owner)["planets"]) {
      if (pl.value("id", -1LL) != planet_id) continue;
      *opponents = owner == &c.opp;
      const int n = pl.value("harvest_size", 0) + depletion_more(pl.value("r", 0));
      return std::min(n, c.me.value("resource_deck", 0));
    }
  }
  return 0;
}

// Cards a Harvest would put on our planets now (R/3 each, one more with a Colonization on it; our
// deck permitting).
inline int harvest_yield(const Context& c) {
  int n = 0;
  for (const json& pl : c.me["planets"]) {
    n += pl.value("r", 0) / 3 + (pl.contains("colony") && pl["colony"].is_object() ? 1 : 0);
  }
  return std::min(n, c.me.value("resource_deck", 0));
}

inline double main_value(const Context& c, const json& a) {
  const std::string kind = a.value("kind", "");
  const int moves = c.turn.value("moves", 0);
  if (kind == "end_turn") {
    // literal_win: an empty Main deck and no card played this turn: ending it wins the game.
    if (c.literal_win && c.me.value("main_deck", 1) == 0 && !c.turn.value("played_card", true)) return 1000;
    return 0;
  }
  if (kind == "play") {
    const std::string key = c.card(a);
    double v = -1;
    if (key == "e115") {
      v = 100;
    } else if (is_star(key)) {
      v = 95;
    } else if (starts_with(key, "water")) {
      v = c.me["water"].empty() ? 96 : -1;  // one in the slot is enough; the rest pays costs
    } else if (key == "secret_formula") {
      v = 85;
    } else if (key == "reinforcements") {
      v = 84;
    } else if (key == "depletion") {
      bool opponents = false;
      const int drawn = depletion_draw(c, a.value("target", -1LL), &opponents);
      if (drawn >= 2 + c.action_extra()) v = 70 + drawn + (opponents ? 0.5 : 0);
    } else if (key == "space_junk") {
      v = c.action_extra() == 0 ? 68 : 40;
    } else if (planet_r(key) > 0) {
      // Worth it while a Depletion can turn it into cards: R/2 (even R) or R/3 of them.
      const int r = planet_r(key);
      if (c.hand_depletions > 0 && r >= kMinPlanetForDepletion) v = (c.artifact_extra() == 0 ? 66 : 30) + r / 3.0;
    } else if (key == "harvest") {
      // Its cards stay on the planets until the ship stands there or a Depletion takes them.
      const int n = harvest_yield(c);
      const bool collect = line_index(c.unit_at(c.me)) == 0;
      if (n >= 2 && (collect || c.hand_depletions > 0)) v = (c.action_extra() == 0 ? 50 : 25) + n;
    } else if (key == "into_the_void") {
      const long long target = a.value("target", -1LL);
      const json& r = c.opp["reinforcements"];
      if (r.is_object() && r.value("id", -2LL) == target) {
        v = 64;
      } else {
        for (const json& e : c.opp["elements"]) {
          if (e.value("id", -2LL) == target) v = 48;
        }
      }
      if (v > 0 && c.action_extra() > 0) v -= 20;
    }
    // "loss": an empty Main deck and no card played yet: play one (Harvest refills the deck).
    if (c.must_play) v = std::max(v, 0.0) + (key == "harvest" ? 300 : 200);
    return v;
  }
  if (kind == "move") {
    const int from = line_index(c.me["ship_at"]);
    const int to = line_index(a["to"]);
    if (to <= from) return -1;  // only toward the Battlefield
    // The first move comes before the attacks, which it makes stronger; without a ship attack to
    // make it only brings the opponent's shots closer.
    if (moves == 0) return c.ship_attack ? 75 : -1;
    return c.must_play ? -1 : 1;  // the 2nd move ends the turn: the last thing to do
  }
  if (kind == "attack") {
    const std::string by = a.value("by", "ship");
    const double dealt = attack_damage(c, by);
    if (dealt <= 0) return -1;
    return (by == "ship" ? 60 : 55) + dealt / 100;
  }
  if (kind == "invasion") {
    for (const json& pl : c.opp["planets"]) {
      if (pl.value("id", -1LL) == a.value("planet", -2LL))
        return 2 * pl.value("r", 0) / 3 >= 2 ? 50 + pl.value("r", 0) : -1;
    }
    return -1;
  }
  if (kind == "bombard") return c.spare > 0 ? 15 : -1;
  return -1;  // teleport, pod: never
}

// Out of turn, under attack: the damage a reaction saves, minus what its cards are worth.
inline double reaction_value(const Context& c, const json& a) {
  const json& pending = c.view["pending"];
  const std::string by = pending.value("by", "ship");
  const bool on_character = pending.value("target", "ship") == "character";
  const json& attacker = c.opp;
  const json& from = by == "ship" ? attacker["ship_at"] : attacker["character_at"];
  const json& to = on_character ? c.me["character_at"] : c.me["ship_at"];
  const int step = by == "ship" ? kShipStep : kCharacterStep;
  const int d = distance(from, to);
  const double chance = by == "ship" && on_character ? 0.5 : 1.0;  // even die
  const double dealt = std::max(0, pending.value("base", 0) - step * d) * chance;
  const std::string kind = a.value("kind", "");
  if (kind == "pass") return 0;
  // The character is the game: shield it from anything. The ship has HP to spare: shield it from
  // a heavy blow only, or from the blow that would destroy it (the character is next).
  const bool fatal = !on_character && c.me.value("ship_hp", 0) <= dealt;
  const double worth = on_character || fatal ? 1 : 0.5;
  const double cost = on_character || fatal ? 0 : 20;
  if (kind == "force_field") return worth * std::min<double>(dealt, kForceField) - cost;
  if (kind == "cloak") {
    const double cloaked = std::max(0.0, kCloakBase - step * d) * chance;
    return worth * (dealt - cloaked) - cost - 10;  // the attacker also keeps the card it drew
  }
  return -1;
}

// The policy's value of every legal action of the request, in the legal list's order (the policy
// plays the first best); a search can use them as its prior.
inline std::vector<double> values(const json& request) {
  const json& view = request.at("view");
  const json& legal = request.at("legal");
  const auto seat = view.at("seat").get<std::size_t>();
  const json& me = view.at("players").at(seat);
  const json& opp = view.at("players").at(1 - seat);
  Context c(view, me, opp);
  for (const json& a : legal)
    c.ship_attack = c.ship_attack || (a.value("kind", "") == "attack" && a.value("by", "") == "ship");
  const std::string phase = view.value("phase", "");

  std::vector<double> result;
  result.reserve(legal.size());
  for (const json& a : legal) {
    const std::string kind = a.value("kind", "");
    if (phase == "timewarp") {
      result.push_back(kind == "keep" ? 1 : 0);  // TimeWarp would give the opponent 2 + 2 cards on its first turn
    } else if (phase == "reaction") {
      result.push_back(reaction_value(c, a));
    } else {
      result.push_back(main_value(c, a));
    }
  }
  return result;
}

inline Decision decide(const json& request) {
  const json& legal = request.at("legal");
  const std::vector<double> v = values(request);
  std::size_t best = 0;
  double best_value = -1e18;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] > best_value) {
      best_value = v[i];
      best = i;
    }
  }
  char note[80];
  std::snprintf(note, sizeof note, "%s %.2f of %zu actions", legal.at(best).value("kind", "?").c_str(), best_value,
                legal.size());
  return {legal.at(best), note};
}

}  // namespace detail

using detail::decide;
using detail::values;

}  // namespace interstellar_policy
