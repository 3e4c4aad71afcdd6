#include "tests/games/stella_quest/table.hpp"

#include <catch2/catch.hpp>
#include <stdexcept>

#include "referee/core/index.hpp"

namespace arena::stella_quest::testing {

namespace {

using arena::idx;

std::string action_text(const Action& a) {
  switch (a.kind) {
    case ActionKind::play:
      return "play " + face_name(a.face);
    case ActionKind::draw:
      return "draw";
    case ActionKind::collect:
      return "collect " + face_name(a.face);
    case ActionKind::top:
      return "top " + face_name(a.face);
  }
  return "?";
}

void checked_apply(State& s, const Action& a) {
  INFO("action " << action_text(a));
  REQUIRE(is_legal(s, a));
  apply(s, a);
  const auto st = check_invariants(s);
  INFO((st.ok() ? std::string() : st.error()));
  REQUIRE(st.ok());
}

Face face(std::string_view name) {
  auto f = parse_face(name);
  if (!f) throw std::invalid_argument(f.error());
  return *f;
}

}  // namespace

Table::Table(int seats, Config config) : used_(kCards, false) {
  s_.config = config;
  s_.rng = Rng(7);
  s_.seats = static_cast<std::int8_t>(seats);
  s_.players.assign(idx(seats), Player{});
  s_.phase = Phase::play;
}

CardId Table::take(std::string_view name) {
  const Face f = face(name);
  for (int id = 0; id < kCards; ++id) {
    if (!used_[idx(id)] && face_of(static_cast<CardId>(id)) == f) {
      used_[idx(id)] = true;
      return static_cast<CardId>(id);
    }
  }
  throw std::invalid_argument("no card \"" + std::string(name) + "\" left");
}

void Table::hand(int seat, std::initializer_list<std::string_view> names_list) {
  auto& hand = s_.players[idx(seat)].hand;
  for (auto n : names_list) hand.push_back(take(n));
  std::sort(hand.begin(), hand.end());
}

void Table::hands(std::initializer_list<std::initializer_list<std::string_view>> by_seat) {
  int seat = 0;
  for (const auto& names_list : by_seat) hand(seat++, names_list);
}

void Table::collection(int seat, std::initializer_list<std::string_view> names_list) {
  for (auto n : names_list) s_.players[idx(seat)].collection.push_back(take(n));
}

void Table::discard(std::initializer_list<std::string_view> bottom_first) {
  for (auto n : bottom_first) s_.discard.push_back(take(n));
}

void Table::deck(std::initializer_list<std::string_view> top_first) {
  for (auto n : top_first) deck_top_.push_back(take(n));
}

void Table::rest_in_collection(int seat) {
  rest_collection_ = seat;
}

void Table::tokens(int seat, int lit) {
  s_.players[idx(seat)].tokens = static_cast<std::int8_t>(lit);
}
void Table::marker(int seat_or_dummy) {
  s_.marker = static_cast<std::int8_t>(seat_or_dummy);
}
void Table::leader(int seat) {
  s_.leader = static_cast<std::int8_t>(seat);
  s_.start_player = static_cast<std::int8_t>(seat);
}

State& Table::finish(bool rest_in_deck) {
  s_.deck.clear();
  for (int id = 0; id < kCards; ++id) {
    if (!used_[idx(id)]) {
      used_[idx(id)] = true;
      if (rest_collection_ >= 0) {
        s_.players[idx(rest_collection_)].collection.push_back(static_cast<CardId>(id));
      } else if (rest_in_deck) {
        s_.deck.push_back(static_cast<CardId>(id));
      } else {
        s_.discard.insert(s_.discard.begin(), static_cast<CardId>(id));
      }
    }
  }
  for (auto it = deck_top_.rbegin(); it != deck_top_.rend(); ++it) s_.deck.push_back(*it);
  const auto st = check_invariants(s_);
  INFO((st.ok() ? std::string() : st.error()));
  REQUIRE(st.ok());
  return s_;
}

std::vector<std::string> names(const std::vector<CardId>& cards) {
  std::vector<std::string> out;
  for (CardId c : cards) out.push_back(card(c).name);
  return out;
}

std::string top_name(const State& s) {
  return card(s.discard.back()).name;
}

void play(State& s, std::string_view name) {
  checked_apply(s, Action::play(face(name)));
}
void play_all(State& s, std::initializer_list<std::string_view> names_list) {
  for (auto name : names_list) play(s, name);
}
void collect(State& s, std::string_view name) {
  checked_apply(s, Action::collect(face(name)));
}
void top(State& s, std::string_view name) {
  checked_apply(s, Action::top(face(name)));
}
void draw(State& s) {
  checked_apply(s, Action::draw());
}

std::vector<std::string> legal(const State& s) {
  std::vector<std::string> out;
  for (const Action& a : legal_actions(s)) out.push_back(action_text(a));
  return out;
}

}  // namespace arena::stella_quest::testing
