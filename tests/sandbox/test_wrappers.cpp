// Wrapper bots in every tier the machine offers: a shell script that runs the program it is
// given (a file outside the bot's folder, a folder, a symbolic link, the same file twice), two
// seats running the same inner program through a wrapper (self-play), and another seat's files
// still hidden in the strict tier (docs/security.md, "The strict tier's root file system").

#include <fmt/format.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "referee/bots/sandbox.hpp"
#include "tests/match/harness.hpp"
#include "tests/sandbox/hostile_harness.hpp"

using namespace arena;
using bots::Tier;

namespace fs = std::filesystem;

namespace {

constexpr auto kRunnable = fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                           fs::perms::others_read | fs::perms::others_exec;

// A layout every uid can reach, as an organiser would set it up:
//   engines/random_bot            the inner program, outside the wrappers' folder
//   wrap/wrapper.sh               runs "$1" (a program)
//   wrap/in_folder.sh             runs "$1/random_bot" ($1 a folder)
//   wrap/peek.sh                  says on stderr how many bytes of wrap/secret_bot it can read, runs "$1"
//   wrap/random_bot               a copy of the inner program inside the wrappers' folder
//   wrap/secret_bot               another seat's program, inside the wrappers' folder
//   links/rb -> ../engines/random_bot
struct Layout {
  fs::path root;
  Layout() {
    std::string pattern = "/tmp/arena-wrappers-XXXXXX";
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    root = pattern;
    fs::permissions(root, kRunnable);
    for (const char* d : {"engines", "wrap", "links"}) {
      fs::create_directory(root / d);
      fs::permissions(root / d, kRunnable);
    }
    for (const fs::path& copy : {root / "engines/random_bot", root / "wrap/random_bot", root / "wrap/secret_bot"}) {
      fs::copy_file(ARENA_RANDOM_BOT, copy);
      fs::permissions(copy, kRunnable);
    }
    script("wrapper.sh", "exec \"$1\"");
    script("in_folder.sh", "exec \"$1/random_bot\"");
    script("peek.sh",
           "secret=$(cat \"$(dirname \"$0\")/secret_bot\" 2>/dev/null | wc -c)\n"
           "echo \"PEEK secret=$secret\" >&2\n"
           "exec \"$1\"");
    fs::create_symlink("../engines/random_bot", root / "links/rb");
  }
  ~Layout() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  void script(const std::string& name, const std::string& body) const {
    std::ofstream(root / "wrap" / name) << "#!/bin/sh\n" << body << "\n";
    fs::permissions(root / "wrap" / name, kRunnable);
  }
  std::string at(const std::string& relative) const { return (root / relative).string(); }
};

const Layout& layout() {
  static const Layout l;
  return l;
}

// A whole match between `seat0` and `seat1` in `tier`; both must play it to its end.
match::MatchResult play(Tier tier, const std::string& seat0, const std::string& seat1, const std::string& stem,
                        const fs::path& working_dir = {}) {
  auto o = testing::options({seat0, seat1}, 7, fmt::format("wrap-{}-{}", stem, enum_name(tier)));
  o.sandbox = testing::policy(tier);
  if (!working_dir.empty()) o.working_dir = working_dir;
  auto r = match::play(o);
  REQUIRE(r.ok());
  INFO(seat0 << " | " << seat1);
  INFO(replay::to_json(*r).dump(2));
  std::string logs;
  for (const auto& s : r->seats)
    logs += fmt::format("stderr of {}:\n{}\n", s.command, testing::read_file(s.stderr_log));
  INFO(logs);
  CHECK_FALSE(r->fault.has_value());
  CHECK(r->end == match::End::finished);
  CHECK(testing::leftover_processes(o).empty());
  return std::move(r).value();
}

}  // namespace

TEST_CASE("wrappers: a wrapper given a file outside its folder plays, in self-play too", "[wrappers]") {
  const Layout& l = layout();
  const std::string bot = fmt::format("{} {}", l.at("wrap/wrapper.sh"), l.at("engines/random_bot"));
  for (Tier t : testing::tiers()) {
    INFO("tier " << enum_name(t));
    play(t, bot, testing::reachable_random_bot(), "file");
    play(t, bot, bot, "self");  // two seats, the same wrapped inner program
  }
}

TEST_CASE("wrappers: a wrapped inner program inside the wrapper's folder is not masked from either seat",
          "[wrappers]") {
  const Layout& l = layout();
  const std::string bot = fmt::format("{} {}", l.at("wrap/wrapper.sh"), l.at("wrap/random_bot"));
  for (Tier t : testing::tiers()) {
    INFO("tier " << enum_name(t));
    play(t, bot, bot, "inside");
    // One seat wraps it, the other runs it directly: a file used by two seats.
    play(t, bot, l.at("wrap/random_bot"), "direct");
    play(t, l.at("engines/random_bot"), fmt::format("{} {}", l.at("wrap/wrapper.sh"), l.at("engines/random_bot")),
         "direct-outside");
  }
}

TEST_CASE("wrappers: folders with and without a trailing slash, links, relative paths, a file given twice",
          "[wrappers]") {
  const Layout& l = layout();
  const std::vector<std::string> bots = {
      fmt::format("{} {}", l.at("wrap/in_folder.sh"), l.at("engines")),
      fmt::format("{} {}/", l.at("wrap/in_folder.sh"), l.at("engines")),
      fmt::format("{} {}", l.at("wrap/wrapper.sh"), l.at("links/rb")),
      fmt::format("{} {} {}", l.at("wrap/wrapper.sh"), l.at("engines/random_bot"), l.at("engines/random_bot")),
      fmt::format("{} {} {}", l.at("wrap/wrapper.sh"), l.at("links/rb"), l.at("engines/random_bot")),
  };
  for (Tier t : testing::tiers()) {
    INFO("tier " << enum_name(t));
    for (std::size_t i = 0; i < bots.size(); ++i) play(t, bots[i], bots[(i + 1) % bots.size()], "forms");
    // Relative to the bots' working directory, as an organiser types them.
    play(t, "wrap/wrapper.sh engines/random_bot", "./wrap/in_folder.sh engines/", "relative", l.root);
  }
}

TEST_CASE("wrappers: another seat's program the wrapper does not use stays hidden in strict", "[wrappers]") {
  const Layout& l = layout();
  for (Tier t : testing::tiers()) {
    INFO("tier " << enum_name(t));
    auto r = play(t, fmt::format("{} {}", l.at("wrap/peek.sh"), l.at("engines/random_bot")), l.at("wrap/secret_bot"),
                  "hidden");
    const std::string said = testing::read_file(r.seats[0].stderr_log);
    INFO(said);
    if (t == Tier::strict) {
      CHECK_THAT(said, Catch::Contains("PEEK secret=0"));  // masked: it reads as empty
    } else {
      CHECK_THAT(said, Catch::Contains("PEEK secret="));  // basic and none do not hide files (security.md)
    }
  }
}
