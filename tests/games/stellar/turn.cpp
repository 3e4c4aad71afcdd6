// Setup, the turn and the end of the game (docs/games/stellar.md, sections 4 and 5), with named cards.

#include <algorithm>
#include <catch2/catch.hpp>

#include "referee/games/stellar/json.hpp"
#include "referee/games/stellar/rules.hpp"
#include "referee/games/stellar/telescope.hpp"
#include "tests/games/stellar/table.hpp"

using namespace arena::stellar;
using namespace arena::stellar::testing;
using Names = std::vector<std::string>;

namespace {

// Plays a uniformly random legal action until `stop` holds (or the game ends).
template <typename Stop>
void play_until(State& s, std::uint64_t seed, Stop stop) {
  arena::Rng chooser(seed);
  std::vector<Action> actions;
  while (!is_over(s) && !stop(s)) {
    legal_actions(s, actions);
    apply(s, actions[chooser.below(actions.size())]);
  }
}

}  // namespace

// ---- A1: the telescope ---------------------------------------------------------------------

TEST_CASE("A1: the telescope's neighbours are the centred pyramid's", "[stellar][A1]") {
  const std::vector<std::vector<int>> expected = {
      {2, 3},         {1, 3, 4}, {1, 2, 5},     {2, 5, 6, 7},   {3, 4, 7, 8}, {4, 7, 9, 10}, {4, 5, 6, 8, 10, 11},
      {5, 7, 11, 12}, {6, 10},   {6, 7, 9, 11}, {7, 8, 10, 12}, {8, 11}};
  for (int slot = 1; slot <= kTelescopeSlots; ++slot) {
    INFO("slot " << slot);
    CHECK(slots(neighbours(slot - 1)) == expected[static_cast<std::size_t>(slot - 1)]);
  }
  CHECK(section_of(0) == 0);   // slot 1: top
  CHECK(section_of(4) == 0);   // slot 5: top
  CHECK(section_of(5) == 1);   // slot 6: middle
  CHECK(section_of(7) == 1);   // slot 8: middle
  CHECK(section_of(8) == 2);   // slot 9: bottom
  CHECK(section_of(11) == 2);  // slot 12: bottom
}

// ---- A3: setup -----------------------------------------------------------------------------

TEST_CASE("Setup: seat 1's view does not reveal seat 0's hidden starter choice", "[stellar][A3]") {
  const State fresh = new_game(Config{}, 7);
  REQUIRE(fresh.phase == Phase::choose_starter);
  REQUIRE(to_act(fresh) == 0);
  const auto choices = legal_actions(fresh);
  REQUIRE(choices.size() == 2);

  State chose_first = fresh;
  State chose_second = fresh;
  apply(chose_first, choices[0]);
  apply(chose_second, choices[1]);
  REQUIRE(to_act(chose_first) == 1);

  // Whichever starter seat 0 chose, seat 1 sees the same thing: only that seat 0 has chosen.
  const auto view = arena::stellar::view(chose_first, 1);
  CHECK(view == arena::stellar::view(chose_second, 1));
  CHECK(view["players"][0]["starter_chosen"] == true);
  CHECK_FALSE(view["players"][0].contains("starter_choice"));
  CHECK_FALSE(view["players"][0].contains("starters"));
  CHECK(view["start_player"].is_null());  // the start player is not known yet
  // Seat 0 sees its own choice.
  CHECK(arena::stellar::view(chose_first, 0)["players"][0]["starter_choice"] == choices[0].card);
}

TEST_CASE(
    "Setup: the chosen starter goes face up to slot 1, the other to the notebook, 2 cards "
    "each, 5 in the row, 47 in the deck",
    "[stellar][A3]") {
  State s = new_game(Config{}, 11);
  const auto seat0 = legal_actions(s);
  apply(s, seat0[1]);
  const auto seat1 = legal_actions(s);
  apply(s, seat1[0]);

  REQUIRE(s.phase == Phase::take);
  const std::array<Action, 2> chosen = {seat0[1], seat1[0]};
  const std::array<Action, 2> other = {seat0[0], seat1[1]};
  for (std::size_t seat = 0; seat < 2; ++seat) {
    const Player& p = s.players[seat];
    CHECK(p.telescope[0] == Slot{chosen[seat].card, true});
    CHECK(p.notebook == std::vector<CardId>{static_cast<CardId>(other[seat].card)});
    CHECK(card(s, p.telescope[0].card).starter);
    CHECK(card(s, p.telescope[0].card).number == 3);
    CHECK(p.hand.size() == 2);
  }
  CHECK(std::count(s.row.begin(), s.row.end(), kNone) == 0);
  CHECK(s.deck.size() == 47);
  CHECK(s.discard.empty());
  // The fifth starter was shuffled in with the other 55 cards.
  int starters_in_play = 0;
  for (const Player& p : s.players) {
    starters_in_play += card(s, p.telescope[0].card).starter + card(s, p.notebook[0]).starter;
  }
  CHECK(starters_in_play == 4);
  CHECK(std::count_if(s.deck.begin(), s.deck.end(), [&](CardId c) { return card(s, c).starter; }) +
            std::count_if(s.row.begin(), s.row.end(), [&](auto c) { return card(s, c).starter; }) +
            std::count_if(s.players[0].hand.begin(), s.players[0].hand.end(),
                          [&](CardId c) { return card(s, c).starter; }) +
            std::count_if(s.players[1].hand.begin(), s.players[1].hand.end(),
                          [&](CardId c) { return card(s, c).starter; }) ==
        1);
  CHECK(check_invariants(s).ok());
}

// ---- A3 Step 3 -----------------------------------------------------------------------------

TEST_CASE("Step 3: a card played to the notebook sends row slot n to the telescope", "[stellar][A3]") {
  Table t = opening({.hand0 = {"Venus 2", "Black Hole 1"},
                     .row = {"Asteroid 4", "Mercury 1", "Moon 1", "Jupiter 4", "Cloud 4"},
                     .deck_top = {"Saturn 5", "Cloud 2"}});
  State& s = t.state();

  apply(s, take(s, 3));  // Moon 1
  apply(s, play_notebook(s, t.in_hand(0, "Venus 2")));
  CHECK(s.phase == Phase::place);
  CHECK(t.name(s.placing) == "Mercury 1");  // row slot 2
  CHECK(s.last_step3_slot == 1);
  // Mercury 1: no planet is face up yet (Mars 3 is in the notebook), so any empty slot face up.
  apply(s, place(s, 12, Face::up));
  CHECK(t.name(s.players[0].telescope[11].card) == "Mercury 1");
  CHECK(t.row_names() == Names{"Asteroid 4", "Saturn 5", "Cloud 2", "Jupiter 4", "Cloud 4"});
  CHECK(check_invariants(s).ok());
}

TEST_CASE("Step 3: a 6/0 played to the telescope sends the top of the deck to the notebook", "[stellar][A3]") {
  Table t = opening({.hand0 = {"Asteroid 6/0", "Venus 2"},
                     .row = {"Asteroid 4", "Mercury 1", "Moon 1", "Jupiter 4", "Cloud 4"},
                     .deck_top = {"Saturn 5", "Cloud 2", "Moon 2"}});
  State& s = t.state();

  apply(s, take(s, 1));  // Asteroid 4
  apply(s, play_telescope(s, t.in_hand(0, "Asteroid 6/0"), 2, Face::up));
  CHECK(t.names(s.players[0].notebook) == Names{"Mars 3 ◆", "Saturn 5"});
  CHECK(s.last_step3_slot == kNone);
  // Only slot 1 was empty; it is refilled from the new top.
  CHECK(t.row_names() == Names{"Cloud 2", "Mercury 1", "Moon 1", "Jupiter 4", "Cloud 4"});
}

TEST_CASE("Step 3: when slot n was emptied in Step 1, the top of the deck is used", "[stellar][A3]") {
  Table t = opening({.hand0 = {"Asteroid 2", "Cloud 5"},
                     .row = {"Asteroid 4", "Venus 2", "Moon 1", "Jupiter 4", "Cloud 4"},
                     .deck_top = {"Saturn 5", "Cloud 2"}});
  State& s = t.state();

  apply(s, take(s, 2));  // Venus 2 leaves slot 2 empty
  apply(s, play_notebook(s, t.in_hand(0, "Asteroid 2")));
  CHECK(t.name(s.placing) == "Saturn 5");
  CHECK(s.last_step3_slot == kNone);
  apply(s, place(s, 5, Face::down));  // face down is always allowed
  CHECK_FALSE(s.players[0].telescope[4].face_up);
  CHECK(t.name(s.players[0].telescope[4].card) == "Saturn 5");
  CHECK(t.row_names() == Names{"Asteroid 4", "Cloud 2", "Moon 1", "Jupiter 4", "Cloud 4"});
}

// ---- A5 S1: a face-down Step 2 card ----------------------------------------------------------

TEST_CASE("S1: a face-down Step 2 card sends row slot 3 (the default) or its printed number", "[stellar][S1]") {
  REQUIRE(Config{}.facedown_step3 == FacedownStep3::three);
  // Seat 0 takes row slot `take_slot` in Step 1, then plays `card` to telescope slot 3; Step 3
  // sends `to_notebook` into the notebook, from row slot `step3_slot` (kNone: the deck's top).
  struct Case {
    const char* what;
    FacedownStep3 rule;
    int take_slot;
    const char* card;
    Face face;
    const char* to_notebook;
    int step3_slot;
  };
  const auto three = FacedownStep3::three;
  const auto printed = FacedownStep3::printed;
  const Case cases[] = {
      {"three: a face-down Jupiter 4 takes slot 3, not slot 4", three, 5, "Jupiter 4", Face::down, "Moon 1", 2},
      {"three: a face-down 6/0 takes slot 3 too, not the top of the deck", three, 5, "Moon 6/0", Face::down, "Moon 1",
       2},
      {"three: with slot 3 emptied in Step 1, a face-down card takes the top of the deck", three, 3, "Jupiter 4",
       Face::down, "Saturn 5", kNone},
      {"three: a face-up card still uses its printed number", three, 5, "Jupiter 4", Face::up, "Mercury 1", 3},
      {"printed: a face-down Jupiter 4 takes slot 4", printed, 5, "Jupiter 4", Face::down, "Mercury 1", 3},
      {"printed: a face-down 6/0 takes the top of the deck", printed, 5, "Moon 6/0", Face::down, "Saturn 5", kNone},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    Config config;
    config.facedown_step3 = c.rule;
    Table t = opening({.hand0 = {"Jupiter 4", "Moon 6/0"},
                       .row = {"Asteroid 4", "Venus 2", "Moon 1", "Mercury 1", "Cloud 4"},
                       .deck_top = {"Saturn 5", "Cloud 2", "Moon 2"}},
                      config);
    State& s = t.state();
    apply(s, take(s, c.take_slot));
    apply(s, play_telescope(s, t.in_hand(0, c.card), 2, c.face));
    CHECK(t.names(s.players[0].notebook) == Names{"Mars 3 ◆", c.to_notebook});
    CHECK(s.last_step3_slot == c.step3_slot);
  }
}

// ---- A5 S2: the refresh --------------------------------------------------------------------

TEST_CASE(
    "S2: a satellite taken in Step 1 offers the opponent a refresh at the start of its "
    "next turn",
    "[stellar][S2]") {
  Table t =
      opening({.hand0 = {"Venus 2", "Black Hole 1"},
               .row = {"Asteroid 4", "Satellite 2", "Moon 1", "Jupiter 4", "Cloud 4"},
               .deck_top = {"Saturn 5", "Cloud 2", "Moon 2", "Asteroid 1", "Black Hole 5", "Mercury 1", "Cloud 1"}});
  State& s = t.state();

  apply(s, take(s, 2));  // Satellite 2 into seat 0's hand
  CHECK(s.refresh_pending);
  apply(s, play_notebook(s, t.in_hand(0, "Black Hole 1")));  // slot 1, Asteroid 4, to place
  apply(s, place(s, 2, Face::up));
  // Row now: slot 1 and 2 refilled with Saturn 5 and Cloud 2.
  REQUIRE(t.row_names() == Names{"Saturn 5", "Cloud 2", "Moon 1", "Jupiter 4", "Cloud 4"});
  REQUIRE(to_act(s) == 1);
  REQUIRE(s.phase == Phase::refresh);
  CHECK(legal_actions(s) == std::vector<Action>{Action::refresh(false), Action::refresh(true)});

  SECTION("accepting discards all 5 row cards and refills slots 1 to 5 from the deck") {
    apply(s, Action::refresh(true));
    CHECK_THAT(t.names(s.discard),
               Catch::UnorderedEquals(Names{"Saturn 5", "Cloud 2", "Moon 1", "Jupiter 4", "Cloud 4"}));
    CHECK(t.row_names() == Names{"Moon 2", "Asteroid 1", "Black Hole 5", "Mercury 1", "Cloud 1"});
    CHECK(s.phase == Phase::take);
    CHECK(to_act(s) == 1);
    CHECK_FALSE(s.refresh_pending);
    CHECK(check_invariants(s).ok());
  }
  SECTION("declining leaves the row as it is") {
    apply(s, Action::refresh(false));
    CHECK(s.discard.empty());
    CHECK(t.row_names() == Names{"Saturn 5", "Cloud 2", "Moon 1", "Jupiter 4", "Cloud 4"});
    CHECK(s.phase == Phase::take);
    CHECK(to_act(s) == 1);
  }
  SECTION("it lapses: after that turn no refresh is offered again") {
    apply(s, Action::refresh(false));
    apply(s, take(s, 1));  // Saturn 5, not a satellite
    apply(s, play_notebook(s, t.in_hand(1, "Moon 5")));
    apply(s, place(s, 2, Face::up));
    CHECK(to_act(s) == 0);
    CHECK(s.phase == Phase::take);
    CHECK_FALSE(s.refresh_pending);
  }
}

TEST_CASE(
    "S2: a refresh with fewer than 5 cards in the deck completes from the reshuffled "
    "discard pile, the 5 refreshed cards included",
    "[stellar][S2]") {
  Table t = opening();
  t.hand(0, {"Venus 2", "Black Hole 1"});
  t.row({"Asteroid 4", "Satellite 2", "Moon 1", "Jupiter 4", "Cloud 4"});
  // Four cards left in the deck and none in the discard pile (the others are out of this
  // scenario).
  t.deck_only({"Saturn 5", "Cloud 2", "Moon 2", "Asteroid 1"});
  State& s = t.state();

  apply(s, take(s, 2));                                                    // Satellite 2
  apply(s, play_telescope(s, t.in_hand(0, "Black Hole 1"), 2, Face::up));  // Asteroid 4 to notebook
  // Slots 1 and 2 refilled: Saturn 5, Cloud 2; the deck holds Moon 2 and Asteroid 1.
  REQUIRE(t.row_names() == Names{"Saturn 5", "Cloud 2", "Moon 1", "Jupiter 4", "Cloud 4"});
  REQUIRE(s.phase == Phase::refresh);

  apply(s, Action::refresh(true));
  const Names row = t.row_names();
  CHECK(row[0] == "Moon 2");
  CHECK(row[1] == "Asteroid 1");
  // Slots 3-5 come from the five refreshed cards, shuffled; the other two form the new deck.
  Names rest = {row[2], row[3], row[4]};
  for (const auto& n : t.deck_top(10)) rest.push_back(n);
  CHECK_THAT(rest, Catch::UnorderedEquals(Names{"Saturn 5", "Cloud 2", "Moon 1", "Jupiter 4", "Cloud 4"}));
  CHECK(s.discard.empty());
}

TEST_CASE("S2: no refresh for a satellite reaching the tableau in Step 3, nor when the opponent has no turn left",
          "[stellar][S2]") {
  Table t = opening({.hand0 = {"Venus 2", "Black Hole 1"},
                     .row = {"Asteroid 4", "Satellite 2", "Moon 1", "Jupiter 4", "Cloud 4"},
                     .deck_top = {"Saturn 5", "Cloud 2"}});
  State& s = t.state();

  SECTION("a satellite reaching the tableau in Step 3") {
    apply(s, take(s, 5));
    apply(s, play_telescope(s, t.in_hand(0, "Venus 2"), 2, Face::up));  // slot 2: Satellite 2
    CHECK(t.names(s.players[0].notebook) == Names{"Mars 3 ◆", "Satellite 2"});
    CHECK(s.phase == Phase::take);
    CHECK_FALSE(s.refresh_pending);
  }
  SECTION("a satellite taken by the first player of round 11 is offered to the second") {
    s.turn = 20;
    REQUIRE(to_act(s) == 0);
    apply(s, take(s, 2));
    apply(s, play_telescope(s, t.in_hand(0, "Venus 2"), 2, Face::up));
    CHECK(to_act(s) == 1);
    CHECK(s.phase == Phase::refresh);
  }
  SECTION("a satellite taken by the second player of round 11 offers nothing: the game ends") {
    s.start_player = 1;  // seat 0 plays second, so turn 21 is its turn
    s.turn = 21;
    REQUIRE(to_act(s) == 0);
    apply(s, take(s, 2));
    CHECK_FALSE(s.refresh_pending);
    apply(s, play_telescope(s, t.in_hand(0, "Venus 2"), 2, Face::up));
    CHECK(s.phase == Phase::keep);
    CHECK_FALSE(s.refresh_pending);
  }
}

// ---- A5 S4: information -----------------------------------------------------------------------

TEST_CASE("S3/S4: a card face down in the telescope shows its face to who saw it: its owner, or both for Step 3's",
          "[stellar][S4]") {
  Table t = opening({.hand0 = {"Jupiter 4", "Venus 2"},
                     .row = {"Asteroid 4", "Mercury 1", "Moon 1", "Saturn 5", "Cloud 4"},
                     .deck_top = {"Cloud 2", "Moon 2"}});
  State& s = t.state();
  apply(s, take(s, 5));

  SECTION("played face down from hand: its owner only") {
    const int jupiter = t.in_hand(0, "Jupiter 4");
    apply(s, play_telescope(s, jupiter, 7, Face::down));
    const auto mine = arena::stellar::view(s, 0)["players"][0]["telescope"][6];
    const auto theirs = arena::stellar::view(s, 1)["players"][0]["telescope"][6];
    CHECK(mine["face"] == "down");
    CHECK(mine["card"]["id"] == jupiter);
    CHECK(theirs == nlohmann::json{{"face", "down"}});
    // What is public: the row slot Step 3 took (slot 3 for a face-down card, docs/games/stellar.md).
    CHECK(arena::stellar::view(s, 1)["last_step3_slot"] == 3);
  }
  SECTION("a Step 3 card placed face down keeps the face both players saw") {
    // Venus 2 to the notebook: row slot 2 (Mercury 1, public) comes to the telescope, face down.
    apply(s, play_notebook(s, t.in_hand(0, "Venus 2")));
    apply(s, place(s, 7, Face::down));
    const auto theirs = arena::stellar::view(s, 1)["players"][0]["telescope"][6];
    CHECK(theirs["face"] == "down");
    CHECK(theirs["card"]["name"] == "Mercury 1");
  }
}

// ---- A3 deck -------------------------------------------------------------------------------

TEST_CASE("Deck: when it runs out, the discard pile is shuffled into a new deck", "[stellar][A3]") {
  Table t = opening();
  t.hand(0, {"Venus 2", "Black Hole 1"});
  t.row({"Asteroid 4", "Mercury 1", "Moon 1", "Jupiter 4", "Cloud 4"});
  t.deck_only({"Saturn 5"});
  t.discard_rest();
  State& s = t.state();
  REQUIRE(check_invariants(s).ok());
  const std::vector<CardId> old_discard = s.discard;

  apply(s, take(s, 1));                                               // Asteroid 4
  apply(s, play_telescope(s, t.in_hand(0, "Venus 2"), 2, Face::up));  // slot 2 to the notebook
  // Slot 1 takes the last deck card; slot 2 draws from the reshuffled discard pile.
  CHECK(t.row_names()[0] == "Saturn 5");
  CHECK(s.discard.empty());
  std::vector<CardId> new_deck = s.deck;
  new_deck.push_back(static_cast<CardId>(s.row[1]));
  std::sort(new_deck.begin(), new_deck.end());
  CHECK(new_deck == old_discard);
  CHECK(check_invariants(s).ok());
}

// ---- A3 end of game ------------------------------------------------------------------------

TEST_CASE(
    "End: each player keeps one of its two cards (13 notebook cards), the other is "
    "discarded, and the choice is hidden",
    "[stellar][A3]") {
  State s = new_game(Config{}, 2024);
  play_until(s, 2024, [](const State& st) { return st.phase == Phase::keep; });
  REQUIRE(s.phase == Phase::keep);
  REQUIRE(to_act(s) == 0);
  for (const Player& p : s.players) {
    REQUIRE(p.hand.size() == 2);
    REQUIRE(p.notebook.size() == 12);
  }
  const std::vector<CardId> hand0 = s.players[0].hand;
  const std::vector<CardId> hand1 = s.players[1].hand;
  const std::size_t discarded = s.discard.size();
  CHECK(legal_actions(s) == std::vector<Action>{Action::keep(hand0[0]), Action::keep(hand0[1])});

  State kept_second = s;
  apply(s, Action::keep(hand0[0]));
  apply(kept_second, Action::keep(hand0[1]));
  REQUIRE(to_act(s) == 1);
  CHECK(arena::stellar::view(s, 1) == arena::stellar::view(kept_second, 1));

  apply(s, Action::keep(hand1[1]));
  REQUIRE(is_over(s));
  CHECK(s.players[0].notebook.size() == 13);
  CHECK(s.players[1].notebook.size() == 13);
  CHECK(s.players[0].notebook.back() == hand0[0]);
  CHECK(s.players[1].notebook.back() == hand1[1]);
  CHECK(s.players[0].hand.empty());
  CHECK(s.players[1].hand.empty());
  REQUIRE(s.discard.size() == discarded + 2);
  const std::vector<CardId> newly_discarded(s.discard.begin() + static_cast<std::ptrdiff_t>(discarded),
                                            s.discard.end());
  CHECK_THAT(newly_discarded, Catch::UnorderedEquals(std::vector<CardId>{hand0[1], hand1[0]}));
  CHECK(check_invariants(s).ok());
}
