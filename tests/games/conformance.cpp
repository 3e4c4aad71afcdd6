#include "tests/games/conformance.hpp"

#include <fmt/format.h>

#include <exception>

#include "referee/core/hash.hpp"
#include "referee/games/draw.hpp"

namespace arena::testing {

using games::json;

namespace {

struct Checker {
  ConformanceReport& report;
  std::uint64_t seed;
  std::uint64_t step = 0;

  bool check(bool ok, const std::string& what) {
    if (!ok && report.failures.size() < 20) {
      report.failures.push_back(fmt::format("seed {} step {}: {}", seed, step, what));
    }
    return ok;
  }
};

// Runs one of the game's drawings; it must give text and never throw (it reads only JSON the
// game itself wrote).
template <typename Draw>
void check_drawing(Checker& c, const char* what, Draw&& draw) {
  try {
    const std::string text = draw();
    c.check(!text.empty(), fmt::format("{} drew nothing", what));
  } catch (const std::exception& e) {
    c.check(false, fmt::format("{} threw: {}", what, e.what()));
  }
}

// Whether a card of the table (or of a view's "cards") is the protocol-1 view's card object: the
// same, or the same but for the table's "owner" where the view's object has none (Interstellar).
bool same_card(const json& entry, const json& v1) {
  if (entry == v1) return true;
  if (!entry.is_object() || !entry.contains("owner") || v1.contains("owner")) return false;
  json without_owner = entry;
  without_owner.erase("owner");
  return without_owner == v1;
}

// Whether a protocol-2 view names the same cards as the protocol-1 view: walking both, wherever
// the first has a card object (an object with an integer "id") the second has that id, and the
// card is the seat's table entry or, for a card the table lacks, in the view's own "cards".
bool expands_to(const json& v2, const json& v1, const json& table, const json& extra) {
  if (v1.is_object() && v1.contains("id") && v1.at("id").is_number_integer() && v2.is_number_integer()) {
    const auto id = v2.get<std::int64_t>();
    if (id != v1.at("id").get<std::int64_t>()) return false;
    if (table.is_array() && id >= 0 && static_cast<std::size_t>(id) < table.size() &&
        !table[static_cast<std::size_t>(id)].is_null())
      return same_card(table[static_cast<std::size_t>(id)], v1);
    for (const json& card : extra) {
      if (card.value("id", -1) == id) return same_card(card, v1);
    }
    return false;
  }
  if (v1.is_object() && v2.is_object()) {
    for (const auto& [key, value] : v2.items()) {
      if (!v1.contains(key) || !expands_to(value, v1.at(key), table, extra)) return false;
    }
    return v1.size() == v2.size();
  }
  if (v1.is_array() && v2.is_array()) {
    if (v1.size() != v2.size()) return false;
    for (std::size_t i = 0; i < v1.size(); ++i) {
      if (!expands_to(v2[i], v1[i], table, extra)) return false;
    }
    return true;
  }
  return v1 == v2;
}

// Protocol 2 for one seat at one moment: the text written straight from the state is the JSON
// form's dump, and the view names exactly the cards of the protocol-1 view.
void check_view_v2(Checker& c, const games::GameState& state, Seat s, const json& v1, const json& cards) {
  const json v2 = state.view_v2(s);
  std::string text;
  state.write_view_v2(s, text);
  c.check(text == games::dump_line(v2), fmt::format("seat {}: write_view_v2 differs from view_v2's JSON", s));
  json without_cards = v2;
  json extra = json::array();
  if (v2.is_object() && v2.contains("cards") && !v1.contains("cards")) {
    extra = v2.at("cards");
    without_cards.erase("cards");
  }
  c.check(expands_to(without_cards, v1, games::seat_card_table(cards, s), extra),
          fmt::format("seat {}: the protocol-2 view does not expand to the protocol-1 view", s));
}

games::draw::SeatNames seat_names(int seats) {
  games::draw::SeatNames names;
  for (int s = 0; s < seats; ++s) names.bots.push_back(fmt::format("bot{}", s));
  return names;
}

}  // namespace

ConformanceReport run_conformance(const games::Game& game, const json& config, int seats, int games,
                                  std::uint64_t first_seed, int deep_every, const std::vector<json>& seat_configs) {
  const games::draw::SeatNames names = seat_names(seats);
  const games::draw::Style plain(false), colour(true);
  const json cards = game.card_table(config, seat_configs);
  const json hello_cards = game.protocol_card_table(config, seat_configs);  // protocol 2's table
  ConformanceReport report;
  Hasher signature;
  for (int g = 0; g < games; ++g) {
    const std::uint64_t seed = first_seed + static_cast<std::uint64_t>(g);
    Checker c{report, seed};
    auto created = game.new_game(config, seat_configs, seed, seats);
    if (!c.check(created.ok(), created.ok() ? "" : "new_game failed: " + created.error())) continue;
    auto state = std::move(created).value();
    auto twin = game.new_game(config, seat_configs, seed, seats).value();  // replays the same actions
    Rng chooser(seed ^ std::uint64_t{0xC0FFEE});
    const bool deep = g % deep_every == 0;
    std::vector<json> played;

    while (!state->is_over()) {
      ++c.step;
      // A deep game checks every step (every 4th under AddressSanitizer), the others every 17th.
      const bool check_deep = (deep && c.step % sanitizer_stride(4) == 0) || c.step % 17 == 0;
      const auto legal = state->legal_actions();
      if (!c.check(!legal.empty(), "no legal action before the end")) break;
      if (!c.check(legal.size() == state->legal_count(), "legal_count disagrees")) break;
      const Seat seat = state->to_act();
      if (!c.check(seat >= 0 && seat < seats, "to_act out of range")) break;
      if (auto st = state->check_invariants(); !c.check(st.ok(), st.ok() ? "" : st.error())) break;

      if (check_deep) {
        auto copy = state->clone();
        c.check(copy->equals(*state), "a copy differs from its original");
        c.check(copy->hash() == state->hash(), "a copy hashes differently");
        const json full = state->to_json();
        auto back = game.state_from_json(json::parse(full.dump()));
        if (c.check(back.ok(), back.ok() ? "" : "state JSON does not read back: " + back.error())) {
          c.check((*back)->equals(*state), "state JSON round trip changes the state");
        }
        std::vector<json> views;
        for (Seat s = 0; s < seats; ++s) views.push_back(state->view(s));
        check_drawing(c, "draw_table of the whole table",
                      [&] { return game.draw_table(game.whole_table(views), names, colour); });
        check_drawing(c, "draw_table of the acting seat's view",
                      [&] { return game.draw_table(views[static_cast<std::size_t>(seat)], names, plain); });
        for (const json& a : legal) {
          check_drawing(c, "describe_action",
                        [&] { return game.describe_action(views[static_cast<std::size_t>(seat)], a); });
        }
        std::string legal_text;
        state->write_legal(legal_text);
        c.check(legal_text == games::dump_line(json(legal)), "write_legal differs from legal_actions' JSON");
        for (Seat s = 0; s < seats; ++s) {
          const json& v = views[static_cast<std::size_t>(s)];
          c.check(json::parse(v.dump()) == v, "view JSON round trip changes the view");
          check_view_v2(c, *state, s, v, hello_cards);
          const json v2 = state->view_v2(s);
          // Whatever `s` cannot see is redealt: its view must not change.
          for (int k = 0; k < 2; ++k) {
            auto redealt = state->clone();
            Rng rng(seed * 31 + c.step * 7 + static_cast<std::uint64_t>(k));
            redealt->redeal_unseen(s, rng);
            if (auto st = redealt->check_invariants(); !c.check(st.ok(), st.ok() ? "" : "after redeal: " + st.error()))
              break;
            c.check(redealt->view(s) == v, fmt::format("seat {}'s view changed when its unseen cards were redealt", s));
            c.check(redealt->view_v2(s) == v2,
                    fmt::format("seat {}'s protocol-2 view changed when its unseen cards were redealt", s));
          }
        }
        // Every legal action applies to a copy; its JSON round-trips.
        for (const json& a : legal) {
          auto probe = state->clone();
          auto st = probe->apply(json::parse(a.dump()));
          c.check(st.ok(), fmt::format("legal action {} refused: {}", a.dump(), st.ok() ? "" : st.error()));
        }
      }

      const std::size_t choice = chooser.below(legal.size());
      const json action = legal[choice];
      auto st = state->apply(action);
      if (!c.check(st.ok(), "chosen action refused")) break;
      played.push_back(action);
      ++report.decisions;
    }
    // Replay the actions on a fresh game from the same seed: identical state and hash.
    for (const json& a : played) {
      if (!c.check(twin->apply(a).ok(), "replayed action refused")) break;
    }
    c.check(twin->equals(*state) && twin->hash() == state->hash(), "same seed and actions give a different state");
    if (auto st = state->check_invariants(); !c.check(st.ok(), st.ok() ? "" : "at the end: " + st.error())) continue;
    if (state->is_over()) {
      const json outcome = state->outcome();
      c.check(state->scores().size() == static_cast<std::size_t>(seats), "scores() does not give one score per seat");
      if (deep) check_drawing(c, "draw_outcome", [&] { return game.draw_outcome(outcome, cards, names, plain); });
      signature.u64(state->hash()).bytes(outcome.dump());
    }
    ++report.games;
  }
  report.signature = signature.digest();
  return report;
}

std::uint64_t determinism_signature(const games::Game& game, const json& config, int seats, int games) {
  Hasher signature;
  for (int g = 0; g < games; ++g) {
    auto state = game.new_game(config, static_cast<std::uint64_t>(g), seats).value();
    Rng chooser(static_cast<std::uint64_t>(g) ^ std::uint64_t{0x5EED});
    while (!state->is_over()) state->apply_index(chooser.below(state->legal_count()));
    signature.u64(state->hash()).bytes(state->outcome().dump());
  }
  return signature.digest();
}

}  // namespace arena::testing
