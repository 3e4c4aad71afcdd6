#include "referee/cli/html_cmd.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "referee/cli/common.hpp"
#include "referee/core/private_file.hpp"
#include "referee/render/html.hpp"
#include "referee/replay/replay.hpp"

namespace arena::cli {

namespace fs = std::filesystem;

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
  const fs::path out = a.out.empty() ? fs::path(replay_path).replace_extension(".html") : fs::path(a.out);
  std::error_code ec;
  if (fs::equivalent(out, replay_path, ec)) {
    fmt::print(stderr, "referee html: the page {} would overwrite the replay; give another -o\n", out.string());
    return kUsage;
  }
  auto replay = replay::read(replay_path);
  if (!replay) {
    fmt::print(stderr, "referee html: {}\n", replay.error());
    return kBadReplay;
  }
  auto page = render::html_page(*replay, replay_path.filename().string());
  if (!page) {
    fmt::print(stderr, "referee html: {}: {}\n", replay_path.string(), page.error());
    return kBadReplay;
  }
  // 0600 like every file the referee writes; 0644 with --share-output (no bot runs here).
  if (auto written = files::write_private(out, *page, a.share_output); !written) {
    fmt::print(stderr, "referee html: {}\n", written.error());
    return kUsage;
  }
  fmt::print(stderr, "referee html: {} steps of {} -> {}\n", replay->steps.size(), replay_path.string(), out.string());
  fmt::print("{}\n", out.string());
  return kFinished;
}

}  // namespace arena::cli
