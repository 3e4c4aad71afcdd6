#pragma once
// A league folder's league.json read once into one typed value (the league, the folder its bot
// commands are relative to, its shard), and the league flags as an overlay on a league, applied
// and checked in one function (docs/league.md, "Stopping and resuming"): the CLI and the runner
// use that value, and nothing reads the file a second time.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "referee/core/result.hpp"
#include "referee/league/league.hpp"

namespace arena::league {

// league.json as the runner writes it.
struct LeagueFile {
  std::filesystem::path file;  // where it is (messages name it)
  LeagueSpec spec;             // as recorded: its seed, its seed scheme (legacy when the file has none)
  // The folder its relative bot commands are relative to (and the bots' working directory in the
  // none tier); none in leagues of earlier versions.
  std::optional<std::filesystem::path> working_dir;
  std::optional<Shard> shard;  // none: the whole league
};

// Reads <out>/league.json, never through a link, a FIFO or a huge file; an error names the file.
Result<LeagueFile> read_league_file(const std::filesystem::path& out);

// JSON a person wrote (a league file, --config): parsed, or "NAME is not valid JSON: line 3,
// column 14: syntax error while parsing object - unexpected '}'; expected string literal".
Result<nlohmann::json> parse_json_text(std::string_view text, std::string_view name);
// The file's JSON: the spec, "working_dir" (when set) and "shard" (a shard of more than one).
json to_json(const LeagueFile& file);

// The league flags given on the command line, each set only when given.
struct LeagueFlags {
  std::vector<match::BotSpec> bots;  // --bot (with --name, --seat-config); empty: none given
  std::optional<std::string> game;
  std::optional<json> config;
  std::optional<Format> format;
  std::optional<int> seats;
  std::optional<std::uint64_t> deals;
  std::optional<DealBook> book;          // --deals-file, read
  std::string book_name;                 // "the deal book FILE", for messages
  std::optional<DealOrder> deals_order;  // --deals-order
  bool no_duplicate = false;
  std::optional<int> concurrency;
  std::optional<std::uint64_t> seed;
  std::optional<std::int64_t> init_ms;
  std::optional<std::int64_t> decision_ms;
  std::optional<std::int64_t> time_bank_ms;
  std::optional<std::size_t> max_line_bytes;
  std::optional<double> time_scale;
  std::optional<SprtConfig> sprt;
  std::optional<Shard> shard;
  std::optional<int> rounds;  // --rounds (swiss)
  // --address-space-mb once per bot: each bot's own (as "address_space_mb" in a league file);
  // applied when there is one per bot (the CLI's sandbox options refuse another count).
  std::vector<std::uint64_t> address_space_mb;
};

// The league a run plays.
struct League {
  LeagueSpec spec;             // normalized; on a resume its seed and scheme are the recorded ones unless given
  std::optional<Shard> shard;  // given, or recorded
};

// The flags over a league: the user's league file (`file`, named `file_name` in messages), else on
// a resume without --bot the recorded league, else the defaults; then normalized. On a resume
// (`recorded`), the result must be the recorded league: only --concurrency may differ; a seed or
// scheme not given is the recorded one; a --shard must be the recorded one. An error names the
// flag or the league file a value came from and what league.json records.
Result<League> apply_flags(const LeagueFlags& flags, const std::optional<LeagueSpec>& file,
                           const std::string& file_name, const std::optional<LeagueFile>& recorded);

// Where a value of the league given came from, for the message that refuses another league:
// "--deals 4", or "\"deals\": 4 in my-league.json". Empty: "\"deals\": 4".
using SourceOf = std::function<std::string(std::string_view key, const json& value)>;

// Whether `spec` (normalized) is the league `recorded` records, concurrency aside; its seed and
// seed scheme are taken from it when unset. The error lists every difference, each named by
// `source` and with what league.json holds.
Status check_same_league(LeagueSpec& spec, const LeagueFile& recorded, const SourceOf& source = {});

// An SPRT on a shard (a count above 1) is refused: the test needs every deal in schedule order.
Status check_sprt_on_shard(const LeagueSpec& spec, const std::optional<Shard>& shard);

// Whether a --shard given fits the recorded one: a shard's folder stays that shard's.
Status check_shard(const std::optional<Shard>& given, const LeagueFile& recorded);

}  // namespace arena::league
