#pragma once
// What the games' JSON readers share (games/<game>/json.cpp, state_json.cpp, from_view.cpp): a
// string that must be one of an enum's names (the enum's EnumNames table, next to the enum), and
// an object that may hold only the keys a reader knows. The errors name what was wrong.

#include <fmt/format.h>

#include <algorithm>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "referee/core/enum_names.hpp"
#include "referee/core/result.hpp"

namespace arena::games {

// `j` as an E by its name; nothing when `j` is no string or not one of E's names (for a reader
// whose error says more, with enum_names_text<E>()).
template <typename E>
std::optional<E> enum_of_json(const nlohmann::json& j) {
  if (!j.is_string()) return std::nullopt;
  return parse_enum<E>(j.get_ref<const std::string&>());
}

// `j` as an E by its name, or an error naming `what`, the value found (a string as it came, in
// quotes: the edges escape what they print) and every name E has:
// unknown phase "dusk" (expected "play", "collect", "top" or "over").
template <typename E>
Result<E> enum_from_json(const nlohmann::json& j, std::string_view what) {
  if (const auto value = enum_of_json<E>(j)) return *value;
  const std::string found = j.is_string() ? "\"" + j.get<std::string>() + "\"" : j.dump();
  return fail(fmt::format("unknown {} {} (expected {})", what, found, enum_names_text<E>()));
}

// Refuses any key of the object `j` not in `keys`, by name: unknown field "decks".
inline Status only_keys(const nlohmann::json& j, std::initializer_list<const char*> keys) {
  for (const auto& [key, value] : j.items()) {
    if (std::none_of(keys.begin(), keys.end(), [&](const char* k) { return key == k; })) {
      return fail(fmt::format("unknown field \"{}\"", key));
    }
  }
  return {};
}

}  // namespace arena::games
