#pragma once
// What the ladder's benchmarks share: a store opened or the program ended with the reason, and a
// population seeded straight into it (active versions through the store, counted games inserted
// as count() leaves them).

#include <fmt/format.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "referee/ladder/store.hpp"

namespace arena::bench {

[[noreturn]] void die(const std::string& why);

template <typename T>
T must(Result<T> r) {
  if (!r) die(r.error());
  return std::move(r.value());
}
void must(const Status& s);

std::unique_ptr<ladder::Store> open_or_die(const ladder::Location& where);

// A new bot's first version, built and active.
ladder::Id active(ladder::Store& s, const std::string& bot);
// `games` counted two-seat games between random pairs of `versions` (seeded), in one transaction.
void seed_games(ladder::Store& s, const std::vector<ladder::Id>& versions, std::int64_t games);

}  // namespace arena::bench
