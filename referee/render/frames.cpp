#include "referee/render/frames.hpp"

#include <fmt/format.h>

#include "referee/games/game.hpp"

namespace arena::render {

namespace {

Frame frame_of(const games::GameState& state, std::int64_t step) {
  Frame f;
  f.step = step;
  f.state = state.to_json();
  const int seats = state.seats();
  f.views.reserve(static_cast<std::size_t>(seats));
  for (Seat s = 0; s < seats; ++s) f.views.push_back(state.view(s));
  f.to_act = state.is_over() ? -1 : state.to_act();
  f.progress = state.progress();
  return f;
}

}  // namespace

Result<std::vector<Frame>> simulate(const replay::Replay& replay) {
  const replay::Header& h = replay.header;
  auto created = replay::initial_state(h);
  if (!created) return fail(created.error());
  auto state = std::move(created).value();

  std::vector<Frame> frames;
  frames.reserve(replay.steps.size() + 1);
  frames.push_back(frame_of(*state, 0));
  for (std::size_t i = 0; i < replay.steps.size(); ++i) {
    const replay::Step& s = replay.steps[i];
    const std::string where = fmt::format("step {} (request {})", s.n, s.request_id);
    if (s.n != static_cast<std::int64_t>(i)) return fail(fmt::format("{}: expected step number {}", where, i));
    if (state->is_over()) return fail(fmt::format("{}: the game was already over", where));
    if (state->to_act() != s.seat) {
      return fail(fmt::format("{}: seat {} acted but seat {} was to act", where, s.seat, state->to_act()));
    }
    if (auto st = state->apply(s.action); !st) {
      return fail(fmt::format("{}: action {} is refused: {}", where,
                              s.action.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), st.error()));
    }
    frames.push_back(frame_of(*state, static_cast<std::int64_t>(i) + 1));
  }
  return frames;
}

void restore_views(replay::Replay& replay, const std::vector<Frame>& frames) {
  for (std::size_t i = 0; i < replay.steps.size() && i < frames.size(); ++i) {
    replay::Step& step = replay.steps[i];
    const auto seat = static_cast<std::size_t>(step.seat);
    if (step.view.is_null() && seat < frames[i].views.size()) step.view = frames[i].views[seat];
  }
}

}  // namespace arena::render
