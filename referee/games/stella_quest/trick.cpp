// The trick: play order, winner (docs/games/stella_quest.md), what follows it (B4, B7) and the scoring (B6).

#include <algorithm>
#include <cassert>

#include "referee/games/stella_quest/flow.hpp"
#include "referee/games/stella_quest/rules.hpp"

namespace arena::stella_quest {

// ---- queries -------------------------------------------------------------------------------

int trick_size(const State& s) {
  return s.seats == 2 ? 3 : s.seats;
}

std::int8_t trick_seat(const State& s, int position) {
  if (s.seats == 2) {
    // docs/games/stella_quest.md: leader, Dummy, the other player.
    if (position == 0) return s.leader;
    if (position == 1) return kDummy;
    return static_cast<std::int8_t>(1 - s.leader);
  }
  return static_cast<std::int8_t>((s.leader + position) % s.seats);
}

Colour leading_colour(const std::vector<Play>& trick) {
  for (const Play& p : trick) {
    if (!is_break(p.card)) return colour_of(p.card);
  }
  return Colour::none;
}

bool is_super_trump(const std::vector<Play>& trick, CardId top_discard, int index) {
  const CardId c = trick[idx(index)].card;
  if (is_break(c)) return false;  // docs/games/stella_quest.md: a break is never a Super Trump
  if (face_of(top_discard) == face_of(c)) return true;
  for (int j = 0; j < index; ++j) {
    if (face_of(trick[idx(j)].card) == face_of(c)) return true;
  }
  return false;
}

int trick_winner(const std::vector<Play>& trick, CardId top_discard) {
  const int n = static_cast<int>(trick.size());
  // 1. The later Super Trump.
  for (int i = n - 1; i >= 0; --i) {
    if (is_super_trump(trick, top_discard, i)) return i;
  }
  // 2. The highest trump, then 3. the highest card of the leading colour (of the whole trick: the
  // winner is found when its last card is played). Equal faces would
  // have made a Super Trump, so there are no ties.
  auto highest_of = [&](Colour colour) {
    int best = -1;
    for (int i = 0; i < n; ++i) {
      const CardId c = trick[idx(i)].card;
      if (colour_of(c) == colour && (best < 0 || number_of(c) > number_of(trick[idx(best)].card))) best = i;
    }
    return best;
  };
  const Colour trump = trump_colour(top_discard);
  if (trump != Colour::none) {
    if (int i = highest_of(trump); i >= 0) return i;
  }
  const Colour lead = leading_colour(trick);
  if (lead == Colour::none) return -1;  // all breaks
  return highest_of(lead);
}

// ---- after the trick -----------------------------------------------------------------------

namespace detail {

namespace {

// The trick's cards onto the discard pile in play order, with `top` (an index in the trick) last.
// The trick ends here (its leading colour with it); an empty deck is rebuilt at once.
void discard_trick(State& s, int top) {
  for (int i = 0; i < static_cast<int>(s.trick.size()); ++i) {
    if (i != top) s.discard.push_back(s.trick[idx(i)].card);
  }
  if (top >= 0) s.discard.push_back(s.trick[idx(top)].card);
  s.trick.clear();
  s.leading = Colour::none;
  restock(s);
}

int first_break(const std::vector<Play>& trick) {
  for (int i = 0; i < static_cast<int>(trick.size()); ++i) {
    if (is_break(trick[idx(i)].card)) return i;
  }
  return -1;
}

// The game ends in the middle of a trick's aftermath: the rest is discarded (a break on top).
void end_with_trick(State& s, End end, std::int8_t seat) {
  discard_trick(s, first_break(s.trick));
  end_game(s, end, seat);
}

void next_trick(State& s) {
  s.winner = kNone;
  if (s.tricks >= s.config.max_tricks) {
    end_game(s, End::trick_cap, kNone);
    return;
  }
  s.phase = Phase::play;
  begin_turn(s);
}

void lose_tokens(Player& p, int n) {
  p.tokens = static_cast<std::int8_t>(std::max(0, p.tokens - n));
}

}  // namespace

void resolve_trick(State& s) {
  assert(static_cast<int>(s.trick.size()) == trick_size(s));
  const int w = trick_winner(s.trick, s.discard.back());
  ++s.tricks;
  if (w < 0) {
    // docs/games/stella_quest.md: no winner, the marker stays; its holder leads, or (a resolution,
    // docs/games/stella_quest.md section 13) the same leader.
    discard_trick(s, -1);
    if (s.marker >= 0) s.leader = s.marker;
    next_trick(s);
    return;
  }
  const std::int8_t seat = s.trick[idx(w)].seat;
  if (seat == kDummy) {
    // docs/games/stella_quest.md: the trick is void; the Dummy's card on top unless a break was played.
    const int b = first_break(s.trick);
    discard_trick(s, b >= 0 ? b : w);
    s.marker = kDummy;
    s.leader = static_cast<std::int8_t>(1 - s.leader);  // the last human to play
    next_trick(s);
    return;
  }
  s.winner = seat;
  Player& p = s.players[idx(seat)];
  if (s.marker == seat) {
    lose_tokens(p, 1);
    if (p.tokens == 0) {
      end_with_trick(s, End::elimination, seat);
      return;
    }
  } else {
    s.marker = seat;
  }
  s.phase = Phase::collect;  // a forced choice is made by apply_forced
}

void collect(State& s, Face face) {
  auto it = std::find_if(s.trick.begin(), s.trick.end(), [&](const Play& p) { return face_of(p.card) == face; });
  assert(it != s.trick.end() && face != kBreakFace);
  const CardId c = it->card;
  s.trick.erase(it);
  Player& p = s.players[idx(s.winner)];
  const bool duplicate = (collected_numbers(p.collection) >> number_of(c)) & 1u;
  p.collection.push_back(c);
  if (duplicate) lose_tokens(p, card(c).jewels);  // after the marker loss (the Remi example)
  if (p.tokens == 0) {
    end_with_trick(s, End::elimination, s.winner);
  } else if (collected_numbers(p.collection) == 0x7Eu) {
    end_with_trick(s, End::enlightenment, s.winner);
  } else {
    s.phase = Phase::top;  // a forced choice is made by apply_forced
  }
}

void choose_top(State& s, Face face) {
  int top = -1;
  for (int i = 0; i < static_cast<int>(s.trick.size()) && top < 0; ++i) {
    if (face_of(s.trick[idx(i)].card) == face) top = i;
  }
  assert(top >= 0);
  discard_trick(s, top);
  s.leader = s.winner;
  next_trick(s);
}

}  // namespace detail

// ---- scoring -------------------------------------------------------------------------------

unsigned collected_numbers(const std::vector<CardId>& collection) {
  unsigned bits = 0;
  for (CardId c : collection) bits |= 1u << number_of(c);
  return bits;
}

Outcome score(const State& s) {
  Outcome o;
  o.end = s.end;
  for (int seat = 0; seat < s.seats; ++seat) {
    const Player& p = s.players[idx(seat)];
    PlayerScore ps;
    ps.tokens = p.tokens;
    std::array<int, kNumbers + 1> copies{};
    for (CardId c : p.collection) ++copies[idx(number_of(c))];
    for (CardId c : p.collection) {
      if (copies[idx(number_of(c))] > 1) {
        ps.face_down.push_back(c);
      } else {
        ps.jewels += card(c).jewels;
      }
    }
    ps.points = ps.tokens + ps.jewels;
    int rank_score = ps.points;
    if (s.decided == seat && s.end == End::enlightenment) rank_score += 100;
    if (s.decided == seat && s.end == End::elimination) rank_score = -1;
    o.players.push_back(std::move(ps));
    o.scores.push_back(rank_score);
  }
  const int best = *std::max_element(o.scores.begin(), o.scores.end());
  for (int seat = 0; seat < s.seats; ++seat) {
    if (o.scores[idx(seat)] == best) o.winners.push_back(seat);
  }
  return o;
}

}  // namespace arena::stella_quest
