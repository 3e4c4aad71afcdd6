// The greedy sample bot plays Interstellar with interstellar_policy.hpp. Called in-process on
// requests built exactly as the referee builds them (protocol::request over the engine's view
// and legal actions), against uniformly random play, with the default config (deck-out
// "literal_win", 80 turns), it must win at least 80% of 200 games: 100 deals, each played with
// greedy in seat 0 and then in seat 1. Draws count as not won. No timing is asserted.

#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "protocol/codec.hpp"
#include "referee/core/rng.hpp"
#include "referee/games/game.hpp"
#include "sample_bots/cpp/greedy_policy.hpp"
#include "tests/sample_bots/in_process.hpp"

using namespace arena;
using nlohmann::json;

namespace {

struct InterstellarTally : testing::HeadToHead {
  std::map<std::string, int> won_by;   // how greedy's wins ended: defeated, deckout, turn_cap
  std::map<std::string, int> lost_by;  // how its losses (and draws) ended
  long turns = 0;
};

// One seeded game: the greedy policy in `greedy_seat`, a uniformly random legal action in the
// other. Greedy must never fall back to its random answer here.
void play_interstellar(std::uint64_t seed, Seat greedy_seat, InterstellarTally& tally) {
  json outcome;
  const auto scores = testing::play_against_random(
      "interstellar", seed, 2, greedy_seat,
      [&](const json& request) {
        const greedy::Decision d = greedy::decide(request);
        if (d.debug.rfind("random", 0) == 0) FAIL("greedy fell back to random (" << d.debug << ") in game " << seed);
        return d.action;
      },
      &outcome);
  const std::string end = outcome.value("end", "?");
  tally.turns += outcome.value("turns", 0);
  ++(tally.add(scores, greedy_seat) ? tally.won_by : tally.lost_by)[end];
}

std::string ends(const std::map<std::string, int>& by) {
  std::ostringstream out;
  for (const auto& [end, n] : by) out << ' ' << end << ' ' << n;
  return out.str();
}

}  // namespace

TEST_CASE("greedy beats random play at Interstellar in at least 80% of games, both seats",
          "[sample_bots][interstellar]") {
  constexpr int kDeals = 100;  // each deal is played twice, greedy in seat 0 then in seat 1
  InterstellarTally seat[2];
  testing::play_deals(kDeals, 20261124, [&](std::uint64_t seed, Seat s) { play_interstellar(seed, s, seat[s]); });
  testing::HeadToHead all = seat[0];
  all += seat[1];
  const int games = all.games;
  const int wins = all.wins;
  const double rate = all.win_rate();
  std::map<std::string, int> won_by = seat[0].won_by, lost_by = seat[0].lost_by;
  for (const auto& [end, n] : seat[1].won_by) won_by[end] += n;
  for (const auto& [end, n] : seat[1].lost_by) lost_by[end] += n;
  INFO("greedy won " << wins << " of " << games << " (seat 0: " << seat[0].wins << "/" << seat[0].games << ", seat 1: "
                     << seat[1].wins << "/" << seat[1].games << "), draws " << seat[0].draws + seat[1].draws);
  CHECK(games == 2 * kDeals);
  CHECK(rate >= 0.80);
  WARN("interstellar: greedy won " << wins << " of " << games << " (" << 100.0 * rate << "%; seat 0 " << seat[0].wins
                                   << ", seat 1 " << seat[1].wins << "); won by" << ends(won_by) << "; lost or drawn by"
                                   << ends(lost_by) << "; mean length "
                                   << static_cast<double>(seat[0].turns + seat[1].turns) / games << " turns");
}

namespace {

// A request for the seat on turn in a main phase where it may play a card, reached by random
// play from a seeded deal (turn 3 or later).
json main_request_with_a_play(std::uint64_t seed) {
  const games::Game* game = games::find_game("interstellar");
  REQUIRE(game != nullptr);
  auto created = game->new_game(json(nullptr), seed, 2);
  REQUIRE(created.ok());
  games::GameState& state = **created;
  Rng chooser(derive_seed(seed, 1));
  while (!state.is_over()) {
    const Seat seat = state.to_act();
    const std::vector<json> legal = state.legal_actions();
    bool can_play = false;
    for (const json& a : legal) can_play = can_play || a.at("kind") == "play";
    json request = protocol::request(1, seat, state.view(seat), legal, 1000, 0);
    const json& view = request.at("view");
    if (view.at("phase") == "main" && view.at("turn").get<int>() >= 3 && can_play) return request;
    state.apply_index(static_cast<std::size_t>(chooser.below(state.legal_count())));
  }
  FAIL("no main-phase decision with a card to play in game " << seed);
  return nullptr;
}

}  // namespace

TEST_CASE("greedy ends the turn to win by deck-out, and plays a card first when it would lose",
          "[sample_bots][interstellar]") {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    json request = main_request_with_a_play(seed);
    json& view = request.at("view");
    const auto seat = view.at("seat").get<std::size_t>();
    // An empty Main deck, and no card played yet this turn.
    view.at("players").at(seat).at("main_deck") = 0;
    view.at("this_turn").at("played_card") = false;
    INFO("game " << seed << ": " << request.dump());
    view.at("config").at("deckout") = "literal_win";  // ending the turn now wins
    CHECK(greedy::choose(request).at("kind") == "end_turn");
    view.at("config").at("deckout") = "loss";  // ending the turn now loses: play a card first
    CHECK(greedy::choose(request).at("kind") == "play");
    // Once a card is played this turn, the deck-out rule no longer applies to it.
    view.at("config").at("deckout") = "literal_win";
    view.at("this_turn").at("played_card") = true;
    CHECK(greedy::decide(request).debug.rfind("random", 0) != 0);
  }
}
