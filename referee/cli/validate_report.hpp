#pragma once
// The report of `referee validate` for people (stderr) and the figures it shares with the JSON
// report: names of bots and words for a shell, each fault with its request and stderr, decision
// times, stderr volume, the sandbox tiers in force, and the verdict (docs/validate.md). What a bot
// chose (its name and version, fault messages that quote it, its bytes, its stderr) is printed
// through terminal_safe; the commands to paste are printed as given.

#include <fmt/format.h>

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "referee/cli/validate_checks.hpp"

namespace arena::cli::validate {

using match::shell_quote;

// "random_bot" for ".../random_bot", "bot.py" for "python3 bot.py": for people and file names.
std::string label_of(const match::BotCommand& command);
// The label of the opponent a report entry (a group, a match, a fault) names by its command, from
// the run's parsed opponents; "?" for none.
std::string opponent_label(const Setup& s, const nlohmann::json& entry);

// "1 game", "3 games".
std::string plural(std::size_t n, const char* word);

// "2 seats", "2 and 3 seats", "2, 3 and 4 seats".
std::string seat_counts_text(const std::vector<int>& counts);

// One fault of the bot (numbered from 1): where, what, its reply, the request, its stderr, and
// the commands that reproduce it.
void print_fault(std::size_t n, const nlohmann::json& fault, const Setup& s);

// The decision times of the bot (sorted in place): count, median, p99 (nearest rank), max, limit.
nlohmann::json timing_json(std::vector<double>& times, std::int64_t limit_ms);

// The sandbox part of the JSON report: the tier asked for (`asked`, null when empty: the strictest
// available), the tier it resolved to (`policy`), the tier the handshake's bot had, and the tier
// each seat of each match actually had (`seat_tiers`, and of the bot's own seat `bot_tiers`: a
// count per tier); `as_asked` when every one of them is the policy's.
nlohmann::json sandbox_json(const std::string& asked, const Setup& s, const Tally& t,
                            const nlohmann::json& handshake_tier);

// Everything after the per-opponent lines: faults, opponents' faults, decision times, stderr,
// the sandbox in force, the replays; from the report's `timing`, `stderr`, `sandbox` and `matches`.
void print_summary(const nlohmann::json& report, const Tally& t, const Setup& s);

}  // namespace arena::cli::validate
