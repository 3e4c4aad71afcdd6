// The Store's calls in SQL both engines read (store_sql.hpp); each call is one transaction.

#include "referee/ladder/store_sql.hpp"

#include <algorithm>
#include <limits>

#include "referee/ladder/compress.hpp"

namespace arena::ladder::sql {

namespace {

// Runs one Store call: a database error becomes the call's error, named in one sentence with
// the engine's own message appended.
template <typename F>
auto guard(std::string_view what, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::exception& e) {
    return fail("the ladder database could not " + std::string(what) + ": " + e.what());
  }
}

template <typename E>
E parse_state(const Value& v) {
  const auto e = parse_enum<E>(v.str());
  if (!e) throw DbError("a row holds the unknown state \"" + v.str() + "\"");
  return *e;
}

Value limit_value(std::size_t limit) {
  return static_cast<std::int64_t>(std::min<std::size_t>(limit, std::numeric_limits<std::int64_t>::max()));
}

Value text(std::string_view s) {
  return Value(s);
}

constexpr std::string_view kVersionColumns =
    "SELECT v.id, v.bot, b.author, v.number, v.state, v.manifest, v.command, v.build_log, v.fault,"
    " v.submitted_ms, v.decided_ms FROM versions v JOIN bots b ON b.name = v.bot";

VersionRow version_row(const Row& r) {
  VersionRow v;
  v.id = r[0].i64();
  v.bot = r[1].str();
  v.author = r[2].str();
  v.number = static_cast<int>(r[3].i64());
  v.state = parse_state<VersionState>(r[4]);
  v.manifest = json::parse(r[5].str());
  v.command = r[6].str();
  v.build_log = r[7].str();
  v.fault = r[8].str();
  v.submitted_ms = r[9].i64();
  v.decided_ms = r[10].i64();
  return v;
}

std::vector<Id> ids(const Value& v, std::string_view what) {
  return ints_from_text(v.str(), what);
}

RatingRow rating_row(const Row& r) {
  return RatingRow{r[0].i64(), r[1].f64(), r[2].f64(), r[3].f64(), static_cast<std::uint64_t>(r[4].i64()), r[5].i64()};
}

// The version's label in events: "bot greedy version 3".
std::string label(const std::string& bot, std::int64_t number) {
  return "bot " + bot + " version " + std::to_string(number);
}

void insert_event(Db& db, EventKind kind, const std::string& message, std::int64_t now_ms) {
  db.exec("INSERT INTO events (at_ms, kind, message) VALUES (?, ?, ?)", {now_ms, text(enum_name(kind)), message});
}

const Value& one(const std::vector<Row>& rows, const std::string& missing) {
  if (rows.empty()) throw DbError(missing);
  return rows.front().front();
}

// A reported leg's checks against its match (the store's own consistency, not the game's: the
// coordinator re-simulates the replay).
std::string check_legs(const std::vector<LegReport>& legs, std::size_t seats, int count) {
  std::vector<bool> seen(static_cast<std::size_t>(count), false);
  for (const auto& l : legs) {
    if (l.leg < 0 || l.leg >= count) return "leg " + std::to_string(l.leg) + " is not a leg of this match";
    if (seen[static_cast<std::size_t>(l.leg)]) return "leg " + std::to_string(l.leg) + " is reported twice";
    seen[static_cast<std::size_t>(l.leg)] = true;
    const auto& r = l.result;
    if (!r.scores.empty() && r.scores.size() != seats)
      return "leg " + std::to_string(l.leg) + " has " + std::to_string(r.scores.size()) + " scores for " +
             std::to_string(seats) + " seats";
    if (!r.ranks.empty() && r.ranks.size() != seats)
      return "leg " + std::to_string(l.leg) + " has " + std::to_string(r.ranks.size()) + " ranks for " +
             std::to_string(seats) + " seats";
    if (r.fault && static_cast<std::size_t>(r.fault->seat) >= seats)
      return "leg " + std::to_string(l.leg) + " names a fault in seat " + std::to_string(r.fault->seat);
    // Stored as its JSON: what the strict reader would refuse later is refused now.
    if (auto back = replay::result_from_json(replay::to_json(r)); !back)
      return "leg " + std::to_string(l.leg) + "'s result is incomplete: " + back.error();
  }
  if (legs.size() != static_cast<std::size_t>(count))
    return std::to_string(legs.size()) + " legs reported of " + std::to_string(count);
  return "";
}

// The columns every game query selects, and their rows read back.
constexpr std::string_view kGameSelect =
    "SELECT id, match_id, leg, seed, seats, end_kind, scores, ranks, fault_seat, fault_kind, fault_message, end_ms"
    " FROM games";

std::vector<GameRow> game_rows(const std::vector<Row>& rows) {
  std::vector<GameRow> out;
  out.reserve(rows.size());
  for (const auto& r : rows) {
    GameRow g;
    g.id = r[0].i64();
    g.match = r[1].i64();
    g.leg = static_cast<int>(r[2].i64());
    g.seed = static_cast<std::uint64_t>(r[3].i64());
    g.seats = ids(r[4], "games.seats");
    g.end = parse_state<replay::End>(r[5]);
    g.scores = doubles_from_text(r[6].str(), "games.scores");
    for (auto v : ints_from_text(r[7].str(), "games.ranks")) g.ranks.push_back(static_cast<int>(v));
    if (!r[8].is_null()) g.fault_seat = static_cast<int>(r[8].i64());
    if (!r[9].is_null()) g.fault_kind = parse_state<replay::FaultKind>(r[9]);
    g.fault_message = r[10].str();
    g.end_ms = r[11].i64();
    out.push_back(std::move(g));
  }
  return out;
}

// The storage of a report, checked against its match's seats.
std::string check_storage(const std::vector<StorageReport>& storage, const std::vector<Id>& seats) {
  std::vector<Id> seen;
  for (const StorageReport& s : storage) {
    if (std::find(seats.begin(), seats.end(), s.version) == seats.end())
      return "storage of version " + std::to_string(s.version) + ", which does not play in it";
    if (std::find(seen.begin(), seen.end(), s.version) != seen.end())
      return "storage of version " + std::to_string(s.version) + " twice";
    seen.push_back(s.version);
  }
  return "";
}

}  // namespace

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

// --- Matches

Result<std::vector<Id>> SqlStore::enqueue(const std::vector<NewMatch>& matches) {
  return guard("enqueue matches", [&]() -> Result<std::vector<Id>> {
    std::vector<Id> out;
    Txn txn(*db_, true);
    for (const auto& m : matches) {
      if (m.seats.empty()) return fail(std::string("a match needs at least one seat"));
      if (m.legs < 1 || static_cast<std::size_t>(m.legs) > m.seats.size())
        return fail("a match of " + std::to_string(m.seats.size()) + " seats cannot have " + std::to_string(m.legs) +
                    " legs");
      for (Id s : m.seats)
        if (db_->query("SELECT 1 FROM versions WHERE id = ?", {s}).empty())
          return fail("a match names version " + std::to_string(s) + ", which does not exist");
      out.push_back(one(db_->query("INSERT INTO matches (state, seats, seed, legs, priority, created_ms)"
                                   " VALUES ('queued', ?, ?, ?, ?, ?) RETURNING id",
                                   {ints_text(m.seats), m.seed, m.legs, m.priority, m.now_ms}),
                        "no id")
                        .i64());
    }
    txn.commit();
    return out;
  });
}

Result<bool> SqlStore::renew(const Claim& claim, std::int64_t now_ms, std::int64_t lease_ms) {
  return guard("renew a lease", [&]() -> Result<bool> {
    return db_->exec(
               "UPDATE matches SET lease_until_ms = ? WHERE id = ? AND state = 'running' AND worker = ?"
               " AND attempt = ?",
               {now_ms + lease_ms, claim.match.id, claim.worker, claim.attempt}) == 1;
  });
}

Status SqlStore::give_back(const Claim& claim) {
  return guard("give a match back", [&]() -> Status {
    db_->exec(
        "UPDATE matches SET state = 'queued', worker = '', lease_until_ms = 0 WHERE id = ? AND state = 'running'"
        " AND worker = ? AND attempt = ?",
        {claim.match.id, claim.worker, claim.attempt});
    return {};
  });
}

Result<bool> SqlStore::cancel(Id match) {
  return guard("cancel a queued match", [&]() -> Result<bool> {
    return !db_->query("DELETE FROM matches WHERE id = ? AND state = 'queued' RETURNING id", {match}).empty();
  });
}

Result<bool> SqlStore::report(const Claim& claim, const std::vector<LegReport>& legs, std::int64_t now_ms,
                              const std::vector<StorageReport>& storage) {
  return guard("record a report", [&]() -> Result<bool> {
    // Compressed before the transaction: the write lock is held for the writes alone.
    std::vector<Bytes> replays;
    for (const auto& l : legs) replays.push_back(compress(l.replay));
    Txn txn(*db_, true);
    // The fence: only the claim that still holds the match may report it.
    const auto rows = db_->query(
        "UPDATE matches SET state = 'reported', finished_ms = ? WHERE id = ?"
        " AND state = 'running' AND worker = ? AND attempt = ? RETURNING seats, legs",
        {now_ms, claim.match.id, claim.worker, claim.attempt});
    if (rows.empty()) return false;
    const auto seats = ids(rows[0][0], "matches.seats");
    const int count = static_cast<int>(rows[0][1].i64());
    if (const auto bad = check_legs(legs, seats.size(), count); !bad.empty())
      return fail("the report of match " + std::to_string(claim.match.id) + " is refused: " + bad);
    if (const auto bad = check_storage(storage, seats); !bad.empty())
      return fail("the report of match " + std::to_string(claim.match.id) + " is refused: " + bad);
    db_->exec("DELETE FROM pending_storage WHERE match_id = ?", {claim.match.id});
    for (const StorageReport& s : storage)
      db_->exec("INSERT INTO pending_storage (match_id, version, packed) VALUES (?, ?, ?)",
                {claim.match.id, s.version, Value::blob(s.packed)});
    for (std::size_t i = 0; i < legs.size(); ++i) {
      const auto& l = legs[i];
      const auto& r = l.result;
      db_->exec(
          "INSERT INTO legs (match_id, leg, seats, end_kind, scores, ranks, fault_seat, fault_kind,"
          " fault_message, result, replay, start_ms, end_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
          {claim.match.id, l.leg, ints_text(leg_seats(seats, l.leg)), text(enum_name(r.end)), doubles_text(r.scores),
           ints_text(r.ranks), r.fault ? Value(r.fault->seat) : Value(nullptr),
           r.fault ? text(enum_name(r.fault->kind)) : Value(nullptr), r.fault ? r.fault->message : "",
           replay::to_json(r).dump(), replay_column(claim.match.id, l.leg, replays[i]), l.start_ms, l.end_ms});
    }
    txn.commit();
    return true;
  });
}

Result<std::vector<MatchRow>> SqlStore::reported(std::size_t limit) {
  return guard("list reported matches", [&]() -> Result<std::vector<MatchRow>> {
    std::vector<MatchRow> out;
    for (const auto& r : db_->query("SELECT " + std::string(kMatchColumns) +
                                        " FROM matches WHERE state = 'reported' ORDER BY finished_ms, id LIMIT ?",
                                    {limit_value(limit)}))
      out.push_back(match_row(r));
    return out;
  });
}

Result<std::vector<LegReport>> SqlStore::reported_legs(Id match) {
  return guard("read a match's legs", [&]() -> Result<std::vector<LegReport>> {
    Txn txn(*db_, false);
    std::vector<LegReport> out;
    for (const auto& r :
         db_->query("SELECT leg, result, start_ms, end_ms FROM legs WHERE match_id = ? ORDER BY leg", {match})) {
      LegReport l;
      l.leg = static_cast<int>(r[0].i64());
      const std::string where = "match " + std::to_string(match) + " leg " + std::to_string(l.leg);
      auto result = replay::result_from_json(json::parse(r[1].str()));
      if (!result) return fail("the stored result of " + where + " is unreadable: " + result.error());
      l.result = std::move(result.value());
      auto text = decompress(get_replay(match, l.leg), kMaxReplayBytes);
      if (!text) return fail("the replay of " + where + ": " + text.error());
      l.replay = std::move(text.value());
      l.start_ms = r[2].i64();
      l.end_ms = r[3].i64();
      out.push_back(std::move(l));
    }
    txn.commit();
    return out;
  });
}

Status SqlStore::count(Id match, std::int64_t) {
  return guard("count a match", [&]() -> Status {
    Txn txn(*db_, true);
    // Counted exactly once: only a reported match turns counted, and games are unique per leg.
    if (db_->exec("UPDATE matches SET state = 'counted' WHERE id = ? AND state = 'reported'", {match}) != 1)
      return fail("match " + std::to_string(match) + " is not awaiting its check: nothing counted");
    db_->exec(
        "INSERT INTO games (match_id, leg, seed, seats, end_kind, scores, ranks, fault_seat, fault_kind,"
        " fault_message, end_ms) SELECT l.match_id, l.leg, m.seed, l.seats, l.end_kind, l.scores, l.ranks,"
        " l.fault_seat, l.fault_kind, l.fault_message, l.end_ms FROM legs l JOIN matches m ON m.id = l.match_id"
        " WHERE l.match_id = ? ORDER BY l.leg",
        {match});
    db_->exec(
        "UPDATE versions SET storage = (SELECT p.packed FROM pending_storage p WHERE p.match_id = ?"
        " AND p.version = versions.id) WHERE id IN (SELECT version FROM pending_storage WHERE match_id = ?)",
        {match, match});
    db_->exec("DELETE FROM pending_storage WHERE match_id = ?", {match});
    txn.commit();
    return {};
  });
}

Status SqlStore::refuse(Id match, const std::string& reason, std::int64_t now_ms) {
  return guard("refuse a match", [&]() -> Status {
    Txn txn(*db_, true);
    const auto rows =
        db_->query("SELECT legs, worker, attempt FROM matches WHERE id = ? AND state = 'reported'", {match});
    if (rows.empty()) return fail("match " + std::to_string(match) + " is not awaiting its check: nothing refused");
    const int legs = static_cast<int>(rows[0][0].i64());
    db_->exec("UPDATE matches SET state = 'queued', worker = '', lease_until_ms = 0, finished_ms = 0 WHERE id = ?",
              {match});
    db_->exec("DELETE FROM legs WHERE match_id = ?", {match});
    db_->exec("DELETE FROM pending_storage WHERE match_id = ?", {match});
    insert_event(*db_, EventKind::refused,
                 "match " + std::to_string(match) + " (attempt " + std::to_string(rows[0][2].i64()) + " by " +
                     rows[0][1].str() + ") refused: " + reason,
                 now_ms);
    txn.commit();
    drop_replays(match, legs);
    return {};
  });
}

Result<std::vector<MatchRow>> SqlStore::matches(std::optional<MatchState> state, std::size_t limit) {
  return guard("list matches", [&]() -> Result<std::vector<MatchRow>> {
    std::vector<MatchRow> out;
    const std::string select = "SELECT " + std::string(kMatchColumns) + " FROM matches";
    const auto rows = state ? db_->query(select + " WHERE state = ? ORDER BY id LIMIT ?",
                                         {text(enum_name(*state)), limit_value(limit)})
                            : db_->query(select + " ORDER BY id LIMIT ?", {limit_value(limit)});
    for (const auto& r : rows) out.push_back(match_row(r));
    return out;
  });
}

Result<std::uint64_t> SqlStore::count_matches(MatchState state) {
  return guard("count matches", [&]() -> Result<std::uint64_t> {
    return static_cast<std::uint64_t>(
        one(db_->query("SELECT COUNT(*) FROM matches WHERE state = ?", {text(enum_name(state))}), "no count").i64());
  });
}

// --- Results

Result<std::vector<GameRow>> SqlStore::games(std::size_t limit, Id after) {
  return guard("read games", [&]() -> Result<std::vector<GameRow>> {
    return game_rows(
        db_->query(std::string(kGameSelect) + " WHERE id > ? ORDER BY id LIMIT ?", {after, limit_value(limit)}));
  });
}

Result<std::string> SqlStore::replay(Id match, int leg) {
  return guard("read a replay", [&]() -> Result<std::string> {
    Txn txn(*db_, false);
    if (db_->query("SELECT 1 FROM legs WHERE match_id = ? AND leg = ?", {match, leg}).empty())
      return fail("there is no replay of match " + std::to_string(match) + " leg " + std::to_string(leg));
    auto text = decompress(get_replay(match, leg), kMaxReplayBytes);
    txn.commit();
    if (!text)
      return fail("the replay of match " + std::to_string(match) + " leg " + std::to_string(leg) + ": " + text.error());
    return std::move(text.value());
  });
}

Status SqlStore::add_ratings(const std::vector<RatingRow>& rows) {
  return guard("record ratings", [&]() -> Status {
    Txn txn(*db_, true);
    for (const auto& r : rows)
      db_->exec("INSERT INTO ratings (version, rating, low, high, games, at_ms) VALUES (?, ?, ?, ?, ?, ?)",
                {r.version, r.rating, r.low, r.high, r.games, r.at_ms});
    txn.commit();
    return {};
  });
}

Result<std::vector<RatingRow>> SqlStore::latest_ratings() {
  return guard("read ratings", [&]() -> Result<std::vector<RatingRow>> {
    std::vector<RatingRow> out;
    for (const auto& r : db_->query("SELECT r.version, r.rating, r.low, r.high, r.games, r.at_ms FROM ratings r"
                                    " JOIN (SELECT MAX(id) AS id FROM ratings GROUP BY version) l ON l.id = r.id"
                                    " ORDER BY r.version"))
      out.push_back(rating_row(r));
    return out;
  });
}

Result<std::vector<RatingRow>> SqlStore::rating_history(Id version) {
  return guard("read a rating history", [&]() -> Result<std::vector<RatingRow>> {
    std::vector<RatingRow> out;
    for (const auto& r : db_->query(
             "SELECT version, rating, low, high, games, at_ms FROM ratings WHERE version = ? ORDER BY id", {version}))
      out.push_back(rating_row(r));
    return out;
  });
}

Result<std::vector<GameRow>> SqlStore::recent_games(std::size_t limit, Id before,
                                                    std::optional<replay::FaultKind> fault) {
  return guard("read recent games", [&]() -> Result<std::vector<GameRow>> {
    const Value below = before > 0 ? Value(before) : Value(std::numeric_limits<std::int64_t>::max());
    if (fault)
      return game_rows(
          db_->query(std::string(kGameSelect) + " WHERE id < ? AND fault_kind = ? ORDER BY id DESC LIMIT ?",
                     {below, text(enum_name(*fault)), limit_value(limit)}));
    return game_rows(
        db_->query(std::string(kGameSelect) + " WHERE id < ? ORDER BY id DESC LIMIT ?", {below, limit_value(limit)}));
  });
}

Result<std::optional<MatchRow>> SqlStore::match(Id id) {
  return guard("read a match", [&]() -> Result<std::optional<MatchRow>> {
    const auto rows = db_->query("SELECT " + std::string(kMatchColumns) + " FROM matches WHERE id = ?", {id});
    if (rows.empty()) return std::optional<MatchRow>();
    return std::optional<MatchRow>(match_row(rows[0]));
  });
}

Result<std::vector<GameRow>> SqlStore::match_games(Id match) {
  return guard("read a match's games", [&]() -> Result<std::vector<GameRow>> {
    return game_rows(db_->query(std::string(kGameSelect) + " WHERE match_id = ? ORDER BY leg", {match}));
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

}  // namespace arena::ladder::sql
