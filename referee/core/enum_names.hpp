#pragma once
// The text of an enum, one table per enum: the names a file, a flag or the JSON output use, and
// the only place that pairs them with the values. An enum E gets its table by a specialisation
//
//   template <> struct EnumNames<E> {
//     static constexpr auto table = name_table(E::a, "a", E::b, "b");
//   };
//
// next to E, and then enum_name(e), parse_enum<E>(text) and enum_names_text<E>() (for errors:
// "a or b") work for it. A value missing from the table names itself "unknown".

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace arena {

template <typename E>
struct EnumNames;  // specialised per enum, with `table`

// The type of an EnumNames table of N names.
template <typename E, std::size_t N>
using NameTable = std::array<std::pair<E, std::string_view>, N>;

namespace enum_names_detail {
template <typename E, std::size_t N>
constexpr void fill(NameTable<E, N>&, std::size_t) {}
template <typename E, std::size_t N, typename... Rest>
constexpr void fill(NameTable<E, N>& table, std::size_t i, E value, std::string_view name, Rest... rest) {
  table[i] = {value, name};
  fill(table, i + 1, rest...);
}
}  // namespace enum_names_detail

// A table of values and their names, given in turn: name_table(E::a, "a", E::b, "b").
template <typename E, typename... Rest>
constexpr NameTable<E, 1 + sizeof...(Rest) / 2> name_table(E value, std::string_view name, Rest... rest) {
  static_assert(sizeof...(Rest) % 2 == 0, "name_table: a value, then its name, for every value");
  NameTable<E, 1 + sizeof...(Rest) / 2> table{};
  enum_names_detail::fill(table, 0, value, name, rest...);
  return table;
}

// What `table` (pairs: EnumNames' tables, or any other per-value table) pairs with `key`, or
// `otherwise` where it pairs nothing.
template <typename K, typename V, std::size_t N>
constexpr V table_lookup(const std::array<std::pair<K, V>, N>& table, K key, V otherwise) {
  for (const auto& [k, v] : table) {
    if (k == key) return v;
  }
  return otherwise;
}

template <typename E>
constexpr std::string_view enum_name(E value) {
  // A table lists its values in their declaration order as a rule (the games' view writers name an
  // enum at every decision): then a value's own number finds its row; otherwise the table is searched.
  const auto& table = EnumNames<E>::table;
  const auto row = static_cast<std::size_t>(value);
  if (row < table.size() && table[row].first == value) return table[row].second;
  return table_lookup(table, value, std::string_view("unknown"));
}

template <typename E>
constexpr std::optional<E> parse_enum(std::string_view text) {
  for (const auto& [v, name] : EnumNames<E>::table) {
    if (name == text) return v;
  }
  return std::nullopt;
}

// Every name, quoted, for an error message: "\"a\", \"b\" or \"c\"".
template <typename E>
std::string enum_names_text() {
  std::string out;
  const auto& t = EnumNames<E>::table;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (i > 0) out += i + 1 == t.size() ? " or " : ", ";
    out.append("\"").append(t[i].second).append("\"");
  }
  return out;
}

}  // namespace arena
