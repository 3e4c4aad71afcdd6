#include "referee/ladder/build.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <thread>

#include "referee/bots/process.hpp"
#include "referee/core/private_file.hpp"

namespace arena::ladder {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

// How often the wait looks at the build (its end, its output, the clock).
constexpr std::chrono::milliseconds kPoll{10};

// The copy back to the referee, readable by every uid: a bot runs under a uid of its own. Called
// once no process of the build is left; by descriptors, links not followed (those the build made
// stay as they are: packing refuses them).
Status give_back(int dir, const std::string& shown) {
  struct stat st {};
  if (::fstat(dir, &st) != 0 || ::fchown(dir, ::geteuid(), ::getegid()) != 0 ||
      ::fchmod(dir, (st.st_mode & 0777) | 0755) != 0)
    return fail(fmt::format("cannot take back the build's folder {}: {}", shown, std::strerror(errno)));
  const int listing = ::dup(dir);
  DIR* d = listing < 0 ? nullptr : ::fdopendir(listing);
  if (d == nullptr) {
    if (listing >= 0) ::close(listing);
    return fail(fmt::format("cannot list the build's folder {}: {}", shown, std::strerror(errno)));
  }
  std::vector<std::string> names;
  while (const dirent* e = ::readdir(d)) {
    const std::string_view n(e->d_name);
    if (n != "." && n != "..") names.emplace_back(n);
  }
  ::closedir(d);
  for (const std::string& n : names) {
    const std::string path = shown + "/" + n;
    if (::fstatat(dir, n.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      files::Fd sub(::openat(dir, n.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
      if (sub.fd < 0) return fail(fmt::format("cannot open {}: {}", path, std::strerror(errno)));
      if (auto done = give_back(sub.fd, path); !done) return done;
    } else if (S_ISREG(st.st_mode)) {
      files::Fd f(::openat(dir, n.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
      const mode_t mode = (st.st_mode & 0777) | 0644 | ((st.st_mode & 0100) != 0 ? 0111 : 0);
      if (f.fd < 0 || ::fchown(f.fd, ::geteuid(), ::getegid()) != 0 || ::fchmod(f.fd, mode) != 0)
        return fail(fmt::format("cannot take back {}: {}", path, std::strerror(errno)));
    }
  }
  return {};
}

Status give_back(const fs::path& folder) {
  files::Fd dir(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (dir.fd < 0)
    return fail(fmt::format("cannot open the build's folder {}: {}", folder.string(), std::strerror(errno)));
  return give_back(dir.fd, folder.string());
}

// The log file's first `cap` bytes (the drain wrote no more).
std::string read_log(const fs::path& path, std::uint64_t cap) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return {};
  std::string out(cap, '\0');
  std::size_t got = 0;
  while (got < out.size()) {
    const ssize_t n = ::read(fd, out.data() + got, out.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  out.resize(got);
  return out;
}

}  // namespace

Result<BuildResult> build(const Submission& submission, const fs::path& work, const BuildOptions& options) {
  const BuildLimits& l = options.limits;
  BuildResult r;
  r.folder = work / "bot";
  std::error_code ec;
  fs::create_directory(r.folder, ec);
  if (ec) return fail(fmt::format("cannot create the build folder {}: {}", r.folder.string(), ec.message()));
  ::chmod(work.c_str(), 0700);  // the referee's: the log, and the copy reached only through the sandbox
  if (auto written = write_files(submission.files, r.folder); !written) return fail(written.error().message);
  if (submission.manifest.build.empty()) {
    r.message = "nothing to build (bot.json has no build command)";
    if (auto st = give_back(r.folder); !st) return fail(st.error());
    return r;
  }

  bots::SandboxLimits limits;
  limits.cpu_seconds = l.cpu_seconds;
  limits.address_space_mb = l.address_space_mb;
  limits.memory_mb = l.memory_mb;
  limits.file_size_mb = l.file_size_mb;
  limits.processes = l.processes;
  limits.scratch_mb = l.scratch_mb;
  limits.network = false;
  auto policy = bots::resolve_policy(options.tier, limits, false);
  if (!policy) return fail(policy.error());

  bots::SpawnOptions spawn;
  // Everything it prints goes to the one log, in the order written.
  spawn.argv = {"/bin/sh", "-c", "exec 1>&2\n" + submission.manifest.build};
  spawn.workspace = r.folder;
  spawn.sandbox = *policy;
  spawn.label = "build";
  spawn.env = options.env;
  if (spawn.env.empty()) spawn.env = {"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8"};
  const fs::path log = work / "build.log";
  spawn.stderr_path = log;
  spawn.stderr_cap = l.output_bytes;
  auto started = bots::BotProcess::spawn(spawn);
  if (!started) return fail("the build could not start: " + started.error());
  std::unique_ptr<bots::BotProcess> process = std::move(started).value();
  bots::BotProcess& p = *process;
  p.close_stdin();
  r.tier = p.sandbox_report().value("tier", "unknown");

  const auto deadline = Clock::now() + l.wall;
  std::optional<BuildOutcome> stopped;  // why the referee ended it
  while (!p.has_exited()) {
    if (Clock::now() >= deadline) {
      stopped = BuildOutcome::timed_out;
    } else if (p.stderr_bytes() > l.output_bytes) {
      stopped = BuildOutcome::output_limit;
    } else if (options.stop != nullptr && options.stop->requested()) {
      stopped = BuildOutcome::interrupted;
    }
    if (stopped) break;
    if (options.stop != nullptr) {
      options.stop->wait_for(kPoll);
    } else {
      std::this_thread::sleep_for(kPoll);
    }
  }
  const bots::ExitStatus status = p.shutdown(std::chrono::milliseconds(0));
  r.exit = status;
  r.output_bytes = p.stderr_bytes();
  r.log_cut = r.output_bytes > l.output_bytes;
  r.log = read_log(log, l.output_bytes);
  // Its uid released: every process of it killed (as root), so nothing changes the folder now.
  process.reset();
  if (stopped) {
    r.outcome = *stopped;
  } else if (status.over_memory) {
    r.outcome = BuildOutcome::over_memory;
  } else if (status.kind == bots::ExitStatus::Kind::exited && status.code == 0) {
    r.outcome = BuildOutcome::ok;
  } else {
    r.outcome = BuildOutcome::failed;
  }
  switch (r.outcome) {
    case BuildOutcome::ok:
      r.message = "built";
      break;
    case BuildOutcome::failed:
      r.message = "the build failed: " + status.describe();
      break;
    case BuildOutcome::timed_out:
      r.message =
          fmt::format("the build was stopped at its time limit ({} s)", std::chrono::duration<double>(l.wall).count());
      break;
    case BuildOutcome::over_memory:
      r.message = "the build was stopped: " + status.referee_reason;
      break;
    case BuildOutcome::output_limit:
      r.message = fmt::format("the build was stopped: it wrote more than {} bytes of output", l.output_bytes);
      break;
    case BuildOutcome::interrupted:
      r.message = "the build was interrupted (the referee was asked to stop)";
      break;
  }
  if (auto st = give_back(r.folder); !st) return fail(st.error());
  return r;
}

}  // namespace arena::ladder
