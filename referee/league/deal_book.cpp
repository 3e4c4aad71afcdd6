#include "referee/league/deal_book.hpp"

#include <fmt/format.h>

#include <charconv>
#include <system_error>

#include "protocol/json_fields.hpp"
#include "referee/core/bounds.hpp"
#include "referee/core/private_file.hpp"
#include "referee/league/league_file.hpp"
#include "referee/league/seeds.hpp"

namespace arena::league {

namespace fs = std::filesystem;

namespace {

// A deal's seed: a whole JSON number or its decimal text, 0..2^64-1, never rounded or wrapped.
Result<std::uint64_t> book_seed(const json& value, std::string_view where) {
  if (value.is_number_unsigned()) return value.get<std::uint64_t>();
  if (value.is_number_integer() && value.get<std::int64_t>() >= 0)
    return static_cast<std::uint64_t>(value.get<std::int64_t>());
  std::string shown = value.is_string() ? fmt::format("\"{}\"", value.get<std::string>()) : value.dump();
  if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    std::uint64_t seed = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, seed);
    const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
    if (digits && ec == std::errc() && ptr == end) return seed;
  }
  return fail(fmt::format("{}: {}", where, bounds::out_of_range("seed", shown, bounds::kSeed)));
}

// One deal: a seed, or {"seed": S, "config": {...}}.
Result<BookDeal> book_deal(const json& value, std::string_view where) {
  BookDeal deal;
  if (!value.is_object()) {
    auto seed = book_seed(value, where);
    if (!seed) return fail(seed.error());
    deal.seed = *seed;
    return deal;
  }
  const std::string place(where);
  if (auto st = json_fields::only_keys(value, {"seed", "config"}, place.c_str()); !st) return fail(st.error());
  const auto seed_it = value.find("seed");
  if (seed_it == value.end()) return fail(fmt::format("{}: no \"seed\"", where));
  auto seed = book_seed(*seed_it, where);
  if (!seed) return fail(seed.error());
  deal.seed = *seed;
  if (const auto config = value.find("config"); config != value.end() && !config->is_null()) {
    if (!config->is_object()) return fail(fmt::format("{}: \"config\" must be a JSON object", where));
    deal.config = *config;
  }
  return deal;
}

Status check_count(std::size_t count, std::string_view name) {
  if (count == 0) return fail(fmt::format("{} holds no deal", name));
  if (!bounds::kDeals.contains(count))
    return fail(fmt::format("{}: {}", name,
                            bounds::out_of_range("its number of deals", std::to_string(count), bounds::kDeals)));
  return {};
}

// nlohmann's message after its tag ("[json.exception.parse_error.101] parse error at line 1,
// column 9: "): what it found, for our own line and column.
std::string parse_reason(const json::parse_error& e) {
  std::string what = e.what();
  if (const auto colon = what.find(": ", what.find("parse error")); colon != std::string::npos)
    what = what.substr(colon + 2);
  return what;
}

// The keyed round function of book_position's Feistel network: half a block from the other half.
std::uint64_t feistel_round(const std::array<unsigned char, 16>& key, int round, std::uint64_t half) {
  std::array<unsigned char, 9> message{};
  message[0] = static_cast<unsigned char>(round);
  for (int i = 0; i < 8; ++i) message[static_cast<std::size_t>(1 + i)] = static_cast<unsigned char>(half >> (8 * i));
  return siphash24(key, std::string_view(reinterpret_cast<const char*>(message.data()), message.size()));
}

}  // namespace

Result<DealOrder> parse_deal_order(std::string_view text) {
  if (const auto order = parse_enum<DealOrder>(text)) return *order;
  return fail(fmt::format("deals order \"{}\", expected {}", text, enum_names_text<DealOrder>()));
}

Result<std::vector<BookDeal>> deals_from_json(const json& list, std::string_view name) {
  if (!list.is_array()) return fail(fmt::format("{} must be a JSON array of deals", name));
  if (auto st = check_count(list.size(), name); !st) return fail(st.error());
  std::vector<BookDeal> deals;
  deals.reserve(list.size());
  for (std::size_t i = 0; i < list.size(); ++i) {
    auto deal = book_deal(list[i], fmt::format("{}, deal {}", name, i + 1));
    if (!deal) return fail(deal.error());
    deals.push_back(std::move(deal).value());
  }
  return deals;
}

Result<DealBook> parse_deal_book(std::string_view text, std::string_view name) {
  DealBook book;
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && text[first] == '[') {  // one JSON array
    auto list = parse_json_text(text, name);                    // "NAME is not valid JSON: line 3, column 14: ..."
    if (!list) return fail(list.error());
    auto deals = deals_from_json(*list, name);
    if (!deals) return fail(deals.error());
    book.deals = std::move(deals).value();
    return book;
  }
  // JSON Lines: one deal a line; blank lines are skipped.
  std::size_t line_no = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    json value;
    try {
      value = json::parse(line);
    } catch (const json::parse_error& e) {
      return fail(
          fmt::format("{} is not valid JSON Lines: line {}, column {}: {}", name, line_no, e.byte, parse_reason(e)));
    }
    auto deal = book_deal(value, fmt::format("{}, line {}", name, line_no));
    if (!deal) return fail(deal.error());
    book.deals.push_back(std::move(deal).value());
    if (!bounds::kDeals.contains(book.deals.size())) break;  // check_count names it
  }
  if (auto st = check_count(book.deals.size(), name); !st) return fail(st.error());
  return book;
}

Result<DealBook> read_deal_book(const fs::path& file) {
  const std::string name = fmt::format("the deal book {}", file.string());
  // The organiser's own file: a link is followed (to a regular file, read up to the bound).
  std::error_code ec;
  const fs::path target = fs::canonical(file, ec);
  if (ec) return fail(fmt::format("cannot read {}: {}", name, ec.message()));
  auto text = files::read_file(target);
  if (!text) return fail(fmt::format("cannot read {}: {}", name, text.error()));
  return parse_deal_book(*text, name);
}

json to_json(const std::vector<BookDeal>& deals) {
  json list = json::array();
  for (const BookDeal& d : deals) {
    json entry = {{"seed", std::to_string(d.seed)}};  // decimal text: exact in every JSON reader
    if (!d.config.is_null()) entry["config"] = d.config;
    list.push_back(std::move(entry));
  }
  return list;
}

std::uint64_t book_position(DealOrder order, std::uint64_t league_seed, std::uint64_t round, std::uint64_t count) {
  if (order == DealOrder::file || count < 2) return round;
  // A balanced Feistel network on 2 * half bits (the smallest even width holding count - 1) is a
  // permutation of 0..2^(2 half)-1; applying it until the value falls below count (cycle walking)
  // makes it a permutation of 0..count-1.
  int bits = 0;
  while (bits < 64 && ((count - 1) >> bits) != 0) ++bits;
  const int half = (bits + 1) / 2;
  const std::uint64_t mask = (std::uint64_t{1} << half) - 1;
  std::array<unsigned char, 16> key{};
  for (int i = 0; i < 8; ++i) key[static_cast<std::size_t>(i)] = static_cast<unsigned char>(league_seed >> (8 * i));
  const std::string_view domain = "arena-db";
  for (std::size_t i = 0; i < 8; ++i) key[8 + i] = static_cast<unsigned char>(domain[i]);
  std::uint64_t x = round;
  do {
    std::uint64_t left = x >> half;
    std::uint64_t right = x & mask;
    for (int r = 0; r < 4; ++r) {
      const std::uint64_t next = left ^ (feistel_round(key, r, right) & mask);
      left = right;
      right = next;
    }
    x = (left << half) | right;
  } while (x >= count);
  return x;
}

std::string book_difference(const DealBook& here, const DealBook& there) {
  if (here.order != there.order)
    return fmt::format("deals order {} here, {} there", enum_name(here.order), enum_name(there.order));
  if (here.deals.size() != there.deals.size())
    return fmt::format("a deal book of {} deals here, {} there", here.deals.size(), there.deals.size());
  for (std::size_t i = 0; i < here.deals.size(); ++i) {
    const BookDeal& a = here.deals[i];
    const BookDeal& b = there.deals[i];
    if (a.seed != b.seed) return fmt::format("deal {} of the book has seed {} here, {} there", i + 1, a.seed, b.seed);
    if (a.config != b.config)
      return fmt::format("deal {} of the book has config {} here, {} there", i + 1, a.config.dump(), b.config.dump());
  }
  return {};
}

}  // namespace arena::league
