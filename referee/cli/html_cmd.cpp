#include "referee/cli/html_cmd.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "referee/cli/common.hpp"
#include "referee/core/markup.hpp"
#include "referee/core/private_file.hpp"
#include "referee/ladder/compress.hpp"
#include "referee/league/folder.hpp"
#include "referee/league/journal.hpp"
#include "referee/render/html.hpp"
#include "referee/render/league_page.hpp"
#include "referee/replay/replay.hpp"

namespace arena::cli {

namespace fs = std::filesystem;

namespace {

// Whether the first line of `file` is a replay's header (version 1 and 2 alike: "type":"header");
// a link, a FIFO or anything but a regular file is not.
bool is_replay(const fs::path& file) {
  auto in = files::open_read(file);
  if (!in) return false;
  std::string head(64 * 1024, '\0');
  (*in)->read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(std::max<std::streamsize>((*in)->gcount(), 0)));
  return head.substr(0, head.find('\n')).find(R"("type":"header")") != std::string::npos;
}

// The newest replay in `dir`/replays (a league's) or `dir` itself (logs/, validate's); empty if
// there is none. Only the newest files are opened, at most 64 of them.
fs::path newest_replay(const fs::path& dir) {
  std::vector<std::pair<fs::file_time_type, fs::path>> files;
  for (const fs::path& folder : {dir / "replays", dir}) {
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
      std::error_code stat;
      if (it->path().extension() == ".jsonl" && fs::is_regular_file(it->symlink_status(stat))) {
        files.emplace_back(it->last_write_time(stat), it->path());
      }
    }
  }
  std::sort(files.begin(), files.end(),
            [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
  for (std::size_t i = 0; i < files.size() && i < 64; ++i) {
    if (is_replay(files[i].second)) return files[i].second;
  }
  return {};
}

using nlohmann::json;

// `target` as a link from a page in `base` (absolute, normalized): relative, '/'-separated.
std::string link_from(const fs::path& base, const fs::path& target) {
  const fs::path abs = fs::absolute(target).lexically_normal();
  const fs::path rel = abs.lexically_relative(base);
  return (rel.empty() ? abs : rel).generic_string();
}

// `referee html LEAGUE_FOLDER`: the viewer pages of up to a.match_pages matches (faulted ones
// first, then by index), then the league page linking them.
int run_league_html(const HtmlArgs& a) {
  auto opened = league::LeagueFolder::open(a.replay);
  if (!opened) {
    say("referee html: {}\n", terminal_safe(opened.error()));
    return kBadReplay;
  }
  const league::LeagueFolder& folder = *opened;
  const fs::path out = a.out.empty() ? folder.file("league.html") : fs::path(a.out);
  for (const char* kept : {league::kLeagueFile, league::kJournalFile, league::kStandingsJson}) {
    std::error_code ec;
    if (fs::equivalent(out, folder.file(kept), ec)) {
      say("referee html: the page {} would overwrite the league's {}; give another -o\n", out.string(), kept);
      return kUsage;
    }
  }
  // Every file of the folder is read beneath it, never through a link (league/folder.hpp).
  const auto refused = [](const std::string& error) {
    say("referee html: {}\n", terminal_safe(error));
    return kBadReplay;
  };
  render::LeaguePage page;
  page.name = fs::absolute(folder.path()).lexically_normal().filename().string();
  if (page.name.empty()) page.name = fs::absolute(folder.path()).lexically_normal().parent_path().filename().string();
  auto league_file = folder.read_json(league::kLeagueFile);
  if (!league_file) return refused(league_file.error());
  page.league = std::move(league_file).value();
  page.page_limit = a.match_pages;

  std::vector<league::MatchRecord> records;
  auto read = league::stream_journal(folder.journal_path(), [&](const league::MatchRecord& r) {
    records.push_back(r);
    for (league::SeatRecord& s : records.back().seats) s.decision_ms = {};
  });
  if (!read) return refused(read.error());
  std::stable_sort(records.begin(), records.end(), [](const auto& x, const auto& y) { return x.index < y.index; });

  auto standings = folder.read_json(league::kStandingsJson);
  if (!standings) return refused(standings.error());
  page.standings = std::move(standings).value();
  if (!page.standings.is_object()) {
    auto computed = league::standings_from_journal(folder.journal_path(), league::bot_names(page.league));
    if (!computed) return refused(fmt::format("standings: {}", computed.error()));
    // A Swiss or knockout league's rounds, from its league.json checked as a league would be.
    if (auto recorded = league::read_league_file(folder.path());
        recorded && league::plays_in_rounds(recorded->spec.format)) {
      auto spec = league::normalize(recorded->spec);
      if (!spec) return refused(fmt::format("{}: {}", recorded->file.string(), spec.error()));
      if (auto st = folder.add_rounds(*computed, *spec); !st) return refused(st.error());
    }
    page.standings = league::standings_json(*computed);
    page.standings_from_journal = true;
  }

  // Which matches get a viewer page: the faulted ones first, then the others in index order.
  std::vector<bool> gets_page(records.size(), false);
  std::size_t chosen = 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (std::size_t i = 0; i < records.size() && chosen < a.match_pages; ++i) {
      if (gets_page[i] || (pass == 0 && !records[i].fault)) continue;
      gets_page[i] = true;
      ++chosen;
    }
  }
  const fs::path base = fs::absolute(out).lexically_normal().parent_path();
  std::size_t written = 0;
  std::size_t failed = 0;
  std::string first_error;
  const auto failure = [&](const std::string& error) {
    if (failed++ == 0) first_error = error;
  };
  for (std::size_t i = 0; i < records.size(); ++i) {
    json m = league::page_match(records[i]);
    auto replay_path = folder.replay_of(records[i]);  // replays/NAME inside the folder, or refused
    if (!replay_path) {
      failure(replay_path.error());
    } else if (*replay_path) {
      const fs::path& relative = **replay_path;
      m["replay"] = link_from(base, folder.path() / relative);
      if (gets_page[i]) {
        const fs::path viewer = fs::path(relative).replace_extension(".html");
        auto text = folder.dir().read(relative);
        auto replay = text ? replay::parse_text(*text) : Result<replay::Replay>(fail(text.error()));
        auto html = replay ? render::html_page(*replay, relative.filename().string())
                           : Result<std::string>(fail(replay.error()));
        auto saved = html ? folder.write(viewer, *html, a.share_output) : Status(fail(html.error()));
        if (saved) {
          m["page"] = link_from(base, folder.path() / viewer);
          ++written;
        } else {
          failure(fmt::format("{}: {}", (folder.path() / relative).string(), saved.error()));
        }
      }
    }
    page.matches.push_back(std::move(m));
  }
  std::vector<league::MatchRecord>().swap(records);

  auto text = render::league_page(page);
  if (!text) return refused(text.error());
  // The page replaces whatever is at its path (a link planted there is replaced, not followed).
  if (auto saved = a.out.empty() ? folder.write("league.html", *text, a.share_output)
                                 : files::write_private(out, *text, a.share_output);
      !saved) {
    say("referee html: {}\n", saved.error());
    return kUsage;
  }
  if (failed > 0)
    say("referee html: {} match page(s) not written, the first: {}\n", failed, terminal_safe(first_error));
  say("referee html: league {}: {} matches, {} viewer pages -> {}\n", terminal_safe(folder.path().string()),
      page.matches.size(), written, terminal_safe(out.string()));
  say_to(stdout, "{}\n", out.string());
  return failed > 0 ? kBadReplay : kFinished;
}

}  // namespace

bool is_league_folder(const fs::path& dir) {
  auto folder = league::LeagueFolder::open(dir);
  // By name (a link there too): reading the league then refuses what may not be read.
  return folder && folder->has(league::kLeagueFile) && folder->has(league::kJournalFile);
}

std::optional<replay::Replay> read_replay_argument(const fs::path& path, std::string_view command, int& exit) {
  if (auto st = replay_file_argument(path, command); !st) {
    say("referee {}: {}\n", command, st.error());
    exit = kUsage;
    return std::nullopt;
  }
  // A ladder's replay (replays/<match>-<leg>.jsonl.zst): one zstd frame, decompressed under the
  // store's cap; read like any file from a stranger.
  auto replay = [&]() -> Result<replay::Replay> {
    if (path.extension() != ".zst") return replay::read(path);
    auto packed = files::read_file(path);
    if (!packed) return fail(packed.error());
    auto text = ladder::decompress(reinterpret_cast<const std::uint8_t*>(packed->data()), packed->size(),
                                   ladder::kMaxReplayBytes);
    if (!text) return fail(fmt::format("{}: {}", path.string(), text.error()));
    return replay::parse_text(*text);
  }();
  if (!replay) {
    say("referee {}: {}\n", command, replay.error());
    exit = kBadReplay;
    return std::nullopt;
  }
  return std::move(replay).value();
}

Status replay_file_argument(const fs::path& replay, std::string_view command) {
  std::error_code ec;
  if (!fs::is_directory(replay, ec)) return {};
  const std::string folder = terminal_safe(replay.string());
  const fs::path newest = newest_replay(replay);
  if (newest.empty()) {
    return fail(
        fmt::format("REPLAY: {} is a folder; {} wants a replay file (.jsonl), and this folder holds none "
                    "(no replays/*.jsonl or *.jsonl with a replay header)",
                    folder, command));
  }
  return fail(
      fmt::format("REPLAY: {} is a folder; {} wants a replay file (.jsonl), e.g. the newest in it: referee {} {}",
                  folder, command, command, terminal_safe(newest.string())));
}

RunCommand add_html(CLI::App& command) {
  auto args = std::make_shared<HtmlArgs>();
  HtmlArgs& a = *args;
  CLI::App* h = &command;
  h->add_option("replay", a.replay, "Replay file (.jsonl), or a league's folder (its page, linking every match)")
      ->required();
  h->add_option("-o,--out", a.out,
                "Page to write (default: the replay's path with .html; a league's: FOLDER/league.html)");
  h->add_option("--match-pages", a.match_pages,
                "A league's folder: write the viewer page of at most this many matches (faulted ones first, then "
                "by index); the others link to their replay")
      ->default_val(kDefaultMatchPages);
  add_share_output(h, a.share_output);
  return [args](const CLI::App&) { return run_html(*args); };
}

int run_html(const HtmlArgs& a) {
  const fs::path replay_path = a.replay;
  std::error_code dir_ec;
  if (fs::is_directory(replay_path, dir_ec)) {
    if (fs::is_symlink(replay_path.string().substr(0, replay_path.string().find_last_not_of('/') + 1), dir_ec)) {
      // A folder from someone else is read as itself, never through a link (docs/security.md).
      say("referee html: {} is a symbolic link to a folder; give the folder itself\n",
          terminal_safe(replay_path.string()));
      return kBadReplay;
    }
    if (is_league_folder(replay_path)) return run_league_html(a);
  }
  int exit = kFinished;
  auto replay = read_replay_argument(replay_path, "html", exit);
  if (!replay) return exit;
  const fs::path out = a.out.empty() ? fs::path(replay_path).replace_extension(".html") : fs::path(a.out);
  std::error_code ec;
  if (fs::equivalent(out, replay_path, ec)) {
    say("referee html: the page {} would overwrite the replay; give another -o\n", out.string());
    return kUsage;
  }
  auto page = render::html_page(*replay, replay_path.filename().string());
  if (!page) {
    say("referee html: {}: {}\n", replay_path.string(), page.error());
    return kBadReplay;
  }
  // 0600 like every file the referee writes; 0644 with --share-output (no bot runs here).
  if (auto written = files::write_private(out, *page, a.share_output); !written) {
    say("referee html: {}\n", written.error());
    return kUsage;
  }
  say("referee html: {} steps of {} -> {}\n", replay->steps.size(), replay_path.string(), out.string());
  say_to(stdout, "{}\n", out.string());
  return kFinished;
}

}  // namespace arena::cli
