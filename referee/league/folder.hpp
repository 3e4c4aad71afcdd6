#pragma once
// A league's folder, owned here: the names of its files (league.json, results.jsonl, shard.json,
// standings.json/.md, junit.xml, replays/, logs/), reading them, writing the standings files, and
// the data the league page lists per match. A league folder may come from someone else (a shard
// from a remote machine, an archive sent for its page), so the rules of files from strangers hold
// here (docs/security.md): the folder is opened once, never through a link; its files are opened
// beneath it without following a link (files::Dir); a file's path read from the journal names a
// replay in the folder's replays/ or is refused; every file written replaces its target (a link
// planted there is replaced, never written through).

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "referee/core/private_file.hpp"
#include "referee/core/result.hpp"
#include "referee/league/league.hpp"
#include "referee/league/record.hpp"
#include "referee/league/sprt_tally.hpp"
#include "referee/league/standings.hpp"

namespace arena::league {

inline constexpr const char* kLeagueFile = "league.json";
inline constexpr const char* kJournalFile = "results.jsonl";
inline constexpr const char* kShardFile = "shard.json";
inline constexpr const char* kStandingsJson = "standings.json";
inline constexpr const char* kStandingsMarkdown = "standings.md";
inline constexpr const char* kJunitFile = "junit.xml";
inline constexpr const char* kReplaysDir = "replays";
inline constexpr const char* kLogsDir = "logs";

// The file names of match `index` in a league folder: replays/mNNNNNN.jsonl and its seats' logs.
std::string match_stem(std::uint64_t index);
std::filesystem::path replay_name(std::uint64_t index);                 // replays/m000012.jsonl
std::filesystem::path log_name(std::uint64_t index, std::size_t seat);  // logs/m000012.seat0.stderr.log

// What the standings files say about the league beside the standings themselves.
struct LeagueFacts {
  std::string folder;
  std::uint64_t seed = 0;
  SeedScheme seed_scheme = SeedScheme::keyed_v1;
  std::uint64_t total = 0;      // matches in the whole league's schedule
  std::uint64_t journaled = 0;  // matches in the journal
  bool interrupted = false;
  std::optional<Shard> shard;
  std::optional<SprtVerdict> sprt;    // when the league ran an SPRT
  std::optional<Completion> partial;  // none: the standings cover the whole league
  // A Swiss or knockout league's spec (normalized, its seed set; the caller's): the standings
  // report its rounds (rounds.hpp) and list the bots in their order.
  const LeagueSpec* rounds_of = nullptr;
};

// An error when `dir` (a league's --out) is a symbolic link: a league folder is used as itself.
Status check_not_link(const std::filesystem::path& dir);

class LeagueFolder {
 public:
  // Opens an existing folder; an error when it is missing, not a folder, or a link.
  static Result<LeagueFolder> open(const std::filesystem::path& dir);

  const std::filesystem::path& path() const { return dir_.path(); }
  const files::Dir& dir() const { return dir_; }
  std::filesystem::path file(const char* name) const { return path() / name; }
  std::filesystem::path journal_path() const { return file(kJournalFile); }

  bool has(const std::filesystem::path& relative) const { return dir_.exists(relative); }

  // A JSON file of the folder (league.json, standings.json, shard.json): null when it is missing
  // or not JSON; an error when it may not be read (a link, a FIFO, a folder, too large).
  Result<nlohmann::json> read_json(const char* name) const;

  // The replay of a journaled match, relative to the folder: replays/<the recorded file's name>
  // (the folder may have moved since, so only the name counts). nullopt when the record names
  // none or the folder does not hold it; an error when the recorded path does not name a replay
  // in a replays/ folder (e.g. /etc/passwd, ../..) or the file there is a link or not a file.
  Result<std::optional<std::filesystem::path>> replay_of(const MatchRecord& record) const;

  // `text` as the folder's file `relative` (temporary file renamed over it), 0600 or 0644.
  Status write(const std::filesystem::path& relative, std::string_view text, bool share) const;

  // The standings of the league, from its journal (streamed in index order: no record is held),
  // written as standings.json, standings.md and junit.xml: the same bytes for the same journal,
  // whether the league was played on one machine or merged from shards (except the folder's
  // name). `names`: the league's bots, in order.
  Result<Standings> write_standings(const std::vector<std::string>& names, const LeagueFacts& facts, bool share) const;

  // A Swiss or knockout league's rounds (rounds.hpp) from this folder's journal into `standings`,
  // whose bots are then listed in the rounds' order; nothing for another format. `spec`: the
  // league's (normalized, its seed set: league.json's).
  Status add_rounds(Standings& standings, const LeagueSpec& spec) const;

  // Brings the file `relative` of this folder to `to` (a hard link, else a copy): it must be a
  // regular file beneath this folder; a missing one is not an error (false).
  Result<bool> bring(const std::filesystem::path& relative, const std::filesystem::path& to) const;

 private:
  explicit LeagueFolder(files::Dir dir) : dir_(std::move(dir)) {}
  files::Dir dir_;
};

// A match as the league page lists it (render/league_page.hpp): index, deal, leg, seed (decimal
// text: JavaScript cannot hold every 64-bit number), end, seats
// [{bot, score, rank}], fault {seat, kind, message} or null; "replay" and "page" null (the page's
// writer links them).
nlohmann::json page_match(const MatchRecord& record);

// The bots' names of a league file (league.json's "bots"[].name), for standings computed from its
// journal.
std::vector<std::string> bot_names(const nlohmann::json& league_file);

}  // namespace arena::league
