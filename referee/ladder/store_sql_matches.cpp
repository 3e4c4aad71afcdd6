// The Store's calls in SQL for the match life (store_sql.hpp): queue, claim, lease, report, the
// verdict (count or refuse), and the results read back; each call is one transaction.

#include <algorithm>

#include "referee/ladder/compress.hpp"
#include "referee/ladder/store_sql.hpp"
#include "referee/ladder/store_sql_rows.hpp"

namespace arena::ladder::sql {

using namespace rows;

namespace {

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

}  // namespace arena::ladder::sql
