#include "referee/league/sprt_tally.hpp"

#include <algorithm>

namespace arena::league {

SprtTally::SprtTally(std::string bot, int legs, std::uint64_t deals, const SprtConfig& config,
                     std::uint64_t block_deals)
    : bot_(std::move(bot)),
      legs_(std::max(legs, 1)),
      deals_(deals),
      block_(std::max<std::uint64_t>(block_deals, 1)),
      config_(config) {
  state_ = legs_ == 2 ? sprt_pentanomial(pentanomial_, config_) : sprt_trinomial(0, 0, 0, config_);
}

void SprtTally::add(const MatchRecord& r) {
  if (decided() || r.deal < counted_ || r.deal >= deals_) return;
  double x = 0;  // the bot's rank points; 0 when it did not play
  for (std::size_t s = 0; s < r.seats.size(); ++s) {
    if (r.seats[s].bot == bot_) {
      x = rank_points(r, static_cast<int>(s));
      break;
    }
  }
  OpenDeal& deal = open_[r.deal];
  if (deal.legs >= legs_) return;  // an edited journal with a leg twice: the first ones count
  deal.points += x;
  ++deal.legs;
  count_ready_blocks();
}

void SprtTally::count_ready_blocks() {
  for (;;) {
    const std::uint64_t end = std::min(counted_ + block_, deals_);
    if (end == counted_) return;  // the whole schedule is counted
    for (std::uint64_t d = counted_; d < end; ++d) {
      const auto it = open_.find(d);
      if (it == open_.end() || it->second.legs < legs_) return;  // the block is not complete
    }
    for (std::uint64_t d = counted_; d < end; ++d) {
      const auto it = open_.find(d);
      const double x = it->second.points;
      if (legs_ == 2) {
        pentanomial_.counts[static_cast<std::size_t>(std::clamp(x * 2 + 0.5, 0.0, 4.0))] += 1;
      } else {
        (x > 0.75 ? wins_ : x < 0.25 ? losses_ : draws_) += 1;
      }
      open_.erase(it);
    }
    counted_ = end;
    state_ = legs_ == 2 ? sprt_pentanomial(pentanomial_, config_) : sprt_trinomial(wins_, draws_, losses_, config_);
    if (decided()) {
      open_.clear();  // nothing after the deciding block counts
      return;
    }
  }
}

}  // namespace arena::league
