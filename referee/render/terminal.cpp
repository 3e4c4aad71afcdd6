#include "referee/render/terminal.hpp"

#include <fmt/format.h>

#include <cassert>

#include "referee/games/game.hpp"

namespace arena::render {

using nlohmann::json;
using namespace games::draw;
using Names = SeatNames;

namespace {

Names names_of(const replay::Header& h) {
  Names n;
  for (const auto& b : h.bots) n.bots.push_back(clean(b.name, 20));
  return n;
}

// The replay's game (simulate() succeeded, so the game is known).
const games::Game& game_of(const replay::Replay& r) {
  const games::Game* game = games::find_game(r.header.game);
  assert(game != nullptr);
  return *game;
}

std::string game_title(const replay::Replay& r) {
  return clean(game_of(r).info().title, 40);
}

// Decision k (1-based: the k-th decision, replay step n = k-1) in words and as JSON. `before` is
// the acting seat's own view just before it.
std::string decision_text(std::string_view lead, const replay::Replay& r, std::size_t k, const json& before,
                          const Names& names, const Style& st, bool with_note) {
  const replay::Step& s = r.steps[k - 1];
  std::string out = wrap(fmt::format("{}decision {} (replay step n={}, request {}): ", lead, k, s.n, s.request_id),
                         {names.seat(s.seat), st.bold(game_of(r).describe_action(before, s.action))}, " ", 4);
  std::string detail = "  " + st.dim(one_line(s.action));
  detail += fmt::format("  ({:.1f} ms)", s.time_ms);
  out += detail + "\n";
  if (with_note && !s.debug.empty()) out += "  bot's note: " + clean(s.debug, 80) + "\n";
  return out;
}

std::string ordinal(int n) {
  const char* suffix = (n % 100 >= 11 && n % 100 <= 13) ? "th"
                       : n % 10 == 1                    ? "st"
                       : n % 10 == 2                    ? "nd"
                       : n % 10 == 3                    ? "rd"
                                                        : "th";
  return fmt::format("{}{}", n, suffix);
}

// The footer: how the match ended, the score breakdown and the outcome. `full` adds what only
// the referee saw (a faulty bot's bytes).
std::string footer_text(const replay::Replay& r, const Names& names, const Style& st, bool full) {
  const std::size_t decisions = r.steps.size();
  std::string out = "\n";
  out += st.bold("-- the end --");
  out += '\n';
  if (!r.footer) {
    return out +
           fmt::format("no footer: the replay stops after {} decisions (the referee was stopped before the end)\n",
                       decisions);
  }
  // The result is shown only as verify accepts it: a footer someone edited names no winner.
  const replay::Verification verified = replay::verify(r);
  if (!verified.ok || !verified.result) {
    return out + st.bold("UNVERIFIED replay: its result is not shown") + "\n  " + clean(verified.message, 300) + "\n";
  }
  const replay::FinalResult& result = *verified.result;
  if (result.end == replay::End::finished) {
    out += fmt::format("the match finished after {} decisions\n", decisions);
    const games::Game& game = game_of(r);
    out +=
        game.draw_outcome(result.outcome, game.card_table(r.header.config, replay::seat_configs(r.header)), names, st);
  } else if (result.end == replay::End::fault) {
    const replay::Fault& fault = *result.fault;
    out += fmt::format("the match ended with a fault after {} decisions\n", decisions);
    out += st.bold(fmt::format("{} forfeits: {} at request {}", names.seat(fault.seat), enum_name(fault.kind),
                               fault.request_id)) +
           "\n";
    out += "  message: " + clean(fault.message, 300) + "\n";
    if (full && !fault.raw.empty()) out += "  offending bytes: " + clean(fault.raw, 200) + "\n";
  } else if (result.end == replay::End::interrupted) {
    out += fmt::format("the match was interrupted after {} decisions: no result\n", decisions);
  } else {
    out += fmt::format("the match ended with an error of the referee after {} decisions\n", decisions);
    out += "  " + clean(result.error, 300) + "\n";
  }
  if (result.end != replay::End::finished && !result.ranks.empty()) {
    std::vector<std::string> ranks;
    for (std::size_t s = 0; s < result.ranks.size(); ++s)
      ranks.push_back(fmt::format("{} {}", names.seat(static_cast<int>(s)), ordinal(result.ranks[s])));
    out += wrap("ranks: ", ranks, ", ", 4);
  }
  return out;
}

// `text` cut at its spaces, for wrap().
std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find(' ', start), text.size());
    if (end > start) out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::string step_line(std::size_t step, std::size_t total) {
  if (step == 0) return fmt::format("step 0 of {}: the deal, before the first decision\n", total);
  return fmt::format("step {} of {}: the table after {} decision{}\n", step, total, step, step == 1 ? "" : "s");
}

}  // namespace

json whole_table(const replay::Replay& r, const Frame& frame) {
  return game_of(r).whole_table(frame.views);
}

std::string table_text(const replay::Replay& r, const std::vector<Frame>& frames, std::size_t step,
                       const TextOptions& o) {
  assert(frames.size() == r.steps.size() + 1 && step < frames.size());
  const Style st(o.color);
  const Names names = names_of(r.header);
  const std::size_t total = r.steps.size();
  std::vector<std::string> players;
  for (int s = 0; s < r.header.seats; ++s) players.push_back(names.seat(s));
  std::string out = wrap(st.bold(game_title(r)) + fmt::format(", seed {}: ", r.header.seed), players, " vs ", 4);
  out += step_line(step, total);
  if (step == 0) {
    for (std::size_t s = 0; s < r.header.bots.size(); ++s) {
      const json& own = r.header.bots[s].seat_config;
      if (!own.is_null()) {
        out += wrap(fmt::format("{} plays with its own configuration: ", names.seat(static_cast<int>(s))),
                    words(game_of(r).describe_seat_config(own)), " ", 4);
      }
    }
  }
  if (step > 0) {
    const int actor = r.steps[step - 1].seat;
    out += decision_text("", r, step, frames[step - 1].views.at(static_cast<std::size_t>(actor)), names, st, true);
  }
  if (step < total) {
    const int actor = r.steps[step].seat;
    out +=
        decision_text("next, ", r, step + 1, frames[step].views.at(static_cast<std::size_t>(actor)), names, st, false);
  }
  out += '\n';
  out += game_of(r).draw_table(whole_table(r, frames[step]), names, st);
  if (step == total) out += footer_text(r, names, st, true);
  return out;
}

Result<std::string> seat_text(const replay::Replay& r, const std::vector<Frame>& frames, std::size_t step, Seat seat,
                              const TextOptions& o) {
  assert(frames.size() == r.steps.size() + 1 && step < frames.size());
  assert(seat >= 0 && seat < r.header.seats);
  const Style st(o.color);
  const Names names = names_of(r.header);
  const std::size_t total = r.steps.size();
  const auto s = static_cast<std::size_t>(seat);
  // The last decision at or before `step` that this seat was asked for (its view is the table
  // after that many decisions).
  std::size_t asked = total;
  for (std::size_t i = std::min(step + 1, total); i-- > 0;) {
    if (r.steps[i].seat == seat) {
      asked = i;
      break;
    }
  }
  std::string out = wrap(
      st.bold(game_title(r)) + ": ",
      {fmt::format("what {} was sent", names.seat(seat)), "(its view only: nothing hidden from it is shown)"}, " ", 4);
  out += step_line(step, total);
  json view;
  if (asked < total && !r.steps[asked].view.is_null()) {
    const replay::Step& rs = r.steps[asked];
    if (rs.view != frames[asked].views.at(s)) {
      return fail(fmt::format("step {} (request {}): the view seat {} was sent differs from the re-simulated view",
                              rs.n, rs.request_id, seat));
    }
    view = rs.view;
    out += st.bold(fmt::format("recorded view: request {}", rs.request_id));
    out += fmt::format(" for decision {}: the table after {} decisions", asked + 1, asked);
    out += asked == step
               ? std::string(", as it is now\n")
               : fmt::format("\n(its last request at or before step {}; the table has moved on since)\n", step);
  } else if (asked < total) {
    view = frames[asked].views.at(s);
    out += st.bold(fmt::format("re-simulated view: request {} recorded no view", r.steps[asked].request_id));
    out += fmt::format(";\nthis is view({}) of the table after {} decisions\n", seat, asked);
  } else {
    view = frames[step].views.at(s);
    out += st.bold(fmt::format("re-simulated view: {} had not been asked yet", names.seat(seat)));
    out += fmt::format(";\nthis is view({}) of the table after {} decisions\n", seat, step);
  }
  out += '\n';
  out += game_of(r).draw_table(view, names, st);
  if (asked < total) {
    out += '\n';
    out += decision_text("its answer, ", r, asked + 1, view, names, st, true);
  }
  if (step == total) out += footer_text(r, names, st, false);
  return out;
}

}  // namespace arena::render
