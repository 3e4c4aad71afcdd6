#include "referee/cli/validate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "protocol/codec.hpp"
#include "referee/bots/process.hpp"
#include "referee/cli/common.hpp"
#include "referee/core/markup.hpp"
#include "referee/core/private_file.hpp"
#include "referee/core/rng.hpp"
#include "referee/games/game.hpp"
#include "referee/match/match.hpp"
#include "referee/replay/replay.hpp"

namespace arena::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr std::size_t kStderrTailLines = 20;
constexpr std::uint64_t kStderrCap = 1 << 20;    // per seat and match, as `referee play`
constexpr std::size_t kShownRequestBytes = 400;  // of a request, on stderr (the files hold it all)

std::atomic<bool> g_stop{false};
extern "C" void on_validate_signal(int) {
  g_stop.store(true);
}

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// A word as a POSIX shell reads it back: bare when safe, else in single quotes.
std::string shell_quote(const std::string& word) {
  const bool safe = !word.empty() && word.find_first_not_of(
                                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                         "0123456789_./=:,+-@%") == std::string::npos;
  if (safe) return word;
  std::string q = "'";
  for (char c : word) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// "random_bot" for ".../random_bot", "bot.py" for "python3 bot.py": for people and file names.
std::string label_of(const std::string& command) {
  const auto argv = match::split_command(command).value();  // checked before
  static const std::vector<std::string> interpreters = {"python", "python3", "node", "ruby",  "perl", "java",
                                                        "sh",     "bash",    "env",  "pypy3", "lua"};
  std::size_t i = 0;
  auto base = [&](std::size_t k) { return fs::path(argv[k]).filename().string(); };
  if (std::find(interpreters.begin(), interpreters.end(), base(0)) != interpreters.end()) {
    for (std::size_t k = 1; k < argv.size(); ++k) {
      if (!argv[k].empty() && argv[k][0] != '-') {
        i = k;
        break;
      }
    }
  }
  std::string label = base(i);
  for (char& c : label) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '.' && c != '_' && c != '-') c = '_';
  }
  return label.empty() ? std::string("bot") : label;
}

std::string plural(std::size_t n, const char* word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

// `path` relative to the working directory when it lies below it (shorter commands to paste).
fs::path near(const fs::path& path) {
  std::error_code ec;
  const fs::path rel = fs::relative(path, fs::current_path(), ec);
  if (ec || rel.empty() || *rel.begin() == "..") return path;
  return rel.parent_path().empty() || rel == "." ? fs::path(".") / rel : rel;  // never a bare name looked up in PATH
}

// The sample bots next to this referee: built (<build>/referee/cli/referee -> <build>/sample_bots/)
// or installed (<prefix>/bin/referee -> <prefix>/libexec/stellar-arena/sample_bots/).
Result<std::vector<std::string>> default_opponents() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return fail(fmt::format("cannot find the referee's own path ({}); give --opponent CMD", ec.message()));
  const std::vector<fs::path> dirs = {exe.parent_path().parent_path().parent_path() / "sample_bots",
                                      (exe.parent_path() / ARENA_INSTALLED_BOTS).lexically_normal()};
  for (const fs::path& candidate : dirs) {
    const fs::path dir = near(candidate);
    std::vector<std::string> found;
    for (const char* name : {"random_bot", "greedy_bot"}) {
      const fs::path bot = dir / name;
      if (fs::is_regular_file(bot, ec)) found.push_back(shell_quote(bot.string()));
    }
    if (!found.empty()) return found;
  }
  return fail(
      fmt::format("no sample bots in {} or {} (build them: cmake --build <build> --target random_bot greedy_bot), or "
                  "give --opponent CMD",
                  dirs[0].string(), dirs[1].string()));
}

struct OutputFolder {
  fs::path dir;
  std::vector<fs::path> created;  // the folders this run made (0700), outermost first
};

// --out, or a fresh folder logs/validate-<time> (-2, -3, ... when two runs start in the same
// second); the folders the referee creates are owner-only.
Result<OutputFolder> output_folder(const std::string& out) {
  if (!out.empty()) {
    auto created = files::make_private_dirs(out);
    if (!created) return fail(created.error());
    return OutputFolder{out, *created};
  }
  auto logs = files::make_private_dirs("logs");
  if (!logs) return fail(logs.error());
  const std::string base = "logs/validate-" + timestamp();
  for (int n = 1; n < 1000; ++n) {
    const fs::path dir = n == 1 ? fs::path(base) : fs::path(fmt::format("{}-{}", base, n));
    auto created = files::make_private_dirs(dir);
    if (!created) return fail(created.error());
    if (created->empty()) continue;  // another run's folder
    created->insert(created->begin(), logs->begin(), logs->end());
    return OutputFolder{dir, *created};
  }
  return fail(fmt::format("cannot create a fresh output folder {}-N", base));
}

protocol::Limits limits_from(const json& j) {
  protocol::Limits l;
  l.init_ms = j.value("init_ms", l.init_ms);
  l.decision_ms = j.value("decision_ms", l.decision_ms);
  l.time_bank_ms = j.value("time_bank_ms", l.time_bank_ms);
  l.max_line_bytes = j.value("max_line_bytes", l.max_line_bytes);
  l.max_debug_bytes = j.value("max_debug_bytes", l.max_debug_bytes);
  return l;
}

// The hello a seat of the replay's match was sent (with its card table, for protocol 2).
json hello_for(const replay::Header& h, Seat seat) {
  const games::Game* game = games::find_game(h.game);
  const json cards = game == nullptr ? json(nullptr) : game->protocol_card_table(h.config, replay::seat_configs(h));
  return protocol::hello(h.game, seat, h.seats, h.config, limits_from(h.limits), games::seat_card_table(cards, seat));
}

// The message the bot was answering when it faulted, rebuilt from the replay: the hello for a
// handshake fault, else the request (view, legal actions, time) the match sent at that point.
// The replay stores every answered step, so re-applying its actions reaches the fault's state.
Result<json> offending_message(const replay::Replay& r, const match::Fault& f) {
  const replay::Header& h = r.header;
  const protocol::Limits limits = limits_from(h.limits);
  const games::Game* game = games::find_game(h.game);
  if (game == nullptr) return fail(fmt::format("unknown game \"{}\" in the replay", h.game));
  if (f.request_id == 0) return hello_for(h, f.seat);
  auto state = replay::initial_state(h);
  if (!state) return fail(state.error());
  std::vector<double> bank(static_cast<std::size_t>(h.seats), static_cast<double>(limits.time_bank_ms));
  for (const replay::Step& s : r.steps) {
    double& b = bank[static_cast<std::size_t>(s.seat)];
    b = std::max(0.0, b - std::max(0.0, s.time_ms - static_cast<double>(limits.decision_ms)));
    if (auto st = (*state)->apply(s.action); !st)
      return fail(fmt::format("step {} does not apply: {}", s.n, st.error()));
  }
  if ((*state)->is_over() || (*state)->to_act() != f.seat) {
    return fail(fmt::format("the replay does not end with seat {} to act", f.seat));
  }
  const double seat_bank = bank[static_cast<std::size_t>(f.seat)];
  const int version =
      static_cast<std::size_t>(f.seat) < h.bots.size() ? h.bots[static_cast<std::size_t>(f.seat)].protocol : 1;
  return protocol::request(f.request_id, f.seat, version >= 2 ? (*state)->view_v2(f.seat) : (*state)->view(f.seat),
                           (*state)->legal_actions(),
                           static_cast<std::int64_t>(static_cast<double>(limits.decision_ms) + seat_bank),
                           static_cast<std::int64_t>(seat_bank), version);
}

json fault_json(const match::Fault& f) {
  return {{"seat", f.seat},
          {"kind", match::fault_name(f.kind)},
          {"request_id", f.request_id},
          {"message", f.message},
          {"raw", f.raw},
          {"exit", f.exit},
          {"stderr_tail", f.stderr_tail}};
}

// ---- the handshake, on its own ------------------------------------------------------------

struct Setup {
  const ValidateArgs& args;
  const games::Game& game;
  json config;  // normalised
  int seats = 2;
  protocol::Limits limits;  // as given; the match scales them
  protocol::Limits scaled;  // as enforced
  fs::path out;
  fs::path referee;  // this executable, for the re-run commands
  std::vector<std::string> env;
  bots::SandboxPolicy sandbox{bots::Tier::none, {}, false};
};

// Starts the bot alone as seat 0, sends the hello, times the ready line, then closes its input
// and gives it the usual grace to exit. The checks and messages are those of a match.
json probe_handshake(const Setup& s) {
  json h = {{"ok", false},         {"name", nullptr},     {"version", nullptr},
            {"protocol", nullptr}, {"ready_ms", nullptr}, {"init_ms", s.scaled.init_ms},
            {"fault", nullptr}};
  const fs::path log = s.out / "handshake.seat0.stderr.log";
  h["stderr_log"] = log.string();
  bots::SpawnOptions spawn;
  spawn.argv = match::split_command(s.args.bot).value();
  spawn.working_dir = fs::current_path();
  spawn.env = s.env;
  spawn.env.push_back("ARENA_SEAT=0");
  spawn.stderr_path = log;
  spawn.stderr_cap = kStderrCap;
  spawn.max_line_bytes = s.scaled.max_line_bytes;
  spawn.sandbox = s.sandbox;
  spawn.label = "handshake";
  const json cards = s.game.protocol_card_table(s.config, {});
  const json hello =
      protocol::hello(s.game.info().name, 0, s.seats, s.config, s.scaled, games::seat_card_table(cards, 0));
  match::Fault f;
  bool faulted = false;
  auto fault = [&](match::FaultKind kind, std::string message, std::string_view raw) {
    f.kind = kind;
    f.message = std::move(message);
    f.raw = protocol::escape_bytes(raw);
    faulted = true;
  };
  const auto start = Clock::now();
  const auto deadline = start + std::chrono::milliseconds(s.scaled.init_ms);
  auto process = bots::BotProcess::spawn(spawn);
  if (!process) {
    fault(match::FaultKind::crash, process.error(), "");
  } else {
    bots::BotProcess& p = **process;
    const auto written = p.write_line(protocol::to_line(hello), deadline);
    if (written == bots::WriteStatus::timeout) {
      fault(match::FaultKind::timeout, "did not read its input before the deadline", "");
    } else if (written == bots::WriteStatus::closed) {
      fault(match::FaultKind::crash, "its input is closed (the bot is gone)", "");
    } else {
      auto r = p.read_line(deadline);
      h["ready_ms"] = ms_since(start);
      if (r.status == bots::ReadStatus::timeout) {
        fault(match::FaultKind::timeout, fmt::format("no ready message within {} ms", s.scaled.init_ms), r.partial);
      } else if (r.status == bots::ReadStatus::too_long) {
        fault(match::FaultKind::output_limit, fmt::format("a line longer than {} bytes", s.scaled.max_line_bytes),
              r.partial);
      } else if (r.status == bots::ReadStatus::eof) {
        fault(match::FaultKind::crash, "closed its output", r.partial);
      } else if (auto parsed = protocol::parse_line(r.line, {64, s.scaled.max_line_bytes}); !parsed) {
        fault(match::FaultKind::malformed, parsed.error(), r.line);
      } else if (auto ready = protocol::read_ready(*parsed); !ready) {
        fault(match::FaultKind::malformed, "handshake: " + ready.error(), r.line);
      } else {
        h["name"] = ready->name;
        h["version"] = ready->version;
        h["protocol"] = ready->protocol;
      }
    }
    // A bot that hung gets no grace; one that answered or crashed gets time to exit by itself.
    const bool hung = faulted && f.kind != match::FaultKind::crash;
    const auto status = p.shutdown(hung ? std::chrono::milliseconds(0) : std::chrono::milliseconds(200));
    f.exit = status.describe();
    h["exit"] = f.exit;
    // Informational: the protocol asks a bot to exit at EOF, but the referee kills it anyway.
    h["exited_at_eof"] = !hung && !status.killed_by_referee;
    h["stderr_bytes"] = p.stderr_bytes();
    if (faulted) {
      f.stderr_tail = p.stderr_tail(kStderrTailLines);
      if (f.kind == match::FaultKind::crash) f.message += fmt::format(" ({})", f.exit);
    }
  }
  if (faulted) {
    json fj = fault_json(f);
    fj["phase"] = "handshake";
    fj["request"] = hello;
    const fs::path input = s.out / "handshake.fault-input.jsonl";
    if (files::write_private(input, protocol::to_line(hello) + '\n')) fj["input"] = input.string();
    fj["stderr_log"] = log.string();
    fj["rerun"] = fmt::format("{} < {}", s.args.bot, shell_quote(input.string()));
    h["fault"] = std::move(fj);
  } else {
    h["ok"] = true;
  }
  return h;
}

// ---- the matches --------------------------------------------------------------------------

std::string rerun_command(const Setup& s, const std::vector<std::string>& bots, std::uint64_t seed) {
  std::string cmd = fmt::format("{} play --game {}", shell_quote(s.referee.string()), s.game.info().name);
  for (const auto& b : bots) cmd += " --bot " + shell_quote(b);
  cmd += fmt::format(" --seed {} --init-ms {} --decision-ms {}", seed, s.limits.init_ms, s.limits.decision_ms);
  if (s.args.time_scale != 1.0) cmd += fmt::format(" --time-scale {}", s.args.time_scale);
  if (!s.args.config.empty()) cmd += " --config " + shell_quote(s.args.config);
  for (const auto& e : s.args.env) cmd += " --env " + shell_quote(e);
  return cmd;
}

struct Tally {
  std::vector<double> times;  // the bot's decisions, ms
  std::uint64_t stderr_total = 0;
  std::uint64_t stderr_max = 0;
  std::size_t verified = 0;
  std::size_t diverged = 0;
  json faults = json::array();
  json opponent_faults = json::array();
  bool interrupted = false;
  std::vector<fs::path> written;  // the matches' replays, logs and fault inputs (--share-output)
};

// The bot's result in one match, from its seat's point of view.
std::string outcome_for(const match::MatchResult& m, int seat) {
  if (m.end == match::End::interrupted) return "interrupted";
  if (m.fault) return m.fault->seat == seat ? "forfeit" : "win (opponent fault)";
  const json& r = m.result;
  const json winner = r.value("winner", json(nullptr));
  if (winner.is_number() && winner.get<int>() == seat) return "win";
  const json ranks = r.value("ranks", json::array());
  if (winner.is_null() && ranks.size() > static_cast<std::size_t>(seat) && ranks[static_cast<std::size_t>(seat)] == 1) {
    return "draw";
  }
  return "loss";
}

// Plays one match with the bot at `seat` and opponents elsewhere; records it in the tally.
Result<json> play_one(const Setup& s, const std::string& opponent, int seat, std::uint64_t seed,
                      const std::string& stem, Tally& t) {
  match::Options o;
  o.game = s.game.info().name;
  o.config = s.config;
  o.seed = seed;
  std::vector<std::string> commands;
  for (int i = 0; i < s.seats; ++i) commands.push_back(i == seat ? s.args.bot : opponent);
  for (const auto& c : commands) o.bots.push_back({c, ""});
  o.limits = s.limits;
  o.time_scale = s.args.time_scale;
  o.log_dir = s.out;
  o.log_stem = stem;
  o.replay_path = s.out / (stem + ".jsonl");
  o.working_dir = fs::current_path();
  o.env = s.env;
  o.sandbox = s.sandbox;
  o.stderr_cap = kStderrCap;
  o.stop = &g_stop;
  auto m = match::play(o);
  if (!m) return fail(m.error());
  if (m->end == match::End::interrupted) t.interrupted = true;
  t.written.push_back(m->replay);
  for (const auto& seat_report : m->seats) t.written.push_back(seat_report.stderr_log);

  const auto& me = m->seats[static_cast<std::size_t>(seat)];
  json mj = {{"opponent", opponent},
             {"seat", seat},
             {"seed", seed},
             {"end", m->end},
             {"outcome", outcome_for(*m, seat)},
             {"scores", m->result.value("scores", json(nullptr))},
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
  } else {
    const auto v = replay::verify(*r);
    // An interrupted match has no footer to check; it is not the bot's doing.
    const bool ok = v.ok || m->end == match::End::interrupted;
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

  if (m->fault && m->fault->seat != seat && m->fault->message.rfind("cannot start", 0) == 0) {
    return fail(fmt::format("the opponent {}: {}", opponent, m->fault->message));
  }
  if (m->fault) {
    const match::Fault& f = *m->fault;
    json fj = fault_json(f);
    fj["phase"] = f.request_id == 0 ? "handshake" : "decision";
    fj["opponent"] = opponent;
    fj["seed"] = seed;
    fj["replay"] = m->replay.string();
    fj["stderr_log"] = m->seats[static_cast<std::size_t>(f.seat)].stderr_log.string();
    fj["rerun"] = rerun_command(s, commands, seed);
    fj["request"] = nullptr;
    if (r) {
      auto request = offending_message(*r, f);
      if (request) {
        fj["request"] = *request;
        // A second answer is noticed before the next request is written: that one was not sent.
        fj["request_sent"] = f.message.rfind("output without a pending request", 0) != 0;
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

// ---- the report for people ---------------------------------------------------------------
// What the bot chose (its name and version, fault messages that quote it, its bytes, its stderr)
// is printed through terminal_safe; the commands to paste are printed as given.

std::string cut(const std::string& text, std::size_t max) {
  if (text.size() <= max) return text;
  return fmt::format("{}... ({} bytes)", text.substr(0, max), text.size());
}

void print_fault(std::size_t n, const json& f, const std::string& bot) {
  const std::string where =
      f.value("phase", "") == "handshake" && !f.contains("opponent")
          ? std::string("handshake probe")
          : fmt::format("seat {} vs {}, seed {}", f.at("seat").get<int>(),
                        label_of(f.value("opponent", std::string("?"))), f.value("seed", std::uint64_t{0}));
  const auto id = f.at("request_id").get<std::int64_t>();
  fmt::print(stderr, "FAULT {}: {}: {} {}: {}\n", n, where, f.at("kind").get<std::string>(),
             id == 0 ? std::string("during the handshake") : fmt::format("at request {}", id),
             terminal_safe(f.at("message").get<std::string>()));
  if (!f.at("raw").get<std::string>().empty()) {
    fmt::print(stderr, "  its reply:  {}\n", terminal_safe(cut(f.at("raw").get<std::string>(), kShownRequestBytes)));
  }
  if (f.contains("request") && !f.at("request").is_null()) {
    const bool sent = f.value("request_sent", true);
    const std::string type = f.at("request").value("type", "request");
    fmt::print(stderr, "  {}: {}\n", sent ? "the " + type : "the next " + type + " (not sent)",
               cut(protocol::to_line(f.at("request")), kShownRequestBytes));
  }
  if (f.contains("request_error")) {
    fmt::print(stderr, "  the request could not be rebuilt: {}\n",
               terminal_safe(f.at("request_error").get<std::string>()));
  }
  if (!f.value("exit", std::string()).empty())
    fmt::print(stderr, "  the bot ended: {}\n", f.at("exit").get<std::string>());
  const auto& tail = f.at("stderr_tail");
  if (!tail.empty()) {
    fmt::print(stderr, "  last lines of its stderr ({}):\n", f.value("stderr_log", std::string()));
    for (const auto& l : tail) fmt::print(stderr, "    | {}\n", terminal_safe(l.get<std::string>()));
  }
  if (f.contains("input") && f.contains("replay"))
    fmt::print(stderr, "  feed it the same input:  {} < {}\n", bot, shell_quote(f.at("input").get<std::string>()));
  if (f.contains("replay")) fmt::print(stderr, "  replay: {}\n", f.at("replay").get<std::string>());
  fmt::print(stderr, "  re-run:  {}\n", f.at("rerun").get<std::string>());
}

double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  // Nearest rank: the smallest value with at least p of the decisions at or below it.
  const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(sorted.size())));
  return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

double median(const std::vector<double>& sorted) {
  if (sorted.empty()) return 0;
  const std::size_t n = sorted.size();
  return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

}  // namespace

CLI::App* add_validate(CLI::App& app, ValidateArgs& a) {
  auto* v = app.add_subcommand("validate",
                               "Check a bot: handshake, matches against the sample bots in every seat, faults, timing");
  v->add_option("bot", a.bot, "The bot's command line, e.g. \"python3 my_bot.py\"")->required();
  v->add_option("--game", a.game, "Game to validate for (see `referee games`)")->capture_default_str();
  v->add_option("--opponent", a.opponents, "An opponent's command line (repeatable; default: the sample bots)");
  v->add_option("--games", a.games, "Matches per opponent and seat")
      ->capture_default_str()
      ->check(within(bounds::kValidateGames));
  v->add_option_function<std::uint64_t>(
       "--seed",
       [&a](const std::uint64_t& seed) {
         a.seed = seed;
         a.seed_given = true;
       },
       "Seed of the first deal; game k uses seed+k (default: random, printed)")
      ->check(within(bounds::kSeed));
  v->add_option("--config", a.config, "Game config as JSON, or @FILE");
  v->add_option("--init-ms", a.init_ms, "Time from start to the ready message")
      ->capture_default_str()
      ->check(within(bounds::kInitMs));
  v->add_option("--decision-ms", a.decision_ms, "Time per decision")
      ->capture_default_str()
      ->check(within(bounds::kDecisionMs));
  v->add_option("--time-scale", a.time_scale, "Multiply every time limit (slow machines)")
      ->capture_default_str()
      ->check(within(bounds::kTimeScale));
  v->add_option("--out", a.out, "Folder for replays and stderr logs (default: logs/validate-<time>)");
  v->add_option("--env", a.env, "Extra KEY=VALUE for the bots' environment (repeatable)");
  v->add_flag("--json", a.json, "Print the report as JSON on stdout");
  add_sandbox_options(v, a.sandbox);
  add_share_output(v, a.share_output);
  return v;
}

int run_validate(const ValidateArgs& a) {
  auto usage = [](const std::string& message) {
    fmt::print(stderr, "referee validate: {}\n", terminal_safe(message));  // may quote an opponent's fault
    return kUsage;
  };
  const games::Game* game = games::find_game(a.game);
  if (game == nullptr) return usage(fmt::format("unknown game \"{}\" (see `referee games`)", a.game));
  if (auto argv = match::split_command(a.bot); !argv) return usage(argv.error());
  for (const auto& e : a.env) {
    if (e.find('=') == std::string::npos || e.front() == '=')
      return usage(fmt::format("--env expects KEY=VALUE, got \"{}\"", e));
  }
  auto raw_config = read_config(a.config);
  if (!raw_config) return usage(raw_config.error());
  auto config = game->normalize_config(*raw_config);
  if (!config) return usage(config.error());
  std::vector<std::string> opponents = a.opponents;
  if (opponents.empty()) {
    auto found = default_opponents();
    if (!found) return usage(found.error());
    opponents = *found;
  }
  for (const auto& o : opponents) {
    if (auto argv = match::split_command(o); !argv) return usage(fmt::format("--opponent: {}", argv.error()));
  }
  auto out = output_folder(a.out);
  if (!out) return usage(out.error());

  std::error_code ec;
  Setup s{a, *game, *config, game->info().min_seats, {}, {}, out->dir, fs::read_symlink("/proc/self/exe", ec), {}};
  s.referee = ec ? fs::path("referee") : near(s.referee);
  s.limits.init_ms = a.init_ms;
  s.limits.decision_ms = a.decision_ms;
  s.scaled = protocol::scaled(s.limits, a.time_scale);
  s.env = bot_environment(fs::current_path(), a.env);
  auto sandbox = sandbox_policy(a.sandbox, 1);
  if (!sandbox) return usage(sandbox.error());
  s.sandbox = *sandbox;
  const std::uint64_t seed = a.seed_given ? a.seed : os_random_u64();  // getrandom(2): nobody can predict the deal

  g_stop.store(false);
  std::signal(SIGINT, on_validate_signal);
  std::signal(SIGTERM, on_validate_signal);

  fmt::print(stderr, "referee validate: {}\n", a.bot);
  fmt::print(stderr, "  game {} ({} seats), {} per opponent and seat, {}\n", game->info().name, s.seats,
             plural(static_cast<std::size_t>(a.games), "game"),
             a.games == 1 ? fmt::format("seed {}", seed)
                          : fmt::format("seeds {}..{}", seed, seed + static_cast<std::uint64_t>(a.games) - 1));
  fmt::print(stderr, "  limits: ready within {} ms, {} ms per decision; logs and replays in {}\n", s.scaled.init_ms,
             s.scaled.decision_ms, s.out.string());

  json report = {
      {"validate", 1},
      {"bot", a.bot},
      {"game", game->info().name},
      {"config", s.config},
      {"seats", s.seats},
      {"games_per_seat", a.games},
      {"seed", seed},
      {"limits", {{"init_ms", s.scaled.init_ms}, {"decision_ms", s.scaled.decision_ms}, {"time_scale", a.time_scale}}},
      {"out", s.out.string()},
      {"opponents", opponents}};

  // 1. The handshake alone: a bot that cannot start is reported once, not once per match.
  const json handshake = probe_handshake(s);
  report["handshake"] = handshake;
  Tally t;
  if (handshake.at("ok").get<bool>()) {
    fmt::print(
        stderr, "handshake: ok, \"{}\" version \"{}\", protocol {}, ready in {:.1f} ms (limit {} ms){}\n",
        terminal_safe(handshake.at("name").get<std::string>()),
        terminal_safe(handshake.at("version").get<std::string>()), handshake.at("protocol").get<int>(),
        handshake.at("ready_ms").get<double>(), s.scaled.init_ms,
        handshake.value("exited_at_eof", true) ? "" : "; note: it did not exit when its input closed (it was killed)");
  } else {
    fmt::print(stderr, "handshake: FAILED ({}); no matches played\n",
               handshake.at("fault").at("kind").get<std::string>());
    t.faults.push_back(handshake.at("fault"));
  }

  // 2. The matches: every opponent, every seat, the same deals.
  json matches = json::array();
  json groups = json::array();
  if (handshake.at("ok").get<bool>()) {
    for (std::size_t oi = 0; oi < opponents.size() && !t.interrupted; ++oi) {
      const std::string label = label_of(opponents[oi]);
      for (int seat = 0; seat < s.seats && !t.interrupted; ++seat) {
        json g = {{"opponent", opponents[oi]},
                  {"seat", seat},
                  {"games", 0},
                  {"wins", 0},
                  {"draws", 0},
                  {"losses", 0},
                  {"faults", 0},
                  {"opponent_faults", 0}};
        for (int k = 0; k < a.games && !t.interrupted; ++k) {
          const std::uint64_t match_seed = seed + static_cast<std::uint64_t>(k);
          const std::string stem = fmt::format("vs{}-{}-seat{}-g{}", oi + 1, label, seat, k + 1);
          auto m = play_one(s, opponents[oi], seat, match_seed, stem, t);
          if (!m) return usage(m.error());
          const std::string outcome = m->at("outcome");
          if (outcome == "interrupted") break;
          g["games"] = g["games"].get<int>() + 1;
          const char* key = outcome == "win"       ? "wins"
                            : outcome == "draw"    ? "draws"
                            : outcome == "loss"    ? "losses"
                            : outcome == "forfeit" ? "faults"
                                                   : "opponent_faults";
          g[key] = g[key].get<int>() + 1;
          matches.push_back(std::move(*m));
        }
        fmt::print(stderr, "vs {} as seat {}: {}: {} won, {} drawn, {} lost, {}{}\n", label, seat,
                   plural(g["games"].get<std::size_t>(), "game"), g["wins"].get<int>(), g["draws"].get<int>(),
                   g["losses"].get<int>(), plural(g["faults"].get<std::size_t>(), "fault"),
                   g["opponent_faults"].get<int>() > 0
                       ? fmt::format(" ({} won on an opponent's fault)", g["opponent_faults"].get<int>())
                       : std::string());
        groups.push_back(std::move(g));
      }
    }
  }
  report["results"] = groups;
  report["matches"] = matches;

  // 3. The summary.
  std::sort(t.times.begin(), t.times.end());
  const json timing = {{"decisions", t.times.size()},
                       {"median_ms", median(t.times)},
                       {"p99_ms", percentile(t.times, 0.99)},
                       {"max_ms", t.times.empty() ? 0.0 : t.times.back()},
                       {"limit_ms", s.scaled.decision_ms}};
  report["timing"] = timing;
  report["stderr"] = {{"bytes", t.stderr_total + handshake.value("stderr_bytes", std::uint64_t{0})},
                      {"max_per_match", t.stderr_max},
                      {"cap_per_match", kStderrCap}};
  report["replays"] = {{"verified", t.verified}, {"diverged", t.diverged}};
  report["faults"] = t.faults;
  report["opponent_faults"] = t.opponent_faults;

  for (std::size_t i = 0; i < t.faults.size(); ++i) print_fault(i + 1, t.faults[i], a.bot);
  for (const auto& f : t.opponent_faults) {
    fmt::print(stderr, "note: the opponent {} faulted (seed {}: {} at request {}: {}); not counted against the bot\n",
               label_of(f.at("opponent").get<std::string>()), f.at("seed").get<std::uint64_t>(),
               f.at("kind").get<std::string>(), f.at("request_id").get<std::int64_t>(),
               terminal_safe(f.at("message").get<std::string>()));
  }
  if (t.times.empty()) {
    fmt::print(stderr, "decision times: no decision answered\n");
  } else {
    fmt::print(stderr, "decision times ({} decisions): median {:.2f} ms, p99 {:.2f} ms, max {:.2f} ms; limit {} ms\n",
               t.times.size(), timing["median_ms"].get<double>(), timing["p99_ms"].get<double>(),
               timing["max_ms"].get<double>(), s.scaled.decision_ms);
    if (timing["max_ms"].get<double>() > 0.5 * static_cast<double>(s.scaled.decision_ms)) {
      fmt::print(stderr,
                 "  warning: the slowest decision used over half the limit; a loaded machine may time it out\n");
    }
  }
  fmt::print(stderr, "stderr: {} bytes in all (at most {} in one match; {} kept per match)\n",
             report["stderr"]["bytes"].get<std::uint64_t>(), t.stderr_max, kStderrCap);
  if (!matches.empty()) {
    fmt::print(stderr, "replays: {} of {} verified{}\n", t.verified, t.verified + t.diverged,
               t.diverged > 0 ? " (a diverging replay is a referee or game bug: please report it)" : "");
  }

  std::string verdict = "PASS";
  if (t.interrupted) {
    verdict = fmt::format("INTERRUPTED: {}", plural(t.faults.size(), "fault"));
  } else if (!t.faults.empty() || t.diverged > 0) {
    verdict = fmt::format("FAIL: {}", plural(t.faults.size(), "fault"));
    if (t.diverged > 0) verdict += fmt::format(", {} did not verify", plural(t.diverged, "replay"));
  }
  report["verdict"] = verdict;
  report["ok"] = verdict == "PASS";
  fmt::print(stderr, "{}\n", verdict);
  if (a.json) std::cout << protocol::to_line(report) << std::endl;
  if (a.share_output) {  // every bot is gone: the folders this run made and every file it wrote
    std::vector<fs::path> paths = out->created;
    paths.push_back(handshake.at("stderr_log").get<std::string>());
    if (const json& f = handshake.at("fault"); f.is_object() && f.contains("input"))
      paths.push_back(f.at("input").get<std::string>());
    paths.insert(paths.end(), t.written.begin(), t.written.end());
    if (auto st = files::share(paths); !st) return usage(fmt::format("--share-output: {}", st.error()));
  }
  if (t.interrupted) return kInterrupted;
  return verdict == "PASS" ? kFinished : kBotFault;
}

}  // namespace arena::cli
