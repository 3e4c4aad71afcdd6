#pragma once
// Laying out Interstellar states by hand for the rule tests: a game past the TimeWarp with
// empty hands, and cards moved from a seat's decks to where a scenario needs them (so that
// every card stays in exactly one place and check_invariants keeps holding).

#include <catch2/catch.hpp>

#include "referee/core/index.hpp"
#include "referee/games/interstellar/json.hpp"
#include "referee/games/interstellar/rules.hpp"

namespace arena::interstellar::testing {

using arena::idx;

// A game with these characters, both seats having kept, seat 0 on turn 1 with an empty hand and
// nothing in play; every card of both seats in its decks, the moved cards on top of nothing.
State bare_game(Character seat0 = Character::shane, Character seat1 = Character::shane, Config config = Config{});
// The same with each seat's own configuration (its character and deck lists).
State bare_game(const std::array<SeatConfig, kSeats>& seats, Config config = Config{});

// Takes a card of `kind` from the seat's decks, for placing by the test.
Card take(State& s, Seat seat, Kind kind);
// Takes a card of `kind` into the seat's hand.
Card give(State& s, Seat seat, Kind kind);
// Puts a card of `kind` on top of the seat's Resource or Main deck (its deck by kind).
void stack_top(State& s, Seat seat, Kind kind);
// Puts planet `kind` into play for the seat and returns its id.
CardId put_planet(State& s, Seat seat, Kind kind);
// Primary Water and a Star for the seat (movement and character attacks need them).
void give_primaries(State& s, Seat seat);

// Plays an attack, and the defender's pass (it is always asked: setup.cpp checks that it was).
void attack(State& s, Unit by, CardId target = kNoCard);

// Applies `a`, requiring it to be legal first.
void play(State& s, const Action& a);
bool legal(const State& s, const Action& a);

// The value of an event kind's JSON in the view of seat 0: the last event of that name this turn.
nlohmann::json last_event(const State& s, const std::string& name);

// The ship's primary attack.
inline const Action kShipAttack{.kind = ActionKind::attack, .unit = Unit::ship};

}  // namespace arena::interstellar::testing
