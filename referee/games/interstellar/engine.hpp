#pragma once
// The pieces of Interstellar's rules that rules.cpp (the turn) and combat.cpp (attacks and
// reactions) share. Internal to the game's folder.

#include <vector>

#include "referee/games/interstellar/rules.hpp"

namespace arena::interstellar {

// A seat or a count as an index, and a seat as the State's small integer.
inline std::size_t idx(int i) {
  return static_cast<std::size_t>(i);
}
inline std::int8_t seat8(Seat s) {
  return static_cast<std::int8_t>(s);
}

// rules.cpp
void add_to_hand(Player& p, Card c);                           // kept sorted by id
void draw_cards(State& s, Seat seat, int main, int resource);  // into the hand; records the counts
void collect(State& s, Seat seat);
void remove_planet(State& s, Seat owner, CardId id, bool to_void);
void damage(State& s, Seat seat, Unit unit, int amount);  // ends the game at a character's 0 HP
int roll_die(State& s);
void end_turn(State& s, int why);  // why: 0 declared, 1 second move, 2 escape pod

// plays.cpp
// `one_card`: whether the seat can pay a generic cost of 1 (the same for every card of the hand:
// only resources pay, and they are played for free).
void play_legal(const State& s, const Card& c, bool one_card, std::vector<Action>& out);
void apply_play(State& s, const Action& a);

// combat.cpp
struct Purse;
bool can_attack(const State& s, Seat seat, Unit by, const Purse& purse);
bool can_invade(const State& s, Seat seat, const Purse& purse);
void reaction_legal(const State& s, std::vector<Action>& out);
void declare_attack(State& s, Unit by, CardId target);  // target: their Reinforcements, else kNoCard
void react(State& s, const Action& a);
void invade(State& s, CardId planet);
void bombard(State& s);

}  // namespace arena::interstellar
