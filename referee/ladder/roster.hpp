#pragma once
// The bots of a ladder match as a worker starts them: each version's built files, fetched from the
// database once and unpacked beneath the worker's cache, its run command made absolute there, and
// its name in replays ("name@v3").

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "referee/core/result.hpp"
#include "referee/ladder/config.hpp"
#include "referee/ladder/store.hpp"
#include "referee/match/match.hpp"

namespace arena::ladder {

// A version's name in replays, logs and standings: "name@v3".
std::string version_label(const VersionRow& v);

// `command` parsed, with every word that names a file or folder inside `folder` (relative to it)
// made an absolute path there, so the bot starts from any working directory; the rest kept.
Result<match::BotCommand> command_in(const std::string& command, const std::filesystem::path& folder);

struct MatchBots {
  std::vector<Id> versions;                  // leg 0's seat order
  std::vector<match::BotSpec> bots;          // parallel to versions
  std::vector<int> leg_bots(int leg) const;  // index into bots per seat of that leg
};

class Roster {
 public:
  // The bots of match `m`: every version's files unpacked once beneath `versions_dir`/<id>.
  Result<MatchBots> table(Store& store, const MatchRow& m, const std::filesystem::path& versions_dir,
                          const LadderConfig& config);

 private:
  std::map<Id, match::BotSpec> known_;
};

}  // namespace arena::ladder
