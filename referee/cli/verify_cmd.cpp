#include "referee/cli/verify_cmd.hpp"

#include <memory>
#include <string>

#include "referee/cli/html_cmd.hpp"
#include "referee/replay/replay.hpp"

namespace arena::cli {

namespace {

int run_verify(const std::string& path) {
  int exit = kFinished;
  auto replay = read_replay_argument(path, "verify", exit);  // a folder, say, is a usage error
  if (!replay) return exit;
  const auto v = replay::verify(*replay);
  if (!v.ok && !v.simulable) {
    say("referee verify: {}: cannot verify: {}\n", path, v.message);
    return kBadReplay;
  }
  if (!v.ok) {
    say("referee verify: {}: DIVERGES: {}\n", path, v.message);
    return kDiverged;
  }
  say_to(stdout, "{}: OK, {}\n", path, v.message);
  return kFinished;
}

}  // namespace

RunCommand add_verify(CLI::App& command) {
  auto replay_path = std::make_shared<std::string>();
  command.add_option("replay", *replay_path, "Replay file (.jsonl)")->required();
  return [replay_path](const CLI::App&) { return run_verify(*replay_path); };
}

}  // namespace arena::cli
