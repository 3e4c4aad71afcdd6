#pragma once
// The ladder's leaderboard, one owner for everything that shows it (`ladder run`'s summary,
// `ladder status`, `ladder export`, the web pages): every counted game read from the store once,
// in order, into the rating (rating.hpp) and the per-version counts the rating does not keep
// (faults, the last game's time); then the rows, ranked.

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "referee/core/result.hpp"
#include "referee/ladder/rating.hpp"
#include "referee/ladder/store.hpp"

namespace arena::ladder {

struct BoardRow {
  int rank = 0;  // 1-based among the rows shown
  VersionRow version;
  VersionRating rating;      // games 0 when it has not played yet
  std::uint64_t faults = 0;  // games it forfeited
  std::int64_t last_game_ms = 0;
};

class Leaderboard {
 public:
  explicit Leaderboard(RatingSettings settings = {});
  // Reads the games counted since the last call (in batches) and adds them.
  Status load(Store& store);
  Status add(const GameRow& game);
  // Refits when games were added since the last fit; every version that played.
  const std::vector<VersionRating>& fitted();
  // The rows of `versions` (active ones, or all with `all`), best rating first; a version that
  // has not played yet comes after those that have.
  std::vector<BoardRow> rows(const std::vector<VersionRow>& versions, bool all = false);
  std::uint64_t games() const { return rating_.games(); }

 private:
  Rating rating_;
  std::vector<VersionRating> fitted_;
  bool stale_ = false;
  Id last_game_ = 0;
  std::map<Id, std::uint64_t> faults_;
  std::map<Id, std::int64_t> last_ms_;
};

}  // namespace arena::ladder
