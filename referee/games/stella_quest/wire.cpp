// Protocol 2 on the wire: a seat's view and the legal actions written straight from the state as
// JSON text, without building a JSON tree. The output is byte for byte nlohmann's dump of view()
// and to_json(action) (json.cpp: keys sorted, no spaces); the conformance check
// (tests/games/conformance.cpp) compares them at every step of thousands of games, so json.cpp
// stays the readable definition and this file only its fast form. Every string written is a card
// name ("Blue 6", "Break") or an enum's name: none needs escaping.

#include <array>
#include <string>
#include <vector>

#include "referee/core/index.hpp"
#include "referee/games/json_text.hpp"
#include "referee/games/stella_quest/json.hpp"

namespace arena::stella_quest {

namespace {

// The faces' names, made once (face_name formats one at every call).
const std::array<std::string, kFaces>& wire_face_names() {
  static const std::array<std::string, kFaces> names = [] {
    std::array<std::string, kFaces> out;
    for (int f = 0; f < kFaces; ++f) out[idx(f)] = face_name(static_cast<Face>(f));
    return out;
  }();
  return names;
}

class WireText : games::JsonText {
 public:
  explicit WireText(std::string& out) : JsonText(out) {}

  // view(), its keys in sorted order.
  void view(const State& s, Seat seat) {
    const bool over = is_over(s);
    raw(R"({"deck_size":)");
    integer(static_cast<long long>(s.deck.size()));
    raw(R"(,"deck_top_colour":)");
    if (s.deck.empty()) {
      raw("null");
    } else {
      quoted(enum_name(colour_of(s.deck.back())));
    }
    raw(R"(,"discard":)");
    names(s.discard);
    raw(R"(,"dummy":)");
    boolean(s.seats == 2);
    if (over) {
      raw(R"(,"end":)");
      quoted(enum_name(s.end));
    }
    raw(R"(,"game":"stella_quest","leader":)");
    integer(s.leader);
    raw(R"(,"leading_colour":)");
    colour(s.leading);
    raw(R"(,"marker":)");
    seat_value(s.marker);
    raw(R"(,"max_tricks":)");
    integer(s.config.max_tricks);
    raw(R"(,"phase":)");
    quoted(enum_name(s.phase));
    raw(R"(,"players":[)");
    for (int i = 0; i < s.seats; ++i) {
      if (i > 0) out_.push_back(',');
      player(s.players[idx(i)], i, i == seat);
    }
    raw(R"(],"seat":)");
    integer(seat);
    raw(R"(,"seats":)");
    integer(s.seats);
    raw(R"(,"to_act":)");
    if (over) {
      raw("null");
    } else {
      integer(to_act(s));
    }
    raw(R"(,"trick":)");
    array(s.trick, [&](const Play& p) {
      raw(R"({"card":)");
      card_name(p.card);
      raw(R"(,"seat":)");
      seat_value(p.seat);
      out_.push_back('}');
    });
    raw(R"(,"tricks_played":)");
    integer(s.tricks);
    raw(R"(,"trump":)");
    colour(trump_colour(s.discard.back()));
    raw(R"(,"winner":)");
    seat_value(s.winner);
    out_.push_back('}');
  }

  // to_json(action): {"card":...,"kind":...}, or {"kind":"draw"}.
  void action(const Action& a) {
    out_.push_back('{');
    if (a.kind != ActionKind::draw) {
      raw(R"("card":)");
      quoted(wire_face_names()[a.face]);
      out_.push_back(',');
    }
    raw(R"("kind":)");
    quoted(enum_name(a.kind));
    out_.push_back('}');
  }

 private:
  void card_name(CardId c) { quoted(card(c).name); }
  void names(const std::vector<CardId>& cards) {
    array(cards, [&](CardId c) { card_name(c); });
  }
  void colour(Colour c) {
    if (c == Colour::none) {
      raw("null");
    } else {
      quoted(enum_name(c));
    }
  }
  void seat_value(std::int8_t seat) {
    if (seat == kDummy) {
      raw(R"("dummy")");
    } else if (seat == kNone) {
      raw("null");
    } else {
      integer(seat);
    }
  }
  // A player's entry, keys sorted: the hand's numbers only in the seat's own.
  void player(const Player& p, int i, bool own) {
    raw(R"({"collection":)");
    names(p.collection);
    if (own) {
      raw(R"(,"hand":)");
      names(p.hand);
    }
    raw(R"(,"hand_colours":)");
    array(p.hand, [&](CardId c) { quoted(enum_name(colour_of(c))); });
    raw(R"(,"hand_size":)");
    integer(static_cast<long long>(p.hand.size()));
    raw(R"(,"seat":)");
    integer(i);
    raw(R"(,"tokens":)");
    integer(p.tokens);
    out_.push_back('}');
  }
};

}  // namespace

void write_view(const State& s, Seat seat, std::string& out) {
  WireText(out).view(s, seat);
}

void write_action(const Action& a, std::string& out) {
  WireText(out).action(a);
}

}  // namespace arena::stella_quest
