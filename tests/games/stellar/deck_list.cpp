// The deck (docs/games/stellar.md): the standard 60-card table, and custom deck lists in the game config,
// which are refused with a message naming the problem.

#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "referee/games/stellar/cards.hpp"
#include "referee/games/stellar/json.hpp"
#include "referee/games/stellar/rules.hpp"

using namespace arena::stellar;
using nlohmann::json;

namespace {

// The standard deck as a deck list; index i is card i ("Mercury 1" is 0, the moons start at 11).
json standard_list() {
  return deck_to_json(standard_deck());
}

std::size_t index_of(const json& list, const std::string& name, bool starter = false) {
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (list[i]["name"] == name && list[i].value("starter", false) == starter) return i;
  }
  FAIL("no " << name << " in the list");
  return 0;
}

// The error config_from_json gives for this deck list (REQUIRE: it is refused).
std::string refusal(const json& list) {
  const auto config = config_from_json({{"deck", list}});
  REQUIRE_FALSE(config.ok());
  return config.error();
}

}  // namespace

TEST_CASE("The standard deck: 11 cards per type and 5 satellites, as docs/games/stellar.md proposes", "[stellar][A2]") {
  const Deck& deck = standard_deck();
  REQUIRE(deck.size() == 60);
  for (int t = 0; t < kTypedKinds; ++t) {
    const auto type = static_cast<CardType>(t);
    std::vector<int> numbers;
    int starters = 0;
    for (const Card& c : deck) {
      if (c.type != type) continue;
      numbers.push_back(c.number);
      if (c.starter) {
        ++starters;
        CHECK(c.number == 3);
      }
    }
    INFO(arena::enum_name(type));
    CHECK(numbers == std::vector<int>{1, 1, 2, 2, 3, 3, 4, 4, 5, 5, kSixZero});
    CHECK(starters == 1);
  }
  std::vector<int> satellites;
  for (const Card& c : deck) {
    if (c.satellite()) {
      satellites.push_back(c.number);
      CHECK(c.stars == 0);
      CHECK_FALSE(c.starter);
    }
    // Stars by number: 1->3, 2->2, 3->2, 4->1, 5->1, 6/0->0.
    if (!c.satellite()) CHECK(c.stars == std::array<int, 7>{0, 3, 2, 2, 1, 1, 0}[c.number]);
  }
  CHECK(satellites == std::vector<int>{1, 2, 3, 4, 5});
  // The names the scenario tests use.
  const auto named = [&](const std::string& name) {
    return std::count_if(deck.begin(), deck.end(), [&](const Card& c) { return c.name == name; });
  };
  CHECK(named("Mars 3") == 2);
  CHECK(named("Black Hole 6/0") == 1);
  CHECK(named("Planet 6/0") == 1);
  CHECK(named("Satellite 2") == 1);
}

TEST_CASE("A deck list round-trips, and a valid custom deck is accepted", "[stellar][A2]") {
  const auto parsed = parse_deck(standard_list());
  REQUIRE(parsed.ok());
  CHECK(*parsed == standard_deck());

  // The smallest playable deck: 57 cards (three non-starters fewer).
  json list = standard_list();
  list.erase(index_of(list, "Saturn 5"));
  list.erase(index_of(list, "Moon 4"));
  list.erase(index_of(list, "Satellite 5"));
  const auto config = config_from_json({{"deck", list}, {"facedown_step3", "printed"}});
  REQUIRE(config.ok());
  CHECK(config->deck.size() == 57);
  CHECK(config->facedown_step3 == FacedownStep3::printed);
}

TEST_CASE("The smallest deck never runs dry over a whole game", "[stellar][A2][A3]") {
  json list = standard_list();
  list.erase(index_of(list, "Saturn 5"));
  list.erase(index_of(list, "Moon 4"));
  list.erase(index_of(list, "Satellite 5"));
  const auto config = config_from_json({{"deck", list}});
  REQUIRE(config.ok());
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    State s = new_game(*config, seed);
    arena::Rng chooser(seed);
    std::vector<Action> actions;
    while (!is_over(s)) {
      legal_actions(s, actions);
      REQUIRE_FALSE(actions.empty());
      apply(s, actions[chooser.below(actions.size())]);
    }
    INFO("seed " << seed);
    CHECK(check_invariants(s).ok());
    CHECK(s.players[0].notebook.size() == 13);
    CHECK(s.players[1].notebook.size() == 13);
  }
}

TEST_CASE("A malformed deck list is refused with a message naming the problem", "[stellar][A2]") {
  json list = standard_list();

  SECTION("not an array") {
    CHECK_THAT(refusal(json::object({{"cards", list}})), Catch::Contains("expected a JSON array of cards"));
  }
  SECTION("too few cards") {
    list.erase(list.end() - 4, list.end());
    CHECK_THAT(refusal(list), Catch::Contains("56 cards; a deck needs 57 to 255"));
  }
  SECTION("too many cards") {
    const json copy = list;
    while (list.size() < 256) list.push_back(copy[0]);
    CHECK_THAT(refusal(list), Catch::Contains("256 cards"));
  }
  SECTION("a wrong type name") {
    list[index_of(list, "Moon 4")]["type"] = "comet";
    const std::string error = refusal(list);
    CHECK_THAT(error, Catch::Contains("card 17"));
    CHECK_THAT(error, Catch::Contains("unknown card type \"comet\""));
  }
  SECTION("a number out of range") {
    list[index_of(list, "Moon 4")]["number"] = 7;
    CHECK_THAT(refusal(list), Catch::Contains("card 17 (Moon 4) has number 7 (expected 1-5 or \"6/0\")"));
    list[index_of(list, "Moon 4")]["number"] = 0;
    CHECK_THAT(refusal(list), Catch::Contains("card 17 (Moon 4) has number 0"));
  }
  SECTION("a number that is not a number") {
    list[index_of(list, "Moon 4")]["number"] = "four";
    CHECK_THAT(refusal(list), Catch::Contains("card 17 (Moon 4) has number \"four\""));
  }
  SECTION("a satellite numbered 6/0") {
    list[index_of(list, "Satellite 5")]["number"] = "6/0";
    CHECK_THAT(refusal(list), Catch::Contains("is a satellite with number 6/0"));
  }
  SECTION("stars out of range") {
    list[index_of(list, "Moon 4")]["stars"] = 4;
    CHECK_THAT(refusal(list), Catch::Contains("card 17 (Moon 4) has stars 4 (expected an integer 0-3)"));
    list[index_of(list, "Moon 4")]["stars"] = -1;
    CHECK_THAT(refusal(list), Catch::Contains("card 17 (Moon 4) has stars -1"));
  }
  SECTION("missing stars") {
    list[index_of(list, "Moon 4")].erase("stars");
    CHECK_THAT(refusal(list), Catch::Contains("card 17 (Moon 4) has stars missing"));
  }
  SECTION("a satellite with stars") {
    list[index_of(list, "Satellite 2")]["stars"] = 1;
    CHECK_THAT(refusal(list), Catch::Contains("is a satellite with stars"));
  }
  SECTION("a type without its starter") {
    list[index_of(list, "Moon 3", true)].erase("starter");
    CHECK_THAT(refusal(list), Catch::Contains("0 starter cards of type moon"));
  }
  SECTION("two starters of one type") {
    list[index_of(list, "Moon 3")]["starter"] = true;
    CHECK_THAT(refusal(list), Catch::Contains("2 starter cards of type moon"));
  }
  SECTION("a 6/0 starter") {
    list[index_of(list, "Moon 6/0")]["starter"] = true;
    CHECK_THAT(refusal(list), Catch::Contains("is a 6/0 marked as starter"));
  }
  SECTION("an unknown key in a card") {
    list[index_of(list, "Moon 4")]["colour"] = "blue";
    CHECK_THAT(refusal(list), Catch::Contains("card 17 (Moon 4) has an unknown field \"colour\""));
  }
  SECTION("a card that is not an object") {
    list[3] = 17;
    CHECK_THAT(refusal(list), Catch::Contains("card 3 is not an object"));
  }
  SECTION("every refusal comes through the config with its prefix") {
    list[index_of(list, "Moon 4")]["type"] = "comet";
    CHECK_THAT(refusal(list), Catch::StartsWith("stellar config: deck list: card 17"));
  }
}

TEST_CASE("parse_deck itself refuses the same lists, without the config prefix", "[stellar][A2]") {
  const auto not_array = parse_deck(json::object());
  REQUIRE_FALSE(not_array.ok());
  CHECK_THAT(not_array.error(), Catch::StartsWith("deck list: expected a JSON array"));

  json list = standard_list();
  list[index_of(list, "Cloud 3", true)]["starter"] = false;
  const auto no_starter = parse_deck(list);
  REQUIRE_FALSE(no_starter.ok());
  CHECK(no_starter.error() == "deck list: 0 starter cards of type cloud (exactly one per type is needed)");
}

TEST_CASE("An unknown key in the config is refused, naming the key", "[stellar][A2]") {
  const auto config = config_from_json({{"decks", standard_list()}});
  REQUIRE_FALSE(config.ok());
  CHECK_THAT(config.error(), Catch::Contains("unknown field \"decks\""));
}
