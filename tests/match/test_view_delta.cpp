// Protocol 2's view deltas (match::ViewDelta, docs/protocol.md "View deltas"): in every game, a
// view rebuilt from the deltas of a whole random game, one seat at a time, is the view itself at
// every request; members that vanish are named in "view_removed"; a "players" list that changes
// length comes whole. And in real matches: a Python bot that asks for deltas and rebuilds its views
// (tests/match/reuse_bot.py --view-delta) holds, at every request of matches played one after
// another in one process, the very view whose hash the replay records.

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <map>

#include "referee/core/hash.hpp"
#include "referee/match/view_delta.hpp"
#include "referee/replay/replay.hpp"
#include "tests/bench/random_requests.hpp"
#include "tests/match/harness.hpp"

using namespace arena;
using nlohmann::json;

namespace {

// The view of this request from the one held so far, as docs/protocol.md tells a bot to do it.
void apply_delta(json& view, const json& delta, const json& removed) {
  for (const auto& [key, value] : delta.items()) {
    const auto objects = [](const json& list) {
      return std::all_of(list.begin(), list.end(), [](const json& p) { return p.is_object(); });
    };
    const bool by_seat = key == "players" && view.contains("players") && view["players"].is_array() &&
                         value.is_array() && value.size() == view["players"].size() && objects(value) &&
                         objects(view["players"]);
    if (!by_seat) {
      view[key] = value;
      continue;
    }
    for (std::size_t seat = 0; seat < value.size(); ++seat) view["players"][seat].update(value[seat]);
  }
  for (const json& pointer : removed) {
    const json::json_pointer p(pointer.get<std::string>());
    view[p.parent_pointer()].erase(p.back());
  }
}

// Sends `view` through `delta` and rebuilds it into `held`; returns the delta's size.
std::size_t round_trip(match::ViewDelta& delta, const std::string& view, json& held) {
  std::string text, removed;
  delta.write(view, text, removed);
  apply_delta(held, json::parse(text), removed.empty() ? json::array() : json::parse(removed));
  CHECK(held == json::parse(view));
  return text.size();
}

}  // namespace

TEST_CASE("views rebuilt from deltas are the views, in whole random games of every game", "[view_delta]") {
  for (const games::Game* game : games::all_games()) {
    INFO(game->info().name);
    for (std::uint64_t seed = 0; seed < 4; ++seed) {
      std::map<Seat, match::ViewDelta> deltas;
      std::map<Seat, json> held;
      std::size_t full_bytes = 0, delta_bytes = 0;
      bool first = true;
      std::string view;
      testing::random_game_requests(*game, seed, 2, [&](const std::string&, games::GameState& state, Seat seat, auto) {
        view.clear();
        state.write_view_v2(seat, view);
        const bool seats_first = !held.count(seat);
        const std::size_t bytes = round_trip(deltas[seat], view, held[seat]);
        if (seats_first) CHECK(bytes == view.size());  // a seat's first request: the whole view
        full_bytes += view.size();
        delta_bytes += bytes;
        first = false;
      });
      CHECK_FALSE(first);
      CHECK(delta_bytes < full_bytes);
    }
  }
}

TEST_CASE("a member that vanishes is named in view_removed, and a players list of another length comes whole",
          "[view_delta]") {
  match::ViewDelta delta;
  json held;
  std::string text, removed;
  delta.write(R"({"a":1,"cards":[{"id":3}],"players":[{"h":[1],"x":1},{"x":2}],"w/~":0})", text, removed);
  CHECK(removed.empty());
  delta.write(R"({"a":1,"players":[{"x":1},{"x":3}]})", text, removed);
  CHECK(text == R"({"players":[{},{"x":3}]})");
  CHECK(json::parse(removed) == json::parse(R"(["/players/0/h","/cards","/w~1~0"])"));
  delta.write(R"({"a":1,"players":[{"x":1}]})", text, removed);
  CHECK(text == R"({"players":[{"x":1}]})");
  CHECK(removed.empty());
  delta.write(R"({"a":2,"players":[{"x":1}]})", text, removed);
  CHECK(text == R"({"a":2})");

  // Rebuilt, step by step, by the reader a bot uses.
  match::ViewDelta again;
  for (const char* view : {R"({"a":1,"cards":[{"id":3}],"players":[{"h":[1],"x":1},{"x":2}],"w/~":0})",
                           R"({"a":1,"players":[{"x":1},{"x":3}]})", R"({"a":1,"players":[{"x":1}]})",
                           R"({"a":1,"players":[7]})", R"({"a":1,"players":[{"y":1}]})", R"({"players":null})"}) {
    INFO(view);
    round_trip(again, view, held);
  }
}

TEST_CASE("a bot that asks for view deltas rebuilds the view the replay hashes, match after match", "[view_delta]") {
  for (const std::string game : {"interstellar", "stellar"}) {
    INFO(game);
    const auto dir = testing::fresh_dir("view_delta", game);
    const auto views0 = dir / "views0.jsonl", views1 = dir / "views1.jsonl";
    const std::string bot = fmt::format("python3 {}/tests/match/reuse_bot.py --view-delta", ARENA_SOURCE_DIR);
    std::vector<match::KeptBot> kept(2);
    std::vector<std::string> hashes[2];
    for (int i = 0; i < 2; ++i) {
      auto o = testing::options({bot + " " + views0.string(), bot + " " + views1.string()},
                                50 + static_cast<std::uint64_t>(i), "view_delta_" + game);
      o.game = game;
      o.kept = {&kept[0], &kept[1]};
      auto m = match::play(o);
      REQUIRE(m.ok());
      REQUIRE(m->end == replay::End::finished);
      CHECK(m->seats[0].process_match == i + 1);  // the same process, match after match
      auto r = replay::read(m->replay);
      REQUIRE(r.ok());
      REQUIRE(r->steps.size() > 10);
      for (const auto& step : r->steps) hashes[step.seat].push_back(step.view_hash);
    }
    for (auto& k : kept) {
      if (k.process) k.process->shutdown(std::chrono::milliseconds(1000));
    }
    for (int seat = 0; seat < 2; ++seat) {
      std::ifstream in(seat == 0 ? views0 : views1);
      std::vector<std::string> rebuilt;
      for (std::string line; std::getline(in, line);) rebuilt.push_back(hash_hex(stable_hash(line)));
      CHECK(rebuilt == hashes[seat]);
    }
  }
}
