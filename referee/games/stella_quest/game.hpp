#pragma once
// Stella Quest as a type-erased game (game.hpp), through the adapter.

#include "referee/games/adapter.hpp"
#include "referee/games/stella_quest/json.hpp"
#include "referee/games/stella_quest/rules.hpp"
#include "referee/games/stella_quest/text.hpp"

namespace arena::stella_quest {

struct Traits {
  using State = stella_quest::State;
  using Action = stella_quest::Action;
  using Config = stella_quest::Config;

  // Rules revision 2: the deck is rebuilt the moment it runs out, the leading colour stays the
  // led card's, and every one-action decision is applied by the engine.
  static games::GameInfo info() { return {"stella_quest", "Stella Quest", kMinSeats, kMaxSeats, 2}; }
  static Result<Config> config_from_json(const nlohmann::json& j) { return stella_quest::config_from_json(j); }
  static nlohmann::json config_to_json(const Config& c) { return stella_quest::to_json(c); }
  static Result<State> new_game(const Config& c, std::uint64_t seed, int seats) {
    return stella_quest::new_game(c, seed, seats);
  }

  static int seats(const State& s) { return s.seats; }
  static bool is_over(const State& s) { return stella_quest::is_over(s); }
  static Seat to_act(const State& s) { return stella_quest::to_act(s); }
  static void legal_actions(const State& s, std::vector<Action>& out) { stella_quest::legal_actions(s, out); }
  static void apply(State& s, const Action& a) { stella_quest::apply(s, a); }
  static nlohmann::json action_to_json(const Action& a) { return stella_quest::to_json(a); }
  static Result<Action> action_from_json(const nlohmann::json& j) { return stella_quest::action_from_json(j); }
  static nlohmann::json view(const State& s, Seat seat) { return stella_quest::view(s, seat); }
  static void write_view_v2(const State& s, Seat seat, std::string& out) { stella_quest::write_view(s, seat, out); }
  static void write_action(const Action& a, std::string& out) { stella_quest::write_action(a, out); }
  static nlohmann::json outcome_json(const State& s) { return stella_quest::to_json(score(s)); }
  static std::vector<double> scores(const State& s) {
    const auto o = score(s);
    return std::vector<double>(o.scores.begin(), o.scores.end());
  }
  // The running score (tokens + jewels so far: score() is valid at any point) and, while a trick
  // is being played, the card that wins it so far by the rules (trick_winner; null: all breaks).
  static nlohmann::json progress(const State& s) {
    const auto o = score(s);
    nlohmann::json points = nlohmann::json::array();
    for (const auto& p : o.players) points.push_back(p.points);
    nlohmann::json out = {{"scores", points}, {"outcome", stella_quest::to_json(o)}};
    if (s.phase == Phase::play && !s.trick.empty() && !s.discard.empty()) {
      const int w = trick_winner(s.trick, s.discard.back());
      if (w < 0) {
        out["trick_leader"] = nullptr;
      } else {
        const Play& p = s.trick[static_cast<std::size_t>(w)];
        out["trick_leader"] = {{"seat", p.seat == kDummy ? nlohmann::json("dummy") : nlohmann::json(p.seat)},
                               {"card", card(p.card).name},
                               {"index", w},
                               {"super_trump", is_super_trump(s.trick, s.discard.back(), w)}};
      }
    }
    return out;
  }
  static nlohmann::json state_to_json(const State& s) { return stella_quest::to_json(s); }
  static Result<State> state_from_json(const nlohmann::json& j) { return stella_quest::state_from_json(j); }
  static std::string describe(const State& s) { return stella_quest::describe(s); }
  static std::uint64_t hash(const State& s) { return stella_quest::hash(s); }
  static void redeal_unseen(State& s, Seat seat, Rng& rng) { stella_quest::redeal_unseen(s, seat, rng); }
  static Status check_invariants(const State& s) { return stella_quest::check_invariants(s); }
  static Result<State> state_from_view(const nlohmann::json& view, Seat seat, Rng& rng) {
    return stella_quest::state_from_view(view, seat, rng);
  }

  // For people (terminal.cpp, web/).
  static nlohmann::json card_table(const Config&) { return stella_quest::card_table_json(); }
  static nlohmann::json whole_table(const std::vector<nlohmann::json>& views) {
    return games::merge_player_views(views);
  }
  static std::string draw_table(const nlohmann::json& t, const games::draw::SeatNames& n,
                                const games::draw::Style& st) {
    return stella_quest::draw_table(t, n, st);
  }
  static std::string describe_action(const nlohmann::json& before, const nlohmann::json& a) {
    return stella_quest::describe_action(before, a);
  }
  static std::string draw_outcome(const nlohmann::json& o, const nlohmann::json& cards, const games::draw::SeatNames& n,
                                  const games::draw::Style& st) {
    return stella_quest::draw_outcome(o, cards, n, st);
  }
  static games::WebModule web_module() { return {web_script(), web_style()}; }
};

}  // namespace arena::stella_quest
