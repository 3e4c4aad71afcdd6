// protocol2.hpp's cheap request reader (Fields, elements), which random_bot uses to read a request
// without parsing its view: on every request line of whole random games of every registered game
// (the referee's own lines, protocol 2 and 1), every top-level member's raw text parses to the
// member json::parse finds, and the legal list splits into entries that parse to the list's;
// hand-written lines with brackets and quotes inside strings, spaces and escapes read the same;
// lines that are not one JSON object are refused. The hello of every game at every seat count, as
// the referee writes it, gives random_bot the seat and the version json would give.

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "protocol/codec.hpp"
#include "referee/games/game.hpp"
#include "sample_bots/cpp/protocol2.hpp"
#include "tests/bench/random_requests.hpp"

using namespace arena;
using nlohmann::json;

namespace {

// Checks that Fields and elements() agree with json::parse on `line` (one the referee wrote, in
// its key order, when `from_referee`).
void check_line(const std::string& line, bool from_referee = false) {
  INFO(line.substr(0, 300));
  const json whole = json::parse(line);
  protocol2::Fields fields;
  REQUIRE(fields.read(line));
  for (const auto& [key, value] : whole.items()) {
    INFO("member " << key);
    REQUIRE_FALSE(fields[key].empty());
    CHECK(json::parse(fields[key]) == value);
  }
  CHECK(fields["no such member"].empty());
  if (whole.contains("legal")) {
    std::vector<std::string_view> entries;
    REQUIRE(protocol2::elements(fields["legal"], entries));
    REQUIRE(entries.size() == whole["legal"].size());
    for (std::size_t i = 0; i < entries.size(); ++i) CHECK(json::parse(entries[i]) == whole["legal"][i]);
  }
  // Reading only what random_bot wants: the same raw text for those, and on the referee's
  // request (its members in key order) nothing of the view, which comes after them.
  protocol2::Fields wanted;
  REQUIRE(wanted.read(line, {"type", "id", "legal"}));
  for (const char* key : {"type", "id", "legal"}) CHECK(wanted[key] == fields[key]);
  if (from_referee && whole.value("type", "") == "request") {
    CHECK(wanted["view"].empty());
    CHECK(wanted["view_delta"].empty());
  }
}

}  // namespace

TEST_CASE("the cheap reader finds what json::parse finds in every request of whole games", "[sample_bots]") {
  for (const games::Game* game : games::all_games()) {
    INFO(game->info().name);
    for (std::uint64_t g = 0; g < 3; ++g) {
      testing::random_game_requests(*game, g, 2, [](const std::string& line, auto&&...) { check_line(line, true); });
      testing::random_game_requests(*game, g, 1, [](const std::string& line, auto&&...) { check_line(line, true); });
    }
  }
}

TEST_CASE("random_bot reads the seat and the version from every game's hello as json does", "[sample_bots]") {
  for (const games::Game* game : games::all_games()) {
    const auto config = game->normalize_config(nullptr);
    REQUIRE(config);
    for (int seats = game->info().min_seats; seats <= game->info().max_seats; ++seats) {
      const std::vector<json> seat_configs(static_cast<std::size_t>(seats));
      const json cards = game->protocol_card_table(*config, seat_configs);
      for (int seat = 0; seat < seats; ++seat) {
        json hello = protocol::hello(game->info().name, seat, seats, *config, protocol::Limits{},
                                     games::seat_card_table(cards, seat));
        INFO(game->info().name << " seat " << seat << " of " << seats);
        // As sent, offering versions 1 and 2; as a version-1 referee sends it (no "protocols");
        // and offering version 1 only.
        for (int variant = 0; variant < 3; ++variant) {
          if (variant == 1) hello.erase("protocols");
          if (variant == 2) hello["protocols"] = {1};
          const std::string line = protocol::to_line(hello);
          protocol2::Fields fields;
          REQUIRE(fields.read(line, {"type", "id", "legal"}));
          CHECK(fields["type"] == R"("hello")");
          CHECK(json::parse(fields["seat"]) == seat);
          CHECK(protocol2::choose(fields["protocols"]) == protocol2::choose(hello));
          CHECK(protocol2::choose(fields["protocols"]) == (variant == 0 ? 2 : 1));
        }
      }
    }
  }
}

TEST_CASE("the cheap reader skips strings with brackets, quotes and escapes, and spaces", "[sample_bots]") {
  check_line(R"({"type":"request","id":3,"view":{"note":"a ] and a } and a \" inside","list":[[1,[2]],{}]},)"
             R"("legal":[{"kind":"say","text":"[{\"x\"]"},"],",null,true,-1.5e3,[]]})");
  check_line(R"(  { "type" : "hello" , "seat" : 1 , "cards" : [ null , { "id" : 0 } ] , "empty" : { } }  )");
  check_line(R"({})");
  check_line(R"({"legal":[],"s":"\\"})");
}

TEST_CASE("the cheap reader refuses a line that is not one JSON object", "[sample_bots]") {
  protocol2::Fields fields;
  for (const char* bad : {"", "[]", "\"text\"", "{", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{\"a\":1} {\"b\":2}",
                          "{\"a\":\"unterminated}", "{\"a\":[1,2}", "{\"a\":1 \"b\":2}", "{a:1}"}) {
    INFO(bad);
    CHECK_FALSE(fields.read(bad));
  }
  // Stopping at the wanted keys, it reads no further: what follows them is not checked.
  CHECK_FALSE(fields.read("[\"id\",1]", {"id"}));
  CHECK_FALSE(fields.read("{\"id\":}", {"id"}));
  CHECK(fields.read("{\"id\":1,\"type\":\"request\", not json", {"type", "id"}));
  CHECK(fields["type"] == "\"request\"");
  CHECK_FALSE(fields.read("{\"id\":1,\"id\":2, not json", {"type", "id"}));  // a key twice counts once
  std::vector<std::string_view> entries;
  CHECK_FALSE(protocol2::elements("{}", entries));
  CHECK_FALSE(protocol2::elements("[1,", entries));
  CHECK_FALSE(protocol2::elements("[1 2]", entries));
}
