#include "tests/games/plugin/countdown/countdown.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "referee/core/hash.hpp"

namespace arena::countdown {

using nlohmann::json;

namespace {

bool is_int(const json& j) {
  return j.is_number_integer();
}

}  // namespace

Result<Config> config_from_json(const json& j) {
  Config c;
  if (j.is_null()) return c;
  if (!j.is_object()) return fail(std::string("countdown config: expected a JSON object"));
  for (const auto& [key, value] : j.items()) {
    if (key != "max_take") return fail(fmt::format("countdown config: unknown key \"{}\"", key));
    if (!is_int(value) || value.get<int>() < 1 || value.get<int>() > 9) {
      return fail(fmt::format("countdown config: max_take is {}, expected an integer 1-9", value.dump()));
    }
    c.max_take = value.get<int>();
  }
  return c;
}

json to_json(const Config& c) {
  return {{"max_take", c.max_take}};
}

State new_game(const Config& c, std::uint64_t seed, int seats) {
  Rng rng(seed);
  State s;
  s.config = c;
  s.seats = seats;
  s.pile = 15 + static_cast<int>(rng.below(11));
  s.stones = s.pile;
  s.to_act = static_cast<int>(rng.below(static_cast<std::uint64_t>(seats)));
  s.taken.assign(static_cast<std::size_t>(seats), 0);
  return s;
}

bool is_over(const State& s) {
  return s.stones == 0;
}

void legal_actions(const State& s, std::vector<Action>& out) {
  out.clear();
  for (int n = 1; n <= std::min(s.config.max_take, s.stones); ++n) out.push_back(Action{n});
}

void apply(State& s, const Action& a) {
  s.stones -= a.take;
  s.taken[static_cast<std::size_t>(s.to_act)] += a.take;
  if (s.stones == 0) s.last = s.to_act;
  s.to_act = (s.to_act + 1) % s.seats;
}

json to_json(const Action& a) {
  return {{"take", a.take}};
}

Result<Action> action_from_json(const json& j) {
  if (!j.is_object() || j.size() != 1 || !j.contains("take") || !is_int(j.at("take"))) {
    return fail(std::string("expected {\"take\": N}"));
  }
  return Action{j.at("take").get<int>()};
}

json view(const State& s, Seat seat) {
  return {
      {"seat", seat}, {"stones", s.stones}, {"max_take", s.config.max_take}, {"to_act", s.to_act}, {"taken", s.taken}};
}

std::vector<double> scores(const State& s) {
  std::vector<double> out(static_cast<std::size_t>(s.seats), 0.0);
  if (s.last >= 0) out[static_cast<std::size_t>(s.last)] = 1.0;
  return out;
}

json outcome_json(const State& s) {
  return {{"scores", scores(s)}, {"winner", s.last}, {"taken", s.taken}};
}

json to_json(const State& s) {
  return {{"config", to_json(s.config)}, {"seats", s.seats}, {"pile", s.pile},  {"stones", s.stones},
          {"to_act", s.to_act},          {"last", s.last},   {"taken", s.taken}};
}

Result<State> state_from_json(const json& j) {
  try {
    auto config = config_from_json(j.at("config"));
    if (!config) return fail(config.error());
    State s;
    s.config = *config;
    s.seats = j.at("seats").get<int>();
    s.pile = j.at("pile").get<int>();
    s.stones = j.at("stones").get<int>();
    s.to_act = j.at("to_act").get<int>();
    s.last = j.at("last").get<int>();
    s.taken = j.at("taken").get<std::vector<int>>();
    if (auto st = check_invariants(s); !st) return fail(st.error());
    return s;
  } catch (const json::exception& e) {
    return fail(fmt::format("countdown state: {}", e.what()));
  }
}

std::string describe(const State& s) {
  std::string out = fmt::format("Countdown: {} of {} stones left", s.stones, s.pile);
  for (int seat = 0; seat < s.seats; ++seat)
    out += fmt::format(", seat {} took {}", seat, s.taken[static_cast<std::size_t>(seat)]);
  if (s.last >= 0) out += fmt::format("; seat {} took the last stone", s.last);
  return out + "\n";
}

std::uint64_t hash(const State& s) {
  Hasher h;
  h.i64(s.config.max_take).i64(s.seats).i64(s.pile).i64(s.stones).i64(s.to_act).i64(s.last);
  for (int t : s.taken) h.i64(t);
  return h.digest();
}

Status check_invariants(const State& s) {
  if (s.seats < kMinSeats || s.seats > kMaxSeats) return fail(fmt::format("{} seats", s.seats));
  if (s.taken.size() != static_cast<std::size_t>(s.seats)) return fail(std::string("one taken count per seat"));
  if (s.stones < 0 || s.stones > s.pile) return fail(fmt::format("{} stones of {}", s.stones, s.pile));
  if (std::accumulate(s.taken.begin(), s.taken.end(), 0) + s.stones != s.pile)
    return fail(std::string("stones are not conserved"));
  if (s.to_act < 0 || s.to_act >= s.seats) return fail(fmt::format("seat {} to act", s.to_act));
  if ((s.stones == 0) != (s.last >= 0)) return fail(std::string("the last stone and its taker disagree"));
  return {};
}

}  // namespace arena::countdown
