// Head-to-head records (bot_records.hpp).
#include "referee/web/bot_records.hpp"

#include <algorithm>
#include <limits>

namespace arena::web {

namespace {

constexpr std::size_t kBatch = 5000;

}  // namespace

Status BotRecords::load(ladder::Store& store) {
  while (true) {
    auto games = store.games(kBatch, last_game_);
    if (!games) return fail(games.error());
    for (const ladder::GameRow& g : *games) add(g);
    if (games->size() < kBatch) return {};
  }
}

void BotRecords::add(const ladder::GameRow& game) {
  last_game_ = std::max(last_game_, game.id);
  if (game.fault_kind && game.fault_seat && *game.fault_seat >= 0 &&
      static_cast<std::size_t>(*game.fault_seat) < game.seats.size()) {
    first_faults_.emplace(game.seats[static_cast<std::size_t>(*game.fault_seat)],
                          FirstFault{game.id, game.match, game.leg, *game.fault_kind, game.fault_message});
  }
  if (game.ranks.size() != game.seats.size()) return;  // a result without places orders no one
  for (std::size_t i = 0; i < game.seats.size(); ++i) {
    for (std::size_t j = 0; j < game.seats.size(); ++j) {
      if (i == j || game.seats[i] == game.seats[j]) continue;
      Tally& t = pairs_[{game.seats[i], game.seats[j]}];
      ++t.games;
      if (game.ranks[i] < game.ranks[j]) {
        ++t.wins;
      } else if (game.ranks[i] == game.ranks[j]) {
        ++t.draws;
      } else {
        ++t.losses;
      }
      t.place_sum += static_cast<std::uint64_t>(std::max(game.ranks[i], 0));
    }
  }
}

std::vector<Rivalry> BotRecords::of(const std::set<ladder::Id>& versions,
                                    const std::map<ladder::Id, std::string>& bot_of) const {
  std::string self;
  if (!versions.empty()) {
    const auto it = bot_of.find(*versions.begin());
    if (it != bot_of.end()) self = it->second;
  }
  std::map<std::string, Tally> by_bot;
  for (const ladder::Id v : versions) {
    for (auto it = pairs_.lower_bound({v, std::numeric_limits<ladder::Id>::min()});
         it != pairs_.end() && it->first.first == v; ++it) {
      const auto other = bot_of.find(it->first.second);
      if (other == bot_of.end() || other->second == self) continue;
      Tally& sum = by_bot[other->second];
      sum.games += it->second.games;
      sum.wins += it->second.wins;
      sum.draws += it->second.draws;
      sum.losses += it->second.losses;
      sum.place_sum += it->second.place_sum;
    }
  }
  std::vector<Rivalry> out;
  for (const auto& [name, t] : by_bot) {
    out.push_back(Rivalry{name, t.games, t.wins, t.draws, t.losses,
                          t.games == 0 ? 0 : static_cast<double>(t.place_sum) / static_cast<double>(t.games)});
  }
  return out;
}

const FirstFault* BotRecords::first_fault(ladder::Id version) const {
  const auto it = first_faults_.find(version);
  return it == first_faults_.end() ? nullptr : &it->second;
}

}  // namespace arena::web
