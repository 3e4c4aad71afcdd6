#include "referee/games/stellar/rules.hpp"

#include <algorithm>
#include <bit>
#include <cassert>

#include <fmt/format.h>

#include "referee/core/hash.hpp"

namespace arena::stellar {

// ---- actions -------------------------------------------------------------------------------

Action Action::choose_starter(int card) {
  Action a;
  a.kind = ActionKind::choose_starter;
  a.card = static_cast<std::int16_t>(card);
  return a;
}
Action Action::refresh(bool accept) {
  Action a;
  a.kind = ActionKind::refresh;
  a.accept = accept;
  return a;
}
Action Action::take(int row_slot) {
  Action a;
  a.kind = ActionKind::take;
  a.slot = static_cast<std::int8_t>(row_slot);
  return a;
}
Action Action::play_notebook(int card) {
  Action a;
  a.kind = ActionKind::play;
  a.card = static_cast<std::int16_t>(card);
  a.area = Area::notebook;
  return a;
}
Action Action::play_telescope(int card, int slot, bool face_up) {
  Action a;
  a.kind = ActionKind::play;
  a.card = static_cast<std::int16_t>(card);
  a.area = Area::telescope;
  a.slot = static_cast<std::int8_t>(slot);
  a.face_up = face_up;
  return a;
}
Action Action::place(int slot, bool face_up) {
  Action a;
  a.kind = ActionKind::place;
  a.slot = static_cast<std::int8_t>(slot);
  a.face_up = face_up;
  a.area = Area::telescope;
  return a;
}
Action Action::keep(int card) {
  Action a;
  a.kind = ActionKind::keep;
  a.card = static_cast<std::int16_t>(card);
  return a;
}

// ---- helpers -------------------------------------------------------------------------------

namespace {

std::size_t idx(int i) { return static_cast<std::size_t>(i); }

Player& current_player(State& s) { return s.players[idx(to_act(s))]; }

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

void refill_row(State& s) {
  for (auto& slot : s.row) {
    if (slot == kNone) slot = draw(s);
  }
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
  // Every card but the four starters just placed (the fifth starter included) forms the deck.
  s.deck.clear();
  for (int id = 0; id < static_cast<int>(s.config.deck.size()); ++id) {
    bool placed = false;
    for (const Player& p : s.players) placed = placed || p.starters[0] == id || p.starters[1] == id;
    if (!placed) s.deck.push_back(static_cast<CardId>(id));
  }
  s.rng.shuffle(s.deck);
  for (int i = 0; i < 2; ++i) {
    for (Player& p : s.players) insert_sorted(p.hand, static_cast<CardId>(draw(s)));
  }
  refill_row(s);
  s.start_player = static_cast<std::int8_t>(s.rng.below(kSeats));
  s.turn = 0;
  s.phase = Phase::take;
}

void end_turn(State& s) {
  refill_row(s);
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
  const Card& c = s.config.deck[idx(played.card)];
  int number = c.number;
  if (played.area == Area::telescope && !played.face_up &&
      s.config.facedown_step3 == FacedownStep3::three) {
    number = 3;
  }
  if (number != kSixZero && s.row[idx(number - 1)] != kNone) {
    s.last_step3_slot = static_cast<std::int8_t>(number - 1);
    return std::exchange(s.row[idx(number - 1)], kNone);
  }
  s.last_step3_slot = kNone;
  return draw(s);
}

void append_telescope_actions(const State& s, const Player& p, int card, bool placing,
                              std::vector<Action>& out) {
  const std::uint16_t empty = empty_slots(p.telescope);
  const std::uint16_t up = face_up_slots(s.config.deck, p.telescope, static_cast<CardId>(card));
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

const Card& card(const State& s, int id) { return s.config.deck[idx(id)]; }

int round_of(const State& s) { return std::min(s.turn / kSeats, kRounds - 1) + 1; }

bool is_over(const State& s) { return s.phase == Phase::over; }

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

std::uint16_t face_up_slots(const Deck& deck, const std::array<Slot, kTelescopeSlots>& telescope,
                            CardId id) {
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

std::vector<Action> legal_actions(const State& s) {
  std::vector<Action> out;
  legal_actions(s, out);
  return out;
}

bool is_legal(const State& s, const Action& a) {
  if (is_over(s)) return false;
  const auto actions = legal_actions(s);
  return std::find(actions.begin(), actions.end(), a) != actions.end();
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
          s.discard.push_back(static_cast<CardId>(slot));
          slot = kNone;
        }
        refill_row(s);
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
              s.discard.push_back(c);
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

// ---- test support --------------------------------------------------------------------------

void redeal_unseen(State& s, Seat seat, Rng& rng) {
  Player& other = s.players[idx(1 - seat)];
  // One pool of every card `seat` cannot identify: the other hand, the deck, the faces of the
  // other telescope's face-down cards, and (during setup) the other's starters and the fifth.
  std::vector<CardId> pool;
  for (CardId c : other.hand) pool.push_back(c);
  for (CardId c : s.deck) pool.push_back(c);
  for (const Slot& slot : other.telescope) {
    if (!slot.empty() && !slot.face_up && !slot.seen) pool.push_back(static_cast<CardId>(slot.card));
  }
  if (s.phase == Phase::choose_starter) {
    // Nothing is dealt yet but starters: the other seat's two and the fifth are interchangeable.
    std::vector<std::int16_t> starters;
    for (int id = 0; id < static_cast<int>(s.config.deck.size()); ++id) {
      const bool mine = s.players[idx(seat)].starters[0] == id || s.players[idx(seat)].starters[1] == id;
      if (s.config.deck[idx(id)].starter && !mine) starters.push_back(static_cast<std::int16_t>(id));
    }
    rng.shuffle(starters);
    other.starters = {starters[0], starters[1]};
    if (other.starter_choice != kNone) other.starter_choice = other.starters[rng.below(2)];
    return;
  }
  rng.shuffle(pool);
  std::size_t next = 0;
  for (CardId& c : other.hand) c = pool[next++];
  std::sort(other.hand.begin(), other.hand.end());
  for (CardId& c : s.deck) c = pool[next++];
  for (Slot& slot : other.telescope) {
    if (!slot.empty() && !slot.face_up && !slot.seen) slot.card = pool[next++];
  }
  if (other.keep_choice != kNone) other.keep_choice = other.hand[rng.below(other.hand.size())];
}

Status check_invariants(const State& s) {
  const std::size_t n = s.config.deck.size();
  std::vector<int> seen(n, 0);
  auto count = [&](int id, const char* where) -> Status {
    if (id < 0 || static_cast<std::size_t>(id) >= n) return fail(fmt::format("bad card id {} in {}", id, where));
    if (++seen[idx(id)] > 1) return fail(fmt::format("card {} ({}) seen twice, again in {}", id, s.config.deck[idx(id)].name, where));
    return {};
  };
  auto count_all = [&](const std::vector<CardId>& cards, const char* where) -> Status {
    for (CardId c : cards) {
      if (auto st = count(c, where); !st) return st;
    }
    return {};
  };
  if (auto st = count_all(s.deck, "the deck"); !st) return st;
  if (auto st = count_all(s.discard, "the discard pile"); !st) return st;
  for (auto c : s.row) {
    if (c != kNone) {
      if (auto st = count(c, "the row"); !st) return st;
    }
  }
  if (s.placing != kNone) {
    if (auto st = count(s.placing, "the card being placed"); !st) return st;
  }
  std::size_t in_play = 0;
  for (const Player& p : s.players) {
    if (s.phase == Phase::choose_starter) {
      for (auto c : p.starters) {
        if (auto st = count(c, "a starter hand"); !st) return st;
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
  for (std::size_t id = 0; id < n; ++id) {
    if (seen[id] != 1) return fail(fmt::format("card {} ({}) is nowhere", id, s.config.deck[id].name));
  }
  // Each turn puts two cards into play; the starters are two per player.
  const std::size_t expected = 4 + 2 * static_cast<std::size_t>(s.turn) +
                               (s.phase == Phase::place ? 1 : 0) + (s.phase == Phase::over ? 2 : 0);
  if (in_play != expected) {
    return fail(fmt::format("{} cards in play after {} turns, expected {}", in_play, s.turn, expected));
  }
  return {};
}

std::uint64_t hash(const State& s) {
  Hasher h;
  h.u64(s.config.deck.size()).u64(static_cast<std::uint64_t>(s.config.facedown_step3));
  for (const Card& c : s.config.deck) {
    h.u64(static_cast<std::uint64_t>(c.type)).u64(c.number).u64(c.stars).u64(c.starter);
  }
  for (auto word : s.rng.state()) h.u64(word);
  h.u64(static_cast<std::uint64_t>(s.phase)).i64(s.start_player).i64(s.turn);
  for (auto c : s.row) h.i64(c);
  auto cards = [&](const std::vector<CardId>& v) {
    h.u64(v.size());
    for (CardId c : v) h.u64(c);
  };
  cards(s.deck);
  cards(s.discard);
  for (const Player& p : s.players) {
    h.i64(p.starters[0]).i64(p.starters[1]).i64(p.starter_choice).i64(p.keep_choice);
    cards(p.hand);
    cards(p.notebook);
    for (const Slot& slot : p.telescope) h.i64(slot.card).u64(slot.face_up).u64(slot.seen);
  }
  h.u64(s.refresh_pending).i64(s.placing).i64(s.last_step3_slot);
  return h.digest();
}

}  // namespace arena::stellar
