// `referee ladder status` (the leaderboard, the queue, the workers, the last matches and events)
// and `referee ladder export` (the ladder as a league folder, for every league tool).
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "referee/cli/ladder_cmd.hpp"
#include "referee/core/markup.hpp"
#include "referee/core/private_file.hpp"
#include "referee/ladder/leaderboard.hpp"
#include "referee/ladder/roster.hpp"
#include "referee/league/deal.hpp"
#include "referee/league/folder.hpp"
#include "referee/league/journal.hpp"
#include "referee/league/record.hpp"
#include "referee/replay/replay.hpp"

namespace arena::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string age_text(std::int64_t then_ms, std::int64_t now_ms) {
  if (then_ms <= 0) return "-";
  const std::int64_t s = std::max<std::int64_t>(0, (now_ms - then_ms) / 1000);
  if (s < 120) return fmt::format("{}s ago", s);
  if (s < 7200) return fmt::format("{}m ago", s / 60);
  if (s < 172800) return fmt::format("{}h ago", s / 3600);
  return fmt::format("{}d ago", s / 86400);
}

std::string record_text(const ladder::VersionRating& r) {
  if (r.games == 0) return "-";
  if (r.places.empty()) return fmt::format("{}/{}/{}", r.wins, r.draws, r.losses);
  std::string out;
  for (std::uint64_t n : r.places) out += (out.empty() ? "" : "/") + std::to_string(n);
  return out;
}

std::string rating_text(const ladder::VersionRating& r) {
  if (r.games == 0) return "placing";
  if (!r.rated) return fmt::format("{:+.0f} (few games)", r.rating);
  return fmt::format("{:+.0f} [{:+.0f}, {:+.0f}]", r.rating, r.low, r.high);
}

}  // namespace

void print_leaderboard(ladder::Store& store, const ladder::LadderConfig& config, ladder::Leaderboard& board) {
  auto versions = store.versions();
  if (!versions) {
    say("referee ladder: {}\n", versions.error());
    return;
  }
  const std::int64_t now = league::unix_ms();
  const auto rows = board.rows(*versions);
  say_to(stdout, "{} ({} seats a table): {} active version{}, {} games counted\n", config.game, config.seats,
         rows.size(), rows.size() == 1 ? "" : "s", board.games());
  say_to(stdout, "{:>4}  {:<28} {:<14} {:<26} {:>6} {:<14} {:>6} {:>6}  {}\n", "rank", "bot", "author",
         "rating (Elo, 95%)", "games", config.seats == 2 ? "W/D/L" : "places", "points", "faults", "last game");
  for (const ladder::BoardRow& r : rows) {
    say_to(stdout, "{:>4}  {:<28} {:<14} {:<26} {:>6} {:<14} {:>6.3f} {:>6}  {}\n", r.rank,
           terminal_safe(ladder::version_label(r.version)), terminal_safe(r.version.author), rating_text(r.rating),
           r.rating.games, record_text(r.rating), r.rating.points, r.faults, age_text(r.last_game_ms, now));
  }
}

int run_ladder_status(const LadderArgs& a) {
  int exit = kFinished;
  auto opened = open_ladder(a, "status", exit);
  if (!opened) return exit;
  ladder::Leaderboard board;
  if (auto st = board.load(*opened->store); !st) return ladder_fails("status", kDatabase, st.error());
  print_leaderboard(*opened->store, opened->config, board);
  const std::int64_t now = league::unix_ms();
  std::string queue;
  for (ladder::MatchState s : {ladder::MatchState::queued, ladder::MatchState::running, ladder::MatchState::reported,
                               ladder::MatchState::counted}) {
    auto n = opened->store->count_matches(s);
    if (!n) return ladder_fails("status", kDatabase, n.error());
    queue += fmt::format("{}{} {}", queue.empty() ? "" : ", ", *n, enum_name(s));
  }
  say_to(stdout, "\nmatches: {}\n", queue);
  auto versions = opened->store->versions();
  if (!versions) return ladder_fails("status", kDatabase, versions.error());
  std::map<ladder::Id, std::string> labels;
  std::map<ladder::VersionState, int> states;
  for (const ladder::VersionRow& v : *versions) {
    labels[v.id] = ladder::version_label(v);
    ++states[v.state];
  }
  std::string versions_line;
  for (const auto& [state, n] : states)
    versions_line += fmt::format("{}{} {}", versions_line.empty() ? "" : ", ", n, enum_name(state));
  say_to(stdout, "versions: {}\n", versions_line.empty() ? "none yet" : versions_line);
  auto workers = opened->store->workers();
  if (!workers) return ladder_fails("status", kDatabase, workers.error());
  say_to(stdout, "workers: {}\n", workers->empty() ? "none" : "");
  for (const ladder::WorkerRow& w : *workers) {
    say_to(stdout, "  {:<32} last seen {:<10} {}\n", terminal_safe(w.name), age_text(w.heartbeat_ms, now),
           w.match ? fmt::format("playing match {}", *w.match) : std::string("idle"));
  }
  auto recent = opened->store->matches(ladder::MatchState::counted, a.recent);
  if (!recent) return ladder_fails("status", kDatabase, recent.error());
  if (!recent->empty()) say_to(stdout, "last matches:\n");
  for (const ladder::MatchRow& m : *recent) {
    std::string table;
    for (ladder::Id id : m.seats) table += (table.empty() ? "" : " vs ") + terminal_safe(labels[id]);
    say_to(stdout, "  match {:<8} {} ({} leg{}, {})\n", m.id, table, m.legs, m.legs == 1 ? "" : "s",
           age_text(m.finished_ms, now));
  }
  auto events = opened->store->events(a.recent);
  if (!events) return ladder_fails("status", kDatabase, events.error());
  if (!events->empty()) say_to(stdout, "events:\n");
  for (const ladder::EventRow& e : *events) {
    say_to(stdout, "  {:<10} {:<9} {}\n", age_text(e.at_ms, now), enum_name(e.kind), terminal_safe(e.message));
  }
  return kFinished;
}

// ---- export ------------------------------------------------------------------------------------

namespace {

// A counted game as a league's journal record, from its replay (typed at this edge: the footer's
// result, the steps' times).
Result<league::MatchRecord> game_record(const ladder::GameRow& g, std::uint64_t index, const std::string& text,
                                        const std::map<ladder::Id, std::string>& labels) {
  auto parsed = replay::parse_text(text);
  if (!parsed) return fail(fmt::format("match {} leg {}: its replay: {}", g.match, g.leg, parsed.error()));
  league::MatchRecord r;
  r.index = index;
  r.deal = static_cast<std::uint64_t>(g.match);
  r.leg = g.leg;
  r.seed = g.seed;
  r.end = g.end;
  for (std::size_t s = 0; s < g.seats.size(); ++s) {
    league::SeatRecord seat;
    const auto label = labels.find(g.seats[s]);
    seat.bot = label == labels.end() ? std::to_string(g.seats[s]) : label->second;
    if (s < g.scores.size()) seat.score = g.scores[s];
    if (s < g.ranks.size()) seat.rank = g.ranks[s];
    for (const replay::Step& step : parsed->steps) {
      if (static_cast<std::size_t>(step.seat) == s) seat.decision_ms.push_back(step.time_ms);
    }
    r.seats.push_back(std::move(seat));
  }
  if (g.fault_seat && g.fault_kind) {
    league::FaultRecord f;
    f.seat = *g.fault_seat;
    f.kind = *g.fault_kind;
    f.message = g.fault_message;
    r.fault = f;
  }
  r.replay = league::replay_name(index).string();
  r.start_unix_ms = g.end_ms;
  r.end_unix_ms = g.end_ms;
  return r;
}

}  // namespace

int run_ladder_export(const LadderArgs& a) {
  int exit = kFinished;
  auto opened = open_ladder(a, "export", exit);
  if (!opened) return exit;
  std::error_code ec;
  if (fs::exists(a.out, ec) && !fs::is_empty(a.out, ec)) {
    say("referee ladder export: {} exists and is not empty; give a new folder\n", a.out);
    return kUsage;
  }
  if (auto made = files::make_private_dirs(fs::path(a.out) / league::kReplaysDir); !made)
    return ladder_fails("export", kUsage, made.error());
  auto folder = league::LeagueFolder::open(a.out);
  if (!folder) return ladder_fails("export", kUsage, folder.error());
  auto versions = opened->store->versions();
  if (!versions) return ladder_fails("export", kDatabase, versions.error());
  std::map<ladder::Id, std::string> labels;
  league::LeagueSpec spec;
  spec.game = opened->config.game;
  spec.config = opened->config.config;
  spec.seats = opened->config.seats;
  spec.duplicate = opened->config.duplicate;
  spec.limits = opened->config.limits;
  spec.time_scale = opened->config.time_scale;
  spec.seed = 0;
  std::vector<std::string> names;
  for (const ladder::VersionRow& v : *versions) {
    labels[v.id] = ladder::version_label(v);
    if (v.state != ladder::VersionState::active && v.state != ladder::VersionState::retired) continue;
    auto command = match::BotCommand::parse(v.command);
    if (!command) {
      say("referee ladder export: version {} ({}): its run command: {}\n", v.id, labels[v.id], command.error());
      return kDatabase;
    }
    names.push_back(labels[v.id]);
    spec.bots.emplace_back(std::move(*command), labels[v.id]);
  }
  auto journal = files::open_private(folder->journal_path());
  if (!journal) return ladder_fails("export", kUsage, journal.error());
  std::uint64_t index = 0;
  ladder::Id after = 0;
  for (;;) {
    auto games = opened->store->games(1000, after);
    if (!games) return ladder_fails("export", kDatabase, games.error());
    for (const ladder::GameRow& g : *games) {
      after = g.id;
      auto text = opened->store->replay(g.match, g.leg);
      if (!text) return ladder_fails("export", kDatabase, text.error());
      auto record = game_record(g, index, *text, labels);
      if (!record) return ladder_fails("export", kBadReplay, record.error());
      if (auto st = folder->write(league::replay_name(index), *text, false); !st)
        return ladder_fails("export", kUsage, st.error());
      **journal << league::journal_line(*record) << '\n';
      ++index;
    }
    if (games->size() < 1000) break;
  }
  journal->reset();
  spec.deals = std::max<std::uint64_t>(1, index);
  if (auto st = folder->write(league::kLeagueFile, league::to_json(spec).dump(2) + "\n", false); !st)
    return ladder_fails("export", kUsage, st.error());
  league::LeagueFacts facts;
  facts.folder = folder->path().string();
  facts.total = index;
  facts.journaled = index;
  auto standings = folder->write_standings(names, facts, false);
  if (!standings) return ladder_fails("export", kUsage, standings.error());
  say_to(stdout,
         "{}: {} games of {} versions as a league folder (standings.json, standings.md, junit.xml, replays/); "
         "`referee html {}` draws it\n",
         a.out, index, names.size(), a.out);
  return kFinished;
}

}  // namespace arena::cli
