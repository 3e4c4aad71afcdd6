// `referee validate`: the command's flags and flow (docs/validate.md). The checks themselves are
// in validate_checks.cpp, the report for people in validate_report.cpp.

#include "referee/cli/validate_cmd.hpp"

#include <fmt/format.h>

#include <charconv>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "protocol/codec.hpp"
#include "referee/cli/common.hpp"
#include "referee/cli/validate_checks.hpp"
#include "referee/cli/validate_report.hpp"
#include "referee/core/markup.hpp"
#include "referee/core/private_file.hpp"
#include "referee/core/rng.hpp"
#include "referee/games/game.hpp"
#include "referee/match/match.hpp"

namespace arena::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace validate;

// `path` relative to the working directory when it lies below it (shorter commands to paste).
fs::path near(const fs::path& path) {
  std::error_code ec;
  const fs::path rel = fs::relative(path, fs::current_path(), ec);
  if (ec || rel.empty() || *rel.begin() == "..") return path;
  return rel.parent_path().empty() || rel == "." ? fs::path(".") / rel : rel;  // never a bare name looked up in PATH
}

// The sample bots next to this referee (common.hpp), as commands relative to the working directory
// when they lie below it.
Result<std::vector<std::string>> default_opponents() {
  auto bots = sample_bots();
  if (!bots) return fail(bots.error());
  std::vector<std::string> found;
  for (const fs::path& bot : *bots) found.push_back(shell_quote(near(bot).string()));
  return found;
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

// --seats: empty (the game's minimum), a count the game plays, or "all" (each count it plays, in
// turn). Anything else names the game's range; a long value is cut, never echoed whole.
Result<std::vector<int>> seat_counts(const std::string& text, const games::GameInfo& info) {
  std::vector<int> all;
  for (int n = info.min_seats; n <= info.max_seats; ++n) all.push_back(n);
  if (text.empty()) return std::vector<int>{info.min_seats};
  if (text == "all") return all;
  int n = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (error == std::errc() && end == text.data() + text.size() && n >= info.min_seats && n <= info.max_seats) {
    return std::vector<int>{n};
  }
  const std::string shown = text.size() > 24 ? fmt::format("{}...", text.substr(0, 24)) : text;
  const std::string plays =
      fmt::format("{} seats{}", match::seat_range(info), info.min_seats == info.max_seats ? " only" : "");
  std::string choices;
  for (std::size_t i = 0; i < all.size(); ++i) {
    choices += fmt::format("{}{}", i == 0 ? "" : i + 1 == all.size() ? " or " : ", ", all[i]);
  }
  return fail(fmt::format("--seats {}: {} plays {}; give {}, or all", shown, info.name, plays, choices));
}

// A group's tally: one opponent, one seat count, the bot in one seat.
json new_group(const std::string& opponent, int seats, int seat) {
  return {{"opponent", opponent}, {"seats", seats}, {"seat", seat}, {"games", 0},          {"wins", 0},
          {"draws", 0},           {"losses", 0},    {"faults", 0},  {"opponent_faults", 0}};
}

void count_outcome(json& g, const std::string& outcome) {
  g["games"] = g["games"].get<int>() + 1;
  const char* key = outcome == "win"       ? "wins"
                    : outcome == "draw"    ? "draws"
                    : outcome == "loss"    ? "losses"
                    : outcome == "forfeit" ? "faults"
                                           : "opponent_faults";
  g[key] = g[key].get<int>() + 1;
}

void print_group(const json& g, const std::string& label, bool name_seat_count) {
  say("vs {} as seat {}{}: {}: {} won, {} drawn, {} lost, {}{}\n", label, g["seat"].get<int>(),
      name_seat_count ? fmt::format(" of {}", g["seats"].get<int>()) : std::string(),
      plural(g["games"].get<std::size_t>(), "game"), g["wins"].get<int>(), g["draws"].get<int>(),
      g["losses"].get<int>(), plural(g["faults"].get<std::size_t>(), "fault"),
      g["opponent_faults"].get<int>() > 0
          ? fmt::format(" ({} won on an opponent's fault)", g["opponent_faults"].get<int>())
          : std::string());
}

struct Played {
  json groups = json::array();
  json matches = json::array();
};

// Every seat count, every opponent, the bot in every seat, `games` matches each: game k of each
// uses seed + k, so the bot plays the same deals from every side. An error: an opponent that
// cannot start.
Result<Played> play_all(Setup& s, const std::vector<int>& counts, std::uint64_t seed, Tally& t) {
  Played p;
  const bool several_counts = s.game.info().min_seats != s.game.info().max_seats;
  for (const int seats : counts) {
    s.seats = seats;
    for (std::size_t oi = 0; oi < s.opponents.size() && !t.interrupted; ++oi) {
      const match::BotCommand& opponent = s.opponents[oi];
      const std::string label = label_of(opponent);
      for (int seat = 0; seat < seats && !t.interrupted; ++seat) {
        json g = new_group(opponent.text, seats, seat);
        for (int k = 0; k < s.args.games && !t.interrupted; ++k) {
          const std::string stem = counts.size() > 1
                                       ? fmt::format("vs{}-{}-{}seats-seat{}-g{}", oi + 1, label, seats, seat, k + 1)
                                       : fmt::format("vs{}-{}-seat{}-g{}", oi + 1, label, seat, k + 1);
          auto m = play_one(s, opponent, seat, seed + static_cast<std::uint64_t>(k), stem, t);
          if (!m) return fail(m.error());
          const std::string outcome = m->at("outcome");
          if (outcome == "interrupted") break;
          count_outcome(g, outcome);
          p.matches.push_back(std::move(*m));
        }
        print_group(g, label, several_counts);
        p.groups.push_back(std::move(g));
      }
    }
  }
  return p;
}

void print_handshake(const json& h) {
  if (h.value("interrupted", false)) {
    say("handshake: interrupted; no matches played\n");
  } else if (h.at("ok").get<bool>()) {
    say("handshake: ok, \"{}\" version \"{}\", protocol {}, ready in {:.1f} ms (limit {} ms){}\n",
        terminal_safe(h.at("name").get<std::string>()), terminal_safe(h.at("version").get<std::string>()),
        h.at("protocol").get<int>(), h.at("ready_ms").get<double>(), h.at("init_ms").get<std::int64_t>(),
        h.value("exited_at_eof", true) ? "" : "; note: it did not exit when its input closed (it was killed)");
  } else {
    const json& f = h.at("fault");
    const std::string kind = f.at("kind").get<std::string>();
    if (kind == enum_name(match::FaultKind::unsupported_game)) {  // what it plays, from its own ready
      say("handshake: FAILED ({}: it {}); no matches played\n", kind,
          terminal_safe(f.at("message").get<std::string>()));
    } else {
      say("handshake: FAILED ({}); no matches played\n", kind);
    }
  }
}

}  // namespace

RunCommand add_validate(CLI::App& command) {
  auto args = std::make_shared<ValidateArgs>();
  ValidateArgs& a = *args;
  CLI::App* v = &command;
  v->add_option("bot", a.bot, "The bot's command line, e.g. \"python3 my_bot.py\"")->required();
  v->add_option("--game", a.game, "Game to validate for (see `referee games`)")->capture_default_str();
  v->add_option("--opponent", a.opponents, "An opponent's command line (repeatable; default: the sample bots)");
  v->add_option("--seats", a.seats,
                "Seats per match: a count the game plays, or all (each in turn); the bot is checked in every seat "
                "(default: the game's minimum)");
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
  v->add_option("--out", a.out, "Folder for replays and stderr logs (default: logs/validate-<time>)");
  v->add_flag("--json", a.json, "Print the report as JSON on stdout");
  add_match_options(v, a.match);
  return [args](const CLI::App&) { return run_validate(*args); };
}

int run_validate(const ValidateArgs& a) {
  auto usage = [](const std::string& message) {
    say("referee validate: {}\n", terminal_safe(message));  // may quote an opponent's fault
    return kUsage;
  };
  const games::Game* game = games::find_game(a.game);
  if (game == nullptr) return usage(fmt::format("unknown game \"{}\" (see `referee games`)", a.game));
  const auto counts = seat_counts(a.seats, game->info());
  if (!counts) return usage(counts.error());
  auto bot = match::BotCommand::parse(a.bot);
  if (!bot) return usage(bot.error());
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
  auto parsed_opponents = parse_bot_commands(opponents, "--opponent");
  if (!parsed_opponents) return usage(parsed_opponents.error());
  auto out = output_folder(a.out);
  if (!out) return usage(out.error());

  const fs::path self = referee_path();  // shown as the user would type it, when below here
  Setup s{a,  *game, *config,  counts->front(),
          {}, {},    out->dir, self.is_absolute() ? near(self) : self,
          {}, {},    *bot,     std::move(parsed_opponents).value()};
  s.limits = a.match.limits;
  s.scaled = protocol::scaled(s.limits, a.match.time_scale);
  s.env = bot_environment(fs::current_path(), a.match.env);
  auto sandbox = sandbox_policy(a.match.sandbox, 1);
  if (!sandbox) return usage(sandbox.error());
  s.sandbox = *sandbox;
  const std::uint64_t seed = a.seed_given ? a.seed : os_random_u64();  // getrandom(2): nobody can predict the deal

  StopSignal::install_handlers(stop_signal());

  say("referee validate: {}\n", a.bot);
  say("  game {} ({}), {} per opponent and seat, {}\n", game->info().name, seat_counts_text(*counts),
      plural(static_cast<std::size_t>(a.games), "game"),
      a.games == 1 ? fmt::format("seed {}", seed)
                   : fmt::format("seeds {}..{}{}", seed, seed + static_cast<std::uint64_t>(a.games) - 1,
                                 seed + static_cast<std::uint64_t>(a.games) - 1 < seed
                                     ? " (past 18446744073709551615 the seeds start again at 0)"
                                     : ""));
  say("  limits: ready within {} ms, {} ms per decision; logs and replays in {}\n", s.scaled.init_ms,
      s.scaled.decision_ms, s.out.string());

  json report = {
      {"validate", 1},
      {"bot", a.bot},
      {"game", game->info().name},
      {"config", s.config},
      {"seats", s.seats},
      {"seat_counts", *counts},
      {"games_per_seat", a.games},
      {"seed", seed},
      {"limits",
       {{"init_ms", s.scaled.init_ms}, {"decision_ms", s.scaled.decision_ms}, {"time_scale", a.match.time_scale}}},
      {"out", s.out.string()},
      {"opponents", opponents}};

  // 1. The handshake alone: a bot that cannot start is reported once, not once per match.
  const json handshake = probe_handshake(s);
  report["handshake"] = handshake;
  print_handshake(handshake);
  Tally t;
  t.interrupted = handshake.value("interrupted", false);
  if (!handshake.at("ok").get<bool>()) t.faults.push_back(handshake.at("fault"));

  // 2. The matches: every seat count, every opponent, every seat, the same deals.
  Played played;
  if (handshake.at("ok").get<bool>() && !t.interrupted) {
    auto p = play_all(s, *counts, seed, t);
    if (!p) return usage(p.error());
    played = std::move(p).value();
  }
  report["results"] = played.groups;
  report["matches"] = played.matches;

  // 3. The summary.
  report["timing"] = timing_json(t.times, s.scaled.decision_ms);
  report["stderr"] = {{"bytes", t.stderr_total + handshake.value("stderr_bytes", std::uint64_t{0})},
                      {"max_per_match", t.stderr_max},
                      {"cap_per_match", kStderrCap}};
  report["replays"] = {{"verified", t.verified}, {"diverged", t.diverged}};
  report["faults"] = t.faults;
  report["opponent_faults"] = t.opponent_faults;
  report["sandbox"] = sandbox_json(a.match.sandbox.tier, s, t, handshake.at("sandbox_tier"));
  print_summary(report, t, s);

  std::string verdict = "PASS";
  if (t.interrupted) {
    verdict = fmt::format("INTERRUPTED: {}", plural(t.faults.size(), "fault"));
  } else if (!t.faults.empty() || t.diverged > 0) {
    verdict = fmt::format("FAIL: {}", plural(t.faults.size(), "fault"));
    if (t.diverged > 0) verdict += fmt::format(", {} did not verify", plural(t.diverged, "replay"));
  }
  report["verdict"] = verdict;
  report["ok"] = verdict == "PASS";
  say("{}\n", verdict);
  if (a.json) std::cout << protocol::to_line(report) << std::endl;
  if (a.match.share_output) {  // every bot is gone: the folders this run made and every file it wrote
    std::vector<fs::path> paths = out->created;
    paths.push_back(handshake.at("stderr_log").get<std::string>());
    if (const json& f = handshake.at("fault"); f.is_object() && f.contains("input"))
      paths.push_back(f.at("input").get<std::string>());
    paths.insert(paths.end(), t.written.begin(), t.written.end());
    if (auto st = files::share(paths); !st) return usage(fmt::format("--share-output: {}", st.error()));
  }
  if (t.interrupted) return interrupted_exit_code(stop_signal().signal());
  if (const json& f = handshake.at("fault"); f.is_object() && f.value("kind", "") == "unsupported_game")
    return kUnsupportedGame;
  return verdict == "PASS" ? kFinished : kBotFault;
}

}  // namespace arena::cli
