#pragma once
// What the ladder store's tests share: a fresh database of either engine (SQLite in a temporary
// folder, PostgreSQL in a private cluster per test program), the rows a case builds on, and
// STORE_CASE, which runs one case on both engines.

#include <catch2/catch.hpp>
#include <filesystem>
#include <memory>
#include <string>

#include "referee/ladder/store.hpp"

namespace arena::ladder::test {

namespace fs = std::filesystem;

enum class Engine { sqlite, postgres };

// A fresh folder removed at the end of the test program.
fs::path temp_folder();
// An empty ladder database of the engine (PostgreSQL: a new database in the program's cluster,
// started at the first call and stopped at the program's exit).
Location fresh(Engine engine);

std::unique_ptr<Store> open_ok(const Location& where);

template <typename T>
T ok(Result<T> r) {
  INFO((r ? std::string() : r.error()));
  REQUIRE(r.ok());
  return std::move(r.value());
}
void ok(const Status& s);

template <typename T>
std::string error_of(const Result<T>& r) {
  REQUIRE_FALSE(r.ok());
  return r.error();
}

Bytes bytes(std::string_view s);
NewVersion submission(const std::string& bot, const std::string& author, std::int64_t now = 1000);
// A bot's new version, built and active.
Id active_version(Store& s, const std::string& bot, const std::string& author = "alice");
// The database at `where`, opened, with bots "a" and "b" active (alice's): the two-bot start of
// most matchmaking cases.
struct TwoBots {
  std::unique_ptr<Store> store;
  Id a = 0;
  Id b = 0;
};
TwoBots two_bots(const Location& where);
// A match of `seats` with seed 77.
NewMatch table(std::vector<Id> seats, int legs = 1, int priority = 1, std::int64_t now = 5000);
// A finished two-seat leg: seat 0 scores `first`, seat 1 `second`; its replay `replay_text` (or
// a line naming the leg).
LegReport leg_result(int leg, double first, double second, std::string replay_text = "");
// A leg that ended with seat 1's timeout.
LegReport fault_leg(int leg);
Claim claim_ok(Store& s, const std::string& worker, std::int64_t now, std::int64_t lease = 1000);

void run_case(Engine engine, void (*body)(Engine));

}  // namespace arena::ladder::test

// One case, the same on both engines.
#define STORE_CASE(name, text)                             \
  static void name(Engine engine);                         \
  TEST_CASE("sqlite: " text, "[ladder][sqlite]") {         \
    run_case(Engine::sqlite, &name);                       \
  }                                                        \
  TEST_CASE("postgresql: " text, "[ladder][postgresql]") { \
    run_case(Engine::postgres, &name);                     \
  }                                                        \
  static void name(Engine engine)
