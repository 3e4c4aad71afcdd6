#pragma once
// stella_quest_policy.hpp: a heuristic Stella Quest policy, header-only and standalone (the
// standard library and nlohmann/json only). `stella_quest_policy::decide(request)` takes a
// request whose view is a Stella Quest view (docs/games/stella_quest.md; the same in protocol
// versions 1 and 2) and returns one of its legal actions. greedy_bot uses it through
// greedy::decide; copy it and improve it.
//
// The idea: winning a trick is worth what the winner collects, minus what the marker costs.
//   - Tokens are points, and the last one is the game: losing a token costs 1 + kScarcity / the
//     tokens left after it (elimination: -kGameOver).
//   - The marker: winning while holding it costs a token; the winner holds it afterwards, and
//     that liability is counted as a share of the next token.
//   - A new number is worth its jewels plus a step toward enlightenment (all of 1-6: kGameOver).
//     A number already held costs its jewels in tokens and turns the held copy face down.
// `play`: a card is valued by who wins the trick with it. If we win so far, the value of winning
// is weighted by the chance that nobody still to play beats us (from the public colours of their
// hands and the Dummy's known colour): the highest card or a Super Trump when winning is good,
// the lowest losing card when it is bad. If an opponent wins, a share of what it gains counts
// against us. Ties go to the card cheapest to give up: low, non-trump; breaks (which never win)
// are kept for when we must lose.
// `collect`: the card worth most (a new number with most jewels; the least bad duplicate).
// `top`: the trump colour we are weakest in (see the comment there).
// `draw` (costs a token): only when every play is bad and either tokens are plenty and the hand
// small, or the alternative is elimination.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace stella_quest_policy {

using nlohmann::json;

struct Decision {
  json action;        // one of the request's legal actions
  std::string debug;  // a short note for the replay
};

namespace detail {

// Weights (tuned by hand against the random bot; see tests/sample_bots).
constexpr double kNewNumber = 1.0;       // a new number, on top of its jewels
constexpr double kMarkerTaken = 0.3;     // holding the marker: this share of the token it may cost
constexpr double kGameOver = 100.0;      // enlightenment (+) or elimination (-)
constexpr double kScarcity = 4.0;        // a token is worth 1 point + kScarcity / tokens left
constexpr double kOpponentWeight = 0.2;  // the share of an opponent's gain that is our loss
constexpr double kFollowChance = 0.8;    // how often a player able to beat us does
constexpr double kKeepBreak = 0.4;       // giving up a break, our way out of a trick
constexpr double kKeepTrump = 0.1;       // giving up a trump card
constexpr double kKeepPerNumber = 0.02;  // giving up a higher card
constexpr double kDrawBelow = -1.5;      // draw only if the best play is worth less than this...
constexpr int kDrawMinTokens = 4;        // ...we have at least this many tokens...
constexpr int kDrawMaxHand = 2;          // ...and at most this many cards
constexpr int kDummy = -1;               // `who` of the Dummy's card

// A face: colour 0-3 (blue, green, red, yellow) and number 1-6, or a break (colour -1).
struct Card {
  int colour = -1;
  int number = 0;
  bool is_break() const { return colour < 0; }
  bool operator==(const Card&) const = default;
};

inline Card parse_face(const std::string& face) {  // "Blue 6", "Break"
  static const char* const kNames[] = {"Blue ", "Green ", "Red ", "Yellow "};
  for (int c = 0; c < 4; ++c) {
    const std::string prefix = kNames[c];
    if (face.rfind(prefix, 0) == 0) return {c, std::stoi(face.substr(prefix.size()))};
  }
  return {};
}

inline int parse_colour(const json& name) {  // "blue" ... "yellow"; null or "break": -1
  static const char* const kNames[] = {"blue", "green", "red", "yellow"};
  for (int c = 0; c < 4; ++c) {
    if (name == kNames[c]) return c;
  }
  return -1;
}

inline int jewels(int number) {
  return number <= 2 ? 3 : number <= 4 ? 2 : 1;
}

struct Player {
  int tokens = 0;
  bool marker = false;
  std::vector<Card> collection;
  std::vector<int> colours;  // the colours of the hand (public), -1 for a break
};

struct Play {
  int who = kDummy;  // a seat, or kDummy
  Card card;
};

// What losing tokens costs: a point each, and more as they run out (the last one is the game).
inline double token_cost(int from, int to) {
  if (to <= 0) return kGameOver;
  double cost = 0;
  for (int t = from; t > to; --t) cost += 1 + kScarcity / (t - 1);
  return cost;
}

// What collecting `c` is worth to `p`, with `tokens` lit tokens (after the marker step).
inline double collect_value(const Player& p, int tokens, Card c) {
  int count[7] = {};
  for (const Card& k : p.collection) ++count[k.number];
  if (count[c.number] == 0) {
    int numbers = 1;
    for (int n = 1; n <= 6; ++n) numbers += count[n] > 0 ? 1 : 0;
    return numbers == 6 ? kGameOver : jewels(c.number) + kNewNumber;
  }
  // A duplicate: its jewels in tokens, and the face-up copy goes face down.
  return -token_cost(tokens, tokens - jewels(c.number)) - (count[c.number] == 1 ? jewels(c.number) : 0);
}

// What winning a trick holding `trick` is worth to `p`: the marker, then the best card to take.
inline double win_value(const Player& p, const std::vector<Play>& trick) {
  int tokens = p.tokens;
  double value = 0;
  if (p.marker) {
    value = -token_cost(tokens, tokens - 1);
    if (--tokens == 0) return value;
  }
  value -= kMarkerTaken * token_cost(tokens, tokens - 1);  // we hold the marker afterwards
  double best = -kGameOver;
  for (const Play& play : trick) {
    if (!play.card.is_break()) best = std::max(best, collect_value(p, tokens, play.card));
  }
  return value + best;
}

// A card is a Super Trump when its face is already in the play area (the top discard included).
inline bool is_super(const std::vector<Play>& trick, std::size_t i, Card top) {
  if (trick[i].card.is_break()) return false;
  bool seen = trick[i].card == top;
  for (std::size_t j = 0; j < i; ++j) seen = seen || trick[j].card == trick[i].card;
  return seen;
}

// The index of the card winning so far (B3.3), or -1 while only breaks were played.
inline int winning_index(const std::vector<Play>& trick, Card top, int trump, int lead) {
  for (std::size_t i = trick.size(); i-- > 0;) {
    if (is_super(trick, i, top)) return static_cast<int>(i);  // the later Super Trump
  }
  for (int colour : {trump, lead}) {
    int best = -1;
    int high = 0;
    for (std::size_t i = 0; i < trick.size(); ++i) {
      const Card c = trick[i].card;
      if (colour >= 0 && c.colour == colour && c.number > high) {
        best = static_cast<int>(i);
        high = c.number;
      }
    }
    if (best >= 0) return best;
  }
  return -1;
}

// The chance that one seat still to play beats our winning card `c`. The Dummy must play its
// known colour; a player has the public colours of its hand and may not bother to beat us.
inline double beat_chance(Card c, bool super, int trump, int lead, const std::vector<int>& colours, bool dummy) {
  if (super) return 0.05;  // only the other copy of a face in the trick can beat it
  const double will = dummy ? 1.0 : kFollowChance;
  const double higher = (6 - c.number) / 6.0;  // one unknown card of our colour beats ours
  const auto own = std::count(colours.begin(), colours.end(), c.colour);
  const auto trumps = trump < 0 || trump == c.colour ? 0 : std::count(colours.begin(), colours.end(), trump);
  const auto leads = std::count(colours.begin(), colours.end(), lead);
  if (c.colour == trump) {
    if (!dummy && lead != trump && leads > 0) return 0;  // must follow the leading colour
    return will * (1 - std::pow(1 - higher, static_cast<double>(own)));
  }
  if (own > 0) return will * (1 - std::pow(1 - higher, static_cast<double>(own)));
  return trumps > 0 ? will : 0;
}

inline Decision decide(const json& request) {
  const json& view = request.at("view");
  const json& legal = request.at("legal");
  const int me = view.at("seat").get<int>();
  const int seats = view.at("seats").get<int>();
  const bool dummy = view.at("dummy").get<bool>();
  const int trump = parse_colour(view.at("trump"));
  const Card top = parse_face(view.at("discard").back().get<std::string>());

  std::vector<Player> players;
  for (const json& pj : view.at("players")) {
    Player p;
    p.tokens = pj.at("tokens").get<int>();
    p.marker = view.at("marker") == pj.at("seat");
    for (const json& f : pj.at("collection")) p.collection.push_back(parse_face(f.get<std::string>()));
    for (const json& c : pj.at("hand_colours")) p.colours.push_back(parse_colour(c));
    players.push_back(std::move(p));
  }
  const Player& self = players[static_cast<std::size_t>(me)];
  std::vector<Card> hand;
  for (const json& f : view.at("players").at(static_cast<std::size_t>(me)).at("hand")) {
    hand.push_back(parse_face(f.get<std::string>()));
  }

  std::vector<Play> trick;
  for (const json& pj : view.at("trick")) {
    const int who = pj.at("seat").is_number() ? pj.at("seat").get<int>() : kDummy;
    trick.push_back({who, parse_face(pj.at("card").get<std::string>())});
  }
  // Play order: the leader, then clockwise; with 2 seats the Dummy plays second.
  std::vector<int> order{view.at("leader").get<int>()};
  if (dummy) order.push_back(kDummy);
  for (int s = 1; s < seats; ++s) order.push_back((order[0] + s) % seats);

  std::size_t best = 0;
  double best_value = -1e18;
  std::size_t draw = legal.size();
  for (std::size_t i = 0; i < legal.size(); ++i) {
    const json& a = legal[i];
    const std::string kind = a.at("kind").get<std::string>();
    if (kind == "draw") {
      draw = i;
      continue;
    }
    const Card c = parse_face(a.at("card").get<std::string>());
    double v = 0;
    if (kind == "collect") {
      v = collect_value(self, self.tokens, c);
    } else if (kind == "top") {
      // The next trump. We just won, so we hold the marker and lead: our next won trick costs a
      // token. A trump colour we hold little of (and low) makes that trick easier to lose; a
      // colour we are strong in measured worse against random play (about 89% against 91% of
      // games ranked first with 2 seats).
      for (const Card& h : hand) {
        if (!c.is_break() && h.colour == c.colour) v -= 1 + h.number / 6.0;
      }
    } else {  // play
      std::vector<Play> after = trick;
      after.push_back({me, c});
      int lead = -1;
      for (const Play& p : after) lead = lead >= 0 || p.card.is_break() ? lead : p.card.colour;
      const int w = winning_index(after, top, trump, lead);
      if (w == static_cast<int>(after.size()) - 1) {
        double keep = 1;  // the chance nobody after us beats our card
        const bool super = is_super(after, after.size() - 1, top);
        for (std::size_t k = after.size(); k < order.size(); ++k) {
          const bool is_dummy = order[k] == kDummy;
          const std::vector<int> colours = is_dummy ? std::vector<int>{parse_colour(view.at("deck_top_colour"))}
                                                    : players[static_cast<std::size_t>(order[k])].colours;
          keep *= 1 - beat_chance(c, super, trump, lead, colours, is_dummy);
        }
        v = keep * win_value(self, after);
      } else if (w >= 0 && after[static_cast<std::size_t>(w)].who != kDummy) {
        // An opponent wins so far: a share of its gain is our loss (its loss our gain).
        const Player& winner = players[static_cast<std::size_t>(after[static_cast<std::size_t>(w)].who)];
        v = -kOpponentWeight * win_value(winner, after);
      }
      v -= c.is_break() ? kKeepBreak : kKeepPerNumber * c.number + (c.colour == trump ? kKeepTrump : 0);
    }
    if (v > best_value) {
      best_value = v;
      best = i;
    }
  }
  char note[80];
  // Draw when every play is bad, with tokens to spare and few cards, or to escape elimination.
  const bool poor = self.tokens >= kDrawMinTokens && static_cast<int>(hand.size()) <= kDrawMaxHand;
  if (draw < legal.size() && best_value < kDrawBelow && (poor || best_value < -kGameOver / 2)) {
    std::snprintf(note, sizeof note, "draw (best play %.2f)", best_value);
    return {legal.at(draw), note};
  }
  std::snprintf(note, sizeof note, "value %.2f of %zu actions", best_value, legal.size());
  return {legal.at(best), note};
}

}  // namespace detail

using detail::decide;

}  // namespace stella_quest_policy
