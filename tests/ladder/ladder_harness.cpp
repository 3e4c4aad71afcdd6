#include "tests/ladder/ladder_harness.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <stdexcept>
#include <thread>

#include "referee/match/command.hpp"
#include "tests/match/harness.hpp"

namespace arena::testing {

namespace fs = std::filesystem;

std::string quoted(const std::filesystem::path& p) {
  return "'" + p.string() + "'";
}

LadderFolders ladder_folders(const std::string& name) {
  const std::filesystem::path dir = fresh_dir("ladder", name);
  return {dir, dir / "ladder", dir / "submissions"};
}

Command ladder_cli(const std::string& args) {
  return run(referee() + " ladder " + args + " 2>&1");
}

fs::path submission(const fs::path& dir, const std::string& name, const std::string& manifest,
                    const std::vector<std::pair<std::string, std::string>>& files) {
  const fs::path folder = dir / name;
  fs::remove_all(folder);
  fs::create_directories(folder);
  std::ofstream(folder / "bot.json") << manifest;
  for (const auto& [file, content] : files) std::ofstream(folder / file) << content;
  return folder;
}

fs::path greedy_submission(const fs::path& dir) {
  const fs::path folder = submission(dir, "greedy", R"({"language": "cpp", "main": "greedy_bot.cpp"})", {});
  for (const auto& entry : fs::directory_iterator(fs::path(ARENA_SOURCE_DIR) / "sample_bots" / "cpp")) {
    if (entry.path().filename() != "random_bot.cpp") fs::copy_file(entry.path(), folder / entry.path().filename());
  }
  return folder;
}

fs::path python_random_submission(const fs::path& dir) {
  const fs::path folder = submission(dir, "random", R"({"language": "python", "main": "random_bot.py"})", {});
  fs::copy_file(fs::path(ARENA_SOURCE_DIR) / "sample_bots" / "python" / "random_bot.py", folder / "random_bot.py");
  return folder;
}

fs::path starter_kit(const std::string& kit) {
  return fs::path(ARENA_SOURCE_DIR) / "sample_bots" / "starter" / kit;
}

Background::Background(const std::string& command, const fs::path& log) {
  pid_ = ::fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd >= 0) {
      ::dup2(fd, 1);
      ::dup2(fd, 2);
    }
    ::execl("/bin/sh", "sh", "-c", ("exec " + command).c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
}

Background::~Background() {
  if (pid_ > 0) stop(SIGTERM);
}

int Background::stop(int signal) {
  if (pid_ <= 0) return -1;
  ::kill(pid_, signal);
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

bool wait_until(const std::function<bool()>& done, std::chrono::seconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return done();
}

}  // namespace arena::testing
