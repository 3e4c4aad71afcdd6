#pragma once
// The coordinator's check of what a worker reported, before anything counts: every leg's replay
// re-simulated (replay::verify: the rules, every state hash and view, the footer's result field
// by field) and compared with what the match was (game, configuration, seed, the versions in each
// seat of that leg, the number of legs) and with the result the worker reported beside it. A
// worker can lie only about what no re-simulation can see (how long a bot took, whether it
// crashed); it cannot make a bot play moves it did not have, win a game it lost, or move a result
// to another match.

#include <map>
#include <string>
#include <vector>

#include "referee/ladder/config.hpp"
#include "referee/ladder/store.hpp"

namespace arena::ladder {

// Empty when the legs are exactly what match `m` should have produced; otherwise why not, naming
// the leg and the field. `labels`: each version's name in replays (version_label).
std::string audit_report(const MatchRow& m, const std::vector<LegReport>& legs, const LadderConfig& config,
                         const std::map<Id, std::string>& labels);

}  // namespace arena::ladder
