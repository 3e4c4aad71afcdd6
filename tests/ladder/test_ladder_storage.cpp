// A version's storage between matches (docs/ladder.md "Storage between matches"), end to end on
// SQLite through `referee ladder`, with real bots in the sandbox: tests/test_bots/storage's
// storage_bot.py counts its matches in its folder and says the count it found in every action's
// debug, which the replays keep. Off by default; kept from one counted match to the next, each
// leg from the same snapshot; links, hard links, FIFOs, big files and many files refused with an
// event (nothing followed, the storage kept, the match counted); a forged report changes nothing.

#include <stdlib.h>
#include <sys/mount.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>

#include "referee/core/private_file.hpp"
#include "referee/ladder/archive.hpp"
#include "referee/ladder/store.hpp"
#include "referee/ladder/worker.hpp"
#include "referee/league/deal.hpp"
#include "tests/ladder/ladder_harness.hpp"
#include "tests/match/harness.hpp"

using namespace arena;
using namespace arena::testing;
namespace fs = std::filesystem;

namespace {

// storage_bot.py submitted with its mode as its argument.
fs::path storage_submission(const fs::path& dir, const std::string& mode) {
  const fs::path folder = submission(dir, mode,
                                     R"({"language": "python", "main": "storage_bot.py", "run": "python3 -u )"
                                     R"(storage_bot.py )" +
                                         mode + R"("})",
                                     {});
  fs::copy_file(fs::path(ARENA_SOURCE_DIR) / "tests" / "test_bots" / "storage" / "storage_bot.py",
                folder / "storage_bot.py");
  return folder;
}

std::unique_ptr<ladder::Store> open_store(const fs::path& l) {
  auto store = ladder::Store::open(ladder::Location{l, ""});
  REQUIRE(store);
  return std::move(*store);
}

std::map<std::string, ladder::Id> ids_by_bot(ladder::Store& store) {
  std::map<std::string, ladder::Id> out;
  auto rows = store.versions();
  REQUIRE(rows);
  for (const auto& v : *rows) out[v.bot] = v.id;
  return out;
}

// The counts storage_bot.py in `mode` found, in the order of its actions in the replay.
std::vector<int> counts_in(const std::string& replay, const std::string& mode) {
  std::vector<int> out;
  const std::regex said("storage count ([0-9]+) " + mode + "\"");
  for (auto it = std::sregex_iterator(replay.begin(), replay.end(), said); it != std::sregex_iterator(); ++it)
    out.push_back(std::stoi((*it)[1].str()));
  return out;
}

// A version's stored folder, unpacked with a submission's checks: file -> content.
std::map<std::string, std::string> stored_files(ladder::Store& store, ladder::Id version, const fs::path& into) {
  auto blob = store.storage(version);
  REQUIRE(blob);
  std::map<std::string, std::string> out;
  if (blob->empty()) return out;
  auto files = ladder::read_archive(*blob, ladder::ArchiveLimits{});
  INFO((files ? std::string() : files.error().message));
  REQUIRE(files);
  fs::remove_all(into);
  fs::create_directories(into);
  REQUIRE(ladder::write_files(*files, into));
  for (const auto& e : files->entries) {
    if (!e.folder) out[e.path] = e.data;
  }
  return out;
}

const char* const kStorageLadder = R"({"ladder": 1, "game": "stellar", "check_games": 0, "placement_games": 2,)"
                                   R"( "storage": {"max_bytes": 65536, "max_files": 50}})";

}  // namespace

TEST_CASE("ladder storage: kept between counted matches, every leg from one snapshot, hostile folders refused",
          "[ladder]") {
  const auto [dir, l, subs] = ladder_folders("storage");
  Command c = ladder_cli("init " + testing::quoted(l) + " --from '" + kStorageLadder + "'");
  INFO(c.out);
  REQUIRE(c.exit_code == 0);
  const std::vector<std::string> hostile = {"symlink", "hardlink", "fifo", "huge", "many"};
  for (const std::string& mode : std::vector<std::string>{"count", "symlink", "hardlink", "fifo", "huge", "many"}) {
    c = ladder_cli("submit " + testing::quoted(l) + " " + testing::quoted(storage_submission(subs, mode)) + " --name " +
                   mode + " --author alice");
    INFO(mode << ": " << c.out);
    REQUIRE(c.exit_code == 0);
  }
  c = ladder_cli("run " + testing::quoted(l) + " -j 2 --stop-after 14");
  INFO(c.out);
  REQUIRE(c.exit_code == 0);

  auto store = open_store(l);
  const auto id = ids_by_bot(*store);
  auto games = store->games(10000);
  REQUIRE(games);
  // Each counted match of the counter: the count it found, the same in every leg.
  std::map<ladder::Id, int> found;  // match -> count
  std::vector<ladder::Id> order;    // its matches in the order they were counted
  std::map<std::string, int> played;
  for (const ladder::GameRow& g : *games) {
    std::set<ladder::Id> seated(g.seats.begin(), g.seats.end());
    for (const auto& [bot, v] : id) played[bot] += seated.count(v) != 0 ? 1 : 0;
    auto replay = store->replay(g.match, g.leg);
    REQUIRE(replay);
    for (const std::string& mode : hostile) {
      // A refused folder never becomes storage: every match of a hostile bot starts from nothing.
      for (int n : counts_in(*replay, mode)) CHECK(n == 0);
    }
    if (seated.count(id.at("count")) == 0) continue;
    const std::vector<int> counts = counts_in(*replay, "count");
    if (counts.empty()) {  // the other seat failed before the counter's first decision
      CHECK(g.fault_seat.has_value());
      continue;
    }
    for (int n : counts) CHECK(n == counts.front());
    INFO("match " << g.match << " leg " << g.leg);
    if (found.count(g.match) != 0) {
      CHECK(found[g.match] == counts.front());  // leg 1 starts where leg 0 started
    } else {
      found[g.match] = counts.front();
      order.push_back(g.match);
    }
  }
  REQUIRE(order.size() >= 2);
  // Every match started from nothing or from what an earlier counted match left (the count it
  // found, plus one): two workers may play matches of the counter at once, from one snapshot, and
  // the last counted wins. The storage is what the last counted match left.
  std::set<int> left;  // what the counted matches left so far
  int grew = 0;
  for (ladder::Id m : order) {
    INFO("match " << m << " found " << found[m]);
    CHECK((found[m] == 0 || left.count(found[m]) != 0));
    grew += found[m] > 0 ? 1 : 0;
    left.insert(found[m] + 1);
  }
  CHECK(grew >= 1);
  auto counter = stored_files(*store, id.at("count"), dir / "stored-count");
  CHECK(counter.size() == 1);
  CHECK(counter["count"] == std::to_string(found[order.back()] + 1));

  // Every hostile bot played, and each of its matches logged its refused folder; its storage is
  // still empty (nothing followed: no /etc/passwd in it).
  auto events = store->events(1000);
  REQUIRE(events);
  const std::map<std::string, std::string> problem = {{"symlink", "symlink"},
                                                      {"hardlink", "hard_link"},
                                                      {"fifo", "fifo"},
                                                      {"huge", "too_large"},
                                                      {"many", "too_many_files"}};
  for (const std::string& mode : hostile) {
    INFO(mode);
    CHECK(played[mode] >= 2);
    std::size_t logged = 0;
    for (const auto& e : *events) {
      if (e.kind != ladder::EventKind::storage || e.message.find(mode + "@v1") == std::string::npos) continue;
      ++logged;
      CHECK_THAT(e.message, Catch::Contains(problem.at(mode)));
      CHECK_THAT(e.message, Catch::Contains("its storage stays as it was"));
    }
    CHECK(logged >= 1);
    CHECK(stored_files(*store, id.at(mode), dir / ("stored-" + mode)).empty());
  }
  for (const auto& e : *events) CHECK(e.kind != ladder::EventKind::refused);
  c = ladder_cli("log " + testing::quoted(l) + " count");
  CHECK(c.exit_code == 0);
  CHECK_THAT(c.out, Catch::Contains("storage:"));

  // A forged report (another match's genuine legs, a storage with count 999) is refused by the
  // audit and changes no storage; the match is played again honestly.
  const fs::path forged_folder = dir / "forged";
  fs::create_directories(forged_folder);
  std::ofstream(forged_folder / "count") << "999";
  auto forged_blob = ladder::pack_folder(forged_folder, ladder::ArchiveLimits{}, 1 << 20);
  REQUIRE(forged_blob);
  const auto before = store->storage(id.at("count"));
  REQUIRE(before);
  auto queued = store->enqueue({ladder::NewMatch{{id.at("count"), id.at("symlink")}, 4242, 2, -1, league::unix_ms()}});
  REQUIRE(queued);
  std::optional<ladder::Claim> claim;
  REQUIRE(wait_until(
      [&] {
        auto got = store->claim("forger", league::unix_ms(), 60000);
        REQUIRE(got);
        if (*got && (*got)->match.id != queued->front()) {
          REQUIRE(store->give_back(**got));
          return false;
        }
        claim = *got;
        return claim.has_value();
      },
      std::chrono::seconds(10)));
  std::vector<ladder::LegReport> legs;
  for (int leg = 0; leg < 2; ++leg) {
    const ladder::GameRow& g = games->at(static_cast<std::size_t>(leg));
    auto replay = store->replay(g.match, g.leg);
    REQUIRE(replay);
    ladder::LegReport r;
    r.leg = leg;
    r.replay = *replay;
    auto legs_of = store->reported_legs(g.match);
    REQUIRE(legs_of);
    r.result = legs_of->at(static_cast<std::size_t>(g.leg)).result;
    legs.push_back(std::move(r));
  }
  auto took = store->report(*claim, legs, league::unix_ms(), {{id.at("count"), *forged_blob}});
  REQUIRE(took);
  CHECK(*took);
  c = ladder_cli("run " + testing::quoted(l) + " -j 1 --stop-after 1");
  INFO(c.out);
  REQUIRE(c.exit_code == 0);
  events = store->events(1000);
  REQUIRE(events);
  bool refused = false;
  for (const auto& e : *events)
    refused = refused || (e.kind == ladder::EventKind::refused && e.message.find("forger") != std::string::npos);
  CHECK(refused);
  const auto after = stored_files(*store, id.at("count"), dir / "stored-after");
  CHECK(after.at("count") != "999");
  CHECK(std::stoi(after.at("count")) >= std::stoi(counter["count"]));
}

TEST_CASE("ladder storage: off by default (no folder, nothing stored)", "[ladder]") {
  const fs::path dir = fresh_dir("ladder", "storage-off");
  const fs::path l = dir / "ladder";
  Command c = ladder_cli("init " + testing::quoted(l) + " --game stellar --placement-games 1 --check-games 0");
  INFO(c.out);
  REQUIRE(c.exit_code == 0);
  auto config = files::read_file(l / "ladder.json");
  REQUIRE(config);
  CHECK(config->find("storage") == std::string::npos);
  for (const std::string mode : {"count", "fifo"}) {
    c = ladder_cli("submit " + testing::quoted(l) + " " +
                   testing::quoted(storage_submission(dir / "submissions", mode)) + " --name " + mode +
                   " --author alice");
    REQUIRE(c.exit_code == 0);
  }
  c = ladder_cli("run " + testing::quoted(l) + " -j 1 --stop-after 2");
  INFO(c.out);
  REQUIRE(c.exit_code == 0);
  auto store = open_store(l);
  auto games = store->games(100);
  REQUIRE(games);
  REQUIRE(games->size() >= 4);
  for (const auto& g : *games) {
    auto replay = store->replay(g.match, g.leg);
    REQUIRE(replay);
    CHECK(replay->find("no storage") != std::string::npos);
    CHECK(replay->find("storage count") == std::string::npos);
  }
  for (const auto& [bot, v] : ids_by_bot(*store)) {
    auto blob = store->storage(v);
    REQUIRE(blob);
    CHECK(blob->empty());
  }
  // No worker made a storage folder.
  std::size_t workers = 0;
  for (const auto& worker : fs::directory_iterator(l / "cache")) {
    ++workers;
    CHECK(fs::is_directory(worker.path() / "versions"));
    CHECK_FALSE(fs::exists(worker.path() / "storage"));
  }
  CHECK(workers >= 1);
}

TEST_CASE("ladder storage: ladder.json's storage is read strictly", "[ladder]") {
  const fs::path dir = fresh_dir("ladder", "storage-config");
  for (const auto& [json, named] : std::vector<std::pair<std::string, std::string>>{
           {R"({"ladder": 1, "game": "stellar", "storage": {"max_bytes": 0}})", "max_bytes"},
           {R"({"ladder": 1, "game": "stellar", "storage": {"max_bytes": 1099511627776}})", "max_bytes"},
           {R"({"ladder": 1, "game": "stellar", "storage": {"max_files": 0}})", "max_files"},
           {R"({"ladder": 1, "game": "stellar", "storage": {"max_kb": 4}})", "max_kb"},
           {R"({"ladder": 1, "game": "stellar", "storage": 4096})", "storage"}}) {
    const fs::path l = dir / std::to_string(std::hash<std::string>{}(json));
    Command c = ladder_cli("init " + testing::quoted(l) + " --from '" + json + "'");
    INFO(json << ": " << c.out);
    CHECK(c.exit_code == 2);
    CHECK_THAT(c.out, Catch::Contains(named));
    CHECK_FALSE(fs::exists(l / "ladder.db"));
  }
  // Given, it is written back as given, defaults filled in.
  const fs::path l = dir / "ok";
  Command c = ladder_cli("init " + testing::quoted(l) + R"( --from '{"ladder": 1, "game": "stellar", "storage": {}}')");
  INFO(c.out);
  REQUIRE(c.exit_code == 0);
  auto config = files::read_file(l / "ladder.json");
  REQUIRE(config);
  const auto j = nlohmann::json::parse(*config);
  CHECK(j.at("storage") == nlohmann::json{{"max_bytes", 1 << 20}, {"max_files", 100}});
}

// (Tier basic is played by the worker-level case below: a ladder folder made by `init` is private,
// 0700, so as root no bot of a uid of its own reaches its files there.)
TEST_CASE("ladder storage: writable and kept in tier none too", "[ladder]") {
  for (const std::string tier : {"none"}) {
    INFO("tier " << tier);
    const fs::path dir = fresh_dir("ladder", "storage-" + tier);
    const fs::path l = dir / "ladder";
    const std::string config = R"({"ladder": 1, "game": "stellar", "check_games": 0, "placement_games": 1,)"
                               R"( "sandbox": {"tier": ")" +
                               tier + R"("}, "storage": {"max_bytes": 4096, "max_files": 4}})";
    Command c = ladder_cli("init " + testing::quoted(l) + " --from '" + config + "'");
    INFO(c.out);
    REQUIRE(c.exit_code == 0);
    for (const std::string name : {"one", "two"}) {
      const fs::path sub = storage_submission(dir / "submissions", "count");
      c = ladder_cli("submit " + testing::quoted(l) + " " + testing::quoted(sub) + " --name " + name +
                     " --author alice");
      REQUIRE(c.exit_code == 0);
    }
    c = ladder_cli("run " + testing::quoted(l) + " -j 1 --stop-after 3");
    INFO(c.out);
    REQUIRE(c.exit_code == 0);
    CHECK_THAT(c.out, Catch::Contains("sandbox " + tier));
    auto store = open_store(l);
    auto events = store->events(100);
    REQUIRE(events);
    for (const auto& e : *events) CHECK(e.kind != ladder::EventKind::storage);
    for (const auto& [bot, v] : ids_by_bot(*store)) {
      INFO(bot);
      const auto stored = stored_files(*store, v, dir / ("stored-" + bot));
      REQUIRE(stored.count("count") == 1);
      CHECK(std::stoi(stored.at("count")) >= 1);
    }
  }
}

// One match of storage_bot.py in `mode` against itself (two seats of one version), its storage
// holding `stored_count`, played by a worker of its own in `tier`, and reported. `leftover`: the
// worker's cache holds a storage folder of a match it was killed in (a tmpfs, as root).
struct WorkerMatch {
  std::unique_ptr<ladder::Store> store;
  ladder::LadderConfig config;
  ladder::Id version = 0;
  ladder::Id match = 0;
  fs::path cache;
  std::vector<ladder::LegReport> legs;
};

WorkerMatch worker_match(const fs::path& dir, const std::string& mode, bots::Tier tier, const std::string& stored_count,
                         const fs::path& leftover = {}) {
  WorkerMatch w;
  const ladder::Location where{dir / "ladder", ""};
  fs::create_directories(where.folder);
  w.store = open_store(where.folder);
  w.config.game = "stellar";
  auto normalized = ladder::normalize(w.config);
  REQUIRE(normalized);
  w.config = *normalized;
  w.config.storage = ladder::StorageSettings{4096, 8};
  // The version runs on the system's Python (a uid of its own reads it).
  const fs::path src = dir / "src";
  fs::create_directories(src);
  fs::copy_file(fs::path(ARENA_SOURCE_DIR) / "tests" / "test_bots" / "storage" / "storage_bot.py",
                src / "storage_bot.py");
  auto files = ladder::pack_folder(src, ladder::ArchiveLimits{}, 1 << 20);
  REQUIRE(files);
  auto added = w.store->add_version(ladder::NewVersion{mode, "alice", nlohmann::json::object(), *files, 1});
  REQUIRE(added);
  w.version = added->id;
  REQUIRE(w.store->finish_build(w.version, ladder::VersionState::active, "/usr/bin/python3 -u storage_bot.py " + mode,
                                *files, "", "", 2));
  const fs::path before = dir / "before";
  fs::create_directories(before);
  std::ofstream(before / "count") << stored_count;
  auto snapshot = ladder::pack_folder(before, ladder::storage_limits(w.config), ladder::storage_packed_cap(w.config));
  REQUIRE(snapshot);
  REQUIRE(w.store->put_storage(w.version, *snapshot));
  auto queued = w.store->enqueue({ladder::NewMatch{{w.version, w.version}, 99, 2, 0, 3}});
  REQUIRE(queued);
  w.match = queued->front();

  ladder::WorkerOptions o;
  o.name = "worker:1";
  o.cache = w.cache = dir / "cache";
  if (!leftover.empty()) {
    fs::create_directories(leftover);
    if (::geteuid() == 0) REQUIRE(::mount("tmpfs", leftover.c_str(), "tmpfs", 0, "size=64k") == 0);
    std::ofstream(leftover / "count") << "7";
  }
  o.sandbox = bots::SandboxPolicy{tier, {}, true};
  o.env = {"PATH=/usr/bin:/bin", "LANG=C.UTF-8"};
  o.max_matches = 1;
  o.idle_exit = std::chrono::seconds(30);
  auto outcome = ladder::run_worker(where, w.config, o);
  INFO((outcome ? std::string() : outcome.error()));
  REQUIRE(outcome);
  REQUIRE(outcome->played == 1);
  auto legs = w.store->reported_legs(w.match);
  REQUIRE(legs);
  REQUIRE(legs->size() == 2);
  w.legs = std::move(*legs);
  return w;
}

TEST_CASE("ladder storage: a worker in tier basic, two seats of one version, each with its own copy", "[ladder]") {
  // Tier basic: the bots run under uids of their own, which must pass through every folder above
  // the worker's cache, and the build tree may lie in a private one (a clone in a 0700 mktemp -d
  // folder): the worker's folder is a fresh one under /tmp that they may pass (0711).
  std::string made = "/tmp/arena-ladder-basic-XXXXXX";
  REQUIRE(::mkdtemp(made.data()) != nullptr);
  struct Removed {
    fs::path path;
    ~Removed() {
      std::error_code ec;
      fs::remove_all(path, ec);
    }
  } removed{made};
  fs::permissions(made, fs::perms(0711));
  const fs::path dir = made;
  const fs::path leftover = dir / "cache" / "storage" / "12-a1-leg0-bot1";
  WorkerMatch w = worker_match(dir, "count", bots::Tier::basic, "41", leftover);
  CHECK_FALSE(fs::exists(leftover));  // unmounted and removed as the worker started
  std::ifstream mountinfo("/proc/self/mountinfo");
  const std::string mounts((std::istreambuf_iterator<char>(mountinfo)), std::istreambuf_iterator<char>());
  REQUIRE(mounts.find(" / ") != std::string::npos);  // read: the root is there
  CHECK(mounts.find(leftover.string()) == std::string::npos);
  for (const ladder::LegReport& leg : w.legs) {
    INFO("leg " << leg.leg);
    CHECK(leg.result.fault == std::nullopt);
    CHECK_THAT(leg.replay, Catch::Contains(R"("tier":"basic")"));
    // Both seats of both legs started from the claim's snapshot.
    const std::vector<int> counts = counts_in(leg.replay, "count");
    CHECK(counts.size() >= 2);
    for (int n : counts) CHECK(n == 41);
  }
  // Counted: one seat's folder (the last leg's seat 0) is the storage, 42, not 43: the seats
  // never shared a folder. The folders are gone from the worker's cache.
  CHECK(stored_files(*w.store, w.version, dir / "stored").at("count") == "41");
  REQUIRE(w.store->count(w.match, 4));
  CHECK(stored_files(*w.store, w.version, dir / "stored").at("count") == "42");
  CHECK(fs::is_empty(w.cache / "storage"));
}

TEST_CASE("ladder storage: as root a bot cannot write much more than the ladder's limit into its folder", "[ladder]") {
  if (::geteuid() != 0) {
    WARN("not root: the storage folder is a plain folder, bounded by the file-size limit alone (docs/ladder.md)");
    return;
  }
  const fs::path dir = fresh_dir("ladder", "storage-fill");
  WorkerMatch w = worker_match(dir, "fill", bots::Tier::strict, "0");
  const std::regex wrote("fill wrote ([0-9]+)");
  std::size_t seen = 0;
  for (const ladder::LegReport& leg : w.legs) {
    for (auto it = std::sregex_iterator(leg.replay.begin(), leg.replay.end(), wrote); it != std::sregex_iterator();
         ++it) {
      ++seen;
      // The folder is a tmpfs of max_bytes plus a page per entry and 64 KiB: far below 8 MiB.
      CHECK(std::stoull((*it)[1].str()) <= 4096 + 9 * 4096 + (64 << 10));
    }
  }
  CHECK(seen >= 2);
  // Over the limit: refused, logged, the storage unchanged.
  auto events = w.store->events(10);
  REQUIRE(events);
  REQUIRE_FALSE(events->empty());
  CHECK(events->front().kind == ladder::EventKind::storage);
  CHECK_THAT(events->front().message, Catch::Contains("too_large"));
  REQUIRE(w.store->count(w.match, 4));
  CHECK(stored_files(*w.store, w.version, dir / "stored").at("count") == "0");
}
