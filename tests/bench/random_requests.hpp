#pragma once
// The request lines of a whole random game, as the referee writes them (GameState::write_view_v2,
// write_legal, protocol::request_line): for bench_referee's request sizes and the sample bots'
// cheap-reader test. Header-only, over the referee's games and protocol libraries.

#include <cstdint>
#include <string>

#include "protocol/codec.hpp"
#include "referee/core/rng.hpp"
#include "referee/games/game.hpp"

namespace arena::testing {

// Plays one game of `game` (its defaults, its fewest seats, deal `seed`) with uniformly random
// actions, calling `on_request(line, state, seat, id)` with the protocol-`version` request line of
// every decision before it is played (version 1's view is the JSON view, dumped).
template <typename OnRequest>
void random_game_requests(const games::Game& game, std::uint64_t seed, int version, OnRequest&& on_request) {
  auto state = std::move(game.new_game(nullptr, seed, game.info().min_seats)).value();
  Rng chooser(seed + 1);
  std::string view, legal;
  for (std::int64_t id = 1; !state->is_over(); ++id) {
    const Seat seat = state->to_act();
    view.clear();
    legal.clear();
    if (version == 2) {
      state->write_view_v2(seat, view);
    } else {
      view = games::dump_line(state->view(seat));
    }
    state->write_legal(legal);
    on_request(protocol::request_line(version, id, seat, view, legal, 1000, 0), *state, seat, id);
    state->apply_index(chooser.below(state->legal_count()));
  }
}

}  // namespace arena::testing
