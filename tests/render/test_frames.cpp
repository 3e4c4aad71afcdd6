// render::simulate on replays made in-process by random play: one frame per decision plus the
// deal, each equal to the recorded hashes, seats and views; errors name the step.

#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "referee/core/hash.hpp"
#include "referee/games/game.hpp"
#include "referee/render/frames.hpp"
#include "referee/render/terminal.hpp"
#include "tests/render/helpers.hpp"

using namespace arena;
using Catch::Contains;
using nlohmann::json;

namespace {

std::string state_hash(const std::string& game, const json& state) {
  auto s = games::find_game(game)->state_from_json(state);
  REQUIRE(s.ok());
  return hash_hex((*s)->hash());
}

}  // namespace

TEST_CASE("simulate gives one frame per decision plus the deal, equal to the replay", "[render][frames]") {
  const auto [game, seats] =
      GENERATE(std::make_pair(std::string("stellar"), 2), std::make_pair(std::string("stella_quest"), 2),
               std::make_pair(std::string("stella_quest"), 3), std::make_pair(std::string("stella_quest"), 4));
  const std::uint64_t seed = GENERATE(std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{3});
  CAPTURE(game, seats, seed);
  const replay::Replay r = testing::random_replay(game, seats, seed);
  REQUIRE(replay::verify(r).ok);  // the in-process replay is a valid one
  REQUIRE(r.steps.size() > 3);

  auto frames = render::simulate(r);
  REQUIRE(frames.ok());
  REQUIRE(frames->size() == r.steps.size() + 1);
  CHECK(state_hash(game, frames->front().state) == r.header.initial_hash);
  for (std::size_t i = 0; i < frames->size(); ++i) {
    const render::Frame& f = (*frames)[i];
    CAPTURE(i);
    CHECK(f.step == static_cast<std::int64_t>(i));
    REQUIRE(f.views.size() == static_cast<std::size_t>(seats));
    for (int s = 0; s < seats; ++s) CHECK(f.views[static_cast<std::size_t>(s)].at("seat") == s);
    if (i > 0) CHECK(state_hash(game, f.state) == r.steps[i - 1].hash);
    if (i < r.steps.size()) {
      CHECK(f.to_act == r.steps[i].seat);
      if (!r.steps[i].view.is_null()) CHECK(f.views[static_cast<std::size_t>(f.to_act)] == r.steps[i].view);
    }
  }
  CHECK(frames->back().to_act == -1);
}

TEST_CASE("simulate refuses a replay it cannot re-simulate and names the step", "[render][frames]") {
  const replay::Replay good = testing::random_replay("stellar", 2, 9);

  SECTION("an unknown game") {
    auto r = good;
    r.header.game = "chess";
    auto f = render::simulate(r);
    REQUIRE_FALSE(f.ok());
    CHECK_THAT(f.error(), Contains("unknown game \"chess\""));
    CHECK_THAT(f.error(), Contains("stellar"));
  }
  SECTION("a refused config") {
    auto r = good;
    r.header.config = {{"facedown_step3", "sideways"}};
    auto f = render::simulate(r);
    REQUIRE_FALSE(f.ok());
    CHECK_THAT(f.error(), Contains("configuration is refused"));
    CHECK_THAT(f.error(), Contains("facedown_step3"));
  }
  SECTION("a refused action") {
    auto r = good;
    r.steps[5].action = {{"kind", "take"}, {"slot", 9}};
    auto f = render::simulate(r);
    REQUIRE_FALSE(f.ok());
    CHECK_THAT(f.error(), Contains("step 5 (request 6)"));
    CHECK_THAT(f.error(), Contains("is refused"));
  }
  SECTION("a step for the wrong seat") {
    auto r = good;
    r.steps[3].seat = 1 - r.steps[3].seat;
    auto f = render::simulate(r);
    REQUIRE_FALSE(f.ok());
    CHECK_THAT(f.error(), Contains("step 3 (request 4)"));
    CHECK_THAT(f.error(), Contains("was to act"));
  }
  SECTION("a step after the end") {
    auto r = good;
    r.steps.push_back(r.steps.back());
    r.steps.back().n = static_cast<std::int64_t>(r.steps.size() - 1);
    auto f = render::simulate(r);
    REQUIRE_FALSE(f.ok());
    CHECK_THAT(f.error(), Contains("already over"));
  }
  SECTION("a replay without steps has the deal only") {
    auto r = good;
    r.steps.clear();
    r.footer.reset();
    auto f = render::simulate(r);
    REQUIRE(f.ok());
    REQUIRE(f->size() == 1);
    CHECK(f->front().to_act == 0);
  }
}

TEST_CASE("the whole table holds every hand, a seat's text only its own", "[render][frames]") {
  const replay::Replay r = testing::random_replay("stella_quest", 3, 4);
  auto frames = render::simulate(r);
  REQUIRE(frames.ok());
  const render::Frame& f = (*frames)[2];
  const json table = render::whole_table(r, f);
  CHECK(table.at("seat").is_null());
  for (std::size_t s = 0; s < 3; ++s) {
    CHECK(table.at("players").at(s) == f.views[s].at("players").at(s));
    CHECK(table.at("players").at(s).contains("hand"));
  }
  const render::TextOptions plain;
  const std::string whole = render::table_text(r, *frames, 2, plain);
  // The seat to act at step 2 was sent exactly this frame's view.
  const auto me = static_cast<std::size_t>(f.to_act);
  REQUIRE(r.steps[2].seat == f.to_act);
  auto seat = render::seat_text(r, *frames, 2, f.to_act, plain);
  REQUIRE(seat.ok());
  CHECK_THAT(*seat, Contains("recorded view: request 3"));
  int hidden = 0;
  for (std::size_t other = 0; other < 3; ++other) {
    if (other == me) continue;
    for (const json& card : table.at("players").at(other).at("hand")) {
      const std::string name = card.get<std::string>();
      CHECK_THAT(whole, Contains(name));
      if (f.views[me].dump().find('"' + name + '"') != std::string::npos) continue;  // visible to it elsewhere
      CHECK_THAT(*seat, !Contains(name));
      ++hidden;
    }
  }
  CHECK(hidden > 0);

  SECTION("a recorded view that differs from the re-simulated one is an error") {
    auto tampered = r;
    tampered.steps[1].view["tricks_played"] = 7;
    const Seat asked = tampered.steps[1].seat;
    auto t = render::seat_text(tampered, *frames, 1, asked, plain);
    REQUIRE_FALSE(t.ok());
    CHECK_THAT(t.error(), Contains("step 1 (request 2)"));
    CHECK_THAT(t.error(), Contains("differs"));
  }
}
