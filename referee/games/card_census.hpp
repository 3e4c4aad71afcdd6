#pragma once
// The census behind a game's check_invariants: every card id of a state counted where it lies,
// refusing an id out of range or a card in two places with a message that names the card and the
// place ("card 7 (Blue 4) seen twice, again in a hand"), and then every card found exactly once.

#include <fmt/format.h>

#include <cstddef>
#include <string>
#include <utility>

#include "referee/core/result.hpp"

namespace arena::games {

// Seen: a zeroed array or vector of int, one entry per card id (the game's own: a fixed deck uses
// a std::array and allocates nothing). NameOf: the name of a card id in range, for messages.
template <typename Seen, typename NameOf>
class CardCensus {
 public:
  CardCensus(Seen seen, NameOf name_of) : seen_(std::move(seen)), name_of_(std::move(name_of)) {}

  Status count(long long id, const char* where) {
    if (id < 0 || static_cast<std::size_t>(id) >= seen_.size()) {
      return fail(fmt::format("bad card id {} in {}", id, where));
    }
    if (++seen_[static_cast<std::size_t>(id)] > 1) {
      return fail(fmt::format("card {} ({}) seen twice, again in {}", id, name_of_(id), where));
    }
    return {};
  }
  template <typename Ids>
  Status count_all(const Ids& ids, const char* where) {
    for (auto id : ids) {
      if (auto st = count(id, where); !st) return st;
    }
    return {};
  }
  // Every card counted exactly once (after counting every place).
  Status all_once() const {
    for (std::size_t id = 0; id < seen_.size(); ++id) {
      if (seen_[id] != 1) return fail(fmt::format("card {} ({}) is nowhere", id, name_of_(static_cast<long long>(id))));
    }
    return {};
  }

 private:
  Seen seen_;
  NameOf name_of_;
};

}  // namespace arena::games
