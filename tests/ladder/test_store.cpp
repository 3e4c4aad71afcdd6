// The ladder's store (referee/ladder/store.hpp), each case on SQLite and on a real PostgreSQL
// (store_fixture.hpp): the schema (creation, reopening, migrations, refusals), versions and their
// authors, ratings, workers, events; and the bounded zstd decompression. The match life is in
// test_store_matches.cpp.

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <fstream>

#include "referee/ladder/compress.hpp"
#include "referee/ladder/store_sql.hpp"
#include "tests/ladder/store_fixture.hpp"

using namespace arena;
using namespace arena::ladder;
using namespace arena::ladder::test;

STORE_CASE(creates, "an empty database gets the schema, the referee's version") {
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
  // A statement that fails inside a transaction rolls it back; the connection goes on.
  const auto failing = [&] {
    sql::Txn txn(db, true);
    db.exec("INSERT INTO settings (key, value) VALUES ('k', 'v')");
    db.exec("INSERT INTO no_such_table VALUES (1)");
    txn.commit();
  };
  CHECK_THROWS(failing());
  CHECK(ok(s->setting("k")) == std::nullopt);
  ok(s->put_setting("k", "v"));
  CHECK(ok(s->setting("k")) == std::optional<std::string>("v"));
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

// The next migration as a later referee would add it (a table and a column).
void fake_migration_next(sql::Db& db) {
  db.exec(sql::spell(db.dialect(), "CREATE TABLE notes (id {id}, body TEXT NOT NULL)"));
  db.exec("ALTER TABLE versions ADD COLUMN note TEXT NOT NULL DEFAULT 'migrated'");
}

}  // namespace

STORE_CASE(migrates, "an older schema is migrated, a newer one refused with both versions") {
  const Location where = fresh(engine);
  Id v = 0;
  {
    auto s = open_ok(where);  // the referee's version
    v = active_version(*s, "greedy");
  }
  std::vector<sql::Migration> later(sql::migrations().begin(), sql::migrations().end());
  const int next = kSchemaVersion + 1;
  later.push_back({next, "notes", &fake_migration_next});
  {
    auto s = sql::open_with(where, later);
    INFO((s ? std::string() : s.error()));
    REQUIRE(s.ok());
    CHECK(s.value()->schema_version() == next);
    auto& db = dynamic_cast<sql::SqlStore&>(*s.value()).db();
    const auto rows = db.query("SELECT bot, note FROM versions WHERE id = ?", {v});
    REQUIRE(rows.size() == 1);
    CHECK(rows[0][0].str() == "greedy");
    CHECK(rows[0][1].str() == "migrated");
    CHECK(db.exec("INSERT INTO notes (body) VALUES ('kept')") == 1);
    // Opened again at the later version: nothing to do, nothing lost.
    auto again = sql::open_with(where, later);
    REQUIRE(again.ok());
    CHECK(dynamic_cast<sql::SqlStore&>(*again.value()).db().query("SELECT body FROM notes").size() == 1);
  }
  // This referee reads up to its own version.
  const auto refused = error_of(Store::open(where));
  CHECK_THAT(refused, Catch::Contains("has schema " + std::to_string(next) + ", this referee reads up to " +
                                      std::to_string(kSchemaVersion) + ": upgrade the referee"));
  if (engine == Engine::sqlite) CHECK_THAT(refused, Catch::Contains((where.folder / "ladder.db").string()));
}

STORE_CASE(refuses_newer, "a database of a later schema is refused naming both versions") {
  const Location where = fresh(engine);
  {
    auto s = open_ok(where);
    auto& db = dynamic_cast<sql::SqlStore&>(*s).db();
    CHECK(db.exec("UPDATE meta SET value = ? WHERE key = 'schema'", {std::to_string(kSchemaVersion + 2)}) == 1);
  }
  const auto e = error_of(Store::open(where));
  CHECK_THAT(e, Catch::Contains("has schema " + std::to_string(kSchemaVersion + 2) + ", this referee reads up to " +
                                std::to_string(kSchemaVersion) + ": upgrade the referee"));
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
  CHECK_THAT(error_of(Store::open(where)), Catch::Contains("is not a regular file"));
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
