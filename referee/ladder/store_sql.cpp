// The Store's calls in SQL both engines read (store_sql.hpp): settings, bots and versions, workers
// and events, accounts (the match life is in store_sql_matches.cpp); each call is one transaction.

#include "referee/ladder/store_sql.hpp"

#include "referee/ladder/store_sql_rows.hpp"

namespace arena::ladder::sql {

using namespace rows;

MatchRow SqlStore::match_row(const Row& r) {
  MatchRow m;
  m.id = r[0].i64();
  m.state = parse_state<MatchState>(r[1]);
  m.seats = ids(r[2], "matches.seats");
  m.seed = static_cast<std::uint64_t>(r[3].i64());
  m.legs = static_cast<int>(r[4].i64());
  m.priority = static_cast<int>(r[5].i64());
  m.worker = r[6].str();
  m.attempt = static_cast<int>(r[7].i64());
  m.lease_until_ms = r[8].i64();
  m.created_ms = r[9].i64();
  m.finished_ms = r[10].i64();
  return m;
}

std::string SqlStore::expired_event(std::string_view old_worker) {
  return "INSERT INTO events (at_ms, kind, message) SELECT ?, 'expired', 'the lease of match ' || m.id ||"
         " ' (attempt ' || (m.attempt - 1) || ' by ' || " +
         std::string(old_worker) + " || ') expired; ' || m.worker || ' claimed it again'";
}

int SqlStore::schema_version() {
  try {
    return static_cast<int>(one(db_->query("SELECT value FROM meta WHERE key = 'schema'"), "no schema").i64());
  } catch (const std::exception&) {
    return 0;
  }
}

Status SqlStore::put_setting(const std::string& key, const std::string& value) {
  return guard("write a setting", [&]() -> Status {
    db_->exec("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
              {key, value});
    return {};
  });
}

Result<std::optional<std::string>> SqlStore::setting(const std::string& key) {
  return guard("read a setting", [&]() -> Result<std::optional<std::string>> {
    const auto rows = db_->query("SELECT value FROM settings WHERE key = ?", {key});
    if (rows.empty()) return std::optional<std::string>{};
    return std::optional<std::string>(rows[0][0].str());
  });
}

// --- Bots and versions

Result<VersionRow> SqlStore::add_version(const NewVersion& v) {
  return guard("add a version", [&]() -> Result<VersionRow> {
    Txn txn(*db_, true);
    db_->exec("INSERT INTO bots (name, author) VALUES (?, ?) ON CONFLICT (name) DO NOTHING", {v.bot, v.author});
    // PostgreSQL: the bot's row locked, so two submissions of one bot number their versions in turn.
    const std::string lock = db_->dialect() == Dialect::postgres ? " FOR UPDATE" : "";
    const auto author = one(db_->query("SELECT author FROM bots WHERE name = ?" + lock, {v.bot}), "no bot row").str();
    if (author != v.author)
      return fail("the bot name \"" + v.bot + "\" belongs to another author: choose another name");
    const auto number =
        one(db_->query("SELECT COALESCE(MAX(number), 0) + 1 FROM versions WHERE bot = ?", {v.bot}), "no number").i64();
    const Id id = one(db_->query("INSERT INTO versions (bot, number, state, manifest, source, submitted_ms)"
                                 " VALUES (?, ?, 'building', ?, ?, ?) RETURNING id",
                                 {v.bot, number, v.manifest.dump(), Value::blob(v.source), v.now_ms}),
                      "no id")
                      .i64();
    txn.commit();
    VersionRow row;
    row.id = id;
    row.bot = v.bot;
    row.author = v.author;
    row.number = static_cast<int>(number);
    row.manifest = v.manifest;
    row.submitted_ms = v.now_ms;
    return row;
  });
}

namespace {

// A blob column of one version; an error names a missing version or an empty column.
Result<Bytes> version_blob(Db& db, Id version, std::string_view column, bool required) {
  const auto rows = db.query("SELECT " + std::string(column) + " FROM versions WHERE id = ?", {version});
  if (rows.empty()) return fail("there is no version " + std::to_string(version));
  if (rows[0][0].is_null() && required)
    return fail("version " + std::to_string(version) + " has no " + std::string(column) + " files (not built)");
  return rows[0][0].bytes();
}

}  // namespace

Result<Bytes> SqlStore::version_source(Id version) {
  return guard("read a version's source", [&] { return version_blob(*db_, version, "source", true); });
}

Result<Bytes> SqlStore::version_files(Id version) {
  return guard("read a version's built files", [&] { return version_blob(*db_, version, "built", true); });
}

Result<Bytes> SqlStore::storage(Id version) {
  return guard("read a version's storage", [&] { return version_blob(*db_, version, "storage", false); });
}

Status SqlStore::put_storage(Id version, const Bytes& data) {
  return guard("write a version's storage", [&]() -> Status {
    if (db_->exec("UPDATE versions SET storage = ? WHERE id = ?", {Value::blob(data), version}) == 0)
      return fail("there is no version " + std::to_string(version));
    return {};
  });
}

Status SqlStore::finish_build(Id version, VersionState state, const std::string& command, const Bytes& built,
                              const std::string& build_log, const std::string& fault, std::int64_t now_ms) {
  if (state != VersionState::active && state != VersionState::rejected)
    return fail("a build ends with the version active or rejected, not " + std::string(enum_name(state)));
  return guard("record a build", [&]() -> Status {
    Txn txn(*db_, true);
    const auto rows = db_->query("SELECT bot, number, state FROM versions WHERE id = ?", {version});
    if (rows.empty()) return fail("there is no version " + std::to_string(version));
    const std::string bot = rows[0][0].str();
    const std::int64_t number = rows[0][1].i64();
    if (parse_state<VersionState>(rows[0][2]) != VersionState::building)
      return fail(label(bot, number) + " is " + rows[0][2].str() + ", not building");
    VersionState final_state = state;
    if (state == VersionState::active) {
      // The bot's other active version is replaced, unless it is newer (its build finished first):
      // then this one is retired at once.
      const auto active = db_->query("SELECT id, number FROM versions WHERE bot = ? AND state = 'active'", {bot});
      for (const auto& a : active) {
        if (a[1].i64() > number) {
          final_state = VersionState::retired;
          insert_event(*db_, EventKind::retired,
                       label(bot, number) + " retired: version " + std::to_string(a[1].i64()) + " is newer", now_ms);
        } else {
          db_->exec("UPDATE versions SET state = 'retired' WHERE id = ?", {a[0].i64()});
          insert_event(*db_, EventKind::retired,
                       label(bot, a[1].i64()) + " retired: replaced by version " + std::to_string(number), now_ms);
        }
      }
    } else {
      insert_event(*db_, EventKind::rejected, label(bot, number) + " rejected: " + fault, now_ms);
    }
    db_->exec(
        "UPDATE versions SET state = ?, command = ?, built = ?, build_log = ?, fault = ?, decided_ms = ?"
        " WHERE id = ?",
        {text(enum_name(final_state)), command, state == VersionState::active ? Value::blob(built) : Value(nullptr),
         build_log, fault, now_ms, version});
    txn.commit();
    return {};
  });
}

Result<bool> SqlStore::withdraw(const std::string& bot, std::int64_t now_ms) {
  return guard("withdraw a bot", [&]() -> Result<bool> {
    Txn txn(*db_, true);
    const auto rows =
        db_->query("SELECT id, number, state FROM versions WHERE bot = ? AND state IN ('active', 'building')", {bot});
    for (const auto& r : rows) {
      db_->exec(
          "UPDATE versions SET state = 'retired', decided_ms = CASE WHEN decided_ms = 0 THEN ? ELSE decided_ms END"
          " WHERE id = ?",
          {now_ms, r[0].i64()});
      insert_event(*db_, EventKind::retired, label(bot, r[1].i64()) + " withdrawn (it was " + r[2].str() + ")", now_ms);
    }
    txn.commit();
    return !rows.empty();
  });
}

Result<std::vector<VersionRow>> SqlStore::versions(std::optional<VersionState> state) {
  return guard("list versions", [&]() -> Result<std::vector<VersionRow>> {
    std::vector<VersionRow> out;
    const auto rows =
        state ? db_->query(std::string(kVersionColumns) + " WHERE v.state = ? ORDER BY v.id", {text(enum_name(*state))})
              : db_->query(std::string(kVersionColumns) + " ORDER BY v.id");
    for (const auto& r : rows) out.push_back(version_row(r));
    return out;
  });
}

Result<std::optional<VersionRow>> SqlStore::version(Id id) {
  return guard("read a version", [&]() -> Result<std::optional<VersionRow>> {
    const auto rows = db_->query(std::string(kVersionColumns) + " WHERE v.id = ?", {id});
    if (rows.empty()) return std::optional<VersionRow>{};
    return std::optional<VersionRow>(version_row(rows[0]));
  });
}

// --- Workers and events

Status SqlStore::heartbeat(const WorkerRow& w) {
  return guard("record a heartbeat", [&]() -> Status {
    db_->exec(
        "INSERT INTO workers (name, host, started_ms, heartbeat_ms, match_id) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (name) DO UPDATE SET host = excluded.host, heartbeat_ms = excluded.heartbeat_ms,"
        " match_id = excluded.match_id",
        {w.name, w.host, w.started_ms, w.heartbeat_ms, w.match ? Value(*w.match) : Value(nullptr)});
    return {};
  });
}

Status SqlStore::worker_gone(const std::string& name) {
  return guard("remove a worker", [&]() -> Status {
    db_->exec("DELETE FROM workers WHERE name = ?", {name});
    return {};
  });
}

Result<std::vector<WorkerRow>> SqlStore::workers() {
  return guard("list workers", [&]() -> Result<std::vector<WorkerRow>> {
    std::vector<WorkerRow> out;
    for (const auto& r :
         db_->query("SELECT name, host, started_ms, heartbeat_ms, match_id FROM workers ORDER BY name")) {
      WorkerRow w{r[0].str(), r[1].str(), r[2].i64(), r[3].i64(), std::nullopt};
      if (!r[4].is_null()) w.match = r[4].i64();
      out.push_back(std::move(w));
    }
    return out;
  });
}

Status SqlStore::log_event(EventKind kind, const std::string& message, std::int64_t now_ms) {
  return guard("log an event", [&]() -> Status {
    insert_event(*db_, kind, message, now_ms);
    return {};
  });
}

Result<std::vector<EventRow>> SqlStore::events(std::size_t limit) {
  return guard("read events", [&]() -> Result<std::vector<EventRow>> {
    std::vector<EventRow> out;
    for (const auto& r :
         db_->query("SELECT id, at_ms, kind, message FROM events ORDER BY id DESC LIMIT ?", {limit_value(limit)}))
      out.push_back(EventRow{r[0].i64(), r[1].i64(), parse_state<EventKind>(r[2]), r[3].str()});
    return out;
  });
}

// --- Accounts

Status SqlStore::add_author(const AuthorRow& a) {
  return guard("add an account", [&]() -> Status {
    Txn txn(*db_, true);
    if (!db_->query("SELECT 1 FROM authors WHERE name = ?", {a.name}).empty())
      return fail("the ladder has an account \"" + a.name + "\" already");
    db_->exec("INSERT INTO authors (name, token_hash, organiser, created_ms) VALUES (?, ?, ?, ?)",
              {a.name, a.token_hash, a.organiser ? 1 : 0, a.created_ms});
    txn.commit();
    return {};
  });
}

namespace {

AuthorRow author_row(const Row& r) {
  return AuthorRow{r[0].str(), r[1].str(), r[2].i64() != 0, r[3].i64()};
}

}  // namespace

Result<std::optional<AuthorRow>> SqlStore::author_by_token_hash(const std::string& token_hash) {
  return guard("read an account", [&]() -> Result<std::optional<AuthorRow>> {
    const auto rows =
        db_->query("SELECT name, token_hash, organiser, created_ms FROM authors WHERE token_hash = ?", {token_hash});
    if (rows.empty()) return std::optional<AuthorRow>();
    return std::optional<AuthorRow>(author_row(rows[0]));
  });
}

Result<std::vector<AuthorRow>> SqlStore::authors() {
  return guard("list the accounts", [&]() -> Result<std::vector<AuthorRow>> {
    std::vector<AuthorRow> out;
    for (const auto& r : db_->query("SELECT name, token_hash, organiser, created_ms FROM authors ORDER BY name"))
      out.push_back(author_row(r));
    return out;
  });
}

Result<SubmissionSlot> SqlStore::take_submission_slot(const std::string& author, std::int64_t now_ms,
                                                      std::int64_t window_ms, std::size_t limit) {
  return guard("count a submission", [&]() -> Result<SubmissionSlot> {
    Txn txn(*db_, true);
    // PostgreSQL: one account's submissions are counted one at a time (SQLite's write
    // transaction already is).
    if (db_->dialect() == Dialect::postgres) db_->query("SELECT 1 FROM authors WHERE name = ? FOR UPDATE", {author});
    const std::int64_t since = now_ms - window_ms;
    db_->exec("DELETE FROM submissions WHERE at_ms <= ?", {since});
    const auto rows = db_->query("SELECT at_ms FROM submissions WHERE author = ? ORDER BY at_ms LIMIT ?",
                                 {author, static_cast<std::int64_t>(limit)});
    SubmissionSlot slot;
    if (rows.size() >= limit) {
      slot.retry_at_ms = rows.front()[0].i64() + window_ms;
    } else {
      db_->exec("INSERT INTO submissions (author, at_ms) VALUES (?, ?)", {author, now_ms});
      slot.granted = true;
    }
    txn.commit();
    return slot;
  });
}

}  // namespace arena::ladder::sql
