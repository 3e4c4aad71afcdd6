// The rules around the B9 examples: follow rule, breaks, the Dummy, draws, the deck rebuild, the
// end conditions and the project's own decisions (docs/games/stella_quest.md).

#include "referee/games/stella_quest/rules.hpp"

#include <catch2/catch.hpp>

#include "referee/games/game.hpp"
#include "referee/games/stella_quest/json.hpp"
#include "tests/games/stella_quest/table.hpp"

using namespace arena::stella_quest;
using namespace arena::stella_quest::testing;
using Names = std::vector<std::string>;

TEST_CASE("A break lead leaves the leading colour to the next card", "[stella_quest][B3]") {
  Table t(3);
  t.discard({"Red 6"});
  t.hands({{"Break", "Blue 1"}, {"Green 2", "Blue 5"}, {"Green 5", "Blue 6"}});
  State& s = t.finish();
  play(s, "Break");
  CHECK(leading_colour(s.trick) == Colour::none);
  CHECK(legal(s) == Names{"play Blue 5", "play Green 2", "draw"});  // no leading colour: anything
  play(s, "Green 2");
  CHECK(leading_colour(s.trick) == Colour::green);
  CHECK(legal(s) == Names{"play Green 5", "draw"});
  play(s, "Green 5");
  CHECK(s.winner == 2);
}

TEST_CASE(
    "All breaks: no winner, nobody loses a token, the marker's holder leads, or with nobody holding it the "
    "same leader again (a resolution)",
    "[stella_quest][B3]") {
  const bool held = GENERATE(true, false);  // seat 2 holds the marker, or nobody does and seat 1 leads
  Table t(3);
  t.discard({"Red 6"});
  if (held) {
    t.marker(2);
  } else {
    t.leader(1);
  }
  t.hands({{"Break", "Blue 1"}, {"Break", "Blue 2"}, {"Break", "Blue 3"}});
  State& s = t.finish();
  play_all(s, {"Break", "Break", "Break"});
  CHECK(s.phase == Phase::play);
  CHECK(s.marker == (held ? 2 : kNone));
  CHECK(to_act(s) == (held ? 2 : 1));
  CHECK(top_name(s) == "Break");
  CHECK(s.tricks == 1);
  for (const Player& p : s.players) CHECK(p.tokens == 5);
}

TEST_CASE("A trump beats the leading colour, with a break on top there is no trump", "[stella_quest][B3]") {
  for (const char* top_card : {"Green 6", "Break"}) {
    Table t(3);
    t.discard({top_card});
    t.hands({{"Blue 2", "Red 1"}, {"Green 1", "Red 2"}, {"Blue 1", "Red 3"}});
    State& s = t.finish();
    play_all(s, {"Blue 2", "Green 1", "Blue 1"});
    CHECK(s.winner == (std::string(top_card) == "Break" ? 0 : 1));
  }
}

TEST_CASE("A winner who already holds the marker loses a token, collecting a new number costs nothing",
          "[stella_quest][B4]") {
  Table t(3);
  t.discard({"Red 6"});
  t.marker(0);
  t.collection(0, {"Blue 1"});
  t.hands({{"Blue 6", "Red 1"}, {"Blue 5", "Red 2"}, {"Blue 4", "Red 3"}});
  State& s = t.finish();
  play_all(s, {"Blue 6", "Blue 5", "Blue 4"});
  CHECK(s.players[0].tokens == 4);
  collect(s, "Blue 5");
  CHECK(s.players[0].tokens == 4);
  CHECK(legal(s) == Names{"top Blue 4", "top Blue 6"});
  top(s, "Blue 4");
  CHECK(names(s.discard) == Names{"Red 6", "Blue 6", "Blue 4"});  // the rest in play order, the choice on top
}

TEST_CASE("A single emotion card is collected without asking", "[stella_quest][B4]") {
  Table t(3);
  t.discard({"Red 6"});
  t.hands({{"Blue 3", "Red 1"}, {"Break", "Blue 2"}, {"Break", "Blue 1"}});
  State& s = t.finish();
  play_all(s, {"Blue 3", "Break", "Break"});
  // Blue 3 is the only emotion card and a break must go on top: both decisions are forced.
  CHECK(names(s.players[0].collection) == Names{"Blue 3"});
  CHECK(top_name(s) == "Break");
  CHECK(s.phase == Phase::play);
  CHECK(to_act(s) == 0);
}

TEST_CASE("Voluntary draw: 1 token for 3 cards, only with 2+ lit tokens, never above 10 cards", "[stella_quest][B5]") {
  Table t(3);
  t.discard({"Red 6"});
  t.hands({{"Blue 1", "Blue 2", "Blue 3", "Blue 4", "Blue 5", "Blue 6", "Green 1", "Green 2"}, {"Red 1"}, {"Red 2"}});
  t.tokens(0, 3);
  t.deck({"Yellow 1", "Yellow 2", "Yellow 3"});
  State& s = t.finish();
  draw(s);  // 8 cards: only 2 fit
  CHECK(s.players[0].hand.size() == 10);
  CHECK(s.players[0].tokens == 2);
  CHECK(names(s.deck).back() == "Yellow 3");
  const auto at_ten = legal(s);
  CHECK(std::find(at_ten.begin(), at_ten.end(), "draw") ==
        at_ten.end());  // 10 cards (docs/games/stella_quest.md, section 7)
  play(s, "Blue 1");
  CHECK(to_act(s) == 1);
  draw(s);
  draw(s);
  CHECK(s.players[1].tokens == 3);
  CHECK(s.players[1].hand.size() == 7);
  draw(s);
  CHECK(s.players[1].tokens == 2);
  CHECK(s.players[1].hand.size() == 10);
  const auto full = legal(s);
  CHECK(std::find(full.begin(), full.end(), "draw") == full.end());
}

TEST_CASE("A refill that empties the deck goes on drawing from the deck rebuilt at once", "[stella_quest][B5]") {
  Table t(3);
  t.hands({{"Blue 6"}, {"Blue 5", "Red 1"}, {"Blue 4", "Red 2"}});
  t.discard({"Green 1", "Green 2", "Yellow 4"});  // Yellow 4 on top
  t.deck({"Yellow 1"});
  State& s = t.finish(false);  // every other card goes under the discard pile: 1 card in the deck
  const std::size_t discarded = s.discard.size();
  play(s, "Blue 6");  // the hand empties: Yellow 1, then 4 cards from the rebuilt deck
  CHECK(s.players[0].hand.size() == 5);
  CHECK(names(s.discard) == Names{"Yellow 4"});
  CHECK(s.deck.size() == discarded - 1 - 4);
  CHECK(trump_colour(s.discard.back()) == Colour::yellow);
}

TEST_CASE("A hand emptied with nothing to draw refills when its owner must play next", "[stella_quest][B5]") {
  Table t(4);
  t.discard({"Yellow 4"});
  t.hands({{"Blue 6"},
           {"Blue 1", "Blue 1", "Blue 2", "Blue 2", "Blue 3", "Blue 3", "Blue 4", "Blue 4", "Blue 5", "Blue 5"}});
  t.hand(2, {"Green 1", "Green 1", "Green 2", "Green 2", "Green 3", "Green 3", "Green 4", "Green 4", "Green 5",
             "Green 5"});
  t.hand(3, {"Break", "Break", "Break", "Break", "Break", "Break", "Green 6", "Green 6", "Red 6", "Yellow 4"});
  t.collection(0, {"Blue 6", "Red 6"});
  t.collection(1, {"Red 1", "Red 1", "Red 2", "Red 2", "Red 3", "Red 3", "Red 4", "Red 4", "Red 5", "Red 5"});
  t.collection(2, {"Yellow 1", "Yellow 1", "Yellow 2", "Yellow 2", "Yellow 3", "Yellow 3", "Yellow 5", "Yellow 5",
                   "Yellow 6", "Yellow 6"});
  State& s = t.finish();
  REQUIRE(s.deck.empty());
  play(s, "Blue 6");
  CHECK(s.players[0].hand.empty());  // nothing to draw (section 7: draw what you can)
  play_all(s, {"Blue 1", "Green 1"});
  // No blue: anything; no draw either, since nothing could be drawn.
  CHECK(legal(s) == Names{"play Green 6", "play Red 6", "play Yellow 4", "play Break"});
  play(s, "Break");
  REQUIRE(s.winner == 0);
  collect(s, "Green 1");  // the break goes on top by itself
  // Seat 0 leads with an empty hand: the refill is tried again, from the rebuilt deck.
  CHECK(to_act(s) == 0);
  CHECK(s.players[0].hand.size() == 3);
  CHECK(names(s.discard) == Names{"Break"});
  CHECK(s.deck.empty());
}

TEST_CASE("Enlightenment: collecting the sixth number wins at once", "[stella_quest][B6]") {
  Table t(3);
  t.discard({"Red 6"});
  t.collection(1, {"Blue 1", "Blue 2", "Blue 3", "Blue 4", "Blue 5"});
  t.hands({{"Green 5", "Red 1"}, {"Green 6", "Red 2"}, {"Green 1", "Red 3"}});
  State& s = t.finish();
  play_all(s, {"Green 5", "Green 6", "Green 1"});
  REQUIRE(s.winner == 1);
  collect(s, "Green 6");
  CHECK(is_over(s));
  CHECK(s.end == End::enlightenment);
  const Outcome o = score(s);
  CHECK(o.winners == std::vector<int>{1});
  CHECK(o.scores[1] == 100 + o.players[1].points);
}

TEST_CASE("Losing the last token with the marker eliminates the winner before it collects", "[stella_quest][B6]") {
  Table t(3);
  t.discard({"Red 6"});
  t.marker(1);
  t.tokens(1, 1);
  t.collection(1, {"Blue 1", "Blue 2", "Blue 3", "Blue 4", "Blue 5"});
  t.collection(0, {"Red 1"});           // 5 tokens + 3 jewels = 8
  t.collection(2, {"Red 2", "Red 3"});  // 5 + 3 + 2 = 10
  t.hands({{"Green 5", "Red 1"}, {"Green 6", "Red 2"}, {"Green 1", "Red 3"}});
  State& s = t.finish();
  play(s, "Green 5");
  // Seat 1 must follow with Green 6 and cannot draw (1 lit token): the engine plays it.
  CHECK(to_act(s) == 2);
  play(s, "Green 1");
  CHECK(is_over(s));
  CHECK(s.end == End::elimination);
  CHECK(s.decided == 1);
  CHECK(s.players[1].collection.size() == 5);  // never collected the Green 6
  const Outcome o = score(s);
  CHECK(o.scores == std::vector<int>{8, -1, 10});
  CHECK(o.winners == std::vector<int>{2});
}

TEST_CASE("Scoring: tokens plus face-up jewels, equal best scores share the victory", "[stella_quest][B6]") {
  Table t(3);
  t.discard({"Red 6"});
  t.tokens(0, 2);
  t.collection(0, {"Yellow 1"});              // 2 + 3 = 5
  t.collection(1, {"Yellow 2"});              // 5 + 3 = 8
  t.collection(2, {"Yellow 3", "Yellow 6"});  // 5 + 2 + 1 = 8
  const State& s = t.finish();
  const Outcome o = score(s);
  CHECK(o.scores == std::vector<int>{5, 8, 8});
  CHECK(o.winners == std::vector<int>{1, 2});
}

TEST_CASE("Collecting a number again costs its jewels, which can eliminate", "[stella_quest][B4][B6]") {
  Table t(3);
  t.discard({"Red 6"});
  t.tokens(0, 3);
  t.collection(0, {"Yellow 1"});
  t.hands({{"Green 6", "Red 1"}, {"Green 1", "Red 2"}, {"Green 2", "Red 3"}});
  State& s = t.finish();
  play_all(s, {"Green 6", "Green 1", "Green 2"});
  REQUIRE(s.winner == 0);
  CHECK(s.players[0].tokens == 3);  // took the marker: no loss
  collect(s, "Green 1");            // a second 1: 3 jewels
  CHECK(s.players[0].tokens == 0);
  CHECK(is_over(s));
  CHECK(s.end == End::elimination);
  const Outcome o = score(s);
  CHECK(o.scores == std::vector<int>{-1, 5, 5});  // the eliminated seat is excluded (section 9)
  CHECK(o.winners == std::vector<int>{1, 2});
  const auto st = check_invariants(s);
  CHECK(st.ok());
}

TEST_CASE("The trick cap ends the game and scores it", "[stella_quest][decision]") {
  Table t(3, Config{1});
  t.discard({"Red 6"});
  t.hands({{"Blue 6", "Red 1"}, {"Blue 5", "Red 2"}, {"Blue 4", "Red 3"}});
  State& s = t.finish();
  play_all(s, {"Blue 6", "Blue 5", "Blue 4"});
  collect(s, "Blue 4");
  top(s, "Blue 6");
  CHECK(is_over(s));
  CHECK(s.end == End::trick_cap);
  CHECK(score(s).winners == std::vector<int>{0});  // 5 + 2 jewels
}

TEST_CASE("Dummy: it plays the top deck card between the players, ignoring the follow rule", "[stella_quest][B7]") {
  Table t(2);
  t.discard({"Red 6"});
  t.hands({{"Blue 3", "Green 1"}, {"Blue 2", "Yellow 1"}});
  t.deck({"Green 4"});
  State& s = t.finish();
  CHECK(to_act(s) == 0);
  play(s, "Blue 3");
  // The Dummy played at once; seat 1 follows the leading colour.
  REQUIRE(s.trick.size() == 2);
  CHECK(s.trick[1].seat == kDummy);
  CHECK(card(s.trick[1].card).name == "Green 4");
  CHECK(to_act(s) == 1);
  CHECK(legal(s) == Names{"play Blue 2", "draw"});
  play(s, "Blue 2");
  CHECK(s.winner == 0);
}

TEST_CASE("Dummy: a Dummy win voids the trick, its card goes on top, it takes the marker, the other player leads",
          "[stella_quest][B7]") {
  Table t(2);
  t.discard({"Green 6"});  // trump green
  t.marker(0);
  t.hands({{"Blue 3", "Green 1"}, {"Blue 2", "Yellow 1"}});
  t.deck({"Green 4"});
  State& s = t.finish();
  play_all(s, {"Blue 3", "Blue 2"});
  CHECK(s.phase == Phase::play);
  CHECK(s.marker == kDummy);
  CHECK(names(s.discard) == Names{"Green 6", "Blue 3", "Blue 2", "Green 4"});
  CHECK(to_act(s) == 1);  // the last human to play leads
  for (const Player& p : s.players) {
    CHECK(p.tokens == 5);
    CHECK(p.collection.empty());
  }
}

TEST_CASE("Dummy: after a Dummy win with a break played, a break goes on top", "[stella_quest][B7]") {
  Table t(2);
  t.discard({"Green 6"});
  t.hands({{"Blue 3", "Green 1"}, {"Break", "Yellow 1"}});
  t.deck({"Green 4"});
  State& s = t.finish();
  play_all(s, {"Blue 3", "Break"});
  CHECK(names(s.discard) == Names{"Green 6", "Blue 3", "Green 4", "Break"});
  CHECK(s.marker == kDummy);
  // The Dummy holds the marker: a human winner takes it without losing a token.
}

TEST_CASE("Dummy: it can be a Super Trump", "[stella_quest][B7]") {
  Table t(2);
  t.discard({"Red 2"});
  t.hands({{"Blue 3", "Green 1"}, {"Red 5", "Yellow 1"}});
  t.deck({"Blue 3"});
  State& s = t.finish();
  play(s, "Blue 3");
  play(s, "Red 5");  // a trump, but the Dummy's second Blue 3 is a Super Trump
  CHECK(s.marker == kDummy);
  CHECK(top_name(s) == "Blue 3");
}

TEST_CASE("Action JSON names cards by face", "[stella_quest][json]") {
  CHECK(to_json(Action::play(*parse_face("Blue 6"))) == nlohmann::json{{"kind", "play"}, {"card", "Blue 6"}});
  CHECK(to_json(Action::draw()) == nlohmann::json{{"kind", "draw"}});
  auto a = action_from_json({{"kind", "top"}, {"card", "Break"}});
  REQUIRE(a.ok());
  CHECK(*a == Action::top(kBreakFace));
  auto bad = action_from_json({{"kind", "play"}, {"card", "Purple 3"}});
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error(), Catch::Contains("Purple 3"));
  auto extra = action_from_json({{"kind", "draw"}, {"count", 3}});
  REQUIRE_FALSE(extra.ok());
  CHECK_THAT(extra.error(), Catch::Contains("count"));
}

TEST_CASE("Stella Quest refuses a config it does not know", "[stella_quest][json]") {
  const auto& game = *arena::games::find_game("stella_quest");
  auto bad = game.new_game({{"max_trick", 10}}, 1, 3);
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error(), Catch::Contains("max_trick"));
  auto zero = game.new_game({{"max_tricks", 0}}, 1, 3);
  REQUIRE_FALSE(zero.ok());
  auto five = game.new_game(nullptr, 1, 5);
  REQUIRE_FALSE(five.ok());
  CHECK_THAT(five.error(), Catch::Contains("5 seats"));
  auto ok = game.normalize_config(nullptr);
  REQUIRE(ok.ok());
  CHECK(*ok == nlohmann::json{{"max_tricks", 200}});
}

TEST_CASE("The deck holds 54 cards with the rulebook's jewels", "[stella_quest][B1]") {
  int breaks = 0;
  int jewels = 0;
  for (const Card& c : card_table()) {
    breaks += c.is_break() ? 1 : 0;
    jewels += c.jewels;
  }
  CHECK(breaks == 6);
  CHECK(jewels == 4 * 2 * (3 + 3 + 2 + 2 + 1 + 1));
  CHECK(card(0).name == "Blue 1");
  CHECK(card(47).name == "Yellow 6");
  CHECK(card(53).name == "Break");
}
