#pragma once
// The table of a replay at one step, as text for a terminal (`referee show`). Two modes:
//  - the whole table: every hand, the decision that led to this step and the next one, and at the
//    end the footer's score breakdown and outcome (or its fault);
//  - one seat: exactly what that seat's bot was sent, drawn from its view alone, so nothing
//    hidden from it can appear.
// Plain text under 100 columns; ANSI colour only when asked for.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "referee/core/result.hpp"
#include "referee/core/seat.hpp"
#include "referee/render/frames.hpp"
#include "referee/replay/replay.hpp"

namespace arena::render {

struct TextOptions {
  bool color = false;  // ANSI colour and bold
};

// The whole table of a frame, merged by the replay's game from every seat's view
// (Game::whole_table), so every hand and every face-down card is there.
nlohmann::json whole_table(const replay::Replay& replay, const Frame& frame);

// The table after `step` decisions (0 <= step < frames.size()), every hand shown.
std::string table_text(const replay::Replay& replay, const std::vector<Frame>& frames, std::size_t step,
                       const TextOptions& options);

// What `seat` was sent: the view recorded in the replay for the last decision at or before `step`
// that `seat` made (labelled with its request id, with the seat's answer), or, when it had not
// been asked yet, the re-simulated view of the table after `step` decisions (labelled so). At the
// end, the result every bot was sent. An error when the recorded view differs from the
// re-simulated one (the replay diverges).
Result<std::string> seat_text(const replay::Replay& replay, const std::vector<Frame>& frames, std::size_t step,
                              Seat seat, const TextOptions& options);

}  // namespace arena::render
