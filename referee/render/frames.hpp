#pragma once
// Re-simulation of a replay into frames: the table after every decision, as the full state and as
// every seat's view. The base of the match viewers (`referee show`, `referee html`); like
// replay::verify it needs only the header and the actions, never the bots.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "referee/core/result.hpp"
#include "referee/replay/replay.hpp"

namespace arena::render {

struct Frame {
  std::int64_t step = 0;              // decisions applied so far (0 = the table before the first decision)
  nlohmann::json state;               // GameState::to_json(): the full table
  std::vector<nlohmann::json> views;  // GameState::view(seat) for every seat
  int to_act = -1;                    // seat to act, -1 when the game is over
  // GameState::progress(): the running score per seat (and its breakdown, and the game's notes
  // such as who wins the trick so far) at this step, for spectators; null for a game without one.
  nlohmann::json progress;
};

// Re-simulates a replay from its header and actions (like replay::verify does); frames.size() ==
// steps.size() + 1. An error names the step and the problem (unknown game, refused config, a step
// out of order, a step for the wrong seat or after the end, refused action). Hashes are not
// compared here: `referee verify` does that.
Result<std::vector<Frame>> simulate(const replay::Replay& replay);

// Version-2 replays record a hash of each view a seat was sent, not the view. This puts the view
// back into every step without one: its seat's view at that step, re-simulated (frames from
// simulate(replay); the protocol-1 form, cards whole, which is what the viewers draw). `referee
// verify` checks such views against the recorded hashes.
void restore_views(replay::Replay& replay, const std::vector<Frame>& frames);

}  // namespace arena::render
