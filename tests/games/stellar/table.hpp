#pragma once
// A Stellar table laid out by hand with card names, so that scenario tests read like the
// rulebook: "Moon 3", "Black Hole 6/0", "Mars 3 ◆" (the ◆ starter), "Satellite 2".
//
// Each name takes the next physical card of that name not yet on the table (the standard deck
// has two of most), so a scenario can never use one card twice. The State starts at Step 1 of
// turn 1, seat 0 to play; a test fills it in, then plays it with legal_actions / apply / score.

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "referee/games/stellar/rules.hpp"
#include "referee/games/stellar/scoring.hpp"

namespace arena::stellar::testing {

enum class Face { up, down };

// Card names, in the order a method says.
using CardNames = std::vector<std::string_view>;

class Table {
 public:
  explicit Table(Config config = Config{});

  State& state() { return s_; }
  const State& state() const { return s_; }

  // The next unused card named `name` ("Mars 3 ◆" for the starter; a plain name never gives a
  // starter). Throws if there is none left, which fails the test with the name.
  int take(std::string_view name);

  // Setup as the rulebook does it: `up` face up in telescope slot 1, `kept` into the notebook.
  void starters(int seat, std::string_view up, std::string_view kept);
  void telescope(int seat, int slot, std::string_view name, Face face = Face::up);
  // Face up, slot by slot: telescope(0, {{2, "Saturn 5"}, {3, "Venus 2"}}).
  void telescope(int seat, std::initializer_list<std::pair<int, std::string_view>> slot_names);
  void notebook(int seat, std::initializer_list<std::string_view> names);
  void hand(int seat, const CardNames& names);
  // Row slots 1-5, in order.
  void row(const CardNames& names);
  // The named cards on top of the deck (the first name is the top), every card not yet on the
  // table below them, so the state holds all 60 cards.
  void deck(const CardNames& top_first);
  // Exactly these cards in the deck (first = top) and these in the discard pile; for the
  // reshuffle rule.
  void deck_only(std::initializer_list<std::string_view> top_first);
  void discard(std::initializer_list<std::string_view> names);
  // Every card not yet on the table onto the discard pile.
  void discard_rest();

  // The card named `name` in `seat`'s hand (REQUIRE: there is one).
  int in_hand(int seat, std::string_view name) const;

  std::string name(int id) const;
  std::vector<std::string> names(const std::vector<CardId>& ids) const;
  std::vector<std::string> row_names() const;  // "" for an empty slot
  // The top `n` cards of the deck, top first.
  std::vector<std::string> deck_top(std::size_t n) const;

 private:
  State s_;
  std::vector<bool> used_;
};

// Round 1, seat 0 to play, as in the rulebook's examples: both starters placed (seat 0 Moon 3 ◆ up
// and Mars 3 ◆ kept, seat 1 Asteroid 3 ◆ up and Cloud 3 ◆ kept), seat 1 holding Saturn 5 and Moon 5.
// The test deals seat 0's hand, the row and the deck.
Table opening(Config config = Config{});
// The opening with seat 0's hand, the row (slots 1-5) and the deck's top cards dealt.
struct Deal {
  CardNames hand0;
  CardNames row;
  CardNames deck_top;
};
Table opening(const Deal& deal, Config config = Config{});

// Actions by rulebook numbers (row slots 1-5, telescope slots 1-12), each checked (REQUIRE) to
// be among the legal actions, so a test plays only moves the engine offers.
Action take(const State& s, int row_slot);
Action play_notebook(const State& s, int card);
Action play_telescope(const State& s, int card, int slot, Face face);
Action place(const State& s, int slot, Face face);

// One type's line of a player's score.
inline const TypeScore& type_score(const PlayerScore& p, CardType type) {
  return p.types[static_cast<std::size_t>(type)];
}

// Telescope slots 1-12 set in a face_up_slots() mask.
std::vector<int> slots(std::uint16_t mask);

}  // namespace arena::stellar::testing
