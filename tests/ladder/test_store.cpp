// The ladder's store (referee/ladder/store.hpp): every case on SQLite and on a real PostgreSQL
// cluster started by the test (pg_cluster.hpp): schema creation, reopening, migrations and
// refusals, versions and authors, the match life with its fencing, counted games, replays,
// ratings, workers, events; and the bounded zstd decompression.

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include "referee/ladder/compress.hpp"
#include "referee/ladder/store.hpp"
#include "referee/ladder/store_sql.hpp"
#include "tests/ladder/pg_cluster.hpp"

using namespace arena;
using namespace arena::ladder;
namespace fs = std::filesystem;

namespace {

enum class Engine { sqlite, postgres };

// A fresh folder removed at the end of the test program.
fs::path temp_folder() {
  static struct Folders {
    std::vector<fs::path> made;
    ~Folders() {
      std::error_code ec;
      for (const auto& f : made) fs::remove_all(f, ec);
    }
  } folders;
  std::string templ = (fs::temp_directory_path() / "arena-ladder-XXXXXX").string();
  REQUIRE(::mkdtemp(templ.data()) != nullptr);
  folders.made.emplace_back(templ);
  return templ;
}

// One cluster per test program (CTest runs each case as its own program), stopped at its exit.
testing::PgCluster& cluster() {
  static std::unique_ptr<testing::PgCluster> c;
  if (!c) {
    if (!testing::PgCluster::available()) FAIL("PostgreSQL is missing (Debian package postgresql, a test tool)");
    c = std::make_unique<testing::PgCluster>("ladder");
  }
  return *c;
}

// An empty ladder database of the engine.
Location fresh(Engine engine) {
  Location where{temp_folder(), ""};
  if (engine == Engine::postgres) {
    static int n = 0;
    const std::string name = "ladder_" + std::to_string(++n);
    cluster().create_database(name);
    where.postgres = cluster().connection(name);
  }
  return where;
}

std::unique_ptr<Store> open_ok(const Location& where) {
  auto s = Store::open(where);
  INFO((s ? std::string() : s.error()));
  REQUIRE(s.ok());
  return std::move(s.value());
}

template <typename T>
T ok(Result<T> r) {
  INFO((r ? std::string() : r.error()));
  REQUIRE(r.ok());
  return std::move(r.value());
}

void ok(const Status& s) {
  INFO((s ? std::string() : s.error()));
  REQUIRE(s.ok());
}

template <typename T>
std::string error_of(const Result<T>& r) {
  REQUIRE_FALSE(r.ok());
  return r.error();
}

Bytes bytes(std::string_view s) {
  return Bytes(s.begin(), s.end());
}

NewVersion submission(const std::string& bot, const std::string& author, std::int64_t now = 1000) {
  return NewVersion{bot, author, json{{"language", "cpp"}}, bytes("source of " + bot), now};
}

// A bot's new version, built and active.
Id active_version(Store& s, const std::string& bot, const std::string& author = "alice") {
  const auto v = ok(s.add_version(submission(bot, author)));
  ok(s.finish_build(v.id, VersionState::active, "./bot", bytes("built " + bot), "log", "", 2000));
  return v.id;
}

NewMatch table(std::vector<Id> seats, int legs = 1, int priority = 1, std::int64_t now = 5000) {
  return NewMatch{std::move(seats), 77, legs, priority, now};
}

// A finished leg: seat 0 scores `first`, seat 1 `second`.
LegReport leg_result(int leg, double first, double second, std::string replay_text = "") {
  LegReport l;
  l.leg = leg;
  l.result.end = replay::End::finished;
  l.result.scores = {first, second};
  l.result.outcome = json{{"points", {first, second}}};
  l.result.game = "stellar";
  l.result.seed = 77;
  l.result.config = json::object();
  l.result.replay = "replay.jsonl";
  l.result.seats.resize(2);
  l.result.seats[0].name = "a";
  l.result.seats[1].name = "b";
  replay::settle(l.result);
  l.replay = replay_text.empty() ? "{\"leg\": " + std::to_string(leg) + "}\n" : std::move(replay_text);
  l.start_ms = 100 + leg;
  l.end_ms = 200 + leg;
  return l;
}

LegReport fault_leg(int leg) {
  LegReport l = leg_result(leg, 0, 0);
  l.result.end = replay::End::fault;
  l.result.scores.clear();
  l.result.outcome = nullptr;
  replay::Fault f;
  f.seat = 1;
  f.kind = replay::FaultKind::timeout;
  f.message = "no answer within 1000 ms";
  l.result.fault = f;
  replay::settle(l.result);
  return l;
}

Claim claim_ok(Store& s, const std::string& worker, std::int64_t now, std::int64_t lease = 1000) {
  auto c = ok(s.claim(worker, now, lease));
  REQUIRE(c.has_value());
  return *c;
}

void run_case(Engine engine, void (*body)(Engine)) {
  INFO((engine == Engine::sqlite ? "SQLite" : "PostgreSQL"));
  body(engine);
}

}  // namespace

// The same case on both engines.
#define STORE_CASE(name, text)                             \
  static void name(Engine engine);                         \
  TEST_CASE("sqlite: " text, "[ladder][sqlite]") {         \
    run_case(Engine::sqlite, &name);                       \
  }                                                        \
  TEST_CASE("postgresql: " text, "[ladder][postgresql]") { \
    run_case(Engine::postgres, &name);                     \
  }                                                        \
  static void name(Engine engine)

STORE_CASE(creates, "an empty database gets the schema, version 1") {
  const Location where = fresh(engine);
  auto s = open_ok(where);
  CHECK(s->schema_version() == kSchemaVersion);
  CHECK(ok(s->versions()).empty());
  CHECK(ok(s->count_matches(MatchState::queued)) == 0);
  if (engine == Engine::sqlite) {
    struct stat st {};
    REQUIRE(::stat((where.folder / "ladder.db").c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0600);
    REQUIRE(::stat((where.folder / "replays").c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0700);
  }
  // The connection's settings: WAL and synchronous=NORMAL (1), or the guards against stuck locks.
  auto& db = dynamic_cast<sql::SqlStore&>(*s).db();
  if (engine == Engine::sqlite) {
    CHECK(db.query("PRAGMA journal_mode")[0][0].str() == "wal");
    CHECK(db.query("PRAGMA synchronous")[0][0].i64() == 1);
  } else {
    CHECK(db.query("SHOW idle_in_transaction_session_timeout")[0][0].str() == "1min");
    CHECK(db.query("SHOW client_connection_check_interval")[0][0].str() == "1s");
    CHECK(db.query("SHOW lock_timeout")[0][0].str() == "30s");
  }
}

STORE_CASE(reopens, "a reopened database keeps its rows and settings") {
  const Location where = fresh(engine);
  Id v = 0;
  {
    auto s = open_ok(where);
    v = active_version(*s, "greedy");
    ok(s->put_setting("game", "stellar"));
    ok(s->put_setting("game", "interstellar"));
  }
  auto s = open_ok(where);
  CHECK(s->schema_version() == kSchemaVersion);
  const auto row = ok(s->version(v));
  REQUIRE(row.has_value());
  CHECK(row->bot == "greedy");
  CHECK(row->state == VersionState::active);
  CHECK(row->manifest == json{{"language", "cpp"}});
  CHECK(ok(s->setting("game")) == std::optional<std::string>("interstellar"));
  CHECK(ok(s->setting("missing")) == std::nullopt);
}

namespace {

// A second migration as a later referee would add it (a table and a column).
void fake_migration_2(sql::Db& db) {
  db.exec(sql::spell(db.dialect(), "CREATE TABLE notes (id {id}, body TEXT NOT NULL)"));
  db.exec("ALTER TABLE versions ADD COLUMN note TEXT NOT NULL DEFAULT 'migrated'");
}

}  // namespace

STORE_CASE(migrates, "an older schema is migrated, a newer one refused with both versions") {
  const Location where = fresh(engine);
  Id v = 0;
  {
    auto s = open_ok(where);  // version 1, the referee's
    v = active_version(*s, "greedy");
  }
  std::vector<sql::Migration> later(sql::migrations().begin(), sql::migrations().end());
  later.push_back({2, "notes", &fake_migration_2});
  {
    auto s = sql::open_with(where, later);
    INFO((s ? std::string() : s.error()));
    REQUIRE(s.ok());
    CHECK(s.value()->schema_version() == 2);
    auto& db = dynamic_cast<sql::SqlStore&>(*s.value()).db();
    const auto rows = db.query("SELECT bot, note FROM versions WHERE id = ?", {v});
    REQUIRE(rows.size() == 1);
    CHECK(rows[0][0].str() == "greedy");
    CHECK(rows[0][1].str() == "migrated");
    CHECK(db.exec("INSERT INTO notes (body) VALUES ('kept')") == 1);
    // Opened again at version 2: nothing to do, nothing lost.
    auto again = sql::open_with(where, later);
    REQUIRE(again.ok());
    CHECK(dynamic_cast<sql::SqlStore&>(*again.value()).db().query("SELECT body FROM notes").size() == 1);
  }
  // This referee reads up to version 1.
  const auto refused = error_of(Store::open(where));
  CHECK_THAT(refused, Catch::Contains("has schema 2, this referee reads up to 1: upgrade the referee"));
  if (engine == Engine::sqlite) CHECK_THAT(refused, Catch::Contains((where.folder / "ladder.db").string()));
}

STORE_CASE(refuses_newer, "a database of schema 3 is refused naming both versions") {
  const Location where = fresh(engine);
  {
    auto s = open_ok(where);
    auto& db = dynamic_cast<sql::SqlStore&>(*s).db();
    CHECK(db.exec("UPDATE meta SET value = '3' WHERE key = 'schema'") == 1);
  }
  const auto e = error_of(Store::open(where));
  CHECK_THAT(e, Catch::Contains("has schema 3, this referee reads up to 1: upgrade the referee"));
}

STORE_CASE(refuses_foreign, "a database that is not a ladder's is refused, named") {
  const Location where = fresh(engine);
  {
    // Another program's tables in the database, and no ladder marker.
    auto s = open_ok(where);
    auto& db = dynamic_cast<sql::SqlStore&>(*s).db();
    db.exec("CREATE TABLE accounts (id INTEGER PRIMARY KEY, name TEXT)");
    db.exec("DROP TABLE meta");
  }
  const auto e = error_of(Store::open(where));
  CHECK_THAT(e, Catch::Contains("is not a ladder database"));
  if (engine == Engine::sqlite) CHECK_THAT(e, Catch::Contains((where.folder / "ladder.db").string()));
  if (engine == Engine::postgres) CHECK_THAT(e, Catch::Contains("PostgreSQL database"));

  // A meta table with another program's marker.
  const Location other = fresh(engine);
  {
    auto s = open_ok(other);
    CHECK(dynamic_cast<sql::SqlStore&>(*s).db().exec("UPDATE meta SET value = 'wiki' WHERE key = 'ladder'") == 1);
  }
  CHECK_THAT(error_of(Store::open(other)), Catch::Contains("is not a ladder database"));
}

TEST_CASE("sqlite: a file that is not an SQLite database is refused, named", "[ladder][sqlite]") {
  const Location where{temp_folder(), ""};
  std::ofstream(where.folder / "ladder.db") << "these are not the tables you are looking for, nor a header\n"
                                            << std::string(200, 'x');
  const auto e = error_of(Store::open(where));
  CHECK_THAT(e, Catch::Contains((where.folder / "ladder.db").string()));
  CHECK_THAT(e, Catch::Contains("is not a ladder database"));
}

TEST_CASE("sqlite: ladder.db as a symbolic link is refused", "[ladder][sqlite]") {
  const Location elsewhere{temp_folder(), ""};
  open_ok(elsewhere);
  const Location where{temp_folder(), ""};
  fs::create_symlink(elsewhere.folder / "ladder.db", where.folder / "ladder.db");
  CHECK_FALSE(Store::open(where).ok());
}

TEST_CASE("postgresql: an unreachable server is an error naming the connection's problem", "[ladder][postgresql]") {
  const Location where{temp_folder(), "host=" + temp_folder().string() + " port=1 dbname=none connect_timeout=2"};
  const auto e = error_of(Store::open(where));
  CHECK_THAT(e, Catch::Contains("cannot connect to the ladder's PostgreSQL database"));
}

STORE_CASE(versions_and_authors, "versions are numbered per bot, a bot belongs to its first author") {
  auto s = open_ok(fresh(engine));
  const auto v1 = ok(s->add_version(submission("greedy", "alice", 10)));
  CHECK(v1.number == 1);
  CHECK(v1.state == VersionState::building);
  CHECK(ok(s->version_source(v1.id)) == bytes("source of greedy"));
  CHECK_THAT(error_of(s->version_files(v1.id)), Catch::Contains("not built"));
  const auto other = ok(s->add_version(submission("random", "bob", 11)));
  CHECK(other.number == 1);

  // Another author's submission under alice's bot name: refused, nothing added.
  CHECK_THAT(error_of(s->add_version(submission("greedy", "mallory"))), Catch::Contains("belongs to another author"));
  CHECK(ok(s->versions()).size() == 2);

  ok(s->finish_build(v1.id, VersionState::active, "./bot", bytes("v1 files"), "built", "", 20));
  CHECK(ok(s->version_files(v1.id)) == bytes("v1 files"));
  const auto v2 = ok(s->add_version(submission("greedy", "alice", 30)));
  CHECK(v2.number == 2);
  // A build only ends once, and only as active or rejected.
  CHECK_FALSE(s->finish_build(v1.id, VersionState::rejected, "", {}, "", "again", 31).ok());
  CHECK_FALSE(s->finish_build(v2.id, VersionState::retired, "", {}, "", "", 31).ok());
  CHECK_FALSE(s->finish_build(9999, VersionState::active, "", {}, "", "", 31).ok());

  // v2 active retires v1.
  ok(s->finish_build(v2.id, VersionState::active, "python3 bot.py", bytes("v2 files"), "ok", "", 40));
  CHECK(ok(s->version(v1.id))->state == VersionState::retired);
  const auto row2 = ok(s->version(v2.id));
  CHECK(row2->state == VersionState::active);
  CHECK(row2->command == "python3 bot.py");
  CHECK(row2->build_log == "ok");
  CHECK(row2->decided_ms == 40);
  CHECK(row2->author == "alice");
  const auto active = ok(s->versions(VersionState::active));
  REQUIRE(active.size() == 1);
  CHECK(active[0].id == v2.id);

  // A rejected build keeps its reason and no files, and the active version stays.
  const auto v3 = ok(s->add_version(submission("greedy", "alice", 50)));
  CHECK(v3.number == 3);
  ok(s->finish_build(v3.id, VersionState::rejected, "", bytes("ignored"), "compile error", "main.cpp:1: error", 60));
  const auto row3 = ok(s->version(v3.id));
  CHECK(row3->state == VersionState::rejected);
  CHECK(row3->fault == "main.cpp:1: error");
  CHECK_FALSE(s->version_files(v3.id).ok());
  CHECK(ok(s->version(v2.id))->state == VersionState::active);

  // Two builds in flight finishing out of order: the newer version stays active.
  const auto v4 = ok(s->add_version(submission("greedy", "alice", 70)));
  const auto v5 = ok(s->add_version(submission("greedy", "alice", 71)));
  ok(s->finish_build(v5.id, VersionState::active, "./bot", bytes("v5"), "", "", 80));
  ok(s->finish_build(v4.id, VersionState::active, "./bot", bytes("v4"), "", "", 81));
  CHECK(ok(s->version(v5.id))->state == VersionState::active);
  CHECK(ok(s->version(v4.id))->state == VersionState::retired);
  CHECK(ok(s->version(v2.id))->state == VersionState::retired);
  CHECK_FALSE(ok(s->version(12345)).has_value());

  // Per-version storage.
  CHECK(ok(s->storage(v5.id)).empty());
  ok(s->put_storage(v5.id, bytes("kept between matches")));
  CHECK(ok(s->storage(v5.id)) == bytes("kept between matches"));
  CHECK_FALSE(s->put_storage(12345, bytes("x")).ok());

  const auto events = ok(s->events(100));
  std::size_t rejected = 0, retired = 0;
  for (const auto& e : events) (e.kind == EventKind::rejected ? rejected : retired) += 1;
  CHECK(rejected == 1);
  CHECK(retired == 3);  // v1 replaced, v2 replaced, v4 behind v5
}

STORE_CASE(withdraws, "withdraw retires the active version and one still building") {
  auto s = open_ok(fresh(engine));
  const Id v1 = active_version(*s, "greedy");
  const auto v2 = ok(s->add_version(submission("greedy", "alice")));
  CHECK(ok(s->withdraw("greedy", 900)));
  CHECK(ok(s->version(v1))->state == VersionState::retired);
  CHECK(ok(s->version(v2.id))->state == VersionState::retired);
  CHECK(ok(s->version(v2.id))->decided_ms == 900);
  CHECK_FALSE(ok(s->withdraw("greedy", 901)));
  CHECK_FALSE(ok(s->withdraw("nobody", 901)));
  // The name stays alice's.
  CHECK_FALSE(s->add_version(submission("greedy", "bob")).ok());
  CHECK(ok(s->add_version(submission("greedy", "alice"))).number == 3);
}

STORE_CASE(claim_order, "claims take the lowest priority first, then the oldest") {
  auto s = open_ok(fresh(engine));
  const Id a = active_version(*s, "a"), b = active_version(*s, "b");
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
  auto s = open_ok(fresh(engine));
  const Id a = active_version(*s, "a"), b = active_version(*s, "b");
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
  CHECK_THAT(expired[0].message, Catch::Contains("slow"));
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
  auto s = open_ok(fresh(engine));
  const Id a = active_version(*s, "a"), b = active_version(*s, "b");
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
  auto s = open_ok(fresh(engine));
  const Id a = active_version(*s, "a"), b = active_version(*s, "b");
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

STORE_CASE(replays, "replays round-trip, a big one too") {
  const Location where = fresh(engine);
  auto s = open_ok(where);
  const Id a = active_version(*s, "a"), b = active_version(*s, "b");
  const Id m = ok(s->enqueue({table({a, b}, 2)}))[0];
  // 24 MB of lines with some variety (a long game).
  std::string big;
  for (int i = 0; big.size() < (24u << 20); ++i)
    big += "{\"step\":" + std::to_string(i) + ",\"action\":\"play " + std::to_string(i * 7919 % 1000) + "\"}\n";
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
}

TEST_CASE("sqlite: a replay file replaced by a symbolic link or a bomb is refused", "[ladder][sqlite]") {
  const Location where = fresh(Engine::sqlite);
  auto s = open_ok(where);
  const Id a = active_version(*s, "a"), b = active_version(*s, "b");
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
  // Leg 1's file: a frame that declares more than the cap.
  {
    const auto z = compress(std::string(kMaxReplayBytes + 1, 'a'), 1);
    std::ofstream(dir / (std::to_string(m) + "-1.jsonl.zst"), std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(z.data()), static_cast<std::streamsize>(z.size()));
  }
  CHECK_THAT(error_of(s->replay(m, 1)), Catch::Contains("larger than"));
}

TEST_CASE("zstd: decompression is bounded and checks its input", "[ladder]") {
  const std::string text(100000, 'z');
  const auto z = compress(text);
  CHECK(ok(decompress(z, text.size())) == text);
  CHECK_THAT(error_of(decompress(z, text.size() - 1)), Catch::Contains("larger than"));
  // A frame without its content size (streamed) is cut at the cap while it is decompressed.
  Bytes streamed;
  {
    // Two frames concatenated: valid, the second counted against the cap too.
    auto z2 = compress(text);
    streamed = z;
    streamed.insert(streamed.end(), z2.begin(), z2.end());
  }
  CHECK(ok(decompress(streamed, 2 * text.size())).size() == 2 * text.size());
  CHECK_THAT(error_of(decompress(streamed, text.size() + 10)), Catch::Contains("larger than"));
  Bytes truncated(z.begin(), z.begin() + static_cast<std::ptrdiff_t>(z.size() / 2));
  CHECK_FALSE(decompress(truncated, text.size()).ok());
  Bytes trailing = z;
  trailing.push_back(7);
  CHECK_FALSE(decompress(trailing, text.size() * 2).ok());
  CHECK_THAT(error_of(decompress(bytes("plain text, not zstd"), 100)), Catch::Contains("not a zstd frame"));
  CHECK_FALSE(decompress(Bytes{}, 100).ok());
  CHECK(ok(decompress(compress(""), 0)).empty());
}

STORE_CASE(ratings, "ratings: history per version, the latest of each") {
  auto s = open_ok(fresh(engine));
  ok(s->add_ratings({{1, 1500, 1400, 1600, 10, 100}, {2, 1450.5, 1300, 1600, 10, 100}}));
  ok(s->add_ratings({{1, 1520.25, 1450, 1590, 30, 200}}));
  const auto latest = ok(s->latest_ratings());
  REQUIRE(latest.size() == 2);
  CHECK(latest[0].version == 1);
  CHECK(latest[0].rating == 1520.25);
  CHECK(latest[0].games == 30);
  CHECK(latest[1].rating == 1450.5);
  const auto history = ok(s->rating_history(1));
  REQUIRE(history.size() == 2);
  CHECK(history[0].at_ms == 100);
  CHECK(history[1].at_ms == 200);
  CHECK(history[1].low == 1450);
  CHECK(ok(s->rating_history(3)).empty());
  // A double keeps every bit.
  ok(s->add_ratings({{3, 0.1 + 0.2, -1e-300, 1e300, 0, 1}}));
  CHECK(ok(s->rating_history(3))[0].rating == 0.1 + 0.2);
  CHECK(ok(s->rating_history(3))[0].low == -1e-300);
}

STORE_CASE(workers, "workers: heartbeat inserts then updates, gone removes") {
  auto s = open_ok(fresh(engine));
  ok(s->heartbeat({"h1:10:0", "h1", 100, 100, std::nullopt}));
  ok(s->heartbeat({"h2:11:0", "h2", 150, 150, 7}));
  ok(s->heartbeat({"h1:10:0", "h1", 999, 300, 5}));
  auto w = ok(s->workers());
  REQUIRE(w.size() == 2);
  CHECK(w[0].name == "h1:10:0");
  CHECK(w[0].started_ms == 100);  // kept from the first beat
  CHECK(w[0].heartbeat_ms == 300);
  CHECK(w[0].match == std::optional<Id>(5));
  CHECK(w[1].match == std::optional<Id>(7));
  ok(s->worker_gone("h1:10:0"));
  w = ok(s->workers());
  REQUIRE(w.size() == 1);
  CHECK(w[0].host == "h2");
}

STORE_CASE(events, "events: the newest first, up to the limit") {
  auto s = open_ok(fresh(engine));
  ok(s->log_event(EventKind::rejected, "one", 1));
  ok(s->log_event(EventKind::retired, "two", 2));
  ok(s->log_event(EventKind::expired, "three 'quoted' \"text\"", 3));
  const auto e = ok(s->events(2));
  REQUIRE(e.size() == 2);
  CHECK(e[0].message == "three 'quoted' \"text\"");
  CHECK(e[0].kind == EventKind::expired);
  CHECK(e[1].at_ms == 2);
  CHECK(e[0].id > e[1].id);
  CHECK(ok(s->events(100)).size() == 3);
}
