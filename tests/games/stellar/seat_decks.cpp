// Own decks (a deck list per seat) and the shared card table: rules.hpp's OwnDecks, new_game with
// SeatConfigs, seat_config_from_json. The standard game (no seat deck) must stay as it was.

#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <set>

#include "referee/core/index.hpp"
#include "referee/games/stellar/cards.hpp"
#include "referee/games/stellar/json.hpp"
#include "referee/games/stellar/rules.hpp"
#include "referee/games/stellar/scoring.hpp"

using namespace arena::stellar;
using arena::Seat;
using nlohmann::json;

namespace {

using arena::idx;

// Seat 1's list: the standard cards with every moon at 3 stars, plus a second Satellite 3 (61).
Deck starry_list() {
  Deck deck = standard_deck();
  for (Card& c : deck) {
    if (c.type == CardType::moon) c.stars = 3;
  }
  deck.push_back(Card{CardType::satellite, 3, 0, false, "Spare Satellite 3"});
  return deck;
}

// The standard cards plus extra Mercury 1s up to `size` cards.
Deck padded_list(std::size_t size) {
  Deck deck = standard_deck();
  const Card mercury = deck[0];
  REQUIRE(mercury.name == "Mercury 1");
  while (deck.size() < size) deck.push_back(mercury);
  return deck;
}

using Seats = std::array<SeatConfig, kSeats>;

State own_game(const Seats& seats, std::uint64_t seed, const Config& config = Config{}) {
  auto s = new_game(config, seats, seed);
  INFO((s.ok() ? std::string() : s.error()));
  REQUIRE(s.ok());
  return std::move(s).value();
}

// Plays both starter choices (the first legal one each).
void choose_starters(State& s) {
  while (s.phase == Phase::choose_starter) apply(s, legal_actions(s).front());
}

// Every card id outside the decks and discard piles: row, hands, tableaux, the card being placed.
std::set<int> on_table(const State& s) {
  std::set<int> out;
  for (auto c : s.row) {
    if (c != kNone) out.insert(c);
  }
  if (s.placing != kNone) out.insert(s.placing);
  for (const Player& p : s.players) {
    out.insert(p.hand.begin(), p.hand.end());
    out.insert(p.notebook.begin(), p.notebook.end());
    for (const Slot& slot : p.telescope) {
      if (!slot.empty()) out.insert(slot.card);
    }
  }
  return out;
}

// The seats' decks and discard piles held together, per seat.
std::size_t pile_total(const State& s, int seat) {
  return deck_of(s, seat).size() + discard_of(s, seat).size();
}

// The owner of each card in the places redeal_unseen may change for `seat`: the other hand,
// both decks, the other telescope's face-down faces nobody saw.
std::vector<int> hidden_owners(const State& s, Seat seat) {
  std::vector<int> out;
  const Player& other = s.players[idx(1 - seat)];
  for (CardId c : other.hand) out.push_back(owner(s, c));
  for (int d = 0; d < kSeats; ++d) {
    for (CardId c : deck_of(s, d)) out.push_back(owner(s, c));
  }
  for (const Slot& slot : other.telescope) {
    if (!slot.empty() && !slot.face_up && !slot.seen) out.push_back(owner(s, slot.card));
  }
  std::sort(out.begin(), out.end());  // the hand is sorted by id after a redeal
  return out;
}

// A random game to the end, checking at every step the invariants, that every card coming
// onto the table during a turn is the acting seat's (while its deck and discard pile hold
// enough), and, when `deep`, the JSON round trips and redeal_unseen.
void play_checked(State s, std::uint64_t seed, bool deep) {
  const State first = s;
  std::vector<Action> played;
  arena::Rng chooser(seed * 7 + 1);
  std::vector<Action> actions;
  int steps = 0;
  while (!is_over(s)) {
    ++steps;
    INFO("seed " << seed << " step " << steps);
    const auto st = check_invariants(s);
    INFO((st.ok() ? std::string() : st.error()));
    REQUIRE(st.ok());
    if (deep) {
      const auto back = state_from_json(json::parse(to_json(s).dump()));
      INFO((back.ok() ? std::string() : back.error()));
      REQUIRE(back.ok());
      CHECK(*back == s);
      CHECK(hash(*back) == hash(s));
      for (Seat seat = 0; seat < kSeats; ++seat) {
        const json v = view(s, seat);
        CHECK(json::parse(v.dump()) == v);
        State redealt = s;
        arena::Rng rng(seed * 31 + static_cast<std::uint64_t>(steps));
        redeal_unseen(redealt, seat, rng);
        const auto again = check_invariants(redealt);
        INFO((again.ok() ? std::string() : again.error()));
        CHECK(again.ok());
        CHECK(view(redealt, seat) == v);
        if (s.phase != Phase::choose_starter) CHECK(hidden_owners(redealt, seat) == hidden_owners(s, seat));
      }
    }
    const Phase phase = s.phase;
    const int acting = phase == Phase::choose_starter || phase == Phase::keep ? kNone : to_act(s);
    const bool plenty = acting != kNone && pile_total(s, acting) >= 8;
    const auto before = on_table(s);
    const auto other_deck = acting == kNone ? 0 : deck_of(s, 1 - acting).size();
    legal_actions(s, actions);
    REQUIRE_FALSE(actions.empty());
    played.push_back(actions[chooser.below(actions.size())]);
    apply(s, played.back());
    if (plenty) {
      for (int c : on_table(s)) {
        if (before.count(c) == 0) {
          INFO("card " << c << " (" << card(s, c).name << ") drawn by seat " << acting);
          CHECK(owner(s, c) == acting);
        }
      }
      CHECK(deck_of(s, 1 - acting).size() == other_deck);
    }
  }
  const auto st = check_invariants(s);
  INFO((st.ok() ? std::string() : st.error()));
  CHECK(st.ok());
  for (const Player& p : s.players) {
    CHECK(p.notebook.size() == 13);
    CHECK(p.hand.empty());
  }
  // The same start and actions give the same game.
  State twin = first;
  for (const Action& a : played) {
    REQUIRE(is_legal(twin, a));
    apply(twin, a);
  }
  CHECK(twin == s);
  CHECK(hash(twin) == hash(s));
}

}  // namespace

// ---- the shared card table -----------------------------------------------------------------

TEST_CASE("The card table is shared by copies, and compared by its cards", "[stellar][own_decks]") {
  const State s = new_game(Config{}, 3);
  const State copy = s;
  CHECK(copy.config.deck.same_list(s.config.deck));
  CHECK(Config{}.deck.same_list(standard_table()));
  CHECK(s.config.deck == standard_deck());

  // An equal list built apart is equal (contents), though not the same list.
  Config rebuilt;
  rebuilt.deck = Deck(standard_deck());
  CHECK_FALSE(rebuilt.deck.same_list(s.config.deck));
  CHECK(rebuilt == Config{});
  CHECK(new_game(rebuilt, 3) == s);
  CHECK(hash(new_game(rebuilt, 3)) == hash(s));
  Config other;
  other.deck = starry_list();
  CHECK_FALSE(other == Config{});

  const auto read = config_from_json(to_json(Config{}));
  REQUIRE(read.ok());
  CHECK(*read == Config{});
}

// ---- no seat deck: the standard game ---------------------------------------------------------

TEST_CASE("Without a seat deck, new_game with seat configs is the standard game", "[stellar][own_decks]") {
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    const State standard = new_game(Config{}, seed);
    const State seats = own_game(Seats{}, seed);
    CHECK_FALSE(own_decks(seats));
    CHECK(seats == standard);
    CHECK(hash(seats) == hash(standard));
  }
  Config printed;
  printed.facedown_step3 = FacedownStep3::printed;
  printed.deck = padded_list(70);
  CHECK(own_game(Seats{}, 9, printed) == new_game(printed, 9));
}

// ---- setup ---------------------------------------------------------------------------------

TEST_CASE("Own decks: the table is seat 0's list then seat 1's, and each seat is dealt from its own",
          "[stellar][own_decks]") {
  const Seats seats = {SeatConfig{}, SeatConfig{starry_list()}};
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    INFO("seed " << seed);
    State s = own_game(seats, seed);
    REQUIRE(own_decks(s));
    REQUIRE(card_table(s).size() == 121);
    CHECK(s.own->seat1_first == 60);
    CHECK(card(s, 17).name == "Moon 4");
    CHECK(card(s, 17).stars == 1);       // seat 0's list: the standard moons
    CHECK(card(s, 60 + 17).stars == 3);  // seat 1's: its starry moons
    CHECK(card(s, 120).name == "Spare Satellite 3");
    CHECK(owner(s, 59) == 0);
    CHECK(owner(s, 60) == 1);
    // The starters: each seat two of its own.
    for (int seat = 0; seat < kSeats; ++seat) {
      for (auto c : s.players[idx(seat)].starters) {
        CHECK(card(s, c).starter);
        CHECK(owner(s, c) == seat);
      }
    }
    REQUIRE(check_invariants(s).ok());
    choose_starters(s);
    REQUIRE(s.phase == Phase::take);
    REQUIRE(check_invariants(s).ok());
    for (int seat = 0; seat < kSeats; ++seat) {
      const Player& p = s.players[idx(seat)];
      CHECK(p.hand.size() == 2);
      for (CardId c : p.hand) CHECK(owner(s, c) == seat);
      // Its other three starters were shuffled into its own deck (some may be dealt already).
      std::vector<int> dealt(deck_of(s, seat).begin(), deck_of(s, seat).end());
      for (const Player& each : s.players) dealt.insert(dealt.end(), each.hand.begin(), each.hand.end());
      dealt.insert(dealt.end(), s.row.begin(), s.row.end());
      CHECK(std::count_if(dealt.begin(), dealt.end(),
                          [&](int c) { return card(s, c).starter && owner(s, c) == seat; }) == 3);
      CHECK(discard_of(s, seat).empty());
    }
    // Row slots 1, 3, 5 from seat 0's deck, 2 and 4 from seat 1's.
    for (int slot = 0; slot < kRowSlots; ++slot) CHECK(owner(s, s.row[idx(slot)]) == slot % 2);
    CHECK(deck_of(s, 0).size() == 60 - 2 - 2 - 3);
    CHECK(deck_of(s, 1).size() == 61 - 2 - 2 - 2);
    CHECK(s.deck.empty());
    CHECK(s.discard.empty());
  }
}

TEST_CASE("Own decks: a seat without a deck plays the match deck", "[stellar][own_decks]") {
  Config config;
  config.deck = padded_list(64);
  State s = own_game({SeatConfig{starry_list()}, SeatConfig{}}, 5, config);
  REQUIRE(own_decks(s));
  CHECK(card_table(s).size() == 61 + 64);
  CHECK(s.own->seat1_first == 61);
  CHECK(card(s, 61 + 63).name == "Mercury 1");
  play_checked(s, 5, true);
}

// ---- play ----------------------------------------------------------------------------------

TEST_CASE("Own decks: whole games keep every card in one place, each seat drawing from its own deck",
          "[stellar][own_decks]") {
  const Seats seats = {SeatConfig{}, SeatConfig{starry_list()}};
  for (std::uint64_t seed = 1; seed <= 200; ++seed) play_checked(own_game(seats, seed), seed, seed % 20 == 1);
  // Two lists of their own, one of them the smallest deck (57).
  Deck small = standard_deck();  // three non-starters fewer: Satellite 5, a Moon 1, a Mercury 1
  small.erase(small.end() - 1);
  small.erase(small.begin() + 12);
  small.erase(small.begin());
  REQUIRE(validate_deck(small).ok());
  REQUIRE(small.size() == 57);
  const Seats two = {SeatConfig{small}, SeatConfig{padded_list(80)}};
  for (std::uint64_t seed = 1; seed <= 100; ++seed) play_checked(own_game(two, seed), seed, seed % 25 == 3);
  Config printed;
  printed.facedown_step3 = FacedownStep3::printed;
  for (std::uint64_t seed = 1; seed <= 50; ++seed) play_checked(own_game(two, seed, printed), seed, seed % 25 == 4);
}

TEST_CASE("Own decks: refreshed row cards and the unkept card go to their owners' discard piles",
          "[stellar][own_decks]") {
  const Seats seats = {SeatConfig{}, SeatConfig{starry_list()}};
  int refreshes = 0;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    State s = own_game(seats, seed);
    arena::Rng chooser(seed);
    std::vector<Action> actions;
    while (!is_over(s)) {
      if (s.phase == Phase::refresh) {
        const auto row = s.row;
        const int acting = to_act(s);
        const bool plenty = deck_of(s, acting).size() >= kRowSlots;  // no reshuffle in the refill
        apply(s, Action::refresh(true));
        ++refreshes;
        for (auto c : row) {
          const auto& pile = discard_of(s, owner(s, c));
          const bool discarded = std::find(pile.begin(), pile.end(), c) != pile.end();
          // Unless the refill reshuffled that pile into the deck.
          if (plenty) CHECK(discarded);
        }
        if (plenty) {
          for (auto c : s.row) CHECK(owner(s, c) == acting);
        }
        continue;
      }
      if (s.phase == Phase::keep && to_act(s) == 1) {
        const std::array<std::vector<CardId>, kSeats> hands = {s.players[0].hand, s.players[1].hand};
        std::array<std::size_t, kSeats> piles = {discard_of(s, 0).size(), discard_of(s, 1).size()};
        apply(s, Action::keep(hands[1][0]));
        REQUIRE(is_over(s));
        for (int seat = 0; seat < kSeats; ++seat) {
          const auto& hand = hands[idx(seat)];
          const int kept = s.players[idx(seat)].notebook.back();
          for (CardId c : hand) {
            if (c == kept) continue;
            const auto& pile = discard_of(s, owner(s, c));
            CHECK(std::find(pile.begin(), pile.end(), c) != pile.end());
            ++piles[idx(owner(s, c))];
          }
        }
        CHECK(discard_of(s, 0).size() == piles[0]);
        CHECK(discard_of(s, 1).size() == piles[1]);
        CHECK(check_invariants(s).ok());
        break;
      }
      legal_actions(s, actions);
      apply(s, actions[chooser.below(actions.size())]);
    }
  }
  CHECK(refreshes > 20);
}

TEST_CASE("Own decks: an empty deck takes its discard pile, with both empty the other seat's deck",
          "[stellar][own_decks]") {
  const Seats seats = {SeatConfig{}, SeatConfig{starry_list()}};
  State s = own_game(seats, 12);
  choose_starters(s);
  const int a = to_act(s);
  const int b = 1 - a;
  OwnDecks& own = *s.own;
  // Seat a's turn: row slot 1 taken, played to the notebook, and Step 3's card placed if one is.
  const auto play_turn = [&] {
    apply(s, Action::take(0));
    apply(s, Action::play_notebook(s.players[idx(a)].hand.front()));
    if (s.phase == Phase::place) apply(s, legal_actions(s).front());
  };
  // Test surgery, not a reachable state: seat a's deck goes into its notebook.
  const auto deck_a_to_notebook = [&] {
    auto& notebook = s.players[idx(a)].notebook;
    notebook.insert(notebook.end(), own.deck[idx(a)].begin(), own.deck[idx(a)].end());
    own.deck[idx(a)].clear();
  };

  SECTION("its own discard pile is shuffled into a new deck") {
    own.discard[idx(a)] = std::move(own.deck[idx(a)]);
    own.deck[idx(a)].clear();
    const auto b_deck = own.deck[idx(b)];
    play_turn();
    CHECK(own.deck[idx(b)] == b_deck);
    CHECK(own.discard[idx(a)].empty());
    for (auto c : s.row) CHECK(c != kNone);
    CHECK(check_invariants(s).ok());
  }
  SECTION("both empty: the other seat's deck") {
    deck_a_to_notebook();
    const std::size_t b_deck = own.deck[idx(b)].size();
    play_turn();
    // Step 3 took row slot n (or the top of a deck); the refill came from seat b's deck.
    for (auto c : s.row) CHECK(c != kNone);
    CHECK(own.deck[idx(a)].empty());
    CHECK(own.deck[idx(b)].size() < b_deck);
    CHECK(owner(s, s.row[0]) == b);
  }
  SECTION("both empty, and the other's deck too: the other's discard pile is shuffled in") {
    deck_a_to_notebook();
    own.discard[idx(b)] = std::move(own.deck[idx(b)]);
    own.deck[idx(b)].clear();
    const std::size_t b_cards = own.discard[idx(b)].size();
    play_turn();
    for (auto c : s.row) CHECK(c != kNone);
    CHECK(own.discard[idx(b)].empty());
    CHECK(own.deck[idx(b)].size() < b_cards);
    CHECK(owner(s, s.row[0]) == b);
  }
}

// ---- JSON, views, hash -----------------------------------------------------------------------

TEST_CASE("Own decks: the state JSON round-trips, the view shows owners and both decks", "[stellar][own_decks]") {
  const Seats seats = {SeatConfig{}, SeatConfig{starry_list()}};
  State s = own_game(seats, 21);
  choose_starters(s);
  const json full = to_json(s);
  REQUIRE(full.contains("own_decks"));
  CHECK(full["own_decks"][0]["list"].is_null());  // seat 0 plays the match deck
  CHECK(full["own_decks"][1]["list"].size() == 61);
  const auto back = state_from_json(json::parse(full.dump()));
  REQUIRE(back.ok());
  CHECK(*back == s);
  CHECK(hash(*back) == hash(s));
  CHECK(to_json(*back) == full);

  // Inconsistent own-deck states are refused.
  json swapped = full;
  std::swap(swapped["own_decks"][0]["deck"], swapped["own_decks"][1]["deck"]);
  CHECK_FALSE(state_from_json(swapped).ok());

  for (Seat seat = 0; seat < kSeats; ++seat) {
    const json v = view(s, seat);
    REQUIRE(v.contains("decks"));
    REQUIRE(v["decks"].size() == 2);
    for (int d = 0; d < kSeats; ++d) {
      CHECK(v["decks"][idx(d)]["seat"] == d);
      CHECK(v["decks"][idx(d)]["deck_size"] == deck_of(s, d).size());
      CHECK(v["decks"][idx(d)]["discard"] == json::array());
    }
    CHECK(v["deck_size"] == deck_of(s, seat).size());
    for (int slot = 0; slot < kRowSlots; ++slot) CHECK(v["row"][idx(slot)]["owner"] == slot % 2);
    for (const auto& c : v["players"][idx(seat)]["hand"]) CHECK(c["owner"] == seat);
  }
  // The standard game's view has neither.
  State standard = new_game(Config{}, 21);
  choose_starters(standard);
  const json sv = view(standard, 0);
  CHECK_FALSE(sv.contains("decks"));
  CHECK_FALSE(sv["row"][0].contains("owner"));
  CHECK_FALSE(to_json(standard).contains("own_decks"));
}

TEST_CASE("Own decks: the hash covers the decks and discard piles", "[stellar][own_decks]") {
  const Seats seats = {SeatConfig{}, SeatConfig{starry_list()}};
  State s = own_game(seats, 8);
  choose_starters(s);
  const auto h = hash(s);
  State swapped = s;
  auto& deck = swapped.own->deck[1];
  std::swap(deck[0], deck[1]);
  CHECK(hash(swapped) != h);
  State moved = s;
  moved.own->discard[0].push_back(moved.own->deck[0].back());
  moved.own->deck[0].pop_back();
  CHECK(hash(moved) != h);
  // A different list for seat 1 with the same deal order gives another hash too.
  const State other = own_game({SeatConfig{}, SeatConfig{padded_list(61)}}, 8);
  CHECK(hash(other) != hash(own_game(seats, 8)));
}

TEST_CASE("Own decks: redeal_unseen keeps every place's owner", "[stellar][own_decks]") {
  const Seats seats = {SeatConfig{starry_list()}, SeatConfig{padded_list(62)}};
  State s = own_game(seats, 33);
  // During the starter choice: the other seat's starters stay its own.
  for (int k = 0; k < 5; ++k) {
    State r = s;
    arena::Rng rng(static_cast<std::uint64_t>(k));
    redeal_unseen(r, 0, rng);
    for (auto c : r.players[1].starters) CHECK(owner(r, c) == 1);
    CHECK(r.players[0].starters == s.players[0].starters);
    CHECK(check_invariants(r).ok());
  }
  choose_starters(s);
  arena::Rng chooser(4);
  std::vector<Action> actions;
  for (int step = 0; step < 30; ++step) {
    legal_actions(s, actions);
    apply(s, actions[chooser.below(actions.size())]);
  }
  for (Seat seat = 0; seat < kSeats; ++seat) {
    State r = s;
    arena::Rng rng(99);
    redeal_unseen(r, seat, rng);
    CHECK(check_invariants(r).ok());  // decks and discard piles hold their owner's cards only
    for (int d = 0; d < kSeats; ++d) {
      CHECK(deck_of(r, d).size() == deck_of(s, d).size());
      for (CardId c : deck_of(r, d)) CHECK(owner(r, c) == d);
    }
    CHECK(hidden_owners(r, seat) == hidden_owners(s, seat));
    CHECK(view(r, seat) == view(s, seat));
  }
}

// ---- errors --------------------------------------------------------------------------------

TEST_CASE("Seat configs: JSON forms, and malformed decks refused naming the card", "[stellar][own_decks]") {
  const auto none = seat_config_from_json(nullptr);
  REQUIRE(none.ok());
  CHECK_FALSE(none->deck.has_value());
  const auto empty = seat_config_from_json(json::object());
  REQUIRE(empty.ok());
  CHECK_FALSE(empty->deck.has_value());
  CHECK(to_json(*empty).is_null());

  json list = deck_to_json(starry_list());
  const auto with = seat_config_from_json({{"deck", list}});
  REQUIRE(with.ok());
  REQUIRE(with->deck.has_value());
  CHECK(*with->deck == starry_list());
  const auto again = seat_config_from_json(to_json(*with));
  REQUIRE(again.ok());
  CHECK(*again == *with);

  const auto unknown = seat_config_from_json({{"deck", list}, {"colour", "blue"}});
  REQUIRE_FALSE(unknown.ok());
  CHECK_THAT(unknown.error(), Catch::Contains("unknown field \"colour\""));
  const auto not_object = seat_config_from_json(json::array());
  REQUIRE_FALSE(not_object.ok());

  list[7]["number"] = 9;  // card 7 is Jupiter 4
  const auto bad = seat_config_from_json({{"deck", list}});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error() == "deck list: card 7 (Jupiter 4) has number 9 (expected 1-5 or \"6/0\")");

  // A list built in code is checked by new_game with parse_deck's messages, naming the seat.
  Deck deck = starry_list();
  deck[17].number = 9;
  const auto game = new_game(Config{}, {SeatConfig{}, SeatConfig{deck}}, 1);
  REQUIRE_FALSE(game.ok());
  CHECK(game.error() == "seat 1: deck list: card 17 (Moon 4) has number 9 (expected 1-5 or \"6/0\")");
  Deck no_starter = standard_deck();
  for (Card& c : no_starter) c.starter = c.starter && c.type != CardType::cloud;
  const auto missing = new_game(Config{}, {SeatConfig{no_starter}, SeatConfig{}}, 1);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error() == "seat 0: deck list: 0 starter cards of type cloud (exactly one per type is needed)");
  const auto small =
      new_game(Config{}, {SeatConfig{Deck(standard_deck().begin(), standard_deck().begin() + 56)}, SeatConfig{}}, 1);
  REQUIRE_FALSE(small.ok());
  CHECK_THAT(small.error(), Catch::StartsWith("seat 0: deck list: 56 cards"));
}

TEST_CASE("Own decks: the two lists together hold at most 255 cards", "[stellar][own_decks]") {
  const auto too_many = new_game(Config{}, {SeatConfig{padded_list(200)}, SeatConfig{}}, 1);
  REQUIRE_FALSE(too_many.ok());
  CHECK(too_many.error() ==
        "own decks: 260 cards in all (seat 0's list 200, seat 1's 60); a match holds at most 255 cards");
  CHECK_FALSE(match_cards(Config{}, {SeatConfig{padded_list(128)}, SeatConfig{padded_list(128)}}).ok());

  // 255 exactly is a match, and the last card id is 254.
  const State s = own_game({SeatConfig{padded_list(195)}, SeatConfig{}}, 2);
  CHECK(card_table(s).size() == 255);
  CHECK(owner(s, 254) == 1);
  play_checked(s, 2, true);

  const auto table = card_table_json(Config{}, {SeatConfig{padded_list(195)}, SeatConfig{}});
  REQUIRE(table.ok());
  CHECK(table->size() == 255);
  CHECK((*table)[194]["owner"] == 0);
  CHECK((*table)[195]["owner"] == 1);
  CHECK((*table)[254]["id"] == 254);
  const auto standard = card_table_json(Config{}, Seats{});
  REQUIRE(standard.ok());
  CHECK(standard->size() == 60);
  CHECK_FALSE((*standard)[0].contains("owner"));
}

TEST_CASE("Own decks: scoring works on the combined table", "[stellar][own_decks]") {
  const Seats seats = {SeatConfig{}, SeatConfig{starry_list()}};
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    State s = own_game(seats, seed);
    arena::Rng chooser(seed);
    std::vector<Action> actions;
    while (!is_over(s)) {
      legal_actions(s, actions);
      apply(s, actions[chooser.below(actions.size())]);
    }
    const Outcome o = score(s);
    for (const PlayerScore& p : o.players) {
      int total = p.diversity;
      for (const TypeScore& ts : p.types) total += ts.points;
      for (int pts : p.section_points) total += pts;
      CHECK(total == p.total);
      for (const auto& sat : p.satellites) CHECK(sat.stack != CardType::satellite);
    }
  }
}
