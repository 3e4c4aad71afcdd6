#pragma once
// Plays seeded games in-process on the engine directly, no processes: play_game answers each
// decision with a given action or a uniformly random legal one; play_against_random plays a
// sample-bot policy in one seat against random play. The policy gets each request exactly as the referee builds it
// (protocol::request over the seat's view and legal actions), and its answer goes through GameState::apply, so an
// illegal answer fails the test.

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "referee/core/seat.hpp"
#include "referee/games/game.hpp"

namespace arena::testing {

// The action for `seat` at request `id` (counted from 1 over every seat's decisions), or null for a
// uniformly random legal one.
using Decide = std::function<nlohmann::json(const games::GameState& state, Seat seat, std::int64_t id)>;

// Plays one seeded game of `game` to the end (REQUIREs the game and its creation; an action the
// game refuses fails the test, naming `label`, the seed, the action and the reason). The random
// choices come from derive_seed(seed, 1). Returns the final state.
std::unique_ptr<games::GameState> play_game(const std::string& game, const nlohmann::json& config,
                                            const std::vector<nlohmann::json>& seat_configs, std::uint64_t seed,
                                            int seats, const Decide& decide, const std::string& label);

// One seeded game of `game` with `seats` seats; `decide` answers for `policy_seat`, random legal
// actions for the others. Returns the final scores per seat; `outcome`, when given, gets the
// game's outcome (GameState::outcome: how it ended, per-seat details).
std::vector<double> play_against_random(const std::string& game, std::uint64_t seed, int seats, Seat policy_seat,
                                        const std::function<nlohmann::json(const nlohmann::json& request)>& decide,
                                        nlohmann::json* outcome = nullptr);

// A policy's record against random play in two-seat games: games, wins, draws (not won) and its
// score minus the opponent's, summed.
struct HeadToHead {
  int games = 0;
  int wins = 0;
  int draws = 0;
  double margin = 0;
  // Adds one game's final scores with the policy in `seat`; whether it won.
  bool add(const std::vector<double>& scores, Seat seat);
  HeadToHead& operator+=(const HeadToHead& other);
  double win_rate() const { return static_cast<double>(wins) / games; }
};

// `deals` two-seat deals with the seeds derive_seed(base, deal), each played twice by
// `play(seed, seat)`: the policy in seat 0, then in seat 1.
void play_deals(int deals, std::uint64_t base, const std::function<void(std::uint64_t seed, Seat seat)>& play);

}  // namespace arena::testing
