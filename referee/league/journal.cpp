#include "referee/league/journal.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "referee/core/private_file.hpp"

namespace arena::league {

namespace fs = std::filesystem;

// ---- IndexSet ------------------------------------------------------------------------------

bool IndexSet::insert(std::uint64_t index) {
  // The range starting after `index`, and the one before it (which may hold it).
  auto after = ranges_.upper_bound(index);
  const bool joins_after = after != ranges_.end() && after->first == index + 1;  // index < after->first
  if (after != ranges_.begin()) {
    auto before = std::prev(after);
    if (index <= before->second) return false;
    if (index == before->second + 1) {  // extends `before`, perhaps up to `after`
      before->second = joins_after ? after->second : index;
      if (joins_after) ranges_.erase(after);
      ++size_;
      return true;
    }
  }
  if (joins_after) {  // extends `after` downwards
    const std::uint64_t last = after->second;
    ranges_.erase(after);
    ranges_.emplace(index, last);
  } else {
    ranges_.emplace(index, index);
  }
  ++size_;
  return true;
}

bool IndexSet::contains(std::uint64_t index) const {
  auto after = ranges_.upper_bound(index);
  return after != ranges_.begin() && index <= std::prev(after)->second;
}

// ---- reading lines -------------------------------------------------------------------------

namespace {

// One line of the journal as a record; nullopt for a torn last line (a kill in the middle of a
// write: that match is simply played again on resume).
Result<std::optional<MatchRecord>> parse_line(const std::string& line, const fs::path& path, std::uint64_t number,
                                              bool last) {
  json j = json::parse(line, nullptr, false);
  if (j.is_discarded()) {
    if (last) return std::optional<MatchRecord>();
    return fail(fmt::format("{} line {}: not JSON", path.string(), number));
  }
  auto r = record_from_json(j);
  if (!r) return fail(fmt::format("{} line {}: {}", path.string(), number, r.error()));
  return std::optional<MatchRecord>(std::move(r).value());
}

// The value of the top-level "index" key, read without parsing the line: the journal writes it as
// "index":N, and no string can hold that text unescaped. nullopt when it is not found so.
std::optional<std::uint64_t> quick_index(const std::string& line) {
  static constexpr std::string_view kKey = "\"index\":";
  const std::size_t at = line.find(kKey);
  if (at == std::string::npos) return std::nullopt;
  const char* first = line.data() + at + kKey.size();
  const char* end = line.data() + line.size();
  std::uint64_t value = 0;
  const auto [ptr, ec] = std::from_chars(first, end, value);
  if (ec != std::errc() || ptr == end || (*ptr != ',' && *ptr != '}')) return std::nullopt;
  return value;
}

// Reads a file line by line, knowing each line's number, its offset and whether it is the last.
class LineReader {
 public:
  // The reader of `path`; nullopt when there is no such file (a journal not started yet), an
  // error for one that may not be read (a link, a FIFO, a folder: files::open_read).
  static Result<std::optional<LineReader>> open(const fs::path& path) {
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(path, ec))) return std::optional<LineReader>();
    auto in = files::open_read(path);
    if (!in) return fail(in.error());
    return std::optional<LineReader>(LineReader(std::move(in).value()));
  }
  // The next line; false at the end of the file.
  bool next() {
    offset_ = next_offset_;
    if (!std::getline(*in_, line_)) return false;
    ++number_;
    terminated_ = !in_->eof();
    next_offset_ = offset_ + line_.size() + (terminated_ ? 1 : 0);
    return true;
  }
  bool last() { return in_->peek() == std::istream::traits_type::eof(); }
  const std::string& line() const { return line_; }
  std::uint64_t number() const { return number_; }
  std::uint64_t offset() const { return offset_; }
  std::uint64_t end_offset() const { return next_offset_; }
  bool terminated() const { return terminated_; }

 private:
  explicit LineReader(std::unique_ptr<std::istream> in) : in_(std::move(in)) {}
  std::unique_ptr<std::istream> in_;
  std::string line_;
  std::uint64_t number_ = 0;
  std::uint64_t offset_ = 0;
  std::uint64_t next_offset_ = 0;
  bool terminated_ = false;
};

}  // namespace

Result<JournalRead> stream_journal(const fs::path& path, const RecordSink& each) {
  JournalRead read;
  auto opened = LineReader::open(path);
  if (!opened) return fail(opened.error());
  if (!*opened) return read;
  LineReader& in = **opened;
  while (in.next()) {
    if (in.line().empty()) continue;
    auto record = parse_line(in.line(), path, in.number(), in.last());
    if (!record) return fail(record.error());
    if (!*record) {
      read.torn = true;
      break;
    }
    ++read.records;
    read.valid_bytes = in.end_offset();
    read.unterminated = !in.terminated();
    each(**record);
  }
  return read;
}

Result<std::vector<MatchRecord>> read_journal(const fs::path& path) {
  std::vector<MatchRecord> records;
  auto read = stream_journal(path, [&](const MatchRecord& r) { records.push_back(r); });
  if (!read) return fail(read.error());
  return records;
}

// ---- JournalByIndex ------------------------------------------------------------------------

Result<JournalByIndex> JournalByIndex::open(const fs::path& path, std::size_t buffer_bytes) {
  JournalByIndex j;
  j.path_ = path;
  j.buffer_bytes_ = buffer_bytes;
  auto opened = LineReader::open(path);
  if (!opened) return fail(opened.error());
  if (!*opened) return j;
  LineReader& in = **opened;
  while (in.next()) {
    if (in.line().empty()) continue;
    const bool last = in.last();
    std::optional<std::uint64_t> index = last ? std::nullopt : quick_index(in.line());
    if (!index) {  // not in the usual form, or the last line (which may be torn): parse it
      auto record = parse_line(in.line(), path, in.number(), last);
      if (!record) return fail(record.error());
      if (!*record) break;
      index = (*record)->index;
    }
    ++j.records_;
    if (!j.indices_.insert(*index)) ++j.repeats_[*index];
  }
  return j;
}

Status JournalByIndex::pass(const RecordSink& each) {
  held_back_ = 0;
  held_as_offsets_ = 0;
  auto opened = LineReader::open(path_);
  if (!opened) return fail(opened.error());
  if (!*opened) {
    if (records_ == 0) return {};
    return fail(fmt::format("cannot read {}", path_.string()));
  }
  LineReader& in = **opened;
  std::unique_ptr<std::istream> again;  // for the records held back as offsets

  // The next index to hand out: the smallest of the scan's not handed out yet, and its copies left.
  auto range = indices_.ranges().begin();
  std::uint64_t expected = range == indices_.ranges().end() ? 0 : range->first;
  std::uint64_t copies = 1;
  if (range != indices_.ranges().end()) {
    if (auto it = repeats_.find(expected); it != repeats_.end()) copies += it->second;
  }
  const auto have_expected = [&] { return range != indices_.ranges().end(); };
  const auto handed_out = [&] {
    if (--copies > 0) return;
    if (expected < range->second) {
      ++expected;
    } else if (++range != indices_.ranges().end()) {
      expected = range->first;
    }
    copies = 1;
    if (auto it = repeats_.find(expected); have_expected() && it != repeats_.end()) copies += it->second;
  };

  struct Held {
    std::string line;  // empty when held as an offset
    std::uint64_t offset = 0;
    std::uint64_t number = 0;
  };
  std::map<std::pair<std::uint64_t, std::uint64_t>, Held> held;  // (index, line number)
  std::size_t held_bytes = 0;
  std::uint64_t seen = 0;

  const auto hand_out_held = [&](std::map<std::pair<std::uint64_t, std::uint64_t>, Held>::iterator it) -> Status {
    Held h = std::move(it->second);
    held.erase(it);
    if (h.line.empty()) {
      if (!again) {
        auto reopened = files::open_read(path_);
        if (!reopened) return fail(reopened.error());
        again = std::move(reopened).value();
      }
      again->clear();
      again->seekg(static_cast<std::streamoff>(h.offset));
      if (!std::getline(*again, h.line)) return fail(fmt::format("cannot read {} again", path_.string()));
    } else {
      held_bytes -= h.line.size();
    }
    auto record = parse_line(h.line, path_, h.number, false);
    if (!record) return fail(record.error());
    if (have_expected() && (*record)->index == expected) handed_out();
    each(**record);
    return {};
  };
  // Hands out the held records that are due: the expected index, and any that the scan did not
  // foresee and are now late (only in a journal changed since the scan).
  const auto drain = [&]() -> Status {
    while (have_expected() && !held.empty() && held.begin()->first.first <= expected) {
      if (auto st = hand_out_held(held.begin()); !st) return st;
    }
    return {};
  };

  while (in.next()) {
    if (in.line().empty()) continue;
    const bool last = in.last();
    std::optional<std::uint64_t> index = last ? std::nullopt : quick_index(in.line());
    if (!index || (have_expected() && *index == expected)) {
      auto record = parse_line(in.line(), path_, in.number(), last);
      if (!record) return fail(record.error());
      if (!*record) break;
      ++seen;
      if (have_expected() && (*record)->index == expected) {
        handed_out();
        each(**record);
        if (auto st = drain(); !st) return st;
        continue;
      }
      index = (*record)->index;
    } else {
      ++seen;
    }
    Held h;
    h.offset = in.offset();
    h.number = in.number();
    if (held_bytes + in.line().size() <= buffer_bytes_) {
      h.line = in.line();
      held_bytes += h.line.size();
    } else {
      ++held_as_offsets_;
    }
    held.emplace(std::make_pair(*index, h.number), std::move(h));
    held_back_ = std::max(held_back_, held.size());
  }
  // Whatever is left (the scan's count was off: the journal changed since), in index order.
  while (!held.empty()) {
    if (auto st = hand_out_held(held.begin()); !st) return st;
  }
  if (seen != records_) {
    return fail(fmt::format("{} changed while it was read ({} records, then {})", path_.string(), records_, seen));
  }
  return {};
}

// ---- standings -----------------------------------------------------------------------------

Result<Standings> standings_from_journal(const fs::path& path, const std::vector<std::string>& bot_names,
                                         std::uint64_t below_index) {
  auto journal = JournalByIndex::open(path);
  if (!journal) return fail(journal.error());
  const auto counted = [&](const RecordSink& each) {
    return journal->pass([&](const MatchRecord& r) {
      if (r.index < below_index) each(r);
    });
  };
  const auto feed = [&](StandingsAccumulator& acc) { return counted([&](const MatchRecord& r) { acc.add(r); }); };
  StandingsAccumulator acc(bot_names, true);
  if (auto st = feed(acc); !st) return fail(st.error());
  if (!acc.exact()) {  // deals out of index order (a hand-made journal): pair its legs without the shortcut
    acc = StandingsAccumulator(bot_names, false);
    if (auto st = feed(acc); !st) return fail(st.error());
  }
  return acc.finish(counted);
}

// ---- JournalRecords ------------------------------------------------------------------------

struct JournalRecords::Loaded {
  std::once_flag once;
  std::vector<MatchRecord> records;
  std::string error;
};

JournalRecords::JournalRecords(fs::path journal, std::uint64_t count)
    : journal_(std::move(journal)), count_(count), loaded_(std::make_shared<Loaded>()) {}

const std::vector<MatchRecord>& JournalRecords::all() const {
  static const std::vector<MatchRecord> kNone;
  if (!loaded_) return kNone;
  std::call_once(loaded_->once, [this] {
    auto read = read_journal(journal_);
    if (!read) {
      loaded_->error = read.error();
      return;
    }
    loaded_->records = std::move(read).value();
    std::stable_sort(loaded_->records.begin(), loaded_->records.end(),
                     [](const MatchRecord& a, const MatchRecord& b) { return a.index < b.index; });
  });
  if (!loaded_->error.empty()) throw std::runtime_error(loaded_->error);
  return loaded_->records;
}

}  // namespace arena::league
