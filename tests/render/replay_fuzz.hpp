#pragma once
// Replay fuzzing, shared by the fuzz program (tests/bench/fuzz_replays.cpp, 100,000 cases) and
// its small deterministic test (test_replay_fuzz): real replays of every registered game, mutated
// (bytes flipped, fields of every line given other numbers and types, lines and fields dropped,
// duplicated and reordered, truncation, huge numbers, deep nesting, invalid UTF-8), then read the
// way `referee verify`, `show` and `html` read them, in-process.

#include <cstdint>
#include <string>
#include <vector>

#include "referee/core/enum_names.hpp"

namespace arena::fuzz {

// A replay in the file format, of a game played in-process by uniform random players (header,
// one version-2 step per decision with the view hash, a "finished" footer as match::play writes
// it), so every game of the registry has one.
std::string played_replay(const std::string& game, std::uint64_t seed);

// One mutation of `text`, chosen and applied from `seed`; `what` names it ("flip bytes", "field
// seat := -1e300" ...).
std::string mutate(const std::string& text, std::uint64_t seed, std::string& what);

// How reading a replay ended, as the exit class of the commands.
enum class Outcome {
  ok,        // verify: every step matches (exit 0)
  diverged,  // verify: the replay diverges (exit 4)
  bad,       // the replay is refused: cannot be read or re-simulated (exit 5)
  internal,  // an exception escaped (exit 3): the defect this fuzzing looks for
};

struct Reading {
  Outcome outcome = Outcome::ok;
  std::string message;  // the exception's text for `internal`
};

// Reads `text` as a replay through the code of `referee verify`, `referee show` (every seat's view
// and the whole table at the end) and, with `html`, `referee html`; the worst class of the three.
Reading read_like_the_cli(const std::string& text, bool html);

}  // namespace arena::fuzz

// An outcome as the fuzzer's report names it.
template <>
struct arena::EnumNames<arena::fuzz::Outcome> {
  using O = fuzz::Outcome;
  static constexpr auto table = name_table(O::ok, "ok (exit 0)", O::diverged, "diverged (exit 4)", O::bad,
                                           "bad replay (exit 5)", O::internal, "internal error (exit 3)");
};
