// The SQLite engine: ladder.db in the ladder's folder (WAL, synchronous=NORMAL, a busy timeout,
// every write transaction BEGIN IMMEDIATE) and the replays beside it as files
// replays/<match>-<leg>.jsonl.zst (owner-only, temporary file + rename, read without following a
// link).

#include <SQLiteCpp/SQLiteCpp.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <unordered_map>

#include "referee/core/private_file.hpp"
#include "referee/ladder/compress.hpp"
#include "referee/ladder/store_sql.hpp"

namespace arena::ladder::sql {

namespace fs = std::filesystem;

namespace {

// How long a writer waits for another's transaction before the call fails.
constexpr int kBusyTimeoutMs = 10000;

// The wait for a busy database. SQLite's own busy timeout sleeps 1, 2, 5, 10 ... 100 ms between
// tries, far longer than a ladder's write transaction holds the lock (well under a millisecond):
// two claimers then wait tens of milliseconds for nothing. This one tries again every 100 us for
// the first 10 ms, then every millisecond, until kBusyTimeoutMs.
int busy_wait(void*, int tries) {
  constexpr int kQuick = 100;
  const std::int64_t waited_us = tries <= kQuick ? tries * 100 : kQuick * 100 + std::int64_t{tries - kQuick} * 1000;
  if (waited_us >= std::int64_t{kBusyTimeoutMs} * 1000) return 0;
  ::usleep(tries < kQuick ? 100 : 1000);
  return 1;
}

class SqliteDb final : public Db {
 public:
  explicit SqliteDb(const std::filesystem::path& file)
      // NOMUTEX: a Store is used by one thread (store.hpp), so SQLite's per-call locking is waste.
      : db_(file.string(), SQLite::OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX) {
    sqlite3_busy_handler(db_.getHandle(), &busy_wait, nullptr);
  }

  Dialect dialect() const override { return Dialect::sqlite; }
  void begin(bool write) override { db_.exec(write ? "BEGIN IMMEDIATE" : "BEGIN"); }
  void commit() override { db_.exec("COMMIT"); }
  void rollback() noexcept override {
    if (sqlite3_get_autocommit(db_.getHandle()) == 0)
      sqlite3_exec(db_.getHandle(), "ROLLBACK", nullptr, nullptr, nullptr);
  }

  std::vector<Row> query(std::string_view sql, const Params& params) override {
    Use use(prepare(sql, params));
    std::vector<Row> rows;
    auto& st = use.st;
    const int columns = st.getColumnCount();
    while (st.executeStep()) {
      Row row(static_cast<std::size_t>(columns));
      for (int c = 0; c < columns; ++c) {
        auto& v = row[static_cast<std::size_t>(c)];
        const SQLite::Column col = st.getColumn(c);
        switch (col.getType()) {
          case SQLITE_INTEGER:
            v = Value(static_cast<std::int64_t>(col.getInt64()));
            break;
          case SQLITE_FLOAT:
            v = Value(col.getDouble());
            break;
          case SQLITE_TEXT:
            v = Value(std::string(col.getText(), static_cast<std::size_t>(col.getBytes())));
            break;
          case SQLITE_BLOB:
            v.kind = Value::Kind::blob;
            v.text.assign(static_cast<const char*>(col.getBlob()), static_cast<std::size_t>(col.getBytes()));
            break;
          default:
            break;  // NULL
        }
      }
      rows.push_back(std::move(row));
    }
    return rows;
  }

  std::int64_t exec(std::string_view sql, const Params& params) override {
    Use use(prepare(sql, params));
    return use.st.exec();
  }

  std::vector<std::string> tables() override {
    std::vector<std::string> out;
    for (const auto& r : query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'", {}))
      out.push_back(r[0].str());
    return out;
  }

  SQLite::Database& handle() { return db_; }

 private:
  // A cached statement in use: reset when done (a statement left stepping would keep its
  // transaction's lock).
  struct Use {
    SQLite::Statement& st;
    explicit Use(SQLite::Statement& s) : st(s) {}
    ~Use() {
      st.tryReset();
      try {
        st.clearBindings();
      } catch (...) {  // nothing bound stays used: the next use binds every parameter again
      }
    }
  };

  SQLite::Statement& prepare(std::string_view sql, const Params& params) {
    auto it = cache_.find(std::string(sql));
    if (it == cache_.end())
      it = cache_.emplace(std::string(sql), std::make_unique<SQLite::Statement>(db_, std::string(sql))).first;
    auto& st = *it->second;
    for (std::size_t i = 0; i < params.size(); ++i) {
      const int at = static_cast<int>(i + 1);
      const Value& p = params[i];
      switch (p.kind) {
        case Value::Kind::null:
          st.bind(at);
          break;
        case Value::Kind::integer:
          st.bind(at, static_cast<std::int64_t>(p.integer));
          break;
        case Value::Kind::real:
          st.bind(at, p.real);
          break;
        case Value::Kind::text:
          st.bindNoCopy(at, p.text);
          break;
        case Value::Kind::blob:
          st.bindNoCopy(at, p.text.data(), static_cast<int>(p.text.size()));
          break;
      }
    }
    return st;
  }

  SQLite::Database db_;
  std::unordered_map<std::string, std::unique_ptr<SQLite::Statement>> cache_;
};

std::string replay_name(Id match, int leg) {
  return std::to_string(match) + "-" + std::to_string(leg) + ".jsonl.zst";
}

class SqliteStore final : public SqlStore {
 public:
  SqliteStore(std::unique_ptr<SqliteDb> db, files::Dir replays)
      : SqlStore(std::move(db)), replays_(std::move(replays)) {}

  Result<std::optional<Claim>> claim(const std::string& worker, std::int64_t now_ms, std::int64_t lease_ms) override {
    try {
      Txn txn(*db_, true);
      const auto rows = db_->query("SELECT " + std::string(kMatchColumns) + " " + std::string(kClaimable), {now_ms});
      if (rows.empty()) return std::optional<Claim>{};
      MatchRow m = match_row(rows[0]);
      const bool was_running = m.state == MatchState::running;
      const std::string old_worker = m.worker;
      m.state = MatchState::running;
      m.worker = worker;
      m.attempt += 1;
      m.lease_until_ms = now_ms + lease_ms;
      db_->exec("UPDATE matches SET state = 'running', worker = ?, attempt = ?, lease_until_ms = ? WHERE id = ?",
                {worker, m.attempt, m.lease_until_ms, m.id});
      if (was_running) db_->exec(expired_event("?") + " FROM matches m WHERE m.id = ?", {now_ms, old_worker, m.id});
      txn.commit();
      return std::optional<Claim>(Claim{m, worker, m.attempt});
    } catch (const std::exception& e) {
      return fail(std::string("the ladder database could not claim a match: ") + e.what());
    }
  }

 protected:
  Value replay_column(Id match, int leg, const Bytes& compressed) override {
    const auto st = replays_.write(
        replay_name(match, leg), std::string_view(reinterpret_cast<const char*>(compressed.data()), compressed.size()));
    if (!st) throw DbError(st.error());
    return nullptr;
  }

  Bytes get_replay(Id match, int leg) override {
    auto text = replays_.read(replay_name(match, leg), kMaxReplayBytes);
    if (!text) throw DbError(text.error());
    return Bytes(text->begin(), text->end());
  }

  void drop_replays(Id match, int legs) override {
    for (int leg = 0; leg < legs; ++leg) ::unlinkat(replays_.fd(), replay_name(match, leg).c_str(), 0);
  }

 private:
  files::Dir replays_;
};

}  // namespace

Result<std::unique_ptr<Store>> open_sqlite(const Location& where, std::span<const Migration> list) {
  const auto file = where.folder / "ladder.db";
  const std::string name = file.string();
  if (auto made = files::make_private_dirs(where.folder); !made) return fail(made.error());
  // Created owner-only before SQLite opens it (its -wal and -shm files take the same mode).
  if (auto created = files::create_private(file); !created) return fail(created.error());
  // SQLite opens it without following a link (SQLITE_OPEN_NOFOLLOW); the error says why.
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(file, ec)))
    return fail(name + " is not a regular file (a link or another kind of file): refused");
  std::unique_ptr<SqliteDb> db;
  try {
    db = std::make_unique<SqliteDb>(file);
    db->handle().exec("PRAGMA journal_mode = WAL");
    db->handle().exec("PRAGMA synchronous = NORMAL");
    db->handle().exec("PRAGMA foreign_keys = ON");
  } catch (const SQLite::Exception& e) {
    if (e.getErrorCode() == SQLITE_NOTADB)
      return fail(name + " is not a ladder database (not an SQLite database: " + e.what() + ")");
    return fail("cannot open the ladder database " + name + ": " + e.what());
  }
  if (auto st = prepare_schema(*db, list, name); !st) return fail(st.error());
  if (auto made = files::make_private_dirs(where.folder / "replays"); !made) return fail(made.error());
  auto replays = files::Dir::open(where.folder / "replays");
  if (!replays) return fail(replays.error());
  return std::unique_ptr<Store>(std::make_unique<SqliteStore>(std::move(db), std::move(replays.value())));
}

}  // namespace arena::ladder::sql
