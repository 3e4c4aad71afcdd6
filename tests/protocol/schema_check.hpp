#pragma once
// A checker for the subset of JSON Schema (draft 2020-12) that the message schemas in
// protocol/schema/*.json use, so the tests need no new dependency: type, required, properties,
// additionalProperties, const, enum, items, minItems, minimum, maximum, minLength, maxLength,
// if/then/else, not; annotations ($schema, $id, $comment, title, description) are skipped and any
// other keyword is reported, so a schema cannot quietly use something this checker ignores.
// Numbers are read the way the codec reads them: "integer" means written without fraction or
// exponent and within 64 bits, and const 1 does not match 1.0. (The per-game schemas in
// protocol/schema/<game>/ use more of the draft: tests/protocol/validate_schemas.py checks them
// with python3-jsonschema.)

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace arena::protocol_test {

using nlohmann::json;

// Every violation, each as "<JSON pointer>: <problem>"; empty when the value conforms.
// closed: treat every schema that lists "properties" as if it said additionalProperties: false
// (the referee's own messages must declare every field they carry).
std::vector<std::string> check_schema(const json& schema, const json& value, bool closed = false);

}  // namespace arena::protocol_test
