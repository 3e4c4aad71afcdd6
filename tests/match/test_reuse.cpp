// Bots kept alive across matches (match::KeptBot, what `league --reuse` builds on): a bot that
// chose protocol 2 and said "reuse" plays the next match in the same process; a crash affects
// only its match and the next one starts the bot afresh; a bot that cannot be reused is started
// for every match; output between matches is a fault of the next match; a league keeps one
// process per bot and leg, so that no process plays both legs of a duplicate deal.

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <set>

#include "referee/league/league.hpp"
#include "referee/replay/replay.hpp"
#include "tests/match/harness.hpp"

using namespace arena;
using Catch::Contains;
namespace fs = std::filesystem;

namespace {

std::string reuse_bot(const std::string& args = "") {
  return fmt::format("python3 {}/tests/match/reuse_bot.py {}", ARENA_SOURCE_DIR, args);
}

// Plays `count` matches in a row with the same two KeptBots; returns each match's result.
std::vector<match::MatchResult> series(const std::string& bot0, const std::string& bot1, int count,
                                       std::vector<match::KeptBot>& kept) {
  std::vector<match::MatchResult> out;
  for (int i = 0; i < count; ++i) {
    auto o = testing::options({bot0, bot1}, 40 + static_cast<std::uint64_t>(i), "reuse");
    o.kept = {&kept[0], &kept[1]};
    auto m = match::play(o);
    REQUIRE(m.ok());
    auto verified = replay::verify(std::move(replay::read(m->replay)).value());
    INFO(verified.message);
    CHECK((verified.ok || m->end == replay::End::fault));
    out.push_back(std::move(m).value());
  }
  return out;
}

// The pid a seat's bot wrote in its debug texts in a replay (every step of that seat agrees).
std::string pid_of(const match::MatchResult& m, int seat) {
  const auto r = replay::read(m.replay);
  REQUIRE(r.ok());
  std::string pid;
  for (const auto& s : r->steps) {
    if (s.seat != seat) continue;
    const std::string p = s.debug.substr(s.debug.find("pid "));
    if (pid.empty()) pid = p;
    CHECK(p == pid);
  }
  return pid;
}

void release(std::vector<match::KeptBot>& kept) {
  for (auto& k : kept) {
    if (k.process) k.process->shutdown(std::chrono::milliseconds(500));
  }
}

}  // namespace

TEST_CASE("a reusable bot plays several matches in one process", "[match][reuse]") {
  std::vector<match::KeptBot> kept(2);
  const auto m = series(reuse_bot(), reuse_bot(), 3, kept);
  for (int i = 0; i < 3; ++i) {
    CAPTURE(i);
    CHECK(m[static_cast<std::size_t>(i)].end == replay::End::finished);
    for (int seat = 0; seat < 2; ++seat) {
      const auto& report = m[static_cast<std::size_t>(i)].seats[static_cast<std::size_t>(seat)];
      CHECK(report.process_match == i + 1);
      CHECK(report.protocol == 2);
      CHECK(report.exit == "kept for the next match");
    }
  }
  // Same process throughout: the same pid, and the bot counts its matches.
  CHECK(pid_of(m[0], 0) == pid_of(m[2], 0));
  CHECK(pid_of(m[0], 1) == pid_of(m[2], 1));
  CHECK(pid_of(m[0], 0) != pid_of(m[0], 1));
  const auto last = replay::read(m[2].replay);
  REQUIRE(last.ok());
  CHECK_THAT(last->steps.front().debug, Contains("match 3 of pid"));
  REQUIRE(kept[0].process);
  release(kept);
}

TEST_CASE("a crash in a kept process costs only its match, and the bot starts afresh", "[match][reuse]") {
  std::vector<match::KeptBot> kept(2);
  const auto m = series(reuse_bot("--crash-at-match 2"), reuse_bot(), 3, kept);
  CHECK(m[0].end == replay::End::finished);
  REQUIRE(m[1].end == replay::End::fault);
  CHECK(m[1].fault->seat == 0);
  CHECK(m[1].fault->kind == match::FaultKind::crash);
  CHECK(m[1].seats[1].exit == "kept for the next match");  // the opponent goes on
  CHECK(m[2].end == replay::End::finished);
  CHECK(m[2].seats[0].process_match == 1);  // started again
  CHECK(m[2].seats[1].process_match == 3);
  CHECK(pid_of(m[0], 0) != pid_of(m[2], 0));
  release(kept);
}

TEST_CASE("a bot that cannot be reused is started for every match", "[match][reuse]") {
  std::vector<match::KeptBot> kept(2);
  const auto m = series(reuse_bot("--v1"), reuse_bot("--no-reuse"), 2, kept);
  for (const auto& match : m) {
    CHECK(match.end == replay::End::finished);
    CHECK(match.seats[0].protocol == 1);
    CHECK(match.seats[1].protocol == 2);
    for (const auto& seat : match.seats) {
      CHECK(seat.process_match == 1);
      CHECK(seat.exit != "kept for the next match");
    }
  }
  CHECK_FALSE(kept[0].process);
  CHECK_FALSE(kept[1].process);
}

TEST_CASE("output between matches is a fault of the next match", "[match][reuse]") {
  std::vector<match::KeptBot> kept(2);
  const auto m = series(reuse_bot(), reuse_bot("--chatter-after-match 1"), 2, kept);
  CHECK(m[0].end == replay::End::finished);
  REQUIRE(m[1].end == replay::End::fault);
  CHECK(m[1].fault->seat == 1);
  CHECK(m[1].fault->kind == match::FaultKind::malformed);
  CHECK(m[1].fault->request_id == 0);
  // Seen before the hello, or (when the bot wrote it a moment later) in place of the ready.
  CHECK_THAT(m[1].fault->message, Contains("output between matches") || Contains("expected type \"ready\""));
  release(kept);
}

TEST_CASE("league --reuse: a process per bot and leg, never both legs of a deal", "[league][reuse]") {
  // 3 duplicate deals, one worker: bot A's leg-0 process plays the first leg of every deal, its
  // leg-1 process the second; a bot that cannot be reused is started for every match.
  league::LeagueSpec spec;
  spec.bots.push_back(testing::bot_spec(reuse_bot(), "kept"));
  spec.bots.push_back(testing::bot_spec(reuse_bot("--no-reuse"), "fresh"));
  spec.deals = 3;
  spec.concurrency = 1;
  spec.seed = 7;
  spec.limits.init_ms = 20000;
  spec.limits.decision_ms = 5000;
  auto normalized = league::normalize(spec);
  REQUIRE(normalized.ok());
  const fs::path out = fs::path(ARENA_TEST_OUT) / "league-reuse";
  fs::remove_all(out);
  league::RunOptions o = testing::league_options(out);
  o.reuse = true;
  auto result = league::run(*normalized, o);
  REQUIRE(result.ok());
  REQUIRE(result->played_now == 6);

  std::map<int, std::set<std::string>> kept_pids_by_leg;  // leg -> pids of the "kept" bot
  std::set<std::string> fresh_pids;
  for (std::uint64_t index = 0; index < 6; ++index) {
    const auto r = replay::read(out / "replays" / fmt::format("m{:06}.jsonl", index));
    REQUIRE(r.ok());
    REQUIRE(r->footer);
    CHECK(r->footer->end == replay::End::finished);
    const int leg = static_cast<int>(index % 2);
    for (const auto& s : r->steps) {
      const std::string& bot = r->header.bots[static_cast<std::size_t>(s.seat)].name;
      const std::string pid = s.debug.substr(s.debug.find("pid "));
      if (r->header.bots[static_cast<std::size_t>(s.seat)].command == reuse_bot()) {
        kept_pids_by_leg[leg].insert(pid);
        // The deal's number of this leg: its k-th match in this process.
        CHECK_THAT(s.debug, Contains(fmt::format("match {} of", index / 2 + 1)));
      } else {
        CAPTURE(bot);
        fresh_pids.insert(pid);
        CHECK_THAT(s.debug, Contains("match 1 of"));
      }
    }
  }
  REQUIRE(kept_pids_by_leg.size() == 2);
  CHECK(kept_pids_by_leg[0].size() == 1);  // one process for every first leg
  CHECK(kept_pids_by_leg[1].size() == 1);  // another for every second leg
  CHECK(*kept_pids_by_leg[0].begin() != *kept_pids_by_leg[1].begin());
  CHECK(fresh_pids.size() == 6);  // started for each of the 6 matches
}
