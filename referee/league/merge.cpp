#include "referee/league/merge.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <utility>

#include "referee/core/private_file.hpp"
#include "referee/league/folder.hpp"
#include "referee/league/journal.hpp"
#include "referee/league/rounds.hpp"
#include "referee/league/stats.hpp"

namespace arena::league {

namespace fs = std::filesystem;

namespace {

// One shard folder as read: its league.json split into the league and the shard.
struct ShardFolder {
  fs::path folder;
  std::shared_ptr<LeagueFolder> dir;  // opened once: every file read beneath it
  Shard shard;
  json league;  // league.json without "shard", "concurrency" and "working_dir": what must agree
  json file;    // league.json as it is
  std::vector<MatchRecord> records;
};

Result<ShardFolder> read_shard(const fs::path& folder) {
  ShardFolder s;
  s.folder = folder;
  auto opened = LeagueFolder::open(folder);
  if (!opened) return fail(opened.error());
  s.dir = std::make_shared<LeagueFolder>(std::move(opened).value());
  const fs::path file = s.dir->file(kLeagueFile);
  auto read = s.dir->read_json(kLeagueFile);
  if (!read) return fail(read.error());
  if (!s.dir->has(kLeagueFile))
    return fail(fmt::format("{}: no league.json (is it a league folder?)", folder.string()));
  s.file = std::move(read).value();
  if (!s.file.is_object()) return fail(fmt::format("{} is not a league file (not a JSON object)", file.string()));
  auto shard = recorded_shard(s.file, file.string());
  if (!shard) return fail(shard.error());
  if (!*shard) {
    return fail(fmt::format("{} holds a whole league, not a shard (played without --shard): nothing to merge",
                            folder.string()));
  }
  s.shard = **shard;
  s.league = s.file;
  for (const char* key : {"shard", "concurrency", "working_dir"}) s.league.erase(key);
  auto records = read_journal(s.dir->journal_path());
  if (!records) return fail(records.error());
  s.records = std::move(records).value();
  return s;
}

// The host of the shard's last run, from its shard.json ("" without a readable one).
std::string last_host(const LeagueFolder& folder) {
  auto read = folder.read_json(kShardFile);
  if (!read) return "";
  const json& manifest = *read;
  if (!manifest.is_object() || !manifest.contains("runs") || !manifest.at("runs").is_array() ||
      manifest.at("runs").empty()) {
    return "";
  }
  const json& run = manifest.at("runs").back();
  const auto host = run.is_object() ? run.find("host") : run.end();
  return host != run.end() && host->is_string() ? host->get<std::string>() : "";
}

ShardSummary summarize(const ShardFolder& s) {
  ShardSummary out;
  out.folder = s.folder;
  out.shard = s.shard;
  out.host = last_host(*s.dir);
  out.matches = s.records.size();
  std::vector<double> times;
  for (const MatchRecord& r : s.records) {
    if (r.fault) ++out.faults[std::string(enum_name(r.fault->kind))];
    for (const SeatRecord& seat : r.seats) times.insert(times.end(), seat.decision_ms.begin(), seat.decision_ms.end());
  }
  out.median_decision_ms = median(std::move(times));
  return out;
}

}  // namespace

Result<MergeOutcome> merge(const MergeOptions& o) {
  if (o.shards.empty()) return fail(std::string("merge: no shard folders given"));
  // 1. One league, each shard once.
  std::vector<ShardFolder> shards;
  for (const fs::path& folder : o.shards) {
    auto shard = read_shard(folder);
    if (!shard) return fail(shard.error());
    shards.push_back(std::move(shard).value());
  }
  const ShardFolder& first = shards.front();
  for (const ShardFolder& s : shards) {
    if (s.league != first.league) {
      return fail(fmt::format("{} and {} are shards of different leagues (bots, commands, game, seed or limits differ)",
                              first.folder.string(), s.folder.string()));
    }
    if (s.shard.count != first.shard.count) {
      return fail(fmt::format("{} is shard {}/{} but {} is shard {}/{}: one league is cut one way", s.folder.string(),
                              s.shard.index, s.shard.count, first.folder.string(), first.shard.index,
                              first.shard.count));
    }
  }
  std::sort(shards.begin(), shards.end(),
            [](const ShardFolder& a, const ShardFolder& b) { return a.shard.index < b.shard.index; });
  MergeOutcome outcome;
  for (std::size_t i = 1; i < shards.size(); ++i) {
    if (shards[i].shard.index == shards[i - 1].shard.index) {
      return fail(fmt::format("shard {}/{} given twice: {} and {}", shards[i].shard.index, shards[i].shard.count,
                              shards[i - 1].folder.string(), shards[i].folder.string()));
    }
  }
  for (int index = 1; index <= first.shard.count; ++index) {
    if (std::none_of(shards.begin(), shards.end(), [&](const ShardFolder& s) { return s.shard.index == index; }))
      outcome.missing_shards.push_back(index);
  }
  if (!outcome.missing_shards.empty() && !o.partial) {
    std::string list;
    for (int index : outcome.missing_shards)
      list += fmt::format("{}{}/{}", list.empty() ? "" : ", ", index, first.shard.count);
    return fail(
        fmt::format("shard{} {} missing: give every shard's folder, or --partial for standings of what there is",
                    outcome.missing_shards.size() == 1 ? "" : "s", list));
  }

  // 2. Every record the schedule's own, in its shard, once.
  auto spec = spec_from_json(first.league);
  if (!spec) return fail(fmt::format("{}/league.json: {}", first.folder.string(), spec.error()));
  auto normal = normalize(std::move(spec).value());
  if (!normal) return fail(fmt::format("{}/league.json: {}", first.folder.string(), normal.error()));
  outcome.spec = std::move(normal).value();
  if (!outcome.spec.seed)
    return fail(fmt::format("{}/league.json records no seed: not a league's file", first.folder.string()));
  if (!outcome.spec.seed_scheme) outcome.spec.seed_scheme = SeedScheme::legacy;
  if (auto st = check_rounds_on_shard(outcome.spec, first.shard); !st)  // a forged shard: none is played
    return fail(fmt::format("{}/league.json: {}", first.folder.string(), st.error()));
  const Schedule schedule(outcome.spec);
  outcome.total = schedule.total();
  std::map<std::uint64_t, const ShardFolder*> owner;  // index -> the folder that journaled it
  std::vector<std::pair<MatchRecord, const ShardFolder*>> all;
  for (const ShardFolder& s : shards) {
    for (const MatchRecord& r : s.records) {
      if (r.index >= schedule.total()) {
        return fail(fmt::format("{}: match {} is not in the league's schedule of {} matches", s.folder.string(),
                                r.index, schedule.total()));
      }
      const Scheduled at = schedule.at(r.index);
      if (r.deal != at.deal || r.leg != at.leg || r.seed != at.seed) {
        return fail(
            fmt::format("{}: match {} is not this league's (deal {} leg {} seed {}; the schedule says deal {} "
                        "leg {} seed {})",
                        s.folder.string(), r.index, r.deal, r.leg, r.seed, at.deal, at.leg, at.seed));
      }
      if (!s.shard.owns_deal(r.deal)) {
        return fail(fmt::format("{}: match {} (deal {}) belongs to shard {}/{}, not to this folder's {}/{}",
                                s.folder.string(), r.index, r.deal, Shard::of_deal(r.deal, s.shard.count).index,
                                s.shard.count, s.shard.index, s.shard.count));
      }
      if (const auto [it, fresh] = owner.emplace(r.index, &s); !fresh) {
        return fail(fmt::format("match {} is journaled twice: in {} and in {}", r.index, it->second->folder.string(),
                                s.folder.string()));
      }
      all.emplace_back(r, &s);
    }
  }
  std::uint64_t expected = 0;  // the matches of the shards given
  for (const ShardFolder& s : shards)
    expected += s.shard.deals_below(schedule.deals()) * static_cast<std::uint64_t>(schedule.legs());
  if (all.size() < expected && !o.partial) {
    std::uint64_t missing = 0;
    for (std::uint64_t i = 0; i < schedule.total() && missing == 0; ++i) {
      const Scheduled at = schedule.at(i);
      if (owner.count(i) == 0 &&
          std::any_of(shards.begin(), shards.end(), [&](const ShardFolder& s) { return s.shard.owns_deal(at.deal); })) {
        missing = i + 1;
      }
    }
    const Shard of = Shard::of_deal(schedule.at(missing - 1).deal, first.shard.count);
    return fail(
        fmt::format("{} of {} matches are missing (the first: match {} of shard {}/{}): resume those shards "
                    "(league --resume --out SHARD), or --partial",
                    expected - all.size(), expected, missing - 1, of.index, of.count));
  }

  // 3. Write: the league, its journal in index order, the replays and logs, nothing half.
  if (auto st = check_not_link(o.out); !st) return fail(st.error());
  std::error_code ec;
  if (fs::exists(fs::symlink_status(o.out / kLeagueFile, ec)) ||
      fs::exists(fs::symlink_status(o.out / kJournalFile, ec))) {
    return fail(fmt::format("{} already holds a league; merge into a new folder", o.out.string()));
  }
  auto created = files::make_private_dirs(o.out);
  if (!created) return fail(created.error());
  std::vector<fs::path> written = *created;
  for (const char* sub : {kReplaysDir, kLogsDir}) {
    auto made = files::make_private_dirs(o.out / sub);
    if (!made) return fail(made.error());
    written.push_back(o.out / sub);
  }
  json league = first.league;
  const auto concurrency = first.file.find("concurrency");
  league["concurrency"] = concurrency != first.file.end() ? *concurrency : json(1);
  if (first.file.contains("working_dir")) league["working_dir"] = first.file.at("working_dir");
  if (auto st = files::write_private(o.out / kLeagueFile, league.dump(2) + '\n'); !st) return fail(st.error());
  written.push_back(o.out / kLeagueFile);

  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first.index < b.first.index; });
  std::string journal;
  for (auto& [record, from] : all) {
    const fs::path replay = o.out / replay_name(record.index);
    auto brought = from->dir->bring(replay_name(record.index), replay);
    if (!brought) return fail(brought.error());
    if (*brought) written.push_back(replay);
    for (std::size_t seat = 0; seat < record.seats.size(); ++seat) {
      const fs::path log = log_name(record.index, seat);
      auto log_brought = from->dir->bring(log, o.out / log);
      if (!log_brought) return fail(log_brought.error());
      if (*log_brought) written.push_back(o.out / log);
    }
    record.replay = replay.string();
    outcome.faulted = outcome.faulted || record.fault.has_value();
    journal += journal_line(record);
    journal += '\n';
  }
  if (auto st = files::write_private(o.out / kJournalFile, journal); !st) return fail(st.error());
  written.push_back(o.out / kJournalFile);
  if (o.share_output) {
    if (auto st = files::share(written); !st) return fail(st.error());
  }
  outcome.merged = all.size();
  for (const ShardFolder& s : shards) outcome.shards.push_back(summarize(s));
  return outcome;
}

}  // namespace arena::league
