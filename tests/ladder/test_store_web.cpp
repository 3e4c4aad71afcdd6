// The ladder's store: what the web reads (store_fixture.hpp, both engines): recent games newest
// first, page by page and by fault kind; one match and its games; the accounts (schema 2).

#include <catch2/catch.hpp>

#include "referee/ladder/store_sql.hpp"
#include "tests/ladder/store_fixture.hpp"

using namespace arena;
using namespace arena::ladder;
using namespace arena::ladder::test;

STORE_CASE(recent_games, "recent games: newest first, below an id, by fault kind, and a match with its games") {
  auto [s, a, b] = two_bots(fresh(engine));
  const auto ids = ok(s->enqueue({table({a, b}, 2), table({b, a}, 1)}));
  CHECK(ok(s->recent_games(10)).empty());
  const Claim c1 = claim_ok(*s, "w", 100);
  const Claim c2 = claim_ok(*s, "w", 100);
  CHECK(ok(s->report(c1, {leg_result(0, 5, 2), leg_result(1, 2, 5)}, 200)));
  CHECK(ok(s->report(c2, {fault_leg(0)}, 210)));
  const auto queued_match = ok(s->match(ids[1]));
  REQUIRE(queued_match.has_value());
  CHECK(queued_match->state == MatchState::reported);
  CHECK(ok(s->match_games(ids[1])).empty());  // nothing until counted
  ok(s->count(ids[0], 300));
  ok(s->count(ids[1], 310));

  const auto all = ok(s->recent_games(10));
  REQUIRE(all.size() == 3);
  CHECK(all[0].id > all[1].id);
  CHECK(all[1].id > all[2].id);
  CHECK(all[0].match == ids[1]);
  CHECK(all[0].fault_kind == std::optional<replay::FaultKind>(replay::FaultKind::timeout));
  CHECK(all[2].leg == 0);
  CHECK(all[2].seats == std::vector<Id>{a, b});

  const auto page = ok(s->recent_games(1, all[0].id));
  REQUIRE(page.size() == 1);
  CHECK(page[0].id == all[1].id);
  CHECK(ok(s->recent_games(10, all[2].id)).empty());

  const auto faults = ok(s->recent_games(10, 0, replay::FaultKind::timeout));
  REQUIRE(faults.size() == 1);
  CHECK(faults[0].id == all[0].id);
  CHECK(ok(s->recent_games(10, 0, replay::FaultKind::crash)).empty());
  CHECK(ok(s->recent_games(10, all[0].id, replay::FaultKind::timeout)).empty());

  const auto m = ok(s->match(ids[0]));
  REQUIRE(m.has_value());
  CHECK(m->id == ids[0]);
  CHECK(m->state == MatchState::counted);
  CHECK(m->legs == 2);
  CHECK(m->seats == std::vector<Id>{a, b});
  const auto legs = ok(s->match_games(ids[0]));
  REQUIRE(legs.size() == 2);
  CHECK(legs[0].leg == 0);
  CHECK(legs[1].leg == 1);
  CHECK(legs[1].seats == std::vector<Id>{b, a});
  CHECK(legs[0].scores == std::vector<double>{5, 2});
  CHECK_FALSE(ok(s->match(ids[1] + 100)).has_value());
  CHECK(ok(s->match_games(ids[1] + 100)).empty());
}

STORE_CASE(accounts, "accounts: added once by name, found by their token's hash, listed by name") {
  auto s = open_ok(fresh(engine));
  CHECK(ok(s->authors()).empty());
  ok(s->add_author(AuthorRow{"zoe", "hash-z", false, 10}));
  ok(s->add_author(AuthorRow{"org", "hash-o", true, 11}));
  CHECK_THAT(error_of(s->add_author(AuthorRow{"zoe", "hash-other", false, 12})),
             Catch::Contains("the ladder has an account \"zoe\" already"));
  CHECK_FALSE(s->add_author(AuthorRow{"amy", "hash-z", false, 12}).ok());  // a hash is one account's
  const auto zoe = ok(s->author_by_token_hash("hash-z"));
  REQUIRE(zoe.has_value());
  CHECK(zoe->name == "zoe");
  CHECK_FALSE(zoe->organiser);
  CHECK(zoe->created_ms == 10);
  CHECK(ok(s->author_by_token_hash("hash-o"))->organiser);
  CHECK_FALSE(ok(s->author_by_token_hash("hash-x")).has_value());
  const auto all = ok(s->authors());
  REQUIRE(all.size() == 2);
  CHECK(all[0].name == "org");
  CHECK(all[1].name == "zoe");
}

STORE_CASE(schema_1_migrated, "a ladder of schema 1 is migrated to the accounts' schema, its rows kept") {
  const Location where = fresh(engine);
  const std::vector<sql::Migration> first(sql::migrations().begin(), sql::migrations().begin() + 1);
  Id v = 0;
  {
    auto old = sql::open_with(where, first);
    REQUIRE(old.ok());
    CHECK(old.value()->schema_version() == 1);
    v = active_version(*old.value(), "greedy");
  }
  auto s = open_ok(where);
  CHECK(s->schema_version() == kSchemaVersion);
  CHECK(ok(s->version(v))->bot == "greedy");
  CHECK(ok(s->authors()).empty());
  ok(s->add_author(AuthorRow{"ann", "h", false, 1}));
  CHECK(ok(s->authors()).size() == 1);
}

STORE_CASE(submission_slots, "the web's rate limit: submissions counted per account in the database, across a reopen") {
  const Location where = fresh(engine);
  constexpr std::int64_t kWindow = 60'000;
  {
    auto s = open_ok(where);
    ok(s->add_author(AuthorRow{"ann", "ha", false, 1}));
    ok(s->add_author(AuthorRow{"bo", "hb", false, 1}));
    for (int i = 0; i < 3; ++i) CHECK(ok(s->take_submission_slot("ann", 1000 + i * 10, kWindow, 3)).granted);
    const SubmissionSlot full = ok(s->take_submission_slot("ann", 2000, kWindow, 3));
    CHECK_FALSE(full.granted);
    CHECK(full.retry_at_ms == 1000 + kWindow);                           // when the oldest leaves the window
    CHECK(ok(s->take_submission_slot("bo", 2000, kWindow, 3)).granted);  // per account
  }
  // Another connection (a restarted server) counts the same; a refusal counted nothing.
  auto s = open_ok(where);
  CHECK_FALSE(ok(s->take_submission_slot("ann", 1000 + kWindow - 1, kWindow, 3)).granted);
  const SubmissionSlot later = ok(s->take_submission_slot("ann", 1000 + kWindow, kWindow, 3));
  CHECK(later.granted);  // the first left the window
  CHECK_FALSE(ok(s->take_submission_slot("ann", 1000 + kWindow + 1, kWindow, 3)).granted);
  CHECK(ok(s->take_submission_slot("ann", 1020 + kWindow, kWindow, 3)).granted);
}
