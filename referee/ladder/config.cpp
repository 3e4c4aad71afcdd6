#include "referee/ladder/config.hpp"

#include <fmt/format.h>

#include "protocol/json_fields.hpp"
#include "referee/core/bounds.hpp"
#include "referee/core/private_file.hpp"
#include "referee/games/game.hpp"
#include "referee/match/match.hpp"

namespace arena::ladder {

namespace fs = std::filesystem;
using namespace json_fields;

namespace {

constexpr bounds::Range<std::uint64_t> kBuildSeconds{1, 86'400};
constexpr bounds::Range<std::uint64_t> kBuildLogKb{1, 64 << 10};
constexpr bounds::Range<std::uint64_t> kSubmissionMb{1, 4096};
constexpr bounds::Range<std::uint64_t> kSubmissionFiles{1, 1'000'000};
constexpr bounds::Range<std::int64_t> kCheckGames{0, 100};
constexpr bounds::Range<std::int64_t> kPlacementGames{0, 100'000};
constexpr bounds::Range<std::uint64_t> kLeaseSeconds{5, 86'400};
constexpr bounds::Range<std::int64_t> kConfigVersions{kConfigVersion, kConfigVersion};
constexpr bounds::Range<std::uint64_t> kStorageBytes{1, 64ull << 20};
constexpr bounds::Range<std::uint64_t> kStorageFiles{1, 10'000};

Status read_limits(const json& j, LadderConfig& c) {
  auto obj = object_at(j, "ladder.json", "limits");
  if (!obj) return fail(obj.error());
  if (*obj == nullptr) return {};
  const json& l = **obj;
  const char* where = "ladder.json limits";
  if (auto st = only_keys(l, {"init_ms", "decision_ms", "time_bank_ms", "max_line_bytes"}, where); !st) return st;
  for (const Status& st : {read_whole(l, where, "init_ms", bounds::kInitMs, c.limits.init_ms),
                           read_whole(l, where, "decision_ms", bounds::kDecisionMs, c.limits.decision_ms),
                           read_whole(l, where, "time_bank_ms", bounds::kTimeBankMs, c.limits.time_bank_ms),
                           read_whole(l, where, "max_line_bytes", bounds::kMaxLineBytes, c.limits.max_line_bytes)}) {
    if (!st) return st;
  }
  return {};
}

Status read_sandbox(const json& j, LadderConfig& c) {
  auto obj = object_at(j, "ladder.json", "sandbox");
  if (!obj) return fail(obj.error());
  if (*obj == nullptr) return {};
  const json& s = **obj;
  const char* where = "ladder.json sandbox";
  if (auto st = only_keys(s,
                          {"tier", "cpu_seconds", "address_space_mb", "memory_mb", "file_size_mb", "open_files",
                           "processes", "scratch_mb"},
                          where);
      !st) {
    return st;
  }
  if (auto it = s.find("tier"); it != s.end() && !it->is_null()) {
    const auto tier = it->is_string() ? parse_enum<bots::Tier>(it->get<std::string>()) : std::nullopt;
    if (!tier)
      return fail(fmt::format("{}: \"tier\" must be \"none\", \"basic\" or \"strict\", not {}", where, it->dump()));
    c.tier = *tier;
  }
  bots::SandboxLimits& l = c.sandbox;
  for (const Status& st : {read_whole(s, where, "cpu_seconds", bounds::kCpuSeconds, l.cpu_seconds),
                           read_whole(s, where, "address_space_mb", bounds::kAddressSpaceMb, l.address_space_mb),
                           read_whole(s, where, "memory_mb", bounds::kMemoryMb, l.memory_mb),
                           read_whole(s, where, "file_size_mb", bounds::kFileSizeMb, l.file_size_mb),
                           read_whole(s, where, "open_files", bounds::kOpenFiles, l.open_files),
                           read_whole(s, where, "processes", bounds::kProcesses, l.processes),
                           read_whole(s, where, "scratch_mb", bounds::kScratchMb, l.scratch_mb)}) {
    if (!st) return st;
  }
  return {};
}

Status read_build(const json& j, LadderConfig& c) {
  auto obj = object_at(j, "ladder.json", "build");
  if (!obj) return fail(obj.error());
  if (*obj == nullptr) return {};
  const json& b = **obj;
  const char* where = "ladder.json build";
  if (auto st = only_keys(b, {"time_s", "memory_mb", "log_kb"}, where); !st) return st;
  for (const Status& st : {read_whole(b, where, "time_s", kBuildSeconds, c.build.time_s),
                           read_whole(b, where, "memory_mb", bounds::kMemoryMb, c.build.memory_mb),
                           read_whole(b, where, "log_kb", kBuildLogKb, c.build.log_kb)}) {
    if (!st) return st;
  }
  return {};
}

Status read_submission(const json& j, LadderConfig& c) {
  auto obj = object_at(j, "ladder.json", "submission");
  if (!obj) return fail(obj.error());
  if (*obj == nullptr) return {};
  const json& s = **obj;
  const char* where = "ladder.json submission";
  if (auto st = only_keys(s, {"max_mb", "max_files"}, where); !st) return st;
  for (const Status& st : {read_whole(s, where, "max_mb", kSubmissionMb, c.submission.max_mb),
                           read_whole(s, where, "max_files", kSubmissionFiles, c.submission.max_files)}) {
    if (!st) return st;
  }
  return {};
}

Status read_storage(const json& j, LadderConfig& c) {
  auto obj = object_at(j, "ladder.json", "storage");
  if (!obj) return fail(obj.error());
  if (*obj == nullptr) return {};
  const json& s = **obj;
  const char* where = "ladder.json storage";
  if (auto st = only_keys(s, {"max_bytes", "max_files"}, where); !st) return st;
  StorageSettings storage;
  for (const Status& st : {read_whole(s, where, "max_bytes", kStorageBytes, storage.max_bytes),
                           read_whole(s, where, "max_files", kStorageFiles, storage.max_files)}) {
    if (!st) return st;
  }
  c.storage = storage;
  return {};
}

}  // namespace

Result<LadderConfig> config_from_json(const json& j) {
  if (!j.is_object()) return fail(std::string("ladder.json must hold a JSON object"));
  const char* where = "ladder.json";
  if (auto st = only_keys(
          j,
          {"ladder", "game", "config", "seats", "duplicate", "seat_configs", "limits", "time_scale", "sandbox", "build",
           "submission", "check_games", "placement_games", "lease_s", "logs_public", "storage"},
          where);
      !st) {
    return fail(st.error());
  }
  if (!j.contains("ladder")) return fail(std::string("ladder.json: \"ladder\" (the file's format, 1) is missing"));
  if (!j.contains("game")) return fail(std::string("ladder.json: \"game\" is missing"));
  LadderConfig c;
  int version = 0;
  if (auto st = read_whole(j, where, "ladder", kConfigVersions, version); !st) return fail(st.error());
  if (auto st = read_string(j, where, "game", c.game); !st) return fail(st.error());
  if (auto it = j.find("config"); it != j.end()) c.config = *it;
  for (const Status& st :
       {read_whole(j, where, "seats", bounds::kSeats, c.seats), read_bool(j, where, "duplicate", c.duplicate),
        read_bool(j, where, "seat_configs", c.seat_configs),
        read_real(j, where, "time_scale", bounds::kTimeScale, c.time_scale), read_limits(j, c), read_sandbox(j, c),
        read_build(j, c), read_submission(j, c), read_whole(j, where, "check_games", kCheckGames, c.check_games),
        read_whole(j, where, "placement_games", kPlacementGames, c.placement_games),
        read_whole(j, where, "lease_s", kLeaseSeconds, c.lease_s), read_bool(j, where, "logs_public", c.logs_public),
        read_storage(j, c)}) {
    if (!st) return fail(st.error());
  }
  return c;
}

json to_json(const LadderConfig& c) {
  const bots::SandboxLimits& s = c.sandbox;
  json out = {{"ladder", kConfigVersion},
              {"game", c.game},
              {"config", c.config},
              {"seats", c.seats},
              {"duplicate", c.duplicate},
              {"seat_configs", c.seat_configs},
              {"limits",
               {{"init_ms", c.limits.init_ms},
                {"decision_ms", c.limits.decision_ms},
                {"time_bank_ms", c.limits.time_bank_ms},
                {"max_line_bytes", c.limits.max_line_bytes}}},
              {"time_scale", c.time_scale},
              {"sandbox",
               {{"tier", c.tier ? json(enum_name(*c.tier)) : json(nullptr)},
                {"cpu_seconds", s.cpu_seconds},
                {"address_space_mb", s.address_space_mb},
                {"memory_mb", s.memory_mb},
                {"file_size_mb", s.file_size_mb},
                {"open_files", s.open_files},
                {"processes", s.processes},
                {"scratch_mb", s.scratch_mb}}},
              {"build", {{"time_s", c.build.time_s}, {"memory_mb", c.build.memory_mb}, {"log_kb", c.build.log_kb}}},
              {"submission", {{"max_mb", c.submission.max_mb}, {"max_files", c.submission.max_files}}},
              {"check_games", c.check_games},
              {"placement_games", c.placement_games},
              {"lease_s", c.lease_s},
              {"logs_public", c.logs_public}};
  // Written only when on: a ladder without storage keeps the file it always had.
  if (c.storage) out["storage"] = {{"max_bytes", c.storage->max_bytes}, {"max_files", c.storage->max_files}};
  return out;
}

Result<LadderConfig> normalize(LadderConfig c) {
  const games::Game* game = games::find_game(c.game);
  if (game == nullptr) return fail(fmt::format("unknown game \"{}\" (known: {})", c.game, games::game_names()));
  const games::GameInfo& info = game->info();
  if (c.seats == 0) c.seats = info.min_seats;
  if (c.seats < info.min_seats || c.seats > info.max_seats) {
    return fail(fmt::format("{} is played by {} seats, not {}", c.game, match::seat_range(info), c.seats));
  }
  auto config = game->normalize_config(c.config);
  if (!config) return fail(fmt::format("the game's configuration: {}", config.error()));
  c.config = std::move(*config);
  if (auto st = protocol::check_limits(c.limits, c.time_scale); !st) return fail(st.error());
  return c;
}

ArchiveLimits submission_limits(const LadderConfig& c) {
  ArchiveLimits l;
  l.max_files = static_cast<std::size_t>(c.submission.max_files);
  l.max_total_bytes = c.submission.max_mb << 20;
  l.max_file_bytes = c.submission.max_mb << 20;
  return l;
}

ArchiveLimits built_limits(const LadderConfig& c) {
  ArchiveLimits l = submission_limits(c);
  l.max_files *= 2;
  l.max_total_bytes *= 2;
  l.max_file_bytes *= 2;
  return l;
}

ArchiveLimits storage_limits(const LadderConfig& c) {
  const StorageSettings s = c.storage.value_or(StorageSettings{});
  ArchiveLimits l;
  l.max_files = static_cast<std::size_t>(s.max_files);
  l.max_total_bytes = s.max_bytes;
  l.max_file_bytes = s.max_bytes;
  return l;
}

std::uint64_t storage_packed_cap(const LadderConfig& c) {
  // A tar spends at most a header and a block's padding (1 KiB) per entry, and 10 KiB to end;
  // zstd adds little to what it cannot compress.
  const StorageSettings s = c.storage.value_or(StorageSettings{});
  return s.max_bytes + (s.max_files + 1) * 1024 + (16 << 10);
}

Result<LadderConfig> read_config(const fs::path& folder) {
  auto dir = files::Dir::open(folder);
  if (!dir) return fail(fmt::format("{} is not a ladder folder: {}", folder.string(), dir.error()));
  if (!dir->is_file(kConfigFile)) {
    return fail(fmt::format("{} is not a ladder folder: it has no {} (`referee ladder init` makes one)",
                            folder.string(), kConfigFile));
  }
  auto text = dir->read(kConfigFile, 1 << 20);
  if (!text) return fail(text.error());
  const json j = json::parse(*text, nullptr, false);
  if (j.is_discarded()) return fail(fmt::format("{}: not valid JSON", (folder / kConfigFile).string()));
  auto c = config_from_json(j);
  if (!c) return fail(fmt::format("{}: {}", (folder / kConfigFile).string(), c.error()));
  return normalize(std::move(*c));
}

Status write_config(const fs::path& folder, const LadderConfig& c) {
  auto dir = files::Dir::open(folder);
  if (!dir) return fail(dir.error());
  return dir->write(kConfigFile, to_json(c).dump(2) + "\n");
}

}  // namespace arena::ladder
