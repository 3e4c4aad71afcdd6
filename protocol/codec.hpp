#pragma once
// Protocol v1: one JSON object per line, UTF-8, each with a "type" and "protocol": 1.
// This is the codec: it builds the referee's messages and reads the bot's, turning anything
// unexpected into an error value (never an exception that escapes). docs/protocol.md describes
// the messages; protocol/schema/ has one JSON Schema per message.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "referee/core/result.hpp"

namespace arena::protocol {

using nlohmann::json;

inline constexpr int kVersion = 1;

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

json hello(const std::string& game, int seat, int seats, const json& config, const Limits& limits);
json request(std::int64_t id, int seat, const json& view, const json& legal, std::int64_t time_left_ms,
             std::int64_t bank_ms);
json game_over(const json& result);
// request() as one line, from a view and a legal list already serialised with to_line: the match
// serialises each view once and shares the text with the replay. Byte for byte the same line as
// to_line(request(...)).
std::string request_line(std::int64_t id, int seat, std::string_view view_line, std::string_view legal_line,
                         std::int64_t time_left_ms, std::int64_t bank_ms);

// ---- bot -> referee ----------------------------------------------------------------------

struct Ready {
  std::string name;
  std::string version;  // may be empty
};

struct ActionReply {
  std::int64_t id = 0;
  json action;
  std::string debug;  // cut to max_debug_bytes
  bool debug_cut = false;
};

// The message's "type" and "protocol" are checked first; errors read like
// "expected type \"ready\", got \"action\"" or "protocol 2 is not supported (this referee speaks 1)".
Result<Ready> read_ready(const json& message);
Result<ActionReply> read_action(const json& message, std::int64_t expected_id, std::size_t max_debug_bytes);

}  // namespace arena::protocol
