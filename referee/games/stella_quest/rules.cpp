#include "referee/games/stella_quest/rules.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>

#include "referee/core/hash.hpp"
#include "referee/games/card_census.hpp"
#include "referee/games/stella_quest/flow.hpp"

namespace arena::stella_quest {

// ---- actions -------------------------------------------------------------------------------

Action Action::play(Face face) {
  return Action{ActionKind::play, face};
}
Action Action::draw() {
  return Action{ActionKind::draw, 0};
}
Action Action::collect(Face face) {
  return Action{ActionKind::collect, face};
}
Action Action::top(Face face) {
  return Action{ActionKind::top, face};
}

// ---- draws and turns -----------------------------------------------------------------------

namespace detail {

void restock(State& s) {
  if (!s.deck.empty() || s.discard.size() <= 1) return;
  s.deck.assign(s.discard.begin(), s.discard.end() - 1);
  s.discard.erase(s.discard.begin(), s.discard.end() - 1);
  s.rng.shuffle(s.deck);
}

bool draw_card(State& s, CardId& out) {
  restock(s);  // a no-op in any state the engine reaches (check_invariants)
  if (s.deck.empty()) return false;
  out = s.deck.back();
  s.deck.pop_back();
  restock(s);  // the last card was drawn: rebuild the deck at once
  return true;
}

void add_to_trick(State& s, Play play) {
  if (s.leading == Colour::none && !is_break(play.card)) s.leading = colour_of(play.card);
  s.trick.push_back(play);
}

void draw_into_hand(State& s, int seat, int n) {
  std::vector<CardId>& hand = s.players[idx(seat)].hand;
  for (int i = 0; i < n; ++i) {
    CardId c = 0;
    if (!draw_card(s, c)) return;
    hand.insert(std::upper_bound(hand.begin(), hand.end(), c), c);
  }
}

namespace {

// docs/games/stella_quest.md: as many cards as lit tokens, 2 with a single lit token.
void refill(State& s, int seat) {
  const int tokens = s.players[idx(seat)].tokens;
  draw_into_hand(s, seat, tokens == 1 ? 2 : tokens);
}

}  // namespace

void begin_turn(State& s) {
  while (s.phase == Phase::play) {
    const std::int8_t seat = trick_seat(s, static_cast<int>(s.trick.size()));
    if (seat == kDummy) {
      // docs/games/stella_quest.md: the Dummy plays the top deck card, whatever the follow rule says.
      CardId c = 0;
      if (!draw_card(s, c)) {
        end_game(s, End::exhausted, kNone);
        return;
      }
      add_to_trick(s, Play{kDummy, c});
      if (static_cast<int>(s.trick.size()) == trick_size(s)) resolve_trick(s);
      continue;
    }
    // An empty hand that could not be refilled when it emptied tries again now.
    if (s.players[idx(seat)].hand.empty()) {
      refill(s, seat);
      if (s.players[idx(seat)].hand.empty()) end_game(s, End::exhausted, kNone);
    }
    return;
  }
}

void end_game(State& s, End end, std::int8_t seat) {
  s.phase = Phase::over;
  s.end = end;
  s.decided = seat;
  s.winner = kNone;
}

}  // namespace detail

// ---- queries -------------------------------------------------------------------------------

namespace {

// An empty deck is rebuilt at once whenever the discard pile holds more than its top card.
bool can_draw(const State& s) {
  return !s.deck.empty();
}

void push_unique(std::vector<Action>& out, const Action& a) {
  if (out.empty() || !(out.back() == a)) out.push_back(a);
}

// Faces of `cards` (any order) in ascending face order, once each.
std::vector<Face> sorted_faces(const std::vector<Play>& cards, bool skip_breaks) {
  std::vector<Face> faces;
  for (const Play& p : cards) {
    if (!(skip_breaks && is_break(p.card))) faces.push_back(face_of(p.card));
  }
  std::sort(faces.begin(), faces.end());
  faces.erase(std::unique(faces.begin(), faces.end()), faces.end());
  return faces;
}

}  // namespace

bool is_over(const State& s) {
  return s.phase == Phase::over;
}

Seat to_act(const State& s) {
  switch (s.phase) {
    case Phase::play:
      return trick_seat(s, static_cast<int>(s.trick.size()));
    case Phase::collect:
    case Phase::top:
      return s.winner;
    case Phase::over:
      break;
  }
  assert(false && "to_act on a finished game");
  return 0;
}

void legal_actions(const State& s, std::vector<Action>& out) {
  out.clear();
  switch (s.phase) {
    case Phase::play: {
      const Player& p = s.players[idx(to_act(s))];
      const Colour lead = s.leading;
      const bool must_follow = lead != Colour::none && std::any_of(p.hand.begin(), p.hand.end(),
                                                                   [&](CardId c) { return colour_of(c) == lead; });
      // The hand is sorted by id, so faces come in ascending order, Break last.
      for (CardId c : p.hand) {
        if (!must_follow || colour_of(c) == lead || is_break(c)) push_unique(out, Action::play(face_of(c)));
      }
      if (p.tokens >= 2 && static_cast<int>(p.hand.size()) < kHandLimit && can_draw(s)) {
        out.push_back(Action::draw());
      }
      return;
    }
    case Phase::collect:
      for (Face f : sorted_faces(s.trick, true)) out.push_back(Action::collect(f));
      return;
    case Phase::top: {
      const bool any_break =
          std::any_of(s.trick.begin(), s.trick.end(), [](const Play& p) { return is_break(p.card); });
      if (any_break) {
        out.push_back(Action::top(kBreakFace));
      } else {
        for (Face f : sorted_faces(s.trick, false)) out.push_back(Action::top(f));
      }
      return;
    }
    case Phase::over:
      return;
  }
}

// ---- transitions ---------------------------------------------------------------------------

namespace {

// One decision, without the forced ones that may follow.
void step(State& s, const Action& a) {
  switch (a.kind) {
    case ActionKind::play: {
      const int seat = to_act(s);
      std::vector<CardId>& hand = s.players[idx(seat)].hand;
      auto it = std::find_if(hand.begin(), hand.end(), [&](CardId c) { return face_of(c) == a.face; });
      assert(it != hand.end());
      const CardId played = *it;
      hand.erase(it);
      detail::add_to_trick(s, Play{static_cast<std::int8_t>(seat), played});
      // docs/games/stella_quest.md section 7: the refill follows the emptying card at once, with the tokens lit now.
      if (hand.empty()) {
        const int tokens = s.players[idx(seat)].tokens;
        detail::draw_into_hand(s, seat, tokens == 1 ? 2 : tokens);
      }
      if (static_cast<int>(s.trick.size()) == trick_size(s)) {
        detail::resolve_trick(s);
      } else {
        detail::begin_turn(s);
      }
      return;
    }
    case ActionKind::draw: {
      const int seat = to_act(s);
      Player& p = s.players[idx(seat)];
      --p.tokens;
      detail::draw_into_hand(s, seat, std::min(kVoluntaryDraw, kHandLimit - static_cast<int>(p.hand.size())));
      return;
    }
    case ActionKind::collect:
      detail::collect(s, a.face);
      return;
    case ActionKind::top:
      detail::choose_top(s, a.face);
      return;
  }
}

}  // namespace

void apply_forced(State& s) {
  // docs/games/stella_quest.md: a decision with exactly one legal action is not asked. Each forced
  // action is a play, a collect or a top (a draw always comes with a play), so the game moves on
  // and the trick cap bounds the chain.
  std::vector<Action> actions;
  while (!is_over(s)) {
    legal_actions(s, actions);
    if (actions.size() != 1) return;
    step(s, actions.front());
  }
}

void apply(State& s, const Action& a) {
  assert(is_legal(s, a));
  step(s, a);
  apply_forced(s);
}

// ---- setup ---------------------------------------------------------------------------------

State new_game(const Config& config, std::uint64_t seed, int seats) {
  assert(seats >= kMinSeats && seats <= kMaxSeats);
  State s;
  s.config = config;
  s.rng = Rng(seed);
  s.seats = static_cast<std::int8_t>(seats);
  s.players.assign(idx(seats), Player{});
  for (int id = 0; id < kCards; ++id) s.deck.push_back(static_cast<CardId>(id));
  s.rng.shuffle(s.deck);
  for (int round = 0; round < kDealt; ++round) {
    for (int seat = 0; seat < seats; ++seat) detail::draw_into_hand(s, seat, 1);
  }
  s.discard.push_back(s.deck.back());
  s.deck.pop_back();
  s.start_player = static_cast<std::int8_t>(s.rng.below(static_cast<std::uint64_t>(seats)));
  s.leader = s.start_player;
  s.phase = Phase::play;
  apply_forced(s);
  return s;
}

// ---- test support --------------------------------------------------------------------------

void redeal_unseen(State& s, Seat seat, Rng& rng) {
  // Positions whose colour `seat` sees (the other hands, the top deck card) keep their colour;
  // the deck below its top may receive anything.
  struct Spot {
    CardId* card;
    bool keeps_colour;
  };
  std::vector<Spot> spots;
  for (int i = 0; i < s.seats; ++i) {
    if (i == seat) continue;
    for (CardId& c : s.players[idx(i)].hand) spots.push_back({&c, true});
  }
  for (std::size_t i = 0; i < s.deck.size(); ++i) spots.push_back({&s.deck[i], i + 1 == s.deck.size()});
  std::vector<CardId> pool;
  for (const Spot& spot : spots) pool.push_back(*spot.card);
  rng.shuffle(pool);
  std::vector<bool> used(pool.size(), false);
  for (Spot& spot : spots) {
    if (!spot.keeps_colour) continue;
    const Colour want = colour_of(*spot.card);
    for (std::size_t k = 0; k < pool.size(); ++k) {
      if (!used[k] && colour_of(pool[k]) == want) {
        used[k] = true;
        *spot.card = pool[k];
        break;
      }
    }
  }
  std::size_t k = 0;
  for (Spot& spot : spots) {
    if (spot.keeps_colour) continue;
    while (used[k]) ++k;
    used[k] = true;
    *spot.card = pool[k];
  }
  for (int i = 0; i < s.seats; ++i) std::sort(s.players[idx(i)].hand.begin(), s.players[idx(i)].hand.end());
}

Status check_invariants(const State& s) {
  if (s.seats < kMinSeats || s.seats > kMaxSeats || static_cast<int>(s.players.size()) != s.seats) {
    return fail(fmt::format("{} seats with {} players", s.seats, s.players.size()));
  }
  games::CardCensus census(std::array<int, kCards>{}, [](long long id) { return card(static_cast<CardId>(id)).name; });
  auto count = [&](CardId c, const char* where) { return census.count(c, where); };
  auto count_all = [&](const std::vector<CardId>& cards, const char* where) { return census.count_all(cards, where); };
  if (auto st = count_all(s.deck, "the deck"); !st) return st;
  if (auto st = count_all(s.discard, "the discard pile"); !st) return st;
  for (const Play& p : s.trick) {
    if (auto st = count(p.card, "the trick"); !st) return st;
  }
  for (const Player& p : s.players) {
    if (auto st = count_all(p.hand, "a hand"); !st) return st;
    if (auto st = count_all(p.collection, "a collection"); !st) return st;
    if (!std::is_sorted(p.hand.begin(), p.hand.end())) return fail(std::string("a hand is not sorted"));
    if (p.hand.size() > kHandLimit) return fail(fmt::format("a hand holds {} cards", p.hand.size()));
    if (p.tokens < 0 || p.tokens > kTokens) return fail(fmt::format("a player has {} tokens", p.tokens));
    for (CardId c : p.collection) {
      if (is_break(c)) return fail(std::string("a break in a collection"));
    }
  }
  if (auto st = census.all_once(); !st) return st;
  if (s.discard.empty()) return fail(std::string("the discard pile is empty"));
  if (s.deck.empty() && s.discard.size() > 1) {
    return fail(fmt::format("the deck is empty next to {} discarded cards (it is rebuilt at once)", s.discard.size()));
  }
  // The trick's leading colour: its first non-break card's. During `top` that card may have been
  // collected; a trick with a winner had one, though.
  const bool lead_ok = s.trick.empty()         ? s.leading == Colour::none
                       : s.phase == Phase::top ? s.leading != Colour::none
                                               : s.leading == leading_colour(s.trick);
  if (!lead_ok) {
    return fail(fmt::format("leading colour {} with a trick of {} cards", enum_name(s.leading), s.trick.size()));
  }
  if (static_cast<int>(s.trick.size()) > trick_size(s))
    return fail(fmt::format("{} cards in the trick", s.trick.size()));
  if (s.marker != kNone && s.marker != kDummy && (s.marker < 0 || s.marker >= s.seats))
    return fail(fmt::format("marker at {}", s.marker));
  if (s.marker == kDummy && s.seats != 2) return fail(std::string("the Dummy holds the marker with 3+ seats"));
  if (s.leader < 0 || s.leader >= s.seats) return fail(fmt::format("leader {}", s.leader));
  if ((s.phase == Phase::collect || s.phase == Phase::top) &&
      (s.winner < 0 || s.winner >= s.seats || s.trick.empty())) {
    return fail(std::string("a trick winner is deciding without a trick"));
  }
  if (s.phase != Phase::over && s.end != End::none) return fail(std::string("an end reason before the end"));
  return {};
}

std::uint64_t hash(const State& s) {
  Hasher h;
  h.i64(s.config.max_tricks);
  for (auto word : s.rng.state()) h.u64(word);
  h.i64(s.seats).u64(static_cast<std::uint64_t>(s.phase));
  h.list(s.deck);
  h.list(s.discard);
  for (const Player& p : s.players) {
    h.list(p.hand);
    h.list(p.collection);
    h.i64(p.tokens);
  }
  h.i64(s.marker).i64(s.start_player).i64(s.leader);
  h.u64(s.trick.size());
  for (const Play& p : s.trick) h.i64(p.seat).u64(p.card);
  h.u64(static_cast<std::uint64_t>(s.leading));
  h.i64(s.winner).i64(s.tricks).u64(static_cast<std::uint64_t>(s.end)).i64(s.decided);
  return h.digest();
}

}  // namespace arena::stella_quest
