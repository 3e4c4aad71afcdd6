#pragma once
// A Stella Quest table laid out by hand with card names, so that scenario tests read like the
// rulebook: "Blue 6", "Green 2", "Break".
//
// Each name takes the next physical card of that face not yet on the table (two copies of each
// emotion, six breaks), so a scenario can never use one card twice. finish() puts every card
// not yet placed at the bottom of the deck (or elsewhere, see below), so the state holds all 54
// cards. The State starts in the play phase with 5 lit tokens each, nobody holding the marker,
// seat 0 leading. finish() does not apply forced decisions: a table whose first seat has a single
// legal action shows a decision the engine would not ask (apply_forced() takes it).

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "referee/games/stella_quest/rules.hpp"

namespace arena::stella_quest::testing {

class Table {
 public:
  explicit Table(int seats, Config config = Config{});

  // The next unused card of face `name`; throws (failing the test) when none is left.
  CardId take(std::string_view name);

  void hand(int seat, std::initializer_list<std::string_view> names);
  // Every seat's hand, seat 0 first.
  void hands(std::initializer_list<std::initializer_list<std::string_view>> by_seat);
  void collection(int seat, std::initializer_list<std::string_view> names);
  // The discard pile, bottom first: the last name is the top (the trump).
  void discard(std::initializer_list<std::string_view> bottom_first);
  // Named cards on top of the deck, top first; finish() adds every unused card below them.
  void deck(std::initializer_list<std::string_view> top_first);
  void tokens(int seat, int lit);
  void marker(int seat_or_dummy);
  void leader(int seat);
  // finish() puts the cards not yet placed into `seat`'s collection (no break may be left over).
  void rest_in_collection(int seat);

  // Completes the state (every card placed, invariants checked with REQUIRE) and returns it.
  // rest_in_deck = false: the cards not yet placed go under the discard pile, so the deck holds
  // only the cards named by deck() (at least one: an empty deck is rebuilt at once).
  State& finish(bool rest_in_deck = true);
  State& state() { return s_; }

 private:
  State s_;
  std::vector<bool> used_;
  std::vector<CardId> deck_top_;
  int rest_collection_ = -1;
};

// The cards' names, in order.
std::vector<std::string> names(const std::vector<CardId>& cards);
std::string top_name(const State& s);

// Actions by card name, each checked (REQUIRE) to be among the legal actions, then applied.
void play(State& s, std::string_view name);
// Plays the named cards in turn (each checked as play() checks it).
void play_all(State& s, std::initializer_list<std::string_view> names);
void collect(State& s, std::string_view name);
void top(State& s, std::string_view name);
void draw(State& s);

// The legal actions as text ("play Blue 6", "draw", "collect Blue 2", "top Break").
std::vector<std::string> legal(const State& s);

}  // namespace arena::stella_quest::testing
