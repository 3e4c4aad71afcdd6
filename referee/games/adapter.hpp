#pragma once
// GameAdapter<Traits>: turns a game written as free functions over plain values into the
// type-erased interface of game.hpp. Traits names the game's types and functions:
//
//   struct Traits {
//     using State; using Action; using Config;   (State and Action comparable with ==)
//     static GameInfo info();
//     static Result<Config> config_from_json(const json&);  static json config_to_json(const Config&);
//     static Result<State> new_game(const Config&, std::uint64_t seed, int seats);
//     static int seats(const State&);  static bool is_over(const State&);  static Seat to_act(const State&);
//     static void legal_actions(const State&, std::vector<Action>&);  static void apply(State&, const Action&);
//     static json action_to_json(const Action&);  static Result<Action> action_from_json(const json&);
//     static json view(const State&, Seat);  static json outcome_json(const State&);
//     static std::vector<double> scores(const State&);
//     static json state_to_json(const State&);  static Result<State> state_from_json(const json&);
//     static std::string describe(const State&);  static std::uint64_t hash(const State&);
//     static void redeal_unseen(State&, Seat, Rng&);  static Status check_invariants(const State&);
//   };
//
// Optional, each found by its signature (the generic behaviour of game.cpp otherwise):
//   using SeatConfig;  static Result<SeatConfig> seat_config_from_json(const json&);
//   static json seat_config_to_json(const SeatConfig&);
//   static Result<State> new_game(const Config&, const std::vector<SeatConfig>&, std::uint64_t, int);
//       (a game with per-seat configuration, which then needs no three-argument new_game; the
//       vector has one entry per seat, defaults where none was given)
//   static json card_table(const Config&, const std::vector<SeatConfig>&)   (or without the vector)
//   static json view_v2(const State&, Seat);   (protocol 2's view; default: view)
//   static void write_view_v2(const State&, Seat, std::string&);   (default: to_line(view_v2))
//   static void write_action(const Action&, std::string&);   (default: to_line(action_to_json))
//   static json whole_table(const std::vector<json>& views);
//   static std::string draw_table(const json&, const draw::SeatNames&, const draw::Style&);
//   static std::string describe_action(const json& before, const json& action);
//   static std::string draw_outcome(const json& outcome, const json& cards, const draw::SeatNames&,
//                                   const draw::Style&);
//   static std::string describe_seat_config(const json&);
//   static json progress(const State&);   (GameState::progress(); default: null)
//   static Result<State> state_from_view(const json& view, Seat, Rng&);   (Game::state_from_view;
//       default: refused) or, for a game that needs the match's config and seat configurations
//       (e.g. to know the opponent's deck list), static Result<State> state_from_view(const json&,
//       Seat, const Config&, const std::vector<SeatConfig>&, Rng&)   (one entry per seat,
//       defaults where none was given)
//   static WebModule web_module();
//
// An optional hook is used only when its signature is the one above. A Traits that declares a
// function with a hook's name but another signature (a near miss: a missing parameter, a
// non-static member, another return type) does not compile: a static_assert names the hook and
// the signature expected, instead of the game silently getting the generic behaviour
// (game_hook_near_miss, tests/games/plugin/hook_near_miss.cpp, checks that). A name declared more
// than once (overloads) cannot be checked this way; only card_table and state_from_view have two
// forms.

#include <algorithm>
#include <concepts>
#include <string>
#include <vector>

#include "referee/games/game.hpp"
#include "referee/games/legal.hpp"

namespace arena::games {

// The optional hooks, each by the signature the adapter calls it with (see the top comment).
namespace hook {
template <typename T>
concept card_table_of_config = requires(const typename T::Config& c) {
  { T::card_table(c) } -> std::convertible_to<json>;
};
template <typename T>
concept card_table_of_seats = requires(const typename T::Config& c, const std::vector<typename T::SeatConfig>& s) {
  { T::card_table(c, s) } -> std::convertible_to<json>;
};
template <typename T>
concept view_v2 = requires(const typename T::State& s, Seat seat) {
  { T::view_v2(s, seat) } -> std::convertible_to<json>;
};
template <typename T>
concept write_view_v2 = requires(const typename T::State& s, Seat seat, std::string& out) {
  T::write_view_v2(s, seat, out);
};
template <typename T>
concept write_action = requires(const typename T::Action& a, std::string& out) {
  T::write_action(a, out);
};
template <typename T>
concept progress = requires(const typename T::State& s) {
  { T::progress(s) } -> std::convertible_to<json>;
};
template <typename T>
concept state_from_view_alone = requires(const json& view, Seat seat, Rng& rng) {
  { T::state_from_view(view, seat, rng) } -> std::same_as<Result<typename T::State>>;
};
template <typename T>
concept state_from_view_of_match = requires(const json& view, Seat seat, const typename T::Config& c,
                                            const std::vector<typename T::SeatConfig>& seats, Rng& rng) {
  { T::state_from_view(view, seat, c, seats, rng) } -> std::same_as<Result<typename T::State>>;
};
template <typename T>
concept whole_table = requires(const std::vector<json>& views) {
  { T::whole_table(views) } -> std::convertible_to<json>;
};
template <typename T>
concept draw_table = requires(const json& table, const draw::SeatNames& names, const draw::Style& style) {
  { T::draw_table(table, names, style) } -> std::convertible_to<std::string>;
};
template <typename T>
concept describe_action = requires(const json& before, const json& action) {
  { T::describe_action(before, action) } -> std::convertible_to<std::string>;
};
template <typename T>
concept draw_outcome = requires(const json& outcome, const json& cards, const draw::SeatNames& names,
                                const draw::Style& style) {
  { T::draw_outcome(outcome, cards, names, style) } -> std::convertible_to<std::string>;
};
template <typename T>
concept describe_seat_config = requires(const json& c) {
  { T::describe_seat_config(c) } -> std::convertible_to<std::string>;
};
template <typename T>
concept web_module = requires {
  { T::web_module() } -> std::convertible_to<WebModule>;
};

// Refuses a near miss: a declared hook (its name names one function of T) of another signature.
template <typename T>
constexpr bool checked() {
  static_assert(
      !requires { &T::card_table; } || card_table_of_config<T> || card_table_of_seats<T>,
      "optional game hook card_table: expected static json card_table(const Config&) or "
      "static json card_table(const Config&, const std::vector<SeatConfig>&)");
  static_assert(
      !requires { &T::view_v2; } || view_v2<T>,
      "optional game hook view_v2: expected static json view_v2(const State&, Seat)");
  static_assert(
      !requires { &T::write_view_v2; } || write_view_v2<T>,
      "optional game hook write_view_v2: expected static void write_view_v2(const State&, Seat, "
      "std::string&)");
  static_assert(
      !requires { &T::write_action; } || write_action<T>,
      "optional game hook write_action: expected static void write_action(const Action&, std::string&)");
  static_assert(
      !requires { &T::progress; } || progress<T>,
      "optional game hook progress: expected static json progress(const State&)");
  static_assert(
      !requires { &T::state_from_view; } || state_from_view_alone<T> || state_from_view_of_match<T>,
      "optional game hook state_from_view: expected static Result<State> state_from_view(const json&, Seat, "
      "Rng&) or static Result<State> state_from_view(const json&, Seat, const Config&, const "
      "std::vector<SeatConfig>&, Rng&)");
  static_assert(
      !requires { &T::whole_table; } || whole_table<T>,
      "optional game hook whole_table: expected static json whole_table(const std::vector<json>&)");
  static_assert(
      !requires { &T::draw_table; } || draw_table<T>,
      "optional game hook draw_table: expected static std::string draw_table(const json&, const "
      "draw::SeatNames&, const draw::Style&)");
  static_assert(
      !requires { &T::describe_action; } || describe_action<T>,
      "optional game hook describe_action: expected static std::string describe_action(const json& "
      "before, const json& action)");
  static_assert(
      !requires { &T::draw_outcome; } || draw_outcome<T>,
      "optional game hook draw_outcome: expected static std::string draw_outcome(const json& outcome, "
      "const json& cards, const draw::SeatNames&, const draw::Style&)");
  static_assert(
      !requires { &T::describe_seat_config; } || describe_seat_config<T>,
      "optional game hook describe_seat_config: expected static std::string describe_seat_config(const "
      "json&)");
  static_assert(
      !requires { &T::web_module; } || web_module<T>,
      "optional game hook web_module: expected static WebModule web_module()");
  return true;
}
}  // namespace hook

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
    const auto& actions = legal();
    std::vector<json> out;
    out.reserve(actions.size());
    for (const Action& a : actions) out.push_back(Traits::action_to_json(a));
    return out;
  }
  std::size_t legal_count() const override { return legal().size(); }
  void apply_index(std::size_t i) override {
    const Action a = legal().at(i);
    changed();
    Traits::apply(state_, a);
  }
  Status apply(const json& action) override {
    if (Traits::is_over(state_)) return fail(std::string("the game is over"));
    auto parsed = Traits::action_from_json(action);
    if (!parsed) return fail(parsed.error());
    if (!legal_contains(legal(), *parsed)) return fail(std::string("not a legal action now"));
    changed();
    Traits::apply(state_, *parsed);
    return {};
  }

  json view(Seat seat) const override { return Traits::view(state_, seat); }
  json view_v2(Seat seat) const override {
    if constexpr (hook::view_v2<Traits>)
      return Traits::view_v2(state_, seat);
    else
      return Traits::view(state_, seat);
  }
  void write_view_v2(Seat seat, std::string& out) const override {
    if constexpr (hook::write_view_v2<Traits>)
      Traits::write_view_v2(state_, seat, out);
    else
      out += dump_line(view_v2(seat));
  }
  void write_legal(std::string& out) const override {
    const auto& actions = legal();
    out.push_back('[');
    for (std::size_t i = 0; i < actions.size(); ++i) {
      if (i > 0) out.push_back(',');
      if constexpr (hook::write_action<Traits>)
        Traits::write_action(actions[i], out);
      else
        out += dump_line(Traits::action_to_json(actions[i]));
    }
    out.push_back(']');
  }
  json outcome() const override { return Traits::outcome_json(state_); }
  std::vector<double> scores() const override { return Traits::scores(state_); }
  json progress() const override {
    if constexpr (hook::progress<Traits>)
      return Traits::progress(state_);
    else
      return nullptr;
  }
  json to_json() const override { return Traits::state_to_json(state_); }
  std::string describe() const override { return Traits::describe(state_); }
  std::uint64_t hash() const override { return Traits::hash(state_); }
  void redeal_unseen(Seat seat, Rng& rng) override {
    changed();
    Traits::redeal_unseen(state_, seat, rng);
  }
  Status check_invariants() const override { return Traits::check_invariants(state_); }
  void reseed_chance(std::uint64_t seed) override {
    if constexpr (requires(State & s) { s.rng = Rng(seed); }) {
      changed();
      state_.rng = Rng(seed);
    }
  }

  const State& state() const { return state_; }

 private:
  // The legal actions of the current state, computed once per state: the decision loop asks
  // for them to write the request and again to check the reply.
  const std::vector<Action>& legal() const {
    if (!actions_fresh_) {
      Traits::legal_actions(state_, actions_);
      actions_fresh_ = true;
    }
    return actions_;
  }
  void changed() { actions_fresh_ = false; }

  State state_;
  mutable std::vector<Action> actions_;  // a cache of legal(), not part of the value
  mutable bool actions_fresh_ = false;
};

template <typename Traits>
concept HasSeatConfig = requires {
  typename Traits::SeatConfig;
};

template <typename Traits>
class GameAdapter final : public Game {
  static_assert(hook::checked<Traits>());

 public:
  GameAdapter() : info_(Traits::info()) {}
  const GameInfo& info() const override { return info_; }

  Result<json> normalize_config(const json& config) const override {
    auto parsed = Traits::config_from_json(config);
    if (!parsed) return fail(parsed.error());
    return Traits::config_to_json(*parsed);
  }

  Result<json> normalize_seat_config(const json& seat_config) const override {
    if constexpr (HasSeatConfig<Traits>) {
      if (seat_config.is_null()) return json(nullptr);
      auto parsed = Traits::seat_config_from_json(seat_config);
      if (!parsed) return fail(parsed.error());
      return Traits::seat_config_to_json(*parsed);
    } else {
      if (seat_config.is_null()) return json(nullptr);
      return fail(info_.name + " takes no per-seat configuration");
    }
  }

  Result<std::unique_ptr<GameState>> new_game(const json& config, const std::vector<json>& seat_configs,
                                              std::uint64_t seed, int seats) const override {
    if (seats < info_.min_seats || seats > info_.max_seats) {
      return fail(info_.name + ": " + std::to_string(seats) + " seats, expected " + seat_range());
    }
    if (!seat_configs.empty() && seat_configs.size() != static_cast<std::size_t>(seats)) {
      return fail(info_.name + ": " + std::to_string(seat_configs.size()) + " seat configurations for " +
                  std::to_string(seats) + " seats");
    }
    auto parsed = Traits::config_from_json(config);
    if (!parsed) return fail(parsed.error());
    Result<typename Traits::State> state = fail(std::string());
    if constexpr (HasSeatConfig<Traits>) {
      auto per_seat = seat_configs_of(seat_configs, seats);
      if (!per_seat) return fail(per_seat.error());
      state = Traits::new_game(*parsed, *per_seat, seed, seats);
    } else {
      for (std::size_t s = 0; s < seat_configs.size(); ++s) {
        if (!seat_configs[s].is_null()) {
          return fail("seat " + std::to_string(s) + ": " + info_.name + " takes no per-seat configuration");
        }
      }
      state = Traits::new_game(*parsed, seed, seats);
    }
    if (!state) return fail(state.error());
    return std::unique_ptr<GameState>(std::make_unique<AdaptedState<Traits>>(std::move(state).value()));
  }
  using Game::new_game;

  Result<std::unique_ptr<GameState>> state_from_json(const json& j) const override {
    auto state = Traits::state_from_json(j);
    if (!state) return fail(state.error());
    return std::unique_ptr<GameState>(std::make_unique<AdaptedState<Traits>>(std::move(state).value()));
  }

  Result<std::unique_ptr<GameState>> state_from_view(const json& view, Seat seat, const json& config,
                                                     const std::vector<json>& seat_configs,
                                                     std::uint64_t seed) const override {
    Rng rng(seed);
    Result<typename Traits::State> state = fail(std::string());
    if constexpr (hook::state_from_view_alone<Traits>) {
      state = Traits::state_from_view(view, seat, rng);
    } else if constexpr (hook::state_from_view_of_match<Traits>) {
      auto parsed = Traits::config_from_json(config);
      if (!parsed) return fail(info_.name + ": config: " + parsed.error());
      auto per_seat = seat_configs_of(seat_configs, std::max(static_cast<int>(seat_configs.size()), info_.min_seats));
      if (!per_seat) return fail(info_.name + ": " + per_seat.error());
      state = Traits::state_from_view(view, seat, *parsed, *per_seat, rng);
    } else {
      return Game::state_from_view(view, seat, config, seat_configs, seed);
    }
    if (!state) return fail(info_.name + ": " + state.error());
    // The promise, checked: the state shows the seat exactly the view it was built from (in
    // either protocol's form, for a game with a protocol-2 view of its own).
    bool same = Traits::view(*state, seat) == view;
    if constexpr (hook::view_v2<Traits>) same = same || Traits::view_v2(*state, seat) == view;
    if (!same) {
      return fail(info_.name + ": no state of the game shows seat " + std::to_string(seat) + " this view");
    }
    return std::unique_ptr<GameState>(std::make_unique<AdaptedState<Traits>>(std::move(state).value()));
  }

  json card_table(const json& config, const std::vector<json>& seat_configs) const override {
    if constexpr (hook::card_table_of_config<Traits>) {
      auto parsed = Traits::config_from_json(config);
      return parsed ? Traits::card_table(*parsed) : json(nullptr);
    } else if constexpr (HasSeatConfig<Traits>) {
      if constexpr (hook::card_table_of_seats<Traits>) {
        auto parsed = Traits::config_from_json(config);
        auto per_seat = seat_configs_of(seat_configs, std::max(static_cast<int>(seat_configs.size()), info_.min_seats));
        if (!parsed || !per_seat) return nullptr;
        return Traits::card_table(*parsed, *per_seat);
      } else {
        return Game::card_table(config, seat_configs);
      }
    } else {
      return Game::card_table(config, seat_configs);
    }
  }
  json protocol_card_table(const json& config, const std::vector<json>& seat_configs) const override {
    if constexpr (hook::view_v2<Traits>)
      return card_table(config, seat_configs);
    else
      return nullptr;
  }
  json whole_table(const std::vector<json>& views) const override {
    if constexpr (hook::whole_table<Traits>)
      return Traits::whole_table(views);
    else
      return Game::whole_table(views);
  }
  std::string draw_table(const json& table, const draw::SeatNames& names, const draw::Style& style) const override {
    if constexpr (hook::draw_table<Traits>)
      return Traits::draw_table(table, names, style);
    else
      return Game::draw_table(table, names, style);
  }
  std::string describe_action(const json& before, const json& action) const override {
    if constexpr (hook::describe_action<Traits>)
      return Traits::describe_action(before, action);
    else
      return Game::describe_action(before, action);
  }
  std::string draw_outcome(const json& outcome, const json& cards, const draw::SeatNames& names,
                           const draw::Style& style) const override {
    if constexpr (hook::draw_outcome<Traits>) {
      return Traits::draw_outcome(outcome, cards, names, style);
    } else {
      return Game::draw_outcome(outcome, cards, names, style);
    }
  }
  std::string describe_seat_config(const json& seat_config) const override {
    if constexpr (hook::describe_seat_config<Traits>)
      return Traits::describe_seat_config(seat_config);
    else
      return Game::describe_seat_config(seat_config);
  }
  WebModule web_module() const override {
    if constexpr (hook::web_module<Traits>)
      return Traits::web_module();
    else
      return Game::web_module();
  }

 private:
  std::string seat_range() const {
    std::string range = std::to_string(info_.min_seats);
    if (info_.max_seats != info_.min_seats) range += '-' + std::to_string(info_.max_seats);
    return range;
  }

  // One parsed seat configuration per seat (defaults where none is given); an error names the seat.
  template <typename T = Traits>
  Result<std::vector<typename T::SeatConfig>> seat_configs_of(const std::vector<json>& given, int seats) const {
    std::vector<typename T::SeatConfig> out(static_cast<std::size_t>(seats));
    for (std::size_t s = 0; s < given.size() && s < out.size(); ++s) {
      if (given[s].is_null()) continue;
      auto parsed = T::seat_config_from_json(given[s]);
      if (!parsed) return fail("seat " + std::to_string(s) + ": " + parsed.error());
      out[s] = std::move(parsed).value();
    }
    return out;
  }

  GameInfo info_;
};

}  // namespace arena::games
