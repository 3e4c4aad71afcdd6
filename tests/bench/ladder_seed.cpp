// The ladder's benchmarks' shared seeding (ladder_seed.hpp).
#include "tests/bench/ladder_seed.hpp"

#include "referee/core/rng.hpp"
#include "referee/ladder/store_sql.hpp"

namespace arena::bench {

using namespace arena::ladder;

void die(const std::string& why) {
  fmt::print(stderr, "benchmark: {}\n", why);
  std::exit(1);
}

void must(const Status& s) {
  if (!s) die(s.error());
}

std::unique_ptr<Store> open_or_die(const Location& where) {
  return must(Store::open(where));
}

Id active(Store& s, const std::string& bot) {
  const Bytes files{1, 2, 3};
  const auto v = must(s.add_version(NewVersion{bot, "bench", json{{"language", "cpp"}}, files, 1}));
  must(s.finish_build(v.id, VersionState::active, "./bot", files, "", "", 2));
  return v.id;
}

// Straight into the games table: the counted rows as count() leaves them, 200 a statement (so
// `games` rounded up to a multiple of 200).
void seed_games(Store& s, const std::vector<Id>& versions, std::int64_t games) {
  auto& db = dynamic_cast<sql::SqlStore&>(s).db();
  constexpr int kRows = 200;
  std::string statement =
      "INSERT INTO games (match_id, leg, seed, seats, end_kind, scores, ranks, fault_seat, fault_kind, fault_message,"
      " end_ms) VALUES ";
  for (int r = 0; r < kRows; ++r)
    statement += r == 0 ? "(?, 0, ?, ?, 'finished', ?, ?, NULL, NULL, '', ?)"
                        : ", (?, 0, ?, ?, 'finished', ?, ?, NULL, NULL, '', ?)";
  Rng rng(2026);
  db.begin(true);
  sql::Params params;
  for (std::int64_t g = 0; g < games; g += kRows) {
    params.clear();
    for (int r = 0; r < kRows; ++r) {
      const Id a = versions[rng.below(versions.size())];
      Id b = versions[rng.below(versions.size())];
      if (b == a) b = versions[(static_cast<std::size_t>(a) + 1) % versions.size()];
      const double sa = static_cast<double>(rng.below(10)), sb = static_cast<double>(rng.below(10));
      const std::vector<int> ranks = sa > sb   ? std::vector<int>{1, 2}
                                     : sa < sb ? std::vector<int>{2, 1}
                                               : std::vector<int>{1, 1};
      params.insert(params.end(),
                    {sql::Value(g + r + 1), sql::Value(rng.next()), sql::Value(sql::ints_text(std::vector<Id>{a, b})),
                     sql::Value(sql::doubles_text({sa, sb})), sql::Value(sql::ints_text(ranks)), sql::Value(g + r)});
    }
    db.exec(statement, params);
  }
  db.commit();
}

}  // namespace arena::bench
