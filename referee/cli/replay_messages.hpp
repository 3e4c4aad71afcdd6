#pragma once
// The messages a match sent to a bot, rebuilt from its replay: the hello of a seat, and the request
// (view through the game, legal actions, time left) before any decision, byte for byte as the
// match wrote it. validate puts them in a faulty bot's input file; `referee show --request` prints
// one, so an author can feed it to the bot by hand.

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "referee/core/result.hpp"
#include "referee/core/seat.hpp"
#include "referee/replay/replay.hpp"

namespace arena::cli {

// The hello the seat was sent (with its card table, for protocol 2).
nlohmann::json hello_for(const replay::Header& h, Seat seat);

// The request with id `request_id` the match sent to `seat` after the first `step` decisions of
// the replay (0 <= step <= its steps): the replay's actions re-applied, the seat's view in its
// protocol version, the time bank as the recorded times left it. An error when the game is
// unknown, an action does not apply, or `seat` was not the one to act there.
Result<nlohmann::json> request_at(const replay::Replay& r, std::size_t step, Seat seat, std::int64_t request_id);

}  // namespace arena::cli
