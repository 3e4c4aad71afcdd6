#pragma once
// GameAdapter<Traits>: turns a game written as free functions over plain values into the
// type-erased interface of game.hpp. Traits names the game's types and functions:
//
//   struct Traits {
//     using State; using Action; using Config;
//     static GameInfo info();
//     static Result<Config> config_from_json(const json&);  static json config_to_json(const Config&);
//     static Result<State> new_game(const Config&, std::uint64_t seed, int seats);
//     // and, found on State/Action: is_over, to_act, legal_actions(state, vector&), apply,
//     // is_legal, view, outcome_json, scores, to_json, state_from_json, action_from_json,
//     // describe, hash, redeal_unseen, check_invariants.
//   };

#include <algorithm>

#include "referee/games/game.hpp"

namespace arena::games {

template <typename Traits>
class AdaptedState final : public GameState {
 public:
  using State = typename Traits::State;
  using Action = typename Traits::Action;

  explicit AdaptedState(State state) : state_(std::move(state)) {}

  std::unique_ptr<GameState> clone() const override { return std::make_unique<AdaptedState>(state_); }
  bool equals(const GameState& other) const override {
    auto* o = dynamic_cast<const AdaptedState*>(&other);
    return o != nullptr && o->state_ == state_;
  }
  int seats() const override { return Traits::seats(state_); }
  bool is_over() const override { return Traits::is_over(state_); }
  Seat to_act() const override { return Traits::to_act(state_); }

  std::vector<json> legal_actions() const override {
    Traits::legal_actions(state_, actions_);
    std::vector<json> out;
    out.reserve(actions_.size());
    for (const Action& a : actions_) out.push_back(Traits::action_to_json(a));
    return out;
  }
  std::size_t legal_count() const override {
    Traits::legal_actions(state_, actions_);
    return actions_.size();
  }
  void apply_index(std::size_t i) override {
    Traits::legal_actions(state_, actions_);
    Traits::apply(state_, actions_.at(i));
  }
  Status apply(const json& action) override {
    if (Traits::is_over(state_)) return fail(std::string("the game is over"));
    auto parsed = Traits::action_from_json(action);
    if (!parsed) return fail(parsed.error());
    Traits::legal_actions(state_, actions_);
    if (std::find(actions_.begin(), actions_.end(), *parsed) == actions_.end()) {
      return fail(std::string("not a legal action now"));
    }
    Traits::apply(state_, *parsed);
    return {};
  }

  json view(Seat seat) const override { return Traits::view(state_, seat); }
  json outcome() const override { return Traits::outcome_json(state_); }
  std::vector<double> scores() const override { return Traits::scores(state_); }
  json to_json() const override { return Traits::state_to_json(state_); }
  std::string describe() const override { return Traits::describe(state_); }
  std::uint64_t hash() const override { return Traits::hash(state_); }
  void redeal_unseen(Seat seat, Rng& rng) override { Traits::redeal_unseen(state_, seat, rng); }
  Status check_invariants() const override { return Traits::check_invariants(state_); }

  const State& state() const { return state_; }

 private:
  State state_;
  mutable std::vector<Action> actions_;  // scratch buffer, not part of the value
};

template <typename Traits>
class GameAdapter final : public Game {
 public:
  GameAdapter() : info_(Traits::info()) {}
  const GameInfo& info() const override { return info_; }

  Result<json> normalize_config(const json& config) const override {
    auto parsed = Traits::config_from_json(config);
    if (!parsed) return fail(parsed.error());
    return Traits::config_to_json(*parsed);
  }
  Result<std::unique_ptr<GameState>> new_game(const json& config, std::uint64_t seed,
                                              int seats) const override {
    if (seats < info_.min_seats || seats > info_.max_seats) {
      return fail(info_.name + ": " + std::to_string(seats) + " seats, expected " +
                  std::to_string(info_.min_seats) +
                  (info_.min_seats == info_.max_seats ? "" : "-" + std::to_string(info_.max_seats)));
    }
    auto parsed = Traits::config_from_json(config);
    if (!parsed) return fail(parsed.error());
    auto state = Traits::new_game(*parsed, seed, seats);
    if (!state) return fail(state.error());
    return std::unique_ptr<GameState>(std::make_unique<AdaptedState<Traits>>(std::move(state).value()));
  }
  Result<std::unique_ptr<GameState>> state_from_json(const json& j) const override {
    auto state = Traits::state_from_json(j);
    if (!state) return fail(state.error());
    return std::unique_ptr<GameState>(std::make_unique<AdaptedState<Traits>>(std::move(state).value()));
  }

 private:
  GameInfo info_;
};

}  // namespace arena::games
