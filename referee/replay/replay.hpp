#pragma once
// Replays: JSON lines. A header (versions, game, config, seed, bots, limits, the sandbox in
// force), one line per decision (seat, request id, action, wall and CPU time, state hash after the
// action, a hash of the view that seat was sent, debug text, the lines the bot wrote on stderr
// during the decision), and a footer (result, how the match
// ended). The writer flushes every line, so a killed referee leaves a readable prefix. verify()
// re-simulates a replay from its header and actions alone and reports the first divergence.
//
// Version 2 (written now) records each view as a hash of its protocol-2 text, a few bytes instead
// of kilobytes: the views themselves are a function of the state, re-simulated by verify, show
// and html. Version 1 replays (the whole view in each step) are still read and verified.

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "referee/core/result.hpp"
#include "referee/core/seat.hpp"
#include "referee/games/game.hpp"
#include "referee/replay/result.hpp"

namespace arena::replay {

using nlohmann::json;

inline constexpr int kReplayVersion = 2;        // what the writer writes
inline constexpr int kOldestReplayVersion = 1;  // the oldest the reader reads

struct BotInfo {
  std::string name;         // from --name, else the bot's ready message
  std::string version;      // from the ready message (may be empty)
  std::string command;      // the command line as given
  json seat_config;         // the seat's own configuration (normalised; null = none)
  int protocol = 1;         // the protocol version the bot chose in its ready (1 when it never did)
  bool view_delta = false;  // its ready chose view deltas (protocol 2; written only when true)
};

struct Header {
  int protocol = 1;             // the highest protocol version the referee offered; each bot's is in `bots`
  std::string referee_version;  // of the referee that played it ("" in replays older than 0.1)
  std::string game;
  int rules_revision = 1;  // the game's rules revision it was played under (absent = 1)
  json config;             // normalised
  std::uint64_t seed = 0;
  int seats = 2;
  std::vector<BotInfo> bots;
  json limits;                  // as sent in hello (scaled)
  std::string initial_hash;     // hash of the state before the first decision
  std::string started;          // UTC, ISO 8601
  json extra = json::object();  // e.g. the sandbox policy in force
};

struct Step {
  std::int64_t n = 0;  // 0-based decision index
  Seat seat = 0;
  std::int64_t request_id = 0;
  json action;
  double time_ms = 0;
  double cpu_ms = -1;     // the bot's CPU time for this decision; negative: not measured
  std::string hash;       // state after the action
  std::string view_hash;  // version 2: hash_hex(stable_hash(the seat's protocol-2 view text))
  json view;              // version 1: the view the seat was sent (null in version 2)
  std::string debug;
  // What the bot wrote on stderr during this decision (JSON "stderr", absent when nothing): its
  // lines, capped (match/stderr_capture.hpp), and the bytes left out (JSON "stderr_cut").
  std::vector<std::string> stderr_lines;
  std::uint64_t stderr_cut = 0;
};

// The last line. `result` is the JSON as the file holds it: what it says is only taken, typed,
// from verify() (Verification::result), which re-derives every field.
struct Footer {
  End end = End::finished;
  json result;
};

// The seat configurations of a header, one per seat (null = none), as Game::new_game takes them.
std::vector<json> seat_configs(const Header& h);

json to_json(const Header& h);
json to_json(const Step& s);
json to_json(const Footer& f);

class Writer {
 public:
  static Result<Writer> open(const std::filesystem::path& path);
  Status write(const json& line);  // one line, flushed
  // A step, written as text without a JSON tree (the decision loop's path): byte for byte the
  // dump of to_json(s). Not flushed: the stream writes when its buffer is full and at the next
  // write() (the footer), a system call every few dozen steps instead of one per decision; a
  // referee killed mid-match leaves the steps of its last buffer unwritten (the match is not
  // finished either way: no footer).
  Status write_step(const Step& s);
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  std::unique_ptr<std::ostream> out_;
  std::string scratch_;  // the step line being written, reused
};

struct Replay {
  Header header;
  std::vector<Step> steps;
  std::optional<Footer> footer;  // absent when the referee was killed mid-match
};

// Reads a replay; an error names the line and the problem (every field's type and range is
// checked: a forged or damaged replay is an error, never an exception). A missing footer is not
// an error. read() opens the file without following a link and refuses anything but a regular
// file of at most files::kMaxReadBytes (docs/security.md, "Files from strangers").
Result<Replay> read(const std::filesystem::path& path);
Result<Replay> parse(std::istream& in);
Result<Replay> parse_text(const std::string& text);

// The game of a header and its state before the first decision; an error when the game is
// unknown, the replay was played under another rules revision, or the header's configuration is
// refused. The initial hash is not checked here.
Result<std::unique_ptr<games::GameState>> initial_state(const Header& h);

struct Verification {
  bool ok = false;
  // On failure, whether the replay could be re-simulated at all: false for a game this referee
  // does not know, another rules revision of it, or a header configuration it refuses.
  bool simulable = true;
  std::size_t steps_checked = 0;
  std::string message;                // on failure: the first divergence, precisely, or why it cannot be re-simulated
  std::optional<FinalResult> result;  // on success: the footer's result, typed, every field checked
};

// Re-simulates from the header and the actions alone (no bots): checks the rules revision, the
// initial hash, for each step its number and request id, that the seat was the one to act, the
// view it was sent, the action's legality and the state hash after it; then every field of the
// footer's result: how it ended, the scores, outcome, ranks and winner (rank_seats), the fault
// (seat, kind, phase and request against the steps), the game, seed and config against the
// header, each seat's bot (name, version, command, protocol) against the header and its decisions
// against the steps, and the fields it cannot re-derive (times, stderr sizes, messages) for their
// types and ranges; an unknown field is refused. The message names the field that differs.
Verification verify(const Replay& replay);

}  // namespace arena::replay
