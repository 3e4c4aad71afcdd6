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

// How a view-delta bot's request is rebuilt (docs/protocol.md, "View deltas").
enum class DeltaRequest {
  as_sent,   // what the match sent: the members changed since the seat's previous request
  as_first,  // as the first request of a match carries it: every member (for `bot < file`)
};

// The request line with id `request_id` the match sent to `seat` after the first `step` decisions
// of the replay (0 <= step <= its steps): the replay's actions re-applied, the seat's view in its
// protocol version (a view delta when the seat chose them, `delta` says which), the time bank as
// the recorded times left it; byte for byte the line the match wrote. An error when the game is
// unknown, an action does not apply, or `seat` was not the one to act there.
Result<std::string> request_at(const replay::Replay& r, std::size_t step, Seat seat, std::int64_t request_id,
                               DeltaRequest delta = DeltaRequest::as_sent);

}  // namespace arena::cli
