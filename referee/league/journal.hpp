#pragma once
// The journal of a league, <out>/results.jsonl: one MatchRecord per line, appended and flushed as
// each match finishes, so in the order matches finished (nearly, not exactly, by index). A league
// never holds its records: a resume streams the journal once in file order, the standings stream
// it in index order (standings_from_journal), so the same matches give the same standings
// whatever the concurrency and however often the league was interrupted. read_journal and
// JournalRecords load it whole, for tests and small tools.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "referee/core/result.hpp"
#include "referee/league/record.hpp"
#include "referee/league/standings.hpp"

namespace arena::league {

// A set of match indices as sorted disjoint ranges: the journaled matches of a league are nearly
// contiguous, so the set takes a few ranges (about one per gap) whatever the number of matches.
class IndexSet {
 public:
  bool insert(std::uint64_t index);  // false when it was there already
  bool contains(std::uint64_t index) const;
  std::uint64_t size() const { return size_; }
  // first index -> last index (inclusive), in increasing order, never adjacent.
  const std::map<std::uint64_t, std::uint64_t>& ranges() const { return ranges_; }

 private:
  std::map<std::uint64_t, std::uint64_t> ranges_;
  std::uint64_t size_ = 0;
};

using RecordSink = std::function<void(const MatchRecord&)>;

// What stream_journal found at the end of the file.
struct JournalRead {
  std::uint64_t records = 0;
  std::uint64_t valid_bytes = 0;  // the file up to the end of its last record line (with its newline if any)
  bool torn = false;              // a torn line follows them (a kill in the middle of a write): ignored
  bool unterminated = false;      // the last record line has no newline
};

// Every record of the journal, in file order; a missing file has none. A torn last line is
// ignored; any other line that is not a record is an error naming the file and the line number.
Result<JournalRead> stream_journal(const std::filesystem::path& path, const RecordSink& each);

// The same, into a vector (in file order).
Result<std::vector<MatchRecord>> read_journal(const std::filesystem::path& path);

// The journal in index order (equal indices in file order), in memory that does not depend on its
// length. open() scans it once for the indices it holds; then each pass() reads it through and
// holds back only the records that come before an index still unread: in a journal the referee
// wrote, a few per worker. They are kept as text up to `buffer_bytes` in all, beyond that as file
// offsets read again when their turn comes.
class JournalByIndex {
 public:
  static constexpr std::size_t kBufferBytes = std::size_t{16} << 20;
  static Result<JournalByIndex> open(const std::filesystem::path& path, std::size_t buffer_bytes = kBufferBytes);

  std::uint64_t records() const { return records_; }
  Status pass(const RecordSink& each);
  // The most records held back at once by the last pass, and how many of them as offsets.
  std::size_t held_back() const { return held_back_; }
  std::size_t held_as_offsets() const { return held_as_offsets_; }

 private:
  JournalByIndex() = default;
  std::filesystem::path path_;
  std::size_t buffer_bytes_ = kBufferBytes;
  std::uint64_t records_ = 0;
  IndexSet indices_;
  std::map<std::uint64_t, std::uint64_t> repeats_;  // index -> copies beyond the first (a hand-edited journal)
  std::size_t held_back_ = 0;
  std::size_t held_as_offsets_ = 0;
};

// Standings of the league journaled at `path`: exactly compute_standings() of its records sorted
// by index, streamed from the file (StandingsAccumulator, in two or a few passes) instead of held.
// Only the records with index below `below_index` count (an SPRT's decided part of a league).
Result<Standings> standings_from_journal(const std::filesystem::path& path, const std::vector<std::string>& bot_names,
                                         std::uint64_t below_index = UINT64_MAX);

// Every record of a journal, sorted by index (equal indices in file order), read when first used
// and then kept: LeagueOutcome::records, for tests and small tools that want them in hand. The
// league itself never reads them this way. The count is known without reading. A journal that
// cannot be read when they are first used throws std::runtime_error.
class JournalRecords {
 public:
  JournalRecords() = default;
  JournalRecords(std::filesystem::path journal, std::uint64_t count);

  std::size_t size() const { return static_cast<std::size_t>(count_); }
  bool empty() const { return count_ == 0; }
  const std::vector<MatchRecord>& all() const;
  operator const std::vector<MatchRecord>&() const { return all(); }  // NOLINT: reads like the vector it was
  std::vector<MatchRecord>::const_iterator begin() const { return all().begin(); }
  std::vector<MatchRecord>::const_iterator end() const { return all().end(); }
  const MatchRecord& operator[](std::size_t i) const { return all()[i]; }

 private:
  struct Loaded;
  std::filesystem::path journal_;
  std::uint64_t count_ = 0;
  std::shared_ptr<Loaded> loaded_;
};

}  // namespace arena::league
