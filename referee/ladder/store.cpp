// The store's engine choice, its schema and numbered migrations (shared by both engines), and the
// text of the number lists its rows keep.

#include <charconv>
#include <cstring>

#include "referee/ladder/store_sql.hpp"

namespace arena::ladder {

std::vector<Id> leg_seats(const std::vector<Id>& seats, int leg) {
  std::vector<Id> out;
  const std::size_t n = seats.size();
  for (std::size_t s = 0; s < n; ++s) out.push_back(seats[(s + static_cast<std::size_t>(leg)) % n]);
  return out;
}

Result<std::unique_ptr<Store>> Store::open(const Location& where) {
  return sql::open_with(where, sql::migrations());
}

}  // namespace arena::ladder

namespace arena::ladder::sql {

namespace {

// What marks a database as a ladder's (meta.ladder).
constexpr std::string_view kMarker = "stellar-arena ladder";

// Version 1: the whole schema. docs/ladder.md describes its tables.
void create_v1(Db& db) {
  static constexpr std::string_view statements[] = {
      "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
      "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
      "CREATE TABLE bots (name TEXT PRIMARY KEY, author TEXT NOT NULL)",
      "CREATE TABLE versions (id {id}, bot TEXT NOT NULL REFERENCES bots (name), number INTEGER NOT NULL,"
      " state TEXT NOT NULL, manifest TEXT NOT NULL, source {blob} NOT NULL, command TEXT NOT NULL DEFAULT '',"
      " built {blob}, build_log TEXT NOT NULL DEFAULT '', fault TEXT NOT NULL DEFAULT '', storage {blob},"
      " submitted_ms BIGINT NOT NULL, decided_ms BIGINT NOT NULL DEFAULT 0, UNIQUE (bot, number))",
      "CREATE TABLE matches (id {id}, state TEXT NOT NULL, seats TEXT NOT NULL, seed BIGINT NOT NULL,"
      " legs INTEGER NOT NULL, priority INTEGER NOT NULL, worker TEXT NOT NULL DEFAULT '',"
      " attempt INTEGER NOT NULL DEFAULT 0, lease_until_ms BIGINT NOT NULL DEFAULT 0,"
      " created_ms BIGINT NOT NULL, finished_ms BIGINT NOT NULL DEFAULT 0)",
      "CREATE INDEX matches_state ON matches (state, priority, id)",
      // The claim's walk in its order over the matches that may be claimable (counted ones out).
      "CREATE INDEX matches_claim ON matches (priority, id) WHERE state IN ('queued', 'running')",
      // A reported leg (kept once counted: its replay). The typed result in columns, the whole
      // result as its JSON; the replay here (PostgreSQL) or in replays/<match>-<leg>.jsonl.zst.
      "CREATE TABLE legs (match_id BIGINT NOT NULL REFERENCES matches (id), leg INTEGER NOT NULL,"
      " seats TEXT NOT NULL, end_kind TEXT NOT NULL, scores TEXT NOT NULL, ranks TEXT NOT NULL,"
      " fault_seat INTEGER, fault_kind TEXT, fault_message TEXT NOT NULL, result TEXT NOT NULL,"
      " replay {blob}, start_ms BIGINT NOT NULL, end_ms BIGINT NOT NULL, PRIMARY KEY (match_id, leg))",
      "CREATE TABLE games (id {id}, match_id BIGINT NOT NULL, leg INTEGER NOT NULL, seed BIGINT NOT NULL,"
      " seats TEXT NOT NULL, end_kind TEXT NOT NULL, scores TEXT NOT NULL, ranks TEXT NOT NULL,"
      " fault_seat INTEGER, fault_kind TEXT, fault_message TEXT NOT NULL, end_ms BIGINT NOT NULL,"
      " UNIQUE (match_id, leg))",
      "CREATE TABLE ratings (id {id}, version BIGINT NOT NULL, rating {real} NOT NULL, low {real} NOT NULL,"
      " high {real} NOT NULL, games BIGINT NOT NULL, at_ms BIGINT NOT NULL)",
      "CREATE INDEX ratings_version ON ratings (version, id)",
      "CREATE TABLE workers (name TEXT PRIMARY KEY, host TEXT NOT NULL, started_ms BIGINT NOT NULL,"
      " heartbeat_ms BIGINT NOT NULL, match_id BIGINT)",
      "CREATE TABLE events (id {id}, at_ms BIGINT NOT NULL, kind TEXT NOT NULL, message TEXT NOT NULL)",
  };
  for (std::string_view s : statements) db.exec(spell(db.dialect(), s));
  db.exec("INSERT INTO meta (key, value) VALUES ('ladder', ?)", {kMarker});
}

// Version 2: the web API's accounts (an author's name, the hash of its token, whether it is the
// organiser's).
void create_v2(Db& db) {
  db.exec(
      "CREATE TABLE authors (name TEXT PRIMARY KEY, token_hash TEXT NOT NULL UNIQUE, organiser INTEGER NOT NULL,"
      " created_ms BIGINT NOT NULL)");
}

// Version 3: a reported match's storage folders, waiting for the audit's verdict (count makes
// them the versions' storage, refuse drops them).
void create_v3(Db& db) {
  db.exec(spell(db.dialect(),
                "CREATE TABLE pending_storage (match_id BIGINT NOT NULL REFERENCES matches (id),"
                " version BIGINT NOT NULL REFERENCES versions (id), packed {blob} NOT NULL,"
                " PRIMARY KEY (match_id, version))"));
}

// Version 4: the web's submissions within the rate limit's window (an account's name, when).
void create_v4(Db& db) {
  db.exec("CREATE TABLE submissions (author TEXT NOT NULL, at_ms BIGINT NOT NULL)");
  db.exec("CREATE INDEX submissions_author ON submissions (author, at_ms)");
}

constexpr Migration kMigrations[] = {
    {1, "the ladder's tables", &create_v1},
    {2, "the web API's accounts", &create_v2},
    {3, "storage reported and not yet counted", &create_v3},
    {4, "the web's submissions within the rate limit", &create_v4},
};
static_assert(std::size(kMigrations) == kSchemaVersion, "one migration per schema version");

bool has(const std::vector<std::string>& v, std::string_view name) {
  for (const auto& s : v)
    if (s == name) return true;
  return false;
}

struct Found {
  int version = 0;  // 0: an empty database
  std::string refusal;
};

// What the database holds now (inside the caller's transaction).
Found inspect(Db& db, const std::string& name) {
  const auto tables = db.tables();
  if (tables.empty()) return {};
  const auto not_ladder = [&](const std::string& why) {
    return Found{0, name + " is not a ladder database (" + why + ")"};
  };
  if (!has(tables, "meta")) return not_ladder("it has tables but no ladder marker");
  const auto rows = db.query("SELECT key, value FROM meta WHERE key IN ('ladder', 'schema')");
  std::string marker, schema;
  for (const auto& r : rows) (r[0].str() == "ladder" ? marker : schema) = r[1].str();
  if (marker != kMarker) return not_ladder("its meta table has no ladder marker");
  int version = 0;
  const auto [end, ec] = std::from_chars(schema.data(), schema.data() + schema.size(), version);
  if (ec != std::errc{} || end != schema.data() + schema.size() || version < 1)
    return not_ladder("its schema version \"" + schema + "\" is not a number");
  return {version, ""};
}

}  // namespace

std::span<const Migration> migrations() {
  return kMigrations;
}

std::string spell(Dialect dialect, std::string_view sql) {
  const bool pg = dialect == Dialect::postgres;
  std::string out;
  out.reserve(sql.size() + 16);
  for (std::size_t i = 0; i < sql.size(); ++i) {
    const auto at = [&](std::string_view word) { return sql.substr(i, word.size()) == word; };
    if (at("{id}")) {
      out += pg ? "BIGSERIAL PRIMARY KEY" : "INTEGER PRIMARY KEY";
      i += 3;
    } else if (at("{blob}")) {
      out += pg ? "BYTEA" : "BLOB";
      i += 5;
    } else if (at("{real}")) {
      out += pg ? "DOUBLE PRECISION" : "REAL";
      i += 5;
    } else {
      out += sql[i];
    }
  }
  return out;
}

Status prepare_schema(Db& db, std::span<const Migration> list, const std::string& name) {
  const int target = list.empty() ? 0 : list.back().version;
  try {
    // One transaction per migration; the version is read again inside each (another process may
    // have migrated meanwhile: the write transaction serialises them).
    for (;;) {
      Txn txn(db, true);
      db.lock_schema();
      const Found found = inspect(db, name);
      if (!found.refusal.empty()) return fail(found.refusal);
      if (found.version > target)
        return fail(name + " has schema " + std::to_string(found.version) + ", this referee reads up to " +
                    std::to_string(target) + ": upgrade the referee");
      if (found.version == target) return {};
      const Migration& m = list[static_cast<std::size_t>(found.version)];
      m.apply(db);
      const std::string v = std::to_string(m.version);
      if (db.exec("UPDATE meta SET value = ? WHERE key = 'schema'", {v}) == 0)
        db.exec("INSERT INTO meta (key, value) VALUES ('schema', ?)", {v});
      txn.commit();
    }
  } catch (const std::exception& e) {
    return fail(name + ": cannot prepare the ladder's schema: " + e.what());
  }
}

// --- Values

std::int64_t Value::i64() const {
  if (kind == Kind::integer) return integer;
  if (kind == Kind::text) {
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec == std::errc{} && end == text.data() + text.size()) return v;
  }
  throw DbError("a column expected to hold an integer holds something else");
}

double Value::f64() const {
  if (kind == Kind::real) return real;
  if (kind == Kind::integer) return static_cast<double>(integer);
  if (kind == Kind::text) {
    double v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec == std::errc{} && end == text.data() + text.size()) return v;
  }
  throw DbError("a column expected to hold a number holds something else");
}

const std::string& Value::str() const {
  if (kind == Kind::text || kind == Kind::blob) return text;
  throw DbError("a column expected to hold text holds something else");
}

Bytes Value::bytes() const {
  if (kind == Kind::null) return {};
  if (kind != Kind::blob && kind != Kind::text) throw DbError("a column expected to hold bytes holds something else");
  return Bytes(text.begin(), text.end());
}

// --- Number lists

namespace {

template <typename T>
std::string join_numbers(const std::vector<T>& v) {
  std::string out;
  char buf[32];
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i > 0) out += ' ';
    const auto r = std::to_chars(buf, buf + sizeof buf, v[i]);  // shortest text that reads back exactly
    out.append(buf, r.ptr);
  }
  return out;
}

template <typename T>
std::vector<T> split_numbers(std::string_view text, std::string_view what) {
  std::vector<T> out;
  const char* p = text.data();
  const char* end = p + text.size();
  while (p < end) {
    T v{};
    const auto r = std::from_chars(p, end, v);
    if (r.ec != std::errc{} || (r.ptr != end && *r.ptr != ' '))
      throw DbError(std::string(what) + " holds \"" + std::string(text) + "\", not a list of numbers");
    out.push_back(v);
    p = r.ptr == end ? end : r.ptr + 1;
  }
  return out;
}

}  // namespace

std::string ints_text(const std::vector<std::int64_t>& v) {
  return join_numbers(v);
}
std::string ints_text(const std::vector<int>& v) {
  return join_numbers(v);
}
std::string doubles_text(const std::vector<double>& v) {
  return join_numbers(v);
}
std::vector<std::int64_t> ints_from_text(std::string_view text, std::string_view what) {
  return split_numbers<std::int64_t>(text, what);
}
std::vector<double> doubles_from_text(std::string_view text, std::string_view what) {
  return split_numbers<double>(text, what);
}

Result<std::unique_ptr<Store>> open_with(const Location& where, std::span<const Migration> list) {
  return where.postgres.empty() ? open_sqlite(where, list) : open_postgres(where, list);
}

}  // namespace arena::ladder::sql
