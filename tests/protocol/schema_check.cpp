#include "tests/protocol/schema_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <set>

namespace arena::protocol_test {

namespace {

bool has_type(const json& v, const std::string& type) {
  if (type == "object") return v.is_object();
  if (type == "array") return v.is_array();
  if (type == "string") return v.is_string();
  if (type == "integer") return v.is_number_integer();
  if (type == "number") return v.is_number();
  if (type == "boolean") return v.is_boolean();
  if (type == "null") return v.is_null();
  return false;
}

long double number(const json& v) {
  if (v.is_number_unsigned()) return static_cast<long double>(v.get<std::uint64_t>());
  if (v.is_number_integer()) return static_cast<long double>(v.get<std::int64_t>());
  return static_cast<long double>(v.get<double>());
}

// JSON equality, except that an integer never equals a float (the codec refuses "protocol": 1.0).
bool same(const json& a, const json& b) {
  if (a.is_number() && b.is_number() && a.is_number_integer() != b.is_number_integer()) return false;
  return a == b;
}

std::size_t code_points(const std::string& s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

const std::set<std::string> kAnnotations = {"$schema", "$id", "$comment", "title", "description"};
const std::set<std::string> kKeywords = {"type",    "required", "properties", "additionalProperties",
                                         "const",   "enum",     "items",      "minItems",
                                         "minimum", "maximum",  "minLength",  "maxLength",
                                         "if",      "then",     "else",       "not"};

// An error about the schema rather than the value.
bool schema_problem(const std::string& error) {
  return error.find(": unsupported keyword \"") != std::string::npos ||
         error.find(": the schema is not an object") != std::string::npos;
}

void check(const json& schema, const json& v, const std::string& at, bool closed, std::vector<std::string>& errors) {
  auto error = [&](const std::string& what) { errors.push_back(fmt::format("{}: {}", at.empty() ? "/" : at, what)); };
  if (!schema.is_object()) {
    error("the schema is not an object");
    return;
  }
  for (const auto& [key, value] : schema.items()) {
    if (!kAnnotations.contains(key) && !kKeywords.contains(key)) error(fmt::format("unsupported keyword \"{}\"", key));
  }
  if (auto t = schema.find("type"); t != schema.end()) {
    bool ok = false;
    if (t->is_string()) {
      ok = has_type(v, t->get<std::string>());
    } else {
      for (const auto& one : *t) ok = ok || has_type(v, one.get<std::string>());
    }
    if (!ok) {
      error(fmt::format("expected type {}, got {}", t->dump(), v.dump(-1, ' ', false, json::error_handler_t::replace)));
      return;  // the other keywords would only repeat the problem
    }
  }
  if (auto c = schema.find("const"); c != schema.end() && !same(*c, v)) {
    error(fmt::format("expected {}, got {}", c->dump(), v.dump(-1, ' ', false, json::error_handler_t::replace)));
  }
  if (auto e = schema.find("enum"); e != schema.end()) {
    if (std::none_of(e->begin(), e->end(), [&](const json& one) { return same(one, v); })) {
      error(fmt::format("{} is not one of {}", v.dump(-1, ' ', false, json::error_handler_t::replace), e->dump()));
    }
  }
  if (v.is_object()) {
    if (auto r = schema.find("required"); r != schema.end()) {
      for (const auto& name : *r) {
        if (!v.contains(name.get<std::string>())) error(fmt::format("missing required field {}", name.dump()));
      }
    }
    const json no_properties = json::object();
    const auto p = schema.find("properties");
    const json& properties = p != schema.end() ? *p : no_properties;
    for (const auto& [name, sub] : properties.items()) {
      if (auto it = v.find(name); it != v.end()) check(sub, *it, at + "/" + name, closed, errors);
    }
    json additional = closed && p != schema.end() ? json(false) : json(true);
    if (auto a = schema.find("additionalProperties"); a != schema.end()) additional = *a;
    for (const auto& [name, value] : v.items()) {
      if (properties.contains(name)) continue;
      if (additional.is_boolean() && !additional.get<bool>()) {
        error(fmt::format("field \"{}\" is not allowed", name));
      } else if (additional.is_object()) {
        check(additional, value, at + "/" + name, closed, errors);
      }
    }
  }
  if (v.is_array()) {
    if (auto m = schema.find("minItems"); m != schema.end() && v.size() < m->get<std::size_t>()) {
      error(fmt::format("{} items, expected at least {}", v.size(), m->dump()));
    }
    if (auto items = schema.find("items"); items != schema.end()) {
      for (std::size_t i = 0; i < v.size(); ++i) check(*items, v[i], fmt::format("{}/{}", at, i), closed, errors);
    }
  }
  if (v.is_number()) {
    if (auto m = schema.find("minimum"); m != schema.end() && number(v) < number(*m)) {
      error(fmt::format("{} is below the minimum {}", v.dump(), m->dump()));
    }
    if (auto m = schema.find("maximum"); m != schema.end() && number(v) > number(*m)) {
      error(fmt::format("{} is above the maximum {}", v.dump(), m->dump()));
    }
  }
  // if / then / else and not: subschemas that constrain the same value. They are applied open
  // (closed = false), since such a subschema names only the fields it tests. A problem of the
  // schema itself (an unsupported keyword) inside them is reported, never taken as a mismatch.
  auto outcome = [&](const json& sub) {
    std::vector<std::string> inner;
    check(sub, v, at, false, inner);
    bool matches = true;
    for (auto& e : inner) {
      if (schema_problem(e)) {
        errors.push_back(std::move(e));
      } else {
        matches = false;
      }
    }
    return matches;
  };
  if (auto c = schema.find("if"); c != schema.end()) {
    if (auto branch = schema.find(outcome(*c) ? "then" : "else"); branch != schema.end()) {
      check(*branch, v, at, false, errors);
    }
  }
  if (auto n = schema.find("not"); n != schema.end() && outcome(*n)) {
    error(fmt::format("matches the schema it must not match: {}", n->dump()));
  }
  if (v.is_string()) {
    const auto n = code_points(v.get<std::string>());
    if (auto m = schema.find("minLength"); m != schema.end() && n < m->get<std::size_t>()) {
      error(fmt::format("a string of {} characters, expected at least {}", n, m->dump()));
    }
    if (auto m = schema.find("maxLength"); m != schema.end() && n > m->get<std::size_t>()) {
      error(fmt::format("a string of {} characters, expected at most {}", n, m->dump()));
    }
  }
}

}  // namespace

std::vector<std::string> check_schema(const json& schema, const json& value, bool closed) {
  std::vector<std::string> errors;
  check(schema, value, "", closed, errors);
  return errors;
}

}  // namespace arena::protocol_test
