#pragma once
// greedy_policy.hpp: the decision function of greedy_bot, header-only so that a test (or your own
// bot) can call it in-process: `nlohmann::json greedy::choose(const nlohmann::json& request)`
// takes a request message with a version-1 view (card objects) and returns one of its legal
// actions. A version-2 request's view (card ids) is expanded first: protocol2.hpp.
//
// Stellar: every legal action is scored by a one-ply look-ahead on the bot's own view, and the
// best one is taken. The score is an estimate of the final score of the bot's own tableau:
//   - per type: stars on face-up telescope cards x longest run in the notebook stack, plus the
//     promise of what the remaining turns may add (stars for a run, run for stars);
//   - per section (top 1-5, middle 6-8, bottom 9-12): 10 x the chance that our sum beats the
//     opponent's visible one, once the empty slots of both are filled with average cards;
//   - diversity: 10 for all five types face up, partial credit while it is still reachable.
// A Step 2 card also moves a row card in Step 3 (the slot numbered like the card; slot 3 for a
// face-down card by default; the top of the deck for a 6/0 or an empty slot): the look-ahead
// plays that card too, placing it as well as it can, and values an unknown deck card at the
// average gain of a standard-deck card. "take" is valued by the best play the new hand allows.
// Stella Quest: the heuristic policy of stella_quest_policy.hpp (chosen by the view's "game").
// Interstellar: the heuristic policy of interstellar_policy.hpp (the same way).
// Any other game: a uniformly random legal action.
//
// Only the standard library and nlohmann/json: copy this file (and stella_quest_policy.hpp and
// interstellar_policy.hpp, which it includes) and start from it.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "interstellar_policy.hpp"
#include "stella_quest_policy.hpp"

namespace greedy {

using nlohmann::json;

struct Decision {
  json action;        // one of the request's legal actions
  std::string debug;  // a short note for the replay ("value 41.2 of 17 actions")
};

inline Decision decide(const json& request);
inline json choose(const json& request) {
  return decide(request).action;
}

// ---- implementation ------------------------------------------------------------------------

namespace detail {

constexpr int kTypes = 5;      // planet, moon, asteroid, cloud, black hole
constexpr int kSatellite = 5;  // the type index of satellites (they have no type)
constexpr int kSixZero = 6;    // the number of a 6/0 card
constexpr int kSlots = 12;
constexpr int kRowSlots = 5;

// The telescope (docs/games/stellar.md): slot i's neighbours as a bit set (bit j = slot j+1), and its
// section: 0 = top (1-5), 1 = middle (6-8), 2 = bottom (9-12).
constexpr unsigned bits2(int a, int b) {
  return (1u << (a - 1)) | (1u << (b - 1));
}
constexpr unsigned kNeighbours[kSlots] = {
    bits2(2, 3),                                // 1
    bits2(1, 3) | bits2(4, 4),                  // 2
    bits2(1, 2) | bits2(5, 5),                  // 3
    bits2(2, 5) | bits2(6, 7),                  // 4
    bits2(3, 4) | bits2(7, 8),                  // 5
    bits2(4, 7) | bits2(9, 10),                 // 6
    bits2(4, 5) | bits2(6, 8) | bits2(10, 11),  // 7
    bits2(5, 7) | bits2(11, 12),                // 8
    bits2(6, 10),                               // 9
    bits2(6, 7) | bits2(9, 11),                 // 10
    bits2(7, 8) | bits2(10, 12),                // 11
    bits2(8, 11),                               // 12
};
constexpr int kSectionOf[kSlots] = {0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 2};

// Weights of the estimate (tuned against the random bot; see tests/sample_bots).
constexpr double kFutureStarsPerTurn = 0.12;  // stars a type may still gain per remaining turn
constexpr double kFutureRunPerTurn = 0.10;    // run a type may still gain per remaining turn
constexpr double kGapPromise = 0.5;           // share of a one-card-away run extension counted
constexpr double kAverageNumber = 3.3;        // the average number of a card filling a slot
constexpr double kNumberVariance = 2.5;

struct Card {
  int id = -1;
  int type = kSatellite;  // 0-4, or kSatellite
  int number = 3;         // 1-5, or kSixZero
  int stars = 0;
  bool known() const { return id >= 0; }
};

struct Slot {
  bool filled = false;
  bool up = false;
  Card card;
};

// Our tableau, aggregated for a fast evaluation: the telescope slot by slot, the notebook as one
// bit set of numbers per type (bit n = number n), 6/0 counts and the satellites' numbers.
struct Tableau {
  Slot scope[kSlots];
  unsigned numbers[kTypes] = {};
  int six_zeros[kTypes] = {};
  int satellites[16] = {};
  int n_satellites = 0;

  void add_notebook(const Card& c) {
    if (c.type == kSatellite) {
      if (n_satellites < 16) satellites[n_satellites++] = c.number;
    } else if (c.number == kSixZero) {
      ++six_zeros[c.type];
    } else {
      numbers[c.type] |= 1u << c.number;
    }
  }
  void place(int slot, const Card& c, bool up) {
    scope[slot].filled = true;
    scope[slot].up = up;
    scope[slot].card = c;
  }
  // Slots where `c` may go face up: next to a face-up card of its type if there is one, else any
  // empty slot (satellites: any empty slot).
  unsigned face_up_slots(const Card& c) const {
    unsigned empty = 0;
    unsigned near = 0;
    bool has_type = false;
    for (int i = 0; i < kSlots; ++i) {
      if (!scope[i].filled) {
        empty |= 1u << i;
      } else if (c.type != kSatellite && scope[i].up && scope[i].card.type == c.type) {
        has_type = true;
        near |= kNeighbours[i];
      }
    }
    return has_type ? (empty & near) : empty;
  }
  unsigned empty_slots() const {
    unsigned empty = 0;
    for (int i = 0; i < kSlots; ++i) {
      if (!scope[i].filled) empty |= 1u << i;
    }
    return empty;
  }
};

// What the evaluation needs besides our tableau.
struct Context {
  int remaining = 0;            // our turns left after this decision
  double opp_sums[3] = {};      // opponent's section sums (face down = 3)
  int opp_empty[3] = {};        // opponent's empty slots per section
  bool facedown_three = true;   // config facedown_step3 == "three"
  Card row[kRowSlots];          // the row (id -1 = empty slot)
  double unknown_scope = 0;     // average gain of an unknown card placed in the telescope
  double unknown_notebook = 0;  // ... added to the notebook
};

inline int longest_run(unsigned numbers) {
  int best = 0;
  int current = 0;
  for (int n = 0; n <= kSixZero; ++n) {
    current = (numbers & (1u << n)) ? current + 1 : 0;
    best = std::max(best, current);
  }
  return best;
}

// The run a stack reaches, choosing each 6/0 as 6 or 0 (two of them can be both).
inline int best_run(unsigned numbers, int six_zeros) {
  if (six_zeros == 0) return longest_run(numbers);
  int best = std::max(longest_run(numbers | (1u << 6)), longest_run(numbers | 1u));
  if (six_zeros >= 2) best = std::max(best, longest_run(numbers | 1u | (1u << 6)));
  return best;
}

// A stack's present run, and its run with one more card (any missing number 1-5), tabulated
// once for every set of numbers 1-5 and 6/0 count (0, 1, 2+): evaluate() runs very often.
struct RunInfo {
  int run = 0;
  int with_one_more = 0;
};
inline const RunInfo& run_info(unsigned numbers, int six_zeros) {
  struct Table {
    RunInfo entries[32][3];
    Table() {
      for (unsigned bits = 0; bits < 32; ++bits) {
        const unsigned nums = bits << 1;  // bit n = number n, n = 1..5
        for (int z = 0; z < 3; ++z) {
          RunInfo& e = entries[bits][z];
          e.run = best_run(nums, z);
          e.with_one_more = e.run;
          for (int n = 1; n <= 5; ++n) {
            if (!(nums & (1u << n))) e.with_one_more = std::max(e.with_one_more, best_run(nums | (1u << n), z));
          }
        }
      }
    }
  };
  static const Table table;
  return table.entries[(numbers >> 1) & 31u][std::min(six_zeros, 2)];
}

// The run as it may become: the present run, part of what one more card could add, and what
// the remaining turns may bring.
inline double promising_run(unsigned numbers, int six_zeros, int remaining) {
  const RunInfo& r = run_info(numbers, six_zeros);
  if (remaining == 0) return r.run;
  return r.run + kGapPromise * (r.with_one_more - r.run) + kFutureRunPerTurn * remaining;
}

// The estimated final score of our tableau (see the top of the file).
inline double evaluate(const Tableau& t, const Context& ctx) {
  const int remaining = ctx.remaining;
  // Telescope: stars per type, section sums, types face up.
  int stars[kTypes] = {};
  double sums[3] = {};
  int empty[3] = {};
  unsigned types_up = 0;
  for (int i = 0; i < kSlots; ++i) {
    const Slot& s = t.scope[i];
    if (!s.filled) {
      ++empty[kSectionOf[i]];
      continue;
    }
    sums[kSectionOf[i]] += s.up ? s.card.number : 3;
    if (s.up && s.card.type != kSatellite) {
      stars[s.card.type] += s.card.stars;
      types_up |= 1u << s.card.type;
    }
  }

  // Stars x run per type. Satellites join, one by one, the stack where they add the most.
  unsigned numbers[kTypes];
  for (int k = 0; k < kTypes; ++k) numbers[k] = t.numbers[k];
  const double future_stars = kFutureStarsPerTurn * remaining;
  auto type_value = [&](int k, unsigned nums) {
    return (stars[k] + future_stars) * promising_run(nums, t.six_zeros[k], remaining) -
           future_stars * kFutureRunPerTurn * remaining;
  };
  double per_type[kTypes];
  for (int k = 0; k < kTypes; ++k) per_type[k] = type_value(k, numbers[k]);
  for (int i = 0; i < t.n_satellites; ++i) {
    int best_k = -1;
    double best_gain = 0;
    for (int k = 0; k < kTypes; ++k) {
      const double gain = type_value(k, numbers[k] | (1u << t.satellites[i])) - per_type[k];
      if (gain > best_gain) {
        best_gain = gain;
        best_k = k;
      }
    }
    if (best_k >= 0) {
      numbers[best_k] |= 1u << t.satellites[i];
      per_type[best_k] += best_gain;
    }
  }
  double value = 0;
  for (double v : per_type) value += v;

  // Sections: 10 x the chance of the strictly higher sum once both telescopes are full.
  for (int s = 0; s < 3; ++s) {
    const double diff = (sums[s] + kAverageNumber * empty[s]) - (ctx.opp_sums[s] + kAverageNumber * ctx.opp_empty[s]);
    const int open = empty[s] + ctx.opp_empty[s];
    if (open == 0) {
      value += diff > 0 ? 10.0 : 0.0;
    } else {
      const double sigma = std::sqrt(kNumberVariance * open);
      value += 10.0 / (1.0 + std::exp(-1.7 * diff / sigma));
    }
  }

  // Diversity: 10 once all five types are face up; while some are missing, a share that shrinks
  // with each missing type and with the turns left to place them.
  int missing = kTypes;
  for (int k = 0; k < kTypes; ++k) missing -= static_cast<int>((types_up >> k) & 1u);
  if (missing == 0) {
    value += 10;
  } else if (remaining >= missing) {
    value += 10 * std::pow(0.6, missing) * std::min(1.0, remaining / (2.0 * missing));
  }
  return value;
}

// The best value of placing `c` in the telescope (face up where allowed, or face down anywhere).
inline double best_placement(Tableau t, const Card& c, const Context& ctx, int* best_slot = nullptr,
                             bool* best_up = nullptr) {
  double best = -1e9;
  const unsigned up_slots = t.face_up_slots(c);
  const unsigned empty = t.empty_slots();
  for (int face = 1; face >= 0; --face) {
    const unsigned slots = face ? up_slots : empty;
    for (int i = 0; i < kSlots; ++i) {
      if (!(slots & (1u << i))) continue;
      const Slot saved = t.scope[i];
      t.place(i, c, face == 1);
      const double v = evaluate(t, ctx);
      t.scope[i] = saved;
      if (v > best) {
        best = v;
        if (best_slot) *best_slot = i;
        if (best_up) *best_up = face == 1;
      }
    }
  }
  return best;
}

// Step 3: the row card (or, for a 6/0 or an empty slot, the unknown top of the deck) that a
// Step 2 card with number `number` brings.
inline const Card* step3_card(const Card* row, int number) {
  if (number == kSixZero || number < 1 || number > kRowSlots) return nullptr;
  return row[number - 1].known() ? &row[number - 1] : nullptr;
}

// Step 2 + Step 3: `c` from the hand goes to the telescope (slot, face) or to the notebook
// (slot < 0); the Step 3 card goes to the other area, as well as it can.
inline double play_value(Tableau t, const Card& c, int slot, bool up, const Card* row, const Context& ctx) {
  if (slot >= 0) {
    t.place(slot, c, up);
    const int number = (!up && ctx.facedown_three) ? 3 : c.number;
    const Card* next = step3_card(row, number);
    if (!next) return evaluate(t, ctx) + ctx.unknown_notebook;
    t.add_notebook(*next);
    return evaluate(t, ctx);
  }
  t.add_notebook(c);
  const Card* next = step3_card(row, c.number);
  if (!next) return evaluate(t, ctx) + ctx.unknown_scope;
  return best_placement(t, *next, ctx);
}

// The best Step 2 (+ Step 3) among every play of every hand card.
inline double best_play(const Tableau& t, const Card* hand, int hand_size, const Card* row, const Context& ctx) {
  double best = -1e9;
  for (int h = 0; h < hand_size; ++h) {
    const Card& c = hand[h];
    best = std::max(best, play_value(t, c, -1, false, row, ctx));
    const unsigned up_slots = t.face_up_slots(c);
    const unsigned empty = t.empty_slots();
    for (int i = 0; i < kSlots; ++i) {
      if (up_slots & (1u << i)) best = std::max(best, play_value(t, c, i, true, row, ctx));
      if (empty & (1u << i)) best = std::max(best, play_value(t, c, i, false, row, ctx));
    }
  }
  return best;
}

// ---- reading the view ----------------------------------------------------------------------

inline int type_index(const std::string& name) {
  static const char* const kNames[] = {"planet", "moon", "asteroid", "cloud", "black_hole", "satellite"};
  for (int i = 0; i < 6; ++i) {
    if (name == kNames[i]) return i;
  }
  throw std::runtime_error("unknown card type " + name);
}

inline Card read_card(const json& j) {
  Card c;
  c.id = j.at("id").get<int>();
  c.type = type_index(j.at("type").get<std::string>());
  const json& number = j.at("number");
  c.number = number.is_string() ? kSixZero : number.get<int>();  // "6/0" is the only string
  c.stars = j.value("stars", 0);
  return c;
}

inline int card_number_in_telescope(const json& slot) {
  if (slot.at("face") != "up") return 3;
  const json& number = slot.at("card").at("number");
  return number.is_string() ? kSixZero : number.get<int>();
}

// Expected gain of a card we cannot see yet (the top of the deck), over the standard deck's
// mix: per type two each of 1-5 (stars 3,2,2,1,1) and one 6/0 (no star); satellites 1-5.
inline void estimate_unknown(const Tableau& t, Context& ctx) {
  constexpr int kStarsByNumber[7] = {0, 3, 2, 2, 1, 1, 0};
  const double base = evaluate(t, ctx);
  double scope = 0;
  double notebook = 0;
  double weight = 0;
  for (int type = 0; type <= kSatellite; ++type) {
    for (int number = 1; number <= kSixZero; ++number) {
      if (type == kSatellite && number == kSixZero) continue;
      const double w = type == kSatellite ? 1.0 : number == kSixZero ? 1.0 : 2.0;
      Card c;
      c.type = type;
      c.number = number;
      c.stars = type == kSatellite ? 0 : kStarsByNumber[number];
      if (t.empty_slots() != 0) scope += w * (best_placement(t, c, ctx) - base);
      Tableau with = t;
      with.add_notebook(c);
      notebook += w * (evaluate(with, ctx) - base);
      weight += w;
    }
  }
  ctx.unknown_scope = scope / weight;
  ctx.unknown_notebook = notebook / weight;
}

inline Decision random_decision(const json& request) {
  const json& legal = request.at("legal");
  std::mt19937_64 rng(request.value("id", std::uint64_t{0}) * 7919u + request.value("seat", std::uint64_t{0}));
  return {legal.at(static_cast<std::size_t>(rng() % legal.size())), "random"};
}

// The look-ahead's value of every legal action of a Stellar request, in the legal list's order
// (decide_stellar takes the first best; a search can use them as a prior).
inline std::vector<double> stellar_values(const json& request) {
  const json& view = request.at("view");
  const json& legal = request.at("legal");
  const int seat = view.at("seat").get<int>();
  const json& me = view.at("players").at(static_cast<std::size_t>(seat));
  const json& opp = view.at("players").at(static_cast<std::size_t>(1 - seat));
  const std::string phase = view.at("phase").get<std::string>();

  Tableau t;
  Context ctx;
  for (int i = 0; i < kSlots; ++i) {
    const json& s = me.at("telescope").at(static_cast<std::size_t>(i));
    if (!s.is_null()) t.place(i, read_card(s.at("card")), s.at("face") == "up");
    const json& o = opp.at("telescope").at(static_cast<std::size_t>(i));
    if (o.is_null()) {
      ++ctx.opp_empty[kSectionOf[i]];
    } else {
      ctx.opp_sums[kSectionOf[i]] += card_number_in_telescope(o);
    }
  }
  for (const json& c : me.at("notebook")) t.add_notebook(read_card(c));
  Card hand[4];
  int hand_size = 0;
  if (me.contains("hand")) {
    for (const json& c : me.at("hand")) {
      if (hand_size < 3) hand[hand_size++] = read_card(c);
    }
  }
  for (int i = 0; i < kRowSlots; ++i) {
    const json& r = view.at("row").at(static_cast<std::size_t>(i));
    if (!r.is_null()) ctx.row[i] = read_card(r);
  }
  if (view.contains("config")) ctx.facedown_three = view.at("config").value("facedown_step3", "three") == "three";

  // Each turn fills one telescope slot; the decision at hand fills one of them.
  int empty = 0;
  for (int i = 0; i < kSlots; ++i) empty += t.scope[i].filled ? 0 : 1;
  ctx.remaining = phase == "keep" ? 0 : std::max(0, empty - 1);
  if (phase == "take" || phase == "play") estimate_unknown(t, ctx);

  std::vector<double> values(legal.size(), 0.0);
  for (std::size_t i = 0; i < legal.size(); ++i) {
    const json& a = legal[i];
    const std::string kind = a.at("kind").get<std::string>();
    double v = 0;
    if (kind == "choose_starter") {
      // The chosen starter goes face up to slot 1, the other to the notebook.
      Tableau after = t;
      for (const json& c : me.at("starters")) {
        const Card card = read_card(c);
        if (card.id == a.at("card").get<int>()) {
          after.place(0, card, true);
        } else {
          after.add_notebook(card);
        }
      }
      Context start = ctx;
      start.remaining = 11;
      v = evaluate(after, start);
    } else if (kind == "refresh") {
      v = a.at("accept").get<bool>() ? -1 : 0;  // keep the row we can see
    } else if (kind == "take") {
      // The taken card joins the hand; then the best play of the new hand, with that row slot empty.
      const int slot = a.at("slot").get<int>() - 1;
      Card row[kRowSlots];
      std::copy(ctx.row, ctx.row + kRowSlots, row);
      Card h[4];
      std::copy(hand, hand + hand_size, h);
      h[hand_size] = row[slot];
      row[slot] = Card{};
      v = best_play(t, h, hand_size + 1, row, ctx);
    } else if (kind == "play") {
      Card c;
      for (int h = 0; h < hand_size; ++h) {
        if (hand[h].id == a.at("card").get<int>()) c = hand[h];
      }
      if (a.at("area") == "notebook") {
        v = play_value(t, c, -1, false, ctx.row, ctx);
      } else {
        v = play_value(t, c, a.at("slot").get<int>() - 1, a.at("face") == "up", ctx.row, ctx);
      }
    } else if (kind == "place") {
      Tableau after = t;
      after.place(a.at("slot").get<int>() - 1, read_card(view.at("placing")), a.at("face") == "up");
      v = evaluate(after, ctx);
    } else if (kind == "keep") {
      Tableau after = t;
      for (int h = 0; h < hand_size; ++h) {
        if (hand[h].id == a.at("card").get<int>()) after.add_notebook(hand[h]);
      }
      v = evaluate(after, ctx);
    }
    values[i] = v;
  }
  return values;
}

inline Decision decide_stellar(const json& request) {
  const json& legal = request.at("legal");
  const std::vector<double> values = stellar_values(request);
  std::size_t best = 0;
  double best_value = -1e18;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i] > best_value) {
      best_value = values[i];
      best = i;
    }
  }
  char note[64];
  std::snprintf(note, sizeof note, "value %.1f of %zu actions", best_value, legal.size());
  return {legal.at(best), note};
}

}  // namespace detail

inline Decision decide(const json& request) {
  try {
    const json& view = request.at("view");
    if (view.is_object() && view.value("game", "") == "stellar") return detail::decide_stellar(request);
    if (view.is_object() && view.value("game", "") == "stella_quest") {
      stella_quest_policy::Decision d = stella_quest_policy::decide(request);
      return {std::move(d.action), std::move(d.debug)};
    }
    if (view.is_object() && view.value("game", "") == "interstellar") {
      interstellar_policy::Decision d = interstellar_policy::decide(request);
      return {std::move(d.action), std::move(d.debug)};
    }
  } catch (const std::exception& e) {
    // A view this policy does not understand: still answer, with a legal action.
    Decision d = detail::random_decision(request);
    d.debug = "random (" + std::string(e.what()).substr(0, 120) + ")";
    return d;
  }
  return detail::random_decision(request);
}

}  // namespace greedy
