#pragma once
// The engine's internal steps shared by rules.cpp (turns, draws) and trick.cpp (the end of a
// trick). Not part of the game's interface.

#include "referee/games/stella_quest/rules.hpp"

namespace arena::stella_quest::detail {

inline std::size_t idx(int i) { return static_cast<std::size_t>(i); }

// Draws the top card, first rebuilding the deck from the discard pile minus its top card when
// the deck is empty (docs/games/stella_quest.md). False when nothing can be drawn.
bool draw_card(State& s, CardId& out);
// Draws up to `n` cards into `seat`'s hand (fewer if nothing is left).
void draw_into_hand(State& s, int seat, int n);
// Runs the automatic steps (the Dummy's card, the refill of an empty hand) until a human seat
// must decide or the game ends.
void begin_turn(State& s);
// The trick is complete: find the winner and carry out docs/games/stella_quest.md, B4 and B7.
void resolve_trick(State& s);
void collect(State& s, Face face);
void choose_top(State& s, Face face);
void end_game(State& s, End end, std::int8_t seat);

}  // namespace arena::stella_quest::detail
