// The ladder's store: a match's life on both engines (store_fixture.hpp): claim order, many
// claimers at once (threads; processes on SQLite), lease expiry and fencing, reports, counting,
// refusals, replays.

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <thread>

#include "referee/ladder/compress.hpp"
#include "referee/ladder/store_sql.hpp"
#include "tests/ladder/store_fixture.hpp"

using namespace arena;
using namespace arena::ladder;
using namespace arena::ladder::test;

STORE_CASE(claim_order, "claims take the lowest priority first, then the oldest") {
  auto [s, a, b] = two_bots(fresh(engine));
  const auto ids = ok(s->enqueue({table({a, b}, 1, 1), table({b, a}, 1, 0), table({a, b}, 2, 1), table({b, a}, 1, 0)}));
  REQUIRE(ids.size() == 4);
  CHECK_FALSE(s->enqueue({table({a, 999})}).ok());   // no such version
  CHECK_FALSE(s->enqueue({table({a, b}, 3)}).ok());  // more legs than seats
  CHECK_FALSE(s->enqueue({table({})}).ok());
  CHECK(ok(s->count_matches(MatchState::queued)) == 4);
  std::vector<Id> order;
  for (int i = 0; i < 4; ++i) {
    const Claim c = claim_ok(*s, "w1", 10000);
    CHECK(c.attempt == 1);
    CHECK(c.worker == "w1");
    CHECK(c.match.state == MatchState::running);
    CHECK(c.match.lease_until_ms == 11000);
    order.push_back(c.match.id);
  }
  CHECK(order == std::vector<Id>{ids[1], ids[3], ids[0], ids[2]});
  CHECK_FALSE(ok(s->claim("w1", 10000, 1000)).has_value());
  const auto running = ok(s->matches(MatchState::running, 10));
  REQUIRE(running.size() == 4);
  CHECK(running[2].legs == 2);
  CHECK(running[2].seats == std::vector<Id>{a, b});
  CHECK(running[2].seed == 77);
  CHECK(ok(s->matches(std::nullopt, 2)).size() == 2);
}

namespace {

// `claimers` connections claim matches until none is left; returns every claimed id.
std::vector<Id> claim_all_threads(const Location& where, int claimers) {
  std::vector<std::vector<Id>> got(static_cast<std::size_t>(claimers));
  std::vector<std::string> errors(static_cast<std::size_t>(claimers));
  std::vector<std::thread> threads;
  for (int t = 0; t < claimers; ++t)
    threads.emplace_back([&, t] {
      auto s = Store::open(where);
      if (!s) {
        errors[static_cast<std::size_t>(t)] = s.error();
        return;
      }
      int empty = 0;
      while (empty < 3) {  // an empty SKIP LOCKED claim is not proof of an empty queue
        auto c = s.value()->claim("w" + std::to_string(t), 1000, 60000);
        if (!c) {
          errors[static_cast<std::size_t>(t)] = c.error();
          return;
        }
        if (!c.value()) {
          ++empty;
          continue;
        }
        empty = 0;
        got[static_cast<std::size_t>(t)].push_back(c.value()->match.id);
      }
    });
  for (auto& th : threads) th.join();
  for (const auto& e : errors) CHECK(e.empty());
  std::vector<Id> all;
  for (const auto& g : got) all.insert(all.end(), g.begin(), g.end());
  return all;
}

void check_each_once(std::vector<Id> claimed, const std::vector<Id>& queued) {
  std::sort(claimed.begin(), claimed.end());
  CHECK(std::adjacent_find(claimed.begin(), claimed.end()) == claimed.end());  // never twice
  std::vector<Id> expected = queued;
  std::sort(expected.begin(), expected.end());
  CHECK(claimed == expected);  // and every one
}

std::vector<Id> fill_queue(Store& s, int n) {
  const Id a = active_version(s, "a"), b = active_version(s, "b");
  std::vector<NewMatch> m;
  for (int i = 0; i < n; ++i) m.push_back(table({a, b}, 1, i % 3));
  return ok(s.enqueue(m));
}

}  // namespace

STORE_CASE(concurrent_threads, "many claimers at once never claim one match twice (threads)") {
  const Location where = fresh(engine);
  auto s = open_ok(where);
  const auto queued = fill_queue(*s, 400);
  check_each_once(claim_all_threads(where, 6), queued);
  CHECK(ok(s->count_matches(MatchState::queued)) == 0);
  for (const auto& m : ok(s->matches(MatchState::running, 1000))) CHECK(m.attempt == 1);
}

TEST_CASE("sqlite: many claimers at once never claim one match twice (processes)", "[ladder][sqlite]") {
  const Location where = fresh(Engine::sqlite);
  std::vector<Id> queued;
  {
    auto s = open_ok(where);
    queued = fill_queue(*s, 400);
  }
  const fs::path out = temp_folder();
  std::vector<pid_t> children;
  for (int p = 0; p < 4; ++p) {
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      // The child: its own connection, its claims to a file; exit code 0 when all went well.
      int code = 0;
      {
        std::ofstream f(out / std::to_string(p));
        auto s = Store::open(where);
        if (!s) ::_exit(2);
        for (;;) {
          auto c = s.value()->claim("p" + std::to_string(p), 1000, 60000);
          if (!c) {
            code = 3;
            break;
          }
          if (!c.value()) break;  // SQLite: an empty claim is an empty queue
          f << c.value()->match.id << '\n';
        }
      }
      ::_exit(code);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
  }
  std::vector<Id> claimed;
  for (int p = 0; p < 4; ++p) {
    std::ifstream f(out / std::to_string(p));
    Id id = 0;
    while (f >> id) claimed.push_back(id);
  }
  check_each_once(claimed, queued);
}

STORE_CASE(lease_expiry, "an expired lease is claimed again with attempt + 1, the old claim is fenced off") {
  auto [s, a, b] = two_bots(fresh(engine));
  const Id m = ok(s->enqueue({table({a, b}, 2)}))[0];
  const Claim old = claim_ok(*s, "slow", 1000, 500);
  CHECK(ok(s->renew(old, 1400, 500)));  // lease until 1900
  CHECK_FALSE(ok(s->claim("fast", 1899, 500)).has_value());
  const Claim now = claim_ok(*s, "fast", 1901, 500);
  CHECK(now.match.id == m);
  CHECK(now.attempt == 2);
  CHECK(now.worker == "fast");
  const auto expired = ok(s->events(10));
  REQUIRE(expired.size() == 1);
  CHECK(expired[0].kind == EventKind::expired);
  CHECK(expired[0].message ==
        "the lease of match " + std::to_string(m) + " (attempt 1 by slow) expired; fast claimed it again");
  CHECK(expired[0].at_ms == 1901);

  // The old claim can neither renew, nor report, nor give the match back.
  CHECK_FALSE(ok(s->renew(old, 1950, 500)));
  CHECK_FALSE(ok(s->report(old, {leg_result(0, 1, 0), leg_result(1, 0, 1)}, 1960)));
  ok(s->give_back(old));
  const auto row = ok(s->matches(std::nullopt, 10));
  REQUIRE(row.size() == 1);
  CHECK(row[0].state == MatchState::running);
  CHECK(row[0].worker == "fast");
  CHECK(row[0].attempt == 2);
  CHECK(ok(s->reported(10)).empty());
  CHECK_FALSE(s->replay(m, 0).ok());

  // The current claim reports; the late one still changes nothing.
  CHECK(ok(s->report(now, {leg_result(0, 3, 1, "fast leg 0\n"), leg_result(1, 1, 3, "fast leg 1\n")}, 2000)));
  CHECK_FALSE(ok(s->report(old, {leg_result(0, 1, 0, "slow 0\n"), leg_result(1, 0, 1, "slow 1\n")}, 2001)));
  CHECK(ok(s->replay(m, 0)) == "fast leg 0\n");
  CHECK(ok(s->reported_legs(m))[0].result.scores == std::vector<double>{3, 1});

  // give_back by the holder puts the match back in the queue.
  const Id m2 = ok(s->enqueue({table({a, b})}))[0];
  const Claim c2 = claim_ok(*s, "quitter", 3000);
  ok(s->give_back(c2));
  const Claim c3 = claim_ok(*s, "next", 3001);
  CHECK(c3.match.id == m2);
  CHECK(c3.attempt == 2);
}

STORE_CASE(report_count, "report -> reported -> count -> games, read incrementally by id") {
  auto [s, a, b] = two_bots(fresh(engine));
  const auto ids = ok(s->enqueue({table({a, b}, 2), table({b, a}, 1)}));
  const Claim c1 = claim_ok(*s, "w", 100);
  const Claim c2 = claim_ok(*s, "w", 100);

  // A report must hold every leg once, with as many scores as seats: else nothing is written.
  CHECK_FALSE(s->report(c1, {leg_result(0, 1, 0)}, 150).ok());
  CHECK_FALSE(s->report(c1, {leg_result(0, 1, 0), leg_result(0, 1, 0)}, 150).ok());
  CHECK_FALSE(s->report(c1, {leg_result(0, 1, 0), leg_result(2, 1, 0)}, 150).ok());
  LegReport unreadable = leg_result(1, 1, 0);
  unreadable.result.seats.clear();  // a result the strict reader refuses is refused at once
  CHECK_THAT(error_of(s->report(c1, {leg_result(0, 1, 0), unreadable}, 150)), Catch::Contains("result.bots"));
  CHECK(ok(s->matches(MatchState::running, 10)).size() == 2);

  CHECK(ok(s->report(c1, {leg_result(1, 2, 5), leg_result(0, 5, 2)}, 200)));
  CHECK(ok(s->report(c2, {fault_leg(0)}, 210)));
  const auto reported = ok(s->reported(10));
  REQUIRE(reported.size() == 2);
  CHECK(reported[0].id == ids[0]);
  CHECK(reported[0].finished_ms == 200);
  CHECK(reported[0].state == MatchState::reported);
  const auto legs = ok(s->reported_legs(ids[0]));
  REQUIRE(legs.size() == 2);
  CHECK(legs[0].leg == 0);
  CHECK(legs[0].result.scores == std::vector<double>{5, 2});
  CHECK(legs[0].result.ranks == std::vector<int>{1, 2});
  CHECK(legs[0].result.winner == std::optional<Seat>(0));
  CHECK(legs[0].result.game == "stellar");
  CHECK(legs[0].replay == "{\"leg\": 0}\n");
  CHECK(legs[1].start_ms == 101);
  CHECK(legs[1].end_ms == 201);
  CHECK(ok(s->games(100)).empty());  // nothing counted before the check

  ok(s->count(ids[0], 300));
  CHECK_FALSE(s->count(ids[0], 301).ok());  // counted exactly once
  CHECK_FALSE(s->count(12345, 301).ok());
  auto games = ok(s->games(100));
  REQUIRE(games.size() == 2);
  CHECK(games[0].match == ids[0]);
  CHECK(games[0].leg == 0);
  CHECK(games[0].seats == std::vector<Id>{a, b});
  CHECK(games[1].seats == std::vector<Id>{b, a});  // leg 1 rotates the seats
  CHECK(games[0].scores == std::vector<double>{5, 2});
  CHECK(games[1].ranks == std::vector<int>{2, 1});
  CHECK(games[0].seed == 77);
  CHECK(games[0].end == replay::End::finished);
  CHECK_FALSE(games[0].fault_seat.has_value());
  CHECK(games[1].end_ms == 201);

  ok(s->count(ids[1], 310));
  const auto later = ok(s->games(100, games[1].id));
  REQUIRE(later.size() == 1);
  CHECK(later[0].id > games[1].id);
  CHECK(later[0].end == replay::End::fault);
  CHECK(later[0].scores.empty());
  CHECK(later[0].fault_seat == std::optional<int>(1));
  CHECK(later[0].fault_kind == std::optional<replay::FaultKind>(replay::FaultKind::timeout));
  CHECK(later[0].fault_message == "no answer within 1000 ms");
  CHECK(later[0].ranks == std::vector<int>{1, 2});
  CHECK(ok(s->games(1)).size() == 1);
  CHECK(ok(s->games(100, later[0].id)).empty());
  CHECK(ok(s->count_matches(MatchState::counted)) == 2);
  CHECK(ok(s->replay(ids[0], 1)) == "{\"leg\": 1}\n");  // the replays stay with the counted games
}

STORE_CASE(refuse, "a refused report is logged, nothing counted, the match queued again") {
  auto [s, a, b] = two_bots(fresh(engine));
  const Id m = ok(s->enqueue({table({a, b})}))[0];
  const Claim c = claim_ok(*s, "liar", 100);
  CHECK(ok(s->report(c, {leg_result(0, 9, 0)}, 200)));
  ok(s->refuse(m, "seat 0's score differs from the replay's", 300));
  CHECK_FALSE(s->refuse(m, "again", 301).ok());
  CHECK_FALSE(s->count(m, 301).ok());
  CHECK(ok(s->games(100)).empty());
  CHECK(ok(s->reported_legs(m)).empty());
  CHECK_FALSE(s->replay(m, 0).ok());
  const auto events = ok(s->events(10));
  REQUIRE(events.size() == 1);
  CHECK(events[0].kind == EventKind::refused);
  CHECK_THAT(events[0].message, Catch::Contains("seat 0's score differs"));
  CHECK_THAT(events[0].message, Catch::Contains("liar"));
  // Queued again: the next claim is attempt 2, and its honest report counts.
  const Claim again = claim_ok(*s, "honest", 400);
  CHECK(again.match.id == m);
  CHECK(again.attempt == 2);
  CHECK(ok(s->report(again, {leg_result(0, 1, 2, "honest\n")}, 500)));
  ok(s->count(m, 600));
  const auto games = ok(s->games(100));
  REQUIRE(games.size() == 1);
  CHECK(games[0].scores == std::vector<double>{1, 2});
  CHECK(ok(s->replay(m, 0)) == "honest\n");
}

STORE_CASE(replays, "replays round-trip (a big one too), a stored bomb is refused") {
  const Location where = fresh(engine);
  auto [s, a, b] = two_bots(where);
  const Id m = ok(s->enqueue({table({a, b}, 2)}))[0];
  // 24 MB of lines with some variety (a long game).
  std::string big;
  for (int i = 0; big.size() < (24u << 20); ++i)
    big += "{\"step\":" + std::to_string(i) + ",\"action\":\"play " +
           std::to_string(static_cast<std::int64_t>(i) * 7919 % 1000) + "\"}\n";
  std::string binary_ish;
  for (int i = 0; i < 70000; ++i) binary_ish += static_cast<char>((i * 131) % 256);
  const Claim c = claim_ok(*s, "w", 100);
  CHECK(ok(s->report(c, {leg_result(0, 1, 0, big), leg_result(1, 0, 1, binary_ish)}, 200)));
  CHECK(ok(s->replay(m, 0)) == big);
  CHECK(ok(s->replay(m, 1)) == binary_ish);
  CHECK_FALSE(s->replay(m, 2).ok());
  if (engine == Engine::sqlite) {
    const fs::path file = where.folder / "replays" / (std::to_string(m) + "-0.jsonl.zst");
    REQUIRE(fs::is_regular_file(file));
    CHECK(fs::file_size(file) < big.size() / 4);  // stored compressed
    struct stat st {};
    REQUIRE(::stat(file.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0600);
  }
  // A stored replay replaced by a frame that declares more than the cap (a decompression bomb
  // from the database or a worker): an error, not an allocation.
  const auto bomb = compress(std::string(kMaxReplayBytes + 1, 'a'), 1);
  if (engine == Engine::sqlite) {
    std::ofstream(where.folder / "replays" / (std::to_string(m) + "-1.jsonl.zst"), std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(bomb.data()), static_cast<std::streamsize>(bomb.size()));
  } else {
    CHECK(dynamic_cast<sql::SqlStore&>(*s).db().exec("UPDATE legs SET replay = ? WHERE match_id = ? AND leg = 1",
                                                     {sql::Value::blob(bomb), m}) == 1);
  }
  CHECK_THAT(error_of(s->replay(m, 1)), Catch::Contains("larger than"));
  CHECK_THAT(error_of(s->reported_legs(m)), Catch::Contains("larger than"));
  CHECK(ok(s->replay(m, 0)) == big);
}

TEST_CASE("sqlite: a replay file replaced by a symbolic link is refused", "[ladder][sqlite]") {
  const Location where = fresh(Engine::sqlite);
  auto [s, a, b] = two_bots(where);
  const Id m = ok(s->enqueue({table({a, b}, 2)}))[0];
  const Claim c = claim_ok(*s, "w", 100);
  CHECK(ok(s->report(c, {leg_result(0, 1, 0, "zero\n"), leg_result(1, 0, 1, "one\n")}, 200)));
  const fs::path dir = where.folder / "replays";
  // Leg 0's file: a link to another file (a planted link must not be followed).
  const fs::path secret = where.folder / "secret.zst";
  {
    const auto z = compress("secret\n");
    std::ofstream(secret, std::ios::binary)
        .write(reinterpret_cast<const char*>(z.data()), static_cast<std::streamsize>(z.size()));
  }
  fs::remove(dir / (std::to_string(m) + "-0.jsonl.zst"));
  fs::create_symlink(secret, dir / (std::to_string(m) + "-0.jsonl.zst"));
  CHECK_FALSE(s->replay(m, 0).ok());
  CHECK_FALSE(s->reported_legs(m).ok());
  CHECK(ok(s->replay(m, 1)) == "one\n");
}

STORE_CASE(cancel, "a queued match can be cancelled, a claimed one cannot") {
  auto [s, a, b] = two_bots(fresh(engine));
  const auto ids = ok(s->enqueue({table({a, b}, 1, 0), table({b, a}, 1, 1)}));
  REQUIRE(ids.size() == 2);
  const Claim c = claim_ok(*s, "w1", 100);
  CHECK(c.match.id == ids[0]);
  CHECK_FALSE(ok(s->cancel(ids[0])));  // running: it is played and counted as any other
  CHECK(ok(s->cancel(ids[1])));
  CHECK_FALSE(ok(s->cancel(ids[1])));  // gone
  CHECK(ok(s->count_matches(MatchState::queued)) == 0);
  CHECK(ok(s->count_matches(MatchState::running)) == 1);
  CHECK_FALSE(ok(s->claim("w2", 200, 1000)).has_value());
}

STORE_CASE(storage_verdict, "a report's storage becomes its versions' when counted, never when refused") {
  auto s = open_ok(fresh(engine));
  const Id a = active_version(*s, "a"), b = active_version(*s, "b"), other = active_version(*s, "c");
  ok(s->put_storage(a, bytes("a before")));
  const Id m = ok(s->enqueue({table({a, b})}))[0];
  const Claim c = claim_ok(*s, "liar", 100);
  // Only versions of the match, once each; a refused report writes nothing.
  CHECK_THAT(error_of(s->report(c, {leg_result(0, 1, 0)}, 150, {{other, bytes("x")}})),
             Catch::Contains("does not play"));
  CHECK_THAT(error_of(s->report(c, {leg_result(0, 1, 0)}, 150, {{a, bytes("x")}, {a, bytes("y")}})),
             Catch::Contains("twice"));
  CHECK(ok(s->report(c, {leg_result(0, 9, 0)}, 200, {{a, bytes("forged a")}, {b, bytes("forged b")}})));
  CHECK(ok(s->storage(a)) == bytes("a before"));  // until the verdict
  ok(s->refuse(m, "seat 0's score differs from the replay's", 300));
  CHECK(ok(s->storage(a)) == bytes("a before"));
  CHECK(ok(s->storage(b)).empty());
  // Played again: b's storage (every byte value) counts with the match; a sent none (its folder
  // was refused by the worker) and keeps its own.
  Bytes every;
  for (int i = 0; i < 512; ++i) every.push_back(static_cast<std::uint8_t>(i % 256));
  const Claim again = claim_ok(*s, "honest", 400);
  CHECK(ok(s->report(again, {leg_result(0, 1, 2)}, 500, {{b, every}})));
  ok(s->count(m, 600));
  CHECK(ok(s->storage(a)) == bytes("a before"));
  CHECK(ok(s->storage(b)) == every);
  // Nothing waits any more: counting took the match's pending folders.
  CHECK(dynamic_cast<sql::SqlStore&>(*s).db().query("SELECT version FROM pending_storage").empty());
  // The last counted wins.
  const Id m2 = ok(s->enqueue({table({b, a})}))[0];
  const Claim third = claim_ok(*s, "honest", 700);
  REQUIRE(third.match.id == m2);
  CHECK(ok(s->report(third, {leg_result(0, 1, 2)}, 800, {{b, bytes("b last")}, {a, bytes("a last")}})));
  ok(s->count(m2, 900));
  CHECK(ok(s->storage(a)) == bytes("a last"));
  CHECK(ok(s->storage(b)) == bytes("b last"));
}
