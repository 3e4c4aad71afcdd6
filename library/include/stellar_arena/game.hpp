#pragma once
// The rules of the referee's games as a library for bots (docs/library.md): the referee's own
// engines, behind a value type. Views are the JSON the protocol sends, byte for byte; hashes are
// the replay's hex strings. Every error (an unknown game, a refused configuration, an illegal
// action, a broken replay) is thrown as stellar_arena::Error with a message naming the problem.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace stellar_arena {

using json = nlohmann::json;

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The games this library knows, by the name the referee's --game takes.
std::vector<std::string> game_names();

class Game {
 public:
  // A new game: `config` as the referee's --config takes it (null: the defaults), one
  // configuration per seat or none (e.g. a deck list), `seats` 0 for the game's fewest.
  Game(const std::string& game, std::uint64_t seed, const json& config = nullptr,
       const std::vector<json>& seat_configs = {}, int seats = 0);
  // The game of a replay after its first `step` decisions (0: the state before the first).
  static Game from_replay(const std::filesystem::path& replay, std::size_t step);
  // Determinize from a request a bot received (its "seat", "view" and "legal"): a game that shows
  // the seat exactly that view, every card it cannot see and every chance to come drawn from
  // `seed`, its legal list the request's. `config` and `seat_configs` as the match's (the seat's
  // own as hello and its configuration gave them; Interstellar takes IS-Core's lists for a seat
  // without one). Stellar's views that name cards by id (protocol 2) are refused: ask for
  // protocol 1's; Interstellar reads both. A game that cannot rebuild a state from a view is an
  // Error saying so (docs/library.md lists the games that can).
  static Game from_request(const std::string& game, const json& request, std::uint64_t seed,
                           const json& config = nullptr, const std::vector<json>& seat_configs = {});

  Game(const Game& other);
  Game& operator=(const Game& other);
  Game(Game&&) noexcept;
  Game& operator=(Game&&) noexcept;
  ~Game();
  Game clone() const { return *this; }

  const std::string& name() const;
  int seats() const;
  const json& config() const;                     // normalised, as the replay's header has it
  const std::vector<json>& seat_configs() const;  // one per seat, normalised (null: none)

  bool is_over() const;
  std::optional<int> to_act() const;  // empty once the game is over
  // The legal actions of the seat to act, in the referee's order (the request's "legal").
  std::vector<json> legal_actions() const;
  std::size_t legal_count() const;
  // Applies an action of the seat to act; an action that is not legal now is an Error and
  // changes nothing.
  void apply(const json& action);
  void apply_index(std::size_t i);  // the i-th legal action

  // A seat's view as the referee sends it in a request of protocol version 1 or 2.
  json view(int seat, int protocol = 2) const;
  // The same as one line of text, byte for byte what the request holds.
  std::string view_text(int seat, int protocol = 2) const;
  // The protocol-2 card table the seat receives in hello (null for a game that sends none).
  json card_table(int seat) const;
  std::string view_hash(int seat) const;  // a replay step's "view_hash" for this seat now
  std::string state_hash() const;         // a replay step's "hash" (after its action)

  std::vector<double> scores() const;  // points per seat; only once over
  json outcome() const;                // the game's outcome (winner, breakdown); only once over

  // Random play to the end (uniform over the legal list, from `seed`); returns the scores.
  std::vector<double> rollout(std::uint64_t seed);
  // A state consistent with everything `seat` has seen, every card it cannot see and every
  // chance to come redrawn from `seed`. The seat's own view is unchanged.
  Game determinize(int seat, std::uint64_t seed) const;

 private:
  struct Impl;
  explicit Game(std::unique_ptr<Impl> impl);
  int seat_checked(int seat) const;
  std::unique_ptr<Impl> impl_;
};

}  // namespace stellar_arena
