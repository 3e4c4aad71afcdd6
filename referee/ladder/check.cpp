#include "referee/ladder/check.hpp"

#include <fmt/format.h>

#include "referee/games/game.hpp"
#include "referee/match/match.hpp"
#include "referee/replay/replay.hpp"

namespace arena::ladder {

namespace fs = std::filesystem;

namespace {

std::string describe_fault(const CheckFault& f) {
  std::string text = fmt::format("{} in {} ({}-seat game, seat {}, against {}, seed {}): {}", enum_name(f.kind),
                                 enum_name(f.phase), f.seats, f.seat, f.opponent, f.seed, f.message);
  if (!f.request.empty()) text += "\n  request: " + f.request;
  if (!f.reply.empty()) text += "\n  reply: " + f.reply;
  if (!f.exit.empty()) text += "\n  exit: " + f.exit;
  for (const std::string& line : f.stderr_tail) text += "\n  stderr: " + line;
  return text;
}

}  // namespace

Result<CheckResult> check(const std::string& command, const fs::path& folder, const fs::path& out,
                          const CheckOptions& options) {
  const std::string game_name = options.game.empty() ? games::default_game_name() : options.game;
  const games::Game* game = games::find_game(game_name);
  if (game == nullptr) return fail(fmt::format("the check's game \"{}\" is not one of this referee's", game_name));
  if (options.opponents.empty()) return fail(std::string("the check needs at least one opponent"));
  if (options.games < 1) return fail(fmt::format("the check needs at least one game, not {}", options.games));
  std::vector<int> seat_counts = options.seat_counts;
  if (seat_counts.empty()) seat_counts.push_back(game->info().min_seats);
  for (int n : seat_counts) {
    if (n < game->info().min_seats || n > game->info().max_seats)
      return fail(fmt::format("{} plays {} seats, not {}", game_name, match::seat_range(game->info()), n));
  }
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec) return fail(fmt::format("cannot create the check's folder {}: {}", out.string(), ec.message()));

  // Every command parsed once, before any game.
  auto bot = match::BotCommand::parse(command);
  if (!bot) return fail(fmt::format("the bot's run command: {}", bot.error()));
  std::vector<match::BotCommand> parsed;
  for (const std::string& opponent : options.opponents) {
    auto p = match::BotCommand::parse(opponent);
    if (!p) return fail(fmt::format("the opponent {}: {}", opponent, p.error()));
    parsed.push_back(std::move(*p));
  }

  CheckResult result;
  auto finish = [&](CheckOutcome outcome, std::string message) {
    result.outcome = outcome;
    result.message = std::move(message);
    result.log += "check: " + result.message + "\n";
    return result;
  };
  std::uint64_t k = 0;
  for (int seats : seat_counts) {
    for (std::size_t oi = 0; oi < parsed.size(); ++oi) {
      const std::string& opponent = options.opponents[oi];
      for (int seat = 0; seat < seats; ++seat) {
        for (int g = 0; g < options.games; ++g, ++k) {
          match::Options o;
          o.game = game_name;
          o.config = options.config;
          o.seed = options.seed + k;
          for (int i = 0; i < seats; ++i) o.bots.emplace_back(i == seat ? *bot : parsed[oi]);
          o.limits = options.limits;
          o.time_scale = options.time_scale;
          o.grace = options.grace;
          o.log_dir = out;
          o.log_stem = fmt::format("check-{}", k);
          o.replay_path = out / (o.log_stem + ".jsonl");
          o.working_dir = folder;
          o.env = options.env;
          o.sandbox = options.sandbox;
          o.stop = options.stop;
          auto m = match::play(o);
          if (!m) return fail(fmt::format("the check's game {} could not be played: {}", k, m.error()));
          ++result.games;
          const std::string where =
              fmt::format("game {}: {} seats, seat {}, against {}, seed {}", k, seats, seat, opponent, o.seed);
          if (m->end == match::End::interrupted) {
            result.log += where + ": interrupted\n";
            return finish(CheckOutcome::interrupted, "interrupted (the referee was asked to stop)");
          }
          if (m->fault && m->fault->seat != seat) {
            if (m->fault->phase == match::FaultPhase::spawn)
              return fail(fmt::format("the opponent {} cannot start: {}", opponent, m->fault->message));
            result.log +=
                fmt::format("{}: the opponent (seat {}) faulted: {}\n", where, m->fault->seat, m->fault->message);
          }
          if (m->fault && m->fault->seat == seat) {
            const match::Fault& f = *m->fault;
            CheckFault cf{f.kind, f.phase, f.message, f.request, f.raw, f.stderr_tail,
                          f.exit, seats,   seat,      opponent,  o.seed};
            result.log += where + ": " + describe_fault(cf) + "\n";
            result.fault = std::move(cf);
            return finish(CheckOutcome::faulted, "the bot faulted: " + describe_fault(*result.fault));
          }
          auto r = replay::read(m->replay);
          const replay::Verification v = r ? replay::verify(*r) : replay::Verification{};
          if (!r || !v.ok) {
            const std::string why = r ? v.message : r.error();
            result.log += where + ": the replay does not verify: " + why + "\n";
            return finish(CheckOutcome::diverged,
                          fmt::format("the replay of game {} ({}) does not verify: {}", k, m->replay.string(), why));
          }
          result.log += fmt::format("{}: {}, {} decisions, replay verified\n", where, enum_name(m->end),
                                    m->seats[static_cast<std::size_t>(seat)].decisions);
        }
      }
    }
  }
  return finish(CheckOutcome::passed, fmt::format("passed: {} games, every replay verified", result.games));
}

}  // namespace arena::ladder
