#include "referee/ladder/leaderboard.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace arena::ladder {

Leaderboard::Leaderboard(RatingSettings settings) : rating_(settings) {}

Status Leaderboard::load(Store& store) {
  constexpr std::size_t kBatch = 20000;
  for (;;) {
    auto games = store.games(kBatch, last_game_);
    if (!games) return fail(games.error());
    for (const GameRow& g : *games) {
      if (auto st = add(g); !st)
        return fail(fmt::format("game {} (match {} leg {}): {}", g.id, g.match, g.leg, st.error()));
    }
    if (games->size() < kBatch) return {};
  }
}

Status Leaderboard::add(const GameRow& g) {
  if (auto st = rating_.add(g); !st) return st;
  last_game_ = std::max(last_game_, g.id);
  if (g.fault_seat && *g.fault_seat >= 0 && static_cast<std::size_t>(*g.fault_seat) < g.seats.size()) {
    ++faults_[g.seats[static_cast<std::size_t>(*g.fault_seat)]];
  }
  for (Id v : g.seats) last_ms_[v] = std::max(last_ms_[v], g.end_ms);
  stale_ = true;
  return {};
}

const std::vector<VersionRating>& Leaderboard::fitted() {
  if (stale_) {
    fitted_ = rating_.fit();
    stale_ = false;
  }
  return fitted_;
}

std::vector<BoardRow> Leaderboard::rows(const std::vector<VersionRow>& versions, bool all) {
  const std::vector<VersionRating>& fit = fitted();
  std::map<Id, const VersionRating*> by_version;
  for (const VersionRating& r : fit) by_version[r.version] = &r;
  std::vector<BoardRow> out;
  for (const VersionRow& v : versions) {
    if (!all && v.state != VersionState::active) continue;
    BoardRow row;
    row.version = v;
    row.rating.version = v.id;
    if (const auto it = by_version.find(v.id); it != by_version.end()) row.rating = *it->second;
    if (const auto it = faults_.find(v.id); it != faults_.end()) row.faults = it->second;
    if (const auto it = last_ms_.find(v.id); it != last_ms_.end()) row.last_game_ms = it->second;
    out.push_back(std::move(row));
  }
  std::stable_sort(out.begin(), out.end(), [](const BoardRow& a, const BoardRow& b) {
    if ((a.rating.games > 0) != (b.rating.games > 0)) return a.rating.games > 0;
    return a.rating.rating > b.rating.rating;
  });
  for (std::size_t i = 0; i < out.size(); ++i) out[i].rank = static_cast<int>(i) + 1;
  return out;
}

}  // namespace arena::ladder
