// The worked examples of docs/games/stella_quest.md (Q1-Q10), played with named cards. Three players as in the
// rulebook: Remi (seat 0), Charlie (seat 1), Marlene (seat 2); Remi leads.

#include <catch2/catch.hpp>

#include "referee/games/stella_quest/rules.hpp"
#include "tests/games/stella_quest/table.hpp"

using namespace arena::stella_quest;
using namespace arena::stella_quest::testing;
using Names = std::vector<std::string>;

namespace {

constexpr int kRemi = 0;
constexpr int kCharlie = 1;
constexpr int kMarlene = 2;

}  // namespace

TEST_CASE("Q1: lead blue, no trump played: Remi's Blue 6, the highest blue, wins", "[stella_quest][B9]") {
  Table t(3);
  t.discard({"Red 1"});  // trump red: nobody plays red
  t.hand(kRemi, {"Blue 6", "Green 3"});
  t.hand(kCharlie, {"Blue 4", "Yellow 2"});
  t.hand(kMarlene, {"Yellow 3", "Green 1"});  // no blue
  State& s = t.finish();
  play(s, "Blue 6");
  CHECK(leading_colour(s.trick) == Colour::blue);
  play_all(s, {"Blue 4", "Yellow 3"});
  REQUIRE(s.phase == Phase::collect);
  CHECK(s.winner == kRemi);
  CHECK(s.marker == kRemi);
}

TEST_CASE("Q2: lead blue, trump green: Charlie's Green 1 wins", "[stella_quest][B9]") {
  Table t(3);
  t.discard({"Green 5"});
  t.hand(kRemi, {"Blue 6", "Red 3"});
  t.hand(kCharlie, {"Green 1", "Red 2"});  // no blue: may trump
  t.hand(kMarlene, {"Blue 3", "Yellow 1"});
  State& s = t.finish();
  play_all(s, {"Blue 6", "Green 1", "Blue 3"});
  REQUIRE(s.phase == Phase::collect);
  CHECK(s.winner == kCharlie);
}

TEST_CASE("Q3: lead blue, trump red, a green and a break are worth nothing: Remi's Blue 2 wins", "[stella_quest][B9]") {
  Table t(3);
  t.discard({"Red 3"});
  t.hand(kRemi, {"Blue 2", "Yellow 5"});
  t.hand(kCharlie, {"Green 4", "Yellow 6"});
  t.hand(kMarlene, {"Break", "Blue 1"});
  State& s = t.finish();
  play_all(s, {"Blue 2", "Green 4"});
  CHECK(legal(s) == Names{"play Blue 1", "play Break", "draw"});  // a break may always be played
  play(s, "Break");
  REQUIRE(s.phase == Phase::collect);
  CHECK(s.winner == kRemi);
  CHECK(legal(s) == Names{"collect Blue 2", "collect Green 4"});
}

TEST_CASE(
    "Q4: Remi leads Blue 5, Charlie must follow with Blue 2, Marlene's Green 6 is no trump, "
    "Remi collects Blue 2, tops Green 6 and takes the marker",
    "[stella_quest][B9]") {
  Table t(3);
  t.discard({"Yellow 1"});
  t.hand(kRemi, {"Blue 5", "Red 4"});
  t.hand(kCharlie, {"Blue 2", "Red 6", "Yellow 4"});
  t.hand(kMarlene, {"Green 6", "Red 1"});
  State& s = t.finish();
  play(s, "Blue 5");
  CHECK(legal(s) == Names{"play Blue 2", "draw"});  // must follow blue
  play(s, "Blue 2");
  CHECK(legal(s) == Names{"play Green 6", "play Red 1", "draw"});  // no blue: anything
  play(s, "Green 6");
  REQUIRE(s.phase == Phase::collect);
  CHECK(s.winner == kRemi);
  CHECK(s.marker == kRemi);
  CHECK(legal(s) == Names{"collect Blue 2", "collect Blue 5", "collect Green 6"});
  collect(s, "Blue 2");
  CHECK(names(s.players[kRemi].collection) == Names{"Blue 2"});
  CHECK(legal(s) == Names{"top Blue 5", "top Green 6"});
  top(s, "Green 6");
  CHECK(top_name(s) == "Green 6");
  CHECK(trump_colour(s.discard.back()) == Colour::green);
  CHECK(s.marker == kRemi);
  CHECK(s.players[kRemi].tokens == 5);  // taking the marker costs nothing
  CHECK(s.phase == Phase::play);
  CHECK(to_act(s) == kRemi);  // the winner leads
  CHECK(s.tricks == 1);
}

TEST_CASE("Q5: Remi holds the marker and 2, 3, 4, wins with Green 4 and collects it: -1 then -2",
          "[stella_quest][B9]") {
  Table t(3);
  t.discard({"Red 1"});
  t.marker(kRemi);
  t.collection(kRemi, {"Red 2", "Yellow 3", "Red 4"});
  t.hand(kRemi, {"Green 4", "Blue 1"});
  t.hand(kCharlie, {"Green 2", "Blue 3"});
  t.hand(kMarlene, {"Break", "Yellow 5"});
  State& s = t.finish();
  play_all(s, {"Green 4", "Green 2", "Break"});
  REQUIRE(s.phase == Phase::collect);
  CHECK(s.winner == kRemi);
  CHECK(s.players[kRemi].tokens == 4);                             // the marker loss comes first
  CHECK(legal(s) == Names{"collect Green 2", "collect Green 4"});  // never the break
  collect(s, "Green 4");
  CHECK(s.players[kRemi].tokens == 2);  // 5 - 1 - 2 jewels: 3 tokens lost in one trick
  // A break was played: it must go on top, a forced choice the engine makes.
  CHECK(s.phase == Phase::play);
  CHECK(top_name(s) == "Break");
  CHECK(trump_colour(s.discard.back()) == Colour::none);
  CHECK(to_act(s) == kRemi);
}

TEST_CASE("Q6: Blue 2, Blue 6, Blue 2: Marlene's second Blue 2 is a Super Trump and wins", "[stella_quest][B9]") {
  Table t(3);
  t.discard({"Yellow 5"});
  t.hand(kRemi, {"Blue 2", "Red 1"});
  t.hand(kCharlie, {"Blue 6", "Red 2"});
  t.hand(kMarlene, {"Blue 2", "Red 3"});
  State& s = t.finish();
  play_all(s, {"Blue 2", "Blue 6", "Blue 2"});
  CHECK(is_super_trump(s.trick, s.discard.back(), 2));
  CHECK_FALSE(is_super_trump(s.trick, s.discard.back(), 0));
  REQUIRE(s.phase == Phase::collect);
  CHECK(s.winner == kMarlene);
}

TEST_CASE("Q7: top discard Blue 3, Blue 6, Green 2, Green 2: the second Green 2 beats the trump",
          "[stella_quest][B9]") {
  Table t(3);
  t.discard({"Blue 3"});  // trump blue: Remi's Blue 6 is a trump
  t.hand(kRemi, {"Blue 6", "Red 1"});
  t.hand(kCharlie, {"Green 2", "Red 2"});
  t.hand(kMarlene, {"Green 2", "Red 3"});
  State& s = t.finish();
  play_all(s, {"Blue 6", "Green 2", "Green 2"});
  REQUIRE(s.phase == Phase::collect);
  CHECK(s.winner == kMarlene);
}

TEST_CASE("Q8: top discard Yellow 3, Blue 6, Blue 6, Yellow 3: two Super Trumps, the later wins",
          "[stella_quest][B9]") {
  Table t(3);
  t.discard({"Yellow 3"});
  t.hand(kRemi, {"Blue 6", "Red 1"});
  t.hand(kCharlie, {"Blue 6", "Red 2"});
  t.hand(kMarlene, {"Yellow 3", "Red 3"});  // no blue
  State& s = t.finish();
  play_all(s, {"Blue 6", "Blue 6"});
  CHECK(is_super_trump(s.trick, s.discard.back(), 1));
  play(s, "Yellow 3");
  CHECK(is_super_trump(s.trick, s.discard.back(), 2));  // a second copy of the top discard
  REQUIRE(s.phase == Phase::collect);
  CHECK(s.winner == kMarlene);
}

TEST_CASE("Q9: collection 1, 3, 5, 5 with 2 lit tokens scores 2 + 3 + 2 = 7", "[stella_quest][B9]") {
  Table t(3);
  t.discard({"Red 6"});
  t.collection(kRemi, {"Blue 1", "Green 3", "Red 5", "Yellow 5"});
  t.tokens(kRemi, 2);
  const State& s = t.finish();
  const Outcome o = score(s);
  CHECK(o.players[kRemi].tokens == 2);
  CHECK(o.players[kRemi].jewels == 5);
  CHECK(names(o.players[kRemi].face_down) == Names{"Red 5", "Yellow 5"});  // both 5s flip down
  CHECK(o.players[kRemi].points == 7);
}

TEST_CASE("Q10: a player with 1 lit token whose hand empties draws 2", "[stella_quest][B9]") {
  Table t(3);
  t.discard({"Red 6"});
  t.tokens(kRemi, 1);
  t.hand(kRemi, {"Blue 4"});
  t.hand(kCharlie, {"Blue 1", "Green 1"});
  t.hand(kMarlene, {"Blue 2", "Green 2"});
  t.deck({"Yellow 1", "Yellow 2", "Yellow 3"});
  State& s = t.finish();
  CHECK(legal(s) == Names{"play Blue 4"});  // no voluntary draw with 1 lit token
  apply_forced(s);                          // the only legal action: the engine plays it without asking
  CHECK(names(s.players[kRemi].hand) == Names{"Yellow 1", "Yellow 2"});  // at once, before Charlie plays
  CHECK(s.players[kRemi].tokens == 1);                                   // a refill costs nothing
  CHECK(to_act(s) == kCharlie);
}

TEST_CASE("Q10 (continued): with 3 lit tokens an emptied hand draws 3", "[stella_quest][B9]") {
  Table t(3);
  t.discard({"Red 6"});
  t.tokens(kRemi, 3);
  t.hand(kRemi, {"Blue 4"});
  t.hand(kCharlie, {"Blue 1"});
  t.hand(kMarlene, {"Blue 2"});
  t.deck({"Yellow 1", "Yellow 2", "Yellow 3", "Yellow 4"});
  State& s = t.finish();
  play(s, "Blue 4");
  CHECK(names(s.players[kRemi].hand) == Names{"Yellow 1", "Yellow 2", "Yellow 3"});
  CHECK(s.players[kRemi].tokens == 3);
}
