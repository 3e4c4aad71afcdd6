#include "referee/match/match.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "referee/bots/process.hpp"
#include "referee/core/bounds.hpp"
#include "referee/core/clock.hpp"
#include "referee/core/hash.hpp"
#include "referee/core/version.hpp"
#include "referee/games/game.hpp"
#include "referee/match/hello_lines.hpp"
#include "referee/match/stderr_capture.hpp"
#include "referee/match/view_delta.hpp"
#include "referee/replay/replay.hpp"

namespace arena::match {

namespace {

using bots::BotProcess;
using bots::Clock;
using bots::Deadline;

constexpr std::size_t kStderrTailLines = 20;
constexpr std::size_t kRequestExcerpt = 400;  // bytes of the request a fault record quotes
constexpr auto kGameOverWrite = std::chrono::milliseconds(100);
// How long a bot's death by a scheduler's signal (SIGTERM, ...) waits for the referee's own stop
// before it counts as the bot's crash: a job-wide signal reaches every process within moments,
// in any order.
constexpr auto kStopAfterSignal = std::chrono::milliseconds(1000);
// Idle bots are frozen lazily (--freeze-idle): one is stopped once another seat's turn has lasted
// Options::freeze_after (1 ms), not at every change of seat (a freeze and a thaw per change cost
// more than fast bots' whole turns). A bot seen using more than kIdleCpuAllowanceMs of CPU while
// idle in this match (read each time it is asked after another seat) is stopped at once, before
// another seat is asked, for the rest of the match: a bot that spins through turns shorter than
// freeze_after gains little more than that. So is every bot whose CPU time does not cover its
// whole process tree (no cgroup in a sandboxed tier), since a child of it could spin unseen.
constexpr double kIdleCpuAllowanceMs = 1.0;

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

// `ms` after `from`, saturated to 0..2 x bounds::kMaxScaledMs (a decision and a full bank), so
// that no limit given to the library can overflow the clock.
Deadline deadline_after(Clock::time_point from, double ms) {
  constexpr double max = 2.0 * static_cast<double>(bounds::kMaxScaledMs);
  const double clamped = ms > 0 ? std::min(ms, max) : 0.0;  // NaN: 0
  return from + std::chrono::microseconds(static_cast<std::int64_t>(clamped * 1000));
}

// Everything about one seat during the match.
struct Seat_ {
  Seat seat = 0;
  bool name_given = false;  // --name; otherwise the bot's own name from its ready message
  std::unique_ptr<BotProcess> process;
  SeatReport report;
  double bank_ms = 0;
  double cpu_mark = -1;              // the bot's CPU time when it last answered
  int protocol = 1;                  // the version it chose in its ready
  KeptBot* kept = nullptr;           // league --reuse: where its process comes from and goes back to
  bool reusable = false;             // its ready chose protocol 2 and said "reuse": true
  bool keep = false;                 // decided at the end: the process goes back to `kept`
  bool freeze_at_once = false;       // stopped whenever another seat is asked (not lazily)
  std::unique_ptr<ViewDelta> delta;  // its ready chose view deltas: what it was sent last
};

class Match {
 public:
  Match(const Options& o, const games::Game& game, json config, std::vector<json> seat_configs,
        std::unique_ptr<games::GameState> state)
      : o_(o),
        game_(game),
        config_(std::move(config)),
        seat_configs_(std::move(seat_configs)),
        state_(std::move(state)) {
    limits_ = protocol::scaled(o.limits, o.time_scale);
    hellos_ = hello_lines(game_, config_, seat_configs_, limits_, static_cast<int>(o.bots.size()));
  }

  Result<MatchResult> run() {
    auto writer = replay::Writer::open(o_.replay_path);
    if (!writer) return fail(writer.error());
    writer_ = std::make_unique<replay::Writer>(std::move(writer).value());

    start_bots();
    if (!fault_ && !stop_requested()) handshake();
    for (Seat_& s : seats_) {
      if (!s.process) continue;
      s.cpu_mark = s.process->cpu_ms();      // idle time is counted from the end of the handshake
      (void)s.process->stderr_since_last();  // so is a decision's stderr (stderr_capture.hpp)
      s.freeze_at_once = o_.sandbox.tier != bots::Tier::none && !s.process->cpu_covers_tree();
      if (o_.sandbox.freeze_idle && s.freeze_at_once) s.process->freeze(true);
    }
    if (auto st = write_header(); !st) {
      teardown();
      return fail(st.error());
    }
    if (!fault_ && !interrupted_) play_decisions();
    return finish();
  }

 private:
  // ---- set-up ----------------------------------------------------------------------------

  void start_bots() {
    const int seats = static_cast<int>(o_.bots.size());
    for (int i = 0; i < seats; ++i) {
      Seat_ s;
      s.seat = i;
      const BotSpec& spec = o_.bots[static_cast<std::size_t>(i)];
      s.report.command = spec.command.text;
      s.name_given = !spec.name.empty();
      // Until the bot names itself (a bot that fails the handshake never does): its program.
      s.report.name = s.name_given ? spec.name : spec.command.display_name();
      s.report.stderr_log = o_.log_dir / fmt::format("{}.seat{}.stderr.log", o_.log_stem, i);
      s.bank_ms = static_cast<double>(limits_.time_bank_ms);
      seats_.push_back(std::move(s));
    }
    init_deadline_ = deadline_after(Clock::now(), static_cast<double>(limits_.init_ms));
    for (Seat_& s : seats_) {
      if (!o_.kept.empty()) s.kept = o_.kept[static_cast<std::size_t>(s.seat)];
      if (s.kept != nullptr && s.kept->process) {
        if (!s.kept->process->has_exited()) {
          // A process kept from an earlier match: this match is its next one.
          s.process = std::move(s.kept->process);
          s.report.stderr_log = s.kept->stderr_log;
          s.report.process_match = s.kept->matches + 1;
          continue;
        }
        // It ended after its last game_over (allowed): reap it and start the bot afresh.
        s.kept->process->shutdown(std::chrono::milliseconds(0));
        s.kept->process.reset();
      }
      bots::SpawnOptions spawn;
      spawn.argv = spec_of(s).command.argv;
      spawn.working_dir = o_.working_dir;
      spawn.env = o_.env;
      spawn.env.push_back(fmt::format("ARENA_SEAT={}", s.seat));
      spawn.stderr_path = s.report.stderr_log;
      spawn.stderr_cap = o_.stderr_cap;
      spawn.max_line_bytes = limits_.max_line_bytes;
      spawn.sandbox = o_.sandbox;
      if (spec_of(s).address_space_mb) spawn.sandbox.limits.address_space_mb = *spec_of(s).address_space_mb;
      spawn.label = fmt::format("seat{}", s.seat);
      spawn.storage = spec_of(s).storage;
      spawn.hidden = hidden_from(s);
      spawn.outputs = o_.hidden;
      spawn.outputs.push_back(std::filesystem::absolute(o_.log_dir).lexically_normal());
      spawn.outputs.push_back(std::filesystem::absolute(o_.replay_path).parent_path().lexically_normal());
      auto process = BotProcess::spawn(spawn);
      if (!process) {
        record_fault(s, FaultKind::crash, 0, process.error(), "", FaultPhase::spawn);
        return;
      }
      s.process = std::move(process).value();
      if (s.kept != nullptr) {
        s.kept->stderr_log = s.report.stderr_log;
        s.kept->matches = 0;
      }
    }
  }

  bool stop_requested() {
    if (o_.stop != nullptr && o_.stop->requested()) interrupted_ = true;
    return interrupted_;
  }
  int stop_fd() const { return o_.stop != nullptr ? o_.stop->fd() : -1; }

  // A crash that is the referee's stop, not the bot's doing: the bot died by a signal a scheduler
  // sends to a whole job (the referee sends only SIGKILL, and knows when it did), and the
  // referee's own stop is requested by now or within kStopAfterSignal. Any crash while the stop
  // is already requested counts too (a bot may turn SIGTERM into an exit code).
  bool crash_is_the_stop(const bots::ExitStatus& exit) const {
    if (o_.stop == nullptr) return false;
    return o_.stop->requested() || (exit.by_job_signal() && o_.stop->wait_for(kStopAfterSignal));
  }

  const BotSpec& spec_of(const Seat_& s) const { return o_.bots[static_cast<std::size_t>(s.seat)]; }

  // What seat `s` must not see of the other seats (the strict tier masks it): the files their
  // commands name (the referee's outputs are hidden too: spawn.outputs).
  std::vector<std::filesystem::path> hidden_from(const Seat_& s) const {
    std::vector<std::filesystem::path> out;
    const std::filesystem::path base = o_.working_dir.empty() ? std::filesystem::current_path() : o_.working_dir;
    const BotCommand& own = spec_of(s).command;
    std::vector<const BotCommand*> commands;
    for (const BotCommand& command : o_.hide_commands) {
      if (command.argv != own.argv) commands.push_back(&command);
    }
    for (const Seat_& other : seats_) {
      if (other.seat != s.seat) commands.push_back(&spec_of(other).command);
    }
    for (const BotCommand* command : commands) {
      for (auto& file : files_named_by(*command, base)) out.push_back(std::move(file));
    }
    return out;
  }

  void handshake() {
    for (Seat_& s : seats_) {
      if (s.report.process_match > 1) {
        // A kept process may not have spoken since its last game_over.
        if (o_.sandbox.freeze_idle) s.process->freeze(false);
        if (s.process->has_unread_output()) {
          auto extra = s.process->read_line(Clock::now());
          record_fault(s, FaultKind::malformed, 0, "output between matches (before this match's hello)",
                       extra.status == bots::ReadStatus::line ? extra.line : extra.partial,
                       FaultPhase::between_matches);
          return;
        }
      }
      if (!send_line(s, (*hellos_)[static_cast<std::size_t>(s.seat)], init_deadline_, 0)) return;
    }
    for (Seat_& s : seats_) {
      auto message = receive(s, init_deadline_, 0);
      if (!message) return;
      auto ready = protocol::read_ready(message->message);
      if (!ready) {
        record_fault(s, FaultKind::malformed, 0, "handshake: " + ready.error(), message->line);
        return;
      }
      if (auto st = protocol::check_plays(*ready, game_.info().name, static_cast<int>(seats_.size())); !st) {
        record_fault(s, FaultKind::unsupported_game, 0, st.error(), message->line);
        return;
      }
      if (!s.name_given) s.report.name = ready->name;
      s.report.version = ready->version;
      s.protocol = ready->protocol;
      s.report.protocol = ready->protocol;
      s.reusable = ready->protocol >= 2 && ready->reuse;
      if (ready->protocol >= 2 && ready->view_delta) s.delta = std::make_unique<ViewDelta>();
      // Not frozen now: it is stopped if a later seat's ready takes freeze_after (read_line_of),
      // so that it cannot think while a slow bot starts. Bots that answer hello at once (kept
      // ones) are never stopped between matches: a freeze and a thaw per bot and match cost a
      // fast league more than its bots' handshakes.
    }
  }

  Status write_header() {
    replay::Header h;
    h.protocol = protocol::kLatestVersion;
    h.referee_version = std::string(referee_version());
    h.game = game_.info().name;
    h.rules_revision = game_.info().rules_revision;
    h.config = config_;
    h.seed = o_.seed;
    h.seats = static_cast<int>(seats_.size());
    for (const Seat_& s : seats_) {
      h.bots.push_back({s.report.name, s.report.version, s.report.command,
                        seat_configs_[static_cast<std::size_t>(s.seat)], s.protocol, s.delta != nullptr});
    }
    h.limits = limits_.to_json();
    h.limits["time_scale"] = o_.time_scale;
    h.initial_hash = hash_hex(state_->hash());
    h.started = utc_now("%Y-%m-%dT%H:%M:%SZ");
    h.extra = o_.replay_extra;
    json sandbox = {
        {"tier", enum_name(o_.sandbox.tier)}, {"freeze_idle", o_.sandbox.freeze_idle}, {"seats", json::array()}};
    for (const Seat_& s : seats_)
      sandbox["seats"].push_back(s.process ? s.process->sandbox_report() : json{{"tier", "not started"}});
    h.extra["sandbox"] = std::move(sandbox);
    return writer_->write(replay::to_json(h));
  }

  // ---- the game --------------------------------------------------------------------------

  void play_decisions() {
    std::int64_t request_id = 0;
    while (!state_->is_over()) {
      if (stop_requested()) return;
      Seat_& s = seats_[static_cast<std::size_t>(state_->to_act())];
      ++request_id;
      // Output nobody asked for (a second answer, an early one) is a protocol violation.
      if (s.process->has_unread_output()) {
        auto extra = s.process->read_line(Clock::now());
        record_fault(s, FaultKind::malformed, request_id, "output without a pending request (a second answer?)",
                     extra.status == bots::ReadStatus::line ? extra.line : extra.partial, FaultPhase::decision, false);
        return;
      }
      // The view and the legal list are written as text straight from the state (protocol 2's
      // view also gives the replay its view hash); the line is built before the clock starts, so
      // the referee's own work never counts against the bot.
      view_text_.clear();
      state_->write_view_v2(s.seat, view_text_);
      legal_text_.clear();
      state_->write_legal(legal_text_);
      const std::string v1_view = s.protocol == 1 ? games::dump_line(state_->view(s.seat)) : std::string();
      if (s.delta) s.delta->write(view_text_, delta_text_, removed_text_);
      const std::string_view sent_view = s.protocol == 1 ? std::string_view(v1_view)
                                         : s.delta       ? std::string_view(delta_text_)
                                                         : std::string_view(view_text_);
      const double allowed = static_cast<double>(limits_.decision_ms) + s.bank_ms;
      request_ =
          protocol::request_line(s.protocol, request_id, s.seat, sent_view, legal_text_,
                                 static_cast<std::int64_t>(allowed), static_cast<std::int64_t>(s.bank_ms),
                                 s.delta != nullptr, s.delta ? std::string_view(removed_text_) : std::string_view());
      if (o_.sandbox.freeze_idle) {
        // The bots to stop at once stop before this one is asked (a no-op for those already
        // stopped); the others are stopped if this turn lasts freeze_after (read_line_of). A bot that
        // answers and is asked again next (Stellar's take, play, place) is not stopped in between.
        for (Seat_& other : seats_) {
          if (&other != &s && other.process && other.freeze_at_once) other.process->freeze(true);
        }
        s.process->freeze(false);
      }
      // A bot asked again right after its own answer has been nobody's idle bot: the CPU time
      // read at its answer stands (what it uses in between counts for this decision), which
      // spares a read per such decision. Otherwise what it used while idle is recorded.
      double cpu_before = s.cpu_mark;
      if (last_to_answer_ != s.seat) {
        cpu_before = s.process->cpu_ms();
        if (cpu_before >= 0 && s.cpu_mark >= 0) {
          s.report.idle_cpu_ms += cpu_before - s.cpu_mark;
          if (s.report.idle_cpu_ms > kIdleCpuAllowanceMs) s.freeze_at_once = true;
        }
      }
      const auto sent_at = Clock::now();
      const Deadline deadline = deadline_after(sent_at, allowed);
      if (!send_line(s, request_, deadline, request_id)) return;
      auto message = receive(s, deadline, request_id);
      const double took = ms_between(sent_at, Clock::now());
      const double cpu_after = s.cpu_mark;  // taken by receive() the moment the line arrived
      // Rounded to the microsecond: the clocks' resolution, and short replay lines.
      const double cpu = cpu_before >= 0 && cpu_after >= 0 ? std::round((cpu_after - cpu_before) * 1000) / 1000 : -1;
      if (cpu >= 0) s.report.cpu_ms += cpu;
      if (!message) return;
      last_to_answer_ = s.seat;
      replay::Step step;
      take_decision_stderr(*s.process, step);  // what it wrote on stderr up to its reply
      auto reply = protocol::read_action(message->message, request_id, limits_.max_debug_bytes, s.protocol);
      if (!reply) {
        record_fault(s, FaultKind::malformed, request_id, reply.error(), message->line);
        return;
      }
      if (auto st = state_->apply(reply->action); !st) {
        record_fault(s, FaultKind::illegal, request_id,
                     fmt::format("illegal action {}: {}", protocol::to_line(reply->action), st.error()), message->line);
        return;
      }
      s.bank_ms = std::max(0.0, s.bank_ms - std::max(0.0, took - static_cast<double>(limits_.decision_ms)));
      step.n = decisions_;
      step.seat = s.seat;
      step.request_id = request_id;
      step.action = reply->action;
      step.time_ms = took;
      step.cpu_ms = cpu;
      step.hash = hash_hex(state_->hash());
      step.view_hash = hash_hex(stable_hash(view_text_));
      step.debug = reply->debug;
      if (auto st = writer_->write_step(step); !st) {
        write_error_ = st.error();
        return;
      }
      // Counted once recorded, so that the result always agrees with the replay's steps.
      s.report.total_ms += took;
      s.report.max_ms = std::max(s.report.max_ms, took);
      ++s.report.decisions;
      s.report.decision_ms.push_back(took);
      ++decisions_;
    }
  }

  // ---- talking to a bot ------------------------------------------------------------------

  bool send_line(Seat_& s, const std::string& line, Deadline deadline, std::int64_t request_id) {
    switch (s.process->write_line(line, deadline, stop_fd())) {
      case bots::WriteStatus::ok:
        return true;
      case bots::WriteStatus::interrupted:
        interrupted_ = true;
        return false;
      case bots::WriteStatus::timeout:
        record_fault(s, FaultKind::timeout, request_id, "did not read its input before the deadline", "");
        return false;
      case bots::WriteStatus::closed:
        record_fault(s, FaultKind::crash, request_id, "its input is closed (the bot is gone)", "");
        return false;
    }
    return false;
  }

  // One line from the bot: its bytes and their parse as a JSON object.
  struct Received {
    std::string line;
    json message;
  };

  // One line from the bot, parsed as a JSON object, or a recorded fault.
  std::optional<Received> receive(Seat_& s, Deadline deadline, std::int64_t request_id) {
    auto r = read_line_of(s, deadline, request_id);
    // The bot's turn ends here: its CPU time from now on is idle time. (--freeze-idle stops it
    // before another seat is asked: play_decisions.)
    if (request_id > 0) s.cpu_mark = s.process->cpu_ms();
    switch (r.status) {
      case bots::ReadStatus::timeout: {
        const auto limit = request_id == 0 ? limits_.init_ms : limits_.decision_ms;
        record_fault(s, FaultKind::timeout, request_id,
                     request_id == 0 ? fmt::format("no ready message within {} ms", limit)
                                     : fmt::format("no reply by the deadline ({} ms + bank)", limit),
                     r.partial);
        return std::nullopt;
      }
      case bots::ReadStatus::too_long:
        record_fault(s, FaultKind::output_limit, request_id,
                     fmt::format("a line longer than {} bytes", limits_.max_line_bytes), r.partial);
        return std::nullopt;
      case bots::ReadStatus::eof:
        record_fault(s, FaultKind::crash, request_id, "closed its output", r.partial);
        return std::nullopt;
      case bots::ReadStatus::interrupted:  // the referee is stopping: nobody's fault
        interrupted_ = true;
        return std::nullopt;
      case bots::ReadStatus::line:
        break;
    }
    auto parsed = protocol::parse_line(r.line, {64, limits_.max_line_bytes});
    if (!parsed) {
      record_fault(s, FaultKind::malformed, request_id, parsed.error(), r.line);
      return std::nullopt;
    }
    return Received{std::move(r.line), std::move(parsed).value()};
  }

  // A line from `s`: the reply to a request, or (request 0) its ready. The idle bots still running
  // are stopped if it takes freeze_after: in a decision every other seat, in the handshake the
  // seats already ready (the handshake reads them in seat order; the later ones are starting).
  bots::ReadResult read_line_of(Seat_& s, Deadline deadline, std::int64_t request_id) {
    const auto idle = [&](const Seat_& o) { return &o != &s && o.process && (request_id > 0 || o.seat < s.seat); };
    const bool idle_running = o_.sandbox.freeze_idle && std::any_of(seats_.begin(), seats_.end(), [&](Seat_& o) {
                                return idle(o) && !o.process->frozen();
                              });
    if (idle_running) {
      auto r = s.process->read_line(std::min(deadline, Clock::now() + o_.freeze_after), stop_fd());
      if (r.status != bots::ReadStatus::timeout || Clock::now() >= deadline) return r;
      for (Seat_& other : seats_) {
        if (idle(other)) other.process->freeze(true);
      }
    }
    return s.process->read_line(deadline, stop_fd());
  }

  // A fault with request id 0 is in the handshake unless `phase` says otherwise; any other is in a
  // decision, whose request was sent unless `request_sent` says otherwise.
  void record_fault(Seat_& s, FaultKind kind, std::int64_t request_id, std::string message, std::string_view raw,
                    std::optional<FaultPhase> phase = std::nullopt, bool request_sent = true) {
    if (fault_) return;  // the first fault decides
    Fault f;
    f.seat = s.seat;
    f.kind = kind;
    f.phase = phase ? *phase : request_id > 0 ? FaultPhase::decision : FaultPhase::handshake;
    f.request_sent = f.phase == FaultPhase::decision && request_sent;
    f.request_id = request_id;
    f.message = std::move(message);
    f.raw = protocol::escape_bytes(raw);
    // The request it was answering (not the handshake's hello, which is the same for everyone).
    if (request_id > 0) f.request = protocol::escape_bytes(std::string_view(request_).substr(0, kRequestExcerpt));
    fault_ = std::move(f);
  }

  // ---- the end ---------------------------------------------------------------------------

  void teardown() {
    for (Seat_& s : seats_) {
      if (!s.process) continue;
      if (s.keep) {
        s.report.exit = "kept for the next match";
        s.report.stderr_bytes = s.process->stderr_bytes();
        s.kept->process = std::move(s.process);
        s.kept->matches = s.report.process_match;
        continue;
      }
      const bool offender = fault_ && fault_->seat == s.seat;
      // A bot that hung gets no grace, nor does any bot of an interrupted match (the referee is
      // stopping); one that crashed gets time to report how it ended.
      const bool hung = offender && fault_->kind != FaultKind::crash;
      const auto status = s.process->shutdown(hung || interrupted_ ? std::chrono::milliseconds(0) : o_.grace);
      if (offender) offender_exit_ = status;
      s.report.exit = status.describe();
      s.report.stderr_bytes = s.process->stderr_bytes();
      if (offender) {
        fault_->stderr_tail = s.process->stderr_tail(kStderrTailLines);
        fault_->exit = s.report.exit;
        if (fault_->kind == FaultKind::crash) {
          fault_->message += fmt::format(" ({})", s.report.exit);
        }
      }
    }
  }

  // Whether seat s's process goes back to its KeptBot for the next match (KeptBot, match.hpp).
  bool may_keep(const Seat_& s) const {
    if (s.kept == nullptr || !s.reusable || end_ == End::interrupted || !write_error_.empty()) return false;
    if (fault_ && fault_->seat == s.seat) return false;
    const double cpu = s.process->cpu_ms();
    const double limit_ms = static_cast<double>(o_.sandbox.limits.cpu_seconds) * 1000.0;
    return !s.process->has_exited() && (cpu < 0 || limit_ms <= 0 || cpu < limit_ms / 2);
  }

  // The result so far, typed; ranks and the winner by replay::settle.
  // Called twice (the bots' game_over, then the footer, after teardown): the game's scores and
  // outcome are computed once, from the final state.
  MatchResult final_result() {
    MatchResult r;
    r.end = end_;
    if (end_ == End::finished) {
      if (!final_scores_) final_scores_.emplace(state_->scores(), state_->outcome());
      r.scores = final_scores_->first;
      r.outcome = final_scores_->second;
    }
    r.fault = fault_;
    r.game = game_.info().name;
    r.seed = o_.seed;
    r.config = config_;
    r.decisions = decisions_;
    r.replay = o_.replay_path;
    for (const Seat_& s : seats_) r.seats.push_back(s.report);
    r.error = write_error_;
    replay::settle(r);
    return r;
  }

  Result<MatchResult> finish() {
    end_ = fault_ ? End::fault : !write_error_.empty() ? End::error : interrupted_ ? End::interrupted : End::finished;
    // Tell every bot how it ended (best effort: a bot that is gone or not reading is skipped).
    const json result_for_bots = replay::public_json(final_result());
    for (Seat_& s : seats_) {
      if (!s.process || (fault_ && fault_->seat == s.seat)) continue;
      const auto written = s.process->write_line(protocol::to_line(protocol::game_over(result_for_bots, s.protocol)),
                                                 Clock::now() + kGameOverWrite);
      s.keep = written == bots::WriteStatus::ok && may_keep(s);
      if (!s.keep) s.process->close_stdin();
    }
    teardown();
    if (fault_ && fault_->kind == FaultKind::crash && crash_is_the_stop(offender_exit_)) {
      fault_.reset();  // not the bot's fault: the match was interrupted, as if before it crashed
      interrupted_ = true;
      end_ = End::interrupted;
    }

    MatchResult m = final_result();
    (void)writer_->write(replay::to_json(replay::Footer{end_, replay::to_json(m)}));
    if (end_ == End::finished && o_.final_table) m.table = state_->describe();
    return m;
  }

  const Options& o_;
  const games::Game& game_;
  json config_;
  std::vector<json> seat_configs_;  // normalised, one per seat (null = none)
  std::unique_ptr<games::GameState> state_;
  std::shared_ptr<const std::vector<std::string>> hellos_;  // per seat, with its card table (hello_lines.hpp)
  protocol::Limits limits_;
  std::string view_text_, legal_text_;     // the request's parts, reused from one decision to the next
  std::string delta_text_, removed_text_;  // a view-delta bot's view (ViewDelta::write)
  std::string request_;                    // the last request line sent
  std::unique_ptr<replay::Writer> writer_;
  std::vector<Seat_> seats_;
  Deadline init_deadline_{};
  std::optional<Fault> fault_;
  bots::ExitStatus offender_exit_;  // how the offender's process ended (teardown)
  bool interrupted_ = false;
  std::string write_error_;
  End end_ = End::finished;
  std::int64_t decisions_ = 0;
  std::optional<std::pair<std::vector<double>, json>> final_scores_;  // final_result's, once finished
  Seat last_to_answer_ = -1;  // the seat whose reply was the last one read (-1: none yet)
};

}  // namespace

std::string seat_range(const games::GameInfo& info) {
  return info.min_seats == info.max_seats ? std::to_string(info.min_seats)
                                          : fmt::format("{} to {}", info.min_seats, info.max_seats);
}

Result<MatchResult> play(const Options& o) {
  const games::Game* game = games::find_game(o.game);
  if (game == nullptr) return fail(fmt::format("unknown game \"{}\" (see `referee games`)", o.game));
  const int seats = static_cast<int>(o.bots.size());
  if (seats < game->info().min_seats || seats > game->info().max_seats) {
    return fail(fmt::format("{} needs {} bots (one --bot per seat), got {}", o.game, seat_range(game->info()), seats));
  }
  for (const BotSpec& b : o.bots) {
    if (b.command.argv.empty()) return fail(std::string("an empty bot command"));
  }
  if (auto st = protocol::check_limits(o.limits, o.time_scale); !st) return fail(st.error());
  auto config = game->normalize_config(o.config);
  if (!config) return fail(config.error());
  std::vector<json> seat_configs;
  for (std::size_t s = 0; s < o.bots.size(); ++s) {
    auto normal = game->normalize_seat_config(o.bots[s].seat_config);
    if (!normal) return fail(fmt::format("seat {}: {}", s, normal.error()));
    seat_configs.push_back(std::move(normal).value());
  }
  auto state = game->new_game(*config, seat_configs, o.seed, seats);
  if (!state) return fail(state.error());
  Match match(o, *game, *config, std::move(seat_configs), std::move(state).value());
  return match.run();
}

}  // namespace arena::match
