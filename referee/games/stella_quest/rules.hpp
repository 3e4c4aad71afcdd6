#pragma once
// Stella Quest, for 2-4 players (docs/games/stella_quest.md; rulebook 001). 2 players add the Dummy.
//
// Setup: the 54 cards are shuffled, 5 dealt to each player, one flipped to start the discard
// pile; everyone has 5 lit tokens, nobody holds the Black Star marker, a random seat leads.
// Trick: the leader (the marker holder after a won trick) plays any card, then clockwise (with 2
// players: leader, Dummy, the other player). The leading colour is the first non-break card's; a
// player holding it must play it or a break. Winner: the later Super Trump (second copy of a face
// in the trick plus the top discard), else the highest card of the trump colour (the top
// discard's; a break on top = no trump), else the highest of the leading colour. All breaks: no
// winner. The winner W loses a token if it already held the marker (else takes it), must collect
// one emotion card of the trick (losing its jewels in tokens if W already has that number), then
// chooses the new top discard among the rest (a break if one was played) and leads next. A hand
// that empties refills at once (lit tokens, 2 with 1 lit). On its turn, before playing, a player
// with >= 2 lit tokens may darken one to draw 3 (up to 10 cards). The moment the deck runs out,
// the discard pile minus its top is shuffled into a new deck (so an empty deck always sits next
// to a discard pile of at most one card). End: all of 1-6 collected (enlightenment, immediate
// win), a player at 0 tokens (eliminated; the others are scored: tokens + jewels on collection
// cards whose number is not duplicated), or the project's own endings
// (docs/games/stella_quest.md): the trick cap (config max_tricks) and a player who must play with
// no card left anywhere to draw.
//
// Every decision is atomic (one Action) with a canonical list of legal actions; forced decisions
// (one legal choice: play, collect or top) are applied by the engine, so a seat is asked only when
// it has at least 2 legal actions. The State is a plain value holding its own Rng.

#include <array>
#include <cstdint>
#include <vector>

#include "referee/core/enum_names.hpp"
#include "referee/core/result.hpp"
#include "referee/core/rng.hpp"
#include "referee/core/seat.hpp"
#include "referee/games/legal.hpp"
#include "referee/games/stella_quest/cards.hpp"

namespace arena::stella_quest {

inline constexpr int kMinSeats = 2;
inline constexpr int kMaxSeats = 4;
inline constexpr int kDealt = 5;
inline constexpr int kTokens = 5;
inline constexpr int kHandLimit = 10;
inline constexpr int kVoluntaryDraw = 3;
inline constexpr int kDefaultMaxTricks = 200;
inline constexpr int kMaxMaxTricks = 100000;
inline constexpr std::int8_t kNone = -1;   // no seat / no card
inline constexpr std::int8_t kDummy = -2;  // the Dummy of the 2-player game, as a seat

struct Config {
  // The project's cap (not in the rulebook): after this many tricks the game ends and is scored.
  int max_tricks = kDefaultMaxTricks;
  bool operator==(const Config&) const = default;
};

enum class Phase : std::uint8_t {
  play,     // the seat to act plays a card (or draws 3 for a token first)
  collect,  // the trick winner takes an emotion card of the trick into its collection
  top,      // the trick winner chooses the new top of the discard pile
  over,
};

enum class End : std::uint8_t {
  none,
  enlightenment,  // a player collected 1-6: it wins alone
  elimination,    // a player reached 0 tokens: it loses, the others are scored
  trick_cap,      // config.max_tricks tricks were played: everyone is scored
  exhausted,      // a player had to play with an empty hand and nothing to draw: scored
};

struct Player {
  std::vector<CardId> hand;        // sorted by id
  std::vector<CardId> collection;  // in the order taken
  std::int8_t tokens = kTokens;    // lit tokens
  bool operator==(const Player&) const = default;
};

struct Play {
  std::int8_t seat = kNone;  // or kDummy
  CardId card = 0;
  bool operator==(const Play&) const = default;
};

struct State {
  Config config;
  Rng rng;
  std::int8_t seats = 0;
  Phase phase = Phase::play;
  std::vector<CardId> deck;     // back() is the top
  std::vector<CardId> discard;  // back() is the top: its colour is the trump
  std::vector<Player> players;
  std::int8_t marker = kNone;  // seat, kDummy or kNone
  std::int8_t start_player = 0;
  std::int8_t leader = 0;
  std::vector<Play> trick;  // cards played this trick, in order
  // The trick's leading colour: the first non-break card's, fixed when it is played and kept
  // (during collect and top too) until the trick ends. Colour::none before that.
  Colour leading = Colour::none;
  std::int8_t winner = kNone;  // during collect and top
  std::int32_t tricks = 0;     // tricks completed (won, voided by the Dummy, or all breaks)
  End end = End::none;
  std::int8_t decided = kNone;  // the enlightened or eliminated seat
  bool operator==(const State&) const = default;
};

enum class ActionKind : std::uint8_t { play, draw, collect, top };

// One atomic decision. Cards are named by face: copies of a face are interchangeable.
struct Action {
  ActionKind kind = ActionKind::play;
  Face face = 0;  // play, collect, top
  bool operator==(const Action&) const = default;

  static Action play(Face face);
  static Action draw();
  static Action collect(Face face);
  static Action top(Face face);
};

State new_game(const Config& config, std::uint64_t seed, int seats);

bool is_over(const State& s);
Seat to_act(const State& s);  // a human seat; the state must not be over
// Appends the legal actions in canonical order to `out` (cleared first): play actions by face
// (colour, then number, Break last) then draw; collect and top by face.
void legal_actions(const State& s, std::vector<Action>& out);
inline std::vector<Action> legal_actions(const State& s) {
  return games::legal_list(s, legal_actions);
}
// Applies a legal action (asserted), then every forced decision that follows (apply_forced).
// Use is_legal() first for input from outside.
void apply(State& s, const Action& a);
inline bool is_legal(const State& s, const Action& a) {
  return !is_over(s) && games::legal_contains(legal_actions(s), a);
}
// While the game is not over and the seat to act has exactly one legal action, applies it: a
// decision with one legal action is never asked. new_game and apply end with it; a state laid out
// by hand (tests) may call it to reach the engine's next real decision.
void apply_forced(State& s);

// ---- trick queries (trick.cpp) --------------------------------------------------------------

// The seats in this trick's play order (kDummy included with 2 players).
int trick_size(const State& s);
std::int8_t trick_seat(const State& s, int position);
// The colour of the first non-break card of `trick`, or Colour::none. Of a whole trick (or one
// being played) this is its leading colour; after the winner collected, use State::leading.
Colour leading_colour(const std::vector<Play>& trick);
// The trump colour set by a top discard card (Colour::none for a break).
inline Colour trump_colour(CardId top) {
  return colour_of(top);
}
// The index in `trick` of the winning card (docs/games/stella_quest.md), or -1 if every card is a break.
int trick_winner(const std::vector<Play>& trick, CardId top_discard);
// Whether the card at `index` is a Super Trump (second copy of its face in the play area).
bool is_super_trump(const std::vector<Play>& trick, CardId top_discard, int index);

// ---- scoring (trick.cpp) --------------------------------------------------------------------

struct PlayerScore {
  int tokens = 0;
  int jewels = 0;                 // on face-up collection cards
  std::vector<CardId> face_down;  // collection cards flipped down (duplicated numbers)
  int points = 0;                 // tokens + jewels
  bool operator==(const PlayerScore&) const = default;
};

struct Outcome {
  End end = End::none;
  std::vector<PlayerScore> players;
  // Rank-friendly scores: the points, +100 for the enlightened seat (it wins outright), -1 for
  // the eliminated seat (it loses). Equal best scores share the victory.
  std::vector<int> scores;
  std::vector<int> winners;
  bool operator==(const Outcome&) const = default;
};

// Points as in docs/games/stella_quest.md for every seat; valid at any time (the game need not be over).
Outcome score(const State& s);
// Numbers 1-6 present in a collection, as a bit set (bit n = number n).
unsigned collected_numbers(const std::vector<CardId>& collection);

// Test support: redeals every card `seat` cannot identify (the other hands and the deck),
// keeping each hand's colours and the colour of the top deck card.
void redeal_unseen(State& s, Seat seat, Rng& rng);
// Every card is in exactly one place, sizes are within the rules, an empty deck sits next to a
// discard pile of at most one card, the leading colour matches the trick; an error names the
// breach.
Status check_invariants(const State& s);

std::uint64_t hash(const State& s);

}  // namespace arena::stella_quest

// The names the JSON (views, actions, the full state, the outcome) gives the enums: enum_name and
// games::enum_from_json.
template <>
struct arena::EnumNames<arena::stella_quest::Phase> {
  using Phase = stella_quest::Phase;
  static constexpr auto table =
      name_table(Phase::play, "play", Phase::collect, "collect", Phase::top, "top", Phase::over, "over");
};
template <>
struct arena::EnumNames<arena::stella_quest::End> {
  using End = stella_quest::End;
  static constexpr auto table = name_table(End::none, "none", End::enlightenment, "enlightenment", End::elimination,
                                           "elimination", End::trick_cap, "trick_cap", End::exhausted, "exhausted");
};
template <>
struct arena::EnumNames<arena::stella_quest::ActionKind> {
  using K = stella_quest::ActionKind;
  static constexpr auto table = name_table(K::play, "play", K::draw, "draw", K::collect, "collect", K::top, "top");
};
