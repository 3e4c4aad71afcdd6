#include "referee/ladder/check.hpp"

#include <fmt/format.h>

#include <chrono>

#include "referee/bots/process.hpp"
#include "referee/games/game.hpp"
#include "referee/match/match.hpp"
#include "referee/replay/replay.hpp"

namespace arena::ladder {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using Clock = std::chrono::steady_clock;

std::string describe_fault(const CheckFault& f) {
  const std::string where = f.opponent.empty() ? fmt::format("alone as seat {} of a {}-seat game", f.seat, f.seats)
                                               : fmt::format("{}-seat game, seat {}, against {}, seed {}", f.seats,
                                                             f.seat, f.opponent, f.seed);
  std::string text = fmt::format("{} in {} ({}): {}", enum_name(f.kind), enum_name(f.phase), where, f.message);
  if (!f.request.empty()) text += "\n  request: " + f.request;
  if (!f.reply.empty()) text += "\n  reply: " + f.reply;
  if (!f.exit.empty()) text += "\n  exit: " + f.exit;
  for (const std::string& line : f.stderr_tail) text += "\n  stderr: " + line;
  return text;
}

// The bot's fault, with where it happened.
CheckFault charged(const replay::Fault& f, std::string request, int seats, int seat, std::string opponent,
                   std::uint64_t seed) {
  CheckFault c;
  c.kind = f.kind;
  c.phase = f.phase;
  c.message = f.message;
  c.request = std::move(request);
  c.reply = f.raw;
  c.stderr_tail = f.stderr_tail;
  c.exit = f.exit;
  c.seats = seats;
  c.seat = seat;
  c.opponent = std::move(opponent);
  c.seed = seed;
  return c;
}

}  // namespace

// The checks and messages are those of a match.
Handshake probe_handshake(const HandshakeSetup& s) {
  Handshake h;
  const json cards = s.game->protocol_card_table(s.config, {});
  h.hello = protocol::hello(s.game->info().name, 0, s.seats, s.config, s.limits, games::seat_card_table(cards, 0));
  replay::Fault f;  // the probe is the handshake, whatever goes wrong in it
  f.phase = replay::FaultPhase::handshake;
  f.request_sent = false;
  bool faulted = false;
  auto fault = [&](replay::FaultKind kind, std::string message, std::string_view raw) {
    f.kind = kind;
    f.message = std::move(message);
    f.raw = protocol::escape_bytes(raw);
    faulted = true;
  };
  bots::SpawnOptions spawn;
  spawn.argv = s.command.argv;
  spawn.working_dir = s.working_dir;
  spawn.env = s.env;
  spawn.env.push_back("ARENA_SEAT=0");
  spawn.stderr_path = s.stderr_log;
  spawn.stderr_cap = s.stderr_cap;
  spawn.max_line_bytes = s.limits.max_line_bytes;
  spawn.sandbox = s.sandbox;
  spawn.label = "handshake";
  const auto start = Clock::now();
  const auto deadline = start + std::chrono::milliseconds(s.limits.init_ms);
  auto process = bots::BotProcess::spawn(spawn);
  if (!process) {
    fault(replay::FaultKind::crash, process.error(), "");
  } else {
    bots::BotProcess& p = **process;
    h.started = true;
    h.sandbox_tier = p.sandbox_report().value("tier", "unknown");  // what it ran in, not what was asked
    const int stop_fd = s.stop != nullptr ? s.stop->fd() : -1;
    const auto written = p.write_line(protocol::to_line(h.hello), deadline, stop_fd);
    if (written == bots::WriteStatus::interrupted) {
      h.interrupted = true;
    } else if (written == bots::WriteStatus::timeout) {
      fault(replay::FaultKind::timeout, "did not read its input before the deadline", "");
    } else if (written == bots::WriteStatus::closed) {
      fault(replay::FaultKind::crash, "its input is closed (the bot is gone)", "");
    } else {
      h.hello_written = true;
      auto r = p.read_line(deadline, stop_fd);
      h.ready_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
      if (r.status == bots::ReadStatus::interrupted) {
        h.interrupted = true;
      } else if (r.status == bots::ReadStatus::timeout) {
        fault(replay::FaultKind::timeout, fmt::format("no ready message within {} ms", s.limits.init_ms), r.partial);
      } else if (r.status == bots::ReadStatus::too_long) {
        fault(replay::FaultKind::output_limit, fmt::format("a line longer than {} bytes", s.limits.max_line_bytes),
              r.partial);
      } else if (r.status == bots::ReadStatus::eof) {
        fault(replay::FaultKind::crash, "closed its output", r.partial);
      } else if (auto parsed = protocol::parse_line(r.line, {64, s.limits.max_line_bytes}); !parsed) {
        fault(replay::FaultKind::malformed, parsed.error(), r.line);
      } else if (auto ready = protocol::read_ready(*parsed); !ready) {
        fault(replay::FaultKind::malformed, "handshake: " + ready.error(), r.line);
      } else if (auto plays = protocol::check_plays(*ready, s.game->info().name, s.seats); !plays) {
        h.ready = *ready;
        fault(replay::FaultKind::unsupported_game, plays.error(), r.line);
      } else {
        h.ready = *ready;
      }
    }
    // A bot that hung gets no grace; one that answered or crashed gets time to exit by itself.
    const bool hung = faulted && f.kind != replay::FaultKind::crash;
    const auto status = p.shutdown(hung ? std::chrono::milliseconds(0) : s.grace);
    f.exit = status.describe();
    h.exit = f.exit;
    h.exited_at_eof = !hung && !status.killed_by_referee;
    h.stderr_bytes = p.stderr_bytes();
    if (faulted) {
      f.stderr_tail = p.stderr_tail(s.stderr_tail_lines);
      if (f.kind == replay::FaultKind::crash) f.message += fmt::format(" ({})", f.exit);
    }
  }
  if (faulted) h.fault = std::move(f);
  return h;
}

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

  // Every command parsed once, before the handshake and the games.
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
  HandshakeSetup hs;
  hs.command = *bot;
  hs.working_dir = folder;
  hs.env = options.env;
  hs.sandbox = options.sandbox;
  hs.game = game;
  auto config = game->normalize_config(options.config);
  if (!config) return fail(fmt::format("the check's config is refused: {}", config.error()));
  hs.config = *config;
  hs.seats = seat_counts.front();
  if (auto st = protocol::check_limits(options.limits, options.time_scale); !st) return fail(st.error());
  hs.limits = protocol::scaled(options.limits, options.time_scale);
  hs.stderr_log = out / "handshake.seat0.stderr.log";
  hs.grace = options.grace;
  hs.stop = options.stop;
  const Handshake h = probe_handshake(hs);
  if (h.interrupted) return finish(CheckOutcome::interrupted, "interrupted (the referee was asked to stop)");
  if (h.fault) {
    result.fault = charged(*h.fault, protocol::escape_bytes(protocol::to_line(h.hello)), hs.seats, 0, "", 0);
    result.log += "handshake: " + describe_fault(*result.fault) + "\n";
    return finish(CheckOutcome::faulted, "the bot faulted: " + describe_fault(*result.fault));
  }
  result.log += fmt::format("handshake: \"{}\" version \"{}\", protocol {}, ready in {:.0f} ms\n", h.ready->name,
                            h.ready->version, h.ready->protocol, h.ready_ms);
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
            CheckFault cf = charged(f, f.request, seats, seat, opponent, o.seed);
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
