// `referee show` on replays of real matches between the sample bots (and in-process replays for 4
// seats): the table at a step with the decision taken, the pyramid's slot numbers, the row, hands
// and deck size of the full state, the footer at the end; --seat shows only that seat's view;
// usage errors exit 2, replays that cannot be read or re-simulated 5.

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <utility>

#include "referee/core/hash.hpp"
#include "referee/games/game.hpp"
#include "referee/games/stella_quest/cards.hpp"
#include "referee/games/stellar/cards.hpp"
#include "referee/render/frames.hpp"
#include "tests/games/conformance.hpp"  // testing::sanitizer_stride
#include "tests/render/helpers.hpp"

namespace fs = std::filesystem;
using namespace arena;
using Catch::Contains;
using nlohmann::json;

namespace {

struct Loaded {
  fs::path path;
  replay::Replay replay;
  std::vector<render::Frame> frames;
};

Loaded load(const fs::path& path, const std::string& end = "finished") {
  auto r = replay::read(path);
  REQUIRE(r.ok());
  REQUIRE(r->footer);
  REQUIRE(enum_name(r->footer->end) == end);
  REQUIRE(r->steps.size() > 5);
  auto f = render::simulate(*r);
  REQUIRE(f.ok());
  // What `referee show` does with a version-2 replay: the views its steps record only by hash.
  for (const replay::Step& s : r->steps) CHECK((s.view.is_null() && !s.view_hash.empty()));
  render::restore_views(*r, *f);
  return {path, std::move(r).value(), std::move(f).value()};
}

const Loaded& stellar_match() {
  static const Loaded m = load(testing::play("stellar", {testing::greedy_bot(), testing::random_bot()}, 11, "stellar"));
  return m;
}
const Loaded& stella_quest_match() {
  static const Loaded m = load(testing::play("stella_quest", {testing::greedy_bot(), testing::random_bot()}, 5, "sq2"));
  return m;
}
const Loaded& stella_quest_3_match() {
  static const Loaded m = load(
      testing::play("stella_quest", {testing::random_bot(), testing::greedy_bot(), testing::random_bot()}, 8, "sq3"));
  return m;
}

std::string stellar_name(const json& id) {
  return stellar::standard_deck().at(id.get<std::size_t>()).name;
}
std::string sq_name(const json& id) {
  return stella_quest::card(id.get<stella_quest::CardId>()).name;
}

std::string show_step(const Loaded& m, std::size_t k) {
  auto c = testing::show({m.path.string(), "--step", std::to_string(k), "--color", "never"});
  REQUIRE(c.exit_code == 0);
  CHECK(c.err.empty());
  return c.out;
}

// The column where `needle` starts on the line holding it, and that line's index.
std::pair<std::size_t, std::size_t> place_of(const std::string& text, const std::string& needle, std::size_t from = 0) {
  const std::size_t at = text.find(needle, from);
  REQUIRE(at != std::string::npos);
  const std::size_t line_start = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
  const auto line =
      static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
  return {line, at - line_start};
}

std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("frames of a real replay have the replay's hashes", "[render][show]") {
  for (const Loaded* m : {&stellar_match(), &stella_quest_match(), &stella_quest_3_match()}) {
    const auto& r = m->replay;
    REQUIRE(m->frames.size() == r.steps.size() + 1);
    const games::Game* game = games::find_game(r.header.game);
    for (std::size_t i = 0; i < m->frames.size(); ++i) {
      auto s = game->state_from_json(m->frames[i].state);
      REQUIRE(s.ok());
      CHECK(hash_hex((*s)->hash()) == (i == 0 ? r.header.initial_hash : r.steps[i - 1].hash));
      if (i < r.steps.size()) CHECK(m->frames[i].views[static_cast<std::size_t>(r.steps[i].seat)] == r.steps[i].view);
    }
  }
}

TEST_CASE("show draws the Stellar table at a step", "[render][show]") {
  const Loaded& m = stellar_match();
  const std::size_t total = m.replay.steps.size();
  REQUIRE(total > 40);
  for (std::size_t k :
       {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{9}, std::size_t{20}, total / 2, total - 1}) {
    CAPTURE(k);
    const std::string out = show_step(m, k);
    const json& state = m.frames[k].state;
    CHECK_THAT(out, Contains(fmt::format("step {} of {}", k, total)));
    CHECK(testing::widest_line(out) < 100);
    // The decision that led here and the next one, in words and as JSON.
    if (k > 0) {
      const replay::Step& s = m.replay.steps[k - 1];
      CHECK_THAT(out, Contains(fmt::format("decision {} (replay step n={}, request {})", k, k - 1, s.request_id)));
      CHECK_THAT(out, Contains(s.action.dump()));
    }
    CHECK_THAT(out, Contains(m.replay.steps[k].action.dump()));
    // The deck size and every hand of the full state; the row with its slot numbers.
    CHECK_THAT(out, Contains(fmt::format("deck: {} cards", state.at("deck").size())));
    for (const json& p : state.at("players")) {
      for (const json& id : p.at("hand")) CHECK_THAT(out, Contains(stellar_name(id)));
    }
    CHECK_THAT(out, Contains("row (slots 1-5):  1 "));
    for (const json& id : state.at("row")) {
      if (!id.is_null()) CHECK_THAT(out, Contains(stellar_name(id)));
    }
    // Both telescopes with every slot number, as pyramids.
    for (int slot = 1; slot <= 12; ++slot) CHECK(count_of(out, fmt::format("[{:>2} ", slot)) == 2);
    const auto one = place_of(out, "[ 1 ");
    const auto two = place_of(out, "[ 2 ");
    const auto three = place_of(out, "[ 3 ");
    const auto four = place_of(out, "[ 4 ");
    const auto six = place_of(out, "[ 6 ");
    const auto nine = place_of(out, "[ 9 ");
    const auto twelve = place_of(out, "[12 ");
    CHECK(one.first + 1 == two.first);
    CHECK(two.first == three.first);
    CHECK(two.first + 1 == four.first);
    CHECK(four.first + 1 == six.first);
    CHECK(six.first + 1 == nine.first);
    CHECK(nine.first == twelve.first);
    CHECK(two.second < one.second);
    CHECK(one.second < three.second);
    CHECK(four.second == two.second);
    CHECK(nine.second < six.second);
    CHECK(six.second < four.second);
    // Whose turn.
    const int to_act = m.frames[k].to_act;
    CHECK_THAT(out, Contains(fmt::format("seat {} ({}) to act", to_act,
                                         m.replay.header.bots[static_cast<std::size_t>(to_act)].name)));
  }
}

TEST_CASE("show names the decision in words", "[render][show]") {
  const Loaded& m = stellar_match();
  bool saw_take = false;
  bool saw_play = false;
  for (std::size_t k = 1; k <= 12; ++k) {
    const replay::Step& s = m.replay.steps[k - 1];
    const std::string kind = s.action.at("kind");
    if (kind != "take" && kind != "play") continue;
    const std::string out = show_step(m, k);
    if (kind == "take") {
      const json& row_card = m.frames[k - 1].state.at("row").at(s.action.at("slot").get<std::size_t>() - 1);
      CHECK_THAT(out, Contains(fmt::format("takes {}", stellar_name(row_card))));
      CHECK_THAT(out, Contains(fmt::format("from row slot {}", s.action.at("slot").get<int>())));
      saw_take = true;
    } else {
      CHECK_THAT(out, Contains(fmt::format("plays {}", stellar_name(s.action.at("card")))));
      saw_play = true;
    }
  }
  CHECK(saw_take);
  CHECK(saw_play);
}

TEST_CASE("show at the end of a finished match gives the footer's breakdown and outcome", "[render][show]") {
  const Loaded& m = stellar_match();
  const std::size_t total = m.replay.steps.size();
  auto c = testing::show({m.path.string(), "--color", "never"});
  REQUIRE(c.exit_code == 0);
  CHECK(c.out == show_step(m, total));  // the end is the default
  CHECK_THAT(c.out, Contains(fmt::format("step {} of {}", total, total)));
  CHECK_THAT(c.out, Contains("the match finished after"));
  CHECK_THAT(c.out, Contains("score breakdown"));
  const json& outcome = m.replay.footer->result.at("outcome");
  for (const json& p : outcome.at("players")) {
    CHECK_THAT(c.out, Contains(fmt::format("{} points", p.at("total").get<int>())));
    const json& moon = p.at("types").at("moon");
    CHECK_THAT(c.out, Contains(fmt::format("{} x {} = {}", moon.at("stars").get<int>(), moon.at("run").get<int>(),
                                           moon.at("points").get<int>())));
    CHECK_THAT(c.out, Contains(fmt::format("sum {}: {} points", p.at("sections").at("middle").at("sum").get<int>(),
                                           p.at("sections").at("middle").at("points").get<int>())));
  }
  const json& winner = outcome.at("winner");
  if (winner.is_null()) {
    CHECK_THAT(c.out, Contains("a draw"));
  } else {
    const auto w = winner.get<std::size_t>();
    CHECK_THAT(c.out,
               Contains(fmt::format("seat {} ({}) wins with {} points to {}", w, m.replay.header.bots[w].name,
                                    outcome.at("scores").at(w).get<int>(), outcome.at("scores").at(1 - w).get<int>())));
  }
  // Before the end there is no footer.
  CHECK_THAT(show_step(m, total - 1), !Contains("score breakdown"));
}

TEST_CASE("show --seat shows exactly what that Stellar seat was sent", "[render][show]") {
  const Loaded& m = stellar_match();
  const std::size_t total = m.replay.steps.size();
  int hidden_checked = 0;
  for (std::size_t k = 0; k <= total; k += testing::sanitizer_stride(4)) {
    for (int seat = 0; seat < 2; ++seat) {
      CAPTURE(k, seat);
      auto c = testing::show(
          {m.path.string(), "--step", std::to_string(k), "--seat", std::to_string(seat), "--color", "never"});
      REQUIRE(c.exit_code == 0);
      CHECK(testing::widest_line(c.out) < 100);
      CHECK_THAT(c.out, !Contains("seed"));
      // The view shown: the recorded one of the last request at or before k, else re-simulated.
      std::size_t asked = total;
      for (std::size_t i = 0; i < total && i <= k; ++i) {
        if (m.replay.steps[i].seat == seat) asked = i;
      }
      json view;
      if (asked < total) {
        CHECK_THAT(c.out, Contains(fmt::format("recorded view: request {}", m.replay.steps[asked].request_id)));
        view = m.replay.steps[asked].view;
      } else {
        CHECK_THAT(c.out, Contains("re-simulated view"));
        CHECK_THAT(c.out, Contains("had not been asked yet"));
        view = m.frames[k].views[static_cast<std::size_t>(seat)];
      }
      // The opponent's hand (and its cards face down from hand) never appear, unless the same
      // card name is visible to this seat elsewhere.
      const json& state = m.frames[asked < total ? asked : k].state;
      const json& opponent = state.at("players").at(static_cast<std::size_t>(1 - seat));
      const std::string visible = view.dump();
      std::vector<std::string> secret;
      for (const json& id : opponent.at("hand")) secret.push_back(stellar_name(id));
      for (const json& slot : opponent.at("telescope")) {
        if (!slot.is_null() && !slot.at("face_up").get<bool>() && !slot.at("seen").get<bool>())
          secret.push_back(stellar_name(slot.at("card")));
      }
      for (const auto& name : secret) {
        if (visible.find('"' + name + '"') != std::string::npos) continue;
        CHECK_THAT(c.out, !Contains(name));
        ++hidden_checked;
      }
      if (!opponent.at("hand").empty()) {
        CHECK_THAT(c.out, Contains(fmt::format(
                              "hand: {} cards (hidden)",
                              view.at("players").at(static_cast<std::size_t>(1 - seat)).at("hand_size").get<int>())));
      }
      // Its own hand is there.
      for (const json& card : view.at("players").at(static_cast<std::size_t>(seat)).at("hand")) {
        CHECK_THAT(c.out, Contains(card.at("name").get<std::string>()));
      }
    }
  }
  CHECK(hidden_checked > 50 / static_cast<int>(testing::sanitizer_stride(4)));  // every 4th step under ASan
}

TEST_CASE("show draws the Stella Quest table: trick, trump, hands, collections, tokens, Dummy", "[render][show]") {
  for (const Loaded* m : {&stella_quest_match(), &stella_quest_3_match()}) {
    const std::size_t total = m->replay.steps.size();
    const int seats = m->replay.header.seats;
    bool saw_trick = false;
    for (std::size_t k = 0; k <= total; ++k) {
      CAPTURE(seats, k);
      const std::string out = show_step(*m, k);
      const json& state = m->frames[k].state;
      CHECK(testing::widest_line(out) < 100);
      if (k > 0) CHECK_THAT(out, Contains(m->replay.steps[k - 1].action.dump()));
      CHECK_THAT(out, Contains(fmt::format("deck: {} cards", state.at("deck").size())));
      const std::string top = sq_name(state.at("discard").back());
      CHECK_THAT(out,
                 Contains(fmt::format("discard pile: {} cards, top {} -> trump: ", state.at("discard").size(), top)));
      for (std::size_t s = 0; s < static_cast<std::size_t>(seats); ++s) {
        const json& p = state.at("players").at(s);
        std::string hand;
        for (const json& id : p.at("hand")) hand += (hand.empty() ? "" : ", ") + sq_name(id);
        if (!hand.empty()) CHECK_THAT(out, Contains(fmt::format("hand ({}): {}", p.at("hand").size(), hand)));
        std::string collection;
        for (const json& id : p.at("collection")) collection += (collection.empty() ? "" : ", ") + sq_name(id);
        if (!collection.empty())
          CHECK_THAT(out, Contains(fmt::format("collection ({}): {}", p.at("collection").size(), collection)));
        CHECK_THAT(out, Contains(fmt::format("tokens: {} lit", p.at("tokens").get<int>())));
      }
      for (const json& play : state.at("trick")) {
        const std::string who =
            play.at("seat").is_string() ? std::string("the Dummy") : fmt::format("seat {}", play.at("seat").get<int>());
        CHECK_THAT(out, Contains(who));
        CHECK_THAT(out, Contains(sq_name(play.at("card"))));
        saw_trick = true;
      }
      if (state.at("marker").is_null()) CHECK_THAT(out, Contains("Black Star marker: nobody"));
      if (state.at("marker").is_string()) CHECK_THAT(out, Contains("Black Star marker: the Dummy"));
      if (state.at("marker").is_number())
        CHECK_THAT(out, Contains(fmt::format("Black Star marker: seat {}", state.at("marker").get<int>())));
      if (seats == 2) {
        CHECK_THAT(out, Contains(state.at("marker").is_string() ? "the Dummy  holds the Black Star\n  no hand"
                                                                : "the Dummy\n  no hand"));
      } else {
        CHECK_THAT(out, !Contains("Dummy"));
      }
    }
    CHECK(saw_trick);
    // The end: the footer's breakdown.
    const std::string end = show_step(*m, total);
    const json& outcome = m->replay.footer->result.at("outcome");
    CHECK_THAT(end, Contains("score breakdown"));
    for (const json& p : outcome.at("players")) {
      CHECK_THAT(end, Contains(fmt::format("{} tokens + {} jewels = {} points", p.at("tokens").get<int>(),
                                           p.at("jewels").get<int>(), p.at("points").get<int>())));
    }
    CHECK_THAT(end, Contains(outcome.at("winners").size() == 1 ? "wins" : "share the victory"));
  }
}

TEST_CASE("show --seat in Stella Quest hides the other hands' numbers", "[render][show]") {
  int hidden_checked = 0;
  for (const Loaded* m : {&stella_quest_match(), &stella_quest_3_match()}) {
    const std::size_t total = m->replay.steps.size();
    const int seats = m->replay.header.seats;
    for (std::size_t k = 0; k < total; ++k) {
      const int seat = m->replay.steps[k].seat;  // asked at k: its recorded view is this frame's
      CAPTURE(seats, k, seat);
      auto c = testing::show(
          {m->path.string(), "--step", std::to_string(k), "--seat", std::to_string(seat), "--color", "never"});
      REQUIRE(c.exit_code == 0);
      CHECK_THAT(c.out, Contains(fmt::format("recorded view: request {}", m->replay.steps[k].request_id)));
      const std::string visible = m->replay.steps[k].view.dump();
      const json& state = m->frames[k].state;
      for (int other = 0; other < seats; ++other) {
        if (other == seat) continue;
        const json& hand = state.at("players").at(static_cast<std::size_t>(other)).at("hand");
        if (!hand.empty()) CHECK_THAT(c.out, Contains(fmt::format("hand ({}, numbers hidden): ", hand.size())));
        for (const json& id : hand) {
          const std::string name = sq_name(id);
          if (visible.find('"' + name + '"') != std::string::npos) continue;
          CHECK_THAT(c.out, !Contains(name));
          ++hidden_checked;
        }
      }
    }
  }
  CHECK(hidden_checked > 20);
}

TEST_CASE("show names no result from a footer that does not verify", "[render][show][forged]") {
  const Loaded& m = stellar_match();
  replay::Replay forged = m.replay;
  json& result = forged.footer->result;
  result["ranks"] = json{result.at("ranks").at(1), result.at("ranks").at(0)};
  result["winner"] = result.at("winner").is_null() ? json(0) : json(1 - result.at("winner").get<int>());
  const fs::path path = testing::out_path("forged_winner.jsonl");
  testing::write_replay(forged, path);
  auto c = testing::show({path.string(), "--color", "never"});
  INFO(c.out << c.err);
  REQUIRE(c.exit_code == 0);
  CHECK_THAT(c.out, Contains("UNVERIFIED replay: its result is not shown"));
  CHECK_THAT(c.out, Contains("result.ranks"));
  CHECK_THAT(c.out, !Contains("score breakdown"));
  CHECK_THAT(c.out, !Contains("wins with"));
}

TEST_CASE("show shows a fault footer", "[render][show]") {
  static const Loaded m = load(
      testing::play("stellar", {testing::faulty_bot("illegal --at 4"), testing::random_bot()}, 3, "fault"), "fault");
  REQUIRE(m.replay.footer);
  REQUIRE(m.replay.footer->end == replay::End::fault);
  const json& fault = m.replay.footer->result.at("fault");
  auto c = testing::show({m.path.string(), "--color", "never"});
  REQUIRE(c.exit_code == 0);
  CHECK_THAT(c.out, Contains("the match ended with a fault"));
  CHECK_THAT(c.out, Contains(fmt::format("seat 0 (faulty_bot) forfeits: illegal at request {}",
                                         fault.at("request_id").get<int>())));
  CHECK_THAT(c.out, Contains(fault.at("message").get<std::string>()));
  CHECK_THAT(c.out, Contains("offending bytes"));
  CHECK_THAT(c.out, Contains("seat 1 (random_bot) 1st"));
  // A seat sees the fault as the bots were told, without the offending bytes.
  auto seat = testing::show({m.path.string(), "--seat", "1", "--color", "never"});
  REQUIRE(seat.exit_code == 0);
  CHECK_THAT(seat.out, Contains("forfeits: illegal"));
  CHECK_THAT(seat.out, !Contains("offending bytes"));
}

TEST_CASE("show reads 4-seat Stella Quest replays made in-process", "[render][show]") {
  const replay::Replay r = testing::random_replay("stella_quest", 4, 12);
  const fs::path path = testing::out_path("sq4.jsonl");
  testing::write_replay(r, path);
  auto c = testing::show({path.string(), "--step", "3", "--color", "never"});
  REQUIRE(c.exit_code == 0);
  for (int s = 0; s < 4; ++s) CHECK_THAT(c.out, Contains(fmt::format("seat {} (player{})", s, s)));
  CHECK_THAT(c.out, Contains(r.steps[2].action.dump()));
}

TEST_CASE("show refuses a bad step or seat with a usage error", "[render][show]") {
  const Loaded& m = stellar_match();
  const std::size_t total = m.replay.steps.size();
  auto c = testing::show({m.path.string(), "--step", std::to_string(total + 1)});
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.err, Contains(fmt::format("--step {} is out of range", total + 1)));
  CHECK_THAT(c.err, Contains(fmt::format("0 to {}", total)));
  CHECK(c.out.empty());
  CHECK(testing::show({m.path.string(), "--step", "-1"}).exit_code == 2);
  CHECK(testing::show({m.path.string(), "--step", "many"}).exit_code == 2);
  auto seat = testing::show({m.path.string(), "--seat", "2"});
  CHECK(seat.exit_code == 2);
  CHECK_THAT(seat.err, Contains("--seat 2 is out of range"));
  CHECK(testing::show({m.path.string(), "--color", "sometimes"}).exit_code == 2);
  CHECK(testing::show({}).exit_code == 2);
}

TEST_CASE("show refuses a broken or missing replay", "[render][show]") {
  const Loaded& m = stellar_match();
  std::ifstream in(m.path);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  auto write = [](const std::string& name, const std::string& content) {
    const fs::path p = testing::out_path(name);
    std::ofstream(p) << content;
    return p.string();
  };
  // The replay with its first step (its second line) edited by `edit`, and that step as edited.
  auto first_step_edited = [&](const std::function<void(json&)>& edit) {
    const std::size_t first = text.find('\n') + 1;
    const std::size_t end = text.find('\n', first);
    json step = json::parse(text.substr(first, end - first));
    edit(step);
    return std::make_pair(text.substr(0, first) + step.dump() + text.substr(end), step);
  };

  SECTION("missing") {
    auto c = testing::show({testing::out_path("missing.jsonl").string()});
    CHECK(c.exit_code == 5);
    CHECK_THAT(c.err, Contains("cannot open"));
  }
  SECTION("garbage") {
    auto c = testing::show({write("garbage.jsonl", "this is not a replay\n")});
    CHECK(c.exit_code == 5);
    CHECK_THAT(c.err, Contains("line 1"));
  }
  SECTION("empty") {
    auto c = testing::show({write("empty.jsonl", "")});
    CHECK(c.exit_code == 5);
    CHECK_THAT(c.err, Contains("no header"));
  }
  SECTION("cut inside the header") {
    auto c = testing::show({write("cut-header.jsonl", text.substr(0, text.find('\n') / 2))});
    CHECK(c.exit_code == 5);
  }
  SECTION("cut inside a step: the prefix is shown, without a footer") {
    const std::size_t fifth = [&] {
      std::size_t at = 0;
      for (int i = 0; i < 5; ++i) at = text.find('\n', at) + 1;
      return at;
    }();
    auto c = testing::show({write("cut-step.jsonl", text.substr(0, fifth + 40)), "--color", "never"});
    CHECK(c.exit_code == 0);
    CHECK_THAT(c.out, Contains("step 4 of 4"));
    CHECK_THAT(c.out, Contains("no footer"));
  }
  SECTION("a state hash that differs from the replay's is a warning") {
    const auto [tampered, step] = first_step_edited([](json& s) { s["hash"] = "0000000000000000"; });
    auto c = testing::show({write("hash.jsonl", tampered), "--step", "1"});
    CHECK(c.exit_code == 0);
    CHECK_THAT(c.err, Contains("warning: the state hash after step 1"));
    CHECK_THAT(c.err, Contains("records 0000000000000000"));
    CHECK_THAT(c.out, Contains("step 1 of"));
  }
  SECTION("a recorded view that is not the re-simulated one") {
    const auto [tampered, step] = first_step_edited([](json& s) { s["view"]["deck_size"] = 99; });
    auto c = testing::show(
        {write("view.jsonl", tampered), "--step", "0", "--seat", std::to_string(step.at("seat").get<int>())});
    CHECK(c.exit_code == 5);
    CHECK_THAT(c.err, Contains("step 0 (request 1): the view seat"));
    CHECK_THAT(c.err, Contains("differs"));
  }
  SECTION("an action the game refuses: the replay does not re-simulate") {
    const std::string tampered = first_step_edited([](json& s) {
                                   s["action"] = {{"kind", "take"}, {"slot", 9}};
                                 }).first;
    auto c = testing::show({write("refused.jsonl", tampered)});
    CHECK(c.exit_code == 5);
    CHECK_THAT(c.err, Contains("step 0 (request 1)"));
  }
}

TEST_CASE("show uses colour only when asked or on a terminal", "[render][show]") {
  const Loaded& m = stella_quest_match();
  CHECK_THAT(testing::show({m.path.string(), "--color", "always"}).out, Contains("\x1b["));
  CHECK_THAT(testing::show({m.path.string(), "--color", "never"}).out, !Contains("\x1b["));
  CHECK_THAT(testing::show({m.path.string()}).out, !Contains("\x1b["));  // auto: stdout is a pipe here
  // Colour never changes the text.
  std::string coloured = testing::show({m.path.string(), "--color", "always"}).out;
  std::string stripped;
  for (std::size_t i = 0; i < coloured.size(); ++i) {
    if (coloured[i] == '\x1b') {
      while (i < coloured.size() && coloured[i] != 'm') ++i;
      continue;
    }
    stripped += coloured[i];
  }
  CHECK(stripped == testing::show({m.path.string(), "--color", "never"}).out);
}

TEST_CASE("show --color auto colours a terminal unless NO_COLOR is set", "[render][show]") {
  // `script` (util-linux, in every Debian) runs the command on a pseudo-terminal.
  if (std::system("command -v script >/dev/null 2>&1") != 0) {
    WARN("no `script` command: the terminal case is not checked");
    return;
  }
  const Loaded& m = stella_quest_match();
  auto on_terminal = [&](const std::string& env) {
    const std::string inner = fmt::format("{} show {} --step 3", testing::referee(), m.path.string());
    const std::string cmd = fmt::format("{} script -qec '{}' /dev/null", env, inner);
    FILE* pipe = popen(cmd.c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::string out;
    char buf[4096];
    std::size_t n = 0;
    while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
    CHECK(pclose(pipe) == 0);
    REQUIRE_THAT(out, Contains("step 3 of"));
    return out;
  };
  CHECK_THAT(on_terminal("env -u NO_COLOR"), Contains("\x1b["));
  CHECK_THAT(on_terminal("env NO_COLOR=1"), !Contains("\x1b["));
}

TEST_CASE("show escapes what bots chose: names, notes, fault messages and bytes", "[render][show][terminal]") {
  // ESC [2J, the C1 CSI U+009B, a right-to-left override and a bell, in every field a bot fills.
  const std::string evil = "evil\x1b[2J\xc2\x9b\xe2\x80\xae\x07";
  const std::string shown = "evil\\x1b[2J\\u009b\\u202e\\x07";
  replay::Replay r = testing::random_replay("stellar", 2, 21);
  REQUIRE(r.footer);
  r.header.bots[0].name = evil;
  for (auto& s : r.steps) s.debug = "note " + evil;  // (a replay holds valid UTF-8 only: JSON)
  // Seat 0 faults at its first decision from the third on: the steps stop there and the footer
  // is the one a match writes, so that it verifies (show shows only a verified result).
  std::size_t cut = 2;
  while (cut < r.steps.size() && r.steps[cut].seat != 0) ++cut;
  REQUIRE(cut < r.steps.size());
  r.steps.resize(cut);
  replay::FinalResult result = replay::result_from_json(r.footer->result).value();
  result.end = replay::End::fault;
  result.scores.clear();
  result.outcome = nullptr;
  result.seats[0].name = evil;
  for (auto& seat : result.seats) seat.decisions = 0;
  for (const auto& step : r.steps) ++result.seats[static_cast<std::size_t>(step.seat)].decisions;
  result.decisions = static_cast<std::int64_t>(cut);
  replay::Fault fault;
  fault.seat = 0;
  fault.kind = replay::FaultKind::illegal;
  fault.request_id = static_cast<std::int64_t>(cut) + 1;
  fault.message = "illegal action " + evil;
  fault.raw = evil;
  result.fault = fault;
  replay::settle(result);
  r.footer = replay::Footer{replay::End::fault, replay::to_json(result)};
  const fs::path path = testing::out_path("evil.jsonl");
  testing::write_replay(r, path);
  const std::string last = std::to_string(r.steps.size());
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{path.string(), "--step", "1", "--color", "never"},
        std::vector<std::string>{path.string(), "--step", last, "--color", "always"},
        std::vector<std::string>{path.string(), "--step", "2", "--seat", "0"}}) {
    auto c = testing::show(args);
    INFO(c.out << c.err);
    REQUIRE(c.exit_code == 0);
    // No byte of the attack reaches the terminal raw; the colours of --color always are the
    // only escape sequences, and each is a complete SGR.
    std::string plain = c.out + c.err;
    for (std::size_t at = plain.find("\x1b["); at != std::string::npos; at = plain.find("\x1b[", at)) {
      const std::size_t end = plain.find('m', at);
      REQUIRE(end != std::string::npos);
      CHECK(plain.find_first_not_of("0123456789;", at + 2) == end);
      plain.erase(at, end - at + 1);
    }
    CHECK(plain.find('\x1b') == std::string::npos);
    CHECK(plain.find('\x9b') == std::string::npos);
    CHECK(plain.find("\xe2\x80\xae") == std::string::npos);
    CHECK(plain.find('\x07') == std::string::npos);
    CHECK_THAT(plain, Contains("seat 0 (evil\\x1b[2J\\u009b..."));  // names are cut at 20 bytes, never inside an escape
    if (std::find(args.begin(), args.end(), "--seat") == args.end())
      CHECK_THAT(plain, Contains("bot's note: note " + shown));
  }
  auto end = testing::show({path.string(), "--step", last, "--color", "never"});
  CHECK_THAT(end.out, Contains(fmt::format("forfeits: illegal at request {}", cut + 1)));
  CHECK_THAT(end.out, Contains("message: illegal action " + shown));
  CHECK_THAT(end.out, Contains("offending bytes: " + shown));
}
