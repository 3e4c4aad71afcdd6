#pragma once
// Inside the store (not for the ladder's other parts): the one implementation of the Store over a
// small SQL connection interface (Db) that each engine implements (store_sqlite.cpp,
// store_pg.cpp). The SQL is shared: `?` placeholders (PostgreSQL's connection numbers them), the
// types the schema spells per engine ({id}, {blob}, {real}), and only what the engines do
// differently stays in the engine: how a transaction starts, where replays live, how a claim is
// taken (one statement with SKIP LOCKED, or a BEGIN IMMEDIATE transaction).

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "referee/ladder/store.hpp"

namespace arena::ladder::sql {

enum class Dialect { sqlite, postgres };

// One value of a row or a parameter. Blobs keep their bytes in `text`.
struct Value {
  enum class Kind { null, integer, real, text, blob };
  Kind kind = Kind::null;
  std::int64_t integer = 0;
  double real = 0;
  std::string text;

  Value() = default;
  Value(std::nullptr_t) {}
  Value(std::int64_t v) : kind(Kind::integer), integer(v) {}
  Value(int v) : kind(Kind::integer), integer(v) {}
  Value(std::uint64_t v) : kind(Kind::integer), integer(static_cast<std::int64_t>(v)) {}  // bits kept
  Value(double v) : kind(Kind::real), real(v) {}
  Value(std::string v) : kind(Kind::text), text(std::move(v)) {}
  Value(std::string_view v) : kind(Kind::text), text(v) {}
  Value(const char* v) : kind(Kind::text), text(v) {}
  static Value blob(const Bytes& b) {
    Value v;
    v.kind = Kind::blob;
    v.text.assign(b.begin(), b.end());
    return v;
  }

  bool is_null() const { return kind == Kind::null; }
  // Read as the column's type; a value of another type is a database error (thrown).
  std::int64_t i64() const;
  double f64() const;
  const std::string& str() const;
  Bytes bytes() const;
};
using Row = std::vector<Value>;
using Params = std::vector<Value>;

// Thrown by the engines and the shared code; each Store call turns it into its error.
struct DbError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One connection. A Store call opens at most one transaction; statements outside one commit alone.
class Db {
 public:
  virtual ~Db() = default;
  virtual Dialect dialect() const = 0;
  virtual void begin(bool write) = 0;  // SQLite: BEGIN IMMEDIATE for writes
  virtual void commit() = 0;
  virtual void rollback() noexcept = 0;
  virtual std::vector<Row> query(std::string_view sql, const Params& params = {}) = 0;
  virtual std::int64_t exec(std::string_view sql, const Params& params = {}) = 0;  // rows changed
  // The tables of the database's schema (to tell an empty database from a foreign one).
  virtual std::vector<std::string> tables() = 0;
  // Inside a write transaction: waits until no other connection is changing the schema
  // (PostgreSQL: an advisory lock; SQLite's BEGIN IMMEDIATE already excludes other writers).
  virtual void lock_schema() {}
};

// A transaction for the scope: rolled back unless committed.
class Txn {
 public:
  Txn(Db& db, bool write) : db_(db) { db_.begin(write); }
  ~Txn() {
    if (!done_) db_.rollback();
  }
  Txn(const Txn&) = delete;
  Txn& operator=(const Txn&) = delete;
  void commit() {
    db_.commit();
    done_ = true;
  }

 private:
  Db& db_;
  bool done_ = false;
};

// The schema's SQL for `dialect`: {id} an integer key the database assigns, {blob} bytes,
// {real} a double.
std::string spell(Dialect dialect, std::string_view sql);

// A numbered migration: `apply` takes the schema from version - 1 to `version` (inside the
// transaction the caller opened; the caller records the version). Migration 1 creates the schema.
struct Migration {
  int version = 0;
  std::string_view what;
  void (*apply)(Db& db) = nullptr;
};
std::span<const Migration> migrations();  // the referee's, 1 .. kSchemaVersion

// Creates, checks and migrates the schema of `db` to the last of `list`; `name` names the
// database in errors ("/x/ladder.db", "the PostgreSQL database ...").
Status prepare_schema(Db& db, std::span<const Migration> list, const std::string& name);

// The numbers of a list as the text a column keeps ("3 7 12"), and back (an error names `what`).
std::string ints_text(const std::vector<std::int64_t>& v);
std::string ints_text(const std::vector<int>& v);
std::string doubles_text(const std::vector<double>& v);
std::vector<std::int64_t> ints_from_text(std::string_view text, std::string_view what);
std::vector<double> doubles_from_text(std::string_view text, std::string_view what);

// The Store over a Db; the engines add where replays live and how a claim is taken.
class SqlStore : public Store {
 public:
  explicit SqlStore(std::unique_ptr<Db> db) : db_(std::move(db)) {}
  Db& db() { return *db_; }  // the benchmark seeds through it

  int schema_version() override;
  Status put_setting(const std::string& key, const std::string& value) override;
  Result<std::optional<std::string>> setting(const std::string& key) override;
  Result<VersionRow> add_version(const NewVersion& v) override;
  Result<Bytes> version_source(Id version) override;
  Status finish_build(Id version, VersionState state, const std::string& command, const Bytes& built,
                      const std::string& build_log, const std::string& fault, std::int64_t now_ms) override;
  Result<Bytes> version_files(Id version) override;
  Result<bool> withdraw(const std::string& bot, std::int64_t now_ms) override;
  Result<std::vector<VersionRow>> versions(std::optional<VersionState> state) override;
  Result<std::optional<VersionRow>> version(Id id) override;
  Result<Bytes> storage(Id version) override;
  Status put_storage(Id version, const Bytes& data) override;
  Result<std::vector<Id>> enqueue(const std::vector<NewMatch>& matches) override;
  Result<bool> renew(const Claim& claim, std::int64_t now_ms, std::int64_t lease_ms) override;
  Result<bool> report(const Claim& claim, const std::vector<LegReport>& legs, std::int64_t now_ms,
                      const std::vector<StorageReport>& storage) override;
  Status give_back(const Claim& claim) override;
  Result<bool> cancel(Id match) override;
  Result<std::vector<MatchRow>> reported(std::size_t limit) override;
  Result<std::vector<LegReport>> reported_legs(Id match) override;
  Status count(Id match, std::int64_t now_ms) override;
  Status refuse(Id match, const std::string& reason, std::int64_t now_ms) override;
  Result<std::vector<MatchRow>> matches(std::optional<MatchState> state, std::size_t limit) override;
  Result<std::uint64_t> count_matches(MatchState state) override;
  Result<std::vector<GameRow>> games(std::size_t limit, Id after) override;
  Result<std::string> replay(Id match, int leg) override;
  Status add_ratings(const std::vector<RatingRow>& rows) override;
  Result<std::vector<RatingRow>> latest_ratings() override;
  Result<std::vector<RatingRow>> rating_history(Id version) override;
  Result<std::vector<GameRow>> recent_games(std::size_t limit, Id before,
                                            std::optional<replay::FaultKind> fault) override;
  Result<std::optional<MatchRow>> match(Id id) override;
  Result<std::vector<GameRow>> match_games(Id match) override;
  Status heartbeat(const WorkerRow& worker) override;
  Status worker_gone(const std::string& name) override;
  Result<std::vector<WorkerRow>> workers() override;
  Status log_event(EventKind kind, const std::string& message, std::int64_t now_ms) override;
  Result<std::vector<EventRow>> events(std::size_t limit) override;
  Status add_author(const AuthorRow& author) override;
  Result<std::optional<AuthorRow>> author_by_token_hash(const std::string& token_hash) override;
  Result<std::vector<AuthorRow>> authors() override;
  Result<SubmissionSlot> take_submission_slot(const std::string& author, std::int64_t now_ms, std::int64_t window_ms,
                                              std::size_t limit) override;

 protected:
  // Where a leg's compressed replay lives: a file (SQLite: written here, the column stays NULL)
  // or the legs row (PostgreSQL: the column's value). Called inside the report's transaction;
  // drop_replays after a refusal committed.
  virtual Value replay_column(Id match, int leg, const Bytes& compressed) = 0;
  virtual Bytes get_replay(Id match, int leg) = 0;
  virtual void drop_replays(Id match, int legs) = 0;

  // The columns every match query selects, and a row of them read back.
  static constexpr std::string_view kMatchColumns =
      "id, state, seats, seed, legs, priority, worker, attempt, lease_until_ms, created_ms, finished_ms";
  static MatchRow match_row(const Row& r);
  // The first claimable match (queued, or running with its lease expired before `?`), walked in
  // claim order by the partial index matches_claim; the engine adds its locking.
  static constexpr std::string_view kClaimable =
      "FROM matches WHERE state IN ('queued', 'running') AND (state = 'queued' OR lease_until_ms < ?)"
      " ORDER BY priority, id LIMIT 1";
  // The event a claim of an expired lease logs, as the start of an INSERT: the caller adds the
  // FROM naming the claimed row `m` (after the claim: its new worker and attempt) and gives the
  // time as the first parameter; `old_worker` is the SQL for the worker whose lease expired.
  static std::string expired_event(std::string_view old_worker);

  std::unique_ptr<Db> db_;
};

// The engines (the Location picks one).
Result<std::unique_ptr<Store>> open_sqlite(const Location& where, std::span<const Migration> list);
Result<std::unique_ptr<Store>> open_postgres(const Location& where, std::span<const Migration> list);
// open() with another list of migrations (the tests' fake newer schema).
Result<std::unique_ptr<Store>> open_with(const Location& where, std::span<const Migration> list);

}  // namespace arena::ladder::sql
