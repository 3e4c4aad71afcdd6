// The rulebook's own examples (rulebook 004, quoted) and the IS-Core rules around them, played
// on states laid out by hand (setup.hpp). docs/games/interstellar.md has the rules in full.

#include <catch2/catch.hpp>

#include "tests/games/interstellar/setup.hpp"

using namespace arena;
using namespace arena::interstellar;
using namespace arena::interstellar::testing;

namespace {

Loc at(Zone zone, CardId planet = kNoCard) {
  return Loc{zone, planet};
}

// Places both units of seat `seat` at `where` (a planet place gets a planet of its own first).
Loc stand(State& s, Seat seat, Zone zone) {
  Loc where = at(zone);
  if (zone == Zone::planet) where.planet = put_planet(s, seat, seat == 0 ? Kind::mars : Kind::venus);
  s.players[idx(seat)].ship_at = where;
  s.players[idx(seat)].char_at = where;
  return where;
}

// The rulebook's range penalties by where the attacker and the defender stand: a ship's attack
// and a character's.
struct Range {
  Zone attacker, defender;
  int ship_penalty, character_penalty;
};
constexpr Range kRanges[] = {
    {Zone::orbit, Zone::battlefield, 30, 5},      {Zone::planet, Zone::battlefield, 60, 10},
    {Zone::planet, Zone::orbit, 90, 15},          {Zone::planet, Zone::planet, 120, 20},
    {Zone::battlefield, Zone::battlefield, 0, 0}, {Zone::battlefield, Zone::orbit, 30, 5},
};

}  // namespace

TEST_CASE(
    "Range: ship 'Orbit to Battlefield -30, Planet Section to Battlefield -60, Planet Section to Orbit -90, "
    "Planet Section to Planet Section -120', character -5, -10, -15, -20, both in the Battlefield at full strength",
    "[interstellar][scenario]") {
  for (const Range& c : kRanges) {
    INFO("from zone " << static_cast<int>(c.attacker) << " to zone " << static_cast<int>(c.defender));
    auto standing = [&] {
      State s = bare_game();
      stand(s, 0, c.attacker);
      stand(s, 1, c.defender);
      return s;
    };
    State ship = standing();
    CHECK(distance(ship.players[0].ship_at, ship.players[1].ship_at) * kShipStep == c.ship_penalty);
    give(ship, 0, Kind::ammo_2);
    attack(ship, Unit::ship);  // the Star Cruiser's Cannon, 110
    CHECK(ship.players[1].ship_hp == 300 - std::max(0, 110 - c.ship_penalty));
    CHECK(ship.players[1].hp == 150);

    State character = standing();
    give_primaries(character, 0);  // a character attack needs a Star in the primary slot
    give(character, 0, Kind::energy_1);
    attack(character, Unit::character);  // Shane's Blaster, 30, at the ship first
    CHECK(character.players[1].ship_hp == 300 - (30 - c.character_penalty));
  }
}

TEST_CASE(
    "Harvest: 'a +3 Resource Planet and a +6 Resource Planet ... 1 Resource Card is drawn for the +3 and 2 "
    "for the +6', they stay on the planet until collected, and Harvest goes back into the Main deck",
    "[interstellar][scenario]") {
  State s = bare_game();
  give_primaries(s, 0);
  const CardId mercury = put_planet(s, 0, Kind::mercury);
  const CardId mars = put_planet(s, 0, Kind::mars);
  const Card harvest = give(s, 0, Kind::harvest);
  const auto main_before = s.players[0].main_deck.size();
  play(s, Action{.kind = ActionKind::play, .card = harvest.id});
  CHECK(find_planet(s.players[0], mercury)->harvest.size() == 1);
  CHECK(find_planet(s.players[0], mars)->harvest.size() == 2);
  CHECK(s.players[0].main_deck.size() == main_before + 1);  // shuffled back
  CHECK(s.players[0].hand.empty());                         // the ship is in Orbit: nothing collected yet
  // 'To collect harvested Resources, a player must physically travel to the Planet'.
  play(s, Action{.kind = ActionKind::move, .to = at(Zone::planet, mars)});
  CHECK(s.players[0].hand.size() == 2);
  CHECK(find_planet(s.players[0], mars)->harvest.empty());
  CHECK(last_event(s, "collect").at("count") == 2);
}

TEST_CASE(
    "Depletion: uncollected harvest to the void and as many drawn, then 1/3 R of an odd planet or 1/2 R of an "
    "even one, the planet is discarded after its owner's next turn",
    "[interstellar][scenario]") {
  struct Case {
    Kind planet;
    int drawn;
  };
  for (const Case c : {Case{Kind::mercury, 1}, Case{Kind::titan, 3}, Case{Kind::mars, 3}, Case{Kind::earth, 6}}) {
    State s = bare_game();
    const CardId target = put_planet(s, 1, c.planet);
    Planet& planet = s.players[1].planets.back();
    planet.harvest.push_back(take(s, 1, Kind::water_1));
    planet.harvest.push_back(take(s, 1, Kind::ammo_1));
    const Card depletion = give(s, 0, Kind::depletion);
    play(s, Action{.kind = ActionKind::play, .card = depletion.id, .target = target});
    INFO(info(c.planet).key);
    CHECK(s.players[0].hand.size() == static_cast<std::size_t>(2 + c.drawn));
    CHECK(s.players[1].voided.size() == 2);
    CHECK(find_planet(s.players[1], target)->depleted_turn == 1);
    // "Once play returns to your opponent, they can harvest their Planet ... then discards their depleted Planet
    // at the end of their turn."
    play(s, Action{.kind = ActionKind::end_turn});
    CHECK(find_planet(s.players[1], target) != nullptr);
    play(s, Action{.kind = ActionKind::end_turn});
    CHECK(find_planet(s.players[1], target) == nullptr);
    CHECK(s.players[1].discard.back().id == target);
  }
}

TEST_CASE("Attack costs escalate: 'main attack number 3 in a single turn will cost stated value +2 Additional Ammo'",
          "[interstellar][scenario]") {
  State s = bare_game();
  stand(s, 0, Zone::orbit);
  stand(s, 1, Zone::battlefield);
  for (int i = 0; i < 6; ++i) give(s, 0, Kind::ammo_1);
  give(s, 0, Kind::ammo_3);  // 9 Ammo in all: 2 + 3 + 4
  CHECK(attack_cost(s, 0, Unit::ship) == 2);
  attack(s, Unit::ship);
  CHECK(s.players[0].hand.size() == 5);  // paid with two +1s
  CHECK(attack_cost(s, 0, Unit::ship) == 3);
  attack(s, Unit::ship);
  CHECK(s.players[0].hand.size() == 4);       // paid with the +3
  CHECK(attack_cost(s, 0, Unit::ship) == 4);  // the 3rd: 2 + 2
  attack(s, Unit::ship);
  CHECK(s.players[0].hand.empty());
  CHECK_FALSE(legal(s, kShipAttack));
  CHECK(s.players[1].ship_hp == 300 - 3 * 80);
  // The character's count is its own: its 1st attack is at the printed cost.
  CHECK(attack_cost(s, 0, Unit::character) == 1);
  play(s, Action{.kind = ActionKind::end_turn});
  play(s, Action{.kind = ActionKind::end_turn});
  CHECK(attack_cost(s, 0, Unit::ship) == 2);  // a new turn starts over
}

TEST_CASE("'the additional damage does not carry over to their Character Card'", "[interstellar][scenario]") {
  State s = bare_game();
  stand(s, 0, Zone::battlefield);
  stand(s, 1, Zone::battlefield);
  s.players[1].ship_hp = 20;
  give(s, 0, Kind::ammo_2);
  attack(s, Unit::ship);
  CHECK(s.players[1].ship_hp == 0);
  CHECK(s.players[1].hp == 150);
  CHECK(last_event(s, "destroyed").at("unit") == "ship");
}

TEST_CASE("Once the ship is destroyed, 'If attacking with a Ship, you must roll a die. If EVEN, the attack lands'",
          "[interstellar][scenario]") {
  int even = 0, odd = 0;
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    State s = bare_game();
    stand(s, 0, Zone::battlefield);
    stand(s, 1, Zone::battlefield);
    s.players[1].ship_hp = 0;
    s.rng = Rng(seed);
    give(s, 0, Kind::ammo_2);
    attack(s, Unit::ship);
    const auto roll = last_event(s, "roll");
    REQUIRE(roll.is_object());
    const int die = roll.at("dice").at(0).get<int>();
    if (die % 2 == 0) {
      ++even;
      CHECK(s.players[1].hp == 150 - 110);
    } else {
      ++odd;
      CHECK(s.players[1].hp == 150);
    }
  }
  CHECK(even > 0);
  CHECK(odd > 0);
}

TEST_CASE(
    "Defensive Cloak: 'A +1 = 60 dmg, a +2 = 40 dmg, a +3 = 20 dmg, an Element 115 = full dmg, anything else "
    "results in a missed attack', the range penalty after",
    "[interstellar][scenario]") {
  struct Case {
    Kind drawn;
    int base;  // -1: a miss
  };
  for (const Case c : {Case{Kind::water_1, 60}, Case{Kind::energy_2, 40}, Case{Kind::ammo_3, 20}, Case{Kind::e115, 110},
                       Case{Kind::proxima_centauri, -1}, Case{Kind::halley, -1}}) {
    for (const Zone attacker : {Zone::battlefield, Zone::orbit}) {
      State s = bare_game(Character::shane, Character::shifter);
      stand(s, 0, attacker);
      stand(s, 1, Zone::battlefield);
      give(s, 0, Kind::ammo_2);
      give(s, 1, Kind::energy_1);  // the Cloak's Energy
      give(s, 1, Kind::water_1);   // and the out-of-turn 1
      stack_top(s, 0, c.drawn);
      play(s, kShipAttack);
      // The defender is asked out of turn.
      REQUIRE(s.phase == Phase::reaction);
      CHECK(to_act(s) == 1);
      play(s, Action{.kind = ActionKind::cloak});
      INFO(info(c.drawn).key << " from " << static_cast<int>(attacker));
      const int penalty = attacker == Zone::battlefield ? 0 : 30;
      CHECK(s.players[1].ship_hp == 350 - (c.base < 0 ? 0 : std::max(0, c.base - penalty)));
      CHECK(s.players[1].hand.empty());
      CHECK(last_event(s, "cloak").at("drawn").at("card") == info(c.drawn).key);
      // The attacker keeps the card it drew.
      CHECK(std::any_of(s.players[0].hand.begin(), s.players[0].hand.end(),
                        [&](const Card& h) { return h.kind == c.drawn; }));
      CHECK(to_act(s) == 0);
    }
  }
}

TEST_CASE("Force Field, played out of turn for 1 resource: -40 damage after the range penalty",
          "[interstellar][scenario]") {
  State s = bare_game();
  stand(s, 0, Zone::orbit);
  stand(s, 1, Zone::battlefield);
  give(s, 0, Kind::ammo_2);
  const Card field = give(s, 1, Kind::force_field);
  give(s, 1, Kind::ammo_1);
  play(s, kShipAttack);
  REQUIRE(to_act(s) == 1);
  play(s, Action{.kind = ActionKind::force_field, .card = field.id});
  CHECK(s.players[1].ship_hp == 300 - (110 - 30 - 40));
  CHECK(s.players[1].hand.empty());
  CHECK(s.players[1].discard.size() == 2);
}

TEST_CASE(
    "TimeWarp: 'gives your opponent 2 Main Deck and 2 Resource Deck draws ... IF both players decide to enact "
    "TimeWarp ... no consequences'",
    "[interstellar][scenario]") {
  for (int takers = 0; takers < 4; ++takers) {  // bit 0: the start player takes it, bit 1: the other
    State s = new_game(Config{}, {}, 11);
    const Seat first = s.start_player, second = opponent(first);
    const auto opening = s.players[idx(first)].hand;
    REQUIRE(s.players[idx(first)].hand.size() == 10);
    play(s, Action{.kind = (takers & 1) != 0 ? ActionKind::timewarp : ActionKind::keep});
    CHECK(to_act(s) == second);
    play(s, Action{.kind = (takers & 2) != 0 ? ActionKind::timewarp : ActionKind::keep});
    const bool bonus_second = takers == 1, bonus_first = takers == 2;
    CHECK(s.on_turn == first);
    CHECK(s.players[idx(first)].hand.size() == (bonus_first ? 14u : 12u));
    CHECK(s.players[idx(second)].hand.size() == 10);
    if ((takers & 1) == 0)
      CHECK(std::includes(s.players[idx(first)].hand.begin(), s.players[idx(first)].hand.end(), opening.begin(),
                          opening.end(), [](const Card& a, const Card& b) { return a.id < b.id; }));
    play(s, Action{.kind = ActionKind::end_turn});
    CHECK(s.players[idx(second)].hand.size() == (bonus_second ? 14u : 12u));
  }
}

TEST_CASE("'Once the second coordinate has been reached, a player's turn ends', no travel without primary resources",
          "[interstellar][scenario]") {
  State s = bare_game();
  CHECK_FALSE(legal(s, Action{.kind = ActionKind::move, .to = at(Zone::battlefield)}));
  give_primaries(s, 0);
  play(s, Action{.kind = ActionKind::move, .to = at(Zone::battlefield)});
  CHECK(s.on_turn == 0);
  play(s, Action{.kind = ActionKind::move, .to = at(Zone::orbit)});
  CHECK(s.on_turn == 1);
  CHECK(s.turn == 2);
  CHECK(last_event(s, "end_turn").at("why") == "second_move");
}

TEST_CASE("Winning: the opponent's character at 0 HP", "[interstellar][scenario]") {
  State s = bare_game();
  stand(s, 0, Zone::battlefield);
  stand(s, 1, Zone::battlefield);
  give_primaries(s, 0);
  s.players[1].ship_hp = 0;
  s.players[1].hp = 25;
  give(s, 0, Kind::energy_1);
  attack(s, Unit::character);
  CHECK(is_over(s));
  CHECK(s.end == End::defeated);
  CHECK(outcome(s).winner == 0);
  CHECK(outcome(s).scores == std::array<double, 2>{1.0, 0.0});
}

TEST_CASE(
    "Winning by deck-out: 'their Main Draw Deck has been depleted AND they have a zero action turn', read "
    "literally (a win) or as a loss",
    "[interstellar][scenario]") {
  for (const DeckOut rule : {DeckOut::literal_win, DeckOut::loss}) {
    for (const bool plays : {false, true}) {
      Config config;
      config.deckout = rule;
      State s = bare_game(Character::shane, Character::shane, config);
      Player& p = s.players[0];
      for (const Card& c : p.main_deck) p.discard.push_back(c);
      p.main_deck.clear();
      if (plays) play(s, Action{.kind = ActionKind::play, .card = give(s, 0, Kind::water_1).id});
      play(s, Action{.kind = ActionKind::end_turn});
      if (plays) {
        CHECK_FALSE(is_over(s));
      } else {
        REQUIRE(is_over(s));
        CHECK(s.end == End::deckout);
        CHECK(s.winner == (rule == DeckOut::literal_win ? 0 : 1));
      }
    }
  }
}

TEST_CASE("The turn cap: the higher character HP wins, equal HP is a draw", "[interstellar][scenario]") {
  Config config;
  config.max_turns = 2;
  for (const int hp1 : {150, 100}) {
    State s = bare_game(Character::shane, Character::shane, config);
    s.players[1].hp = hp1;
    play(s, Action{.kind = ActionKind::end_turn});
    CHECK_FALSE(is_over(s));
    play(s, Action{.kind = ActionKind::end_turn});
    REQUIRE(is_over(s));
    CHECK(s.end == End::turn_cap);
    CHECK(s.winner == (hp1 == 150 ? -1 : 0));
    CHECK(outcome(s).scores[0] == (hp1 == 150 ? 0.5 : 1.0));
  }
}
