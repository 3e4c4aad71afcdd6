#include "referee/games/stellar/rules.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cassert>

#include "referee/core/hash.hpp"
#include "referee/core/index.hpp"
#include "referee/games/card_census.hpp"

namespace arena::stellar {

// ---- helpers -------------------------------------------------------------------------------

namespace {

// Card ids are 8 bits: a match (both own decks together) holds at most 255 cards.
constexpr std::size_t kMaxTableCards = 255;
// The fewest cards a seat's list may hold (validate_deck), for check_invariants.
constexpr int kMinOwnList = 57;

Player& current_player(State& s) {
  return s.players[idx(to_act(s))];
}

std::uint16_t empty_slots(const std::array<Slot, kTelescopeSlots>& telescope) {
  std::uint16_t mask = 0;
  for (int i = 0; i < kTelescopeSlots; ++i) {
    if (telescope[idx(i)].empty()) mask = static_cast<std::uint16_t>(mask | (1u << i));
  }
  return mask;
}

// Draws the top of the deck, reshuffling the discard pile into a new deck when it is empty.
// Returns kNone only if both are empty, which a validated deck never allows.
std::int16_t draw(State& s) {
  if (s.deck.empty()) {
    s.deck.swap(s.discard);
    s.rng.shuffle(s.deck);
  }
  if (s.deck.empty()) return kNone;
  CardId top = s.deck.back();
  s.deck.pop_back();
  return top;
}

// Draws for `seat`: from the shared deck, or with own decks from its own deck (its discard pile
// shuffled in when empty), and when both are empty from the other seat's in the same way.
std::int16_t draw(State& s, int seat) {
  if (!s.own) return draw(s);
  OwnDecks& own = *s.own;
  auto ready = [&](int from) {
    auto& deck = own.deck[idx(from)];
    if (deck.empty()) {
      deck.swap(own.discard[idx(from)]);
      s.rng.shuffle(deck);
    }
    return !deck.empty();
  };
  int from = seat;
  if (!ready(from)) {
    from = 1 - seat;
    if (!ready(from)) return kNone;
  }
  auto& deck = own.deck[idx(from)];
  CardId top = deck.back();
  deck.pop_back();
  return top;
}

// To the discard pile: the shared one, or the card's owner's.
void discard_card(State& s, CardId card) {
  if (s.own) {
    s.own->discard[idx(owner(s, card))].push_back(card);
  } else {
    s.discard.push_back(card);
  }
}

// Empty row slots in ascending order, from the deck of `seat` (the player whose turn it is).
void refill_row(State& s, int seat) {
  for (auto& slot : s.row) {
    if (slot == kNone) slot = draw(s, seat);
  }
}

// The seat whose turn it is, during the turn phases.
int acting(const State& s) {
  return (s.start_player + s.turn) % kSeats;
}

void insert_sorted(std::vector<CardId>& hand, CardId card) {
  hand.insert(std::upper_bound(hand.begin(), hand.end(), card), card);
}

void remove_card(std::vector<CardId>& cards, int card) {
  auto it = std::find(cards.begin(), cards.end(), card);
  assert(it != cards.end());
  cards.erase(it);
}

void deal_after_starters(State& s) {
  for (Player& p : s.players) {
    const std::int16_t other = p.starters[0] == p.starter_choice ? p.starters[1] : p.starters[0];
    p.telescope[0] = Slot{p.starter_choice, true};
    p.notebook.push_back(static_cast<CardId>(other));
  }
  auto placed = [&](int id) {
    bool in_play = false;
    for (const Player& p : s.players) in_play = in_play || p.starters[0] == id || p.starters[1] == id;
    return in_play;
  };
  if (s.own) {
    // Own decks: each seat's cards but its two starters just placed (its other three included)
    // form its deck, shuffled seat 0's first; each seat draws two from its own deck; the row
    // takes slots 1, 3, 5 from seat 0's deck and 2, 4 from seat 1's.
    OwnDecks& own = *s.own;
    for (auto& deck : own.deck) deck.clear();
    for (int id = 0; id < static_cast<int>(own.cards.size()); ++id) {
      if (!placed(id)) own.deck[idx(owner(s, id))].push_back(static_cast<CardId>(id));
    }
    for (auto& deck : own.deck) s.rng.shuffle(deck);
    for (int i = 0; i < 2; ++i) {
      for (int seat = 0; seat < kSeats; ++seat) {
        insert_sorted(s.players[idx(seat)].hand, static_cast<CardId>(draw(s, seat)));
      }
    }
    for (int slot = 0; slot < kRowSlots; ++slot) s.row[idx(slot)] = draw(s, slot % kSeats);
  } else {
    // Every card but the four starters just placed (the fifth starter included) forms the deck.
    s.deck.clear();
    for (int id = 0; id < static_cast<int>(s.config.deck.size()); ++id) {
      if (!placed(id)) s.deck.push_back(static_cast<CardId>(id));
    }
    s.rng.shuffle(s.deck);
    for (int i = 0; i < 2; ++i) {
      for (Player& p : s.players) insert_sorted(p.hand, static_cast<CardId>(draw(s)));
    }
    refill_row(s, 0);
  }
  s.start_player = static_cast<std::int8_t>(s.rng.below(kSeats));
  s.turn = 0;
  s.phase = Phase::take;
}

void end_turn(State& s) {
  refill_row(s, acting(s));
  ++s.turn;
  if (s.turn == kTurns) {
    s.refresh_pending = false;
    s.phase = Phase::keep;
  } else {
    s.phase = s.refresh_pending ? Phase::refresh : Phase::take;
  }
}

// Step 3: which card the row (or the deck) gives after `played` was played in Step 2.
std::int16_t step3_card(State& s, const Action& played) {
  const Card& c = card(s, played.card);
  int number = c.number;
  if (played.area == Area::telescope && !played.face_up && s.config.facedown_step3 == FacedownStep3::three) {
    number = 3;
  }
  if (number != kSixZero && s.row[idx(number - 1)] != kNone) {
    s.last_step3_slot = static_cast<std::int8_t>(number - 1);
    return std::exchange(s.row[idx(number - 1)], kNone);
  }
  s.last_step3_slot = kNone;
  return draw(s, acting(s));
}

void append_telescope_actions(const State& s, const Player& p, int card, bool placing, std::vector<Action>& out) {
  const std::uint16_t empty = empty_slots(p.telescope);
  const std::uint16_t up = face_up_slots(card_table(s), p.telescope, static_cast<CardId>(card));
  for (int slot = 0; slot < kTelescopeSlots; ++slot) {
    if (up & (1u << slot)) {
      out.push_back(placing ? Action::place(slot, true) : Action::play_telescope(card, slot, true));
    }
  }
  for (int slot = 0; slot < kTelescopeSlots; ++slot) {
    if (empty & (1u << slot)) {
      out.push_back(placing ? Action::place(slot, false) : Action::play_telescope(card, slot, false));
    }
  }
}

}  // namespace

// ---- queries -------------------------------------------------------------------------------

const CardTable& card_table(const State& s) {
  return s.own ? s.own->cards : s.config.deck;
}

const Card& card(const State& s, int id) {
  return card_table(s)[idx(id)];
}

bool own_decks(const State& s) {
  return s.own.has_value();
}

int owner(const State& s, int id) {
  if (!s.own) return kNone;
  return id >= s.own->seat1_first ? 1 : 0;
}

const std::vector<CardId>& deck_of(const State& s, Seat seat) {
  return s.own ? s.own->deck[idx(seat)] : s.deck;
}

const std::vector<CardId>& discard_of(const State& s, Seat seat) {
  return s.own ? s.own->discard[idx(seat)] : s.discard;
}

int round_of(const State& s) {
  return std::min(s.turn / kSeats, kRounds - 1) + 1;
}

bool is_over(const State& s) {
  return s.phase == Phase::over;
}

Seat to_act(const State& s) {
  switch (s.phase) {
    case Phase::choose_starter:
      return s.players[0].starter_choice == kNone ? 0 : 1;
    case Phase::keep:
      return s.players[0].keep_choice == kNone ? 0 : 1;
    case Phase::over:
      assert(false && "to_act on a finished game");
      return 0;
    default:
      return (s.start_player + s.turn) % kSeats;
  }
}

std::uint16_t face_up_slots(const Deck& deck, const std::array<Slot, kTelescopeSlots>& telescope, CardId id) {
  const std::uint16_t empty = empty_slots(telescope);
  const Card& c = deck[id];
  if (c.satellite()) return empty;
  std::uint16_t near_same_type = 0;
  bool has_same_type = false;
  for (int i = 0; i < kTelescopeSlots; ++i) {
    const Slot& slot = telescope[idx(i)];
    if (!slot.empty() && slot.face_up && deck[idx(slot.card)].type == c.type) {
      has_same_type = true;
      near_same_type = static_cast<std::uint16_t>(near_same_type | neighbours(i));
    }
  }
  return has_same_type ? static_cast<std::uint16_t>(empty & near_same_type) : empty;
}

void legal_actions(const State& s, std::vector<Action>& out) {
  out.clear();
  switch (s.phase) {
    case Phase::choose_starter: {
      const Player& p = s.players[idx(to_act(s))];
      const auto lo = std::min(p.starters[0], p.starters[1]);
      const auto hi = std::max(p.starters[0], p.starters[1]);
      out.push_back(Action::choose_starter(lo));
      out.push_back(Action::choose_starter(hi));
      return;
    }
    case Phase::refresh:
      out.push_back(Action::refresh(false));
      out.push_back(Action::refresh(true));
      return;
    case Phase::take:
      for (int slot = 0; slot < kRowSlots; ++slot) {
        if (s.row[idx(slot)] != kNone) out.push_back(Action::take(slot));
      }
      return;
    case Phase::play: {
      const Player& p = s.players[idx(to_act(s))];
      for (CardId c : p.hand) {
        out.push_back(Action::play_notebook(c));
        append_telescope_actions(s, p, c, false, out);
      }
      return;
    }
    case Phase::place:
      append_telescope_actions(s, s.players[idx(to_act(s))], s.placing, true, out);
      return;
    case Phase::keep:
      for (CardId c : s.players[idx(to_act(s))].hand) out.push_back(Action::keep(c));
      return;
    case Phase::over:
      return;
  }
}

// ---- transitions ---------------------------------------------------------------------------

void apply(State& s, const Action& a) {
  assert(!is_over(s));
  Player& p = current_player(s);
  switch (a.kind) {
    case ActionKind::choose_starter:
      assert(s.phase == Phase::choose_starter);
      p.starter_choice = a.card;
      if (s.players[0].starter_choice != kNone && s.players[1].starter_choice != kNone) {
        deal_after_starters(s);
      }
      return;

    case ActionKind::refresh:
      assert(s.phase == Phase::refresh);
      s.refresh_pending = false;
      if (a.accept) {
        for (auto& slot : s.row) {
          discard_card(s, static_cast<CardId>(slot));
          slot = kNone;
        }
        refill_row(s, acting(s));
      }
      s.phase = Phase::take;
      return;

    case ActionKind::take: {
      assert(s.phase == Phase::take && s.row[idx(a.slot)] != kNone);
      const std::int16_t taken = std::exchange(s.row[idx(a.slot)], kNone);
      insert_sorted(p.hand, static_cast<CardId>(taken));
      // A satellite taken in Step 1 offers the opponent a refresh at the start of its next turn,
      // if it has one (docs/games/stellar.md).
      s.refresh_pending = card(s, taken).satellite() && s.turn + 1 < kTurns;
      s.phase = Phase::play;
      return;
    }

    case ActionKind::play: {
      assert(s.phase == Phase::play);
      remove_card(p.hand, a.card);
      const std::int16_t from_row = step3_card(s, a);
      if (a.area == Area::telescope) {
        assert(p.telescope[idx(a.slot)].empty());
        p.telescope[idx(a.slot)] = Slot{a.card, a.face_up};
        p.notebook.push_back(static_cast<CardId>(from_row));
        end_turn(s);
      } else {
        p.notebook.push_back(static_cast<CardId>(a.card));
        s.placing = from_row;
        s.phase = Phase::place;
      }
      return;
    }

    case ActionKind::place:
      assert(s.phase == Phase::place && p.telescope[idx(a.slot)].empty());
      p.telescope[idx(a.slot)] = Slot{s.placing, a.face_up, !a.face_up};
      s.placing = kNone;
      end_turn(s);
      return;

    case ActionKind::keep:
      assert(s.phase == Phase::keep);
      p.keep_choice = a.card;
      if (s.players[0].keep_choice != kNone && s.players[1].keep_choice != kNone) {
        for (Player& each : s.players) {
          for (CardId c : each.hand) {
            if (c == each.keep_choice) {
              each.notebook.push_back(c);
            } else {
              discard_card(s, c);
            }
          }
          each.hand.clear();
        }
        s.phase = Phase::over;
      }
      return;
  }
}

// ---- setup ---------------------------------------------------------------------------------

State new_game(const Config& config, std::uint64_t seed) {
  State s;
  s.config = config;
  s.rng = Rng(seed);
  std::vector<CardId> starters;
  for (int id = 0; id < static_cast<int>(config.deck.size()); ++id) {
    if (config.deck[idx(id)].starter) starters.push_back(static_cast<CardId>(id));
  }
  assert(starters.size() == 5);
  s.rng.shuffle(starters);
  for (int seat = 0; seat < kSeats; ++seat) {
    s.players[idx(seat)].starters = {starters[idx(2 * seat)], starters[idx(2 * seat + 1)]};
  }
  s.phase = Phase::choose_starter;
  return s;
}

Result<MatchCards> match_cards(const Config& config, const std::array<SeatConfig, kSeats>& seats) {
  if (std::none_of(seats.begin(), seats.end(), [](const SeatConfig& c) { return c.deck.has_value(); })) {
    return MatchCards{config.deck, kNone};
  }
  std::array<const Deck*, kSeats> lists{};
  std::size_t total = 0;
  for (int seat = 0; seat < kSeats; ++seat) {
    const SeatConfig& sc = seats[idx(seat)];
    lists[idx(seat)] = sc.deck ? &*sc.deck : &config.deck.cards();
    if (auto st = validate_deck(*lists[idx(seat)]); !st) return fail(fmt::format("seat {}: {}", seat, st.error()));
    total += lists[idx(seat)]->size();
  }
  if (total > kMaxTableCards) {
    return fail(
        fmt::format("own decks: {} cards in all (seat 0's list {}, seat 1's {}); a match holds at "
                    "most {} cards",
                    total, lists[0]->size(), lists[1]->size(), kMaxTableCards));
  }
  Deck cards;
  cards.reserve(total);
  for (const Deck* list : lists) cards.insert(cards.end(), list->begin(), list->end());
  return MatchCards{CardTable(std::move(cards)), static_cast<std::int16_t>(lists[0]->size())};
}

Result<State> new_game(const Config& config, const std::array<SeatConfig, kSeats>& seats, std::uint64_t seed) {
  auto cards = match_cards(config, seats);
  if (!cards) return fail(cards.error());
  if (cards->seat1_first == kNone) return new_game(config, seed);
  State s;
  s.config = config;
  s.rng = Rng(seed);
  s.own = OwnDecks{cards->cards, cards->seat1_first, {}, {}};
  // Each seat's five starters are shuffled, seat 0's first, and two dealt to it; its other three
  // join its deck once both have chosen (deal_after_starters).
  for (int seat = 0; seat < kSeats; ++seat) {
    std::vector<CardId> starters;
    for (int id = 0; id < static_cast<int>(s.own->cards.size()); ++id) {
      if (s.own->cards[idx(id)].starter && owner(s, id) == seat) starters.push_back(static_cast<CardId>(id));
    }
    assert(starters.size() == 5);
    s.rng.shuffle(starters);
    s.players[idx(seat)].starters = {starters[0], starters[1]};
  }
  s.phase = Phase::choose_starter;
  return s;
}

// ---- test support --------------------------------------------------------------------------

void redeal_unseen(State& s, Seat seat, Rng& rng) {
  Player& other = s.players[idx(1 - seat)];
  const CardTable& cards = card_table(s);
  if (s.phase == Phase::choose_starter) {
    // Nothing is dealt yet but starters: the other seat's two and the fifth are interchangeable
    // (with own decks, the other seat's two and its other three).
    std::vector<std::int16_t> starters;
    for (int id = 0; id < static_cast<int>(cards.size()); ++id) {
      const bool mine = s.players[idx(seat)].starters[0] == id || s.players[idx(seat)].starters[1] == id;
      const bool others = !s.own || owner(s, id) == 1 - seat;
      if (cards[idx(id)].starter && !mine && others) starters.push_back(static_cast<std::int16_t>(id));
    }
    rng.shuffle(starters);
    other.starters = {starters[0], starters[1]};
    if (other.starter_choice != kNone) other.starter_choice = other.starters[rng.below(2)];
    return;
  }
  // One pool of every card `seat` cannot identify: the other hand, the deck (both decks), the
  // faces of the other telescope's face-down cards.
  std::vector<CardId> pool;
  auto hidden = [](const Slot& slot) { return !slot.empty() && !slot.face_up && !slot.seen; };
  for (CardId c : other.hand) pool.push_back(c);
  for (CardId c : s.deck) pool.push_back(c);
  if (s.own) {
    for (const auto& deck : s.own->deck) pool.insert(pool.end(), deck.begin(), deck.end());
  }
  for (const Slot& slot : other.telescope) {
    if (hidden(slot)) pool.push_back(static_cast<CardId>(slot.card));
  }
  if (s.own) {
    // Within each owner's cards only: every place keeps a card of the owner it had.
    for (int o = 0; o < kSeats; ++o) {
      std::vector<std::size_t> places;
      std::vector<CardId> owned;
      for (std::size_t i = 0; i < pool.size(); ++i) {
        if (owner(s, pool[i]) == o) {
          places.push_back(i);
          owned.push_back(pool[i]);
        }
      }
      rng.shuffle(owned);
      for (std::size_t k = 0; k < places.size(); ++k) pool[places[k]] = owned[k];
    }
  } else {
    rng.shuffle(pool);
  }
  std::size_t next = 0;
  for (CardId& c : other.hand) c = pool[next++];
  std::sort(other.hand.begin(), other.hand.end());
  for (CardId& c : s.deck) c = pool[next++];
  if (s.own) {
    for (auto& deck : s.own->deck) {
      for (CardId& c : deck) c = pool[next++];
    }
  }
  for (Slot& slot : other.telescope) {
    if (hidden(slot)) slot.card = pool[next++];
  }
  if (other.keep_choice != kNone) other.keep_choice = other.hand[rng.below(other.hand.size())];
}

Status check_invariants(const State& s) {
  const CardTable& cards = card_table(s);
  const std::size_t n = cards.size();
  games::CardCensus census(std::vector<int>(n, 0),
                           [&](long long id) { return cards[static_cast<std::size_t>(id)].name; });
  auto count = [&](int id, const char* where) { return census.count(id, where); };
  auto count_all = [&](const std::vector<CardId>& list, const char* where) { return census.count_all(list, where); };
  if (auto st = count_all(s.deck, "the deck"); !st) return st;
  if (auto st = count_all(s.discard, "the discard pile"); !st) return st;
  if (s.own) {
    const OwnDecks& own = *s.own;
    if (!s.deck.empty() || !s.discard.empty())
      return fail(std::string("the shared deck or discard pile is used with own decks"));
    if (own.seat1_first < kMinOwnList || static_cast<std::size_t>(own.seat1_first) + kMinOwnList > n) {
      return fail(fmt::format("seat 1's cards start at id {} of {}", own.seat1_first, n));
    }
    for (int seat = 0; seat < kSeats; ++seat) {
      const char* deck_name = seat == 0 ? "seat 0's deck" : "seat 1's deck";
      const char* discard_name = seat == 0 ? "seat 0's discard pile" : "seat 1's discard pile";
      if (auto st = count_all(own.deck[idx(seat)], deck_name); !st) return st;
      if (auto st = count_all(own.discard[idx(seat)], discard_name); !st) return st;
      for (const auto* list : {&own.deck[idx(seat)], &own.discard[idx(seat)]}) {
        for (CardId c : *list) {
          if (owner(s, c) != seat) {
            return fail(fmt::format("card {} ({}) of seat {} in seat {}'s deck or discard pile", c, cards[c].name,
                                    owner(s, c), seat));
          }
        }
      }
    }
  }
  for (auto c : s.row) {
    if (c != kNone) {
      if (auto st = count(c, "the row"); !st) return st;
    }
  }
  if (s.placing != kNone) {
    if (auto st = count(s.placing, "the card being placed"); !st) return st;
  }
  std::size_t in_play = 0;
  for (int seat = 0; seat < kSeats; ++seat) {
    const Player& p = s.players[idx(seat)];
    if (s.phase == Phase::choose_starter) {
      for (auto c : p.starters) {
        if (auto st = count(c, "a starter hand"); !st) return st;
        if (!cards[idx(c)].starter) return fail(fmt::format("card {} ({}) dealt as a starter", c, cards[idx(c)].name));
        if (s.own && owner(s, c) != seat)
          return fail(fmt::format("seat {} was dealt seat {}'s starter {}", seat, owner(s, c), c));
      }
      continue;
    }
    if (auto st = count_all(p.hand, "a hand"); !st) return st;
    if (auto st = count_all(p.notebook, "a notebook"); !st) return st;
    for (const Slot& slot : p.telescope) {
      if (!slot.empty()) {
        ++in_play;
        if (auto st = count(slot.card, "a telescope"); !st) return st;
      }
    }
    in_play += p.notebook.size();
    if (p.hand.size() > 3) return fail(fmt::format("a hand holds {} cards", p.hand.size()));
  }
  if (s.phase == Phase::choose_starter) {
    // The fifth starter and every other card are still in the box: nothing else is dealt yet.
    return {};
  }
  if (auto st = census.all_once(); !st) return st;
  // Each turn puts two cards into play; the starters are two per player.
  const std::size_t expected =
      4 + 2 * static_cast<std::size_t>(s.turn) + (s.phase == Phase::place ? 1 : 0) + (s.phase == Phase::over ? 2 : 0);
  if (in_play != expected) {
    return fail(fmt::format("{} cards in play after {} turns, expected {}", in_play, s.turn, expected));
  }
  return {};
}

std::uint64_t hash(const State& s) {
  // The deck's size, facedown_step3 and every card: hashed once per card list (CardTable).
  Hasher h(s.config.deck.hash_prefix(static_cast<std::size_t>(s.config.facedown_step3)));
  for (auto word : s.rng.state()) h.u64(word);
  h.u64(static_cast<std::uint64_t>(s.phase)).i64(s.start_player).i64(s.turn);
  for (auto c : s.row) h.i64(c);
  h.list(s.deck);
  h.list(s.discard);
  for (const Player& p : s.players) {
    h.i64(p.starters[0]).i64(p.starters[1]).i64(p.starter_choice).i64(p.keep_choice);
    h.list(p.hand);
    h.list(p.notebook);
    for (const Slot& slot : p.telescope) h.i64(slot.card).u64(slot.face_up).u64(slot.seen);
  }
  h.u64(s.refresh_pending).i64(s.placing).i64(s.last_step3_slot);
  if (s.own) {
    // Own decks only, so that the standard game hashes as it always has.
    const OwnDecks& own = *s.own;
    h.bytes("own decks").u64(own.cards.size()).i64(own.seat1_first);
    for (const Card& c : own.cards) {
      h.u64(static_cast<std::uint64_t>(c.type)).u64(c.number).u64(c.stars).u64(c.starter);
    }
    for (int seat = 0; seat < kSeats; ++seat) {
      h.list(own.deck[idx(seat)]);
      h.list(own.discard[idx(seat)]);
    }
  }
  return h.digest();
}

}  // namespace arena::stellar
