// Protocol 2 on the wire: a seat's view written straight from the state as JSON text, without
// building a JSON tree. The output is byte for byte nlohmann's dump of view_v2 (keys sorted, no
// spaces); the conformance check (tests/games/conformance.cpp) compares the two at every step of
// thousands of games, so view.cpp stays the readable definition and this file only its fast form.

#include <algorithm>
#include <charconv>

#include "referee/games/interstellar/engine.hpp"
#include "referee/games/interstellar/json.hpp"
#include "referee/games/interstellar/json_parts.hpp"
#include "referee/games/json_text.hpp"

namespace arena::interstellar {

namespace {

// What the view's and the actions' writers share: enums by name, places.
class Text : protected games::JsonText {
 public:
  explicit Text(std::string& out) : JsonText(out) {}

 protected:
  // An enum as its name, quoted (its EnumNames table: no name needs escaping).
  template <typename E>
  void name(E value) {
    quoted(enum_name(value));
  }
  void loc(const Loc& at) {
    if (at.zone == Zone::none) {
      raw("null");
      return;
    }
    out_.push_back('{');
    if (at.zone == Zone::planet) {
      raw(R"("planet":)");
      integer(at.planet);
      out_.push_back(',');
    }
    raw(R"("zone":)");
    name(at.zone);
    out_.push_back('}');
  }
};

class Writer : Text {
 public:
  Writer(const State& s, Seat seat, std::string& out) : Text(out), s_(s), seat_(seat) {}

  // The whole view, keys in sorted order. "cards" comes first but depends on every card the rest
  // names, so the rest is written first and "cards" inserted in front when there are any.
  void view() {
    out_.push_back('{');
    const std::size_t cards_at = out_.size();
    raw(R"("config":{"deckout":")");
    raw(enum_name(s_.config.deckout));
    raw(R"(","max_turns":)");
    integer(s_.config.max_turns);
    raw(R"(},"end":")");
    raw(enum_name(s_.end));
    raw(R"(","events":)");
    events(s_.events);
    raw(R"(,"game":"interstellar","last_events":)");
    events(s_.last_events);
    raw(R"(,"on_turn":)");
    integer(s_.on_turn);
    raw(R"(,"pending":)");
    pending();
    raw(R"(,"phase":")");
    raw(enum_name(s_.phase));
    raw(R"(","players":[)");
    static_assert(kSeats == 2);
    player(0);
    out_.push_back(',');
    player(1);
    raw(R"(],"seat":)");
    integer(seat_);
    raw(R"(,"start_player":)");
    integer(s_.start_player);
    raw(R"(,"this_turn":)");
    this_turn();
    raw(R"(,"to_act":)");
    if (s_.phase == Phase::over) {
      raw("null");
    } else {
      integer(to_act(s_));
    }
    raw(R"(,"turn":)");
    integer(s_.turn);
    raw(R"(,"winner":)");
    if (s_.phase == Phase::over && s_.winner >= 0) {
      integer(s_.winner);
    } else {
      raw("null");
    }
    out_.push_back('}');
    if (!foreign_.empty()) insert_cards(cards_at);
  }

 private:
  // A card by id; the other seat's are noted for "cards".
  void card(const Card& c) {
    if (owner(s_, c.id) != seat_) foreign_.push_back(c);
    integer(c.id);
  }
  void cards(const std::vector<Card>& v) {
    array(v, [&](const Card& c) { card(c); });
  }
  void card_key(const Card& c) {
    raw(R"("card":")");
    raw(info(c.kind).key);
    out_.push_back('"');
  }
  void events(const std::vector<Event>& v) {
    array(v, [&](const Event& e) { event(e); });
  }

  // One event, its keys sorted: each kind writes the keys before "event", then "event", then
  // those between "event" and "seat", then "seat", then the rest.
  void event(const Event& e) {
    out_.push_back('{');
    const auto head = [&] {
      raw(R"("event":)");
      name(e.kind);
    };
    const auto seat = [&] {
      raw(R"(,"seat":)");
      integer(e.seat);
    };
    const auto key = [&](std::string_view k) {
      raw(",\"");
      raw(k);
      raw("\":");
    };
    const auto first = [&](std::string_view k) {
      out_.push_back('"');
      raw(k);
      raw("\":");
    };
    switch (e.kind) {
      case EventKind::start:
        head(), seat(), key("turn"), integer(e.value);
        break;
      case EventKind::draw:
        head(), key("main"), integer(e.value), key("resource"), integer(e.extra), seat();
        break;
      case EventKind::drew:
        first("count"), integer(e.value), out_.push_back(','), head();
        if (e.target != kNoCard) key("planet"), integer(e.target);
        seat();
        break;
      case EventKind::timewarp:
        head(), seat(), key("took"), boolean(e.value == 1);
        break;
      case EventKind::recharge:
        first("count"), integer(e.value), out_.push_back(','), head(), seat();
        break;
      case EventKind::play:
        first("card"), card(e.card), out_.push_back(','), head(), seat();
        if (e.target != kNoCard) key("target"), integer(e.target);
        if (e.card.kind == Kind::gate) key("to"), loc(e.at);
        break;
      case EventKind::pay:
        first("card"), card(e.card), key("depleted"), boolean(e.extra == 1), out_.push_back(','), head(), seat();
        break;
      case EventKind::move:
        first("by"), raw(e.extra == 0 ? R"("move")" : e.extra == 1 ? R"("teleport")" : R"("escape_pod")");
        out_.push_back(','), head(), seat(), key("to"), loc(e.at), key("unit"), name(static_cast<Unit>(e.unit));
        break;
      case EventKind::collect:
      case EventKind::harvest:
        first("count"), integer(e.value), out_.push_back(','), head(), key("planet"), integer(e.target), seat();
        break;
      case EventKind::deplete:
        first("drawn"), integer(e.extra), out_.push_back(','), head(), key("planet"), integer(e.target), seat();
        key("voided"), integer(e.value);
        break;
      case EventKind::voided:
      case EventKind::discarded:
        first("card"), card(e.card), out_.push_back(','), head();
        if (e.value > 0) key("harvest_lost"), integer(e.value);
        seat();
        break;
      case EventKind::attack:
        first("base"), integer(e.value), key("by"), name(static_cast<Unit>(e.unit)), out_.push_back(','), head(),
            seat();
        key("target"), name(static_cast<Unit>(e.target_unit));
        break;
      case EventKind::reaction:
        if (e.card.id != kNoCard) first("card"), card(e.card), out_.push_back(',');
        head(), key("reaction"), raw(e.extra == 1 ? R"("cloak")" : R"("force_field")"), seat();
        break;
      case EventKind::cloak:
        first("base");
        if (e.extra == 1) {
          raw("null");
        } else {
          integer(e.value);
        }
        key("drawn");
        if (e.card.id == kNoCard) {
          raw("null");
        } else {
          card(e.card);
        }
        out_.push_back(','), head(), seat();
        break;
      case EventKind::roll:
        first("dice"), out_.push_back('['), integer(e.value);
        if (e.unit == 2) out_.push_back(','), integer(e.extra);
        out_.push_back(']'), out_.push_back(','), head(), key("for");
        raw(e.unit == 2 ? R"("bombard")" : R"("attack")"), seat();
        break;
      case EventKind::damage:
        first("amount"), integer(e.value), out_.push_back(','), head(), seat(), key("unit");
        name(static_cast<Unit>(e.target_unit));
        break;
      case EventKind::destroyed:
        head(), seat(), key("unit"), name(static_cast<Unit>(e.unit));
        break;
      case EventKind::formula:
        head(), seat(), key("value"), integer(e.value);
        break;
      case EventKind::end_turn:
        head(), seat(), key("why");
        raw(e.extra == 0 ? R"("declared")" : e.extra == 1 ? R"("second_move")" : R"("escape_pod")");
        break;
    }
    out_.push_back('}');
  }

  void pending() {
    if (s_.phase != Phase::reaction) {
      raw("null");
      return;
    }
    raw(R"({"attacker":)");
    integer(s_.on_turn);
    raw(R"(,"base":)");
    integer(base_damage(s_, s_.on_turn, s_.pending.by));
    raw(R"(,"by":)");
    name(s_.pending.by);
    raw(R"(,"target":)");
    name(s_.pending.target);
    out_.push_back('}');
  }

  void this_turn() {
    if (s_.phase != Phase::main && s_.phase != Phase::reaction) {
      raw("null");
      return;
    }
    raw(R"({"actions":)");
    integer(s_.actions);
    raw(R"(,"artifacts":)");
    integer(s_.artifacts);
    raw(R"(,"bombards":)");
    integer(s_.bombards);
    raw(R"(,"character_attacks":)");
    integer(s_.character_attacks);
    raw(R"(,"moves":)");
    integer(s_.moves);
    raw(R"(,"moves_left":)");
    integer(kMaxMoves - s_.moves);
    raw(R"(,"next_character_attack_energy":)");
    integer(attack_cost(s_, s_.on_turn, Unit::character));
    raw(R"(,"next_ship_attack_ammo":)");
    integer(attack_cost(s_, s_.on_turn, Unit::ship));
    raw(R"(,"played_card":)");
    boolean(s_.played_card);
    raw(R"(,"seat":)");
    integer(s_.on_turn);
    raw(R"(,"ship_attacks":)");
    integer(s_.ship_attacks);
    out_.push_back('}');
  }

  void player(int seat) {
    const Player& p = s_.players[idx(seat)];
    const CharacterInfo& ch = info(p.character);
    const bool own = seat == seat_;
    raw(R"({"bonus_draw":)");
    boolean(p.bonus_draw);
    raw(R"(,"character":")");
    raw(ch.key);
    raw(R"(","character_at":)");
    loc(p.char_at);
    raw(R"(,"discard":)");
    cards(p.discard);
    raw(R"(,"elements":)");
    array(p.elements, [&](const Element& e) {
      out_.push_back('{');
      card_key(e.card);
      raw(R"(,"depleted":)");
      boolean(e.depleted);
      raw(R"(,"id":)");
      integer(e.card.id);
      out_.push_back('}');
    });
    raw(R"(,"gates":)");
    array(p.gates, [&](const Gate& g) {
      raw(R"({"at":)");
      loc(g.at);
      out_.push_back(',');
      card_key(g.card);
      raw(R"(,"id":)");
      integer(g.card.id);
      raw(R"(,"usable":)");
      boolean(g.used_turn != s_.turn);
      out_.push_back('}');
    });
    if (own) {
      raw(R"(,"hand":)");
      cards(p.hand);
    }
    int resource_in_hand = 0;
    for (const Card& c : p.hand) resource_in_hand += is_resource_card(c.kind) ? 1 : 0;
    raw(R"(,"hand_main":)");
    integer(static_cast<long long>(p.hand.size()) - resource_in_hand);
    raw(R"(,"hand_resource":)");
    integer(resource_in_hand);
    raw(R"(,"hand_size":)");
    integer(static_cast<long long>(p.hand.size()));
    raw(R"(,"hp":)");
    integer(p.hp);
    raw(R"(,"invasion_used":)");
    boolean(p.invasion_used);
    raw(R"(,"main_deck":)");
    integer(static_cast<long long>(p.main_deck.size()));
    raw(R"(,"max_hp":)");
    integer(ch.hp);
    raw(R"(,"max_ship_hp":)");
    integer(ch.ship_hp);
    raw(R"(,"planet_total":)");
    integer(planet_total(p));
    raw(R"(,"planets":)");
    array(p.planets, [&](const Planet& pl) {
      out_.push_back('{');
      card_key(pl.card);
      raw(R"(,"colony":)");
      if (pl.colony.id == kNoCard) {
        raw("null");
      } else {
        card(pl.colony);
      }
      raw(R"(,"depleted":)");
      boolean(pl.depleted_turn >= 0);
      if (own) {
        raw(R"(,"harvest":)");
        cards(pl.harvest);
      }
      raw(R"(,"harvest_size":)");
      integer(static_cast<long long>(pl.harvest.size()));
      raw(R"(,"id":)");
      integer(pl.card.id);
      raw(R"(,"r":)");
      integer(value(pl.card.kind));
      out_.push_back('}');
    });
    raw(R"(,"pods":)");
    cards(p.pods);
    raw(R"(,"reinforcements":)");
    if (p.reinforcements.id == kNoCard) {
      raw("null");
    } else {
      raw(R"({"hp":)");
      integer(p.reinforcements_hp);
      raw(R"(,"id":)");
      integer(p.reinforcements.id);
      out_.push_back('}');
    }
    raw(R"(,"resource_deck":)");
    integer(static_cast<long long>(p.resource_deck.size()));
    raw(R"(,"seat":)");
    integer(seat);
    raw(R"(,"ship":")");
    raw(ch.ship_key);
    raw(R"(","ship_at":)");
    loc(p.ship_at);
    raw(R"(,"ship_hp":)");
    integer(p.ship_hp);
    raw(R"(,"star_total":)");
    integer(star_total(p));
    raw(R"(,"stars":)");
    cards(p.stars);
    raw(R"(,"timewarp":)");
    raw(p.timewarp < 0 ? "null" : p.timewarp == 1 ? R"("took")" : R"("kept")");
    raw(R"(,"void":)");
    cards(p.voided);
    raw(R"(,"water":)");
    cards(p.water);
    out_.push_back('}');
  }

  // "cards": the other seat's cards the view named, sorted by id, each once.
  void insert_cards(std::size_t at) {
    std::sort(foreign_.begin(), foreign_.end(), [](const Card& a, const Card& b) { return a.id < b.id; });
    foreign_.erase(std::unique(foreign_.begin(), foreign_.end()), foreign_.end());
    std::string text = R"("cards":[)";
    for (std::size_t i = 0; i < foreign_.size(); ++i) {
      if (i > 0) text.push_back(',');
      text += R"({"card":")";
      text += info(foreign_[i].kind).key;
      text += R"(","id":)";
      char buf[8];
      const auto r = std::to_chars(buf, buf + sizeof buf, foreign_[i].id);
      text.append(buf, r.ptr);
      text.push_back('}');
    }
    text += "],";
    out_.insert(at, text);
  }

  const State& s_;
  Seat seat_;
  std::vector<Card> foreign_;
};

// One action, byte for byte the dump of to_json(action) (json.cpp): the same keys, sorted.
class ActionText : Text {
 public:
  using Text::Text;

  void action(const Action& a) {
    out_.push_back('{');
    switch (a.kind) {
      case ActionKind::move:
      case ActionKind::pod:
        kind(a);
        to(a.to);
        break;
      case ActionKind::teleport:
        id_before_kind(R"("gate":)", a.card);
        kind(a);
        break;
      case ActionKind::play:
        id_before_kind(R"("card":)", a.card);
        kind(a);
        target(a);
        if (a.to.zone != Zone::none) to(a.to);
        break;
      case ActionKind::attack:
        raw(R"("by":)");
        name(a.unit);
        out_.push_back(',');
        kind(a);
        target(a);  // the opponent's Reinforcements
        break;
      case ActionKind::invasion:
        kind(a);
        raw(R"(,"planet":)");
        integer(a.target);
        break;
      case ActionKind::force_field:
        id_before_kind(R"("card":)", a.card);
        kind(a);
        break;
      default:
        kind(a);
        break;
    }
    out_.push_back('}');
  }

 private:
  // A card's member whose key sorts before "kind" (`key` quoted, with its colon), and the comma.
  void id_before_kind(std::string_view key, CardId id) {
    raw(key);
    integer(id);
    out_.push_back(',');
  }
  void kind(const Action& a) {
    raw(R"("kind":)");
    name(a.kind);
  }
  void to(const Loc& at) {
    raw(R"(,"to":)");
    loc(at);
  }
  void target(const Action& a) {
    if (a.target == kNoCard) return;
    raw(R"(,"target":)");
    integer(a.target);
  }
};

}  // namespace

void write_view_v2(const State& s, Seat seat, std::string& out) {
  Writer(s, seat, out).view();
}

void write_action(const Action& a, std::string& out) {
  ActionText(out).action(a);
}

}  // namespace arena::interstellar
