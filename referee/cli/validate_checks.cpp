#include "referee/cli/validate_checks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "referee/cli/common.hpp"
#include "referee/cli/replay_messages.hpp"
#include "referee/cli/validate_report.hpp"
#include "referee/core/private_file.hpp"
#include "referee/ladder/check.hpp"
#include "referee/match/match.hpp"
#include "referee/replay/replay.hpp"

namespace arena::cli::validate {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The message the bot was answering when it faulted, rebuilt from the replay: the hello for a
// handshake fault, else the request the match sent after the replay's last step.
// A view-delta bot's request carries every member, as the first of a match does, so that the
// input file (hello and request) replays the decision for a stateless bot.
Result<json> offending_message(const replay::Replay& r, const match::Fault& f) {
  if (f.request_id == 0) return hello_for(r.header, f.seat);
  auto line = request_at(r, r.steps.size(), f.seat, f.request_id, DeltaRequest::as_first);
  if (!line) return fail(line.error());
  return json::parse(*line);
}

json fault_json(const match::Fault& f) {
  return {{"seat", f.seat},
          {"phase", enum_name(f.phase)},
          {"kind", enum_name(f.kind)},
          {"request_id", f.request_id},
          {"message", f.message},
          {"raw", f.raw},
          {"exit", f.exit},
          {"stderr_tail", f.stderr_tail}};
}

// The bot's result in one match, from its seat's point of view.
std::string outcome_for(const match::MatchResult& m, int seat) {
  if (m.end == match::End::interrupted || m.end == match::End::error) return std::string(enum_name(m.end));
  if (m.fault) return m.fault->seat == seat ? "forfeit" : "win (opponent fault)";
  if (m.winner == seat) return "win";
  if (!m.winner && static_cast<std::size_t>(seat) < m.ranks.size() && m.ranks[static_cast<std::size_t>(seat)] == 1)
    return "draw";
  return "loss";
}

// The sandbox tier each seat of the match had, as its replay header records it
// (`sandbox.seats[i].tier`): what the bots actually ran in, not the tier asked for.
std::vector<std::string> seat_tiers(const replay::Header& h, int seats) {
  std::vector<std::string> tiers(static_cast<std::size_t>(seats), "unknown");
  const json recorded = h.extra.value("sandbox", json::object()).value("seats", json::array());
  for (std::size_t i = 0; i < tiers.size() && i < recorded.size(); ++i) {
    if (recorded[i].is_object() && recorded[i].value("tier", json()).is_string())
      tiers[i] = recorded[i].at("tier").get<std::string>();
  }
  return tiers;
}

}  // namespace

// ---- the handshake, on its own ------------------------------------------------------------

// The probe is the ladder's check's (ladder::probe_handshake); here its report.
json probe_handshake(const Setup& s) {
  json h = {{"ok", false},         {"name", nullptr},     {"version", nullptr},
            {"protocol", nullptr}, {"ready_ms", nullptr}, {"init_ms", s.scaled.init_ms},
            {"seats", s.seats},    {"fault", nullptr},    {"sandbox_tier", nullptr}};
  const fs::path log = s.out / "handshake.seat0.stderr.log";
  h["stderr_log"] = log.string();
  ladder::HandshakeSetup setup;
  setup.command = s.bot;
  setup.working_dir = fs::current_path();
  setup.env = s.env;
  setup.sandbox = s.sandbox;
  setup.game = &s.game;
  setup.config = s.config;
  setup.seats = s.seats;
  setup.limits = s.scaled;
  setup.stderr_log = log;
  setup.stderr_cap = kStderrCap;
  setup.stderr_tail_lines = kStderrTailLines;
  setup.grace = std::chrono::milliseconds(s.args.match.grace_ms);
  setup.stop = &stop_signal();  // Ctrl-C ends the wait; the games then report it
  const ladder::Handshake probe = ladder::probe_handshake(setup);
  if (probe.started) h["sandbox_tier"] = probe.sandbox_tier;  // what it ran in, not what was asked
  if (probe.interrupted) h["interrupted"] = true;
  if (probe.hello_written) h["ready_ms"] = probe.ready_ms;
  if (probe.ready) {
    h["name"] = probe.ready->name;
    h["version"] = probe.ready->version;
    h["protocol"] = probe.ready->protocol;
  }
  if (probe.started) {
    h["exit"] = probe.exit;
    // Informational: the protocol asks a bot to exit at EOF, but the referee kills it anyway.
    h["exited_at_eof"] = probe.exited_at_eof;
    h["stderr_bytes"] = probe.stderr_bytes;
  }
  if (probe.fault) {
    json fj = fault_json(*probe.fault);
    fj["request"] = probe.hello;
    const fs::path input = s.out / "handshake.fault-input.jsonl";
    if (files::write_private(input, protocol::to_line(probe.hello) + '\n')) fj["input"] = input.string();
    fj["stderr_log"] = log.string();
    fj["rerun"] = fmt::format("{} < {}", s.args.bot, shell_quote(input.string()));
    h["fault"] = std::move(fj);
  } else {
    h["ok"] = true;
  }
  return h;
}

// ---- the matches --------------------------------------------------------------------------

Result<json> play_one(const Setup& s, const match::BotCommand& opponent, int seat, std::uint64_t seed,
                      const std::string& stem, Tally& t) {
  match::Options o;
  o.game = s.game.info().name;
  o.config = s.config;
  o.seed = seed;
  for (int i = 0; i < s.seats; ++i) o.bots.emplace_back(i == seat ? s.bot : opponent);
  o.limits = s.limits;
  o.time_scale = s.args.match.time_scale;
  o.grace = std::chrono::milliseconds(s.args.match.grace_ms);
  o.log_dir = s.out;
  o.log_stem = stem;
  o.replay_path = s.out / (stem + ".jsonl");
  o.working_dir = fs::current_path();
  o.env = s.env;
  o.sandbox = s.sandbox;
  o.stderr_cap = kStderrCap;
  o.stop = &stop_signal();
  auto m = match::play(o);
  if (!m) return fail(m.error());
  if (m->end == match::End::interrupted) t.interrupted = true;
  t.written.push_back(m->replay);
  for (const auto& seat_report : m->seats) t.written.push_back(seat_report.stderr_log);

  const auto& me = m->seats[static_cast<std::size_t>(seat)];
  json mj = {{"opponent", opponent.text},
             {"seats", s.seats},
             {"seat", seat},
             {"seed", seed},
             {"end", enum_name(m->end)},
             {"outcome", outcome_for(*m, seat)},
             {"scores", replay::public_json(*m).at("scores")},
             {"decisions", me.decisions},
             {"max_ms", me.max_ms},
             {"stderr_bytes", me.stderr_bytes},
             {"stderr_log", me.stderr_log.string()},
             {"replay", m->replay.string()}};
  t.stderr_total += me.stderr_bytes;
  t.stderr_max = std::max(t.stderr_max, me.stderr_bytes);

  auto r = replay::read(m->replay);
  if (!r) {
    ++t.diverged;
    mj["verified"] = false;
    mj["verify_message"] = r.error();
    mj["sandbox"] = nullptr;
    ++t.seat_tiers["unknown"];
    ++t.bot_tiers["unknown"];
  } else {
    const std::vector<std::string> tiers = seat_tiers(r->header, s.seats);
    mj["sandbox"] = tiers;  // every seat's tier, in seat order; the bot's is tiers[seat]
    for (const std::string& tier : tiers) ++t.seat_tiers[tier];
    ++t.bot_tiers[tiers[static_cast<std::size_t>(seat)]];
    const auto v = replay::verify(*r);
    // An interrupted match has no footer to check; it is not the bot's doing.
    const bool ok = v.ok || m->end == match::End::interrupted || m->end == match::End::error;
    if (ok)
      ++t.verified;
    else
      ++t.diverged;
    mj["verified"] = ok;
    mj["verify_message"] = v.message;
    for (const auto& step : r->steps) {
      if (step.seat == seat) t.times.push_back(step.time_ms);
    }
  }

  if (m->fault && m->fault->seat != seat && m->fault->phase == match::FaultPhase::spawn) {
    return fail(fmt::format("the opponent {}: {}", opponent.text, m->fault->message));
  }
  if (m->fault) {
    const match::Fault& f = *m->fault;
    json fj = fault_json(f);
    fj["opponent"] = opponent.text;
    fj["seed"] = seed;
    fj["replay"] = m->replay.string();
    fj["stderr_log"] = m->seats[static_cast<std::size_t>(f.seat)].stderr_log.string();
    fj["rerun"] = rerun_command(s.args.match, s.referee, {})(o);
    fj["request"] = nullptr;
    if (r) {
      auto request = offending_message(*r, f);
      if (request) {
        fj["request"] = *request;
        // A second answer is noticed before the next request is written: that one was not sent.
        fj["request_sent"] = f.request_sent;
        if (f.seat == seat && fj["request_sent"].get<bool>()) {
          // The seat's hello and the request: `bot < file` replays the decision for a stateless bot.
          const fs::path input = s.out / (stem + ".fault-input.jsonl");
          std::string lines = protocol::to_line(hello_for(r->header, f.seat)) + '\n';
          if (f.request_id != 0) lines += protocol::to_line(*request) + '\n';
          if (files::write_private(input, lines)) {
            fj["input"] = input.string();
            t.written.push_back(input);
          }
        }
      } else {
        fj["request_error"] = request.error();
      }
    }
    mj["fault"] = fj;
    (f.seat == seat ? t.faults : t.opponent_faults).push_back(std::move(fj));
  } else {
    mj["fault"] = nullptr;
  }
  return mj;
}

}  // namespace arena::cli::validate
