// `referee ladder run` (the coordinator, local workers and, with --listen, the HTTP API),
// `referee ladder worker` and `referee ladder serve` (the HTTP API alone).
#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <mutex>
#include <optional>
#include <thread>

#include "referee/bots/affinity.hpp"
#include "referee/cli/ladder_cmd.hpp"
#include "referee/core/host.hpp"
#include "referee/core/markup.hpp"
#include "referee/ladder/coordinator.hpp"
#include "referee/ladder/worker.hpp"
#include "referee/league/league.hpp"
#include "referee/web/api.hpp"
#include "referee/web/http_server.hpp"

namespace arena::cli {

namespace fs = std::filesystem;

namespace {

// Lines from several threads, one at a time.
class Printer {
 public:
  explicit Printer(std::string prefix) : prefix_(std::move(prefix)) {}
  void operator()(const std::string& line) {
    std::lock_guard lock(mu_);
    say("{}{}\n", prefix_, terminal_safe(line));
  }

 private:
  std::string prefix_;
  std::mutex mu_;
};

// N workers in threads of this process, each with its own cache folder and database connection;
// with `affinity`, each pinned with its bots to one CPU (bots/affinity.hpp), as league --affinity.
struct WorkerPool {
  std::vector<std::thread> threads;
  std::vector<ladder::WorkerOptions> options;
  std::vector<std::string> errors;
  std::mutex mu;

  void start(const ladder::Location& where, const ladder::LadderConfig& config, int count, const fs::path& cache,
             const bots::SandboxPolicy& sandbox, const StopSignal& stop, std::uint64_t idle_exit_s, bool affinity,
             Printer& print) {
    options.resize(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
      ladder::WorkerOptions& o = options[static_cast<std::size_t>(i)];
      o.name = fmt::format("{}:{}:{}", host_name(), ::getpid(), i + 1);
      o.cache = cache / fmt::format("w{}", i + 1);
      o.sandbox = sandbox;
      o.env = bot_environment(o.cache, {});
      o.stop = &stop;
      o.idle_exit = std::chrono::milliseconds(idle_exit_s * 1000);
      o.say = [&print, i](const std::string& line) { print(fmt::format("worker {}: {}", i + 1, line)); };
    }
    for (int i = 0; i < count; ++i) {
      threads.emplace_back([this, &where, &config, i, affinity] {
        if (affinity) bots::pin_thread_to_cpu(static_cast<std::size_t>(i));
        auto done = ladder::run_worker(where, config, options[static_cast<std::size_t>(i)]);
        if (!done) {
          std::lock_guard lock(mu);
          errors.push_back(fmt::format("worker {}: {}", i + 1, done.error()));
        }
      });
    }
  }
  void join() {
    for (std::thread& t : threads) t.join();
    threads.clear();
  }
};

// What `run` and `worker` both start from: the database, where it is, the ladder's settings and
// the bots' sandbox resolved on this machine; nullopt (the message said, `exit` set) when any fails.
struct Opened {
  std::unique_ptr<ladder::Store> store;
  ladder::Location where;
  ladder::LadderConfig config;
  bots::SandboxPolicy sandbox;
};

std::optional<Opened> open_to_play(const LadderArgs& a, const char* command, int& exit) {
  auto opened = open_ladder(a, command, exit);
  if (!opened) return std::nullopt;
  auto sandbox = bots::resolve_policy(opened->config.tier, opened->config.sandbox, true);
  if (!sandbox) {
    exit = ladder_fails(command, kUsage, sandbox.error());
    return std::nullopt;
  }
  auto where = ladder_location(a, false);  // open_ladder_store checked it
  return Opened{std::move(opened->store), std::move(*where), std::move(opened->config), std::move(*sandbox)};
}

// The HTTP API on `listen` over a connection of its own to the ladder's database; nullptr (the
// message said, `exit` set) when the address is wrong or taken.
std::unique_ptr<web::HttpServer> start_web(const LadderArgs& a, const std::string& listen,
                                           const ladder::LadderConfig& config, const char* command, int& exit) {
  auto endpoint = web::parse_listen(listen);
  if (!endpoint) {
    exit = ladder_fails(command, kUsage, endpoint.error());
    return nullptr;
  }
  auto store = open_ladder_store(a, false, exit);
  if (!store) {
    ladder_fails(command, exit, store.error());
    return nullptr;
  }
  auto api = std::make_shared<web::Api>(std::move(*store), config);
  web::ServerLimits limits;
  limits.upload_path = "/api/v1/submit";
  limits.upload_bytes = api->upload_bytes();
  auto server = web::HttpServer::start(
      *endpoint, [api](const web::Request& r) { return api->handle(r); }, limits);
  if (!server) {
    exit = ladder_fails(command, kUsage, server.error());
    return nullptr;
  }
  const web::Endpoint at = (*server)->local();
  say("referee ladder {}: serving http://{}:{}/api/v1/\n", command,
      at.host.find(':') == std::string::npos ? at.host : "[" + at.host + "]", at.port);
  return std::move(*server);
}

}  // namespace

int run_ladder_run(const LadderArgs& a) {
  int exit = kFinished;
  auto opened = open_to_play(a, "run", exit);
  if (!opened) return exit;
  auto& store = opened->store;
  const ladder::Location& where = opened->where;
  const ladder::LadderConfig& config = opened->config;
  const bots::SandboxPolicy& sandbox = opened->sandbox;
  std::vector<std::string> opponents = a.opponents;
  if (opponents.empty()) {
    auto found = sample_bot_commands();
    if (!found) {
      say("referee ladder run: the conformance check's opponents: {}\n", found.error());
      return kUsage;
    }
    opponents = *found;
  }
  StopSignal& stop = stop_signal();
  StopSignal::install_handlers(stop);
  Printer print("ladder: ");
  const fs::path folder = fs::absolute(a.dir);
  ladder::CoordinatorOptions co;
  co.builds = folder / "builds";
  co.opponents = opponents;
  co.sandbox = sandbox;
  co.env = bot_environment(co.builds, {});
  co.stop = &stop;
  const int workers = a.workers < 0 ? 1 : a.workers;
  // Enough queued that workers never wait for the coordinator's next pass (it sleeps 100 ms when idle).
  co.queue_target = static_cast<std::size_t>(4 * std::max(1, workers) + 4);
  co.say = [&print](const std::string& line) { print(line); };
  auto coordinator = ladder::Coordinator::open(where, config, co);
  if (!coordinator) return ladder_fails("run", kDatabase, coordinator.error());
  std::unique_ptr<web::HttpServer> server;
  if (!a.listen.empty()) {
    server = start_web(a, a.listen, config, "run", exit);
    if (!server) return exit;
  }
  say("referee ladder run: {} ({} seats), {} worker{}{}, sandbox {}; Ctrl-C stops\n", config.game, config.seats,
      workers, workers == 1 ? "" : "s", a.affinity ? " pinned to CPUs" : "", enum_name(sandbox.tier));
  if (sandbox.tier == bots::Tier::basic) {
    // In tier basic the bots run under their own uids on this file system: they must pass through
    // the ladder's folder (made owner-only by init) to their worker's cache. 0711: they pass, and
    // can list nothing; the database (0600), replays and builds (0700) stay the referee's.
    std::error_code ec;
    fs::create_directories(folder / "cache", ec);
    for (const fs::path& p : {folder, folder / "cache"}) fs::permissions(p, fs::perms(0711), ec);
    if (ec) {
      say("referee ladder run: cannot open {} to the bots' uids: {}\n", folder.string(), ec.message());
      return kUsage;
    }
  }
  WorkerPool pool;
  pool.start(where, config, workers, folder / "cache", sandbox, stop, 0, a.affinity, print);
  std::string error;
  auto last_change = std::chrono::steady_clock::now();
  while (!stop.requested()) {
    auto changed = (*coordinator)->step();
    if (!changed) {
      error = changed.error();
      break;
    }
    if (a.stop_after > 0) {
      auto counted = store->count_matches(ladder::MatchState::counted);
      if (counted && *counted >= a.stop_after) break;
    }
    if (*changed) {
      last_change = std::chrono::steady_clock::now();
      continue;
    }
    if (a.idle_exit_s > 0 && std::chrono::steady_clock::now() - last_change >= std::chrono::seconds(a.idle_exit_s)) {
      break;
    }
    if (stop.wait_for(std::chrono::milliseconds(100))) break;
  }
  const bool interrupted = stop.requested();
  if (!interrupted) stop.request();  // the workers end their matches and give them back
  pool.join();
  if (server) server->stop();
  // What the workers reported while stopping is audited and counted before the summary.
  if (error.empty()) {
    if (auto done = (*coordinator)->audit_reported(); !done) error = done.error();
    if (auto st = (*coordinator)->refit(); !st && error.empty()) error = st.error();
  }
  for (const std::string& e : pool.errors) say("referee ladder run: {}\n", e);
  if (!error.empty()) {
    say("referee ladder run: {}\n", error);
    return kDatabase;
  }
  print_leaderboard(*store, config, (*coordinator)->leaderboard());
  if (!pool.errors.empty()) return kDatabase;
  return interrupted ? interrupted_exit_code(stop.signal()) : kFinished;
}

int run_ladder_worker(const LadderArgs& a) {
  int exit = kFinished;
  auto opened = open_to_play(a, "worker", exit);
  if (!opened) return exit;
  const ladder::Location& where = opened->where;
  const ladder::LadderConfig& config = opened->config;
  const bots::SandboxPolicy& sandbox = opened->sandbox;
  StopSignal& stop = stop_signal();
  StopSignal::install_handlers(stop);
  const int workers = a.workers < 1 ? league::usable_cpus() : a.workers;
  const fs::path cache = fs::absolute(a.cache.empty() ? fs::path("logs") / fmt::format("ladder-worker-{}", ::getpid())
                                                      : fs::path(a.cache));
  Printer print("ladder worker: ");
  say("referee ladder worker: {} worker{}{} on {}, sandbox {}, files in {}; Ctrl-C stops\n", workers,
      workers == 1 ? "" : "s", a.affinity ? " pinned to CPUs" : "", host_name(), enum_name(sandbox.tier),
      cache.string());
  WorkerPool pool;
  pool.start(where, config, workers, cache, sandbox, stop, a.idle_exit_s, a.affinity, print);
  pool.join();
  for (const std::string& e : pool.errors) say("referee ladder worker: {}\n", e);
  if (!pool.errors.empty()) return kDatabase;
  return stop.requested() ? interrupted_exit_code(stop.signal()) : kFinished;
}

}  // namespace arena::cli

namespace arena::cli {

int run_ladder_serve(const LadderArgs& a) {
  int exit = kFinished;
  auto opened = open_ladder(a, "serve", exit);
  if (!opened) return exit;
  StopSignal& stop = stop_signal();
  StopSignal::install_handlers(stop);
  auto server =
      start_web(a, a.listen.empty() ? std::string("127.0.0.1:8080") : a.listen, opened->config, "serve", exit);
  if (!server) return exit;
  while (!stop.wait_for(std::chrono::seconds(1))) {
  }
  server->stop();
  return interrupted_exit_code(stop.signal());
}

}  // namespace arena::cli
