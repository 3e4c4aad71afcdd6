// The PostgreSQL engine (libpqxx 6.4): one connection per Store, replays in the legs rows (bytea),
// a claim in one autocommit statement with FOR UPDATE SKIP LOCKED, and session settings so that a
// dead or stuck client cannot hold a row lock for long (ladder.md's measurements: a lock lives
// until its statement or transaction ends).

#include <charconv>
#include <pqxx/pqxx>

#include "referee/ladder/store_sql.hpp"

namespace arena::ladder::sql {
namespace {

// A parameter as libpq takes it: text, or NULL.
struct PgParam {
  bool null = true;
  std::string text;
};

}  // namespace
}  // namespace arena::ladder::sql

template <>
struct pqxx::string_traits<arena::ladder::sql::PgParam> {
  using P = arena::ladder::sql::PgParam;
  static constexpr const char* name() noexcept { return "PgParam"; }
  static constexpr bool has_null() noexcept { return true; }
  static bool is_null(const P& p) { return p.null; }
  static P null() { return {}; }
  static void from_string(const char* s, P& p) { p = P{false, s}; }
  static std::string to_string(const P& p) { return p.text; }
};

namespace arena::ladder::sql {
namespace {

// PostgreSQL type oids the store reads (pg_type.dat).
constexpr pqxx::oid kBytea = 17, kInt8 = 20, kInt2 = 21, kInt4 = 23, kFloat4 = 700, kFloat8 = 701;

// The session's guards against stuck locks: a session idle inside a transaction is ended, a
// vanished client's statement is cancelled, and no statement waits for a lock for ever.
constexpr const char* kSessionSettings =
    "SET idle_in_transaction_session_timeout = '60s'; SET client_connection_check_interval = '1s';"
    " SET lock_timeout = '30s'";

// The advisory lock that serialises schema changes (any number of the ladder's own choosing).
constexpr std::int64_t kSchemaLock = 0x4c61646465720001;

constexpr char kHex[] = "0123456789abcdef";

PgParam to_param(const Value& v) {
  switch (v.kind) {
    case Value::Kind::null:
      return {};
    case Value::Kind::integer:
      return {false, std::to_string(v.integer)};
    case Value::Kind::real: {
      char buf[32];
      const auto r = std::to_chars(buf, buf + sizeof buf, v.real);
      return {false, std::string(buf, r.ptr)};
    }
    case Value::Kind::text:
      return {false, v.text};
    case Value::Kind::blob: {
      std::string hex = "\\x";
      hex.reserve(2 + 2 * v.text.size());
      for (const char ch : v.text) {
        const auto c = static_cast<unsigned char>(ch);
        hex += kHex[c >> 4];
        hex += kHex[c & 15];
      }
      return {false, std::move(hex)};
    }
  }
  return {};
}

// `?` placeholders numbered as PostgreSQL wants them ($1, $2, ...).
std::string numbered(std::string_view sql) {
  std::string out;
  int n = 0;
  for (char c : sql) {
    if (c == '?')
      out += "$" + std::to_string(++n);
    else
      out += c;
  }
  return out;
}

class PgDb final : public Db {
 public:
  explicit PgDb(const std::string& connection) : conn_(connection) {
    pqxx::nontransaction t(conn_);
    t.exec(kSessionSettings);
  }

  Dialect dialect() const override { return Dialect::postgres; }
  std::string dbname() { return conn_.dbname(); }

  void begin(bool) override {
    tx_.emplace(conn_);
    tx_->exec("BEGIN");
  }
  void commit() override {
    tx_->exec("COMMIT");
    tx_.reset();
  }
  void rollback() noexcept override {
    try {
      if (tx_) tx_->exec("ROLLBACK");
    } catch (...) {  // a broken connection has nothing left to roll back
    }
    tx_.reset();
  }

  std::vector<Row> query(std::string_view sql, const Params& params) override {
    const pqxx::result r = run(sql, params);
    std::vector<Row> rows;
    rows.reserve(r.size());
    const auto columns = r.columns();
    std::vector<pqxx::oid> types;
    for (pqxx::row::size_type c = 0; c < columns; ++c) types.push_back(r.column_type(c));
    for (const auto& row : r) {
      Row out(columns);
      for (pqxx::row::size_type c = 0; c < columns; ++c) {
        const pqxx::field f = row[c];
        if (f.is_null()) continue;
        Value& v = out[c];
        const pqxx::oid type = types[c];
        if (type == kBytea) {
          const pqxx::binarystring b(f);
          v.kind = Value::Kind::blob;
          v.text.assign(b.get(), b.get() + b.size());
        } else if (type == kInt8 || type == kInt4 || type == kInt2) {
          v.kind = Value::Kind::integer;
          v.integer = f.as<std::int64_t>();
        } else if (type == kFloat8 || type == kFloat4) {
          v.kind = Value::Kind::real;
          v.real = f.as<double>();
        } else {
          v.kind = Value::Kind::text;
          v.text.assign(f.c_str(), f.size());
        }
      }
      rows.push_back(std::move(out));
    }
    return rows;
  }

  std::int64_t exec(std::string_view sql, const Params& params) override {
    return static_cast<std::int64_t>(run(sql, params).affected_rows());
  }

  void lock_schema() override { query("SELECT pg_advisory_xact_lock(?)", {kSchemaLock}); }

  std::vector<std::string> tables() override {
    std::vector<std::string> out;
    for (const auto& r : query("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
                               " AND table_type = 'BASE TABLE'",
                               {}))
      out.push_back(r[0].str());
    return out;
  }

 private:
  pqxx::result run(std::string_view sql, const Params& params) {
    std::vector<PgParam> p;
    p.reserve(params.size());
    for (const auto& v : params) p.push_back(to_param(v));
    const std::string text = numbered(sql);
    if (tx_) return tx_->exec_params(text, pqxx::prepare::make_dynamic_params(p));
    pqxx::nontransaction t(conn_);  // outside a transaction: the statement commits alone
    return t.exec_params(text, pqxx::prepare::make_dynamic_params(p));
  }

  pqxx::connection conn_;
  std::optional<pqxx::nontransaction> tx_;
};

class PgStore final : public SqlStore {
 public:
  using SqlStore::SqlStore;

  Result<std::optional<Claim>> claim(const std::string& worker, std::int64_t now_ms, std::int64_t lease_ms) override {
    try {
      // One autocommit statement: the row chosen and locked (rows another claimer holds are
      // skipped), updated, returned, and when it was running (its lease expired) the event logged.
      const auto rows = db_->query(
          "WITH c AS (SELECT id, state AS was, worker AS was_worker " + std::string(kClaimable) +
              " FOR UPDATE SKIP LOCKED),"
              " u AS (UPDATE matches m SET state = 'running', worker = ?, attempt = m.attempt + 1, lease_until_ms = ?"
              " FROM c WHERE m.id = c.id RETURNING m.id, m.state, m.seats, m.seed, m.legs, m.priority, m.worker,"
              " m.attempt, m.lease_until_ms, m.created_ms, m.finished_ms, c.was, c.was_worker),"
              " e AS (" +
              expired_event("m.was_worker") +
              " FROM u m WHERE m.was = 'running')"
              " SELECT id, state, seats, seed, legs, priority, worker, attempt, lease_until_ms, created_ms, finished_ms"
              " FROM u",
          {now_ms, worker, now_ms + lease_ms, now_ms});
      if (rows.empty()) return std::optional<Claim>{};
      const MatchRow m = match_row(rows[0]);
      return std::optional<Claim>(Claim{m, worker, m.attempt});
    } catch (const std::exception& e) {
      return fail(std::string("the ladder database could not claim a match: ") + e.what());
    }
  }

 protected:
  Value replay_column(Id, int, const Bytes& compressed) override { return Value::blob(compressed); }
  Bytes get_replay(Id match, int leg) override {
    const auto rows = db_->query("SELECT replay FROM legs WHERE match_id = ? AND leg = ?", {match, leg});
    if (rows.empty() || rows[0][0].is_null())
      throw DbError("match " + std::to_string(match) + " leg " + std::to_string(leg) + " has no replay");
    return rows[0][0].bytes();
  }
  void drop_replays(Id, int) override {}  // they went with their legs rows
};

}  // namespace

Result<std::unique_ptr<Store>> open_postgres(const Location& where, std::span<const Migration> list) {
  std::unique_ptr<PgDb> db;
  try {
    db = std::make_unique<PgDb>(where.postgres);
  } catch (const std::exception& e) {
    return fail(std::string("cannot connect to the ladder's PostgreSQL database: ") + e.what());
  }
  const std::string name = "the PostgreSQL database \"" + db->dbname() + "\"";
  if (auto st = prepare_schema(*db, list, name); !st) return fail(st.error());
  return std::unique_ptr<Store>(std::make_unique<PgStore>(std::move(db)));
}

}  // namespace arena::ladder::sql
