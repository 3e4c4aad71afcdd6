#include "referee/cli/html_cmd.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <utility>
#include <vector>

#include "referee/cli/common.hpp"
#include "referee/core/markup.hpp"
#include "referee/core/private_file.hpp"
#include "referee/render/html.hpp"
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

}  // namespace

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

CLI::App* add_html(CLI::App& app, HtmlArgs& a) {
  auto* h =
      app.add_subcommand("html", "Write a replay as one self-contained web page that plays the match step by step");
  h->add_option("replay", a.replay, "Replay file (.jsonl)")->required();
  h->add_option("-o,--out", a.out, "Page to write (default: the replay's path with .html)");
  add_share_output(h, a.share_output);
  return h;
}

int run_html(const HtmlArgs& a) {
  const fs::path replay_path = a.replay;
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
