// A state from one seat's protocol-1 view (the rules library's determinize from a request,
// library/): what the view shows is laid out as it is, and every card the seat cannot identify
// (the other hand, the faces of the other seat's face-down cards it never saw, the deck order, the
// other seat's starters and pending secret choices) drawn from the rest with `rng`, which also
// gives the chance to come. The adapter checks that the state shows the seat exactly this view.
//
// The view names neither a deck list of the match's own nor the other seat's own deck, so only
// the standard deck, shared, can be rebuilt; anything else is refused with an error that says so.
// A face-down card of the seat's own telescope is rebuilt as played from its hand (its "seen"
// flag, which only the other seat's view shows, is not in the seat's view).

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "referee/games/stellar/json.hpp"

namespace arena::stellar {

Result<State> state_from_view(const nlohmann::json& v, Seat seat, Rng& rng) {
  using nlohmann::json;
  try {
    if (!v.is_object() || v.at("game") != "stellar") return fail(std::string("not a Stellar view"));
    if (v.at("seat") != seat)
      return fail(fmt::format("the view is seat {}'s, not seat {}'s", v.at("seat").dump(), seat));
    if (seat < 0 || seat >= kSeats) return fail(fmt::format("Stellar has no seat {}", seat));
    if (v.contains("decks") || v.contains("cards")) {
      return fail(
          std::string("a match played with own decks cannot be rebuilt from a view (the other "
                      "seat's deck list is not in it)"));
    }
    const std::string phase = v.at("phase").get<std::string>();
    if (phase == "over") return fail(std::string("the game is over: there is nothing left to decide"));
    const json& players = v.at("players");
    if (!players.is_array() || players.size() != kSeats) return fail(std::string("a view lists 2 players"));
    const std::size_t other = static_cast<std::size_t>(1 - seat);
    const std::size_t mine = static_cast<std::size_t>(seat);

    // The cards the view names: each a card object of the standard deck, each at most once.
    const CardTable& table = standard_table();
    std::vector<bool> used(table.size(), false);
    std::string bad;
    auto take = [&](const json& object) -> int {
      if (!object.is_object() || !object.contains("id") || !object.at("id").is_number_integer()) {
        bad = fmt::format("{} is not a card object", object.dump());
        return 0;
      }
      const auto id = object.at("id").get<std::int64_t>();
      if (id < 0 || id >= static_cast<std::int64_t>(table.size()) ||
          card_to_json(table[static_cast<std::size_t>(id)], static_cast<CardId>(id)) != object) {
        bad = fmt::format(
            "card {} is not one of the standard deck (a deck list of the match's own cannot be rebuilt from a view)",
            object.dump());
        return 0;
      }
      if (used[static_cast<std::size_t>(id)]) {
        bad = fmt::format("card {} ({}) is shown twice", id, table[static_cast<std::size_t>(id)].name);
        return 0;
      }
      used[static_cast<std::size_t>(id)] = true;
      return static_cast<int>(id);
    };
    auto take_all = [&](const json& objects) {
      std::vector<int> ids;
      for (const json& o : objects) ids.push_back(take(o));
      return ids;
    };
    auto opt_card = [&](const json& o) { return o.is_null() ? json(nullptr) : json(take(o)); };
    // How many cards a hidden place holds, within the deck's size (a forged count cannot wrap).
    auto count = [&](const json& n, const char* what) -> Result<std::size_t> {
      if (!n.is_number_integer() || n.get<std::int64_t>() < 0 ||
          n.get<std::int64_t>() > static_cast<std::int64_t>(table.size()))
        return fail(fmt::format("{} is {}", what, n.dump()));
      return n.get<std::size_t>();
    };

    // A fresh state, its chance to come from `rng`, with what the view shows laid over it.
    State fresh;
    fresh.rng = Rng(rng.next());
    json state = to_json(fresh);
    state["config"]["facedown_step3"] = v.at("config").at("facedown_step3");
    state["phase"] = phase;
    state["turn"] = v.at("turn");
    state["refresh_pending"] = v.at("refresh_available");
    state["last_step3_slot"] = v.at("last_step3_slot");
    std::vector<json> out = state["players"];

    if (phase == "choose_starter") {
      // Only starters are dealt: the seat's two as shown, the other seat's two from the other three.
      const json& me = players.at(mine);
      const std::vector<int> starters = take_all(me.at("starters"));
      if (!bad.empty()) return fail(bad);
      if (starters.size() != 2) return fail(std::string("a seat is dealt 2 starters"));
      out[mine]["starters"] = starters;
      const json& choice = me.at("starter_choice");
      if (!choice.is_null() && choice != starters[0] && choice != starters[1])
        return fail(fmt::format("the starter chosen, {}, is not one of the seat's two", choice.dump()));
      if (v.at("turn") != 0) return fail(std::string("starters are chosen before turn 0"));
      out[mine]["starter_choice"] = choice;
      std::vector<int> rest;
      for (std::size_t id = 0; id < table.size(); ++id) {
        if (table[id].starter && !used[id]) rest.push_back(static_cast<int>(id));
      }
      if (rest.size() != 3) return fail(std::string("the seat's starters are not two of the five"));
      rng.shuffle(rest);
      out[other]["starters"] = {rest[0], rest[1]};
      if (players.at(other).at("starter_chosen").get<bool>()) out[other]["starter_choice"] = rest[rng.below(2)];
    } else {
      const json& start = v.at("start_player");
      const json& turn = v.at("turn");
      if (start != 0 && start != 1) return fail(fmt::format("the start player is {}", start.dump()));
      if (!turn.is_number_integer() || turn.get<std::int64_t>() < 0 || turn.get<std::int64_t>() > kTurns)
        return fail(fmt::format("turn {} is not one of the game's", turn.dump()));
      if ((phase == "place") == v.at("placing").is_null())
        return fail(std::string("a card waits to be placed exactly in the place phase"));
      const int acting = (start.get<int>() + turn.get<int>()) % kSeats;
      state["start_player"] = start;
      json row = json::array();
      for (const json& c : v.at("row")) row.push_back(opt_card(c));
      state["row"] = row;
      state["discard"] = take_all(v.at("discard"));
      state["placing"] = opt_card(v.at("placing"));
      std::vector<std::size_t> hidden_slots;  // the other telescope's unseen face-down cards
      for (std::size_t i = 0; i < out.size(); ++i) {
        const json& p = players.at(i);
        json telescope = json::array();
        for (const json& slot : p.at("telescope")) {
          if (slot.is_null()) {
            telescope.push_back(nullptr);
            continue;
          }
          const bool up = slot.at("face") == "up";
          if (!up && slot.at("face") != "down") return fail(fmt::format("a telescope slot is {}", slot.dump()));
          if (!slot.contains("card")) {
            if (i == mine) return fail(std::string("the seat's own face-down card is shown without its face"));
            hidden_slots.push_back(telescope.size());
            telescope.push_back({{"card", kNone}, {"face_up", false}, {"seen", false}});
            continue;
          }
          telescope.push_back({{"card", take(slot.at("card"))}, {"face_up", up}, {"seen", !up && i != mine}});
        }
        out[i]["telescope"] = telescope;
        out[i]["notebook"] = take_all(p.at("notebook"));
        if (i == mine) out[i]["hand"] = take_all(p.at("hand"));
        const std::size_t expected = phase == "play" && static_cast<int>(i) == acting ? 3 : 2;
        if (p.at("hand_size") != expected)
          return fail(fmt::format("seat {} holds {} cards in the {} phase", i, p.at("hand_size").dump(), phase));
        // Slot 1 holds the chosen starter and the notebook begins with the other (the setup).
        if (telescope.empty() || telescope.at(0).is_null() || out[i]["notebook"].empty())
          return fail(fmt::format("seat {}'s starters are not in telescope slot 1 and its notebook", i));
        out[i]["starter_choice"] = telescope.at(0).at("card");
        out[i]["starters"] = {telescope.at(0).at("card"), out[i]["notebook"].at(0)};
      }
      if (!bad.empty()) return fail(bad);

      // The rest, shuffled: the other hand, the other telescope's hidden faces, then the deck.
      std::vector<int> pool;
      for (std::size_t id = 0; id < table.size(); ++id) {
        if (!used[id]) pool.push_back(static_cast<int>(id));
      }
      rng.shuffle(pool);
      auto hand_size = count(players.at(other).at("hand_size"), "the other hand's size");
      if (!hand_size) return fail(hand_size.error());
      auto deck_size = count(v.at("deck_size"), "the deck's size");
      if (!deck_size) return fail(deck_size.error());
      const std::size_t unseen = *hand_size + hidden_slots.size() + *deck_size;
      if (pool.size() != unseen) {
        return fail(fmt::format("the view leaves {} cards unseen, but the other hand, face-down cards and deck hold {}",
                                pool.size(), unseen));
      }
      auto next = pool.begin();
      std::vector<int> hand(next, next + static_cast<std::ptrdiff_t>(*hand_size));
      next += static_cast<std::ptrdiff_t>(*hand_size);
      std::sort(hand.begin(), hand.end());
      out[other]["hand"] = hand;
      for (std::size_t slot : hidden_slots) out[other]["telescope"][slot]["card"] = *next++;
      state["deck"] = std::vector<int>(next, pool.end());
      if (phase == "keep") {
        const json& keep = players.at(mine).at("keep_choice");
        if (!keep.is_null() &&
            std::find(out[mine]["hand"].begin(), out[mine]["hand"].end(), keep) == out[mine]["hand"].end())
          return fail(fmt::format("the card kept, {}, is not in the seat's hand", keep.dump()));
        out[mine]["keep_choice"] = keep;
        if (players.at(other).at("keep_chosen").get<bool>() && !hand.empty())
          out[other]["keep_choice"] = hand[rng.below(hand.size())];
      }
    }
    if (!bad.empty()) return fail(bad);
    state["players"] = out;
    return state_from_json(state);
  } catch (const json::exception& e) {
    return fail(fmt::format("malformed view: {}", e.what()));
  }
}

}  // namespace arena::stellar
