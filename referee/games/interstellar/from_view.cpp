// A state from one seat's view (the rules library's determinize from a request, library/), in
// either protocol's form (cards as objects, or by id: the card table gives their kinds): what
// the view shows is laid out as it is; the cards the seat cannot see (the opponent's hand, the
// cards face down on its planets, both seats' deck orders) drawn from the deck lists, whose
// ids and kinds the card table fixes; the chance to come from `rng`. What the view does not say
// outright is worked out from its events: the turn a depleted planet was hit (only "before this
// turn" or "this turn" matters to the rules), and which planets this turn's Harvest already fed
// and with how many cards. The adapter checks that the state shows the seat exactly this view.

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <span>
#include <tuple>

#include "referee/games/interstellar/json.hpp"
#include "referee/games/interstellar/json_parts.hpp"

namespace arena::interstellar {

using nlohmann::json;
using namespace json_parts;

namespace {

// Reads a view's cards against the match's card table: each card must have the kind its id has
// there, and appear once.
class InterstellarViewCards {
 public:
  explicit InterstellarViewCards(const std::array<SeatConfig, kSeats>& seats) {
    for (int seat = 0; seat < kSeats; ++seat) {
      first_id_[idx(seat)] = static_cast<CardId>(kinds_.size());
      for (const DeckCounts* deck : {&seats[idx(seat)].resource, &seats[idx(seat)].main}) {
        for (const KindInfo& k : catalogue()) {
          for (int n = 0; n < (*deck)[static_cast<std::size_t>(k.kind)]; ++n) {
            kinds_.push_back(k.kind);
            owners_.push_back(seat);
          }
        }
      }
    }
    seen_.assign(kinds_.size(), false);
  }

  CardId first_id(int seat) const { return first_id_[idx(seat)]; }
  std::int16_t cards(int seat) const {
    return static_cast<std::int16_t>(seat == 0 ? first_id_[1] : static_cast<CardId>(kinds_.size()) - first_id_[1]);
  }

  // A card of the view, marked seen; `error` holds the first problem.
  Card take(const json& j) {
    if (j.is_number_integer()) return take_id(small_id(j), std::nullopt);  // protocol 2: by id
    auto card = card_from_json(j);
    if (!card) return note(card.error());
    return take_id(card->id, card->kind);
  }
  Card take_id(CardId id, std::optional<Kind> kind) {
    if (id < 0 || static_cast<std::size_t>(id) >= kinds_.size()) {
      return note(fmt::format("card id {} is not in the deck lists' {} cards (pass the match's seat configs)", id,
                              kinds_.size()));
    }
    const Kind listed = kinds_[static_cast<std::size_t>(id)];
    if (kind && *kind != listed) {
      return note(fmt::format("card {} is a {} in the deck lists, not a {} (pass the match's seat configs)", id,
                              info(listed).key, info(*kind).key));
    }
    if (seen_[static_cast<std::size_t>(id)]) return note(fmt::format("card {} is shown twice", id));
    seen_[static_cast<std::size_t>(id)] = true;
    return Card{id, listed};
  }
  std::vector<Card> take_all(const json& list) {
    std::vector<Card> out;
    if (!list.is_array()) {
      note("a card list is not an array");
      return out;
    }
    for (const json& j : list) out.push_back(take(j));
    return out;
  }
  // The seat's cards the view never showed, Resource cards and Main cards apart, in id order.
  std::pair<std::vector<Card>, std::vector<Card>> unseen(int seat) const {
    std::pair<std::vector<Card>, std::vector<Card>> out;
    for (std::size_t id = 0; id < kinds_.size(); ++id) {
      if (seen_[id] || owners_[id] != seat) continue;
      const Card c{static_cast<CardId>(id), kinds_[id]};
      (is_resource_card(c.kind) ? out.first : out.second).push_back(c);
    }
    return out;
  }
  // A card an event names (shown elsewhere too, so not marked seen): an object, or an id.
  Card named(const json& j) const {
    if (j.is_number_integer()) {
      const CardId id = small_id(j);
      if (id < 0 || static_cast<std::size_t>(id) >= kinds_.size())
        throw std::out_of_range(fmt::format("an event names card {}, not in the deck lists", id));
      return Card{id, kinds_[static_cast<std::size_t>(id)]};
    }
    auto card = card_from_json(j);
    if (!card) throw std::out_of_range("an event's card: " + card.error());
    return *card;
  }
  const std::string& error() const { return error_; }

 private:
  static CardId small_id(const json& j) {
    const long long id = j.get<long long>();
    return id < 0 || id > std::numeric_limits<CardId>::max() ? CardId{-2} : static_cast<CardId>(id);
  }
  Card note(std::string problem) {
    if (error_.empty()) error_ = std::move(problem);
    return Card{};
  }
  std::vector<Kind> kinds_;
  std::vector<int> owners_;
  std::vector<bool> seen_;
  std::array<CardId, kSeats> first_id_{};
  std::string error_;
};

template <typename T>
T small_int(const json& j, const char* what) {
  const long long n = j.get<long long>();
  if (!j.is_number_integer() || n < std::numeric_limits<T>::min() || n > std::numeric_limits<T>::max())
    throw std::out_of_range(fmt::format("{} {} is out of range", what, j.dump()));
  return static_cast<T>(n);
}

Loc view_loc(const json& j) {
  auto at = loc_from_json(j);
  if (!at) throw std::out_of_range(at.error());
  return *at;
}

// An event of the view back in the State's form (view.cpp's event_json, read back).
Event event_from_view(const json& j, const InterstellarViewCards& cards) {
  auto kind = enum_from_json<EventKind>(j.at("event"), "event");
  if (!kind) throw std::out_of_range(kind.error());
  Event e{.kind = *kind, .seat = small_int<std::int8_t>(j.at("seat"), "seat")};
  auto unit = [](const json& name) {
    auto u = enum_from_json<Unit>(name, "unit");
    if (!u) throw std::out_of_range(u.error());
    return static_cast<std::int8_t>(*u);
  };
  auto i16 = [](const json& n) { return small_int<std::int16_t>(n, "a number"); };
  switch (e.kind) {
    case EventKind::start:
      e.value = i16(j.at("turn"));
      break;
    case EventKind::draw:
      e.value = i16(j.at("main"));
      e.extra = i16(j.at("resource"));
      break;
    case EventKind::drew:
      e.value = i16(j.at("count"));
      if (j.contains("planet")) e.target = small_int<CardId>(j.at("planet"), "planet");
      break;
    case EventKind::timewarp:
      e.value = j.at("took").get<bool>() ? 1 : 0;
      break;
    case EventKind::recharge:
      e.value = i16(j.at("count"));
      break;
    case EventKind::play:
      e.card = cards.named(j.at("card"));
      if (j.contains("target")) e.target = small_int<CardId>(j.at("target"), "target");
      e.at = j.contains("to") ? view_loc(j.at("to")) : Loc{Zone::none, kNoCard};
      break;
    case EventKind::pay:
      e.card = cards.named(j.at("card"));
      e.extra = j.at("depleted").get<bool>() ? 1 : 0;
      break;
    case EventKind::move: {
      e.unit = unit(j.at("unit"));
      e.at = view_loc(j.at("to"));
      const std::string by = j.at("by").get<std::string>();
      e.extra = by == "move" ? 0 : by == "teleport" ? 1 : 2;
      break;
    }
    case EventKind::collect:
    case EventKind::harvest:
      e.target = small_int<CardId>(j.at("planet"), "planet");
      e.value = i16(j.at("count"));
      break;
    case EventKind::deplete:
      e.target = small_int<CardId>(j.at("planet"), "planet");
      e.value = i16(j.at("voided"));
      e.extra = i16(j.at("drawn"));
      break;
    case EventKind::voided:
    case EventKind::discarded:
      e.card = cards.named(j.at("card"));
      if (j.contains("harvest_lost")) e.value = i16(j.at("harvest_lost"));
      break;
    case EventKind::attack:
      e.unit = unit(j.at("by"));
      e.target_unit = unit(j.at("target"));
      e.value = i16(j.at("base"));
      break;
    case EventKind::reaction:
      e.extra = j.at("reaction") == "cloak" ? 1 : 2;
      if (j.contains("card")) e.card = cards.named(j.at("card"));
      break;
    case EventKind::cloak:
      if (!j.at("drawn").is_null()) e.card = cards.named(j.at("drawn"));
      if (j.at("base").is_null()) {
        e.extra = 1;
      } else {
        e.value = i16(j.at("base"));
      }
      break;
    case EventKind::roll: {
      const json& dice = j.at("dice");
      e.value = i16(dice.at(0));
      if (j.at("for") == "bombard") {
        e.unit = 2;
        e.extra = i16(dice.at(1));
      }
      break;
    }
    case EventKind::damage:
      e.target_unit = unit(j.at("unit"));
      e.value = i16(j.at("amount"));
      break;
    case EventKind::destroyed:
      e.unit = unit(j.at("unit"));
      break;
    case EventKind::formula:
      e.value = i16(j.at("value"));
      break;
    case EventKind::end_turn: {
      const std::string why = j.at("why").get<std::string>();
      e.extra = why == "declared" ? 0 : why == "second_move" ? 1 : 2;
      break;
    }
  }
  return e;
}

std::vector<Event> events_from_view(const json& list, const InterstellarViewCards& cards) {
  std::vector<Event> out;
  for (const json& j : list) out.push_back(event_from_view(j, cards));
  return out;
}

// What the view does not show of a planet, from the events: the turn a Depletion hit it (this
// turn's events, else an earlier turn: the rules only ask whether it is before this one), and
// whether this turn's Harvest fed it already, with how many cards (the Harvest's events, after
// the card was played; Proxima B's cards at the start of the turn do not count).
void planet_turns_from_events(State& s) {
  for (Player& p : s.players) {
    for (Planet& pl : p.planets) {
      if (pl.depleted_turn < 0) continue;
      const bool now = std::any_of(s.events.begin(), s.events.end(), [&](const Event& e) {
        return e.kind == EventKind::deplete && e.target == pl.card.id;
      });
      pl.depleted_turn = static_cast<std::int16_t>(now ? s.turn : s.turn - 1);
    }
  }
  if (s.phase != Phase::main && s.phase != Phase::reaction) return;
  Player& p = s.players[idx(s.on_turn)];
  auto played_now = [&](CardId id) {
    return std::any_of(s.events.begin(), s.events.end(), [&](const Event& e) {
      return e.kind == EventKind::play && e.seat == s.on_turn && e.card.id == id;
    });
  };
  std::vector<CardId> in_play;  // the seat's planets at this point of the turn
  for (const Planet& pl : p.planets) {
    if (!played_now(pl.card.id)) in_play.push_back(pl.card.id);
  }
  bool harvested = false;  // a Harvest card was played before this point of the turn
  auto planet_of = [&](CardId id) -> Planet* {
    for (Planet& pl : p.planets) {
      if (pl.card.id == id) return &pl;
    }
    return nullptr;
  };
  for (const Event& e : s.events) {
    if (e.seat != s.on_turn) continue;
    if (e.kind == EventKind::play && category(e.card.kind) == Category::planet) in_play.push_back(e.card.id);
    if (e.kind == EventKind::play && e.card.kind == Kind::harvest) {
      harvested = true;
      for (CardId id : in_play) {
        if (Planet* pl = planet_of(id)) pl->harvest_turn = s.turn;  // fed, if with nothing
      }
    }
    if (e.kind == EventKind::harvest && harvested) {
      if (Planet* pl = planet_of(e.target)) pl->harvest_count = static_cast<std::int8_t>(pl->harvest_count + e.value);
    }
  }
}

}  // namespace

Result<State> state_from_view(const json& v, Seat seat, const Config& config,
                              const std::array<SeatConfig, kSeats>& seats, Rng& rng) {
  try {
    if (v.at("game") != "interstellar") return fail(std::string("not an Interstellar view"));
    if (v.at("seat") != seat)
      return fail(fmt::format("the view is seat {}'s, not seat {}'s", v.at("seat").dump(), seat));
    if (seat < 0 || seat >= kSeats) return fail(fmt::format("no seat {}", seat));
    auto shown_config = config_from_json(v.at("config"));
    if (!shown_config) return fail("the view's config: " + shown_config.error());
    if (!(*shown_config == config)) {
      return fail(fmt::format("the view's config {} is not the config given ({}): pass the match's config",
                              to_json(*shown_config).dump(), to_json(config).dump()));
    }
    auto phase = enum_from_json<Phase>(v.at("phase"), "phase");
    if (!phase) return fail(phase.error());
    State s;
    s.config = config;
    s.rng = Rng(rng.next());
    s.phase = *phase;
    if (s.phase == Phase::over) return fail(std::string("the game is over: there is nothing left to decide"));
    s.turn = small_int<std::int16_t>(v.at("turn"), "turn");
    s.start_player = small_int<std::int8_t>(v.at("start_player"), "start_player");
    s.on_turn = small_int<std::int8_t>(v.at("on_turn"), "on_turn");
    if (s.start_player < 0 || s.start_player >= kSeats || s.on_turn < 0 || s.on_turn >= kSeats)
      return fail(std::string("the start player or the seat on turn is no seat"));
    if (const json& t = v.at("this_turn"); !t.is_null()) {
      s.moves = small_int<std::int8_t>(t.at("moves"), "moves");
      s.actions = small_int<std::int8_t>(t.at("actions"), "actions");
      s.artifacts = small_int<std::int8_t>(t.at("artifacts"), "artifacts");
      s.ship_attacks = small_int<std::int8_t>(t.at("ship_attacks"), "ship_attacks");
      s.character_attacks = small_int<std::int8_t>(t.at("character_attacks"), "character_attacks");
      s.bombards = small_int<std::int8_t>(t.at("bombards"), "bombards");
      s.played_card = t.at("played_card").get<bool>();
    }
    if (const json& pending = v.at("pending"); !pending.is_null()) {
      auto by = enum_from_json<Unit>(pending.at("by"), "unit");
      auto target = enum_from_json<Unit>(pending.at("target"), "unit");
      if (!by || !target || *by == Unit::reinforcements) return fail(std::string("a bad pending attack"));
      s.pending = Pending{*by, *target};
    }
    InterstellarViewCards cards(seats);
    s.events = events_from_view(v.at("events"), cards);
    s.last_events = events_from_view(v.at("last_events"), cards);
    const json& players = v.at("players");
    if (!players.is_array() || players.size() != kSeats) return fail(std::string("the view needs 2 players"));
    for (int i = 0; i < kSeats; ++i) {
      const json& pj = players.at(static_cast<std::size_t>(i));
      Player& p = s.players[idx(i)];
      if (pj.at("seat") != i) return fail(fmt::format("players[{}] is not seat {}", i, i));
      auto character = character_from_key(pj.at("character").get<std::string>());
      if (!character) return fail(character.error());
      p.character = *character;
      p.first_id = cards.first_id(i);
      p.cards = cards.cards(i);
      p.hp = pj.at("hp").get<int>();
      p.ship_hp = pj.at("ship_hp").get<int>();
      p.ship_at = view_loc(pj.at("ship_at"));
      p.char_at = view_loc(pj.at("character_at"));
      p.water = cards.take_all(pj.at("water"));
      p.stars = cards.take_all(pj.at("stars"));
      p.pods = cards.take_all(pj.at("pods"));
      p.discard = cards.take_all(pj.at("discard"));
      p.voided = cards.take_all(pj.at("void"));
      for (const json& e : pj.at("elements"))
        p.elements.push_back(Element{cards.take(e), e.at("depleted").get<bool>()});
      for (const json& pl : pj.at("planets")) {
        Planet planet{.card = cards.take(pl)};
        if (!pl.at("colony").is_null()) planet.colony = cards.take(pl.at("colony"));
        if (pl.at("depleted").get<bool>()) planet.depleted_turn = 0;  // the turn: planet_turns_from_events
        if (i == seat) planet.harvest = cards.take_all(pl.at("harvest"));
        p.planets.push_back(std::move(planet));
      }
      for (const json& g : pj.at("gates")) {
        p.gates.push_back(Gate{cards.take(g), view_loc(g.at("at")),
                               static_cast<std::int16_t>(g.at("usable").get<bool>() ? -1 : s.turn)});
      }
      if (const json& r = pj.at("reinforcements"); !r.is_null()) {
        p.reinforcements = cards.take_id(small_int<CardId>(r.at("id"), "reinforcements id"), Kind::reinforcements);
        p.reinforcements_hp = r.at("hp").get<int>();
      }
      const json& timewarp = pj.at("timewarp");
      p.timewarp = timewarp.is_null() ? -1 : timewarp == "took" ? 1 : 0;
      p.bonus_draw = pj.at("bonus_draw").get<bool>();
      p.invasion_used = pj.at("invasion_used").get<bool>();
      if (i == seat) {
        p.hand = cards.take_all(pj.at("hand"));
        std::sort(p.hand.begin(), p.hand.end(), [](const Card& a, const Card& b) { return a.id < b.id; });
      }
    }
    if (!cards.error().empty()) return fail(cards.error());

    // The cards no view shows, dealt at random where the counts say.
    for (int i = 0; i < kSeats; ++i) {
      const json& pj = players.at(static_cast<std::size_t>(i));
      Player& p = s.players[idx(i)];
      auto [resource, main] = cards.unseen(i);
      rng.shuffle(std::span<Card>(resource));
      rng.shuffle(std::span<Card>(main));
      auto deal = [&](std::vector<Card>& from, std::vector<Card>& to, std::size_t n, const char* where) -> Status {
        if (n > from.size()) {
          return fail(fmt::format("seat {}'s {}: {} cards, but only {} of its deck lists' cards are unseen", i, where,
                                  n, from.size()));
        }
        to.insert(to.end(), from.end() - static_cast<std::ptrdiff_t>(n), from.end());
        from.resize(from.size() - n);
        return {};
      };
      if (i != seat) {
        if (auto ok = deal(resource, p.hand, pj.at("hand_resource").get<std::size_t>(), "hand"); !ok)
          return fail(ok.error());
        if (auto ok = deal(main, p.hand, pj.at("hand_main").get<std::size_t>(), "hand"); !ok) return fail(ok.error());
        std::sort(p.hand.begin(), p.hand.end(), [](const Card& a, const Card& b) { return a.id < b.id; });
        const json& planets = pj.at("planets");
        for (std::size_t k = 0; k < p.planets.size(); ++k) {
          const std::size_t n = planets.at(k).at("harvest_size").get<std::size_t>();
          if (auto ok = deal(resource, p.planets[k].harvest, n, "harvest"); !ok) return fail(ok.error());
        }
      }
      for (auto [pile, into, key] :
           {std::tuple{&resource, &p.resource_deck, "resource_deck"}, std::tuple{&main, &p.main_deck, "main_deck"}}) {
        const std::size_t n = pj.at(key).get<std::size_t>();
        if (pile->size() != n) {
          return fail(fmt::format(
              "seat {}'s {} has {} cards, but its deck lists leave {} unseen (pass the match's seat configs)", i, key,
              n, pile->size()));
        }
        *into = std::move(*pile);
      }
    }
    if ((s.phase == Phase::reaction) != !v.at("pending").is_null())
      return fail(std::string("a pending attack is shown, and only, while the attacked seat reacts"));
    if (s.phase == Phase::reaction) {
      const Player& d = s.players[idx(opponent(s.on_turn))];
      const bool target_in_play = s.pending.target == Unit::reinforcements ? d.reinforcements.id != kNoCard
                                  : s.pending.target == Unit::ship         ? d.ship_hp > 0
                                                                           : d.ship_hp == 0;
      if (!target_in_play) return fail(std::string("the pending attack's target is not the one in play"));
    }
    planet_turns_from_events(s);
    if (auto ok = check_invariants(s); !ok) return fail(ok.error());
    return s;
  } catch (const json::exception& e) {
    return fail(fmt::format("malformed view: {}", e.what()));
  } catch (const std::out_of_range& e) {
    return fail(fmt::format("malformed view: {}", e.what()));
  }
}

}  // namespace arena::interstellar
