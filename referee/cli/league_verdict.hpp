#pragma once
// `referee league --fail-on CONDITION`: the verdicts of a finished league that a CI job fails on,
// each with its own exit code (docs/cli.md, docs/ci.md). Read once from the flags' text; checked
// against the standings the league wrote.

#include <optional>
#include <string>
#include <vector>

#include "referee/core/result.hpp"
#include "referee/league/standings.hpp"

namespace arena::cli {

struct FailOn {
  bool fault = false;               // "fault": a bot faulted (exit kBotFault)
  bool sprt_h0 = false;             // "sprt-h0": the SPRT accepted H0 (exit kSprtH0)
  std::optional<double> elo_below;  // "elo-below=X": the first bot's Elo below X (exit kEloBelow)
  bool any() const { return fault || sprt_h0 || elo_below.has_value(); }
};

// The --fail-on values, each "fault", "sprt-h0" or "elo-below=X" (X in -1000..1000); an error
// names the value and the accepted ones.
Result<FailOn> parse_fail_on(const std::vector<std::string>& values);

// The exit code of a finished league under `f`: the first condition that holds, in the order
// fault, sprt-h0, elo-below (kFinished when none does), with the sentence saying why ("" when
// none). `first_bot` is the league's first bot (the gauntlet's challenger, the SPRT's tested bot).
struct Verdict {
  int exit_code = 0;
  std::string reason;
};
Verdict league_verdict(const FailOn& f, const league::Standings& s, const std::string& first_bot);

}  // namespace arena::cli
