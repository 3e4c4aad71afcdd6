#include "referee/league/folder.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <utility>

#include "referee/league/journal.hpp"
#include "referee/league/rounds.hpp"
#include "referee/league/seeds.hpp"

namespace arena::league {

namespace fs = std::filesystem;
using nlohmann::json;

std::string match_stem(std::uint64_t index) {
  return fmt::format("m{:06}", index);
}

fs::path replay_name(std::uint64_t index) {
  return fs::path(kReplaysDir) / (match_stem(index) + ".jsonl");
}

fs::path log_name(std::uint64_t index, std::size_t seat) {
  return fs::path(kLogsDir) / fmt::format("{}.seat{}.stderr.log", match_stem(index), seat);
}

Status check_not_link(const fs::path& dir) {
  std::string text = dir.string();
  while (text.size() > 1 && text.back() == '/') text.pop_back();
  std::error_code ec;
  if (fs::is_symlink(text, ec))
    return fail(fmt::format("the league folder {} is a symbolic link; give the folder itself", dir.string()));
  return {};
}

Result<LeagueFolder> LeagueFolder::open(const fs::path& dir) {
  auto opened = files::Dir::open(dir);
  if (!opened) return fail(opened.error());
  return LeagueFolder(std::move(opened).value());
}

Result<json> LeagueFolder::read_json(const char* name) const {
  if (!dir_.exists(name)) return json(nullptr);
  auto text = dir_.read(name);
  if (!text) return fail(text.error());
  json j = json::parse(*text, nullptr, false);
  return j.is_discarded() ? json(nullptr) : j;
}

Result<std::optional<fs::path>> LeagueFolder::replay_of(const MatchRecord& record) const {
  if (record.replay.empty()) return std::optional<fs::path>();
  const fs::path recorded = record.replay;
  const fs::path name = recorded.filename();
  const bool in_replays = recorded.has_parent_path() && recorded.parent_path().filename() == kReplaysDir;
  if (!in_replays || name.extension() != ".jsonl" || !files::check_inside(name)) {
    return fail(
        fmt::format("{}: match {} names the replay \"{}\", which is not a replays/*.jsonl file of the league "
                    "folder; only files inside the folder are read",
                    journal_path().string(), record.index, record.replay));
  }
  const fs::path relative = fs::path(kReplaysDir) / name;
  if (!dir_.exists(relative)) return std::optional<fs::path>();
  if (!dir_.is_file(relative)) {
    return fail(fmt::format("{}: match {}'s replay {} is a link or not a regular file; it is not read",
                            journal_path().string(), record.index, file(relative.c_str()).string()));
  }
  return std::optional<fs::path>(relative);
}

Status LeagueFolder::write(const fs::path& relative, std::string_view text, bool share) const {
  return dir_.write(relative, text, share);
}

Result<Standings> LeagueFolder::write_standings(const std::vector<std::string>& names, const LeagueFacts& f,
                                                bool share) const {
  // From the journal, streamed in index order: no record is held, however long the league. A
  // decided SPRT counts whole blocks of deals; the matches other workers finished after the
  // deciding block are in the journal, not in the standings (the same at any --concurrency).
  const bool sprt_decided = f.sprt && f.sprt->state.decision != SprtState::Decision::none;
  const std::uint64_t counted = sprt_decided ? f.sprt->counted_matches : UINT64_MAX;
  auto computed = standings_from_journal(journal_path(), names, counted);
  if (!computed) return fail(fmt::format("standings: {}", computed.error()));
  Standings& standings = *computed;
  if (f.partial) standings.completion = *f.partial;
  standings.completion.partial = f.partial.has_value();
  standings.completion.journaled = f.journaled;
  standings.completion.total = f.total;
  if (sprt_decided) standings.not_counted = f.journaled - std::min(f.journaled, counted);
  standings.sprt = f.sprt;
  if (f.rounds_of != nullptr) {
    if (auto st = add_rounds(standings, *f.rounds_of); !st) return fail(fmt::format("standings: {}", st.error()));
  }
  json summary = standings_json(standings);
  summary["league"] = {{"folder", f.folder},
                       {"seed", f.seed},
                       {"seed_scheme", enum_name(f.seed_scheme)},
                       {"matches_total", f.total},
                       {"matches_done", f.journaled},
                       {"interrupted", f.interrupted},
                       {"sprt", nullptr}};
  if (f.shard) summary["league"]["shard"] = to_json(*f.shard);
  if (f.sprt) {
    const auto& s = f.sprt->state;
    summary["league"]["sprt"] = {{"bot", f.sprt->bot},
                                 {"elo0", f.sprt->config.elo0},
                                 {"elo1", f.sprt->config.elo1},
                                 {"alpha", f.sprt->config.alpha},
                                 {"beta", f.sprt->config.beta},
                                 {"llr", s.llr},
                                 {"lower", s.lower},
                                 {"upper", s.upper},
                                 {"decision", to_string(s.decision)},
                                 {"block_deals", kSprtBlockDeals},
                                 {"counted_matches", f.sprt->counted_matches},
                                 {"stopped_early", f.sprt->stopped_early}};
  }
  for (const auto& [name, text] :
       {std::pair{kStandingsJson, summary.dump(2) + "\n"}, std::pair{kStandingsMarkdown, standings_markdown(standings)},
        std::pair{kJunitFile, junit_xml(standings, "stellar-arena league")}}) {
    if (auto written = write(name, text, share); !written) return fail(written.error());
  }
  return std::move(standings);
}

Status LeagueFolder::add_rounds(Standings& standings, const LeagueSpec& spec) const {
  if (!plays_in_rounds(spec.format)) return {};
  auto report = rounds_report_from_journal(spec, journal_path());
  if (!report) return fail(report.error());
  std::vector<BotStanding> ordered;
  for (const std::string& name : report->order) {
    const auto it = std::find_if(standings.bots.begin(), standings.bots.end(),
                                 [&](const BotStanding& b) { return b.name == name; });
    if (it == standings.bots.end()) continue;
    ordered.push_back(std::move(*it));
    standings.bots.erase(it);
  }
  for (BotStanding& b : standings.bots) ordered.push_back(std::move(b));  // names the journal added
  standings.bots = std::move(ordered);
  standings.rounds = std::move(report).value();
  return {};
}

Result<bool> LeagueFolder::bring(const fs::path& relative, const fs::path& to) const {
  if (!dir_.exists(relative)) return false;
  auto fd = dir_.open_regular(relative);
  if (!fd) return fail(fd.error());
  // The very file checked above, linked by its descriptor (needs CAP_DAC_READ_SEARCH), else copied.
  const int linked = ::linkat(*fd, "", AT_FDCWD, to.c_str(), AT_EMPTY_PATH);
  ::close(*fd);
  if (linked == 0) return true;
  auto text = dir_.read(relative);
  if (!text) return fail(text.error());
  if (auto st = files::write_private(to, *text); !st) return fail(st.error());
  return true;
}

json page_match(const MatchRecord& r) {
  json seats = json::array();
  for (const SeatRecord& s : r.seats) seats.push_back({{"bot", s.bot}, {"score", s.score}, {"rank", s.rank}});
  json fault = nullptr;
  if (r.fault) fault = {{"seat", r.fault->seat}, {"kind", enum_name(r.fault->kind)}, {"message", r.fault->message}};
  return {{"index", r.index},
          {"deal", r.deal},
          {"leg", r.leg},
          {"seed", std::to_string(r.seed)},  // text: JavaScript's numbers end at 2^53
          {"end", enum_name(r.end)},
          {"seats", std::move(seats)},
          {"fault", std::move(fault)},
          {"replay", nullptr},
          {"page", nullptr}};
}

std::vector<std::string> bot_names(const json& league_file) {
  std::vector<std::string> names;
  if (!league_file.is_object()) return names;
  const auto bots = league_file.find("bots");
  if (bots == league_file.end() || !bots->is_array()) return names;
  for (const json& b : *bots) {
    if (!b.is_object()) continue;
    const auto name = b.find("name");
    if (name != b.end() && name->is_string()) names.push_back(name->get<std::string>());
  }
  return names;
}

}  // namespace arena::league
