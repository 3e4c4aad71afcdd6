#pragma once
// What the two files of the SQL store (store_sql.cpp: settings, versions, workers, events,
// accounts; store_sql_matches.cpp: the match life and its results) share: the guard that turns a
// database error into the call's error, and the rows read back into the store's types.

#include <algorithm>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "referee/ladder/store_sql.hpp"

namespace arena::ladder::sql::rows {

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

inline Value limit_value(std::size_t limit) {
  return static_cast<std::int64_t>(std::min<std::size_t>(limit, std::numeric_limits<std::int64_t>::max()));
}

inline Value text(std::string_view s) {
  return Value(s);
}

inline constexpr std::string_view kVersionColumns =
    "SELECT v.id, v.bot, b.author, v.number, v.state, v.manifest, v.command, v.build_log, v.fault,"
    " v.submitted_ms, v.decided_ms FROM versions v JOIN bots b ON b.name = v.bot";

inline VersionRow version_row(const Row& r) {
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

inline std::vector<Id> ids(const Value& v, std::string_view what) {
  return ints_from_text(v.str(), what);
}

inline RatingRow rating_row(const Row& r) {
  return RatingRow{r[0].i64(), r[1].f64(), r[2].f64(), r[3].f64(), static_cast<std::uint64_t>(r[4].i64()), r[5].i64()};
}

// The version's label in events: "bot greedy version 3".
inline std::string label(const std::string& bot, std::int64_t number) {
  return "bot " + bot + " version " + std::to_string(number);
}

inline void insert_event(Db& db, EventKind kind, const std::string& message, std::int64_t now_ms) {
  db.exec("INSERT INTO events (at_ms, kind, message) VALUES (?, ?, ?)", {now_ms, text(enum_name(kind)), message});
}

inline const Value& one(const std::vector<Row>& rows, const std::string& missing) {
  if (rows.empty()) throw DbError(missing);
  return rows.front().front();
}

// The columns every game query selects, and their rows read back.
inline constexpr std::string_view kGameSelect =
    "SELECT id, match_id, leg, seed, seats, end_kind, scores, ranks, fault_seat, fault_kind, fault_message, end_ms"
    " FROM games";

inline std::vector<GameRow> game_rows(const std::vector<Row>& rows) {
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

}  // namespace arena::ladder::sql::rows
