#pragma once
// The checks of `referee validate` (docs/validate.md): the handshake on its own (the probe is the
// ladder check's, ladder::probe_handshake), and one match of the bot under test in one seat
// against an opponent in every other seat, with its faults (and the request each answered,
// rebuilt from the replay), decision times, stderr volume, the sandbox tier every seat actually
// had, and the replay verified. validate_cmd.cpp runs them in turn; validate_report.cpp prints
// what they found.

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "protocol/codec.hpp"
#include "referee/bots/sandbox.hpp"
#include "referee/cli/validate_cmd.hpp"
#include "referee/core/result.hpp"
#include "referee/games/game.hpp"

namespace arena::cli::validate {

inline constexpr std::size_t kStderrTailLines = 20;
inline constexpr std::uint64_t kStderrCap = 1 << 20;  // per seat and match, as `referee play`

// What every check of one run shares.
struct Setup {
  const ValidateArgs& args;
  const games::Game& game;
  nlohmann::json config;    // normalised
  int seats = 2;            // of the match being played (the handshake: the first seat count)
  protocol::Limits limits;  // as given; the match scales them
  protocol::Limits scaled;  // as enforced
  std::filesystem::path out;
  std::filesystem::path referee;  // this executable, for the re-run commands
  std::vector<std::string> env;
  bots::SandboxPolicy sandbox{bots::Tier::none, {}, false};
  match::BotCommand bot;                     // the bot under test (args.bot, parsed once)
  std::vector<match::BotCommand> opponents;  // --opponent, or the sample bots
};

// What the matches add up to, over the whole run.
struct Tally {
  std::vector<double> times;  // the bot's decisions, ms
  std::uint64_t stderr_total = 0;
  std::uint64_t stderr_max = 0;
  std::size_t verified = 0;
  std::size_t diverged = 0;
  nlohmann::json faults = nlohmann::json::array();
  nlohmann::json opponent_faults = nlohmann::json::array();
  // The sandbox tier each seat of each match had, as its replay header records it (sandbox.seats[i].tier):
  // a count per tier name, for every seat and for the bot's own seat.
  std::map<std::string, std::size_t> seat_tiers;
  std::map<std::string, std::size_t> bot_tiers;
  bool interrupted = false;
  std::vector<std::filesystem::path> written;  // the matches' replays, logs and fault inputs (--share-output)
};

// Starts the bot alone as seat 0 of a `s.seats`-seat game, sends the hello, times the ready
// line, then closes its input and gives it the usual grace to exit: the handshake's JSON report.
nlohmann::json probe_handshake(const Setup& s);

// Plays one match with the bot at `seat` and `opponent` in every other seat of `s.seats`; records
// it in `t` and returns the match's JSON report. An error: the opponent cannot be started, or the
// match could not be set up.
Result<nlohmann::json> play_one(const Setup& s, const match::BotCommand& opponent, int seat, std::uint64_t seed,
                                const std::string& stem, Tally& t);

}  // namespace arena::cli::validate
