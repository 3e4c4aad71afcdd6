// Protocol 2 on the wire: a seat's view and the actions written straight from the state as JSON
// text, without building a JSON tree. The output is byte for byte nlohmann's dump of view_v2 and
// to_json(Action) (keys sorted, no spaces); the conformance check (tests/games/conformance.cpp)
// compares the two at every step of thousands of games, so json.cpp stays the readable
// definition and this file only its fast form.

#include <algorithm>
#include <charconv>
#include <string_view>

#include "referee/games/json_text.hpp"
#include "referee/games/stellar/json.hpp"

namespace arena::stellar {

namespace {

class Writer : public games::JsonText {
 public:
  Writer(const State& s, Seat seat, std::string& out) : JsonText(out), s_(s), seat_(seat) {}
  void optional(std::int16_t v) {
    if (v == kNone) {
      raw("null");
    } else {
      integer(v);
    }
  }

  // A seat's secret choice (kNone: not made yet): its value for its owner only, and whether it is
  // made for every seat. The keys come with their leading comma and colon.
  void secret_choice(bool own, std::string_view choice_key, std::string_view chosen_key, std::int16_t choice) {
    if (own) {
      raw(choice_key);
      optional(choice);
    }
    raw(chosen_key);
    boolean(choice != kNone);
  }

  // A card named by id; the ids the seat's table lacks are noted for "cards".
  void card(int id) {
    if (s_.own && owner(s_, id) != seat_) foreign_.push_back(static_cast<CardId>(id));
    integer(id);
  }
  void cards(const std::vector<CardId>& ids) {
    out_.push_back('[');
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (i > 0) out_.push_back(',');
      card(ids[i]);
    }
    out_.push_back(']');
  }

  void telescope(const Player& p, bool owner_seat) {
    out_.push_back('[');
    for (std::size_t i = 0; i < p.telescope.size(); ++i) {
      if (i > 0) out_.push_back(',');
      const Slot& slot = p.telescope[i];
      if (slot.empty()) {
        raw("null");
      } else if (slot.face_up || owner_seat || slot.seen) {
        raw(R"({"card":)");
        card(slot.card);
        raw(slot.face_up ? R"(,"face":"up"})" : R"(,"face":"down"})");
      } else {
        raw(R"({"face":"down"})");
      }
    }
    out_.push_back(']');
  }

  void player(int i) {
    const Player& p = s_.players[static_cast<std::size_t>(i)];
    const bool own = i == seat_;
    out_.push_back('{');
    if (own) {
      raw(R"("hand":)");
      cards(p.hand);
      out_.push_back(',');
    }
    raw(R"("hand_size":)");
    integer(static_cast<long long>(p.hand.size()));
    if (s_.phase == Phase::keep) secret_choice(own, R"(,"keep_choice":)", R"(,"keep_chosen":)", p.keep_choice);
    raw(R"(,"notebook":)");
    cards(p.notebook);
    raw(R"(,"seat":)");
    integer(i);
    if (s_.phase == Phase::choose_starter) {
      secret_choice(own, R"(,"starter_choice":)", R"(,"starter_chosen":)", p.starter_choice);
      if (own) {
        raw(R"(,"starters":[)");
        card(p.starters[0]);
        out_.push_back(',');
        card(p.starters[1]);
        out_.push_back(']');
      }
    }
    raw(R"(,"telescope":)");
    telescope(p, own);
    out_.push_back('}');
  }

  // The whole view. Its keys in sorted order; "cards" comes first but depends on every card the
  // rest names, so the rest is written first and "cards" inserted in front when there are any.
  void view() {
    out_.push_back('{');
    const std::size_t cards_at = out_.size();
    raw(s_.config.facedown_step3 == FacedownStep3::three ? R"("config":{"facedown_step3":"three"})"
                                                         : R"("config":{"facedown_step3":"printed"})");
    raw(R"(,"deck_size":)");
    integer(static_cast<long long>(deck_of(s_, seat_).size()));
    if (s_.own) {
      raw(R"(,"decks":[)");
      for (int i = 0; i < kSeats; ++i) {
        if (i > 0) out_.push_back(',');
        raw(R"({"deck_size":)");
        integer(static_cast<long long>(deck_of(s_, i).size()));
        raw(R"(,"discard":)");
        cards(discard_of(s_, i));
        raw(R"(,"seat":)");
        integer(i);
        out_.push_back('}');
      }
      out_.push_back(']');
    }
    raw(R"(,"discard":)");
    cards(discard_of(s_, seat_));
    raw(R"(,"game":"stellar","last_step3_slot":)");
    if (s_.last_step3_slot == kNone) {
      raw("null");
    } else {
      integer(s_.last_step3_slot + 1);
    }
    raw(R"(,"phase":")");
    raw(enum_name(s_.phase));
    raw(R"(","placing":)");
    if (s_.placing == kNone) {
      raw("null");
    } else {
      card(s_.placing);
    }
    raw(R"(,"players":[)");
    for (int i = 0; i < kSeats; ++i) {
      if (i > 0) out_.push_back(',');
      player(i);
    }
    raw(R"(],"refresh_available":)");
    boolean(s_.refresh_pending);
    raw(R"(,"round":)");
    integer(round_of(s_));
    raw(R"(,"row":[)");
    for (std::size_t i = 0; i < s_.row.size(); ++i) {
      if (i > 0) out_.push_back(',');
      if (s_.row[i] == kNone) {
        raw("null");
      } else {
        card(s_.row[i]);
      }
    }
    raw(R"(],"seat":)");
    integer(seat_);
    raw(R"(,"start_player":)");
    if (s_.phase == Phase::choose_starter) {
      raw("null");
    } else {
      integer(s_.start_player);
    }
    raw(R"(,"to_act":)");
    if (is_over(s_)) {
      raw("null");
    } else {
      integer(to_act(s_));
    }
    raw(R"(,"turn":)");
    integer(s_.turn);
    out_.push_back('}');
    if (!foreign_.empty()) {
      std::sort(foreign_.begin(), foreign_.end());
      foreign_.erase(std::unique(foreign_.begin(), foreign_.end()), foreign_.end());
      // Rare (another seat's own-deck cards in sight): the card objects through the JSON form.
      std::string cards = R"("cards":[)";
      for (std::size_t i = 0; i < foreign_.size(); ++i) {
        if (i > 0) cards.push_back(',');
        cards += card_json(s_, foreign_[i]).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      }
      cards += "],";
      out_.insert(cards_at, cards);
    }
  }

 private:
  const State& s_;
  Seat seat_;
  std::vector<CardId> foreign_;
};

void append_int(std::string& out, int v) {
  char buf[12];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

}  // namespace

void write_view_v2(const State& s, Seat seat, std::string& out) {
  Writer(s, seat, out).view();
}

void write_action(const Action& a, std::string& out) {
  switch (a.kind) {
    case ActionKind::choose_starter:
    case ActionKind::keep:
      out.append(R"({"card":)");
      append_int(out, a.card);
      out.append(a.kind == ActionKind::keep ? R"(,"kind":"keep"})" : R"(,"kind":"choose_starter"})");
      return;
    case ActionKind::refresh:
      out.append(a.accept ? R"({"accept":true,"kind":"refresh"})" : R"({"accept":false,"kind":"refresh"})");
      return;
    case ActionKind::take:
      out.append(R"({"kind":"take","slot":)");
      append_int(out, a.slot + 1);
      out.push_back('}');
      return;
    case ActionKind::play:
      if (a.area == Area::notebook) {
        out.append(R"({"area":"notebook","card":)");
        append_int(out, a.card);
        out.append(R"(,"kind":"play"})");
      } else {
        out.append(R"({"area":"telescope","card":)");
        append_int(out, a.card);
        out.append(a.face_up ? R"(,"face":"up","kind":"play","slot":)" : R"(,"face":"down","kind":"play","slot":)");
        append_int(out, a.slot + 1);
        out.push_back('}');
      }
      return;
    case ActionKind::place:
      out.append(a.face_up ? R"({"face":"up","kind":"place","slot":)" : R"({"face":"down","kind":"place","slot":)");
      append_int(out, a.slot + 1);
      out.push_back('}');
      return;
  }
}

}  // namespace arena::stellar
