#pragma once
// The game interface every other layer uses: a type-erased game with JSON at the boundary. A game
// is a folder, referee/games/<game>/: its rules written as free functions over plain values in
// its own namespace (stellar::new_game, legal_actions, apply, view, ...), its drawing for people
// (terminal.cpp, web/viewer.js, web/viewer.css) and its CMakeLists.txt. GameAdapter (adapter.hpp)
// wraps such a namespace into these two classes, and registry.cpp lists the games: match, replay,
// league, render and the CLI reach a game only through here and never name one
// (docs/adding-a-game.md).

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "referee/core/result.hpp"
#include "referee/core/rng.hpp"
#include "referee/core/seat.hpp"
#include "referee/games/draw.hpp"

namespace arena::games {

using nlohmann::json;

// JSON as one line, the way protocol::to_line writes it (invalid UTF-8 replaced): the form of
// every line a bot receives.
inline std::string dump_line(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

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

  virtual json view(Seat seat) const = 0;  // everything `seat` may see, nothing more (protocol 1)
  // The same view in protocol 2's form (docs/protocol.md): cards named by id, with "cards" for
  // ids the seat's card table lacks. A game without a card table returns view(seat).
  virtual json view_v2(Seat seat) const = 0;
  // The hot path (one request per decision): view_v2(seat) and legal_actions() written straight
  // from the state as one line of JSON text each, appended to `out`; byte for byte
  // protocol::to_line of the JSON forms (the tests compare).
  virtual void write_view_v2(Seat seat, std::string& out) const = 0;
  virtual void write_legal(std::string& out) const = 0;
  virtual json outcome() const = 0;                // scores, winner, breakdown; only when over
  virtual std::vector<double> scores() const = 0;  // points per seat; only when over
  virtual json to_json() const = 0;                // the full state (never sent to a bot)
  virtual std::string describe() const = 0;        // the table and any score, as text for people
  virtual std::uint64_t hash() const = 0;          // stable across machines
  // For spectators (the web viewer's running score): the match so far as the rules see it, or
  // null (the default) for a game that says nothing mid-game: {"scores": [points per seat so
  // far], "outcome": the breakdown in outcome()'s form} and any of the game's own notes.
  virtual json progress() const { return nullptr; }

  // Test support: redeal what `seat` cannot see; check the game's own invariants.
  virtual void redeal_unseen(Seat seat, Rng& rng) = 0;
  virtual Status check_invariants() const = 0;
  // The chance to come (shuffles, dice) drawn afresh from `seed`; with redeal_unseen, a state
  // that knows no more than what a seat saw (the rules library's determinize, library/). The
  // adapter redraws a State's Rng member `rng`; a game keeping its chance elsewhere keeps it.
  virtual void reseed_chance(std::uint64_t seed) = 0;
};

struct GameInfo {
  std::string name;   // the --game name
  std::string title;  // for people
  int min_seats = 2;
  int max_seats = 2;
  // Which rules a replay was played under. It moves with every change that makes an old replay
  // re-simulate differently (a rules fix, a new shuffle); `verify` refuses another revision.
  int rules_revision = 1;
};

// A game's page module for the web viewer (games/<game>/web/, embedded at build time): a script
// that registers the game's drawing with the viewer, and its style sheet. Empty: the viewer draws
// the game with its generic drawing of views and actions.
struct WebModule {
  std::string script;
  std::string style;
};

class Game {
 public:
  virtual ~Game() = default;
  virtual const GameInfo& info() const = 0;
  // Validates a config (null = defaults) and returns it in canonical form.
  virtual Result<json> normalize_config(const json& config) const = 0;
  // Validates one seat's own configuration (e.g. its deck list; null = none) and returns it in
  // canonical form. A game without per-seat configuration refuses anything but null.
  virtual Result<json> normalize_seat_config(const json& seat_config) const = 0;
  // A new game. `seat_configs` holds one entry per seat (null = none) or is empty (none at all);
  // an error about a seat's configuration starts with "seat N: ".
  virtual Result<std::unique_ptr<GameState>> new_game(const json& config, const std::vector<json>& seat_configs,
                                                      std::uint64_t seed, int seats) const = 0;
  Result<std::unique_ptr<GameState>> new_game(const json& config, std::uint64_t seed, int seats) const {
    return new_game(config, {}, seed, seats);
  }
  virtual Result<std::unique_ptr<GameState>> state_from_json(const json& state) const = 0;
  // A state that shows `seat` exactly `view` (view()'s form, protocol 1; view_v2()'s too for a
  // game whose rebuild reads it, as Interstellar's does), every card the seat
  // cannot identify and the chance to come drawn from `seed` (the rules library's determinize
  // from a request, library/); `config` and `seat_configs` are the match's as new_game takes them
  // (a game may need them: Interstellar's deck lists). An error for a view no state shows. The
  // default (game.cpp): a game that cannot rebuild a state from a view says so.
  virtual Result<std::unique_ptr<GameState>> state_from_view(const json& view, Seat seat, const json& config,
                                                             const std::vector<json>& seat_configs,
                                                             std::uint64_t seed) const;

  // ---- Drawing for people. Each has a generic default (game.cpp), so a game without a drawing
  // is shown, never refused and never drawn as another game.

  // Every card of a match by id (an array, element i the card with id i; null: the game has
  // none). Protocol 2 sends it in hello, cards with an "owner" only to that seat
  // (protocol::seat_card_table), and the drawings use it to name cards.
  virtual json card_table(const json& config, const std::vector<json>& seat_configs) const;
  // The table protocol 2 sends in hello: card_table() for a game whose protocol-2 views name
  // cards by id, null for one whose views are the same in both versions (cards named by face).
  virtual json protocol_card_table(const json& config, const std::vector<json>& seat_configs) const = 0;
  // The whole table made of every seat's view at one moment (one per seat, in seat order), in
  // the game's view format, so that draw_table() can draw it; the default is
  // {"views": [view, ...]}. A merge of views can never show more than the seats saw together.
  virtual json whole_table(const std::vector<json>& views) const;
  // The table as text. `table` is a seat's own view, or whole_table()'s merge; a seat's drawing
  // is made from its view alone, so it can never show more than that view holds.
  virtual std::string draw_table(const json& table, const draw::SeatNames& names, const draw::Style& style) const;
  // An action in words, from the acting seat's own view just before it ("takes Moon 3 from row
  // slot 2").
  virtual std::string describe_action(const json& before, const json& action) const;
  // The outcome (scores, winner, breakdown per seat) as text; `cards` is card_table()'s.
  virtual std::string draw_outcome(const json& outcome, const json& cards, const draw::SeatNames& names,
                                   const draw::Style& style) const;
  // A seat's own configuration (normalize_seat_config's form, never null) in a few words for
  // people, e.g. a summary of a deck list; the default is the JSON on one line, shortened.
  virtual std::string describe_seat_config(const json& seat_config) const;
  // The web viewer's module for this game.
  virtual WebModule web_module() const;
};

// The whole table of games whose views carry a "players" array (one entry per seat, a seat's own
// entry complete in its own view): each seat's entry from its own view, the rest from seat 0's,
// "seat" null. For GameAdapter traits that share this convention.
json merge_player_views(const std::vector<json>& views);

// A card table (Game::card_table) as one seat may receive it: the entries of cards owned by
// another seat (a seat's own deck list) are null, so that the table stays indexed by id.
json seat_card_table(const json& table, Seat seat);

// The referee's own games, in a fixed order (registry.cpp, in arena_games: the one list of games).
const std::vector<const Game*>& referee_games();
// Every game this program knows: referee_games() in the referee (all_games.cpp, arena_registry);
// another registry may add games after them (tests/games/plugin/registry.cpp).
const std::vector<const Game*>& all_games();
const Game* find_game(const std::string& name);
// The game a command plays when none is named: the registry's first.
std::string default_game_name();
// "stellar, stella_quest": the names, for messages.
std::string game_names();

}  // namespace arena::games
