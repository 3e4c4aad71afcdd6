#pragma once
// A league: many matches between many bots, run in parallel, journaled, resumable.
//
// The schedule is a pure function of the spec and a match index (nothing is pre-built): index ->
// (deal, leg, seats). Every deal's seed derives from the league seed and the deal number through
// a keyed hash (seeds.hpp), so any match re-runs alone with one printed command and no match's
// seed tells another's. With duplicate deals (the default for 2 seats) each deal is played once
// per seat rotation with the same seed, by one worker, one leg after the other. Each finished
// match is appended to <out>/results.jsonl and flushed; --resume plays exactly the indices
// missing from it. No record is kept in memory (journal.hpp): the runner keeps the journaled
// indices as ranges and the SPRT's counts, so memory does not grow with the league.
//
// Swiss and knockout leagues are played in rounds (rounds.hpp): a round's tables follow from the
// journaled results of the rounds before, so the runner plays one round after the other.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "protocol/codec.hpp"
#include "referee/bots/sandbox.hpp"
#include "referee/core/result.hpp"
#include "referee/core/stop.hpp"
#include "referee/games/game.hpp"
#include "referee/league/deal_book.hpp"
#include "referee/league/journal.hpp"
#include "referee/league/record.hpp"
#include "referee/league/seeds.hpp"
#include "referee/league/sprt_tally.hpp"
#include "referee/league/stats.hpp"
#include "referee/match/match.hpp"

namespace arena::league {

// Swiss and knockout are played round by round, each round's tables paired from the results of
// the rounds before (rounds.hpp, docs/league.md).
enum class Format { round_robin, gauntlet, swiss, knockout };
// Whether the format is played in rounds (swiss, knockout).
constexpr bool plays_in_rounds(Format f) {
  return f == Format::swiss || f == Format::knockout;
}
// How a knockout's bracket is seeded: the order of the bots, or their league file "rating".
enum class Seeding { order, rating };
// "round-robin", "gauntlet", "swiss" or "knockout", as a league file and --format write it.
std::string_view format_name(Format format);
// The one reader of a format's name (the league file's "format", --format); the error lists both.
Result<Format> parse_format(std::string_view text);

}  // namespace arena::league

// The league file's "format".
template <>
struct arena::EnumNames<arena::league::Format> {
  using E = league::Format;
  static constexpr auto table =
      name_table(E::round_robin, "round-robin", E::gauntlet, "gauntlet", E::swiss, "swiss", E::knockout, "knockout");
};

// The league file's "seeding" (knockout).
template <>
struct arena::EnumNames<arena::league::Seeding> {
  using E = league::Seeding;
  static constexpr auto table = name_table(E::order, "order", E::rating, "rating");
};

namespace arena::league {

struct LeagueSpec {
  std::string game = games::default_game_name();
  json config;  // null: the game's defaults
  // The bots, as a match takes them (command, name: unique once normalized, own address space,
  // own seat config): each is handed to the match of every seat it takes.
  std::vector<match::BotSpec> bots;
  Format format = Format::round_robin;
  int seats = 0;                  // seats per match; 0: the game's minimum
  std::uint64_t deals = 1;        // deals per pairing (a duplicate deal is one deal)
  std::optional<bool> duplicate;  // unset: on for 2 seats, off otherwise
  int concurrency = 0;            // 0: the number of cores
  // Unset: a new league draws it from the OS (os_random_u64), a resumed one takes its league.json's.
  std::optional<std::uint64_t> seed;
  // Unset: keyed-v1 for a new league; a resumed one takes its league.json's (none there: legacy).
  std::optional<SeedScheme> seed_scheme;
  protocol::Limits limits;
  double time_scale = 1.0;
  std::optional<SprtConfig> sprt;  // two-bot leagues only
  // A deal book (deal_book.hpp): its deals replace the seeds derived from the league seed, and
  // their number is the deals per pairing.
  std::optional<DealBook> book;
  // Swiss: its number of rounds (unset: ceil(log2(bots)) + 1, set by normalize); unset otherwise.
  std::optional<int> rounds;
  // Knockout: how the bracket is seeded (unset: order, set by normalize); unset otherwise.
  std::optional<Seeding> seeding;
  // Each bot's league file "rating" (parallel to bots, or empty): "seeding": "rating" needs all.
  std::vector<std::optional<double>> ratings;
};

// Reads a league file's JSON (docs/league.md); unknown keys are refused. `book_dir`: the folder a
// "deals_file" is relative to (a user's league file's); none: "deals_file" is refused (league.json
// records the book itself, "deal_book").
Result<LeagueSpec> spec_from_json(const json& j, const std::optional<std::filesystem::path>& book_dir = std::nullopt);
json to_json(const LeagueSpec& spec);
// The CPUs this process may run on: its affinity mask (a container's or a batch scheduler's
// allocation, `taskset`), not the machine's; the default concurrency.
int usable_cpus();

// Checks the spec against the game (seat counts, names unique, format) and fills defaults.
Result<LeagueSpec> normalize(LeagueSpec spec);

// One scheduled match.
struct Scheduled {
  std::uint64_t index = 0;
  std::uint64_t deal = 0;
  int leg = 0;
  std::uint64_t seed = 0;
  std::vector<int> seat_bots;  // bot index per seat
  json config;                 // a deal book's deal's own config; null: the league's
};

// Sets the seed and config of `m`, a match of deal m.deal, the `nth`-th deal its bots play
// together: the deal book's deal `nth` (in the book's order), or the seed keyed from the league
// seed and m.deal. The spec must be normalized, its seed set.
void deal_of(const LeagueSpec& spec, std::uint64_t nth, Scheduled& m);

class Schedule {
 public:
  explicit Schedule(const LeagueSpec& spec);  // spec must be normalized; at() needs its seed set
  std::uint64_t total() const { return total_; }
  // Deal d is played by matches d * legs() .. d * legs() + legs() - 1, one per seat rotation.
  std::uint64_t deals() const { return total_ / static_cast<std::uint64_t>(legs_); }
  int legs() const { return legs_; }
  Scheduled at(std::uint64_t index) const;

 private:
  std::vector<int> group(std::uint64_t g) const;  // the g-th set of bots that meet
  const LeagueSpec& spec_;
  std::uint64_t groups_ = 0;  // sets of bots per deal round
  int legs_ = 1;
  std::uint64_t total_ = 0;
};

// One part of a league played on one machine (docs/distributed.md): the deals d with
// d mod count == index - 1, all legs of each. 1-based, as `--shard 2/4` says it.
struct Shard {
  int index = 1;
  int count = 1;
  bool owns_deal(std::uint64_t deal) const {
    return deal % static_cast<std::uint64_t>(count) == static_cast<std::uint64_t>(index - 1);
  }
  // How many of the deals 0..end-1 this shard plays.
  std::uint64_t deals_below(std::uint64_t end) const {
    const auto n = static_cast<std::uint64_t>(count);
    const auto r = static_cast<std::uint64_t>(index - 1);
    return end > r ? (end - r + n - 1) / n : 0;
  }
  // The shard of `count` that plays `deal`.
  static Shard of_deal(std::uint64_t deal, int count) {
    return {static_cast<int>(deal % static_cast<std::uint64_t>(count)) + 1, count};
  }
  bool operator==(const Shard&) const = default;
};

// The shard a league.json records ("shard": {"index": I, "count": N}), none for a whole league;
// an error (naming `file`) when the field is there but not a shard.
Result<std::optional<Shard>> recorded_shard(const json& league_file, const std::string& file);
json to_json(const Shard& shard);

// "I/N" with 1 <= I <= N <= 100000.
Result<Shard> parse_shard(std::string_view text);

struct LeagueFile;  // league_file.hpp

struct RunOptions {
  std::filesystem::path out;  // league.json, results.jsonl, replays/, logs/, standings.*
  bool resume = false;
  // On a resume, the folder's league.json as the caller read it (read_league_file; the caller's,
  // alive during the run); null: the runner reads it.
  const LeagueFile* recorded = nullptr;
  // Play one shard of the league only; recorded in league.json ("shard"), so a resume plays the
  // same shard (another one is refused). Unset on a resume: the recorded one.
  std::optional<Shard> shard;
  std::vector<std::string> env;  // the bots' environment
  // The command that plays a match of the league again alone, journaled with it (MatchRecord::
  // rerun); built by the caller from the options it was given (the CLI: cli::rerun_command, from
  // the league's working directory); empty: none.
  std::function<std::string(const match::Options&)> rerun;
  // The folder the bots' relative commands are relative to (and their working directory in the
  // none tier); empty: the current one. Recorded in league.json: a resume uses the recorded one,
  // from whatever folder it is started (LeagueFile::working_dir).
  std::filesystem::path working_dir;
  bots::SandboxPolicy sandbox{bots::Tier::none, {}, false};  // the CLI gives the strictest available
  // SIGINT, SIGTERM, SIGHUP: matches in flight end at once and are not journaled (resume plays
  // them), whatever their bots are doing.
  const StopSignal* stop = nullptr;
  // Files are 0600 and new folders 0700 while bots run; with share_output a deal's replays and
  // logs become 0644 (folders 0755) once all its legs are journaled, league.json and the journal
  // at the end. Folders that existed before are never changed.
  bool share_output = false;
  // Keep bots alive across matches (docs/league.md, "Reused bots"): each worker keeps one process
  // per bot and leg number of the deals it plays (match::KeptBot), so a process never plays two
  // legs of one duplicate deal; bots that do not ask for it (protocol 2, "reuse": true) are
  // started for every match as without this.
  bool reuse = false;
  // Pin worker i, and so the bots it starts, to the i-th CPU the referee may use, round robin
  // (bots/affinity.hpp; docs/league.md, "Pinned workers"). A bot then has one core however many
  // threads it runs.
  bool affinity = false;
  // After a match's game_over, the time a bot has to exit before it is killed (as play's
  // --grace-ms); a kept bot (reuse) gets it when it is let go.
  std::chrono::milliseconds grace = match::kDefaultGrace;
  std::function<void(const MatchRecord&, std::uint64_t done, std::uint64_t total)> on_match;
  std::function<void(const SprtState&)> on_sprt;
};

// What a run did. It holds no match records: a league of any length runs in the same memory. The
// standings come from the journal (standings_from_journal).
struct LeagueOutcome {
  // Every journaled match, sorted by index, read from the journal when first used (JournalRecords:
  // for tests and small tools; nothing in the league or the CLI uses it).
  JournalRecords records;
  std::uint64_t journaled = 0;     // matches in the journal: this run's and the earlier runs'
  bool faulted = false;            // some journaled match ended in a fault
  std::uint64_t total = 0;         // matches in the schedule (of this shard, with a shard)
  std::uint64_t league_total = 0;  // matches in the whole league's schedule
  std::optional<Shard> shard;      // the shard played (given or recorded)
  std::uint64_t played_now = 0;    // matches this run added
  bool interrupted = false;
  std::optional<SprtState> sprt;  // the last SPRT state, when a test ran
  bool sprt_stopped = false;      // the test decided before the schedule ended
  // With an SPRT: the test covers the matches with index below this (whole blocks of deals,
  // sprt_tally.hpp); matches journaled after it are not counted in the standings either.
  std::uint64_t sprt_counted_matches = 0;
  std::string error;  // a journal write error, if any (the league stopped)
  // A bot's ready lists the games it plays, and not the league's (an unsupported_game fault): the
  // league stopped at that match, which is not journaled; "bot NAME does not play GAME with N
  // seats: it lists ...". Empty otherwise.
  std::string refused;
  std::uint64_t seed = 0;  // the league seed in force (drawn, given or journaled)
  SeedScheme seed_scheme = SeedScheme::keyed_v1;
};

// Runs (or resumes) a league. An error is a set-up problem (an unusable output folder, a journal
// of another league, a refused spec); faults of bots are results. A worker takes a whole deal and
// plays its legs one after the other, so the legs of one deal never run at the same time.
Result<LeagueOutcome> run(const LeagueSpec& spec, const RunOptions& options);

}  // namespace arena::league
