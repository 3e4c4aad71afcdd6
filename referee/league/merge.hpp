#pragma once
// `referee league merge`: the shards of one league (league --shard I/N, each maybe on another
// machine) combined into one league folder whose standings are those a single machine would
// have written for the same matches (docs/distributed.md). Everything is checked before anything
// is written: one league, each shard once, every record the schedule's own and its shard's, no
// match twice, none missing (unless `partial`).

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "referee/core/result.hpp"
#include "referee/league/league.hpp"

namespace arena::league {

struct MergeOptions {
  std::vector<std::filesystem::path> shards;  // shard folders, any order
  std::filesystem::path out;                  // the merged league's folder (new, or empty)
  bool partial = false;                       // merge what there is: missing shards or matches
  bool share_output = false;                  // files 0644 and folders 0755, as league --share-output
};

// What one shard brought, so that a bad machine stands out.
struct ShardSummary {
  std::filesystem::path folder;
  Shard shard;
  std::string host;  // from its shard.json, the last run's ("" without one)
  std::uint64_t matches = 0;
  std::map<std::string, int> faults;  // kind -> count
  double median_decision_ms = 0;      // over every decision of every seat of its matches
};

struct MergeOutcome {
  LeagueSpec spec;           // normalised, with its seed and seed scheme
  std::uint64_t total = 0;   // matches in the league's schedule
  std::uint64_t merged = 0;  // matches written
  bool faulted = false;
  std::vector<int> missing_shards;   // shard indices (1-based) not given (partial only)
  std::vector<ShardSummary> shards;  // in shard order
};

Result<MergeOutcome> merge(const MergeOptions& options);

}  // namespace arena::league
