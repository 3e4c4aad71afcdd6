#include "referee/cli/league_cmd.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>

#include "protocol/codec.hpp"
#include "referee/cli/common.hpp"
#include "referee/cli/league_progress.hpp"
#include "referee/cli/league_verdict.hpp"
#include "referee/core/markup.hpp"
#include "referee/core/private_file.hpp"
#include "referee/league/folder.hpp"
#include "referee/league/journal.hpp"
#include "referee/league/league.hpp"
#include "referee/league/league_file.hpp"
#include "referee/league/merge.hpp"
#include "referee/league/rounds.hpp"
#include "referee/league/standings.hpp"

namespace arena::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string duration_text(double seconds) {
  const auto s = static_cast<long>(seconds + 0.5);
  if (s < 60) return fmt::format("{}s", s);
  if (s < 3600) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}h{:02}m", s / 3600, (s / 60) % 60);
}

// One line per finished match: the result, and the command that re-runs it alone. Names (the
// league's, but possibly chosen by bot authors) and the command that quotes them pass through
// terminal_safe like all text for people; the journal keeps the command as it is. `round`: the
// match's round (1-based) in a Swiss or knockout league, else 0.
std::string match_line(const league::MatchRecord& r, int round) {
  std::string players;
  for (const auto& s : r.seats)
    players += fmt::format("{}{} {}", players.empty() ? "" : " - ", terminal_safe(s.bot), s.score);
  std::string what;
  if (r.fault) {
    what = fmt::format("{} forfeits: {} at request {}",
                       terminal_safe(r.seats[static_cast<std::size_t>(r.fault->seat)].bot), enum_name(r.fault->kind),
                       r.fault->request_id);
  } else {
    std::vector<std::string> first;
    for (const auto& s : r.seats) {
      if (s.rank == 1) first.push_back(terminal_safe(s.bot));
    }
    what = first.size() == 1                ? first[0] + " wins"
           : first.size() == r.seats.size() ? std::string("draw")
                                            : fmt::format("shared first: {}", fmt::join(first, ", "));
  }
  return fmt::format("m{:06}{} deal {} leg {} seed {}: {} ({}); rerun: {}", r.index,
                     round > 0 ? fmt::format(" round {}", round) : std::string(), r.deal, r.leg, r.seed, players, what,
                     terminal_safe(r.rerun));
}

// The league flags given, typed: each read here once, an error naming the flag.
Result<league::LeagueFlags> league_flags(const CLI::App& cmd, const LeagueArgs& a) {
  league::LeagueFlags f;
  auto given = [&](const char* flag) { return cmd.count(flag) > 0; };
  if (!a.bots.empty()) {
    if (!a.names.empty() && a.names.size() != a.bots.size()) {
      return fail(fmt::format("{} --name for {} --bot; give one per bot or none", a.names.size(), a.bots.size()));
    }
    if (!a.seat_configs.empty() && a.seat_configs.size() != a.bots.size()) {
      return fail(fmt::format("{} --seat-config for {} --bot; give one per bot (\"-\" for none) or none",
                              a.seat_configs.size(), a.bots.size()));
    }
    auto commands = parse_bot_commands(a.bots, "--bot");
    if (!commands) return fail(commands.error());
    for (std::size_t i = 0; i < a.bots.size(); ++i) {
      f.bots.push_back({(*commands)[i], a.names.empty() ? "" : a.names[i]});
      if (a.seat_configs.empty()) continue;
      auto seat_config = read_json_arg(a.seat_configs[i], "--seat-config");
      if (!seat_config)
        return fail(fmt::format("bot {}: {}", a.names.empty() ? a.bots[i] : a.names[i], seat_config.error()));
      f.bots.back().seat_config = std::move(seat_config).value();
    }
  } else if (!a.seat_configs.empty()) {
    return fail(
        std::string("--seat-config goes with --bot (one per bot); in a league file, give each bot a \"seat_config\""));
  }
  if (given("--game")) f.game = a.game;
  if (given("--config")) {
    auto config = read_config(a.config);
    if (!config) return fail(config.error());
    f.config = *config;
  }
  if (given("--format")) {
    auto format = league::parse_format(a.format);
    if (!format) return fail(fmt::format("--format: {}", format.error()));
    f.format = *format;
  }
  if (given("--seats")) f.seats = a.seats;
  if (given("--deals")) f.deals = a.deals;
  if (given("--deals-file")) {
    auto book = league::read_deal_book(a.deals_file);
    if (!book) return fail(book.error());
    f.book = std::move(book).value();
    f.book_name = fmt::format("the deal book {}", a.deals_file);
  }
  if (given("--deals-order")) {
    auto order = league::parse_deal_order(a.deals_order);
    if (!order) return fail(fmt::format("--deals-order: {}", order.error()));
    f.deals_order = *order;
  }
  if (given("--rounds")) f.rounds = a.rounds;
  f.no_duplicate = a.no_duplicate;
  if (given("--concurrency")) f.concurrency = a.concurrency;
  if (given("--seed")) f.seed = a.seed;
  const MatchArgs& m = a.match;
  if (given("--init-ms")) f.init_ms = m.limits.init_ms;
  if (given("--decision-ms")) f.decision_ms = m.limits.decision_ms;
  if (given("--time-bank-ms")) f.time_bank_ms = m.limits.time_bank_ms;
  if (given("--max-line-bytes")) f.max_line_bytes = m.limits.max_line_bytes;
  if (given("--time-scale")) f.time_scale = m.time_scale;
  if (given("--sprt")) {
    auto sprt = league::parse_sprt_config(a.sprt);
    if (!sprt) return fail(sprt.error());
    f.sprt = *sprt;
  }
  if (!a.shard.empty()) {
    auto shard = league::parse_shard(a.shard);
    if (!shard) return fail(shard.error());
    f.shard = *shard;
  }
  if (m.sandbox.address_space_mb.size() > 1) f.address_space_mb = m.sandbox.address_space_mb;
  return f;
}

// The user's league file (the positional argument), when given.
Result<std::optional<league::LeagueSpec>> user_league_file(const std::string& file) {
  if (file.empty()) return std::optional<league::LeagueSpec>();
  std::ifstream in(file);
  if (!in) return fail(fmt::format("cannot read the league file {}", file));
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  auto j = league::parse_json_text(text, fmt::format("the league file {}", file));
  if (!j) return fail(j.error());
  auto spec = league::spec_from_json(*j, fs::path(file).parent_path());  // its "deals_file" beside it
  if (!spec) return fail(spec.error());
  return std::optional<league::LeagueSpec>(std::move(spec).value());
}

// The league to run: the flags over the user's league file, or on a resume over the league
// recorded in --out (read once, into `recorded`), checked against it.
Result<league::League> resolve_league(const CLI::App& cmd, const LeagueArgs& a,
                                      std::optional<league::LeagueFile>& recorded) {
  auto flags = league_flags(cmd, a);
  if (!flags) return fail(flags.error());
  auto file = user_league_file(a.file);
  if (!file) return fail(file.error());
  const fs::path recorded_file = fs::path(a.out) / league::kLeagueFile;
  std::error_code ec;
  if (a.resume && fs::exists(fs::symlink_status(recorded_file, ec))) {
    auto read = league::read_league_file(a.out);
    if (!read) return fail(read.error());
    recorded = std::move(read).value();
  } else if (a.resume && !*file && flags->bots.empty()) {
    return fail(fmt::format("--resume: no {} (is --out the league's folder?)", recorded_file.string()));
  }
  return league::apply_flags(*flags, *file, a.file, recorded);
}

// The standings of the league in `folder`, from its journal, written in it (league/folder).
Result<league::Standings> write_standings(const std::vector<std::string>& names, const league::LeagueFacts& f,
                                          bool share) {
  auto folder = league::LeagueFolder::open(f.folder);
  if (!folder) return fail(folder.error());
  return folder->write_standings(names, f, share);
}

}  // namespace

RunCommand add_league(CLI::App& command) {
  auto args = std::make_shared<LeagueArgs>();
  LeagueArgs& a = *args;
  CLI::App* l = &command;
  l->add_option("file", a.file, "League file (JSON); flags override its values");
  l->add_option("--bot", a.bots, "A bot's command line (repeatable)");
  l->add_option("--name", a.names, "A name per --bot (default: from the command)");
  l->add_option("--seat-config", a.seat_configs,
                "A bot's own game configuration (e.g. its deck list) as JSON, @FILE or a file path; one per --bot, "
                "\"-\" for none");
  l->add_option("--game", a.game, "Game (default: the first of `referee games`)");
  l->add_option("--config", a.config, "Game config as JSON, or @FILE");
  l->add_option("--format", a.format,
                "round-robin (default), gauntlet (the first bot against the field), swiss (rounds paired by score) "
                "or knockout (a bracket, 2 seats)");
  l->add_option("--rounds", a.rounds, "Swiss: the number of rounds (default ceil(log2(bots)) + 1)")
      ->check(within(league::kRounds));
  l->add_option("--seats", a.seats, "Seats per match (default: the game's minimum)")->check(within(bounds::kSeats));
  l->add_option("--deals", a.deals, "Deals per pairing (default 1)")->check(within(bounds::kDeals));
  l->add_option("--deals-file", a.deals_file,
                "A deal book: a JSON array or JSON Lines of deals (a seed, or {\"seed\", \"config\"}), played by "
                "every pairing; the deals per pairing are its deals (docs/league.md)");
  l->add_option("--deals-order", a.deals_order,
                "The deal book's order: file (default) or shuffled (by the league seed alone)");
  l->add_flag("--no-duplicate", a.no_duplicate, "Play each deal once instead of once per seat rotation");
  l->add_option("--concurrency,-j", a.concurrency, "Matches at once (default: the number of cores)")
      ->check(within(bounds::kConcurrency));
  l->add_option("--seed", a.seed,
                "League seed (default: drawn from the OS, recorded in league.json and printed); "
                "deal seeds derive from it through a keyed hash")
      ->check(within(bounds::kSeed));
  l->add_option("--sprt", a.sprt, "Stop when decided: \"elo0=0 elo1=5 alpha=0.05 beta=0.05\" (two bots)");
  l->add_option("--out", a.out, "League folder (default logs/league-<time>)");
  l->add_flag("--resume", a.resume, "Finish the league in --out: play exactly the missing matches");
  l->add_flag("--fail-on-fault", a.fail_on_fault, "Exit 1 when any bot faulted (the same as --fail-on fault)");
  l->add_option("--fail-on", a.fail_on,
                "Fail a finished league (repeatable): fault (exit 1: a bot faulted), sprt-h0 (exit 6: the SPRT "
                "accepted H0), elo-below=X (exit 7: the first bot's Elo is below X); docs/ci.md");
  l->add_flag("--reuse", a.reuse,
              "Keep a bot's process for its next match when it asks to (protocol 2, \"reuse\": true); a "
              "process never plays two legs of one duplicate deal");
  l->add_flag("--affinity", a.affinity, kAffinityHelp);
  l->add_option("--rating-interval", a.rating_interval,
                "Every N journaled matches print each pair's score (\"Score of A vs B: W - L - D\") and the points "
                "table; 0: never (default 10)")
      ->check(within(bounds::kRatingInterval));
  l->add_option("--shard", a.shard,
                "Play one part of the league, I of N (1-based): the deals d with d mod N = I-1, every leg of each; "
                "combine the folders with `referee league merge` (docs/distributed.md)");
  add_match_options(l, a.match);
  auto* m =
      l->add_subcommand("merge",
                        "Combine the folders of a league's shards (league --shard I/N) into one league folder with "
                        "its standings (docs/distributed.md)");
  m->add_option("shards", a.merge_shards, "The shard folders, each once, any order")->required();
  m->add_option("--out", a.merge_out, "The merged league's folder (new)")->required();
  m->add_flag("--partial", a.merge_partial,
              "Merge what there is (shards or matches missing): standings marked partial");
  add_share_output(m, a.match.share_output);
  return [args](const CLI::App& parsed) { return run_league(parsed, *args); };
}

namespace {

// `referee league merge`: exit 0 merged, 2 refused (the message says why).
int run_merge(const LeagueArgs& a) {
  league::MergeOptions o;
  for (const std::string& folder : a.merge_shards) o.shards.emplace_back(folder);
  o.out = a.merge_out;
  o.partial = a.merge_partial;
  o.share_output = a.match.share_output;
  auto merged = league::merge(o);
  if (!merged) {
    say("referee league merge: {}\n", terminal_safe(merged.error()));
    return kUsage;
  }
  std::vector<std::string> names;
  for (const auto& b : merged->spec.bots) names.push_back(b.name);
  league::LeagueFacts facts;
  facts.folder = a.merge_out;
  facts.seed = *merged->spec.seed;
  facts.seed_scheme = *merged->spec.seed_scheme;
  facts.total = merged->total;
  facts.journaled = merged->merged;
  if (merged->merged < merged->total) {
    league::Completion c;
    c.reason =
        merged->missing_shards.empty() ? league::PartialReason::merged_missing : league::PartialReason::merged_shards;
    c.shard = merged->missing_shards.size();
    c.shards = merged->shards.empty() ? 0 : static_cast<std::uint64_t>(merged->shards.front().shard.count);
    facts.partial = c;
  }
  auto standings = write_standings(names, facts, a.match.share_output);
  if (!standings) {
    say("referee league merge: {}\n", terminal_safe(standings.error()));
    return kInternal;
  }
  // Per shard, so that a slow or faulty machine stands out.
  json shards = json::array();
  std::string table =
      fmt::format("  {:>5} {:<24} {:>8} {:>12}  {}\n", "shard", "host", "matches", "median ms", "faults");
  for (const auto& s : merged->shards) {
    std::string faults;
    for (const auto& [kind, n] : s.faults) faults += fmt::format("{}{} {}", faults.empty() ? "" : ", ", n, kind);
    table += fmt::format("  {:>5} {:<24} {:>8} {:>12.3f}  {}\n", fmt::format("{}/{}", s.shard.index, s.shard.count),
                         terminal_safe(s.host.empty() ? std::string("?") : s.host), s.matches, s.median_decision_ms,
                         faults.empty() ? std::string("none") : faults);
    shards.push_back({{"shard", league::to_json(s.shard)},
                      {"folder", s.folder.string()},
                      {"host", s.host},
                      {"matches", s.matches},
                      {"faults", s.faults},
                      {"median_decision_ms", s.median_decision_ms}});
  }
  if (auto st = files::write_private(
          fs::path(a.merge_out) / "shards.json",
          json{{"shards", shards}, {"missing_shards", merged->missing_shards}}.dump(2) + "\n", a.match.share_output);
      !st) {
    say("referee league merge: {}\n", st.error());
    return kInternal;
  }
  say("referee league merge: {} of {} matches from {} shard folder{} into {}\n{}", merged->merged, merged->total,
      merged->shards.size(), merged->shards.size() == 1 ? "" : "s", a.merge_out, table);
  say("\n{}\n", league::standings_table(*standings));
  say("standings: {}/standings.json, standings.md, junit.xml; per shard: {}/shards.json\n", a.merge_out, a.merge_out);
  return kFinished;
}

}  // namespace

int run_league(const CLI::App& cmd, const LeagueArgs& a_in) {
  if (const auto m = cmd.get_subcommand_ptr("merge"); m && m->parsed()) return run_merge(a_in);
  StopSignal::install_handlers(stop_signal());  // before any bot starts: a stop is never lost
  LeagueArgs a = a_in;
  if (a.resume && a.out.empty()) {
    say("referee league: --resume needs --out, the league's folder\n");
    return kUsage;
  }
  if (a.out.empty()) a.out = (fs::path("logs") / ("league-" + timestamp())).string();
  std::optional<league::LeagueFile> recorded;  // --out's league.json, on a resume
  auto league = resolve_league(cmd, a, recorded);
  if (!league) {
    say("referee league: {}\n", terminal_safe(league.error()));  // may quote the league file
    return kUsage;
  }
  const league::LeagueSpec* spec = &league->spec;
  auto fail_on = parse_fail_on(a.fail_on);
  if (!fail_on) {
    say("referee league: {}\n", terminal_safe(fail_on.error()));
    return kUsage;
  }
  fail_on->fault = fail_on->fault || a.fail_on_fault;
  if (fail_on->sprt_h0 && !spec->sprt) {
    say("referee league: --fail-on sprt-h0 needs an SPRT (--sprt, or \"sprt\" in the league file)\n");
    return kUsage;
  }
  auto sandbox = sandbox_policy(a.match.sandbox, spec->bots.size());
  if (!sandbox) {
    say("referee league: {}\n", sandbox.error());
    return kUsage;
  }
  const bool bar = ::isatty(2) != 0;
  const auto started = std::chrono::steady_clock::now();
  std::mutex print_mu;
  league::RunOptions o;
  o.out = a.out;
  o.resume = a.resume;
  o.recorded = recorded ? &*recorded : nullptr;
  // The folder the league's commands are relative to: a resumed league's, from wherever it is resumed.
  o.working_dir = recorded && recorded->working_dir ? *recorded->working_dir : fs::current_path();
  o.env = bot_environment(o.working_dir, a.match.env);
  // From the league's working directory, which its bot commands are relative to.
  o.rerun = rerun_command(a.match, referee_path(), o.working_dir);
  o.sandbox = *sandbox;
  o.stop = &stop_signal();
  o.grace = std::chrono::milliseconds(a.match.grace_ms);
  o.shard = league->shard;
  o.share_output = a.match.share_output;
  o.reuse = a.reuse;
  o.affinity = a.affinity;
  std::uint64_t before = 0;
  bool first = true;
  std::vector<std::string> names;
  for (const auto& b : spec->bots) names.push_back(b.name);
  LiveScore live(names);
  std::optional<league::RoundLayout> layout;  // Swiss, knockout: each match's round
  if (league::plays_in_rounds(spec->format)) layout.emplace(*spec);
  if (a.rating_interval > 0 && a.resume) {
    // A resumed league's scores include the matches journaled before.
    auto read =
        league::stream_journal(fs::path(a.out) / "results.jsonl", [&](const league::MatchRecord& r) { live.add(r); });
    (void)read;  // an unreadable journal is reported by the run itself
  }
  o.on_match = [&](const league::MatchRecord& r, std::uint64_t done, std::uint64_t total) {
    if (first) {
      before = done - 1;
      first = false;
    }
    if (bar) say("\r\033[K");
    say_to(stdout, "{}\n", match_line(r, layout ? layout->round_of(r.index) + 1 : 0));
    live.add(r);
    if (a.rating_interval > 0 && (live.matches() % a.rating_interval == 0 || done == total))
      say_to(stdout, "{}", live.report());
    std::fflush(stdout);
    if (bar) {
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      const double rate = static_cast<double>(done - before) / std::max(elapsed, 1e-3);
      const int width = 30;
      const auto filled =
          static_cast<int>(static_cast<double>(width) * static_cast<double>(done) / static_cast<double>(total));
      say("[{}{}] {}/{}  {:.1f} matches/s  ETA {}", std::string(static_cast<std::size_t>(filled), '#'),
          std::string(static_cast<std::size_t>(width - filled), '.'), done, total, rate,
          duration_text(static_cast<double>(total - done) / std::max(rate, 1e-9)));
    }
  };
  o.on_sprt = [&](const league::SprtState& s) {
    say_to(stdout, "  sprt after {} {}: llr {:.3f} in [{:.3f}, {:.3f}]: {}{}\n", s.samples,
           spec->duplicate.value_or(false) ? "pairs" : "games", s.llr, s.lower, s.upper, league::to_string(s.decision),
           s.below_minimum ? fmt::format(" (no decision before {} samples)", s.min_samples) : std::string());
  };
  say("referee league: {} bots, {} matches of {} ({} seats{}){}, {} at a time, in {}\n", spec->bots.size(),
      league::Schedule(*spec).total(), spec->game, spec->seats,
      spec->duplicate.value_or(false) ? ", duplicate deals" : "",
      o.shard ? fmt::format(", shard {}/{}: the deals d with d mod {} = {}", o.shard->index, o.shard->count,
                            o.shard->count, o.shard->index - 1)
              : std::string(),
      spec->concurrency, a.out);
  auto outcome = league::run(*spec, o);
  if (bar) say("\n");
  if (!outcome) {
    say("referee league: {}\n", terminal_safe(outcome.error()));
    return kUsage;
  }
  if (!outcome->refused.empty()) {  // before 50 of its matches are recorded as faults
    say("referee league: {}; stopped after {} of {} matches (the journal is kept: --resume once the bot plays it)\n",
        terminal_safe(outcome->refused), outcome->journaled, outcome->total);
    return kUnsupportedGame;
  }
  league::LeagueFacts facts;
  facts.folder = a.out;
  facts.seed = outcome->seed;
  facts.seed_scheme = outcome->seed_scheme;
  facts.total = outcome->league_total;
  facts.journaled = outcome->journaled;
  facts.interrupted = outcome->interrupted;
  facts.shard = outcome->shard;
  league::LeagueSpec played = *spec;  // with the seed in force: a Swiss or knockout's rounds follow from it
  played.seed = outcome->seed;
  played.seed_scheme = outcome->seed_scheme;
  if (league::plays_in_rounds(spec->format)) facts.rounds_of = &played;
  if (outcome->sprt && spec->sprt) {
    facts.sprt = league::SprtVerdict{names.front(),         *spec->sprt,
                                     *outcome->sprt,        outcome->sprt_counted_matches,
                                     outcome->sprt_stopped, spec->duplicate.value_or(false)};
  }
  if (!outcome->error.empty() || outcome->interrupted || outcome->shard) {
    league::Completion c;
    c.reason = !outcome->error.empty() ? league::PartialReason::error
               : outcome->interrupted  ? league::PartialReason::interrupted
                                       : league::PartialReason::shard;
    if (outcome->shard) {
      c.shard = static_cast<std::uint64_t>(outcome->shard->index);
      c.shards = static_cast<std::uint64_t>(outcome->shard->count);
    }
    facts.partial = c;
  }
  auto standings = write_standings(names, facts, a.match.share_output);
  if (!standings) {
    say("referee league: {}\n", terminal_safe(standings.error()));
    return kInternal;
  }
  say("\n{}\n", league::standings_table(*standings));
  say("standings: {}/standings.json, standings.md, junit.xml; journal: {}/results.jsonl\n", a.out, a.out);
  if (outcome->seed_scheme == league::SeedScheme::keyed_v1) {
    say("league seed {} (keyed-v1, in league.json): --seed {} with the same bots and settings plays the same matches\n",
        outcome->seed, outcome->seed);
  } else {
    say("league seed {} (legacy derivation: a league started before keyed seeds)\n", outcome->seed);
  }
  if (!outcome->error.empty()) {
    say("referee league: stopped: {}\n", terminal_safe(outcome->error));
    return kInternal;
  }
  if (outcome->interrupted) {
    say("interrupted: {} of {} matches journaled; finish with:\n  {} league --resume --out {}\n", outcome->journaled,
        outcome->total, match::shell_quote(referee_path().string()), match::shell_quote(a.out));
    return interrupted_exit_code(stop_signal().signal());
  }
  const Verdict verdict = league_verdict(*fail_on, *standings, names.front());
  if (!verdict.reason.empty()) say("referee league: {} (exit {})\n", verdict.reason, verdict.exit_code);
  return verdict.exit_code;
}

}  // namespace arena::cli
