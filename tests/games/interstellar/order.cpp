// The orders and places docs/games/interstellar.md states where the rules leave them open, each
// pinned: the cards of one payment (pay events and the discard pile alike), a card played after
// the cards that pay for it, a planet leaving play with what lay on it, Harvest's events, where a
// destroyed ship lies once its planet is gone, and the void as a public pile.

#include <catch2/catch.hpp>

#include "tests/games/interstellar/setup.hpp"

using namespace arena;
using namespace arena::interstellar;
using namespace arena::interstellar::testing;
using nlohmann::json;

namespace {

// This turn's events of `seat` that name a card, as kind:id.
std::vector<std::string> card_events(const State& s, Seat seat) {
  std::vector<std::string> out;
  const json v = view(s, seat);  // kept: the loop reads inside it
  for (const json& e : v.at("events")) {
    if (e.at("seat") == seat && e.contains("card") && e.at("card").is_object())
      out.push_back(e.at("event").get<std::string>() + ":" + std::to_string(e.at("card").at("id").get<int>()));
  }
  return out;
}

std::vector<CardId> ids(const std::vector<Card>& cards) {
  std::vector<CardId> out;
  for (const Card& c : cards) out.push_back(c.id);
  return out;
}

// Both seats' units at the Battlefield, seat 0 (Shane) on turn with the Ammo for a ship attack and
// a Water +1 on top of its Resource deck (what a Cloak makes it draw); seat 1 plays `defender`.
State duel(Character defender) {
  State s = bare_game(Character::shane, defender);
  for (Player& p : s.players) p.ship_at = p.char_at = Loc{Zone::battlefield, kNoCard};
  give(s, 0, Kind::ammo_2);
  stack_top(s, 0, Kind::water_1);
  return s;
}

}  // namespace

TEST_CASE("A card played comes before the cards that pay for it, in the events and in the discard pile alike",
          "[interstellar][order]") {
  State s = duel(Character::shane);
  const Card field = give(s, 1, Kind::force_field);
  const Card payer = give(s, 1, Kind::ammo_1);
  play(s, kShipAttack);
  REQUIRE(to_act(s) == 1);
  play(s, Action{.kind = ActionKind::force_field, .card = field.id});
  CHECK(ids(s.players[1].discard) == std::vector<CardId>{field.id, payer.id});
  std::vector<std::string> theirs;
  const json events1 = view(s, 0).at("events");
  for (const json& e : events1) {
    if (e.at("seat") == 1 && e.contains("card"))
      theirs.push_back(e.at("event").get<std::string>() + ":" + std::to_string(e.at("card").at("id").get<int>()));
  }
  CHECK(theirs == std::vector<std::string>{"reaction:" + std::to_string(field.id), "pay:" + std::to_string(payer.id)});

  // An action as the turn's second (1 card): the same order.
  State t = bare_game();
  const Card junk1 = give(t, 0, Kind::space_junk), junk2 = give(t, 0, Kind::space_junk);
  const Card halley = give(t, 0, Kind::halley);
  play(t, Action{.kind = ActionKind::play, .card = junk1.id});
  play(t, Action{.kind = ActionKind::play, .card = junk2.id});
  CHECK(ids(t.players[0].discard) == std::vector<CardId>{junk1.id, junk2.id, halley.id});
  CHECK(card_events(t, 0) == std::vector<std::string>{"play:" + std::to_string(junk1.id),
                                                      "play:" + std::to_string(junk2.id),
                                                      "pay:" + std::to_string(halley.id)});
}

TEST_CASE("One payment: the hand cards in the order the rule picks them (typed part, then generic), then E115s",
          "[interstellar][order]") {
  // A Cloak costs 1 Energy and 1 card: the Energy +1 pays the typed part, the Water the generic.
  State s = duel(Character::shifter);
  const Card water = give(s, 1, Kind::water_1);
  const Card energy = give(s, 1, Kind::energy_1);
  REQUIRE(water.id < energy.id);  // the id order is not the payment's order
  play(s, kShipAttack);
  play(s, Action{.kind = ActionKind::cloak});
  CHECK(ids(s.players[1].discard) == std::vector<CardId>{energy.id, water.id});
  std::vector<std::string> pays;
  for (const std::string& e : card_events(s, 1)) {
    if (e.rfind("pay:", 0) == 0) pays.push_back(e);
  }
  CHECK(pays == std::vector<std::string>{"pay:" + std::to_string(energy.id), "pay:" + std::to_string(water.id)});

  // The same Cloak from a Water and a recharged E115: the E115 pays the typed part, the Water the
  // generic one, yet the hand card comes first: all the hand cards, then the E115s.
  State t = duel(Character::shifter);
  const Card hand_water = give(t, 1, Kind::water_1);
  const Card e115 = take(t, 1, Kind::e115);
  t.players[1].elements.push_back(Element{e115, false});
  play(t, kShipAttack);
  play(t, Action{.kind = ActionKind::cloak});
  std::vector<json> pays2;
  const json events2 = view(t, 0).at("events");
  for (const json& e : events2) {
    if (e.at("event") == "pay" && e.at("seat") == 1) pays2.push_back(e);
  }
  REQUIRE(pays2.size() == 2);
  CHECK(pays2[0].at("card").at("id") == hand_water.id);
  CHECK(pays2[0].at("depleted") == false);
  CHECK(pays2[1].at("card").at("id") == e115.id);
  CHECK(pays2[1].at("depleted") == true);
  CHECK(ids(t.players[1].discard) == std::vector<CardId>{hand_water.id});
}

TEST_CASE(
    "A planet leaving play: its uncollected cards, then the planet, then its Colonization, and the void is public",
    "[interstellar][order]") {
  std::array<SeatConfig, kSeats> seats;
  seats[1].main[static_cast<std::size_t>(Kind::colonization)] = 1;
  State s = bare_game(seats);
  const CardId mars = put_planet(s, 1, Kind::mars);
  const Card h1 = take(s, 1, Kind::ammo_1), h2 = take(s, 1, Kind::energy_2);
  s.players[1].planets.back().harvest = {h1, h2};
  const Card colony = take(s, 1, Kind::colonization);
  s.players[1].planets.back().colony = colony;
  const Card v = give(s, 0, Kind::into_the_void);
  play(s, Action{.kind = ActionKind::play, .card = v.id, .target = mars});
  CHECK(ids(s.players[1].voided) == std::vector<CardId>{h1.id, h2.id, mars, colony.id});
  // The events name the planet (with the count of cards lost with it) and then its Colonization.
  std::vector<json> voids;
  const json events3 = view(s, 0).at("events");
  for (const json& e : events3) {
    if (e.at("event") == "void") voids.push_back(e);
  }
  REQUIRE(voids.size() == 2);
  CHECK(voids[0].at("card").at("id") == mars);
  CHECK(voids[0].at("harvest_lost") == 2);
  CHECK(voids[1].at("card").at("id") == colony.id);
  CHECK_FALSE(voids[1].contains("harvest_lost"));
  // Once in the void the harvested cards are public: both seats' views list them, the same.
  const json void0 = view(s, 0).at("players").at(1).at("void"), void1 = view(s, 1).at("players").at(1).at("void");
  CHECK(void0 == void1);
  CHECK(void0.at(0).at("card") == "ammo_1");
  CHECK(void0.at(1).at("card") == "energy_2");
}

TEST_CASE("A Harvest that places nothing on a planet sends no harvest event for it", "[interstellar][order]") {
  State s = bare_game();
  put_planet(s, 0, Kind::mars);     // R 6: 2 cards
  put_planet(s, 0, Kind::mercury);  // R 3: 1 card
  // Only 2 Resource cards left: Mars takes both, Mercury none.
  while (s.players[0].resource_deck.size() > 2) {
    s.players[0].discard.push_back(s.players[0].resource_deck.back());
    s.players[0].resource_deck.pop_back();
  }
  const Card h = give(s, 0, Kind::harvest);
  play(s, Action{.kind = ActionKind::play, .card = h.id});
  std::vector<json> harvests;
  const json events4 = view(s, 0).at("events");
  for (const json& e : events4) {
    if (e.at("event") == "harvest") harvests.push_back(e);
  }
  REQUIRE(harvests.size() == 1);
  CHECK(harvests[0].at("planet") == s.players[0].planets[0].card.id);
  CHECK(harvests[0].at("count") == 2);
}

TEST_CASE("A destroyed ship lies in its Orbit once the planet it fell on leaves play", "[interstellar][order]") {
  State s = bare_game();
  const CardId mars = put_planet(s, 1, Kind::mars);
  s.players[1].ship_hp = 0;
  s.players[1].ship_at = Loc{Zone::planet, mars};
  s.players[1].char_at = Loc{Zone::battlefield, kNoCard};
  const Card v = give(s, 0, Kind::into_the_void);
  play(s, Action{.kind = ActionKind::play, .card = v.id, .target = mars});
  CHECK(s.players[1].ship_at == Loc{Zone::orbit, kNoCard});
  CHECK(view(s, 0).at("players").at(1).at("ship_at") == json{{"zone", "orbit"}});
  CHECK(s.players[1].char_at == Loc{Zone::battlefield, kNoCard});
}
