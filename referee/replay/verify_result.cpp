#include "referee/replay/verify_result.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace arena::replay {

namespace {

std::string text_of(const std::vector<int>& v) {
  return v.empty() ? std::string("none") : fmt::format("[{}]", fmt::join(v, ", "));
}

std::string text_of(const std::vector<double>& v) {
  return v.empty() ? std::string("none") : fmt::format("[{}]", fmt::join(v, ", "));
}

std::string text_of(const std::optional<Seat>& s) {
  return s ? fmt::format("seat {}", *s) : std::string("none");
}

// A wall time the footer sums from the steps: equal up to the printing of each step's time.
bool close_to(double recorded, double derived, std::size_t terms) {
  return std::fabs(recorded - derived) <= 1e-3 * static_cast<double>(terms + 1) + 1e-9 * std::fabs(derived);
}

Status check_fault(const Replay& replay, const FinalResult& r, const games::GameState& state) {
  const Fault& f = *r.fault;
  const std::int64_t next_request = static_cast<std::int64_t>(replay.steps.size()) + 1;
  if (f.phase == FaultPhase::decision) {
    if (f.kind == FaultKind::unsupported_game)
      return fail(std::string("result.fault.kind: unsupported_game is a handshake fault, not a decision's"));
    if (f.request_id != next_request)
      return fail(fmt::format("result.fault.request_id: a decision fault after {} steps is request {}, not {}",
                              replay.steps.size(), next_request, f.request_id));
    if (f.seat != state.to_act())
      return fail(fmt::format("result.fault.seat: the fault is charged to seat {} but seat {} was to act", f.seat,
                              state.to_act()));
    // The kind among timeout, malformed, crash and output_limit is what the bot did off the
    // record; only its consistency with the phase is checked (illegal only here, with a request).
    if (!f.request_sent && f.kind != FaultKind::malformed)
      return fail(fmt::format("result.fault.request_sent: a {} fault is always an answer to a sent request",
                              enum_name(f.kind)));
    return {};
  }
  // Spawn, handshake, between matches: before the first request.
  if (f.request_id != 0)
    return fail(fmt::format("result.fault.request_id: a {} fault has no request (0), not {}", enum_name(f.phase),
                            f.request_id));
  if (!replay.steps.empty())
    return fail(fmt::format("result.fault.phase: a {} fault after {} steps", enum_name(f.phase), replay.steps.size()));
  if (f.request_sent)
    return fail(fmt::format("result.fault.request_sent: a {} fault has no request", enum_name(f.phase)));
  if (f.kind == FaultKind::illegal)
    return fail(fmt::format("result.fault.kind: only a decision can be illegal, not a {} fault", enum_name(f.phase)));
  if (f.kind == FaultKind::unsupported_game && f.phase != FaultPhase::handshake)
    return fail(
        fmt::format("result.fault.kind: a bot refuses a game in its ready, not in a {} fault", enum_name(f.phase)));
  if (f.phase == FaultPhase::spawn && f.kind != FaultKind::crash)
    return fail(fmt::format("result.fault.kind: a bot that could not start is a crash, not {}", enum_name(f.kind)));
  if (f.phase == FaultPhase::between_matches && f.kind != FaultKind::malformed)
    return fail(fmt::format("result.fault.kind: output between matches is malformed, not {}", enum_name(f.kind)));
  if (f.phase == FaultPhase::between_matches && r.seats[static_cast<std::size_t>(f.seat)].process_match < 2)
    return fail("result.fault.phase: between matches, but the seat's process played no match before");
  return {};
}

Status check_seats(const Replay& replay, const FinalResult& r) {
  const Header& h = replay.header;
  if (h.bots.size() != static_cast<std::size_t>(h.seats))
    return fail(fmt::format("header: {} seats but {} bots", h.seats, h.bots.size()));
  if (r.seats.size() != h.bots.size())
    return fail(fmt::format("result.bots: {} seats, the header has {}", r.seats.size(), h.bots.size()));
  for (std::size_t i = 0; i < r.seats.size(); ++i) {
    const SeatReport& s = r.seats[i];
    const BotInfo& b = h.bots[i];
    const auto differs = [&](const char* field, const auto& footer, const auto& derived) {
      return fail(fmt::format("result.bots[{}].{}: the footer says {} but {}", i, field, footer, derived));
    };
    if (s.name != b.name) return differs("name", json(s.name).dump(), "the header says " + json(b.name).dump());
    if (s.version != b.version)
      return differs("version", json(s.version).dump(), "the header says " + json(b.version).dump());
    if (s.command != b.command)
      return differs("command", json(s.command).dump(), "the header says " + json(b.command).dump());
    if (s.protocol != b.protocol) return differs("protocol", s.protocol, fmt::format("the header says {}", b.protocol));
    if (b.view_delta && b.protocol < 2)
      return fail(
          fmt::format("header: bots[{}] has view deltas at protocol {} (they are protocol 2's)", i, b.protocol));
    std::int64_t decisions = 0;
    double total = 0, longest = 0;
    for (const Step& step : replay.steps) {
      if (static_cast<std::size_t>(step.seat) != i) continue;
      ++decisions;
      total += step.time_ms;
      longest = std::max(longest, step.time_ms);
    }
    if (s.decisions != decisions) return differs("decisions", s.decisions, fmt::format("the steps hold {}", decisions));
    if (!close_to(s.total_ms, total, static_cast<std::size_t>(decisions)))
      return differs("total_ms", s.total_ms, fmt::format("its steps took {} ms", total));
    if (!close_to(s.max_ms, longest, 1))
      return differs("max_ms", s.max_ms, fmt::format("its longest step took {} ms", longest));
  }
  return {};
}

}  // namespace

Result<FinalResult> check_result(const Replay& replay, const games::GameState& state) {
  const Header& h = replay.header;
  const Footer& footer = *replay.footer;
  auto read = result_from_json(footer.result);
  if (!read) return fail(fmt::format("the footer's {}", read.error()));
  const FinalResult& r = *read;
  if (r.end != footer.end)
    return fail(fmt::format("result.end: the footer line says {} but its result says {}", enum_name(footer.end),
                            enum_name(r.end)));
  if (r.game != h.game) return fail(fmt::format("result.game: \"{}\", the header says \"{}\"", r.game, h.game));
  if (r.seed != h.seed) return fail(fmt::format("result.seed: {}, the header says {}", r.seed, h.seed));
  if (r.config != h.config) return fail("result.config: differs from the header's config");
  if (r.decisions != static_cast<std::int64_t>(replay.steps.size()))
    return fail(fmt::format("result.decisions: {}, the replay holds {} steps", r.decisions, replay.steps.size()));
  if (auto st = check_seats(replay, r); !st) return fail(st.error());

  // How it ended, and what the game says about it.
  FinalResult derived;
  derived.end = r.end;
  derived.seats = r.seats;
  switch (r.end) {
    case End::finished:
      if (!state.is_over()) return fail("result.end: finished, but the game is not over after the last step");
      derived.scores = state.scores();
      derived.outcome = state.outcome();
      break;
    case End::fault:
      if (state.is_over()) return fail("result.end: a fault, but the game was over after the last step");
      if (!r.fault) return fail("result.fault: the match ended by a fault but the result has none");
      break;
    case End::interrupted:
    case End::error:
      if (state.is_over())
        return fail(fmt::format("result.end: {}, but the game was over after the last step", enum_name(r.end)));
      break;
  }
  if (r.fault && r.end != End::fault)
    return fail(fmt::format("result.fault: a fault in a match that ended {}", enum_name(r.end)));
  if (r.fault) {
    if (auto st = check_fault(replay, r, state); !st) return fail(st.error());
    derived.fault = r.fault;
  }
  if (!r.error.empty() && r.end != End::error && r.end != End::interrupted)
    return fail(fmt::format("result.error: an error in a match that ended {}", enum_name(r.end)));
  if (r.end == End::error && r.error.empty()) return fail("result.error: the match ended by an error but names none");
  settle(derived);

  if (r.scores != derived.scores)
    return fail(fmt::format("result.scores: the footer says {} but the re-simulation gives {}", text_of(r.scores),
                            text_of(derived.scores)));
  if (r.outcome != derived.outcome) return fail("result.outcome: differs from the re-simulated outcome");
  if (r.ranks != derived.ranks)
    return fail(fmt::format("result.ranks: the footer says {} but the re-simulation gives {}", text_of(r.ranks),
                            text_of(derived.ranks)));
  if (r.winner != derived.winner)
    return fail(fmt::format("result.winner: the footer says {} but the re-simulation gives {}", text_of(r.winner),
                            text_of(derived.winner)));
  return read;
}

}  // namespace arena::replay
