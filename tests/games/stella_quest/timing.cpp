// When things happen (rules revision 2): the deck is rebuilt the moment it runs out, the leading
// colour is a fact of the trick fixed by its first non-break card, and a decision with a single
// legal action is applied by the engine, never asked. Scenarios with named cards, then a property
// check over seeded random games (docs/games/stella_quest.md).

#include <algorithm>
#include <catch2/catch.hpp>

#include "referee/games/stella_quest/json.hpp"
#include "referee/games/stella_quest/rules.hpp"
#include "tests/games/stella_quest/table.hpp"

using namespace arena::stella_quest;
using namespace arena::stella_quest::testing;
using Names = std::vector<std::string>;
using nlohmann::json;

namespace {

// What every seat sees of the deck and the discard pile.
void check_views(const State& s, std::size_t deck_size, const Names& discard) {
  for (int seat = 0; seat < s.seats; ++seat) {
    CAPTURE(seat);
    const json v = view(s, seat);
    CHECK(v["deck_size"] == deck_size);
    CHECK(v["discard"] == json(discard));
    CHECK(v["deck_top_colour"].is_null() == (deck_size == 0));
  }
}

bool holds(const std::vector<CardId>& cards, std::string_view name) {
  return std::any_of(cards.begin(), cards.end(), [&](CardId c) { return card(c).name == name; });
}

}  // namespace

// ---- the deck is rebuilt the moment it runs out ----------------------------------------------
//
// Rulebook: "If the deck runs out of cards, immediately shuffle all cards in the discard pile
// apart from the top card to make a new deck."

TEST_CASE("Empty deck: the refill that draws the last card rebuilds the deck at once", "[stella_quest][B5][timing]") {
  Table t(3);
  t.discard({"Green 1", "Green 2", "Yellow 4"});  // Yellow 4 on top
  t.tokens(0, 2);
  t.hands({{"Blue 6"}, {"Blue 5", "Red 1"}, {"Blue 4", "Red 2"}});
  t.deck({"Yellow 1", "Yellow 2"});
  State& s = t.finish(false);  // the deck holds Yellow 1 and Yellow 2 only
  const std::size_t discarded = s.discard.size();
  REQUIRE(discarded == 47);
  CHECK(legal(s) == Names{"play Blue 6", "draw"});
  play(s, "Blue 6");  // the hand empties: 2 lit tokens, 2 cards, the last two of the deck
  CHECK(names(s.players[0].hand) == Names{"Yellow 1", "Yellow 2"});
  // Rebuilt before anybody else acts: every discarded card but the top; the trick stays.
  CHECK(s.deck.size() == discarded - 1);
  CHECK(holds(s.deck, "Green 1"));
  CHECK(holds(s.deck, "Green 2"));
  REQUIRE(s.trick.size() == 1);
  CHECK(card(s.trick[0].card).name == "Blue 6");
  CHECK(names(s.discard) == Names{"Yellow 4"});
  check_views(s, discarded - 1, {"Yellow 4"});
  CHECK(to_act(s) == 1);

  // The trick's cards go to the discard pile and stay there: the deck is not empty.
  play_all(s, {"Blue 5", "Blue 4"});
  REQUIRE(s.winner == 0);
  collect(s, "Blue 4");
  top(s, "Blue 6");
  CHECK(s.deck.size() == discarded - 1);
  CHECK(names(s.discard) == Names{"Yellow 4", "Blue 5", "Blue 6"});
}

TEST_CASE("Empty deck: a voluntary draw that takes the last card rebuilds the deck at once",
          "[stella_quest][B5][timing]") {
  SECTION("the last card is the third drawn") {
    Table t(3);
    t.discard({"Green 1", "Red 3"});
    t.hands({{"Blue 6", "Red 1"}, {"Blue 5", "Red 2"}, {"Blue 4", "Green 2"}});
    t.deck({"Yellow 1", "Yellow 2", "Yellow 3"});
    State& s = t.finish(false);
    const std::size_t discarded = s.discard.size();
    draw(s);
    CHECK(s.players[0].hand.size() == 5);
    CHECK(s.players[0].tokens == 4);
    CHECK(s.deck.size() == discarded - 1);
    CHECK(names(s.discard) == Names{"Red 3"});
    check_views(s, discarded - 1, {"Red 3"});
    CHECK(to_act(s) == 0);  // a draw is followed by a decision of the same seat
  }
  SECTION("the last card is the first drawn: the other two come from the new deck") {
    Table t(3);
    t.discard({"Green 1", "Red 3"});
    t.hands({{"Blue 6", "Red 1"}, {"Blue 5", "Red 2"}, {"Blue 4", "Green 2"}});
    t.deck({"Yellow 1"});
    State& s = t.finish(false);
    const std::size_t discarded = s.discard.size();
    draw(s);
    CHECK(s.players[0].hand.size() == 5);
    CHECK(holds(s.players[0].hand, "Yellow 1"));
    CHECK(s.deck.size() == discarded - 1 - 2);
    CHECK(names(s.discard) == Names{"Red 3"});
  }
}

TEST_CASE("Empty deck: the Dummy playing the last card rebuilds the deck at once", "[stella_quest][B5][B7][timing]") {
  Table t(2);
  t.discard({"Red 1", "Green 6"});  // trump green
  t.hands({{"Blue 3", "Green 1"}, {"Blue 2", "Yellow 1"}});
  t.deck({"Green 4"});
  State& s = t.finish(false);
  const std::size_t discarded = s.discard.size();
  play(s, "Blue 3");  // the Dummy plays the top deck card, the last one
  REQUIRE(s.trick.size() == 2);
  CHECK(card(s.trick[1].card).name == "Green 4");
  CHECK(s.deck.size() == discarded - 1);
  CHECK(holds(s.deck, "Red 1"));
  CHECK(names(s.discard) == Names{"Green 6"});
  check_views(s, discarded - 1, {"Green 6"});
  CHECK(to_act(s) == 1);
  CHECK(legal(s) == Names{"play Blue 2", "draw"});
  play(s, "Blue 2");  // the Dummy's Green 4 is the only trump: the trick is void
  CHECK(s.marker == kDummy);
  CHECK(names(s.discard) == Names{"Green 6", "Blue 3", "Blue 2", "Green 4"});
  CHECK(s.deck.size() == discarded - 1);
}

TEST_CASE("Empty deck next to a lone top card: the cards of the next trick rebuild it at once",
          "[stella_quest][B5][timing]") {
  // Every card is in a hand, a collection or on top of the discard pile: nothing to draw.
  Table t(3);
  t.discard({"Yellow 4"});
  t.hands({{"Blue 6", "Red 1", "Red 1", "Red 2", "Red 2", "Red 3", "Red 3", "Red 4", "Red 4", "Red 5"},
           {"Blue 5", "Break", "Break", "Break", "Green 1", "Green 1", "Green 2", "Green 2", "Green 3", "Green 3"}});
  t.hand(2,
         {"Blue 4", "Break", "Break", "Break", "Yellow 1", "Yellow 1", "Yellow 2", "Yellow 2", "Yellow 3", "Yellow 3"});
  t.rest_in_collection(2);
  State& s = t.finish();
  REQUIRE(s.deck.empty());
  check_views(s, 0, {"Yellow 4"});
  play_all(s, {"Blue 6", "Blue 5"});
  CHECK(legal(s) == Names{"play Blue 4", "play Break"});  // no draw: nothing could be drawn
  play(s, "Blue 4");
  REQUIRE(s.winner == 0);
  collect(s, "Blue 5");
  CHECK(s.deck.empty());  // the trick is not on the discard pile yet
  top(s, "Blue 6");
  // Yellow 4 and Blue 4 went under the new top: the deck is rebuilt from them at once.
  CHECK(names(s.discard) == Names{"Blue 6"});
  REQUIRE(s.deck.size() == 2);
  CHECK(holds(s.deck, "Yellow 4"));
  CHECK(holds(s.deck, "Blue 4"));
  check_views(s, 2, {"Blue 6"});
  CHECK(to_act(s) == 0);
  const Names now = legal(s);
  CHECK(std::find(now.begin(), now.end(), "draw") != now.end());  // now there is something to draw
}

TEST_CASE("Empty deck, nothing to rebuild it with: the deck stays empty, a refill gets what there is",
          "[stella_quest][B5][timing]") {
  // Section 7 of docs/games/stella_quest.md: "if that is empty too, draw what you can". Seat 0 empties its hand on the
  // last card.
  Table t(3);
  t.discard({"Yellow 4"});
  t.tokens(0, 3);
  t.hands({{"Blue 6"},
           {"Blue 5", "Break", "Break", "Break", "Green 1", "Green 1", "Green 2", "Green 2", "Green 3", "Green 3"}});
  t.hand(2,
         {"Blue 4", "Break", "Break", "Break", "Yellow 1", "Yellow 1", "Yellow 2", "Yellow 2", "Yellow 3", "Yellow 3"});
  t.deck({"Red 1"});
  t.rest_in_collection(1);
  State& s = t.finish();
  REQUIRE(s.deck.size() == 1);
  CHECK(legal(s) == Names{"play Blue 6", "draw"});
  play(s, "Blue 6");  // 3 tokens: 3 cards wanted, 1 there; the discard pile holds its top only
  CHECK(names(s.players[0].hand) == Names{"Red 1"});
  CHECK(s.deck.empty());
  check_views(s, 0, {"Yellow 4"});
}

// ---- the leading colour is the trick's, fixed by its first non-break card --------------------
//
// Rulebook: "The color of the starting player's played card is called the leading color"; a
// Break "ignores this leading color rule", so the first non-break card sets it (B3.1).

TEST_CASE("Leading colour: the view keeps the first card's colour while the winner collects and tops",
          "[stella_quest][B3][timing]") {
  Table t(3);
  t.discard({"Red 6"});  // trump red
  t.hand(0, {"Yellow 3", "Green 1"});
  t.hand(1, {"Blue 4", "Green 2"});  // no yellow
  t.hand(2, {"Red 2", "Green 3"});   // no yellow: may trump
  State& s = t.finish();
  play(s, "Yellow 3");
  CHECK(view(s, 1)["leading_colour"] == "yellow");
  play_all(s, {"Blue 4", "Red 2"});
  REQUIRE(s.phase == Phase::collect);
  REQUIRE(s.winner == 2);
  for (int seat = 0; seat < 3; ++seat) CHECK(view(s, seat)["leading_colour"] == "yellow");
  collect(s, "Yellow 3");  // the card that set the leading colour leaves the trick
  REQUIRE(s.phase == Phase::top);
  CHECK(legal(s) == Names{"top Blue 4", "top Red 2"});
  CHECK(leading_colour(s.trick) == Colour::blue);  // what the cards left would say
  CHECK(s.leading == Colour::yellow);
  for (int seat = 0; seat < 3; ++seat) {
    CAPTURE(seat);
    const json v = view(s, seat);
    CHECK(v["phase"] == "top");
    CHECK(v["leading_colour"] == "yellow");
    CHECK(v["trick"] == json::array({{{"seat", 1}, {"card", "Blue 4"}}, {{"seat", 2}, {"card", "Red 2"}}}));
  }
  top(s, "Red 2");
  CHECK(s.leading == Colour::none);  // the trick is over
  CHECK(view(s, 2)["leading_colour"] == nullptr);
  CHECK(to_act(s) == 2);
}

TEST_CASE("Leading colour: a trick led by a break takes the next card's colour and keeps it to the end",
          "[stella_quest][B3][timing]") {
  Table t(4);
  t.discard({"Red 6"});
  t.hands({{"Break", "Blue 1"}, {"Green 2", "Blue 5"}});
  t.hand(2, {"Blue 6", "Yellow 2"});  // no green
  t.hand(3, {"Green 5", "Yellow 1"});
  State& s = t.finish();
  play(s, "Break");
  CHECK(view(s, 1)["leading_colour"] == nullptr);
  play(s, "Green 2");
  CHECK(view(s, 2)["leading_colour"] == "green");
  play(s, "Blue 6");  // the highest card, but not of the leading colour
  CHECK(legal(s) == Names{"play Green 5", "draw"});
  play(s, "Green 5");
  REQUIRE(s.phase == Phase::collect);
  CHECK(s.winner == 3);
  CHECK(view(s, 3)["leading_colour"] == "green");
  CHECK(legal(s) == Names{"collect Blue 6", "collect Green 2", "collect Green 5"});
  collect(s, "Green 2");
  // A break was played: it goes on top without asking, and the trick ends.
  CHECK(s.phase == Phase::play);
  CHECK(top_name(s) == "Break");
  CHECK(view(s, 0)["leading_colour"] == nullptr);
}

TEST_CASE("Leading colour: the Dummy's card after a break lead sets it", "[stella_quest][B3][B7][timing]") {
  Table t(2);
  t.discard({"Red 6"});
  t.hands({{"Break", "Blue 1"}, {"Green 6", "Blue 5"}});
  t.deck({"Green 4"});
  State& s = t.finish();
  play(s, "Break");
  CHECK(view(s, 1)["leading_colour"] == "green");
  CHECK(legal(s) == Names{"play Green 6", "draw"});  // must follow the Dummy's colour
  play(s, "Green 6");
  REQUIRE(s.phase == Phase::collect);
  CHECK(s.winner == 1);
  CHECK(view(s, 0)["leading_colour"] == "green");
}

// ---- a decision with one legal action is not asked --------------------------------------------
//
// docs/games/stella_quest.md: "A decision with exactly one legal action is not asked: the engine
// applies it."

TEST_CASE("Forced play: a seat that must follow with its only card of the colour and cannot draw is not asked",
          "[stella_quest][timing]") {
  Table t(3);
  t.discard({"Red 6"});
  t.hand(0, {"Blue 6", "Green 1"});
  t.tokens(1, 1);  // no voluntary draw
  t.hand(1, {"Blue 2", "Red 1"});
  t.hand(2, {"Blue 3", "Red 2"});
  State& s = t.finish();
  play(s, "Blue 6");
  // Seat 1 had one legal action, play Blue 2: the engine played it; seat 2 decides.
  CHECK(to_act(s) == 2);
  CHECK(names(s.players[1].hand) == Names{"Red 1"});
  CHECK(legal(s) == Names{"play Blue 3", "draw"});
  const json v = view(s, 2);
  CHECK(v["to_act"] == 2);
  CHECK(v["trick"] == json::array({{{"seat", 0}, {"card", "Blue 6"}}, {{"seat", 1}, {"card", "Blue 2"}}}));
  CHECK(v["players"][1]["hand_size"] == 1);
}

TEST_CASE("Forced decisions chain: the last plays, the collect and the top, up to the next real choice",
          "[stella_quest][timing]") {
  Table t(3);
  t.discard({"Red 6"});
  t.hand(0, {"Blue 6", "Green 1"});
  t.tokens(1, 1);
  t.hand(1, {"Break", "Break"});
  t.tokens(2, 1);
  t.hand(2, {"Break", "Break"});
  State& s = t.finish();
  play(s, "Blue 6");
  // Seats 1 and 2 could only play a break; seat 0 won, its Blue 6 was the only card to collect
  // and a break had to go on top: nothing was asked until seat 0 leads again.
  CHECK(s.phase == Phase::play);
  CHECK(s.tricks == 1);
  CHECK(to_act(s) == 0);
  CHECK(s.marker == 0);
  CHECK(names(s.players[0].collection) == Names{"Blue 6"});
  CHECK(names(s.players[1].hand) == Names{"Break"});
  CHECK(names(s.players[2].hand) == Names{"Break"});
  CHECK(legal(s) == Names{"play Green 1", "draw"});
  // What happened is in every view: the trick's cards on the discard pile in play order (the
  // first break on top), the collection, the marker.
  const json v = view(s, 1);
  CHECK(v["discard"] == json{"Red 6", "Break", "Break"});
  CHECK(v["players"][0]["collection"] == json{"Blue 6"});
  CHECK(v["marker"] == 0);
  CHECK(v["tricks_played"] == 1);
  CHECK(v["trick"] == json::array());
}

TEST_CASE("Forced play after a draw: the same seat's only legal card is played at once", "[stella_quest][timing]") {
  Table t(3);
  t.discard({"Red 6"});
  t.hand(0, {"Blue 6", "Green 1"});
  t.tokens(1, 2);
  t.hand(1, {"Green 2", "Red 1"});  // no blue: anything
  t.hand(2, {"Blue 3", "Red 2"});
  t.deck({"Blue 5", "Yellow 1", "Yellow 2"});
  State& s = t.finish();
  play(s, "Blue 6");
  CHECK(legal(s) == Names{"play Green 2", "play Red 1", "draw"});
  draw(s);  // 1 lit token left: no more draws; Blue 5 is now the only card it may play
  CHECK(s.players[1].tokens == 1);
  CHECK(to_act(s) == 2);
  REQUIRE(s.trick.size() == 2);
  CHECK(card(s.trick[1].card).name == "Blue 5");
  CHECK(names(s.players[1].hand) == Names{"Green 2", "Red 1", "Yellow 1", "Yellow 2"});
}

// ---- the properties, over seeded random games ----------------------------------------------

TEST_CASE(
    "After every transition: an empty deck sits next to at most one discarded card, the seat to act "
    "has a real choice, the leading colour is the trick's",
    "[stella_quest][timing][conformance]") {
  std::vector<Action> actions;
  std::uint64_t decisions = 0;
  std::uint64_t rebuilt = 0;  // decisions after the deck was rebuilt (a lone top card, tricks played)
  std::uint64_t tops = 0;     // top decisions, where the trick has lost its collected card
  for (int seats = 2; seats <= 4; ++seats) {
    for (std::uint64_t seed = 0; seed < 400; ++seed) {
      State s = new_game(Config{}, seed, seats);
      arena::Rng chooser(seed * 7 + static_cast<std::uint64_t>(seats));
      int steps = 0;
      for (;;) {
        CAPTURE(seats, seed, steps);
        const auto st = check_invariants(s);
        INFO((st.ok() ? std::string() : st.error()));
        REQUIRE(st.ok());
        REQUIRE((!s.deck.empty() || s.discard.size() <= 1));
        if (s.discard.size() == 1 && s.tricks > 0) ++rebuilt;
        if (is_over(s)) break;
        legal_actions(s, actions);
        REQUIRE(actions.size() >= 2);
        const json v = view(s, to_act(s));
        if (s.phase == Phase::top) {
          // The collected card is the winner's last; one of it and the cards left led.
          ++tops;
          const Colour collected = colour_of(s.players[static_cast<std::size_t>(s.winner)].collection.back());
          REQUIRE(s.leading != Colour::none);
          CHECK((s.leading == collected || s.leading == leading_colour(s.trick)));
        } else {
          CHECK(s.leading == leading_colour(s.trick));
        }
        CHECK(v["leading_colour"] == (s.leading == Colour::none ? json(nullptr) : json(arena::enum_name(s.leading))));
        apply(s, actions[chooser.below(actions.size())]);
        ++decisions;
        ++steps;
      }
    }
  }
  INFO("decisions " << decisions << ", after a rebuild " << rebuilt << ", top " << tops);
  CHECK(decisions > 10000);
  CHECK(rebuilt > 100);  // the decks do run out
  CHECK(tops > 100);
}
