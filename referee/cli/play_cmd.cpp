#include "referee/cli/play_cmd.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <memory>

#include "referee/bots/process.hpp"
#include "referee/core/markup.hpp"
#include "referee/core/private_file.hpp"
#include "referee/core/rng.hpp"
#include "referee/games/game.hpp"
#include "referee/match/match.hpp"

namespace arena::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// A file-name stem under `dir` that no other referee uses: `base`, else `base-2`, `base-3`, ...
// Claimed by creating `<stem><suffix>` exclusively (mode 0600), one of the files the match then
// writes (its replay, or its seat 0 stderr log), so two matches never write into each other's files.
std::string claim_stem(const fs::path& dir, const std::string& base, const std::string& suffix) {
  for (int n = 1;; ++n) {
    const std::string stem = n == 1 ? base : fmt::format("{}-{}", base, n);
    auto created = files::create_private(dir / (stem + suffix));
    if (!created || *created || n > 1000) return stem;  // on an error the replay writer reports the real problem
  }
}

// For people, on stderr. Everything a bot chose (its name, the fault's message and bytes, its
// stderr) is printed through terminal_safe, so a bot cannot drive the organiser's terminal.
void print_summary(const match::MatchResult& m) {
  std::vector<std::string> names;
  for (const auto& s : m.seats) names.push_back(terminal_safe(s.name));
  std::string players;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (!players.empty()) players += " vs ";
    players += fmt::format("{} (seat {})", names[i].empty() ? "?" : names[i], i);
  }
  say("{} seed {}: {}\n", m.game, m.seed, players);
  if (m.end == match::End::finished) {
    say("{}", m.table);
    const json scores = replay::public_json(m).at("scores");  // as the JSON prints them ("79", "2.5")
    std::string line;
    for (std::size_t i = 0; i < m.seats.size(); ++i) {
      line += fmt::format("{}{} {}", i ? ", " : "", names[i], scores.at(i).dump());
    }
    say("  finished after {} decisions: {} -> {}\n", m.decisions, line,
        m.winner ? names[static_cast<std::size_t>(*m.winner)] + " wins" : std::string("draw"));
  } else if (m.end == match::End::fault) {
    const auto& f = *m.fault;
    say("  {} (seat {}) forfeits: {} at request {}: {}\n", names[static_cast<std::size_t>(f.seat)], f.seat,
        enum_name(f.kind), f.request_id, terminal_safe(f.message));
    if (!f.raw.empty()) say("  offending bytes: {}\n", terminal_safe(f.raw));
    if (!f.stderr_tail.empty()) {
      say("  last lines of its stderr:\n");
      for (const auto& l : f.stderr_tail) say("    | {}\n", terminal_safe(l));
    }
  } else if (m.end == match::End::error) {
    say("  stopped by an error of the referee after {} decisions: {}\n", m.decisions, terminal_safe(m.error));
  } else {
    say("  interrupted after {} decisions\n", m.decisions);
  }
  say("  replay: {}  (check it: referee verify {})\n", m.replay.string(), m.replay.string());
  for (std::size_t i = 0; i < m.seats.size(); ++i) {
    say("  stderr of seat {}: {} ({} bytes)\n", i, m.seats[i].stderr_log.string(), m.seats[i].stderr_bytes);
  }
}

struct PlayArgs {
  std::string game = games::default_game_name();
  std::vector<std::string> bots;
  std::vector<std::string> names;
  std::vector<std::string> seat_configs;
  std::uint64_t seed = 0;
  bool seed_given = false;
  std::string replay;
  std::string out = "logs";
  std::string config;
  MatchArgs match;
  bool verbose = false;
};

int run_play(const PlayArgs& a) {
  auto config = read_config(a.config);
  if (!config) {
    say("referee play: {}\n", config.error());
    return kUsage;
  }
  if (!a.names.empty() && a.names.size() != a.bots.size()) {
    say("referee play: {} --name for {} --bot; give one per bot or none\n", a.names.size(), a.bots.size());
    return kUsage;
  }
  if (!a.seat_configs.empty() && a.seat_configs.size() != a.bots.size()) {
    say("referee play: {} --seat-config for {} --bot; give one per bot (\"-\" for none) or none\n",
        a.seat_configs.size(), a.bots.size());
    return kUsage;
  }
  std::vector<json> seat_configs;
  for (std::size_t i = 0; i < a.seat_configs.size(); ++i) {
    auto seat_config = read_json_arg(a.seat_configs[i], "--seat-config");
    if (!seat_config) {
      say("referee play: seat {}: {}\n", i, seat_config.error());
      return kUsage;
    }
    seat_configs.push_back(std::move(seat_config).value());
  }
  auto commands = parse_bot_commands(a.bots, "--bot");
  if (!commands) {
    say("referee play: {}\n", terminal_safe(commands.error()));
    return kUsage;
  }
  // A bot that cannot start is the caller's mistake (exit 2), found before anything is created.
  for (std::size_t i = 0; i < a.bots.size(); ++i) {
    if (auto st =
            match::preflight((*commands)[i], fs::current_path(), bot_environment(fs::current_path(), a.match.env));
        !st) {
      say("referee play: --bot {}: {}\n", terminal_safe(a.names.empty() ? a.bots[i] : a.names[i]),
          terminal_safe(st.error()));
      return kUsage;
    }
  }
  // Folders this run creates (0700): with --share-output they are opened after the match.
  std::vector<fs::path> created;
  for (const fs::path& dir : {fs::path(a.out), fs::path(a.replay).parent_path()}) {
    auto made = files::make_private_dirs(dir);
    if (!made) {
      say("referee play: {}\n", made.error());
      return kUsage;
    }
    created.insert(created.end(), made->begin(), made->end());
  }
  match::Options o;
  o.game = a.game;
  o.config = *config;
  o.seed = a.seed_given ? a.seed : os_random_u64();  // getrandom(2): nobody can predict the deal
  for (std::size_t i = 0; i < a.bots.size(); ++i) {
    o.bots.push_back({(*commands)[i], a.names.empty() ? "" : a.names[i]});
    if (!seat_configs.empty()) o.bots.back().seat_config = seat_configs[i];
  }
  if (auto st = apply_match_options(a.match, o); !st) {
    say("referee play: {}\n", st.error());
    return kUsage;
  }
  o.log_dir = a.out;
  // No seed in the name: a bot that lists the folder must not learn its deal. With --replay, the
  // logs are named after the replay (its name without .jsonl).
  if (a.replay.empty()) {
    o.log_stem = claim_stem(a.out, fmt::format("{}-{}", a.game, timestamp()), ".jsonl");
    o.replay_path = fs::path(a.out) / (o.log_stem + ".jsonl");
  } else {
    o.replay_path = a.replay;
    o.log_stem = claim_stem(a.out, o.replay_path.stem().string(), ".seat0.stderr.log");
  }
  o.working_dir = fs::current_path();
  o.env = bot_environment(o.working_dir, a.match.env);
  o.stop = &stop_signal();
  o.final_table = true;  // print_summary shows it
  if (a.verbose) {
    say("referee play: game {}, seed {}, limits init {} ms, decision {} ms, bank {} ms, x{} time scale\n", o.game,
        o.seed, o.limits.init_ms, o.limits.decision_ms, o.limits.time_bank_ms, o.time_scale);
    say("referee play: {}\n", bots::describe(o.sandbox));
    const auto& support = bots::sandbox_support();
    for (const std::string* note : {&support.namespaces_note, &support.cgroup_note, &support.seccomp_note}) {
      if (!note->empty()) say("referee play: sandbox note: {}\n", *note);
    }
  }
  StopSignal::install_handlers(stop_signal());
  auto result = match::play(o);
  if (!result) {
    say("referee play: {}\n", result.error());
    return kUsage;
  }
  // Bot bytes (names, stderr tails) may hold invalid UTF-8: to_line replaces it, never throws.
  std::cout << protocol::to_line(replay::to_json(*result)) << std::endl;
  print_summary(*result);
  if (a.match.share_output) {  // the bots are gone: the match's files and folders may be opened
    std::vector<fs::path> paths = created;
    paths.push_back(result->replay);
    for (const auto& seat : result->seats) paths.push_back(seat.stderr_log);
    if (auto st = files::share(paths); !st) {
      say("referee play: --share-output: {}\n", st.error());
      return kUsage;
    }
  }
  if (result->end == match::End::error) return kInternal;  // the replay could not be written
  if (result->end == match::End::interrupted) return interrupted_exit_code(stop_signal().signal());
  if (result->fault && result->fault->kind == match::FaultKind::unsupported_game) return kUnsupportedGame;
  return result->end == match::End::fault ? kBotFault : kFinished;
}

}  // namespace

RunCommand add_play(CLI::App& command) {
  auto args = std::make_shared<PlayArgs>();
  PlayArgs& play = *args;
  CLI::App* p = &command;
  p->add_option("--game", play.game, "Game to play (see `referee games`)")->capture_default_str();
  // Not ->required(): an unknown flag should be reported before a missing --bot.
  p->add_option("--bot", play.bots, "A bot's command line, once per seat in seat order");
  p->add_option("--name", play.names, "A name per bot (default: the name the bot gives)");
  p->add_option("--seat-config", play.seat_configs,
                "A seat's own game configuration (e.g. its deck list) as JSON, @FILE or a file path; one per --bot in "
                "order, \"-\" for none");
  p->add_option("--seed", play.seed, "Seed of the deal (default: random, printed)")->check(within(bounds::kSeed));
  p->add_option("--replay", play.replay, "Replay file (default: OUT/<game>-<time>.jsonl)");
  p->add_option("--out", play.out, "Folder for replays and bot stderr logs")->capture_default_str();
  p->add_option("--config", play.config, "Game config as JSON, or @FILE");
  add_match_options(p, play.match);
  p->add_flag("--verbose,-v", play.verbose, "Print the limits, config and sandbox in force");
  return [args](const CLI::App& parsed) {
    args->seed_given = parsed.count("--seed") > 0;
    return run_play(*args);
  };
}

}  // namespace arena::cli
