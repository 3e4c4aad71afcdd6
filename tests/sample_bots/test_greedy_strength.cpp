// The greedy sample bot's policy, called in-process on requests built exactly as the referee
// builds them (protocol::request over the engine's view and legal actions), must beat uniformly
// random play in at least 80% of games, over both seats. Draws count as not won.

#include <algorithm>
#include <cstdint>
#include <string>

#include <catch2/catch.hpp>

#include "protocol/codec.hpp"
#include "referee/core/rng.hpp"
#include "referee/games/game.hpp"
#include "sample_bots/cpp/greedy_policy.hpp"

using namespace arena;
using nlohmann::json;

namespace {

struct Tally {
  int games = 0;
  int wins = 0;
  int draws = 0;
  double margin = 0;  // greedy's score minus the opponent's, summed
};

// One seeded game: the greedy policy in `greedy_seat`, a uniformly random legal action in the
// other. Every greedy answer goes through GameState::apply, so an illegal one fails the test.
void play_one(std::uint64_t seed, Seat greedy_seat, Tally& tally) {
  const games::Game* game = games::find_game("stellar");
  REQUIRE(game != nullptr);
  auto created = game->new_game(json(nullptr), seed, 2);
  REQUIRE(created.ok());
  games::GameState& state = **created;
  Rng chooser(derive_seed(seed, 1));
  std::int64_t id = 0;
  while (!state.is_over()) {
    const Seat seat = state.to_act();
    ++id;
    if (seat != greedy_seat) {
      state.apply_index(static_cast<std::size_t>(chooser.below(state.legal_count())));
      continue;
    }
    // protocol::request builds the message; the view and the legal list are moved in afterwards
    // rather than copied (a view is large, and this test must stay fast under sanitizers).
    json request = protocol::request(id, seat, nullptr, nullptr, 1000, 0);
    request["view"] = state.view(seat);
    request["legal"] = state.legal_actions();
    const json action = greedy::choose(request);
    if (auto st = state.apply(action); !st) {
      FAIL("greedy chose " << action.dump() << " (" << st.error() << ") in game " << seed);
    }
  }
  const auto scores = state.scores();
  const double mine = scores[static_cast<std::size_t>(greedy_seat)];
  const double theirs = scores[static_cast<std::size_t>(1 - greedy_seat)];
  ++tally.games;
  if (mine > theirs) ++tally.wins;
  if (mine == theirs) ++tally.draws;
  tally.margin += mine - theirs;
}

}  // namespace

TEST_CASE("the greedy policy beats random play in at least 80% of games, both seats", "[sample_bots]") {
  constexpr int kDeals = 200;  // each deal is played twice, greedy in seat 0 then in seat 1
  Tally seat[2];
  for (int deal = 0; deal < kDeals; ++deal) {
    const std::uint64_t seed = derive_seed(20240601, static_cast<std::uint64_t>(deal));
    for (Seat s = 0; s < 2; ++s) play_one(seed, s, seat[s]);
  }
  const int games = seat[0].games + seat[1].games;
  const int wins = seat[0].wins + seat[1].wins;
  const double rate = static_cast<double>(wins) / games;
  INFO("greedy won " << wins << " of " << games << " (seat 0: " << seat[0].wins << "/" << seat[0].games
                     << ", seat 1: " << seat[1].wins << "/" << seat[1].games << "), draws "
                     << seat[0].draws + seat[1].draws << ", mean margin " << (seat[0].margin + seat[1].margin) / games);
  CHECK(games >= 400);
  CHECK(rate >= 0.80);
  WARN("greedy win rate " << rate << " over " << games << " games");
}

TEST_CASE("the greedy policy falls back to a random legal action for other games", "[sample_bots]") {
  const json legal = json::array({{{"play", 1}}, {{"play", 2}}, {{"play", 3}}});
  // An unknown game, and a Stella Quest view the policy cannot read: both still get a legal answer.
  for (const char* game : {"some_other_game", "stella_quest"}) {
    const json request = {{"type", "request"}, {"protocol", 1}, {"id", 3}, {"seat", 0},
                          {"view", {{"game", game}}}, {"legal", legal},
                          {"time_left_ms", 1000}, {"bank_ms", 0}};
    const greedy::Decision d = greedy::decide(request);
    CHECK(std::find(legal.begin(), legal.end(), d.action) != legal.end());
    CHECK(d.debug.rfind("random", 0) == 0);
  }
}
