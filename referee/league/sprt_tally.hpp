#pragma once
// The SPRT of a two-bot league, fed the journaled matches one at a time in any order, and decided
// only at fixed points of the schedule: after each block of kSprtBlockDeals deals, once that
// block and every earlier one are complete, on exactly those deals. A league therefore stops at
// the same match whatever the concurrency or the order in which matches finish, and a resumed
// league decides where the uninterrupted one would have. Matches of deals after the deciding
// block (played by other workers while it was completed) are journaled but not counted.

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "referee/league/record.hpp"
#include "referee/league/stats.hpp"

namespace arena::league {

// Deals per SPRT block: 8 duplicate pairs (16 games) between two looks at the test.
inline constexpr std::uint64_t kSprtBlockDeals = 8;

class SprtTally {
 public:
  // `bot`: the bot whose Elo is tested (the league's first). `legs`: matches per deal (2 with
  // duplicate deals: the test then runs on pairs; 1: on games). `deals`: deals in the schedule
  // (the last block may be shorter).
  SprtTally(std::string bot, int legs, std::uint64_t deals, const SprtConfig& config,
            std::uint64_t block_deals = kSprtBlockDeals);

  // One journaled match; records of deals already counted, or after the decision, are ignored.
  void add(const MatchRecord& record);

  // The test on the deals counted so far (whole blocks from deal 0).
  SprtState state() const { return state_; }
  bool decided() const { return state_.decision != SprtState::Decision::none; }
  // Deals counted: the test covers deals [0, counted_deals()). Fixed once decided.
  std::uint64_t counted_deals() const { return counted_; }
  // Completed deals waiting for an earlier block (bounded by the deals in flight).
  std::size_t open_deals() const { return open_.size(); }

 private:
  struct OpenDeal {
    int legs = 0;
    double points = 0;  // the bot's rank points over the deal's legs
  };
  void count_ready_blocks();

  std::string bot_;
  int legs_ = 1;
  std::uint64_t deals_ = 0;
  std::uint64_t block_ = kSprtBlockDeals;
  SprtConfig config_;
  std::map<std::uint64_t, OpenDeal> open_;  // by deal, not yet counted
  std::uint64_t counted_ = 0;
  Pentanomial pentanomial_{};
  int wins_ = 0;
  int draws_ = 0;
  int losses_ = 0;
  SprtState state_;
};

}  // namespace arena::league
