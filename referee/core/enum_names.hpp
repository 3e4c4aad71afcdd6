#pragma once
// The text of an enum, one table per enum: the names a file, a flag or the JSON output use, and
// the only place that pairs them with the values. An enum E gets its table by a specialisation
//
//   template <> struct EnumNames<E> {
//     static constexpr std::array<std::pair<E, std::string_view>, 2> table{{{E::a, "a"}, {E::b, "b"}}};
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

template <typename E>
constexpr std::string_view enum_name(E value) {
  for (const auto& [v, name] : EnumNames<E>::table) {
    if (v == value) return name;
  }
  return "unknown";
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
