#pragma once
// The bot protocol: one JSON object per line, UTF-8, each with a "type" and a "protocol" version.
// Versions 1 and 2 differ only in the views (version 2 names cards by id; the card table is sent
// once, in hello) and are negotiated per bot: hello offers both, the bot's ready picks one.
// This is the codec: it builds the referee's messages and reads the bot's, turning anything
// unexpected into an error value (never an exception that escapes). docs/protocol.md describes
// the messages; protocol/schema/ has one JSON Schema per message.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "referee/core/result.hpp"

namespace arena::protocol {

using nlohmann::json;

inline constexpr int kVersion = 1;        // what hello says, so that a version-1 bot reads it
inline constexpr int kLatestVersion = 2;  // hello's "protocols" lists 1..kLatestVersion

struct ParseLimits {
  std::size_t max_depth = 64;       // nesting of objects and arrays
  std::size_t max_bytes = 1 << 16;  // the line, without its newline
};

// Parses one line into a JSON object. Refused, with a message naming the problem: an empty line,
// a line over the limit, invalid JSON or UTF-8, nesting deeper than the limit, a duplicate key,
// a top-level value that is not an object.
Result<json> parse_line(std::string_view line, const ParseLimits& limits = {});

// Serialises a message as one line (no newline). Invalid UTF-8 in strings is replaced, so that
// bytes from a bot can never make the referee throw.
std::string to_line(const json& message);

// Raw bytes made printable for a fault record: ASCII kept, everything else as \xNN, capped.
std::string escape_bytes(std::string_view bytes, std::size_t max_bytes = 512);

// ---- referee -> bot ----------------------------------------------------------------------

struct Limits {
  std::int64_t init_ms = 10000;     // from start to the ready message
  std::int64_t decision_ms = 1000;  // per request
  std::int64_t time_bank_ms = 0;    // extra time per seat for the whole game
  std::size_t max_line_bytes = 1 << 16;
  std::size_t max_debug_bytes = 4096;  // longer debug text is cut in the replay
  json to_json() const;
};

// Every field and the time scale within its range (referee/core/bounds.hpp, docs/cli.md "Ranges");
// the error names the key ("decision_ms", "time_scale"), the value and the range.
Status check_limits(const Limits& limits, double time_scale);

// A time limit times the time scale, rounded, saturated to 0..bounds::kMaxScaledMs (a NaN scale
// gives 0), so that no caller of the library can overflow a deadline.
std::int64_t scaled_ms(std::int64_t ms, double time_scale);
// The limits as enforced: init, decision and bank scaled; sizes as they are.
Limits scaled(const Limits& limits, double time_scale);

// `cards`: the seat's card table for version 2 (games::seat_card_table), null for a game without one.
json hello(const std::string& game, int seat, int seats, const json& config, const Limits& limits,
           const json& cards = nullptr);
json request(std::int64_t id, int seat, const json& view, const json& legal, std::int64_t time_left_ms,
             std::int64_t bank_ms, int version = kVersion);
json game_over(const json& result, int version = kVersion);
// request() as one line, from a view and a legal list already serialised as JSON text (the match
// writes them straight from the game state). Byte for byte the same line as to_line(request(...)).
// For a bot that chose view deltas (Ready::view_delta), `view_line` is the delta, sent as
// "view_delta", and `removed_line` (when not empty) the "view_removed" array.
std::string request_line(int version, std::int64_t id, int seat, std::string_view view_line,
                         std::string_view legal_line, std::int64_t time_left_ms, std::int64_t bank_ms,
                         bool view_delta = false, std::string_view removed_line = {});

// ---- bot -> referee ----------------------------------------------------------------------

// A game a bot says it plays (ready.games, version 2): the game's name, and the seat counts it
// plays it with (empty: any).
struct GameSupport {
  std::string name;
  std::vector<int> seats;
  bool operator==(const GameSupport&) const = default;
};

struct Ready {
  std::string name;
  std::string version;      // may be empty
  int protocol = 1;         // the version the bot chose, 1 or 2
  bool reuse = false;       // version 2: the bot plays further matches after game_over (a new hello)
  bool view_delta = false;  // version 2: requests carry what changed in the view ("view_delta")
  // Version 2, optional: the games the bot plays; none: it says nothing (it is given any game).
  std::optional<std::vector<GameSupport>> games;
};

// Whether a bot whose ready is `ready` plays `game` with `seats` seats: always when its ready
// lists no games; else an error that says what it lists ("does not play stella_quest with 3
// seats: it lists stellar (2 seats), stella_quest (any seats)"), an unsupported_game fault.
Status check_plays(const Ready& ready, std::string_view game, int seats);

struct ActionReply {
  std::int64_t id = 0;
  json action;
  std::string debug;  // cut to max_debug_bytes
  bool debug_cut = false;
};

// The message's "type" and "protocol" are checked first; errors read like
// "expected type \"ready\", got \"action\"" or "protocol 3 is not supported (this referee speaks 1 and 2)".
Result<Ready> read_ready(const json& message);
// `version`: the one the bot chose in its ready; an action must carry it.
Result<ActionReply> read_action(const json& message, std::int64_t expected_id, std::size_t max_debug_bytes,
                                int version = kVersion);

}  // namespace arena::protocol
