#pragma once
// A version's storage between matches, as a worker handles it for one match (docs/ladder.md,
// "Storage between matches"; on only with ladder.json "storage").
//
// At the claim each version's stored blob is read once: the snapshot every leg starts from. For
// each leg every seat gets a fresh folder of its own, unpacked from its version's snapshot with
// the checks of a submission (archive.hpp), so nothing a bot writes in one leg is seen in another
// and two seats of one version never share a folder. After the last leg, the folder of each
// version's lowest seat in that leg is packed (read without following links, every entry checked,
// capped): that is what the report carries. A folder that is refused (over the cap, a link, a
// hard link, a device, a FIFO, a socket) is reported as a problem instead, and the version's
// storage stays as it was. The folders are removed after each leg. As root each folder is a
// tmpfs of its own, sized by the ladder's limits: a bot cannot fill the worker's disk through it.

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "referee/core/result.hpp"
#include "referee/ladder/config.hpp"
#include "referee/ladder/roster.hpp"
#include "referee/ladder/store.hpp"

namespace arena::ladder {

// Removes what a worker killed mid-match left in its storage folder `root` (unmounting the tmpfs
// folders first); a worker calls it as it starts.
void clear_storage_folders(const std::filesystem::path& root);

class MatchStorage {
 public:
  // The folders of `claim`'s match go beneath `root` (a folder of the worker's cache every bot's
  // uid may pass through).
  MatchStorage(const Claim& claim, const LadderConfig& config, std::filesystem::path root);
  MatchStorage(const MatchStorage&) = delete;
  MatchStorage& operator=(const MatchStorage&) = delete;
  ~MatchStorage();  // removes what is left of the folders

  // Reads the snapshot of every version of the match (nothing when storage is off).
  Status load(Store& store);

  bool on() const { return on_; }
  // The bots of leg `leg` (`t.bots`, each with its fresh storage folder when storage is on). An
  // error only for the disk; a snapshot that cannot be unpacked is a problem (the seat starts
  // empty).
  Result<std::vector<match::BotSpec>> prepare_leg(const MatchBots& t, int leg);
  // After leg `leg` was played: the last leg's folders packed (reports(), problems()), then the
  // leg's folders removed.
  void finish_leg(const MatchBots& t, int leg);

  const std::vector<StorageReport>& reports() const { return reports_; }
  // One sentence each (the match, the version, the seat and what is wrong): events for the log.
  const std::vector<std::string>& problems() const { return problems_; }

 private:
  std::filesystem::path folder(int leg, std::size_t bot) const;
  Status make(const std::filesystem::path& dir);  // a fresh empty folder (as root a tmpfs)
  void drop(const std::filesystem::path& dir);    // unmounted and removed

  const MatchRow& match_;
  const int attempt_;
  const LadderConfig& config_;
  const bool on_;
  std::filesystem::path root_;
  std::map<Id, Bytes> snapshot_;             // each version's stored blob at the claim (empty: none yet)
  std::set<std::filesystem::path> mounted_;  // folders that are a tmpfs of their own
  std::vector<StorageReport> reports_;
  std::vector<std::string> problems_;
};

}  // namespace arena::ladder
