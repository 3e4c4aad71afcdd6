#pragma once
// Stellar, for 2 players (docs/games/stellar.md; the English and French rulebooks and a summary).
//
// Setup: the five ◆ starters are shuffled and two dealt to each player; each player chooses, in
// secret, which of its two goes face up to telescope slot 1 (the other goes to its notebook).
// Then the other 56 cards are shuffled, 2 dealt to each hand, 5 revealed into the row, and a start
// player drawn. 11 rounds follow; in each, both players take one turn, the start player first.
// A turn: (0) if the opponent took a satellite in its last Step 1, optionally discard and refill
// the whole row; (1) take a row card into hand; (2) play a hand card to the telescope or the
// notebook; (3) the row card in the slot numbered like that card (the top of the deck for a 6/0 or
// an empty slot; slot 3 for a face-down card by default) goes to the other area; (4) refill.
// Telescope: a typed card goes face up next to a face-up card of its type, or anywhere if there is
// none; a satellite anywhere; any card face down anywhere. At the end each player puts one of its
// two hand cards into its notebook. Scoring: stars x longest run per type, 10 per section won,
// 10 for all five types face up (scoring.hpp).
//
// Every decision is atomic (one Action), with a canonical list of legal actions. The State is a
// plain value holding its own Rng; functions are free and pure (no I/O, no clock, no globals).

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "referee/core/enum_names.hpp"
#include "referee/core/result.hpp"
#include "referee/core/rng.hpp"
#include "referee/core/seat.hpp"
#include "referee/games/legal.hpp"
#include "referee/games/stellar/cards.hpp"
#include "referee/games/stellar/telescope.hpp"

namespace arena::stellar {

inline constexpr int kSeats = 2;
inline constexpr int kRounds = 11;
inline constexpr int kTurns = kRounds * kSeats;
inline constexpr int kRowSlots = 5;
inline constexpr std::int16_t kNone = -1;  // no card / no choice yet

// docs/games/stellar.md: which row slot Step 3 uses after a face-down Step 2 card.
enum class FacedownStep3 : std::uint8_t { three, printed };

struct Config {
  CardTable deck;  // the match's deck list (the standard 60 by default), shared, never copied
  FacedownStep3 facedown_step3 = FacedownStep3::three;
  bool operator==(const Config&) const = default;
};

// One seat's own configuration: the deck list it brings, if any. When at least one seat brings
// one, the match is played with own decks (see OwnDecks).
struct SeatConfig {
  std::optional<Deck> deck;
  bool operator==(const SeatConfig&) const = default;
};

enum class Phase : std::uint8_t {
  choose_starter,  // each seat picks its telescope starter, seat 0 then seat 1, hidden
  refresh,         // Step 0: accept or decline the row refresh
  take,            // Step 1
  play,            // Step 2
  place,           // Step 3, when the row card goes to the telescope
  keep,            // end of game: which hand card goes to the notebook, hidden until both chose
  over,
};

enum class Area : std::uint8_t { telescope, notebook };

struct Slot {
  std::int16_t card = kNone;
  bool face_up = false;
  // A face-down card whose face both players saw: it came from the row or the top of the deck in
  // Step 3 (docs/games/stellar.md). Only face-down cards played from hand keep their face secret.
  bool seen = false;
  bool empty() const { return card == kNone; }
  bool operator==(const Slot&) const = default;
};

struct Player {
  std::array<std::int16_t, 2> starters{kNone, kNone};  // dealt at setup
  std::int16_t starter_choice = kNone;                 // goes to slot 1; hidden until both chose
  std::vector<CardId> hand;                            // sorted by id
  std::array<Slot, kTelescopeSlots> telescope{};
  std::vector<CardId> notebook;      // in the order played
  std::int16_t keep_choice = kNone;  // end of game; hidden until both chose
  bool operator==(const Player&) const = default;
};

// A match played with own decks: each seat draws from its own deck (seat 0's list, or the match
// deck for a seat that brought none) and every card has an owner. The card table is seat 0's list
// then seat 1's, so seat 1's card ids start at seat1_first. During play "the deck" is the acting
// seat's: Step 3's top card, the Step 4 refill and a refreshed row's refill come from it; a card
// discarded (refreshed row cards, the unkept card at the end) goes to its owner's discard pile.
// An empty deck takes its owner's shuffled discard pile; when both are empty, the draw comes from
// the other seat's deck (its discard pile reshuffled likewise).
struct OwnDecks {
  CardTable cards;                                  // every card of the match, by id
  std::int16_t seat1_first = 0;                     // = the size of seat 0's list
  std::array<std::vector<CardId>, kSeats> deck;     // per seat: back() is the top
  std::array<std::vector<CardId>, kSeats> discard;  // per seat: back() is the most recent
  bool operator==(const OwnDecks&) const = default;
};

struct State {
  Config config;
  Rng rng;
  Phase phase = Phase::choose_starter;
  std::int8_t start_player = 0;
  std::int8_t turn = 0;  // 0..21; turn t is played by (start_player + t) % 2
  std::array<std::int16_t, kRowSlots> row{kNone, kNone, kNone, kNone, kNone};
  std::vector<CardId> deck;     // back() is the top (empty with own decks: see own)
  std::vector<CardId> discard;  // back() is the most recent (empty with own decks)
  std::array<Player, kSeats> players{};
  bool refresh_pending = false;         // the player to act may refresh the row (Step 0)
  std::int16_t placing = kNone;         // Step 3 card waiting for a telescope slot (public)
  std::int8_t last_step3_slot = kNone;  // row slot (0-4) Step 3 took from, or -1 for the deck
  std::optional<OwnDecks> own;          // only in a match played with own decks
  bool operator==(const State&) const = default;
};

enum class ActionKind : std::uint8_t { choose_starter, refresh, take, play, place, keep };

// One atomic decision. Build actions with the factories below so that unused fields keep their
// defaults and == compares meaningfully.
struct Action {
  ActionKind kind = ActionKind::take;
  std::int16_t card = kNone;   // choose_starter: the card for slot 1; play; keep
  std::int8_t slot = kNone;    // take: row slot 0-4; play/place to telescope: slot 0-11
  Area area = Area::notebook;  // play
  bool face_up = false;        // play/place to the telescope
  bool accept = false;         // refresh
  bool operator==(const Action&) const = default;

  static Action choose_starter(int card) { return {.kind = ActionKind::choose_starter, .card = id16(card)}; }
  static Action refresh(bool accept) { return {.kind = ActionKind::refresh, .accept = accept}; }
  static Action take(int row_slot) { return {.kind = ActionKind::take, .slot = slot8(row_slot)}; }
  static Action play_notebook(int card) {
    return {.kind = ActionKind::play, .card = id16(card), .area = Area::notebook};
  }
  static Action play_telescope(int card, int slot, bool face_up) {
    return {
        .kind = ActionKind::play, .card = id16(card), .slot = slot8(slot), .area = Area::telescope, .face_up = face_up};
  }
  static Action place(int slot, bool face_up) {
    return {.kind = ActionKind::place, .slot = slot8(slot), .area = Area::telescope, .face_up = face_up};
  }
  static Action keep(int card) { return {.kind = ActionKind::keep, .card = id16(card)}; }

 private:
  static std::int16_t id16(int card) { return static_cast<std::int16_t>(card); }
  static std::int8_t slot8(int slot) { return static_cast<std::int8_t>(slot); }
};

// The standard game: one shared deck, config.deck.
State new_game(const Config& config, std::uint64_t seed);
// With a configuration per seat. No seat bringing a deck gives exactly new_game(config, seed);
// otherwise the match is played with own decks (OwnDecks). Each seat's list is validated like a
// match deck (validate_deck; the error starts "seat N: "), and the two lists together hold at most
// 255 cards.
Result<State> new_game(const Config& config, const std::array<SeatConfig, kSeats>& seats, std::uint64_t seed);
// The card table such a match plays with (config.deck when no seat brings a deck), and the card
// id of seat 1's first card (kNone for one shared deck). The same checks and errors as new_game.
struct MatchCards {
  CardTable cards;
  std::int16_t seat1_first = kNone;
};
Result<MatchCards> match_cards(const Config& config, const std::array<SeatConfig, kSeats>& seats);

bool is_over(const State& s);
// The seat that decides next (the state must not be over).
Seat to_act(const State& s);
// Appends the legal actions in canonical order to `out` (cleared first).
void legal_actions(const State& s, std::vector<Action>& out);
inline std::vector<Action> legal_actions(const State& s) {
  return games::legal_list(s, legal_actions);
}
inline bool is_legal(const State& s, const Action& a) {
  return !is_over(s) && games::legal_contains(legal_actions(s), a);
}
// Applies a legal action (asserted). Use is_legal() first for input from outside.
void apply(State& s, const Action& a);

// Telescope slots (bit i = slot i+1) where `card` may go face up, given the telescope.
std::uint16_t face_up_slots(const Deck& deck, const std::array<Slot, kTelescopeSlots>& telescope, CardId card);

int round_of(const State& s);  // 1..11
const Card& card(const State& s, int id);
// Every card of the match by id: config.deck, or with own decks both seats' lists.
const CardTable& card_table(const State& s);
bool own_decks(const State& s);
// The seat that owns a card in a match with own decks; kNone with one shared deck.
int owner(const State& s, int id);
// The deck and discard pile `seat` draws from and discards to: its own with own decks, else the
// shared ones (the same for both seats).
const std::vector<CardId>& deck_of(const State& s, Seat seat);
const std::vector<CardId>& discard_of(const State& s, Seat seat);

// Test support: redeals every card `seat` cannot see (the other hand, the deck order, the faces
// of the other seat's face-down cards, its pending secret choices) among themselves. With own
// decks, among the cards of each owner: every place keeps a card of the same owner, so a deck
// still holds only its seat's cards.
void redeal_unseen(State& s, Seat seat, Rng& rng);
// Every card is in exactly one place, sizes are within the rules; an error names the breach.
Status check_invariants(const State& s);

std::uint64_t hash(const State& s);

}  // namespace arena::stellar

// The names the JSON (views, actions, the full state) gives the enums: enum_name and
// games::enum_from_json.
template <>
struct arena::EnumNames<arena::stellar::FacedownStep3> {
  using F = stellar::FacedownStep3;
  static constexpr auto table = name_table(F::three, "three", F::printed, "printed");
};
template <>
struct arena::EnumNames<arena::stellar::Phase> {
  using Phase = stellar::Phase;
  static constexpr auto table =
      name_table(Phase::choose_starter, "choose_starter", Phase::refresh, "refresh", Phase::take, "take", Phase::play,
                 "play", Phase::place, "place", Phase::keep, "keep", Phase::over, "over");
};
template <>
struct arena::EnumNames<arena::stellar::ActionKind> {
  using K = stellar::ActionKind;
  static constexpr auto table = name_table(K::choose_starter, "choose_starter", K::refresh, "refresh", K::take, "take",
                                           K::play, "play", K::place, "place", K::keep, "keep");
};
