#pragma once
// Helpers for the render tests: replays made in-process by random play (no bots), replays of real
// matches made by the referee binary, and running `referee show`.

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "referee/replay/replay.hpp"

namespace arena::testing {

// A finished replay of `seats` random players (uniform over the legal actions), as match::play
// would record it: header with the initial hash, one step per decision with the view sent and the
// hash after it, and a "finished" footer with the result a match would write (it verifies).
replay::Replay random_replay(const std::string& game, int seats, std::uint64_t seed);

// Writes a replay in the replay file format.
void write_replay(const replay::Replay& r, const std::filesystem::path& path);

// A fresh path in the test output folder.
std::filesystem::path out_path(const std::string& name);

// Plays a real match between bot processes in-process (match::play, as `referee play` does, with
// no sandbox): `bots` are command lines, one per seat. Returns the replay's path (the match may
// end with a fault).
std::filesystem::path play(const std::string& game, const std::vector<std::string>& bots, std::uint64_t seed,
                           const std::string& stem);

std::string referee();
std::string random_bot();
std::string greedy_bot();
std::string faulty_bot(const std::string& args);

struct Command {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};
// Runs `referee show` with these arguments (each shell-quoted) and NO_COLOR unset.
Command show(const std::vector<std::string>& args);

// Every line's width on a terminal, the widest first.
std::size_t widest_line(const std::string& text);

}  // namespace arena::testing
