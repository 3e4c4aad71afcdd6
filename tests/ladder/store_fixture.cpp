#include "tests/ladder/store_fixture.hpp"

#include <cstdlib>

#include "tests/ladder/pg_cluster.hpp"

namespace arena::ladder::test {

// A fresh folder removed at the end of the test program.
fs::path temp_folder() {
  static struct Folders {
    std::vector<fs::path> made;
    ~Folders() {
      std::error_code ec;
      for (const auto& f : made) fs::remove_all(f, ec);
    }
  } folders;
  std::string templ = (fs::temp_directory_path() / "arena-ladder-XXXXXX").string();
  REQUIRE(::mkdtemp(templ.data()) != nullptr);
  folders.made.emplace_back(templ);
  return templ;
}

namespace {

// One cluster per test program (CTest runs the program whole: tests/ladder/CMakeLists.txt), stopped at
// its exit.
testing::PgCluster& cluster() {
  static std::unique_ptr<testing::PgCluster> c;
  if (!c) {
    if (!testing::PgCluster::available()) FAIL("PostgreSQL is missing (Debian package postgresql, a test tool)");
    c = std::make_unique<testing::PgCluster>("ladder");
  }
  return *c;
}

}  // namespace

// An empty ladder database of the engine.
Location fresh(Engine engine) {
  Location where{temp_folder(), ""};
  if (engine == Engine::postgres) {
    static int n = 0;
    const std::string name = "ladder_" + std::to_string(++n);
    cluster().create_database(name);
    where.postgres = cluster().connection(name);
  }
  return where;
}

std::unique_ptr<Store> open_ok(const Location& where) {
  auto s = Store::open(where);
  INFO((s ? std::string() : s.error()));
  REQUIRE(s.ok());
  return std::move(s.value());
}

void ok(const Status& s) {
  INFO((s ? std::string() : s.error()));
  REQUIRE(s.ok());
}

Bytes bytes(std::string_view s) {
  return Bytes(s.begin(), s.end());
}

NewVersion submission(const std::string& bot, const std::string& author, std::int64_t now) {
  return NewVersion{bot, author, json{{"language", "cpp"}}, bytes("source of " + bot), now};
}

Id active_version(Store& s, const std::string& bot, const std::string& author) {
  const auto v = ok(s.add_version(submission(bot, author)));
  ok(s.finish_build(v.id, VersionState::active, "./bot", bytes("built " + bot), "log", "", 2000));
  return v.id;
}

TwoBots two_bots(const Location& where) {
  TwoBots t;
  t.store = open_ok(where);
  t.a = active_version(*t.store, "a");
  t.b = active_version(*t.store, "b");
  return t;
}

NewMatch table(std::vector<Id> seats, int legs, int priority, std::int64_t now) {
  return NewMatch{std::move(seats), 77, legs, priority, now};
}

LegReport leg_result(int leg, double first, double second, std::string replay_text) {
  LegReport l;
  l.leg = leg;
  l.result.end = replay::End::finished;
  l.result.scores = {first, second};
  l.result.outcome = json{{"points", {first, second}}};
  l.result.game = "stellar";
  l.result.seed = 77;
  l.result.config = json::object();
  l.result.replay = "replay.jsonl";
  l.result.seats.resize(2);
  l.result.seats[0].name = "a";
  l.result.seats[1].name = "b";
  replay::settle(l.result);
  l.replay = replay_text.empty() ? "{\"leg\": " + std::to_string(leg) + "}\n" : std::move(replay_text);
  l.start_ms = 100 + leg;
  l.end_ms = 200 + leg;
  return l;
}

LegReport fault_leg(int leg) {
  LegReport l = leg_result(leg, 0, 0);
  l.result.end = replay::End::fault;
  l.result.scores.clear();
  l.result.outcome = nullptr;
  replay::Fault f;
  f.seat = 1;
  f.kind = replay::FaultKind::timeout;
  f.message = "no answer within 1000 ms";
  l.result.fault = f;
  replay::settle(l.result);
  return l;
}

Claim claim_ok(Store& s, const std::string& worker, std::int64_t now, std::int64_t lease) {
  auto c = ok(s.claim(worker, now, lease));
  REQUIRE(c.has_value());
  return *c;
}

void run_case(Engine engine, void (*body)(Engine)) {
  INFO((engine == Engine::sqlite ? "SQLite" : "PostgreSQL"));
  body(engine);
}

}  // namespace arena::ladder::test
