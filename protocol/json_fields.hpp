#pragma once
// Reading a JSON object from a file people write (a league file, ladder.json, a bot's bot.json)
// strictly: only known keys, and each value of its type and within its range (core/bounds.hpp),
// refused with a message naming where it is, the key, the value and the range. Nothing is wrapped,
// truncated or defaulted silently.

#include <fmt/format.h>

#include <algorithm>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "referee/core/bounds.hpp"
#include "referee/core/result.hpp"

namespace arena::json_fields {

using nlohmann::json;

// Every key of `j` is one of `keys`; else "<where>: unknown key "x"".
inline Status only_keys(const json& j, std::initializer_list<const char*> keys, const char* where) {
  for (const auto& [key, value] : j.items()) {
    if (std::none_of(keys.begin(), keys.end(), [&](const char* k) { return key == k; })) {
      return fail(fmt::format("{}: unknown key \"{}\"", where, key));
    }
  }
  return {};
}

// j[key], when present, as a whole number in `range`, into `out`. Anything else (negative,
// fractional, too large, a string) is refused with the key, the value and the range.
template <typename T, typename R>
Status read_whole(const json& j, const char* where, const char* key, const bounds::Range<R>& range, T& out) {
  const auto it = j.find(key);
  if (it == j.end()) return {};
  bool inside = false;
  if (it->is_number_unsigned()) {
    const auto v = it->template get<std::uint64_t>();
    inside = std::cmp_greater_equal(v, range.lo) && std::cmp_less_equal(v, range.hi);
    if (inside) out = static_cast<T>(v);
  } else if (it->is_number_integer()) {
    const auto v = it->template get<std::int64_t>();
    inside = std::cmp_greater_equal(v, range.lo) && std::cmp_less_equal(v, range.hi);
    if (inside) out = static_cast<T>(v);
  }
  if (!inside)
    return fail(fmt::format("{}: {}", where, bounds::out_of_range(fmt::format("\"{}\"", key), it->dump(), range)));
  return {};
}

// j[key], when present, as a finite number in `range`, into `out`.
inline Status read_real(const json& j, const char* where, const char* key, const bounds::Range<double>& range,
                        double& out) {
  const auto it = j.find(key);
  if (it == j.end()) return {};
  if (!it->is_number() || !range.contains(it->get<double>())) {
    return fail(fmt::format("{}: {}", where, bounds::out_of_range(fmt::format("\"{}\"", key), it->dump(), range)));
  }
  out = it->get<double>();
  return {};
}

// j[key], when present, as true or false.
inline Status read_bool(const json& j, const char* where, const char* key, bool& out) {
  const auto it = j.find(key);
  if (it == j.end()) return {};
  if (!it->is_boolean()) return fail(fmt::format("{}: \"{}\" must be true or false, not {}", where, key, it->dump()));
  out = it->get<bool>();
  return {};
}

// j[key], when present, as a string.
inline Status read_string(const json& j, const char* where, const char* key, std::string& out) {
  const auto it = j.find(key);
  if (it == j.end()) return {};
  if (!it->is_string()) return fail(fmt::format("{}: \"{}\" must be a string, not {}", where, key, it->dump()));
  out = it->get<std::string>();
  return {};
}

// j[key], when present, as an object (its reader checks the keys); else an error naming it.
inline Result<const json*> object_at(const json& j, const char* where, const char* key) {
  const auto it = j.find(key);
  if (it == j.end()) return static_cast<const json*>(nullptr);
  if (!it->is_object()) return fail(fmt::format("{}: \"{}\" must be an object, not {}", where, key, it->dump()));
  return &*it;
}

}  // namespace arena::json_fields
