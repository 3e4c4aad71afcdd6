#pragma once
// The ladder's storage: one schema, two engines (SQLite in the ladder folder by default,
// PostgreSQL for workers on many machines). The database is the only coordinator: every worker,
// the scheduler and `ladder status` talk to it, never to each other. docs/ladder.md describes the
// schema; migrations are numbered and applied in one transaction each (a ladder made by a newer
// referee is refused with both versions named).
//
// A ladder match is one deal: all its legs (duplicate deals: the same seed, seats rotated) are
// played by one worker, one after the other. Its life: queued -> running (claimed under a lease,
// renewed while it plays) -> reported (the worker committed its games and replays in one
// transaction, fenced by worker name and attempt number) -> counted (the coordinator re-simulated
// every replay and found the reported results) or refused (they disagree: logged, never counted,
// and the match is queued again for another attempt). A lease that expires puts a running match
// back in the queue; a late report of an expired attempt changes nothing.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "referee/core/enum_names.hpp"
#include "referee/core/result.hpp"
#include "referee/replay/result.hpp"

namespace arena::ladder {

using nlohmann::json;
using Id = std::int64_t;
using Bytes = std::vector<std::uint8_t>;

// The schema version this referee writes and reads.
inline constexpr int kSchemaVersion = 4;

enum class VersionState { building, rejected, active, retired };
// `refused` is the coordinator's verdict, not a state a match stays in: refuse() logs it as an
// event and puts the match back to queued (fixed in the store: the rows never hold it).
enum class MatchState { queued, running, reported, counted, refused };
// What the event log records (docs/ladder.md lists them): a worker's report refused by the
// coordinator's re-simulation, a lease that expired (its match queued again), a version rejected
// by its build or check, a version retired (replaced or withdrawn), a version's storage folder
// refused after a match (over its cap, a link or special file in it: the storage kept as it was).
enum class EventKind { refused, expired, rejected, retired, storage };

}  // namespace arena::ladder

template <>
struct arena::EnumNames<arena::ladder::VersionState> {
  using E = ladder::VersionState;
  static constexpr auto table =
      name_table(E::building, "building", E::rejected, "rejected", E::active, "active", E::retired, "retired");
};

template <>
struct arena::EnumNames<arena::ladder::EventKind> {
  using E = ladder::EventKind;
  static constexpr auto table = name_table(E::refused, "refused", E::expired, "expired", E::rejected, "rejected",
                                           E::retired, "retired", E::storage, "storage");
};

template <>
struct arena::EnumNames<arena::ladder::MatchState> {
  using E = ladder::MatchState;
  static constexpr auto table = name_table(E::queued, "queued", E::running, "running", E::reported, "reported",
                                           E::counted, "counted", E::refused, "refused");
};

namespace arena::ladder {

// Where a ladder's database is: the SQLite file in its folder, or a PostgreSQL connection string
// ("postgresql://..." or "host=... dbname=..."). The folder holds ladder.json either way, and with
// SQLite the replays (replays/<match>-<leg>.jsonl.zst).
struct Location {
  std::filesystem::path folder;
  std::string postgres;  // empty: SQLite at folder/ladder.db
};

// A submission as `ladder submit` (or the web) hands it over, before its build.
struct NewVersion {
  std::string bot;     // the bot's name (the ladder's key; checked by the caller)
  std::string author;  // who submits: a bot name belongs to the author of its first version
  json manifest;       // its bot.json, normalized
  Bytes source;        // the submitted files as a zstd-compressed tar (archive.hpp: pack)
  std::int64_t now_ms = 0;
};

struct VersionRow {
  Id id = 0;
  std::string bot;
  std::string author;
  int number = 0;  // 1 for a bot's first version
  VersionState state = VersionState::building;
  json manifest;
  std::string command;    // how it runs, relative to its unpacked folder (set by the build)
  std::string build_log;  // the build's and the conformance check's output, capped
  std::string fault;      // why it was rejected, one line; empty otherwise
  std::int64_t submitted_ms = 0;
  std::int64_t decided_ms = 0;  // built and checked (active or rejected); 0 while building
};

// A match to play: the version in each seat of leg 0 (leg k rotates them by k) and its seed.
struct NewMatch {
  std::vector<Id> seats;
  std::uint64_t seed = 0;
  int legs = 1;
  int priority = 0;  // lower first (placement games of new versions before the rest)
  std::int64_t now_ms = 0;
};

struct MatchRow {
  Id id = 0;
  MatchState state = MatchState::queued;
  std::vector<Id> seats;
  std::uint64_t seed = 0;
  int legs = 1;
  int priority = 0;
  std::string worker;
  int attempt = 0;  // claims so far; the current claim's fencing number
  std::int64_t lease_until_ms = 0;
  std::int64_t created_ms = 0;
  std::int64_t finished_ms = 0;  // reported
};

// The version in each seat of leg `leg` of a match whose leg 0 has `seats`: seat s gets
// seats[(s + leg) % n], as a league's duplicate deals rotate them.
std::vector<Id> leg_seats(const std::vector<Id>& seats, int leg);

// A worker's hold on a match: the report must name both (fencing).
struct Claim {
  MatchRow match;
  std::string worker;
  int attempt = 0;
};

// One leg as a worker reports it: the typed result of its match and its replay (the replay file's
// bytes, uncompressed; the store compresses them).
struct LegReport {
  int leg = 0;
  replay::FinalResult result;
  std::string replay;
  std::int64_t start_ms = 0;
  std::int64_t end_ms = 0;
};

// A version's storage folder after a match (the worker's pick: docs/ladder.md), packed
// (archive.hpp pack_folder), reported with the legs; it becomes the version's storage when the
// match is counted.
struct StorageReport {
  Id version = 0;
  Bytes packed;
};

// One counted leg, as ratings and standings read it.
struct GameRow {
  Id id = 0;  // increasing in the order games were counted
  Id match = 0;
  int leg = 0;
  std::uint64_t seed = 0;
  std::vector<Id> seats;  // the version in each seat of this leg
  replay::End end = replay::End::finished;
  std::vector<double> scores;  // empty on a fault
  std::vector<int> ranks;
  std::optional<int> fault_seat;
  std::optional<replay::FaultKind> fault_kind;
  std::string fault_message;
  std::int64_t end_ms = 0;
};

struct RatingRow {
  Id version = 0;
  double rating = 0;  // Elo scale
  double low = 0;     // 95% interval
  double high = 0;
  std::uint64_t games = 0;
  std::int64_t at_ms = 0;
};

struct WorkerRow {
  std::string name;  // host:pid:n, unique while it runs
  std::string host;
  std::int64_t started_ms = 0;
  std::int64_t heartbeat_ms = 0;
  std::optional<Id> match;  // what it holds now
};

struct EventRow {
  Id id = 0;
  std::int64_t at_ms = 0;
  EventKind kind = EventKind::refused;
  std::string message;
};

// An account of the web API (schema 2): an author (the same name the bots' `author` holds) or the
// organiser, known by a token whose hash alone is kept.
struct AuthorRow {
  std::string name;
  std::string token_hash;  // web/tokens.hpp: the token's BLAKE2b-256, hex
  bool organiser = false;
  std::int64_t created_ms = 0;
};

// The web's rate limit on submissions (schema 4): whether one more was counted, and if not, when
// the oldest in the window leaves it.
struct SubmissionSlot {
  bool granted = false;
  std::int64_t retry_at_ms = 0;  // refused: the time (ms since 1970) a submission is counted again
};

// Every call is one transaction (writes in SQLite: BEGIN IMMEDIATE); an error is a database
// problem named in one sentence (the engine's own message appended). A Store is used by one
// thread; each worker thread opens its own.
class Store {
 public:
  virtual ~Store() = default;

  // Creates the schema (an empty database) or checks and migrates it; refuses a database of a
  // newer schema, or one that is not a ladder's, naming what it found.
  static Result<std::unique_ptr<Store>> open(const Location& where);

  virtual int schema_version() = 0;

  // Ladder-wide settings kept beside the schema (ladder.json's copy for remote workers).
  virtual Status put_setting(const std::string& key, const std::string& value) = 0;
  virtual Result<std::optional<std::string>> setting(const std::string& key) = 0;

  // --- Bots and versions
  // Adds the next version of `bot` (state building). Refused (no change) when the bot belongs to
  // another author.
  virtual Result<VersionRow> add_version(const NewVersion& v) = 0;
  virtual Result<Bytes> version_source(Id version) = 0;
  // The build's outcome: active (with its built files, a zstd tar, and its run command) or
  // rejected (with the reason). Making a version active retires the bot's previous active one;
  // when a newer version of the bot is already active (builds finishing out of order), this one
  // is retired at once instead. Each is logged as an event. An error for a version not building.
  virtual Status finish_build(Id version, VersionState state, const std::string& command, const Bytes& built,
                              const std::string& build_log, const std::string& fault, std::int64_t now_ms) = 0;
  virtual Result<Bytes> version_files(Id version) = 0;  // the built files (an error before a build)
  // Retires the bot's active version (and one still building); false when it has none.
  virtual Result<bool> withdraw(const std::string& bot, std::int64_t now_ms) = 0;
  virtual Result<std::vector<VersionRow>> versions(std::optional<VersionState> state = std::nullopt) = 0;
  virtual Result<std::optional<VersionRow>> version(Id id) = 0;

  // Per-version storage between matches (opt-in in ladder.json): a zstd tar, capped by the caller;
  // empty until put (or until a counted match carried one: report, count).
  virtual Result<Bytes> storage(Id version) = 0;
  virtual Status put_storage(Id version, const Bytes& data) = 0;

  // --- Matches
  virtual Result<std::vector<Id>> enqueue(const std::vector<NewMatch>& matches) = 0;
  // Takes the first queued match (lowest priority, then oldest), or a running one whose lease
  // expired (logged as an event), for `worker` until now + lease. nullopt: nothing claimable now
  // (with PostgreSQL's SKIP LOCKED this is not proof of an empty queue).
  virtual Result<std::optional<Claim>> claim(const std::string& worker, std::int64_t now_ms, std::int64_t lease_ms) = 0;
  // Extends the lease; false when the claim is no longer this worker's (expired and taken).
  virtual Result<bool> renew(const Claim& claim, std::int64_t now_ms, std::int64_t lease_ms) = 0;
  // Commits every leg's result and replay and the match as reported, in one transaction; false
  // (and nothing written) when the claim is no longer this worker's; an error (nothing written)
  // when the legs are not each of the match's legs once, a result's scores or ranks do not fit
  // its seats, or a result would not read back (replay::result_from_json). `storage`: the storage
  // of versions that played in it (at most one each, else an error), kept beside the legs until
  // the verdict: count() makes it their storage, refuse() drops it.
  virtual Result<bool> report(const Claim& claim, const std::vector<LegReport>& legs, std::int64_t now_ms,
                              const std::vector<StorageReport>& storage = {}) = 0;
  // Puts a claimed match back in the queue (a worker that stops).
  virtual Status give_back(const Claim& claim) = 0;
  // Removes a match still queued (a version at its table was retired); false when it is no longer
  // queued (claimed meanwhile: it is played and counted as any other).
  virtual Result<bool> cancel(Id match) = 0;
  // Reported matches awaiting the coordinator's check, oldest first.
  virtual Result<std::vector<MatchRow>> reported(std::size_t limit) = 0;
  virtual Result<std::vector<LegReport>> reported_legs(Id match) = 0;
  // The coordinator's verdict: counted (its legs become games, the storage reported with it its
  // versions' storage: the last counted wins), or refused (the reason logged as an event, the
  // reported legs and storage dropped, the match queued again). Either is an error, changing
  // nothing, for a match that is not reported (so a result is counted exactly once).
  virtual Status count(Id match, std::int64_t now_ms) = 0;
  virtual Status refuse(Id match, const std::string& reason, std::int64_t now_ms) = 0;
  virtual Result<std::vector<MatchRow>> matches(std::optional<MatchState> state, std::size_t limit) = 0;
  virtual Result<std::uint64_t> count_matches(MatchState state) = 0;

  // --- Results
  // Counted games with id above `after` (ratings read them incrementally), in id order.
  virtual Result<std::vector<GameRow>> games(std::size_t limit, Id after = 0) = 0;
  virtual Result<std::string> replay(Id match, int leg) = 0;  // uncompressed
  virtual Status add_ratings(const std::vector<RatingRow>& rows) = 0;
  // The latest rating of every version that has one.
  virtual Result<std::vector<RatingRow>> latest_ratings() = 0;
  virtual Result<std::vector<RatingRow>> rating_history(Id version) = 0;
  // Counted games newest first, with id below `before` (0: from the newest), only those that
  // ended with a fault of `fault` when given (the web's list of recent matches, page by page).
  virtual Result<std::vector<GameRow>> recent_games(std::size_t limit, Id before = 0,
                                                    std::optional<replay::FaultKind> fault = std::nullopt) = 0;
  // One match, and its counted games in leg order (empty until it is counted).
  virtual Result<std::optional<MatchRow>> match(Id id) = 0;
  virtual Result<std::vector<GameRow>> match_games(Id match) = 0;

  // --- Workers and events
  virtual Status heartbeat(const WorkerRow& worker) = 0;
  virtual Status worker_gone(const std::string& name) = 0;
  virtual Result<std::vector<WorkerRow>> workers() = 0;
  virtual Status log_event(EventKind kind, const std::string& message, std::int64_t now_ms) = 0;
  // The latest `limit` events, newest first.
  virtual Result<std::vector<EventRow>> events(std::size_t limit) = 0;

  // --- Accounts (schema 2)
  // Adds an account; an error naming the problem when the name is taken (nothing changed).
  virtual Status add_author(const AuthorRow& author) = 0;
  // The account whose token hashes to `token_hash`, if any.
  virtual Result<std::optional<AuthorRow>> author_by_token_hash(const std::string& token_hash) = 0;
  virtual Result<std::vector<AuthorRow>> authors() = 0;  // by name
  // Counts a submission of `author` at `now_ms` unless `limit` of theirs fall within the
  // `window_ms` before it (then nothing is counted); rows older than the window are dropped. Kept
  // in the database, so a restarted server (or another one) counts the same (schema 4).
  virtual Result<SubmissionSlot> take_submission_slot(const std::string& author, std::int64_t now_ms,
                                                      std::int64_t window_ms, std::size_t limit) = 0;
};

}  // namespace arena::ladder
