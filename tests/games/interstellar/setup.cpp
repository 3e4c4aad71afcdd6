#include "tests/games/interstellar/setup.hpp"

#include <algorithm>

namespace arena::interstellar::testing {

State bare_game(Character seat0, Character seat1, Config config) {
  std::array<SeatConfig, kSeats> seats;
  seats[0].character = seat0;
  seats[1].character = seat1;
  return bare_game(seats, config);
}

State bare_game(const std::array<SeatConfig, kSeats>& seats, Config config) {
  State s = new_game(config, seats, 1);
  for (Player& p : s.players) {
    for (const Card& c : p.hand) (is_resource_card(c.kind) ? p.resource_deck : p.main_deck).push_back(c);
    p.hand.clear();
    p.timewarp = 0;
  }
  s.phase = Phase::main;
  s.start_player = 0;
  s.on_turn = 0;
  s.turn = 1;
  s.events.clear();
  REQUIRE(check_invariants(s).ok());
  return s;
}

Card take(State& s, Seat seat, Kind kind) {
  Player& p = s.players[idx(seat)];
  for (auto* pile : {&p.resource_deck, &p.main_deck}) {
    auto it = std::find_if(pile->begin(), pile->end(), [&](const Card& c) { return c.kind == kind; });
    if (it != pile->end()) {
      const Card c = *it;
      pile->erase(it);
      return c;
    }
  }
  FAIL("seat " << seat << " has no " << info(kind).key << " left in its decks");
  return Card{};
}

Card give(State& s, Seat seat, Kind kind) {
  const Card c = take(s, seat, kind);
  auto& hand = s.players[idx(seat)].hand;
  hand.insert(std::lower_bound(hand.begin(), hand.end(), c, [](const Card& a, const Card& b) { return a.id < b.id; }),
              c);
  return c;
}

void stack_top(State& s, Seat seat, Kind kind) {
  const Card c = take(s, seat, kind);
  Player& p = s.players[idx(seat)];
  (is_resource_card(kind) ? p.resource_deck : p.main_deck).push_back(c);
}

CardId put_planet(State& s, Seat seat, Kind kind) {
  const Card c = take(s, seat, kind);
  s.players[idx(seat)].planets.push_back(Planet{.card = c});
  return c.id;
}

void give_primaries(State& s, Seat seat) {
  Player& p = s.players[idx(seat)];
  p.water.push_back(take(s, seat, Kind::water_1));
  p.stars.push_back(take(s, seat, Kind::proxima_centauri));
}

bool legal(const State& s, const Action& a) {
  return is_legal(s, a);
}

void play(State& s, const Action& a) {
  INFO("action " << to_json(a).dump());
  REQUIRE(is_legal(s, a));
  apply(s, a);
  const auto ok = check_invariants(s);
  INFO((ok ? std::string() : ok.error()));
  REQUIRE(ok.ok());
}

void attack(State& s, Unit by, CardId target) {
  const Seat attacker = s.on_turn;
  play(s, Action{.kind = ActionKind::attack, .unit = by, .target = target});
  REQUIRE(s.phase == Phase::reaction);
  REQUIRE(to_act(s) == opponent(attacker));
  play(s, Action{.kind = ActionKind::pass});
}

nlohmann::json last_event(const State& s, const std::string& name) {
  const auto v = view(s, 0);
  for (auto list : {v.at("events"), v.at("last_events")}) {
    for (auto it = list.rbegin(); it != list.rend(); ++it) {
      if (it->at("event") == name) return *it;
    }
  }
  return nullptr;
}

}  // namespace arena::interstellar::testing
