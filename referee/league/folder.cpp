#include "referee/league/folder.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <utility>

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

Result<LeagueFolder> LeagueFolder::open(const fs::path& dir) {
  auto opened = files::Dir::open(dir);
  if (!opened) return fail(opened.error());
  return LeagueFolder(std::move(opened).value());
}

bool LeagueFolder::is_league() const {
  return dir_.is_file(kLeagueFile) && dir_.is_file(kJournalFile);
}

Result<std::optional<json>> LeagueFolder::read_json(const char* name) const {
  if (!dir_.exists(name)) return std::optional<json>();
  auto text = dir_.read(name);
  if (!text) return fail(text.error());
  json j = json::parse(*text, nullptr, false);
  if (j.is_discarded()) return fail(fmt::format("{} is not JSON", file(name).string()));
  return std::optional<json>(std::move(j));
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

Status LeagueFolder::write_standings(const json& summary, const Standings& standings, bool share) const {
  for (const auto& [name, text] :
       {std::pair{kStandingsJson, summary.dump(2) + "\n"}, std::pair{kStandingsMarkdown, standings_markdown(standings)},
        std::pair{kJunitFile, junit_xml(standings, "stellar-arena league")}}) {
    if (auto written = write(name, text, share); !written) return fail(written.error());
  }
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
  if (r.fault) fault = {{"seat", r.fault->seat}, {"kind", r.fault->kind}, {"message", r.fault->message}};
  return {{"index", r.index},
          {"deal", r.deal},
          {"leg", r.leg},
          {"seed", r.seed},
          {"end", replay::end_name(r.end)},
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
