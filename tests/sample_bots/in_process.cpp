#include "tests/sample_bots/in_process.hpp"

#include <catch2/catch.hpp>

#include "protocol/codec.hpp"
#include "referee/core/rng.hpp"

namespace arena::testing {

using nlohmann::json;

std::unique_ptr<games::GameState> play_game(const std::string& game_name, const json& config,
                                            const std::vector<json>& seat_configs, std::uint64_t seed, int seats,
                                            const Decide& decide, const std::string& label) {
  const games::Game* game = games::find_game(game_name);
  REQUIRE(game != nullptr);
  auto created = game->new_game(config, seat_configs, seed, seats);
  REQUIRE(created.ok());
  std::unique_ptr<games::GameState> state = std::move(created).value();
  Rng chooser(derive_seed(seed, 1));
  std::int64_t id = 0;
  while (!state->is_over()) {
    const Seat seat = state->to_act();
    const json action = decide(*state, seat, ++id);
    if (action.is_null()) {
      state->apply_index(static_cast<std::size_t>(chooser.below(state->legal_count())));
    } else if (auto st = state->apply(action); !st) {
      FAIL(label << " game " << seed << ": " << action.dump() << " refused: " << st.error());
    }
  }
  return state;
}

std::vector<double> play_against_random(const std::string& game_name, std::uint64_t seed, int seats, Seat policy_seat,
                                        const std::function<json(const json& request)>& decide, json* outcome) {
  const auto state = play_game(
      game_name, nullptr, {}, seed, seats,
      [&](const games::GameState& s, Seat seat, std::int64_t id) -> json {
        if (seat != policy_seat) return nullptr;
        // protocol::request builds the message; the view and the legal list are moved in afterwards
        // rather than copied (a view is large, and these tests must stay fast under sanitizers).
        json request = protocol::request(id, seat, nullptr, nullptr, 1000, 0);
        request["view"] = s.view(seat);
        request["legal"] = s.legal_actions();
        return decide(request);
      },
      game_name + " (the policy)");
  if (outcome != nullptr) *outcome = state->outcome();
  return state->scores();
}

}  // namespace arena::testing
