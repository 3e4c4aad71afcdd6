#pragma once
// A ladder's settings: ladder.json in its folder (docs/ladder.md, "ladder.json"), also kept in its
// database so that a worker on another machine reads the same ones. Written once by
// `referee ladder init`; read strictly (unknown keys refused, every number in its range).

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "protocol/codec.hpp"
#include "referee/bots/sandbox.hpp"
#include "referee/core/result.hpp"
#include "referee/ladder/archive.hpp"

namespace arena::ladder {

using nlohmann::json;

inline constexpr int kConfigVersion = 1;  // ladder.json's "ladder"
inline constexpr const char* kConfigFile = "ladder.json";

struct BuildSettings {
  std::uint64_t time_s = 300;      // wall time of a version's build
  std::uint64_t memory_mb = 2048;  // the build's whole tree
  std::uint64_t log_kb = 256;      // its output kept as the build log
};

struct SubmissionLimits {
  std::uint64_t max_mb = 16;       // the submission's files together, unpacked
  std::uint64_t max_files = 2000;  // files and folders
};

// A version's storage between matches (ladder.json "storage", docs/ladder.md): off unless given.
struct StorageSettings {
  std::uint64_t max_bytes = 1 << 20;  // the folder's files together (what the bot wrote)
  std::uint64_t max_files = 100;      // files and folders in it
};

struct LadderConfig {
  std::string game;
  json config;            // the game's configuration, normalized (null: the game's defaults)
  int seats = 2;          // per table
  bool duplicate = true;  // every deal played once per seat rotation (the legs of a match)
  // A version may carry its own seat configuration (bot.json "seat_config", validated by the game
  // at submission).
  bool seat_configs = false;
  protocol::Limits limits;
  double time_scale = 1.0;
  // The bots' sandbox: the tier (unset: the strictest this machine has, resolved by each worker)
  // and its limits.
  std::optional<bots::Tier> tier;
  bots::SandboxLimits sandbox;
  BuildSettings build;
  SubmissionLimits submission;
  int check_games = 1;                     // conformance games per seat against each opponent after a build
  int placement_games = 20;                // a new version's games before it counts as placed
  std::uint64_t lease_s = 120;             // a worker's hold on a match, renewed while it plays
  bool logs_public = false;                // build logs and first faults shown to everyone, not only authors
  std::optional<StorageSettings> storage;  // per-version storage between matches (unset: off)

  int legs() const { return duplicate ? seats : 1; }
};

// Reads ladder.json's JSON; every error names the key.
Result<LadderConfig> config_from_json(const json& j);
json to_json(const LadderConfig& c);
// Checks the game, its seat count and configuration against the registry (the config becomes
// the game's normalized one) and the limits.
Result<LadderConfig> normalize(LadderConfig c);

// What a submission may hold (ladder.json "submission"), and a built version (the same files
// plus what its build made: twice the bytes).
ArchiveLimits submission_limits(const LadderConfig& c);
ArchiveLimits built_limits(const LadderConfig& c);
// What a version's storage folder may hold (ladder.json "storage"; the defaults when it is off),
// and the most its packed form may take (the files plus the tar's headers, compressed).
ArchiveLimits storage_limits(const LadderConfig& c);
std::uint64_t storage_packed_cap(const LadderConfig& c);

// ladder.json in `folder`, read beneath it without following links.
Result<LadderConfig> read_config(const std::filesystem::path& folder);
Status write_config(const std::filesystem::path& folder, const LadderConfig& c);

}  // namespace arena::ladder
