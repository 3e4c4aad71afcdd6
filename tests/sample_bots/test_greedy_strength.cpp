// The greedy sample bot's policy, called in-process on requests built exactly as the referee
// builds them (protocol::request over the engine's view and legal actions), must beat uniformly
// random play in at least 80% of games, over both seats. Draws count as not won.

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>

#include "referee/core/rng.hpp"
#include "sample_bots/cpp/greedy_policy.hpp"
#include "tests/sample_bots/in_process.hpp"

using namespace arena;
using nlohmann::json;

namespace {

// One seeded game: the greedy policy in `greedy_seat`, a uniformly random legal action in the
// other.
void play_one(std::uint64_t seed, Seat greedy_seat, testing::HeadToHead& tally) {
  tally.add(testing::play_against_random("stellar", seed, 2, greedy_seat,
                                         [](const json& request) { return greedy::choose(request); }),
            greedy_seat);
}

}  // namespace

TEST_CASE("the greedy policy beats random play in at least 80% of games, both seats", "[sample_bots]") {
  constexpr int kDeals = 200;  // each deal is played twice, greedy in seat 0 then in seat 1
  testing::HeadToHead seat[2];
  testing::play_deals(kDeals, 20240601, [&](std::uint64_t seed, Seat s) { play_one(seed, s, seat[s]); });
  testing::HeadToHead all = seat[0];
  all += seat[1];
  INFO("greedy won " << all.wins << " of " << all.games << " (seat 0: " << seat[0].wins << "/" << seat[0].games
                     << ", seat 1: " << seat[1].wins << "/" << seat[1].games << "), draws " << all.draws
                     << ", mean margin " << all.margin / all.games);
  CHECK(all.games >= 400);
  CHECK(all.win_rate() >= 0.80);
  WARN("greedy win rate " << all.win_rate() << " over " << all.games << " games");
}

TEST_CASE("the greedy policy falls back to a random legal action for other games", "[sample_bots]") {
  const json legal = json::array({{{"play", 1}}, {{"play", 2}}, {{"play", 3}}});
  // An unknown game, and a Stella Quest view the policy cannot read: both still get a legal answer.
  for (const char* game : {"some_other_game", "stella_quest"}) {
    const json request = {
        {"type", "request"}, {"protocol", 1},        {"id", 3},     {"seat", 0}, {"view", {{"game", game}}},
        {"legal", legal},    {"time_left_ms", 1000}, {"bank_ms", 0}};
    const greedy::Decision d = greedy::decide(request);
    CHECK(std::find(legal.begin(), legal.end(), d.action) != legal.end());
    CHECK(d.debug.rfind("random", 0) == 0);
  }
}
