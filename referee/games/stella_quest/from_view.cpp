// A state from one seat's view (the rules library's determinize from a request, library/): what
// the view shows is laid out as it is, every card the seat cannot identify (the other hands, of
// known colours, and the deck, of known size and top colour) drawn from the rest, and the chance to
// come from `rng`. The adapter checks that the state shows the seat exactly this view.

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "referee/games/rng_json.hpp"
#include "referee/games/stella_quest/json.hpp"

namespace arena::stella_quest {

Result<State> state_from_view(const nlohmann::json& v, Seat seat, Rng& rng) {
  using nlohmann::json;
  try {
    if (v.at("game") != "stella_quest") return fail(std::string("not a Stella Quest view"));
    if (v.at("seat") != seat)
      return fail(fmt::format("the view is seat {}'s, not seat {}'s", v.at("seat").dump(), seat));
    if (v.contains("end")) return fail(std::string("the game is over: there is nothing left to decide"));
    const int seats = v.at("seats").get<int>();
    if (seats < kMinSeats || seats > kMaxSeats) return fail(fmt::format("{} seats", seats));
    const json& players = v.at("players");
    if (players.size() != static_cast<std::size_t>(seats)) return fail(std::string("players do not match seats"));

    // The cards the view names, each face given one of its unused copies.
    std::array<bool, kCards> used{};
    std::string bad;
    auto take = [&](const json& name) -> json {
      auto face = parse_face(name.get<std::string>());
      if (!face) {
        bad = face.error();
        return 0;
      }
      for (int id = 0; id < kCards; ++id) {
        if (!used[static_cast<std::size_t>(id)] && face_of(static_cast<CardId>(id)) == *face) {
          used[static_cast<std::size_t>(id)] = true;
          return id;
        }
      }
      bad = fmt::format("more copies of \"{}\" than the game has", name.get<std::string>());
      return 0;
    };
    auto take_all = [&](const json& names) {
      std::vector<int> ids;
      for (const json& n : names) ids.push_back(take(n).get<int>());
      return ids;
    };
    json state = {{"config", {{"max_tricks", v.at("max_tricks")}}},
                  {"seats", seats},
                  {"phase", v.at("phase")},
                  {"marker", v.at("marker")},
                  {"start_player", v.at("leader")},  // not shown, and no rule reads it after the deal
                  {"leader", v.at("leader")},
                  {"leading_colour", v.at("leading_colour")},
                  {"winner", v.at("winner")},
                  {"tricks", v.at("tricks_played")},
                  {"end", "none"},
                  {"decided", nullptr}};
    state["discard"] = take_all(v.at("discard"));
    json trick = json::array();
    for (const json& play : v.at("trick"))
      trick.push_back({{"seat", play.at("seat")}, {"card", take(play.at("card"))}});
    state["trick"] = trick;
    std::vector<json> out_players(static_cast<std::size_t>(seats));
    for (std::size_t i = 0; i < out_players.size(); ++i) {
      const json& p = players.at(i);
      out_players[i] = {{"collection", take_all(p.at("collection"))}, {"tokens", p.at("tokens")}};
      if (static_cast<int>(i) == seat) {
        std::vector<int> hand = take_all(p.at("hand"));
        std::sort(hand.begin(), hand.end());
        out_players[i]["hand"] = hand;
      }
    }
    if (!bad.empty()) return fail(bad);

    // The rest, shuffled: the other hands by colour, the deck's top by colour, then the deck.
    std::vector<CardId> pool;
    for (int id = 0; id < kCards; ++id) {
      if (!used[static_cast<std::size_t>(id)]) pool.push_back(static_cast<CardId>(id));
    }
    rng.shuffle(pool);
    auto draw_colour = [&](const json& colour) -> Result<int> {
      for (std::size_t k = 0; k < pool.size(); ++k) {
        if (enum_name(colour_of(pool[k])) == colour.get<std::string>()) {
          const int id = pool[k];
          pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(k));
          return id;
        }
      }
      return fail(fmt::format("no unseen card of colour {} is left", colour.dump()));
    };
    for (std::size_t i = 0; i < out_players.size(); ++i) {
      if (static_cast<int>(i) == seat) continue;
      std::vector<int> hand;
      for (const json& colour : players.at(i).at("hand_colours")) {
        auto id = draw_colour(colour);
        if (!id) return fail(fmt::format("seat {}'s hand: {}", i, id.error()));
        hand.push_back(*id);
      }
      std::sort(hand.begin(), hand.end());
      out_players[i]["hand"] = hand;
    }
    const std::size_t deck_size = v.at("deck_size").get<std::size_t>();
    std::vector<int> deck;
    if (deck_size > 0) {
      auto top = draw_colour(v.at("deck_top_colour"));
      if (!top) return fail("the deck's top card: " + top.error());
      if (pool.size() != deck_size - 1) {
        return fail(fmt::format("the view accounts for {} cards of {}", kCards - pool.size() - 1 + deck_size, kCards));
      }
      deck.assign(pool.begin(), pool.end());
      deck.push_back(*top);  // back() is the top
    } else if (!pool.empty()) {
      return fail(fmt::format("the view accounts for {} cards of {}", kCards - pool.size(), kCards));
    }
    state["deck"] = deck;
    state["players"] = out_players;
    state["rng"] = games::rng_to_json(Rng(rng.next()));
    return state_from_json(state);
  } catch (const json::exception& e) {
    return fail(fmt::format("malformed view: {}", e.what()));
  }
}

}  // namespace arena::stella_quest
