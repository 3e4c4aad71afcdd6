#pragma once
// The engine's internal steps shared by rules.cpp (turns, draws) and trick.cpp (the end of a
// trick). Not part of the game's interface.

#include "referee/core/index.hpp"
#include "referee/games/stella_quest/rules.hpp"

namespace arena::stella_quest::detail {

// The rulebook: "If the deck runs out of cards, immediately shuffle all cards in the discard pile
// apart from the top card to make a new deck." Called whenever the deck may have run out (a card
// drawn) or the discard pile may have grown (a trick discarded): an empty deck is rebuilt at once
// (the state's Rng) when the discard pile holds more than its top card.
void restock(State& s);
// Draws the top card, then restocks. False when the deck is empty (and so is the discard pile
// below its top): nothing can be drawn.
bool draw_card(State& s, CardId& out);
// Draws up to `n` cards into `seat`'s hand (fewer if nothing is left).
void draw_into_hand(State& s, int seat, int n);
// A card joins the trick; the first non-break card fixes the trick's leading colour.
void add_to_trick(State& s, Play play);
// Runs the automatic steps (the Dummy's card, the refill of an empty hand) until a human seat
// must decide or the game ends.
void begin_turn(State& s);
// The trick is complete: find the winner and carry out docs/games/stella_quest.md, section 6.
void resolve_trick(State& s);
void collect(State& s, Face face);
void choose_top(State& s, Face face);
void end_game(State& s, End end, std::int8_t seat);

}  // namespace arena::stella_quest::detail
