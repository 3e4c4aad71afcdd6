#pragma once
// A deal book (docs/league.md, "Deal books"): a fixed list of deals, each a seed and optionally a
// game config, that a league plays instead of seeds derived from its league seed, so that two
// leagues months apart play the same deals. Every pairing plays every deal of the book, in the
// book's order or in an order shuffled by the league seed alone.
//
// A book is written as a JSON array, or as JSON Lines (one deal a line); a deal is a seed (a whole
// number or its decimal text, 0..2^64-1, exact) or {"seed": S, "config": {...}}. league.json
// records the book's contents ("deal_book", seeds as decimal text), so a resume plays the recorded
// book whatever became of the file.

#include <array>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "referee/core/enum_names.hpp"
#include "referee/core/result.hpp"

namespace arena::league {

using json = nlohmann::json;

enum class DealOrder { file, shuffled };

}  // namespace arena::league

// --deals-order and the league file's "deals_order": "file", "shuffled".
template <>
struct arena::EnumNames<arena::league::DealOrder> {
  using E = league::DealOrder;
  static constexpr auto table = name_table(E::file, "file", E::shuffled, "shuffled");
};

namespace arena::league {

struct BookDeal {
  std::uint64_t seed = 0;
  json config;  // null: the league's config; else (once normalized) the league's with these keys over it
  bool operator==(const BookDeal&) const = default;
};

struct DealBook {
  std::vector<BookDeal> deals;
  DealOrder order = DealOrder::file;
  bool operator==(const DealBook&) const = default;
};

// The order named `text`; the error lists both.
Result<DealOrder> parse_deal_order(std::string_view text);

// A book's text: a JSON array, or JSON Lines. `name` names it in errors ("the deal book
// deals.jsonl: line 4, column 9: ...", "... deal 3: seed \"-1\" is not a whole number in
// 0..18446744073709551615"). An empty book is refused.
Result<DealBook> parse_deal_book(std::string_view text, std::string_view name);
// The book in `file` (followed if a link: it is the organiser's file), its size bounded.
Result<DealBook> read_deal_book(const std::filesystem::path& file);
// A JSON array of deals (an inline "deals" list, league.json's "deal_book"); `name` names it.
Result<std::vector<BookDeal>> deals_from_json(const json& list, std::string_view name);
// The deals as league.json records them: [{"seed": "DECIMAL"[, "config": {...}]}, ...].
json to_json(const std::vector<BookDeal>& deals);

// Where the deal of round `round` (0..count-1) is in the book: `round` in file order; shuffled, a
// permutation of 0..count-1 keyed with the league seed alone (a Feistel network on SipHash-2-4,
// cycle-walked into the range), computed for one round without the others.
std::uint64_t book_position(DealOrder order, std::uint64_t league_seed, std::uint64_t round, std::uint64_t count);

// The first difference between two books, for the message that refuses a changed book on
// resume ("deal 3 has seed 7 here, 5 there"); empty when they are equal.
std::string book_difference(const DealBook& here, const DealBook& there);

}  // namespace arena::league
