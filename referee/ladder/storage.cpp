// A version's storage between matches, for one match (storage.hpp).
#include "referee/ladder/storage.hpp"

#include <fmt/format.h>
#include <sys/mount.h>
#include <unistd.h>

#include <algorithm>

#include "referee/ladder/archive.hpp"

namespace arena::ladder {

namespace fs = std::filesystem;

void clear_storage_folders(const fs::path& root) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(root, ec)) {
    ::umount2(entry.path().c_str(), MNT_DETACH | UMOUNT_NOFOLLOW);  // not one: nothing happens
    fs::remove_all(entry.path(), ec);
  }
}

MatchStorage::MatchStorage(const Claim& claim, const LadderConfig& config, fs::path root)
    : match_(claim.match),
      attempt_(claim.attempt),
      config_(config),
      on_(config.storage.has_value()),
      root_(std::move(root)) {}

Status MatchStorage::load(Store& store) {
  if (!on_) return {};
  for (Id v : match_.seats) {
    if (snapshot_.count(v) != 0) continue;
    auto blob = store.storage(v);
    if (!blob) return fail(blob.error());
    snapshot_.emplace(v, std::move(*blob));
  }
  return {};
}

MatchStorage::~MatchStorage() {
  if (!on_) return;
  for (int leg = 0; leg < match_.legs; ++leg) {
    for (std::size_t b = 0; b < match_.seats.size(); ++b) drop(folder(leg, b));
  }
}

Status MatchStorage::make(const fs::path& dir) {
  drop(dir);
  std::error_code ec;
  if (!fs::create_directory(dir, ec) || ec)
    return fail(fmt::format("cannot create the storage folder {}: {}", dir.string(), ec.message()));
  // As root, a tmpfs of its own: what the bot may write there is bounded (bytes and files) by
  // the ladder's limits plus room for the tar's rounding, not by the worker's disk.
  if (::geteuid() == 0) {
    const StorageSettings& s = *config_.storage;
    const std::string options = fmt::format("size={},nr_inodes={},mode=0700",
                                            s.max_bytes + (s.max_files + 1) * 4096 + (64 << 10), s.max_files + 16);
    if (::mount("tmpfs", dir.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, options.c_str()) == 0) mounted_.insert(dir);
  }
  // The bot's own (given to its uid by the sandbox); nobody else's uid may enter it.
  fs::permissions(dir, fs::perms::owner_all, ec);
  if (ec) return fail(fmt::format("cannot set the mode of {}: {}", dir.string(), ec.message()));
  return {};
}

void MatchStorage::drop(const fs::path& dir) {
  if (mounted_.erase(dir) != 0) ::umount2(dir.c_str(), MNT_DETACH);
  std::error_code ec;
  fs::remove_all(dir, ec);
}

fs::path MatchStorage::folder(int leg, std::size_t bot) const {
  return root_ / fmt::format("{}-a{}-leg{}-bot{}", match_.id, attempt_, leg, bot);
}

Result<std::vector<match::BotSpec>> MatchStorage::prepare_leg(const MatchBots& t, int leg) {
  std::vector<match::BotSpec> bots = t.bots;
  if (!on_) return bots;
  const std::vector<int> seat_bots = t.leg_bots(leg);
  for (std::size_t seat = 0; seat < seat_bots.size(); ++seat) {
    const auto b = static_cast<std::size_t>(seat_bots[seat]);
    const fs::path dir = folder(leg, b);
    if (auto made = make(dir); !made) return fail(made.error());
    const Bytes& blob = snapshot_.at(t.versions[b]);
    if (!blob.empty()) {
      // The stored blob is read as a stranger's archive: a forged one is refused, never followed.
      if (auto st = unpack(blob, dir, storage_limits(config_)); !st) {
        problems_.push_back(
            fmt::format("match {} leg {} seat {}: the stored storage of {} cannot be unpacked ({}); "
                        "the seat starts with an empty folder",
                        match_.id, leg, seat, t.bots[b].name, st.error().message));
        if (auto made = make(dir); !made) return fail(made.error());
      }
    }
    bots[b].storage = dir;
  }
  return bots;
}

void MatchStorage::finish_leg(const MatchBots& t, int leg) {
  if (!on_) return;
  const std::vector<int> seat_bots = t.leg_bots(leg);
  if (leg == match_.legs - 1) {
    // Each version's lowest seat of the last leg.
    std::vector<Id> done;
    for (std::size_t seat = 0; seat < seat_bots.size(); ++seat) {
      const auto b = static_cast<std::size_t>(seat_bots[seat]);
      const Id v = t.versions[b];
      if (std::find(done.begin(), done.end(), v) != done.end()) continue;
      done.push_back(v);
      auto packed = pack_folder(folder(leg, b), storage_limits(config_), storage_packed_cap(config_));
      if (!packed) {
        problems_.push_back(fmt::format(
            "match {} leg {} seat {}: the storage folder of {} is refused ({}: {}); "
            "its storage stays as it was",
            match_.id, leg, seat, t.bots[b].name, enum_name(packed.error().problem), packed.error().message));
        continue;
      }
      reports_.push_back(StorageReport{v, std::move(*packed)});
    }
  }
  for (int b : seat_bots) drop(folder(leg, static_cast<std::size_t>(b)));
}

}  // namespace arena::ladder
