// The ladder's store: what the web reads (store_fixture.hpp, both engines): recent games newest
// first, page by page and by fault kind; one match and its games.

#include <catch2/catch.hpp>

#include "tests/ladder/store_fixture.hpp"

using namespace arena;
using namespace arena::ladder;
using namespace arena::ladder::test;

STORE_CASE(recent_games, "recent games: newest first, below an id, by fault kind, and a match with its games") {
  auto s = open_ok(fresh(engine));
  const Id a = active_version(*s, "a"), b = active_version(*s, "b");
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
