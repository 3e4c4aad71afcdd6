#pragma once
// Countdown: the tiny game of the plug-in test (tests/games/plugin/README.md). A pile of 15-25
// stones (drawn from the seed); 2 or 3 seats in turn take 1 to `max_take` stones (config, default
// 3); whoever takes the last stone scores 1, the others 0. It is added to the referee exactly as
// docs/adding-a-game.md says, in the test tree, and has no drawing of its own: `show` and the web
// viewer draw it generically.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "referee/core/result.hpp"
#include "referee/core/rng.hpp"
#include "referee/core/seat.hpp"
#include "referee/games/adapter.hpp"

namespace arena::countdown {

inline constexpr int kMinSeats = 2;
inline constexpr int kMaxSeats = 3;

struct Config {
  int max_take = 3;  // 1-9
  bool operator==(const Config&) const = default;
};

struct Action {
  int take = 1;
  bool operator==(const Action&) const = default;
};

struct State {
  Config config;
  int seats = 2;
  int pile = 0;            // stones at the start
  int stones = 0;          // stones left
  int to_act = 0;          // the seat to take next
  int last = -1;           // the seat that took the last stone (the winner), -1 before
  std::vector<int> taken;  // stones taken per seat
  bool operator==(const State&) const = default;
};

Result<Config> config_from_json(const nlohmann::json& j);
nlohmann::json to_json(const Config& c);
State new_game(const Config& c, std::uint64_t seed, int seats);
bool is_over(const State& s);
void legal_actions(const State& s, std::vector<Action>& out);
void apply(State& s, const Action& a);
nlohmann::json to_json(const Action& a);
Result<Action> action_from_json(const nlohmann::json& j);
nlohmann::json view(const State& s, Seat seat);  // nothing is hidden: everyone sees the pile
nlohmann::json outcome_json(const State& s);
std::vector<double> scores(const State& s);
nlohmann::json to_json(const State& s);
Result<State> state_from_json(const nlohmann::json& j);
std::string describe(const State& s);
std::uint64_t hash(const State& s);
Status check_invariants(const State& s);

// The game for the registry: only what GameAdapter requires, no optional hook.
struct Traits {
  using State = countdown::State;
  using Action = countdown::Action;
  using Config = countdown::Config;

  static games::GameInfo info() { return {"countdown", "Countdown", kMinSeats, kMaxSeats, 1}; }
  static Result<Config> config_from_json(const nlohmann::json& j) { return countdown::config_from_json(j); }
  static nlohmann::json config_to_json(const Config& c) { return countdown::to_json(c); }
  static Result<State> new_game(const Config& c, std::uint64_t seed, int seats) {
    return countdown::new_game(c, seed, seats);
  }
  static int seats(const State& s) { return s.seats; }
  static bool is_over(const State& s) { return countdown::is_over(s); }
  static Seat to_act(const State& s) { return s.to_act; }
  static void legal_actions(const State& s, std::vector<Action>& out) { countdown::legal_actions(s, out); }
  static void apply(State& s, const Action& a) { countdown::apply(s, a); }
  static nlohmann::json action_to_json(const Action& a) { return countdown::to_json(a); }
  static Result<Action> action_from_json(const nlohmann::json& j) { return countdown::action_from_json(j); }
  static nlohmann::json view(const State& s, Seat seat) { return countdown::view(s, seat); }
  static nlohmann::json outcome_json(const State& s) { return countdown::outcome_json(s); }
  static std::vector<double> scores(const State& s) { return countdown::scores(s); }
  static nlohmann::json state_to_json(const State& s) { return countdown::to_json(s); }
  static Result<State> state_from_json(const nlohmann::json& j) { return countdown::state_from_json(j); }
  static std::string describe(const State& s) { return countdown::describe(s); }
  static std::uint64_t hash(const State& s) { return countdown::hash(s); }
  static void redeal_unseen(State&, Seat, Rng&) {}  // nothing is hidden
  static Status check_invariants(const State& s) { return countdown::check_invariants(s); }
};

}  // namespace arena::countdown
