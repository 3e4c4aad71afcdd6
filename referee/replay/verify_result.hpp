#pragma once
// The footer's half of verify(): the result re-derived from the re-simulation and compared field
// by field (replay.hpp, verify()).

#include "referee/core/result.hpp"
#include "referee/games/game.hpp"
#include "referee/replay/replay.hpp"
#include "referee/replay/result.hpp"

namespace arena::replay {

// `final_state`: the state after the replay's last step. The footer's result, typed, when every
// field agrees; else the first field that does not, named ("result.winner: ...").
Result<FinalResult> check_result(const Replay& replay, const games::GameState& final_state);

}  // namespace arena::replay
