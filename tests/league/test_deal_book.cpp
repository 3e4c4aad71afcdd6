// Deal books (docs/league.md, "Deal books"): the book's seeds, exact to 64 bits, are the matches'
// seeds whatever the league seed; a shuffled order is a permutation that depends on the league
// seed alone; league.json records the book, a resume plays it and refuses a changed one; bad books
// are refused with exit code 2 and the problem named.

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <set>

#include "referee/league/deal_book.hpp"
#include "referee/league/league.hpp"
#include "referee/replay/replay.hpp"
#include "tests/league/sample_league.hpp"
#include "tests/match/harness.hpp"

using namespace arena;
using Catch::Contains;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kBigSeed = 18446744073709551557ULL;  // above 2^53: a double would round it

league::DealBook book_of(const std::string& text) {
  auto book = league::parse_deal_book(text, "the test book");
  INFO((book ? std::string() : book.error()));
  REQUIRE(book.ok());
  return std::move(book).value();
}

league::LeagueSpec book_spec(const league::DealBook& book, std::uint64_t league_seed, int concurrency = 2) {
  league::LeagueSpec s;
  s.bots.push_back(testing::bot_spec(testing::random_bot(), "a"));
  s.bots.push_back(testing::bot_spec(testing::greedy_bot(), "b"));
  s.book = book;
  s.concurrency = concurrency;
  return testing::sample_league(s, league_seed);
}

// Each journaled match's (index, seed), checked against its replay's header.
std::vector<std::pair<std::uint64_t, std::uint64_t>> book_seeds(const league::LeagueOutcome& outcome) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
  for (const league::MatchRecord& r : outcome.records) {
    auto replay = replay::read(r.replay);
    INFO(r.replay);
    REQUIRE(replay.ok());
    CHECK(replay->header.seed == r.seed);
    out.emplace_back(r.index, r.seed);
  }
  return out;
}

fs::path book_dir(const std::string& name) {
  return testing::fresh_dir("deal_book", name);
}

}  // namespace

TEST_CASE("a deal book is read exactly: seeds as numbers or decimal text, JSON or JSON Lines", "[deal_book]") {
  const auto lines =
      book_of("12\n\n\"18446744073709551615\"\n{\"seed\": 7, \"config\": {\"facedown_step3\": \"printed\"}}\n");
  REQUIRE(lines.deals.size() == 3);
  CHECK(lines.deals[0].seed == 12);
  CHECK(lines.deals[1].seed == UINT64_MAX);
  CHECK(lines.deals[2].config == json{{"facedown_step3", "printed"}});
  const auto array = book_of("[12, \"18446744073709551615\", {\"seed\": \"7\"}]");
  CHECK(array.deals[1].seed == UINT64_MAX);
  CHECK(array.deals[2].seed == 7);
  // league.json's form reads back to the same deals, seeds as text.
  const json recorded = league::to_json(lines.deals);
  CHECK(recorded[1].at("seed") == "18446744073709551615");
  auto back = league::deals_from_json(recorded, "recorded");
  REQUIRE(back.ok());
  CHECK(*back == lines.deals);

  struct Bad {
    const char* text;
    const char* says;
  };
  for (const Bad& b :
       {Bad{"1\n{\"seed\": 3,\n", "line 2, column 12"}, Bad{"[1, 2,, 3]", "line 1, column 7"},
        Bad{"1\n\"18446744073709551616\"\n", "line 2: seed \"18446744073709551616\" is not a whole number"},
        Bad{"[-1]", "deal 1: seed -1 is not a whole number in 0..18446744073709551615"},
        Bad{"[1.5]", "seed 1.5 is not"}, Bad{"\"12a\"", "seed \"12a\" is not"}, Bad{"\n \n", "holds no deal"},
        Bad{"[]", "holds no deal"}, Bad{"{\"seed\": 1, \"cfg\": {}}", "unknown key \"cfg\""},
        Bad{"{\"config\": {}}", "no \"seed\""},
        Bad{"{\"seed\": 1, \"config\": 3}", "\"config\" must be a JSON object"}}) {
    auto book = league::parse_deal_book(b.text, "the test book");
    INFO(b.text);
    REQUIRE_FALSE(book.ok());
    CHECK_THAT(book.error(), Contains("the test book") && Contains(b.says));
  }
}

TEST_CASE("a shuffled book's order is a permutation that depends on the league seed alone", "[deal_book]") {
  for (const std::uint64_t count : {2ULL, 3ULL, 8ULL, 100ULL, 1000ULL}) {
    std::set<std::uint64_t> seen;
    for (std::uint64_t round = 0; round < count; ++round) {
      const std::uint64_t at = league::book_position(league::DealOrder::shuffled, 42, round, count);
      CHECK(at < count);
      seen.insert(at);
      // The same league seed, the same place; file order keeps the book's.
      CHECK(at == league::book_position(league::DealOrder::shuffled, 42, round, count));
      CHECK(league::book_position(league::DealOrder::file, 42, round, count) == round);
    }
    CHECK(seen.size() == count);
  }
  std::vector<std::uint64_t> one, other;
  for (std::uint64_t round = 0; round < 16; ++round) {
    one.push_back(league::book_position(league::DealOrder::shuffled, 1, round, 16));
    other.push_back(league::book_position(league::DealOrder::shuffled, 2, round, 16));
  }
  CHECK(one != other);
}

TEST_CASE("two leagues with one book and different league seeds play the same deals", "[deal_book][league]") {
  const auto book = book_of(
      fmt::format("12345\n\"{}\"\n{{\"seed\": 7, \"config\": {{\"facedown_step3\": \"printed\"}}}}\n", kBigSeed));
  auto first = league::run(book_spec(book, 1), testing::league_options(book_dir("first")));
  REQUIRE(first.ok());
  auto second = league::run(book_spec(book, 99, 1), testing::league_options(book_dir("second")));
  REQUIRE(second.ok());
  // 3 deals x 2 legs (duplicate), in the book's order: both legs of a deal share its seed.
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> expected = {{0, 12345},    {1, 12345}, {2, kBigSeed},
                                                                         {3, kBigSeed}, {4, 7},     {5, 7}};
  CHECK(book_seeds(*first) == expected);
  CHECK(book_seeds(*second) == expected);
  // The deal's own config over the league's, in the replay.
  auto replay = replay::read(first->records[4].replay);
  REQUIRE(replay.ok());
  CHECK(replay->header.config.at("facedown_step3") == "printed");
  auto plain = replay::read(first->records[0].replay);
  REQUIRE(plain.ok());
  CHECK(plain->header.config.at("facedown_step3") != "printed");

  // Shuffled: a permutation of the book chosen by the league seed, the same at any concurrency.
  auto shuffled = book;
  shuffled.order = league::DealOrder::shuffled;
  auto s1 = league::run(book_spec(shuffled, 5, 2), testing::league_options(book_dir("shuffled1")));
  auto s2 = league::run(book_spec(shuffled, 5, 1), testing::league_options(book_dir("shuffled2")));
  REQUIRE(s1.ok());
  REQUIRE(s2.ok());
  CHECK(book_seeds(*s1) == book_seeds(*s2));
  for (const league::MatchRecord& r : s1->records) {
    CHECK(r.seed == book.deals[league::book_position(league::DealOrder::shuffled, 5, r.deal, 3)].seed);
  }
}

TEST_CASE("a book league interrupted resumes with the recorded book, and a changed book is refused",
          "[deal_book][league]") {
  const auto book = book_of("[11, 22, 33, 44]");
  const auto spec = book_spec(book, 3, 1);
  const auto whole = league::run(spec, testing::league_options(book_dir("whole")));
  REQUIRE(whole.ok());
  REQUIRE(whole->records.size() == 8);

  const fs::path part = book_dir("part");
  const auto stopped = testing::run_stopped_after(spec, part, 3);
  CHECK(stopped.interrupted);
  REQUIRE(stopped.records.size() < 8);
  // league.json holds the book's contents, not a file name.
  const json recorded = json::parse(testing::read_file(part / "league.json"));
  CHECK(recorded.at("deal_book") == json::parse(R"([{"seed":"11"},{"seed":"22"},{"seed":"33"},{"seed":"44"}])"));
  CHECK(recorded.at("deals_order") == "file");
  CHECK(recorded.at("deals") == 4);

  // The CLI resumes from league.json alone; a changed book is named.
  const std::string referee = testing::referee();
  std::ofstream(part.parent_path() / "changed.jsonl") << "11\n22\n34\n44\n";
  auto c = testing::run(fmt::format("{} league --out {} --resume --sandbox none --deals-file {} 2>&1", referee,
                                    part.string(), (part.parent_path() / "changed.jsonl").string()));
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("the deal book differs: deal 3 of the book has seed 34 here, 33 there"));
  c = testing::run(
      fmt::format("{} league --out {} --resume --sandbox none --deals-order shuffled 2>&1", referee, part.string()));
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("deals order shuffled here, file there"));
  c = testing::run(
      fmt::format("{} league --out {} --resume --sandbox none --rating-interval 0 2>&1", referee, part.string()));
  INFO(c.out);
  CHECK(c.exit_code == 0);
  auto journal = league::read_journal(part / "results.jsonl");
  REQUIRE(journal.ok());
  std::vector<std::pair<std::uint64_t, std::uint64_t>> seeds;
  for (const league::MatchRecord& r : *journal) seeds.emplace_back(r.index, r.seed);
  std::sort(seeds.begin(), seeds.end());
  CHECK(seeds == book_seeds(*whole));
}

TEST_CASE("referee league --deals-file: a league file's book, and bad books refused with exit code 2",
          "[deal_book][league][cli]") {
  const fs::path dir = book_dir("cli");
  const std::string referee = testing::referee();
  const std::string bots = fmt::format("--bot {} --bot {}", testing::random_bot(), testing::greedy_bot());
  // A league file's "deals_file" is relative to the league file's folder; a link to it is followed.
  fs::create_directories(dir / "books");
  std::ofstream(dir / "books" / "real.jsonl") << fmt::format("\"{}\"\n", kBigSeed);
  fs::create_symlink("real.jsonl", dir / "books" / "linked.jsonl");
  const json file = {{"bots", {testing::random_bot(), testing::greedy_bot()}},
                     {"deals_file", "linked.jsonl"},
                     {"limits", {{"init_ms", 20000}}}};
  std::ofstream(dir / "books" / "league.json") << file.dump();
  auto c = testing::run(fmt::format("{} league {} --out {} --sandbox none --rating-interval 0 2>&1", referee,
                                    (dir / "books" / "league.json").string(), (dir / "out").string()));
  INFO(c.out);
  CHECK(c.exit_code == 0);
  CHECK_THAT(testing::read_file(dir / "out" / "results.jsonl"), Contains(fmt::format("\"seed\":{}", kBigSeed)));

  struct Bad {
    std::string name;
    std::string text;
    std::string flags;
    std::string says;
  };
  const std::vector<Bad> bad = {
      {"syntax.jsonl", "1\n{\"seed\": 3,\n", "", "is not valid JSON Lines: line 2, column 12"},
      {"range.json", "[\"18446744073709551616\"]", "", "seed \"18446744073709551616\" is not a whole number"},
      {"config.json", "[{\"seed\": 1, \"config\": {\"no_such_key\": 1}}]", "",
       "deal 1 of the deal book: config: stellar config: unknown field \"no_such_key\""},
      {"empty.jsonl", "", "", "holds no deal"},
      {"two.jsonl", "1\n2\n", "--deals 3", "--deals 3 conflicts with the deal book"},
      {"order.jsonl", "1\n", "--deals-order sideways", "--deals-order: deals order \"sideways\", expected"},
  };
  for (const Bad& b : bad) {
    std::ofstream(dir / b.name) << b.text;
    c = testing::run(fmt::format("{} league {} --deals-file {} {} --out {} 2>&1", referee, bots,
                                 (dir / b.name).string(), b.flags, (dir / ("out-" + b.name)).string()));
    INFO(c.out);
    CHECK(c.exit_code == 2);
    CHECK_THAT(c.out, Contains(b.says));
    CHECK_FALSE(fs::exists(dir / ("out-" + b.name)));
  }
  c = testing::run(
      fmt::format("{} league {} --deals-order shuffled --out {} 2>&1", referee, bots, (dir / "out-order").string()));
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("--deals-order needs a deal book"));
  // An inline "deals" list with a "deals_file" too is one book too many.
  std::ofstream(dir / "both.json") << json{
      {"bots", {testing::random_bot(), testing::greedy_bot()}},
      {"deals", {1, 2}},
      {"deals_file", "books/real.jsonl"}}.dump();
  c = testing::run(
      fmt::format("{} league {} --out {} 2>&1", referee, (dir / "both.json").string(), (dir / "out-both").string()));
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Contains("give one deal book"));
}

TEST_CASE("a league file's inline deals list is a deal book, and a numeric deals beside a book must agree",
          "[deal_book]") {
  auto spec =
      league::spec_from_json(json::parse(R"({"bots": ["a", "b"], "deals": [5, "6"], "deals_order": "shuffled"})"));
  REQUIRE(spec.ok());
  REQUIRE(spec->book);
  CHECK(spec->book->order == league::DealOrder::shuffled);
  CHECK(spec->book->deals == std::vector<league::BookDeal>{{5, nullptr}, {6, nullptr}});
  // league.json's form: "deals" the count, "deal_book" the deals.
  auto recorded = league::spec_from_json(json::parse(R"({"bots": ["a", "b"], "deals": 2, "deal_book": [5, 6]})"));
  REQUIRE(recorded.ok());
  CHECK(recorded->book->deals.size() == 2);
  auto conflict = league::spec_from_json(json::parse(R"({"bots": ["a", "b"], "deals": 3, "deal_book": [5, 6]})"));
  REQUIRE_FALSE(conflict.ok());
  CHECK_THAT(conflict.error(), Contains("\"deals\": 3 conflicts with") && Contains("holds 2 deals"));
  auto no_book = league::spec_from_json(json::parse(R"({"bots": ["a", "b"], "deals_order": "shuffled"})"));
  REQUIRE_FALSE(no_book.ok());
  CHECK_THAT(no_book.error(), Contains("\"deals_order\" needs a deal book"));
  // league.json (read without a folder) never reads a file.
  auto file = league::spec_from_json(json::parse(R"({"bots": ["a", "b"], "deals_file": "x.jsonl"})"));
  REQUIRE_FALSE(file.ok());
  CHECK_THAT(file.error(), Contains("\"deals_file\" is for a league file"));
}

TEST_CASE("in a Swiss league every table plays the book's deals, in the book's order", "[deal_book][league]") {
  league::LeagueSpec s;
  s.bots.push_back(testing::bot_spec(testing::random_bot(), "a"));
  s.bots.push_back(testing::bot_spec(testing::greedy_bot(), "b"));
  s.bots.push_back(testing::bot_spec(testing::random_bot(), "c"));
  s.format = league::Format::swiss;
  s.rounds = 2;
  s.book = book_of(fmt::format("[\"{}\", 99]", kBigSeed));
  auto run = league::run(testing::sample_league(s, 3), testing::league_options(book_dir("swiss")));
  REQUIRE(run.ok());
  // 3 bots: one table and one bye a round; a table's 2 deals x 2 legs in index order.
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> expected = {
      {0, kBigSeed}, {1, kBigSeed}, {2, 99}, {3, 99}, {4, kBigSeed}, {5, kBigSeed}, {6, 99}, {7, 99}};
  CHECK(book_seeds(*run) == expected);
}
