// Interstellar's drawing for people (referee/games/interstellar/terminal.cpp, web/): the table of a
// seat's view never shows the opponent's hand nor the cards face down on its planets, the whole
// table shows both hands; what the table says (HP, places, counters, a pending attack, the events:
// dice, a Cloak's drawn card, damage) against the state; every line fits the terminal;
// describe_action for every action kind; draw_outcome for every end; the web module's catalogue
// of names against cards.cpp's.

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "referee/core/index.hpp"
#include "referee/core/rng.hpp"
#include "referee/games/draw.hpp"
#include "referee/games/game.hpp"
#include "referee/games/interstellar/json.hpp"
#include "referee/games/interstellar/rules.hpp"
#include "referee/games/interstellar/text.hpp"
#include "tests/games/conformance.hpp"

using namespace arena;
using namespace arena::interstellar;
using Catch::Matchers::Contains;
using nlohmann::json;

namespace {

// Under the sanitizers these tests play an eighth of their games (testing::sanitizer_share): they
// look for memory errors on the paths the normal pass covers, and leave the coverage checks (every
// action kind, event and ending seen) to the normal pass.
constexpr bool kSanitized = arena::testing::sanitizer_share(8) != 8;
std::uint64_t played(int all) {
  return static_cast<std::uint64_t>(arena::testing::sanitizer_share(all));
}

using arena::idx;

games::draw::SeatNames names() {
  return games::draw::SeatNames{{"alpha", "beta"}};
}

std::string draw_plain(const json& table) {
  return draw_table(table, names(), games::draw::Style(false));
}

json whole(const State& s) {
  return games::merge_player_views({view(s, 0), view(s, 1)});
}

// "Mars#40".
std::string ref(const Card& c) {
  return fmt::format("{}#{}", info(c.kind).name, c.id);
}

// Whether `text` holds `ref` not followed by another digit ("Mars#4" is not in "Mars#40").
bool has_ref(const std::string& text, const std::string& r) {
  for (std::size_t at = text.find(r); at != std::string::npos; at = text.find(r, at + 1)) {
    const std::size_t end = at + r.size();
    if (end >= text.size() || text[end] < '0' || text[end] > '9') return true;
  }
  return false;
}

// The widest line of `text`.
std::string widest_line(const std::string& text) {
  std::string widest;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    if (games::draw::visible_width(line) > games::draw::visible_width(widest)) widest = line;
    start = end + 1;
  }
  return widest;
}
std::size_t widest(const std::string& text) {
  return games::draw::visible_width(widest_line(text));
}

// The ids of every card object ({"id", "card"}) in a view.
void collect_ids(const json& j, std::set<CardId>& out) {
  if (j.is_object() && j.contains("id") && j.contains("card") && j.at("card").is_string()) {
    out.insert(j.at("id").get<CardId>());
  }
  if (j.is_structured()) {
    for (const json& v : j) collect_ids(v, out);
  }
}
std::set<CardId> ids_in(const json& view) {
  std::set<CardId> out;
  collect_ids(view, out);
  return out;
}

// Every card of the game by id, wherever it is.
std::map<CardId, Card> all_cards(const State& s) {
  std::map<CardId, Card> out;
  auto add = [&](const std::vector<Card>& cards) {
    for (const Card& c : cards) out[c.id] = c;
  };
  for (const Player& p : s.players) {
    for (const auto* pile :
         {&p.resource_deck, &p.main_deck, &p.hand, &p.water, &p.stars, &p.pods, &p.discard, &p.voided})
      add(*pile);
    for (const Element& e : p.elements) out[e.card.id] = e.card;
    for (const Planet& pl : p.planets) {
      out[pl.card.id] = pl.card;
      add(pl.harvest);
    }
    for (const Gate& g : p.gates) out[g.card.id] = g.card;
    if (p.reinforcements.id != kNoCard) out[p.reinforcements.id] = p.reinforcements;
  }
  return out;
}

std::string place_words(const State& s, const Loc& at) {
  switch (at.zone) {
    case Zone::orbit:
      return "Orbit";
    case Zone::battlefield:
      return "the Battlefield";
    case Zone::planet:
      return ref(all_cards(s).at(at.planet));
    case Zone::none:
      break;
  }
  return "-";
}

SeatConfig seat_config(Character c) {
  SeatConfig out = core_seat_config();
  out.character = c;
  return out;
}

// A random game (both characters appear across seeds), each state visited through `visit`, which
// may stop the game early by returning false.
template <typename Visit>
void play_random(std::uint64_t seed, Visit&& visit, Config config = Config{}) {
  const std::array<SeatConfig, kSeats> seats = {seat_config(seed % 3 == 0 ? Character::shane : Character::shifter),
                                                seat_config(seed % 2 == 0 ? Character::shane : Character::shifter)};
  State s = new_game(config, seats, seed);
  Rng chooser(seed * 7919 + 1);
  while (!is_over(s)) {
    if (!visit(s)) return;
    const auto legal = legal_actions(s);
    apply(s, legal[chooser.below(legal.size())]);
  }
  visit(s);
}

}  // namespace

TEST_CASE("Interstellar's table from a seat's view never shows the opponent's hand, the whole table shows both",
          "[interstellar][draw]") {
  int checked_hidden = 0, checked_harvest = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    int step = 0;
    play_random(seed, [&](const State& s) {
      if (step++ % 5 != 0) return true;
      CAPTURE(seed, step);
      const std::string all = draw_plain(whole(s));
      for (int seat = 0; seat < kSeats; ++seat) {
        const Player& me = s.players[idx(seat)];
        const Player& foe = s.players[idx(1 - seat)];
        const std::string mine = draw_plain(view(s, seat));
        // Its own hand, every card by name and id; the opponent's only as counts.
        for (const Card& c : me.hand) {
          CHECK(has_ref(mine, ref(c)));
          CHECK(has_ref(all, ref(c)));
        }
        if (!me.hand.empty()) CHECK_THAT(mine, Contains(fmt::format("hand ({}): ", me.hand.size())));
        int resource = 0;
        for (const Card& c : foe.hand) resource += is_resource_card(c.kind) ? 1 : 0;
        CHECK_THAT(mine, Contains(fmt::format("hand: {} cards ({} Resource, {} Main), faces hidden", foe.hand.size(),
                                              resource, static_cast<int>(foe.hand.size()) - resource)));
        // A card of that hand the view shows elsewhere (a Cloak's drawn card, revealed by its
        // event) may be named; every other one never is.
        const std::set<CardId> shown = ids_in(view(s, seat));
        for (const Card& c : foe.hand) {
          CHECK(has_ref(all, ref(c)));
          if (shown.count(c.id) != 0) continue;
          CHECK_FALSE(has_ref(mine, ref(c)));
          ++checked_hidden;
        }
        // The cards face down on the opponent's planets: a count, never their names.
        for (const Planet& pl : foe.planets) {
          if (pl.harvest.empty()) continue;
          CHECK_THAT(mine, Contains(fmt::format("{} {}R [{} harvested, face down]", ref(pl.card), value(pl.card.kind),
                                                pl.harvest.size())));
          ++checked_harvest;
        }
        for (const Planet& pl : me.planets) {
          if (!pl.harvest.empty()) CHECK_THAT(mine, Contains(fmt::format("[{} harvested: ", pl.harvest.size())));
        }
      }
      return true;
    });
  }
  CHECK(checked_hidden > 500);
  CHECK(checked_harvest > 5);
}

TEST_CASE("Interstellar's table says the turn, HP, places, slots, planets, piles and events, within 98 columns",
          "[interstellar][draw]") {
  bool saw_pending = false, saw_roll = false, saw_cloak = false, saw_damage = false, saw_reinforcements = false,
       saw_depleted = false, saw_over = false;
  for (std::uint64_t seed = 1; seed <= played(24); ++seed) {
    play_random(seed, [&](const State& s) {
      CAPTURE(seed, s.turn);
      const json table = whole(s);
      const std::string out = draw_plain(table);
      const std::string coloured = draw_table(table, names(), games::draw::Style(true));
      INFO(widest_line(out));
      CHECK(widest(out) <= games::draw::kWidth);
      CHECK(widest(coloured) <= games::draw::kWidth);
      CHECK_THAT(coloured, Contains("\x1b["));
      for (int seat = 0; seat < kSeats; ++seat) {
        const Player& p = s.players[idx(seat)];
        const CharacterInfo& ch = info(p.character);
        CHECK_THAT(out, Contains(fmt::format("seat {} (", seat) + (seat == 0 ? "alpha" : "beta") + ")  " + ch.name +
                                 " with the " + ch.ship_name));
        CHECK_THAT(out, Contains(fmt::format("{:>3}/{} HP", p.hp, ch.hp)));
        CHECK_THAT(out, Contains(fmt::format("{:>3}/{} HP", p.ship_hp, ch.ship_hp)));
        const bool aboard = p.ship_hp > 0 && p.ship_at == p.char_at;
        CHECK_THAT(out, Contains((aboard ? "aboard, at " : "at ") + place_words(s, p.char_at)));
        CHECK_THAT(out, Contains(fmt::format("Stars (total {})", star_total(p))));
        CHECK_THAT(out, Contains(fmt::format("Water ({})", p.water.size())));
        CHECK_THAT(out, Contains(fmt::format("planets ({}R of 15)", planet_total(p))));
        CHECK_THAT(out, Contains(fmt::format("decks: {} Resource, {} Main; discard {}", p.resource_deck.size(),
                                             p.main_deck.size(), p.discard.size())));
        CHECK_THAT(out, Contains(fmt::format("void {}", p.voided.size())));
        CHECK_THAT(out, Contains(fmt::format("escape pods: {}", p.pods.size())));
        for (const Element& e : p.elements)
          CHECK_THAT(out, Contains(ref(e.card) + (e.depleted ? " (depleted)" : " (charged)")));
        for (const Gate& g : p.gates) {
          CHECK_THAT(out, Contains(fmt::format("{} at {} ({})", ref(g.card), place_words(s, g.at),
                                               g.used_turn == s.turn ? "used this turn" : "usable")));
        }
        for (const Planet& pl : p.planets) {
          CHECK(has_ref(out, ref(pl.card)));
          if (pl.depleted_turn >= 0) {
            CHECK_THAT(out, Contains(fmt::format("{} {}R", ref(pl.card), value(pl.card.kind))));
            saw_depleted = true;
          }
        }
        if (p.reinforcements.id != kNoCard) {
          CHECK_THAT(out, Contains(fmt::format("Reinforcements [")));
          CHECK_THAT(out, Contains(fmt::format("{:>3}/{} HP  #{}", p.reinforcements_hp, kReinforcementsHp,
                                               p.reinforcements.id)));
          saw_reinforcements = true;
        }
      }
      if (s.phase == Phase::main || s.phase == Phase::reaction) {
        CHECK_THAT(out,
                   Contains(fmt::format("turn {} of at most {}: seat {} (", s.turn, s.config.max_turns, s.on_turn)));
        CHECK_THAT(out, Contains(fmt::format("{} of 2 moves left", kMaxMoves - s.moves)));
        CHECK_THAT(out, Contains(fmt::format("next attack costs: ship {} Ammo, character {} Energy",
                                             attack_cost(s, s.on_turn, Unit::ship),
                                             attack_cost(s, s.on_turn, Unit::character))));
      }
      if (s.phase == Phase::reaction) {
        CHECK_THAT(out, Contains(fmt::format("pending attack: seat {}'s", s.on_turn)));
        CHECK_THAT(out, Contains(fmt::format("base {};", base_damage(s, s.on_turn, s.pending.by))));
        CHECK_THAT(out, Contains("may react (Defensive Cloak, Force Field or none)"));
        saw_pending = true;
      } else {
        CHECK_THAT(out, !Contains("pending attack"));
      }
      if (s.phase == Phase::timewarp) CHECK_THAT(out, Contains("keep its opening hand or take TimeWarp"));
      if (s.phase == Phase::over) {
        CHECK_THAT(
            out, Contains(s.winner < 0 ? std::string("a draw")
                                       : fmt::format("seat {} ({}) wins", s.winner, s.winner == 0 ? "alpha" : "beta")));
        saw_over = true;
      } else {
        CHECK_THAT(out, !Contains(" wins"));
      }
      // This turn's events in words: dice, a Cloak's drawn card, damage.
      const std::size_t events = out.find("events this turn: ");
      REQUIRE(events != std::string::npos);
      const std::string said = out.substr(events);
      for (const Event& e : s.events) {
        if (e.kind == EventKind::roll) {
          CHECK_THAT(said,
                     Contains(e.unit == 2 ? fmt::format("seat {} rolls {} + {} (bombard)", e.seat, e.value, e.extra)
                                          : fmt::format("seat {} rolls {} (the ship", e.seat, e.value)));
          saw_roll = true;
        }
        if (e.kind == EventKind::cloak) {
          if (e.card.id != kNoCard) {
            CHECK_THAT(said, Contains(fmt::format("seat {} draws {} for the Cloak: ", e.seat, ref(e.card))));
          }
          CHECK_THAT(said, Contains(e.extra == 1 ? std::string("for the Cloak: a miss")
                                                 : fmt::format("for the Cloak: base {}", e.value)));
          saw_cloak = true;
        }
        if (e.kind == EventKind::damage) {
          const Player& hit = s.players[idx(e.seat)];
          const std::string unit = e.target_unit == 2 ? std::string("Reinforcements")
                                   : e.target_unit == static_cast<std::int8_t>(Unit::ship)
                                       ? info(hit.character).ship_name
                                       : info(hit.character).name;
          CHECK_THAT(said, Contains(fmt::format("seat {}'s {} loses {} HP", e.seat, unit, e.value)));
          saw_damage = true;
        }
      }
      return true;
    });
  }
  if (!kSanitized) {
    CHECK(saw_pending);
    CHECK(saw_roll);
    CHECK(saw_cloak);
    CHECK(saw_damage);
    CHECK(saw_reinforcements);
    CHECK(saw_depleted);
    CHECK(saw_over);
  }
}

TEST_CASE("Interstellar's line puts every unit in its place and gives the range", "[interstellar][draw]") {
  int checked = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    play_random(seed, [&](const State& s) {
      const std::string out = draw_plain(whole(s));
      std::array<int, kSeats> active{};
      for (int seat = 0; seat < kSeats; ++seat) {
        const Player& p = s.players[idx(seat)];
        active[idx(seat)] = line_index(unit_at(p));
        if (p.ship_hp > 0 && p.ship_at.zone == Zone::battlefield) {
          CHECK_THAT(out, Contains(fmt::format("{} (seat {})", info(p.character).ship_name, seat)) ||
                              Contains(fmt::format("with {} (seat {})", info(p.character).name, seat)));
        }
      }
      const int range = 4 - active[0] - active[1];
      CHECK_THAT(out, Contains(fmt::format("range between the active units: {} step{}", range, range == 1 ? "" : "s")));
      ++checked;
      return true;
    });
  }
  CHECK(checked > 100);
}

TEST_CASE("Interstellar's describe_action says every action kind in words", "[interstellar][draw]") {
  const std::map<ActionKind, std::string> kFixedWords = {
      {ActionKind::keep, "keeps the opening hand"},
      {ActionKind::timewarp, "takes TimeWarp (reshuffles, draws 3 Resource + 7 Main again)"},
      {ActionKind::end_turn, "ends the turn"},
      {ActionKind::bombard, "bombards the Reinforcements (pays 1, rolls 2 dice)"},
      {ActionKind::pass, "does not react"},
      {ActionKind::cloak, "Defensive Cloak (the attacker draws a Resource card that sets the damage)"},
      {ActionKind::force_field, "Force Field (-40 damage)"},
  };
  std::map<std::string, int> seen;  // kind (and a play's card category) -> times checked
  for (std::uint64_t seed = 1; seed <= played(200); ++seed) {
    play_random(seed, [&](const State& s) {
      const Seat seat = to_act(s);
      const Player& me = s.players[idx(seat)];
      const CharacterInfo& ch = info(me.character);
      const json before = view(s, seat);
      const auto cards = all_cards(s);
      const std::string unit = me.ship_hp > 0 ? ch.ship_name : ch.name;
      for (const Action& a : legal_actions(s)) {
        const json aj = to_json(a);
        std::string key = aj.at("kind").get<std::string>();
        std::string expected;
        switch (a.kind) {
          case ActionKind::move:
            expected = fmt::format("moves the {} to {}", unit, place_words(s, a.to));
            break;
          case ActionKind::teleport: {
            const Gate* gate = nullptr;
            for (const Gate& g : me.gates) gate = g.card.id == a.card ? &g : gate;
            REQUIRE(gate != nullptr);
            expected =
                fmt::format("teleports the {} through {} to {}", unit, ref(gate->card), place_words(s, gate->at));
            break;
          }
          case ActionKind::pod:
            expected =
                fmt::format("escapes: the {} takes an Escape Pod to {} (the turn ends)", ch.name, place_words(s, a.to));
            break;
          case ActionKind::play: {
            const Card& c = cards.at(a.card);
            key += std::string(" ") + info(c.kind).key;
            if (c.kind == Kind::into_the_void) {
              expected = "Into the Void on " + ref(cards.at(a.target));
            } else if (a.target != kNoCard) {
              expected = fmt::format("plays {} on {}", info(c.kind).name, ref(cards.at(a.target)));
            } else if (a.to.zone != Zone::none) {
              expected = fmt::format("plays {} at {}", info(c.kind).name, place_words(s, a.to));
            } else {
              switch (category(c.kind)) {
                case Category::water:
                  expected = "plays " + std::string(info(c.kind).name) + " into the primary Water slot";
                  break;
                case Category::star:
                  expected = "plays " + std::string(info(c.kind).name) + " into the primary Star slot";
                  break;
                case Category::e115:
                  expected = "plays Element 115 into play (it enters depleted)";
                  break;
                case Category::planet:
                  expected = fmt::format("plays {} into its Planet section ({}R)", info(c.kind).name, value(c.kind));
                  break;
                default:
                  expected = "plays " + std::string(info(c.kind).name);
                  break;
              }
            }
            break;
          }
          case ActionKind::attack:
            expected = a.unit == Unit::ship ? fmt::format("attacks with the ship ({}, {} Ammo)", ch.ship_name,
                                                          attack_cost(s, seat, Unit::ship))
                                            : fmt::format("attacks with the character ({}, {} Energy)", ch.name,
                                                          attack_cost(s, seat, Unit::character));
            if (a.target != kNoCard) expected += " at the Reinforcements";
            key += a.unit == Unit::ship ? " ship" : " character";
            break;
          case ActionKind::invasion:
            expected = "invades " + ref(cards.at(a.target)) + " (Invasion: draws Resource cards)";
            break;
          default:  // the kinds said in fixed words
            expected = kFixedWords.at(a.kind);
            break;
        }
        if (seen[key]++ > 20) continue;
        INFO(aj.dump());
        CHECK(describe_action(before, aj) == expected);
        // The whole table (seat null, the actor's entry complete) serves as the actor's view too.
        CHECK(describe_action(whole(s), aj) == expected);
      }
      return true;
    });
  }
  std::set<std::string> kinds;
  for (const auto& [key, n] : seen) kinds.insert(key.substr(0, key.find(' ')));
  if (!kSanitized)
    CHECK(kinds == std::set<std::string>{"keep", "timewarp", "end_turn", "move", "teleport", "pod", "play", "attack",
                                         "invasion", "bombard", "pass", "cloak", "force_field"});
  for (const char* key : {"play water_1", "play proxima_centauri", "play e115", "play mars", "play harvest",
                          "play depletion", "play into_the_void", "play gate", "play escape_pod", "play reinforcements",
                          "play space_junk", "attack ship", "attack character"}) {
    CAPTURE(key);
    if (!kSanitized) CHECK(seen.count(key) == 1);
  }
  // In the examples' words.
  const json gate_view = {{"to_act", 0},
                          {"players", json::array({{{"ship", "ufo"},
                                                    {"character", "shifter"},
                                                    {"ship_hp", 350},
                                                    {"hand", json::array({{{"id", 65}, {"card", "gate"}}})}},
                                                   {{"ship", "ufo"},
                                                    {"character", "shifter"},
                                                    {"ship_hp", 350},
                                                    {"planets", json::array({{{"id", 40}, {"card", "mars"}}})}}})}};
  CHECK(describe_action(gate_view, {{"kind", "play"}, {"card", 65}, {"to", {{"zone", "battlefield"}}}}) ==
        "plays Gate at the Battlefield");
  CHECK(describe_action(gate_view, {{"kind", "move"}, {"to", {{"zone", "orbit"}}}}) == "moves the UFO to Orbit");
  CHECK(describe_action(gate_view, {{"kind", "invasion"}, {"planet", 40}}) ==
        "invades Mars#40 (Invasion: draws Resource cards)");
  // An action it cannot read is shown as JSON, never refused.
  CHECK(describe_action(json::object(), {{"kind", "dance"}}) == R"(plays {"kind":"dance"})");
}

TEST_CASE("Interstellar's draw_outcome says every end, the winner or a draw, HP and ship HP", "[interstellar][draw]") {
  const games::draw::Style plain(false);
  struct Case {
    json outcome;
    std::vector<std::string> says;
  };
  const std::vector<Case> cases = {
      {{{"end", "defeated"},
        {"winner", 1},
        {"hp", {0, 105}},
        {"ship_hp", {0, 200}},
        {"turns", 25},
        {"scores", {0.0, 1.0}}},
       {"end: defeated (a character reached 0 HP) after 25 turns", "character   0 HP, ship   0 HP   score 0",
        "character 105 HP, ship 200 HP   score 1", "seat 1 (beta) wins"}},
      {{{"end", "deckout"},
        {"winner", 0},
        {"hp", {90, 60}},
        {"ship_hp", {350, 0}},
        {"turns", 61},
        {"scores", {1.0, 0.0}}},
       {"end: deckout (an empty Main deck and a turn with no card played) after 61 turns",
        "character  90 HP, ship 350 HP", "character  60 HP, ship   0 HP", "seat 0 (alpha) wins"}},
      {{{"end", "turn_cap"},
        {"winner", 0},
        {"hp", {120, 75}},
        {"ship_hp", {10, 300}},
        {"turns", 80},
        {"scores", {1.0, 0.0}}},
       {"end: the turn cap (the higher character HP takes the match, equal HP is a draw) after 80 turns",
        "character 120 HP, ship  10 HP", "seat 0 (alpha) wins"}},
      {{{"end", "turn_cap"},
        {"winner", nullptr},
        {"hp", {50, 50}},
        {"ship_hp", {0, 0}},
        {"turns", 6},
        {"scores", {0.5, 0.5}}},
       {"after 6 turns", "character  50 HP, ship   0 HP   score 0.5", "a draw"}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.outcome.dump());
    const std::string out = draw_outcome(c.outcome, nullptr, names(), plain);
    for (const auto& s : c.says) CHECK_THAT(out, Contains(s));
    CHECK(widest(out) <= games::draw::kWidth);
    if (c.outcome.at("winner").is_null()) CHECK_THAT(out, !Contains("wins"));
  }
  // Real ends: a defeat and the turn cap, each drawn from the game's own outcome.
  std::set<std::string> ends;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    play_random(
        seed,
        [&](const State& s) {
          if (!is_over(s)) return true;
          const Outcome o = outcome(s);
          const std::string out = draw_outcome(to_json(o), nullptr, names(), plain);
          CHECK_THAT(out, Contains(fmt::format("after {} turns", o.turns)));
          for (int seat = 0; seat < kSeats; ++seat) {
            CHECK_THAT(
                out, Contains(fmt::format("character {:>3} HP, ship {:>3} HP", o.hp[idx(seat)], o.ship_hp[idx(seat)])));
          }
          CHECK_THAT(out, Contains(o.winner < 0
                                       ? std::string("a draw")
                                       : fmt::format("seat {} ({}) wins", o.winner, o.winner == 0 ? "alpha" : "beta")));
          ends.emplace(enum_name(o.end));
          return true;
        },
        Config{DeckOut::literal_win, seed % 2 == 0 ? 8 : kDefaultMaxTurns});
  }
  CHECK(ends.count("defeated") == 1);
  CHECK(ends.count("turn_cap") == 1);
}

TEST_CASE("Interstellar's web module names every card and character as cards.cpp does", "[interstellar][draw]") {
  const std::string script = web_script();
  CHECK_THAT(script, Contains("ArenaViewer.registerGame('interstellar'"));
  const std::map<Category, const char*> categories = {
      {Category::water, "water"},       {Category::energy, "energy"},    {Category::ammo, "ammo"},
      {Category::e115, "e115"},         {Category::halley, "halley"},    {Category::star, "star"},
      {Category::planet, "planet"},     {Category::action, "action"},    {Category::reaction, "reaction"},
      {Category::artifact, "artifact"}, {Category::creature, "creature"}};
  for (const KindInfo& k : catalogue()) {
    CHECK_THAT(script,
               Contains(fmt::format(R"("{}": ["{}", "{}", {}])", k.key, k.name, categories.at(k.category), k.value)));
  }
  for (Character c : {Character::shifter, Character::shane}) {
    CHECK_THAT(script, Contains(fmt::format(R"("{}": ["{}", "{}"])", info(c).key, info(c).name, info(c).ship_name)));
  }
  CHECK_THAT(script, Contains(fmt::format("var REINFORCEMENTS_HP = {};", kReinforcementsHp)));
  CHECK_THAT(script, Contains(fmt::format("var MAX_MOVES = {};", kMaxMoves)));
  CHECK_THAT(script, Contains(fmt::format("var PLANET_CAP = {};", kPlanetCap)));
  CHECK_THAT(script, Contains(fmt::format("var MAX_BOMBARDS = {};", kMaxBombards)));
  CHECK_THAT(script, Contains(fmt::format("var FORCE_FIELD = {};", kForceField)));
  CHECK_THAT(web_style(), Contains(".is-hp"));
  // The registry's game carries the module.
  const games::Game* game = games::find_game("interstellar");
  REQUIRE(game != nullptr);
  CHECK(game->web_module().script == script);
}
