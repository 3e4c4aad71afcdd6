// Interstellar's rules beyond the rulebook's examples: payments, the free first action and
// artifact, E115, teleport and gates, escape pods, the cards' effects, the defender asked at every
// attack, attacks on Reinforcements, Invasion, views and hidden information, deck lists per seat.

#include <catch2/catch.hpp>

#include "referee/games/interstellar/pay.hpp"
#include "tests/games/interstellar/setup.hpp"

using namespace arena;
using namespace arena::interstellar;
using namespace arena::interstellar::testing;
using nlohmann::json;

namespace {

Action play_card(CardId id, CardId target = kNoCard) {
  return Action{.kind = ActionKind::play, .card = id, .target = target};
}

const Action kEndTurn{.kind = ActionKind::end_turn};

}  // namespace

TEST_CASE(
    "Payments: a typed cost with the least excess, then the fewest E115s and cards, a generic cost in the "
    "fixed order",
    "[interstellar][rules]") {
  State s = bare_game();
  Player& p = s.players[0];
  const Card a3 = give(s, 0, Kind::ammo_3);
  const Card a2 = give(s, 0, Kind::ammo_2);
  const Card a1 = give(s, 0, Kind::ammo_1);
  const Card w1 = give(s, 0, Kind::water_1);
  const Card halley = give(s, 0, Kind::halley);
  auto two = plan_payment(p, Cost{.typed = Category::ammo, .typed_amount = 2});
  REQUIRE(two);
  CHECK(two->hand == std::vector<CardId>{a2.id});  // exact, one card
  auto four = plan_payment(p, Cost{.typed = Category::ammo, .typed_amount = 4});
  REQUIRE(four);
  CHECK(four->hand.size() == 2);  // 3 + 1
  CHECK(std::find(four->hand.begin(), four->hand.end(), a3.id) != four->hand.end());
  CHECK(std::find(four->hand.begin(), four->hand.end(), a1.id) != four->hand.end());
  CHECK_FALSE(plan_payment(p, Cost{.typed = Category::ammo, .typed_amount = 7}));
  CHECK_FALSE(plan_payment(p, Cost{.typed = Category::energy, .typed_amount = 1}));
  auto generic = plan_payment(p, Cost{.generic = 2});
  REQUIRE(generic);
  CHECK(generic->hand == std::vector<CardId>{halley.id, w1.id});
  // A recharged E115 in play is wild (3) and pays by being depleted; a depleted one does not pay.
  p.elements.push_back(Element{take(s, 0, Kind::e115), true});
  CHECK_FALSE(plan_payment(p, Cost{.typed = Category::energy, .typed_amount = 3}));
  p.elements.back().depleted = false;
  auto energy = plan_payment(p, Cost{.typed = Category::energy, .typed_amount = 3});
  REQUIRE(energy);
  CHECK(energy->hand.empty());
  CHECK(energy->elements.size() == 1);
  // Stars and primary-slot cards never pay.
  State t = bare_game();
  give_primaries(t, 0);
  give(t, 0, Kind::orions_belt);
  CHECK_FALSE(can_pay(t.players[0], Cost{.generic = 1}));
}

TEST_CASE("The first action and the first artifact of a turn are free, each further one costs 1",
          "[interstellar][rules]") {
  State s = bare_game();
  const Card junk1 = give(s, 0, Kind::space_junk);
  const Card junk2 = give(s, 0, Kind::space_junk);
  const Card mercury = give(s, 0, Kind::mercury);
  const Card pluto = give(s, 0, Kind::pluto);
  // Reserve the Resource deck's top so that Space Junk draws cards that cannot pay.
  for (int i = 0; i < 2; ++i) s.players[0].resource_deck.push_back(take(s, 0, Kind::proxima_centauri));
  play(s, play_card(junk1.id));
  CHECK(s.players[0].hand.size() == 5);  // two stars drawn
  CHECK_FALSE(legal(s, play_card(junk2.id)));
  play(s, play_card(mercury.id));  // the first artifact: free
  CHECK_FALSE(legal(s, play_card(pluto.id)));
  give(s, 0, Kind::energy_1);
  CHECK(legal(s, play_card(pluto.id)));
  play(s, play_card(pluto.id));
  CHECK(s.players[0].discard.back().kind == Kind::energy_1);
}

TEST_CASE("E115 enters play depleted and pays from the owner's next turn", "[interstellar][rules]") {
  State s = bare_game();
  const Card e = give(s, 0, Kind::e115);
  play(s, play_card(e.id));
  REQUIRE(s.players[0].elements.size() == 1);
  CHECK(s.players[0].elements[0].depleted);
  CHECK_FALSE(legal(s, Action{.kind = ActionKind::attack, .unit = Unit::ship}));
  play(s, kEndTurn);
  play(s, kEndTurn);
  CHECK_FALSE(s.players[0].elements[0].depleted);
  // The ship's Cannon costs 2 Ammo: the E115 is worth 3.
  REQUIRE(legal(s, Action{.kind = ActionKind::attack, .unit = Unit::ship}));
}

TEST_CASE("Teleport: not a move, to an own gate not placed this turn, for an E115 or else 1 card",
          "[interstellar][rules]") {
  State s = bare_game();
  give_primaries(s, 0);
  const Card gate = give(s, 0, Kind::gate);
  play(s, Action{.kind = ActionKind::play, .card = gate.id, .to = Loc{Zone::battlefield, kNoCard}});
  const Action teleport{.kind = ActionKind::teleport, .card = gate.id};
  CHECK_FALSE(legal(s, teleport));  // placed this turn
  play(s, kEndTurn);
  play(s, kEndTurn);
  for (const Card& c : s.players[0].hand) s.players[0].discard.push_back(c);  // the turn's draws
  s.players[0].hand.clear();
  CHECK_FALSE(legal(s, teleport));  // nothing to pay with
  give(s, 0, Kind::water_2);
  play(s, teleport);
  CHECK(s.players[0].ship_at.zone == Zone::battlefield);
  CHECK(s.moves == 0);
  CHECK(s.on_turn == 0);
  CHECK(s.players[0].hand.empty());
  CHECK_FALSE(legal(s, teleport));  // there already, and travelled to this turn
}

TEST_CASE("Escape Pods: only once the ship is destroyed, one step, and the turn ends on arrival",
          "[interstellar][rules]") {
  State s = bare_game();
  const Card pod = give(s, 0, Kind::escape_pod);
  play(s, play_card(pod.id));
  const Action to_battlefield{.kind = ActionKind::pod, .to = Loc{Zone::battlefield, kNoCard}};
  CHECK_FALSE(legal(s, to_battlefield));
  s.players[0].ship_hp = 0;
  play(s, to_battlefield);
  CHECK(s.players[0].char_at.zone == Zone::battlefield);
  CHECK(s.players[0].ship_at.zone == Zone::orbit);  // the wreck stays
  CHECK(s.on_turn == 1);
}

TEST_CASE("Into the Void: any opponent card in play but its character, ship, primary resources and Teleporter",
          "[interstellar][rules]") {
  State s = bare_game();
  give_primaries(s, 1);
  const CardId mars = put_planet(s, 1, Kind::mars);
  s.players[1].elements.push_back(Element{take(s, 1, Kind::e115), false});
  s.players[1].gates.push_back(Gate{take(s, 1, Kind::gate), Loc{Zone::planet, mars}, 0});
  s.players[1].ship_at = s.players[1].char_at = Loc{Zone::planet, mars};
  const Card v = give(s, 0, Kind::into_the_void);
  std::vector<CardId> targets;
  for (const Action& a : legal_actions(s)) {
    if (a.card == v.id) targets.push_back(a.target);
  }
  CHECK(targets.size() == 3);  // the planet, the E115, the gate: no primary card
  play(s, play_card(v.id, mars));
  CHECK(s.players[1].planets.empty());
  CHECK(s.players[1].gates.empty());  // the gate on it is discarded
  CHECK(s.players[1].ship_at.zone == Zone::orbit);
  CHECK(s.players[1].voided.back().id == mars);
}

TEST_CASE("Secret Formula turns 5 face value into an E115 that enters depleted, Space Junk draws 2",
          "[interstellar][rules]") {
  State s = bare_game();
  const Card formula = give(s, 0, Kind::secret_formula);
  give(s, 0, Kind::water_2);
  give(s, 0, Kind::energy_2);
  CHECK_FALSE(legal(s, play_card(formula.id)));
  give(s, 0, Kind::ammo_1);
  play(s, play_card(formula.id));
  REQUIRE(s.players[0].elements.size() == 1);
  CHECK(s.players[0].elements[0].card.id == formula.id);
  CHECK(s.players[0].elements[0].depleted);
  CHECK(s.players[0].hand.empty());
  CHECK(last_event(s, "formula").at("value") == 5);
}

TEST_CASE("At most 15R of planets in play per seat", "[interstellar][rules]") {
  State s = bare_game();
  put_planet(s, 0, Kind::earth);  // 12R
  const Card mercury = give(s, 0, Kind::mercury);
  const Card mars = give(s, 0, Kind::mars);
  CHECK(legal(s, play_card(mercury.id)));
  CHECK_FALSE(legal(s, play_card(mars.id)));
}

TEST_CASE(
    "Reinforcements: 15 damage at the start of each of its owner's turns, the opponent bombards it with 2 "
    "dice for 1 resource, at most twice a turn",
    "[interstellar][rules]") {
  State s = bare_game();
  const Card r = give(s, 0, Kind::reinforcements);
  play(s, play_card(r.id));
  CHECK(s.players[0].reinforcements_hp == 35);
  play(s, kEndTurn);
  for (int i = 0; i < 3; ++i) give(s, 1, Kind::water_1);
  const Action bombard{.kind = ActionKind::bombard};
  play(s, bombard);
  const int after_one = s.players[0].reinforcements_hp;
  CHECK(after_one <= 33);
  CHECK(after_one >= 23);
  if (s.players[0].reinforcements.id != kNoCard) {
    play(s, bombard);
    CHECK_FALSE(legal(s, bombard));  // twice a turn at most
  }
  play(s, kEndTurn);
  if (s.players[0].reinforcements.id != kNoCard) CHECK(s.players[1].ship_hp == 300 - 15);
}

TEST_CASE("The attacked seat is always asked out of turn, with pass alone when it can play no reaction",
          "[interstellar][rules]") {
  State s = bare_game(Character::shane, Character::shifter);
  s.players[0].ship_at = s.players[0].char_at = Loc{Zone::battlefield, kNoCard};
  give(s, 0, Kind::ammo_2);
  give(s, 0, Kind::ammo_3);
  const Card field = give(s, 1, Kind::force_field);  // but nothing to pay the out-of-turn 1 with
  play(s, Action{.kind = ActionKind::attack, .unit = Unit::ship});
  REQUIRE(s.phase == Phase::reaction);
  CHECK(to_act(s) == 1);
  CHECK(legal_actions(s) == std::vector<Action>{Action{.kind = ActionKind::pass}});
  const json asked_empty = view(s, 0);
  play(s, Action{.kind = ActionKind::pass});
  CHECK(to_act(s) == 0);
  give(s, 1, Kind::energy_1);
  play(s, Action{.kind = ActionKind::attack, .unit = Unit::ship});
  REQUIRE(s.phase == Phase::reaction);
  CHECK(legal_actions(s) == std::vector<Action>{Action{.kind = ActionKind::pass},
                                                Action{.kind = ActionKind::force_field, .card = field.id}});
  // Both times the attacker sees the same: an attack pending, the defender to act.
  const json asked_able = view(s, 0);
  CHECK(asked_empty.at("pending") == asked_able.at("pending"));
  CHECK(asked_able.at("to_act") == 1);
  play(s, Action{.kind = ActionKind::pass});
  CHECK(view(s, 0).at("events").back().at("event") != "reaction");
}

TEST_CASE("Attacks may aim at the opponent's Reinforcements instead, ship or no ship, at the Battlefield's range",
          "[interstellar][rules]") {
  State s = bare_game();
  const Card r = take(s, 1, Kind::reinforcements);
  s.players[1].reinforcements = r;
  s.players[1].reinforcements_hp = 35;
  give_primaries(s, 0);
  give(s, 0, Kind::energy_3);
  give(s, 0, Kind::ammo_2);
  const Action at_reinforcements{.kind = ActionKind::attack, .unit = Unit::character, .target = r.id};
  REQUIRE(legal(s, at_reinforcements));
  attack(s, Unit::character, r.id);  // Shane's Blaster 30 from Orbit: one step, -5
  CHECK(s.players[1].reinforcements_hp == 10);
  CHECK(s.players[1].ship_hp == 300);
  attack(s, Unit::ship, r.id);  // the Cannon, 110 - 30
  CHECK(s.players[1].reinforcements.id == kNoCard);
  CHECK(s.players[1].discard.back().id == r.id);
  CHECK(last_event(s, "destroyed").at("unit") == "reinforcements");
}

TEST_CASE("A Cloak never makes an attack stronger than its own base", "[interstellar][rules]") {
  State s = bare_game(Character::shifter, Character::shifter);
  s.players[0].ship_at = s.players[0].char_at = Loc{Zone::battlefield, kNoCard};
  s.players[1].ship_at = s.players[1].char_at = Loc{Zone::battlefield, kNoCard};
  give_primaries(s, 0);
  give(s, 0, Kind::energy_1);
  give(s, 1, Kind::energy_1);
  give(s, 1, Kind::water_1);
  stack_top(s, 0, Kind::water_1);  // the table's 60 against Mirror's 35
  play(s, Action{.kind = ActionKind::attack, .unit = Unit::character});
  play(s, Action{.kind = ActionKind::cloak});
  CHECK(s.players[1].ship_hp == 350 - 35);
}

TEST_CASE("Invasion: once a game, after the Shifter's primary attack that turn, at its printed 1 Energy",
          "[interstellar][rules]") {
  State s = bare_game(Character::shifter, Character::shane);
  give_primaries(s, 0);
  const CardId titan = put_planet(s, 1, Kind::titan);
  give(s, 0, Kind::energy_1);
  give(s, 0, Kind::energy_1);
  give(s, 0, Kind::energy_1);
  const Action invade{.kind = ActionKind::invasion, .target = titan};
  CHECK_FALSE(legal(s, invade));  // the primary attack first
  attack(s, Unit::character);
  REQUIRE(legal(s, invade));
  play(s, invade);
  CHECK(s.players[0].hand.size() == 1 + 6);        // one Energy left, 2/3 of 9R drawn
  CHECK(attack_cost(s, 0, Unit::character) == 2);  // not counted as an attack
  CHECK_FALSE(legal(s, invade));                   // once a game
}

TEST_CASE("Views: a seat sees its own hand and harvest, never the opponent's hand, harvest or any deck order",
          "[interstellar][rules]") {
  State s = new_game(Config{}, {}, 5);
  const CardId planet = put_planet(s, 1, Kind::mars);
  s.players[1].planets.back().harvest.push_back(take(s, 1, Kind::ammo_1));
  const json v0 = view(s, 0), v1 = view(s, 1);
  CHECK(v0.at("players").at(0).contains("hand"));
  CHECK_FALSE(v0.at("players").at(1).contains("hand"));
  CHECK(v0.at("players").at(1).at("hand_size") == 10);
  CHECK(v0.at("players").at(1).at("hand_resource") == 3);
  CHECK_FALSE(v0.at("players").at(1).at("planets").at(0).contains("harvest"));
  CHECK(v0.at("players").at(1).at("planets").at(0).at("harvest_size") == 1);
  CHECK(v1.at("players").at(1).at("planets").at(0).at("harvest").size() == 1);
  CHECK(v0.at("players").at(1).at("planets").at(0).at("id") == planet);
  const std::string text = v0.dump();
  for (const Card& c : s.players[1].hand) {
    CHECK(text.find(fmt::format("\"id\":{},", c.id)) == std::string::npos);
  }
  CHECK(text.find("rng") == std::string::npos);
}

TEST_CASE("Deck lists per seat: checked, and the two seats' may differ", "[interstellar][rules]") {
  auto bad = [](const json& j) {
    auto c = seat_config_from_json(j);
    return c ? std::string() : c.error();
  };
  CHECK(bad({{"resource", {{"water_1", 10}}}}) == "resource deck: 10 cards; a deck holds 35-50");
  CHECK(bad({{"main", {{"secret_formula", 2}, {"mercury", 40}}}}) ==
        "main deck: \"secret_formula\" is 1 per deck, the list has 2");
  CHECK(bad({{"main", {{"water_1", 35}}}}) == "main deck: \"water_1\" belongs in the resource deck");
  CHECK(bad({{"main", {{"death_star", 35}}}}) == "main deck: unknown card \"death_star\"");
  CHECK(bad({{"character", "anubis"}}) == "unknown character \"anubis\" (shifter, shane)");
  CHECK(bad({{"decks", 1}}) == "unknown field \"decks\"");
  CHECK(bad({{"main", json::array({"mercury", "teleporter"})}}) == "main deck: unknown card \"teleporter\"");
  const json mercuries = {{"character", "shane"}, {"main", json::array()}};
  CHECK(bad(mercuries) == "main deck: 0 cards; a deck holds 35-50");
  json list = json::array();
  for (int i = 0; i < 36; ++i) list.push_back("mercury");
  auto own = seat_config_from_json({{"character", "shane"}, {"main", list}});
  REQUIRE(own);
  CHECK(to_json(*own).at("main") == json{{"mercury", 36}});
  CHECK(to_json(*own).at("resource") == to_json(SeatConfig{}).at("resource"));
  State s = new_game(Config{}, {SeatConfig{}, *own}, 3);
  CHECK(s.players[0].cards == 70);
  CHECK(s.players[1].cards == 71);
  CHECK(s.players[1].hp == 150);
  CHECK(check_invariants(s).ok());
}

TEST_CASE(
    "Colonization (not in IS-Core's lists): on an own planet, +1 card at each Harvest, and it leaves play with "
    "its planet",
    "[interstellar][rules]") {
  std::array<SeatConfig, kSeats> seats;
  seats[0].character = seats[1].character = Character::shane;
  seats[0].main[static_cast<std::size_t>(Kind::colonization)] = 1;
  State s = bare_game(seats);
  const CardId planet = put_planet(s, 0, Kind::mercury);
  const Card colony = give(s, 0, Kind::colonization);
  const Card harvest = give(s, 0, Kind::harvest);
  play(s, Action{.kind = ActionKind::play, .card = colony.id, .target = planet});
  CHECK(find_planet(s.players[0], planet)->colony.id == colony.id);
  play(s, play_card(harvest.id));
  CHECK(find_planet(s.players[0], planet)->harvest.size() == 2);  // 3R / 3, + 1
  // Into the Void on the planet takes its Colonization along.
  play(s, kEndTurn);
  const Card v = give(s, 1, Kind::into_the_void);
  play(s, play_card(v.id, planet));
  CHECK(s.players[0].voided.size() == 4);  // the planet, its Colonization, 2 uncollected cards
}
