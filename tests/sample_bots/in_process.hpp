#pragma once
// Plays a sample-bot policy in-process against uniformly random play, on the engine directly:
// the policy gets each request exactly as the referee builds it (protocol::request over the
// seat's view and legal actions), and its answer goes through GameState::apply, so an illegal
// answer fails the test.

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "referee/core/seat.hpp"

namespace arena::testing {

// One seeded game of `game` with `seats` seats; `decide` answers for `policy_seat`, random legal
// actions for the others. Returns the final scores per seat; `outcome`, when given, gets the
// game's outcome (GameState::outcome: how it ended, per-seat details).
std::vector<double> play_against_random(const std::string& game, std::uint64_t seed, int seats, Seat policy_seat,
                                        const std::function<nlohmann::json(const nlohmann::json& request)>& decide,
                                        nlohmann::json* outcome = nullptr);

}  // namespace arena::testing
