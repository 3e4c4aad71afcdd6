#include "tests/sample_bots/in_process.hpp"

#include <catch2/catch.hpp>

#include "protocol/codec.hpp"
#include "referee/core/rng.hpp"
#include "referee/games/game.hpp"

namespace arena::testing {

using nlohmann::json;

std::vector<double> play_against_random(const std::string& game_name, std::uint64_t seed, int seats, Seat policy_seat,
                                        const std::function<json(const json& request)>& decide, json* outcome) {
  const games::Game* game = games::find_game(game_name);
  REQUIRE(game != nullptr);
  auto created = game->new_game(json(nullptr), seed, seats);
  REQUIRE(created.ok());
  games::GameState& state = **created;
  Rng chooser(derive_seed(seed, 1));
  std::int64_t id = 0;
  while (!state.is_over()) {
    const Seat seat = state.to_act();
    ++id;
    if (seat != policy_seat) {
      state.apply_index(static_cast<std::size_t>(chooser.below(state.legal_count())));
      continue;
    }
    // protocol::request builds the message; the view and the legal list are moved in afterwards
    // rather than copied (a view is large, and these tests must stay fast under sanitizers).
    json request = protocol::request(id, seat, nullptr, nullptr, 1000, 0);
    request["view"] = state.view(seat);
    request["legal"] = state.legal_actions();
    const json action = decide(request);
    if (auto st = state.apply(action); !st) {
      FAIL("the policy chose " << action.dump() << " (" << st.error() << ") in " << game_name << " game " << seed);
    }
  }
  if (outcome != nullptr) *outcome = state.outcome();
  return state.scores();
}

}  // namespace arena::testing
