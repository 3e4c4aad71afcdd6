#pragma once
// The game interface the match, replay and league layers use: a type-erased game with JSON at
// the boundary. A game is written as free functions over plain values in its own namespace
// (stellar::new_game, legal_actions, apply, view, ...); GameAdapter (adapter.hpp) wraps such a
// namespace into these two classes, so every game plugs in the same way.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "referee/core/result.hpp"
#include "referee/core/rng.hpp"
#include "referee/core/seat.hpp"

namespace arena::games {

using nlohmann::json;

// One game in progress. Copyable through clone(); every query is pure.
class GameState {
 public:
  virtual ~GameState() = default;
  virtual std::unique_ptr<GameState> clone() const = 0;
  virtual bool equals(const GameState& other) const = 0;

  virtual int seats() const = 0;
  virtual bool is_over() const = 0;
  virtual Seat to_act() const = 0;  // only while !is_over()
  // The legal actions for to_act(), in the game's canonical order.
  virtual std::vector<json> legal_actions() const = 0;
  // Applies an action from outside: a parse error or an illegal action is an error value and
  // leaves the state unchanged.
  virtual Status apply(const json& action) = 0;
  // Applies the i-th legal action (fast path for built-in players and tests).
  virtual void apply_index(std::size_t i) = 0;
  virtual std::size_t legal_count() const = 0;

  virtual json view(Seat seat) const = 0;      // everything `seat` may see, nothing more
  virtual json outcome() const = 0;            // scores, winner, breakdown; only when over
  virtual std::vector<double> scores() const = 0;  // points per seat; only when over
  virtual json to_json() const = 0;            // the full state (never sent to a bot)
  virtual std::string describe() const = 0;    // the table and any score, as text for people
  virtual std::uint64_t hash() const = 0;      // stable across machines

  // Test support: redeal what `seat` cannot see; check the game's own invariants.
  virtual void redeal_unseen(Seat seat, Rng& rng) = 0;
  virtual Status check_invariants() const = 0;
};

struct GameInfo {
  std::string name;     // the --game name
  std::string title;    // for people
  int min_seats = 2;
  int max_seats = 2;
};

class Game {
 public:
  virtual ~Game() = default;
  virtual const GameInfo& info() const = 0;
  // Validates a config (null = defaults) and returns it in canonical form.
  virtual Result<json> normalize_config(const json& config) const = 0;
  virtual Result<std::unique_ptr<GameState>> new_game(const json& config, std::uint64_t seed,
                                                      int seats) const = 0;
  virtual Result<std::unique_ptr<GameState>> state_from_json(const json& state) const = 0;
};

// Every game the referee knows, in a fixed order.
const std::vector<const Game*>& all_games();
const Game* find_game(const std::string& name);

}  // namespace arena::games
