#pragma once
// Stellar as a type-erased game (game.hpp), through the adapter.

#include "referee/games/adapter.hpp"
#include "referee/games/stellar/json.hpp"
#include "referee/games/stellar/rules.hpp"
#include "referee/games/stellar/scoring.hpp"
#include "referee/games/stellar/text.hpp"

namespace arena::stellar {

struct Traits {
  using State = stellar::State;
  using Action = stellar::Action;
  using Config = stellar::Config;
  using SeatConfig = stellar::SeatConfig;  // a deck list of the seat's own (json.hpp)

  static games::GameInfo info() { return {"stellar", "Stellar", kSeats, kSeats}; }
  static Result<Config> config_from_json(const nlohmann::json& j) { return stellar::config_from_json(j); }
  static nlohmann::json config_to_json(const Config& c) { return stellar::to_json(c); }
  static Result<SeatConfig> seat_config_from_json(const nlohmann::json& j) { return stellar::seat_config_from_json(j); }
  static nlohmann::json seat_config_to_json(const SeatConfig& c) { return stellar::to_json(c); }
  static Result<State> new_game(const Config& c, const std::vector<SeatConfig>& seats, std::uint64_t seed, int) {
    return stellar::new_game(c, per_seat(seats), seed);
  }

  static int seats(const State&) { return kSeats; }
  static bool is_over(const State& s) { return stellar::is_over(s); }
  static Seat to_act(const State& s) { return stellar::to_act(s); }
  static void legal_actions(const State& s, std::vector<Action>& out) { stellar::legal_actions(s, out); }
  static void apply(State& s, const Action& a) { stellar::apply(s, a); }
  static nlohmann::json action_to_json(const Action& a) { return stellar::to_json(a); }
  static Result<Action> action_from_json(const nlohmann::json& j) { return stellar::action_from_json(j); }
  static nlohmann::json view(const State& s, Seat seat) { return stellar::view(s, seat); }
  static nlohmann::json view_v2(const State& s, Seat seat) { return stellar::view_v2(s, seat); }
  static void write_view_v2(const State& s, Seat seat, std::string& out) { stellar::write_view_v2(s, seat, out); }
  static void write_action(const Action& a, std::string& out) { stellar::write_action(a, out); }
  static nlohmann::json outcome_json(const State& s) { return stellar::to_json(score(s)); }
  static std::vector<double> scores(const State& s) {
    const auto o = score(s);
    return {static_cast<double>(o.scores[0]), static_cast<double>(o.scores[1])};
  }
  // The running score: score() is valid at any point (scoring.hpp), the tableaux as they stand.
  static nlohmann::json progress(const State& s) {
    const auto o = score(s);
    return {{"scores", o.scores}, {"outcome", stellar::to_json(o)}};
  }
  static nlohmann::json state_to_json(const State& s) { return stellar::to_json(s); }
  static Result<State> state_from_json(const nlohmann::json& j) { return stellar::state_from_json(j); }
  static std::string describe(const State& s) { return stellar::describe(s); }
  static std::uint64_t hash(const State& s) { return stellar::hash(s); }
  static void redeal_unseen(State& s, Seat seat, Rng& rng) { stellar::redeal_unseen(s, seat, rng); }
  static Result<State> state_from_view(const nlohmann::json& view, Seat seat, Rng& rng) {
    return stellar::state_from_view(view, seat, rng);
  }
  static Status check_invariants(const State& s) { return stellar::check_invariants(s); }

  // For people (terminal.cpp, web/).
  // Every card of the match by id: the match deck, or both seats' own lists (cards carry "owner").
  static nlohmann::json card_table(const Config& c, const std::vector<SeatConfig>& seats) {
    auto table = stellar::card_table_json(c, per_seat(seats));
    return table ? std::move(table).value() : nlohmann::json(nullptr);
  }
  static nlohmann::json whole_table(const std::vector<nlohmann::json>& views) {
    return games::merge_player_views(views);
  }
  static std::string draw_table(const nlohmann::json& t, const games::draw::SeatNames& n,
                                const games::draw::Style& st) {
    return stellar::draw_table(t, n, st);
  }
  static std::string describe_action(const nlohmann::json& before, const nlohmann::json& a) {
    return stellar::describe_action(before, a);
  }
  static std::string draw_outcome(const nlohmann::json& o, const nlohmann::json& cards, const games::draw::SeatNames& n,
                                  const games::draw::Style& st) {
    return stellar::draw_outcome(o, cards, n, st);
  }
  static std::string describe_seat_config(const nlohmann::json& c) { return stellar::describe_seat_config(c); }
  static games::WebModule web_module() { return {web_script(), web_style()}; }

 private:
  static std::array<SeatConfig, kSeats> per_seat(const std::vector<SeatConfig>& seats) {
    std::array<SeatConfig, kSeats> out;
    for (std::size_t s = 0; s < seats.size() && s < out.size(); ++s) out[s] = seats[s];
    return out;
  }
};

}  // namespace arena::stellar
