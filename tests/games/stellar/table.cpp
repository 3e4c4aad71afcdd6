#include "tests/games/stellar/table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <stdexcept>

#include "referee/core/index.hpp"

namespace arena::stellar::testing {

namespace {

constexpr std::string_view kStarterMark = " ◆";

using arena::idx;

Action checked(const State& s, const Action& a) {
  INFO("action " << fmt::format("kind {} card {} slot {}", static_cast<int>(a.kind), a.card, a.slot));
  REQUIRE(is_legal(s, a));
  return a;
}

}  // namespace

Table::Table(Config config) : used_(config.deck.size(), false) {
  s_.config = std::move(config);
  s_.phase = Phase::take;
  s_.start_player = 0;
  s_.turn = 0;
}

int Table::take(std::string_view name) {
  const bool starter = name.ends_with(kStarterMark);
  if (starter) name.remove_suffix(kStarterMark.size());
  for (std::size_t id = 0; id < s_.config.deck.size(); ++id) {
    const Card& c = s_.config.deck[id];
    if (!used_[id] && c.name == name && c.starter == starter) {
      used_[id] = true;
      return static_cast<int>(id);
    }
  }
  throw std::invalid_argument(fmt::format("no unused card \"{}{}\" in the deck", name, starter ? kStarterMark : ""));
}

void Table::starters(int seat, std::string_view up, std::string_view kept) {
  Player& p = s_.players[idx(seat)];
  const int up_id = take(up);
  const int kept_id = take(kept);
  p.starters = {static_cast<std::int16_t>(up_id), static_cast<std::int16_t>(kept_id)};
  p.starter_choice = static_cast<std::int16_t>(up_id);
  p.telescope[0] = Slot{static_cast<std::int16_t>(up_id), true};
  p.notebook.push_back(static_cast<CardId>(kept_id));
}

void Table::telescope(int seat, int slot, std::string_view name, Face face) {
  s_.players[idx(seat)].telescope[idx(slot - 1)] = Slot{static_cast<std::int16_t>(take(name)), face == Face::up};
}

void Table::telescope(int seat, std::initializer_list<std::pair<int, std::string_view>> slot_names) {
  for (const auto& [slot, name] : slot_names) telescope(seat, slot, name);
}

void Table::notebook(int seat, std::initializer_list<std::string_view> names) {
  for (auto n : names) s_.players[idx(seat)].notebook.push_back(static_cast<CardId>(take(n)));
}

void Table::hand(int seat, const CardNames& names) {
  auto& hand = s_.players[idx(seat)].hand;
  for (auto n : names) hand.push_back(static_cast<CardId>(take(n)));
  std::sort(hand.begin(), hand.end());
}

void Table::row(const CardNames& names) {
  REQUIRE(names.size() == kRowSlots);
  std::size_t slot = 0;
  for (auto n : names) s_.row[slot++] = n.empty() ? kNone : static_cast<std::int16_t>(take(n));
}

void Table::deck(const CardNames& top_first) {
  std::vector<CardId> top;
  for (auto n : top_first) top.push_back(static_cast<CardId>(take(n)));
  s_.deck.clear();
  for (std::size_t id = 0; id < used_.size(); ++id) {
    if (!used_[id]) {
      used_[id] = true;
      s_.deck.push_back(static_cast<CardId>(id));
    }
  }
  // back() is the top, so the named cards go on in reverse.
  s_.deck.insert(s_.deck.end(), top.rbegin(), top.rend());
}

void Table::deck_only(std::initializer_list<std::string_view> top_first) {
  s_.deck.clear();
  for (auto n : top_first) s_.deck.insert(s_.deck.begin(), static_cast<CardId>(take(n)));
}

void Table::discard(std::initializer_list<std::string_view> names) {
  for (auto n : names) s_.discard.push_back(static_cast<CardId>(take(n)));
}

void Table::discard_rest() {
  for (std::size_t id = 0; id < used_.size(); ++id) {
    if (!used_[id]) {
      used_[id] = true;
      s_.discard.push_back(static_cast<CardId>(id));
    }
  }
}

int Table::in_hand(int seat, std::string_view name) const {
  for (CardId id : s_.players[idx(seat)].hand) {
    if (this->name(id) == name) return id;
  }
  FAIL("no \"" << std::string(name) << "\" in seat " << seat << "'s hand");
  return kNone;
}

std::string Table::name(int id) const {
  if (id == kNone) return "";
  const Card& c = s_.config.deck[idx(id)];
  return c.starter ? c.name + std::string(kStarterMark) : c.name;
}

std::vector<std::string> Table::names(const std::vector<CardId>& ids) const {
  std::vector<std::string> out;
  for (CardId id : ids) out.push_back(name(id));
  return out;
}

std::vector<std::string> Table::row_names() const {
  std::vector<std::string> out;
  for (auto c : s_.row) out.push_back(name(c));
  return out;
}

std::vector<std::string> Table::deck_top(std::size_t n) const {
  std::vector<std::string> out;
  for (auto it = s_.deck.rbegin(); it != s_.deck.rend() && out.size() < n; ++it) out.push_back(name(*it));
  return out;
}

Table opening(Config config) {
  Table t(std::move(config));
  t.starters(0, "Moon 3 ◆", "Mars 3 ◆");
  t.starters(1, "Asteroid 3 ◆", "Cloud 3 ◆");
  t.hand(1, {"Saturn 5", "Moon 5"});
  return t;
}

Table opening(const Deal& deal, Config config) {
  Table t = opening(std::move(config));
  t.hand(0, deal.hand0);
  t.row(deal.row);
  t.deck(deal.deck_top);
  return t;
}

Action take(const State& s, int row_slot) {
  return checked(s, Action::take(row_slot - 1));
}

Action play_notebook(const State& s, int card) {
  return checked(s, Action::play_notebook(card));
}

Action play_telescope(const State& s, int card, int slot, Face face) {
  return checked(s, Action::play_telescope(card, slot - 1, face == Face::up));
}

Action place(const State& s, int slot, Face face) {
  return checked(s, Action::place(slot - 1, face == Face::up));
}

std::vector<int> slots(std::uint16_t mask) {
  std::vector<int> out;
  for (int i = 0; i < kTelescopeSlots; ++i) {
    if (mask & (1u << i)) out.push_back(i + 1);
  }
  return out;
}

}  // namespace arena::stellar::testing
