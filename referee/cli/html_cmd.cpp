#include "referee/cli/html_cmd.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "referee/cli/common.hpp"
#include "referee/core/markup.hpp"
#include "referee/core/private_file.hpp"
#include "referee/league/journal.hpp"
#include "referee/render/html.hpp"
#include "referee/render/league_page.hpp"
#include "referee/replay/replay.hpp"

namespace arena::cli {

namespace fs = std::filesystem;

namespace {

// Whether the first line of `file` is a replay's header (version 1 and 2 alike: "type":"header").
bool is_replay(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::string head(64 * 1024, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(std::max<std::streamsize>(in.gcount(), 0)));
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
      if (it->path().extension() == ".jsonl" && it->is_regular_file(stat)) {
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

// A JSON file, or null when it is missing or not valid JSON.
json read_json_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return nullptr;
  json j = json::parse(in, nullptr, false);
  return j.is_discarded() ? json(nullptr) : j;
}

// `target` as a link from a page in `base` (absolute, normalized): relative, '/'-separated.
std::string link_from(const fs::path& base, const fs::path& target) {
  const fs::path abs = fs::absolute(target).lexically_normal();
  const fs::path rel = abs.lexically_relative(base);
  return (rel.empty() ? abs : rel).generic_string();
}

// The match as the league page lists it (league_page.hpp): no decision times, no excerpts.
json match_json(const league::MatchRecord& r) {
  json seats = json::array();
  for (const league::SeatRecord& s : r.seats) seats.push_back({{"bot", s.bot}, {"score", s.score}, {"rank", s.rank}});
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

// The replay of a journaled match: in the folder's replays/ (so a moved league still finds it),
// else where the journal says; empty when neither exists.
fs::path replay_of(const fs::path& folder, const league::MatchRecord& r) {
  std::error_code ec;
  const fs::path local = folder / "replays" / fs::path(r.replay).filename();
  if (!r.replay.empty() && fs::is_regular_file(local, ec)) return local;
  if (!r.replay.empty() && fs::is_regular_file(r.replay, ec)) return r.replay;
  return {};
}

// `referee html LEAGUE_FOLDER`: the viewer pages of up to a.match_pages matches (faulted ones
// first, then by index), then the league page linking them.
int run_league_html(const HtmlArgs& a) {
  const fs::path folder = a.replay;
  const fs::path out = a.out.empty() ? folder / "league.html" : fs::path(a.out);
  for (const char* kept : {"league.json", "results.jsonl", "standings.json"}) {
    std::error_code ec;
    if (fs::equivalent(out, folder / kept, ec)) {
      say("referee html: the page {} would overwrite the league's {}; give another -o\n", out.string(), kept);
      return kUsage;
    }
  }
  render::LeaguePage page;
  page.name = fs::absolute(folder).lexically_normal().filename().string();
  if (page.name.empty()) page.name = fs::absolute(folder).lexically_normal().parent_path().filename().string();
  page.league = read_json_file(folder / "league.json");
  page.page_limit = a.match_pages;

  std::vector<league::MatchRecord> records;
  auto read = league::stream_journal(folder / "results.jsonl", [&](const league::MatchRecord& r) {
    records.push_back(r);
    for (league::SeatRecord& s : records.back().seats) s.decision_ms = {};
  });
  if (!read) {
    say("referee html: {}\n", read.error());
    return kBadReplay;
  }
  std::stable_sort(records.begin(), records.end(), [](const auto& x, const auto& y) { return x.index < y.index; });

  page.standings = read_json_file(folder / "standings.json");
  if (!page.standings.is_object()) {
    std::vector<std::string> names;
    if (page.league.is_object() && page.league.contains("bots") && page.league["bots"].is_array()) {
      for (const json& b : page.league["bots"]) {
        if (b.is_object() && b.contains("name") && b["name"].is_string()) names.push_back(b["name"].get<std::string>());
      }
    }
    auto computed = league::standings_from_journal(folder / "results.jsonl", names);
    if (!computed) {
      say("referee html: standings: {}\n", computed.error());
      return kBadReplay;
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
  for (std::size_t i = 0; i < records.size(); ++i) {
    json m = match_json(records[i]);
    const fs::path replay_path = replay_of(folder, records[i]);
    if (!replay_path.empty()) m["replay"] = link_from(base, replay_path);
    if (gets_page[i] && !replay_path.empty()) {
      const fs::path viewer = fs::path(replay_path).replace_extension(".html");
      auto replay = replay::read(replay_path);
      auto html = replay ? render::html_page(*replay, replay_path.filename().string())
                         : Result<std::string>(fail(replay.error()));
      auto saved = html ? files::write_private(viewer, *html, a.share_output) : Status(fail(html.error()));
      if (saved) {
        m["page"] = link_from(base, viewer);
        ++written;
      } else if (failed++ == 0) {
        first_error = fmt::format("{}: {}", replay_path.string(), saved.error());
      }
    }
    page.matches.push_back(std::move(m));
  }
  std::vector<league::MatchRecord>().swap(records);

  auto text = render::league_page(page);
  if (!text) {
    say("referee html: {}\n", text.error());
    return kBadReplay;
  }
  if (auto saved = files::write_private(out, *text, a.share_output); !saved) {
    say("referee html: {}\n", saved.error());
    return kUsage;
  }
  if (failed > 0)
    say("referee html: {} match page(s) not written, the first: {}\n", failed, terminal_safe(first_error));
  say("referee html: league {}: {} matches, {} viewer pages -> {}\n", terminal_safe(folder.string()),
      page.matches.size(), written, terminal_safe(out.string()));
  say_to(stdout, "{}\n", out.string());
  return failed > 0 ? kBadReplay : kFinished;
}

}  // namespace

bool is_league_folder(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / "league.json", ec) && fs::is_regular_file(dir / "results.jsonl", ec);
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
  if (fs::is_directory(replay_path, dir_ec) && is_league_folder(replay_path)) return run_league_html(a);
  if (auto st = replay_file_argument(replay_path, "html"); !st) {
    say("referee html: {}\n", st.error());
    return kUsage;
  }
  const fs::path out = a.out.empty() ? fs::path(replay_path).replace_extension(".html") : fs::path(a.out);
  std::error_code ec;
  if (fs::equivalent(out, replay_path, ec)) {
    say("referee html: the page {} would overwrite the replay; give another -o\n", out.string());
    return kUsage;
  }
  auto replay = replay::read(replay_path);
  if (!replay) {
    say("referee html: {}\n", replay.error());
    return kBadReplay;
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
