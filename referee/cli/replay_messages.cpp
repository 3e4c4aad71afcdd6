#include "referee/cli/replay_messages.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "protocol/codec.hpp"
#include "referee/games/game.hpp"
#include "referee/match/view_delta.hpp"

namespace arena::cli {

using nlohmann::json;

namespace {

// The protocol limits the replay's header records (its "limits" object; defaults for a key it lacks).
protocol::Limits limits_from(const json& j) {
  protocol::Limits l;
  l.init_ms = j.value("init_ms", l.init_ms);
  l.decision_ms = j.value("decision_ms", l.decision_ms);
  l.time_bank_ms = j.value("time_bank_ms", l.time_bank_ms);
  l.max_line_bytes = j.value("max_line_bytes", l.max_line_bytes);
  l.max_debug_bytes = j.value("max_debug_bytes", l.max_debug_bytes);
  return l;
}

}  // namespace

json hello_for(const replay::Header& h, Seat seat) {
  const games::Game* game = games::find_game(h.game);
  const json cards = game == nullptr ? json(nullptr) : game->protocol_card_table(h.config, replay::seat_configs(h));
  return protocol::hello(h.game, seat, h.seats, h.config, limits_from(h.limits), games::seat_card_table(cards, seat));
}

Result<std::string> request_at(const replay::Replay& r, std::size_t step, Seat seat, std::int64_t request_id,
                               DeltaRequest delta) {
  const replay::Header& h = r.header;
  const protocol::Limits limits = limits_from(h.limits);
  if (games::find_game(h.game) == nullptr) return fail(fmt::format("unknown game \"{}\" in the replay", h.game));
  auto state = replay::initial_state(h);
  if (!state) return fail(state.error());
  const auto bot =
      static_cast<std::size_t>(seat) < h.bots.size() ? h.bots[static_cast<std::size_t>(seat)] : replay::BotInfo{};
  // A view-delta seat's earlier requests, given to its ViewDelta in turn as the match did.
  const bool deltas = bot.protocol >= 2 && bot.view_delta;
  match::ViewDelta sent;
  std::string view, changed, removed;
  std::vector<double> bank(static_cast<std::size_t>(h.seats), static_cast<double>(limits.time_bank_ms));
  for (std::size_t i = 0; i < std::min(step, r.steps.size()); ++i) {
    const replay::Step& s = r.steps[i];
    if (deltas && delta == DeltaRequest::as_sent && (*state)->to_act() == seat) {
      view.clear();
      (*state)->write_view_v2(seat, view);
      sent.write(view, changed, removed);
    }
    double& b = bank[static_cast<std::size_t>(s.seat)];
    b = std::max(0.0, b - std::max(0.0, s.time_ms - static_cast<double>(limits.decision_ms)));
    if (auto st = (*state)->apply(s.action); !st)
      return fail(fmt::format("step {} does not apply: {}", s.n, st.error()));
  }
  if ((*state)->is_over()) return fail(fmt::format("the game is over after {} decisions: no request", step));
  if ((*state)->to_act() != seat) {
    return fail(fmt::format("after {} decisions seat {} is to act, not seat {}: only the seat to act is sent a request",
                            step, (*state)->to_act(), seat));
  }
  const double seat_bank = bank[static_cast<std::size_t>(seat)];
  const auto time_left = static_cast<std::int64_t>(static_cast<double>(limits.decision_ms) + seat_bank);
  if (!deltas) {
    return protocol::to_line(
        protocol::request(request_id, seat, bot.protocol >= 2 ? (*state)->view_v2(seat) : (*state)->view(seat),
                          (*state)->legal_actions(), time_left, static_cast<std::int64_t>(seat_bank), bot.protocol));
  }
  view.clear();
  (*state)->write_view_v2(seat, view);
  sent.write(view, changed, removed);  // as_first: the ViewDelta's first view, every member
  std::string legal;
  (*state)->write_legal(legal);
  return protocol::request_line(bot.protocol, request_id, seat, changed, legal, time_left,
                                static_cast<std::int64_t>(seat_bank), true, removed);
}

}  // namespace arena::cli
