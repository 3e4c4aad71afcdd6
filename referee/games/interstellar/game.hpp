#pragma once
// Interstellar as a type-erased game (game.hpp), through the adapter.

#include "referee/games/adapter.hpp"
#include "referee/games/interstellar/json.hpp"
#include "referee/games/interstellar/rules.hpp"
#include "referee/games/interstellar/text.hpp"

namespace arena::interstellar {

struct Traits {
  using State = interstellar::State;
  using Action = interstellar::Action;
  using Config = interstellar::Config;
  using SeatConfig = interstellar::SeatConfig;  // a seat's character and deck lists (json.hpp)

  // Rules revision 2: one order for a card played and its payment in events and piles, no harvest
  // event of count 0 (docs/games/interstellar.md, "Rules revision").
  static games::GameInfo info() { return {"interstellar", "Interstellar", kSeats, kSeats, 2}; }
  static Result<Config> config_from_json(const nlohmann::json& j) { return interstellar::config_from_json(j); }
  static nlohmann::json config_to_json(const Config& c) { return interstellar::to_json(c); }
  static Result<SeatConfig> seat_config_from_json(const nlohmann::json& j) {
    return interstellar::seat_config_from_json(j);
  }
  static nlohmann::json seat_config_to_json(const SeatConfig& c) { return interstellar::to_json(c); }
  static Result<State> new_game(const Config& c, const std::vector<SeatConfig>& seats, std::uint64_t seed, int) {
    return interstellar::new_game(c, per_seat(seats), seed);
  }

  static int seats(const State&) { return kSeats; }
  static bool is_over(const State& s) { return interstellar::is_over(s); }
  static Seat to_act(const State& s) { return interstellar::to_act(s); }
  static void legal_actions(const State& s, std::vector<Action>& out) { interstellar::legal_actions(s, out); }
  static void apply(State& s, const Action& a) { interstellar::apply(s, a); }
  static nlohmann::json action_to_json(const Action& a) { return interstellar::to_json(a); }
  static Result<Action> action_from_json(const nlohmann::json& j) { return interstellar::action_from_json(j); }
  static nlohmann::json view(const State& s, Seat seat) { return interstellar::view(s, seat); }
  static nlohmann::json view_v2(const State& s, Seat seat) { return interstellar::view_v2(s, seat); }
  static void write_view_v2(const State& s, Seat seat, std::string& out) { interstellar::write_view_v2(s, seat, out); }
  static void write_action(const Action& a, std::string& out) { interstellar::write_action(a, out); }
  static nlohmann::json outcome_json(const State& s) { return interstellar::to_json(outcome(s)); }
  static std::vector<double> scores(const State& s) {
    const auto o = outcome(s);
    return {o.scores[0], o.scores[1]};
  }
  // The running picture for spectators: the characters' HP (what the end at the turn cap
  // compares) and the ships'.
  static nlohmann::json progress(const State& s) {
    const auto o = outcome(s);
    return {{"scores", o.hp}, {"ship_hp", o.ship_hp}, {"turn", s.turn}};
  }
  static nlohmann::json state_to_json(const State& s) { return interstellar::to_json(s); }
  static Result<State> state_from_json(const nlohmann::json& j) { return interstellar::state_from_json(j); }
  static std::string describe(const State& s) { return interstellar::describe(s); }
  static std::uint64_t hash(const State& s) { return interstellar::hash(s); }
  // The rules library's determinize from a request: the deck lists are the seats' configurations.
  static Result<State> state_from_view(const nlohmann::json& view, Seat seat, const Config& c,
                                       const std::vector<SeatConfig>& seats, Rng& rng) {
    return interstellar::state_from_view(view, seat, c, per_seat(seats), rng);
  }
  static void redeal_unseen(State& s, Seat seat, Rng& rng) { interstellar::redeal_unseen(s, seat, rng); }
  static Status check_invariants(const State& s) { return interstellar::check_invariants(s); }

  // Every card of the match by id, each with its "owner" (protocol 2 sends a seat its own).
  static nlohmann::json card_table(const Config&, const std::vector<SeatConfig>& seats) {
    return interstellar::card_table(per_seat(seats));
  }

  // For people (terminal.cpp, web/).
  static nlohmann::json whole_table(const std::vector<nlohmann::json>& views) {
    return games::merge_player_views(views);
  }
  static std::string draw_table(const nlohmann::json& t, const games::draw::SeatNames& n,
                                const games::draw::Style& st) {
    return interstellar::draw_table(t, n, st);
  }
  static std::string describe_action(const nlohmann::json& before, const nlohmann::json& a) {
    return interstellar::describe_action(before, a);
  }
  static std::string draw_outcome(const nlohmann::json& o, const nlohmann::json& cards, const games::draw::SeatNames& n,
                                  const games::draw::Style& st) {
    return interstellar::draw_outcome(o, cards, n, st);
  }
  static std::string describe_seat_config(const nlohmann::json& c) { return interstellar::describe_seat_config(c); }
  static games::WebModule web_module() { return {web_script(), web_style()}; }

 private:
  static std::array<SeatConfig, kSeats> per_seat(const std::vector<SeatConfig>& seats) {
    std::array<SeatConfig, kSeats> out;
    for (std::size_t s = 0; s < seats.size() && s < out.size(); ++s) out[s] = seats[s];
    return out;
  }
};

}  // namespace arena::interstellar
