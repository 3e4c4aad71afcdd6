#include "referee/cli/show_cmd.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <iostream>
#include <memory>

#include "referee/cli/common.hpp"
#include "referee/cli/html_cmd.hpp"
#include "referee/cli/replay_messages.hpp"
#include "referee/core/hash.hpp"
#include "referee/games/game.hpp"
#include "referee/render/frames.hpp"
#include "referee/render/terminal.hpp"
#include "referee/replay/replay.hpp"

namespace arena::cli {

namespace {

// auto: colour when stdout is a terminal and NO_COLOR is unset or empty (no-color.org).
bool use_color(const std::string& mode) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  return ::isatty(STDOUT_FILENO) == 1 && (no_color == nullptr || *no_color == '\0');
}

// The re-simulated state hash after `step` decisions against the replay's record (a warning only:
// `referee verify` is the check).
void warn_on_hash(const replay::Replay& r, const render::Frame& frame, std::size_t step) {
  const std::string recorded = step == 0 ? r.header.initial_hash : r.steps[step - 1].hash;
  const games::Game* game = games::find_game(r.header.game);
  if (game == nullptr) return;
  auto state = game->state_from_json(frame.state);
  if (!state) return;
  const std::string actual = hash_hex((*state)->hash());
  if (actual != recorded) {
    say("referee show: warning: the state hash after step {} is {} but the replay records {} (run referee verify)\n",
        step, actual, recorded);
  }
}

// --step and --seat: a whole number, else "--step: 1e400 is not a whole number (...)" and exit
// code 2 (rather than CLI11's "Could not convert"); the range depends on the replay and is
// checked once it is read.
template <typename T>
CLI::Validator whole_number(const char* range) {
  return CLI::Validator(
      [range](std::string& input) -> std::string {
        T value = 0;
        const auto [end, error] = std::from_chars(input.data(), input.data() + input.size(), value);
        if (error == std::errc() && end == input.data() + input.size()) return {};
        const std::string shown = input.size() > 24 ? fmt::format("{}...", input.substr(0, 24)) : input;
        return fmt::format("{} is not a whole number in {}", shown, range);
      },
      "INT");
}

// --request N: the request line decision N answered, rebuilt from the replay (replay_messages.hpp),
// on stdout; exit 2 when N or the seat does not name a request of this replay.
int print_request(const replay::Replay& r, const ShowArgs& a) {
  const std::size_t total = r.steps.size();
  if (a.request < 0 || static_cast<std::uint64_t>(a.request) >= total) {
    say("referee show: --request {} is out of range: this replay has {} decisions, so --request takes 0 to {}\n",
        a.request, total, total == 0 ? std::string("(none)") : std::to_string(total - 1));
    return kUsage;
  }
  const replay::Step& step = r.steps[static_cast<std::size_t>(a.request)];
  if (a.seat >= 0 && a.seat != step.seat) {
    say("referee show: decision {} was seat {}'s: seat {} was sent no request there (--seat {} shows it)\n", a.request,
        step.seat, a.seat, step.seat);
    return kUsage;
  }
  auto request = request_at(r, static_cast<std::size_t>(a.request), step.seat, step.request_id);
  if (!request) {
    say("referee show: {}\n", request.error());
    return kBadReplay;
  }
  std::cout << *request << '\n' << std::flush;
  return kFinished;
}

}  // namespace

RunCommand add_show(CLI::App& command) {
  auto args = std::make_shared<ShowArgs>();
  ShowArgs& a = *args;
  CLI::App* s = &command;
  s->add_option("replay", a.replay, "Replay file (.jsonl)")->required();
  auto* step_option = s->add_option("--step", a.step, "Decisions applied (0 = the deal; default: the end)")
                          ->check(whole_number<std::int64_t>("0..(the replay's decisions)"));
  s->add_option("--seat", a.seat, "Show only what this seat's bot was sent")
      ->check(whole_number<int>("0..(the replay's seats - 1)"));
  s->add_option("--request", a.request,
                "Print the exact request line the seat to act (or --seat) was sent before decision N (0-based), to "
                "feed to the bot by hand")
      ->check(whole_number<std::int64_t>("0..(the replay's decisions - 1)"))
      ->excludes(step_option);
  s->add_option("--color", a.color, "ANSI colour: auto (a terminal and no NO_COLOR), always or never")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "always", "never"}));
  return [args](const CLI::App& parsed) { return run_show(parsed, *args); };
}

int run_show(const CLI::App& command, const ShowArgs& a) {
  int exit = kFinished;
  auto replay = read_replay_argument(a.replay, "show", exit);
  if (!replay) return exit;
  auto frames = render::simulate(*replay);
  if (!frames) {
    say("referee show: {}: the replay cannot be re-simulated: {}\n", a.replay, frames.error());
    return kBadReplay;
  }
  render::restore_views(*replay, *frames);
  const replay::Replay& r = *replay;
  const std::size_t total = r.steps.size();
  std::size_t step = total;
  if (command.count("--step") > 0) {
    if (a.step < 0 || static_cast<std::uint64_t>(a.step) > total) {
      say("referee show: --step {} is out of range: this replay has {} decisions, so --step takes 0 to {}\n", a.step,
          total, total);
      return kUsage;
    }
    step = static_cast<std::size_t>(a.step);
  }
  if (command.count("--request") > 0) return print_request(r, a);
  render::TextOptions o;
  o.color = use_color(a.color);
  std::string text;
  if (command.count("--seat") > 0) {
    if (a.seat < 0 || a.seat >= r.header.seats) {
      say("referee show: --seat {} is out of range: this match has {} seats (0 to {})\n", a.seat, r.header.seats,
          r.header.seats - 1);
      return kUsage;
    }
    auto seat = render::seat_text(r, *frames, step, a.seat, o);
    if (!seat) {
      say("referee show: {}: {}\n", a.replay, seat.error());
      return kBadReplay;
    }
    text = std::move(seat).value();
  } else {
    warn_on_hash(r, (*frames)[step], step);
    text = render::table_text(r, *frames, step, o);
  }
  std::cout << text << std::flush;
  return kFinished;
}

}  // namespace arena::cli
