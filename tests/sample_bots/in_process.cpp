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

bool HeadToHead::add(const std::vector<double>& scores, Seat seat) {
  const double mine = scores[static_cast<std::size_t>(seat)];
  const double theirs = scores[static_cast<std::size_t>(1 - seat)];
  ++games;
  if (mine > theirs) ++wins;
  if (mine == theirs) ++draws;
  margin += mine - theirs;
  return mine > theirs;
}

HeadToHead& HeadToHead::operator+=(const HeadToHead& other) {
  games += other.games;
  wins += other.wins;
  draws += other.draws;
  margin += other.margin;
  return *this;
}

void play_deals(int deals, std::uint64_t base, const std::function<void(std::uint64_t seed, Seat seat)>& play) {
  for (int deal = 0; deal < deals; ++deal) {
    const std::uint64_t seed = derive_seed(base, static_cast<std::uint64_t>(deal));
    for (Seat s = 0; s < 2; ++s) play(seed, s);
  }
}

}  // namespace arena::testing
