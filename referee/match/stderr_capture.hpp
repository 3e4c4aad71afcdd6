#pragma once
// What a bot wrote on stderr during one decision, as its replay step records it: from the end of
// its previous decision (its first: the end of the handshake) to the moment its reply was read
// (BotProcess::stderr_since_last), as lines, capped.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "referee/replay/replay.hpp"

namespace arena::bots {
class BotProcess;
}

namespace arena::match {

inline constexpr std::size_t kStderrStepBytes = 2048;  // recorded per decision, at most
inline constexpr std::size_t kStderrStepLines = 20;

struct DecisionStderr {
  std::vector<std::string> lines;  // valid UTF-8, without their line ends
  std::uint64_t cut = 0;           // bytes the bot wrote that are not in `lines`
};

// `head` (the first bytes of what the bot wrote) as lines, of `total` bytes written: split at
// '\n' (a '\r' before it dropped, a last line without '\n' kept), bytes that are not valid UTF-8
// replaced by U+FFFD, at most `max_lines` lines and `max_bytes` bytes of text in all (a line is
// cut on a character boundary). `cut` counts the bytes left out, those beyond `head` included.
DecisionStderr stderr_lines(std::string_view head, std::uint64_t total, std::size_t max_bytes = kStderrStepBytes,
                            std::size_t max_lines = kStderrStepLines);

// What `bot` wrote since the previous call (stderr_lines of it), into the step's stderr_lines and
// stderr_cut: nothing is read from the log file, nothing waits for the bot, and a bot that wrote
// nothing costs one non-blocking read.
void take_decision_stderr(bots::BotProcess& bot, replay::Step& step);

}  // namespace arena::match
