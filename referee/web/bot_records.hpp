#pragma once
// What the bot pages show beyond ratings (docs/ladder.md "The web pages"): every counted game read
// from the store once, in order (as the leaderboard reads them), tallied for each ordered pair of
// versions that sat at one table (who finished ahead: a pairwise win, draw or loss; the version's
// place), and each version's first fault in play. A bot's record against another bot sums its
// versions' tallies.

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "referee/core/result.hpp"
#include "referee/ladder/store.hpp"
#include "referee/replay/result.hpp"

namespace arena::web {

// One bot against one other bot, over every counted game both played in (any of their versions).
struct Rivalry {
  std::string opponent;  // the other bot's name
  std::uint64_t games = 0;
  std::uint64_t wins = 0;  // finished ahead of it
  std::uint64_t draws = 0;
  std::uint64_t losses = 0;
  double mean_place = 0;  // the bot's mean place (1: first) in those games
  // (wins + draws / 2) / games: the bot's share of the pairwise points against it.
  double score() const {
    return games == 0 ? 0 : (static_cast<double>(wins) + 0.5 * static_cast<double>(draws)) / static_cast<double>(games);
  }
};

// The first counted game a version forfeited.
struct FirstFault {
  ladder::Id game = 0;
  ladder::Id match = 0;
  int leg = 0;
  replay::FaultKind kind = replay::FaultKind::crash;
  std::string message;
};

class BotRecords {
 public:
  // Reads the games counted since the last call (in batches) and tallies them.
  Status load(ladder::Store& store);
  void add(const ladder::GameRow& game);
  // The records of the bot whose versions are `versions` against every other bot it met, by the
  // other bot's name; `bot_of`: each version's bot.
  std::vector<Rivalry> of(const std::set<ladder::Id>& versions, const std::map<ladder::Id, std::string>& bot_of) const;
  // The version's first fault in a counted game, or null when it has forfeited none.
  const FirstFault* first_fault(ladder::Id version) const;

 private:
  struct Tally {
    std::uint64_t games = 0;
    std::uint64_t wins = 0;
    std::uint64_t draws = 0;
    std::uint64_t losses = 0;
    std::uint64_t place_sum = 0;
  };
  // (version, opponent version) -> the first's record against the second.
  std::map<std::pair<ladder::Id, ladder::Id>, Tally> pairs_;
  std::map<ladder::Id, FirstFault> first_faults_;
  ladder::Id last_game_ = 0;
};

}  // namespace arena::web
