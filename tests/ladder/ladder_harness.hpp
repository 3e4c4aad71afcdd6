#pragma once
// What the ladder's end-to-end tests share: submission folders made from the sample bots and the
// starter kits (a bot.json beside the sources), `referee ladder ...` run as a user would, and
// referee processes started in the background and stopped (SIGTERM) or killed (SIGKILL) for real.

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <string>

#include "tests/command.hpp"

namespace arena::testing {

// `referee ladder ARGS 2>&1`.
Command ladder_cli(const std::string& args);
// A path in single quotes for a shell command line (the tests' paths hold no quote).
std::string quoted(const std::filesystem::path& p);

// An end-to-end test's folders: `dir` = <test output>/ladder/<name> (emptied and created), its
// ladder folder dir/ladder and its submissions folder dir/submissions (neither created).
struct LadderFolders {
  std::filesystem::path dir;
  std::filesystem::path ladder;
  std::filesystem::path submissions;
};
LadderFolders ladder_folders(const std::string& name);

// A submission folder `dir`/`name` holding `files` (name -> content) and bot.json.
std::filesystem::path submission(const std::filesystem::path& dir, const std::string& name, const std::string& manifest,
                                 const std::vector<std::pair<std::string, std::string>>& files);
// Submissions from the project's own bots: the C++ greedy bot (its sources), the Python random
// bot, a starter kit's folder (sample_bots/starter/<kit>, which carries its bot.json).
std::filesystem::path greedy_submission(const std::filesystem::path& dir);
std::filesystem::path python_random_submission(const std::filesystem::path& dir);
std::filesystem::path starter_kit(const std::string& kit);

// A command (sh -c) started in the background with its output in `log`; stopped with SIGTERM
// (and waited for) when the object goes.
class Background {
 public:
  Background(const std::string& command, const std::filesystem::path& log);
  ~Background();
  Background(const Background&) = delete;
  Background& operator=(const Background&) = delete;
  pid_t pid() const { return pid_; }
  // Sends `signal` and waits for the exit; the exit status as a shell shows it (128 + signal).
  int stop(int signal);

 private:
  pid_t pid_ = -1;
};

// Polls `done` every 100 ms until it holds or `limit` passes; whether it held.
bool wait_until(const std::function<bool()>& done, std::chrono::seconds limit);

}  // namespace arena::testing
