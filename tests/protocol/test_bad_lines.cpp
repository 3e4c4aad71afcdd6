// protocol/transcripts/bad_lines.jsonl: lines a bot might write, each refused by the stage it
// names (parse_line, read_ready or read_action) with an error containing the expected fragment,
// never with an exception. The schemas must refuse the same lines (except a wrong id, which only
// the referee can know).

#include <catch2/catch.hpp>
#include <set>

#include "protocol/codec.hpp"
#include "tests/protocol/fixtures.hpp"
#include "tests/protocol/schema_check.hpp"

namespace arena::protocol_test {

namespace {

namespace p = arena::protocol;

struct BadLine {
  std::string name;
  std::string refused_by;
  std::string bytes;
  std::string error;
  std::int64_t expect_id = 0;
  p::ParseLimits limits;
};

std::vector<BadLine> bad_lines() {
  std::vector<BadLine> out;
  const auto lines = read_lines(source_dir() / "protocol" / "transcripts" / "bad_lines.jsonl");
  for (const auto& text : lines) {
    const json j = json::parse(text);
    BadLine b;
    b.name = j.at("case");
    b.refused_by = j.at("refused_by");
    b.error = j.at("error");
    b.expect_id = j.value("expect_id", std::int64_t{0});
    REQUIRE(j.contains("line") != j.contains("bytes"));
    b.bytes = j.contains("line") ? j.at("line").get<std::string>() : decode_bytes(j.at("bytes").get<std::string>());
    b.limits.max_depth = j.value("max_depth", b.limits.max_depth);
    b.limits.max_bytes = j.value("max_bytes", b.limits.max_bytes);
    out.push_back(std::move(b));
  }
  return out;
}

// What the referee would say about the line (the error, or "" when accepted).
std::string refusal(const BadLine& b, std::string& stage) {
  auto parsed = p::parse_line(b.bytes, b.limits);
  if (!parsed) {
    stage = "parse_line";
    return parsed.error();
  }
  if (b.refused_by == "read_ready") {
    stage = "read_ready";
    auto r = p::read_ready(*parsed);
    return r ? "" : r.error();
  }
  stage = "read_action";
  auto r = p::read_action(*parsed, b.expect_id, 4096);
  return r ? "" : r.error();
}

}  // namespace

TEST_CASE("bad_lines.jsonl covers the catalogue of the issue", "[protocol][bad_lines]") {
  std::set<std::string> names;
  for (const auto& b : bad_lines()) names.insert(b.name);
  for (const char* required :
       {"not JSON", "truncated JSON", "invalid UTF-8 in a string (Latin-1 e-acute)",
        "nesting deeper than the limit (70 levels)", "huge number 1e999", "40-digit integer as id",
        "duplicate key at the top", "empty line", "a JSON array instead of an object",
        "wrong type (ready where an action is expected)", "wrong protocol version", "missing id", "wrong id",
        "unknown field", "action not an object (string)", "debug not a string (number)"}) {
    CHECK(names.contains(required));
  }
}

TEST_CASE("every bad line is refused with an error naming the problem", "[protocol][bad_lines]") {
  for (const auto& b : bad_lines()) {
    INFO("case: " << b.name << "\nline: " << p::escape_bytes(b.bytes, 200));
    std::string stage;
    std::string error;
    REQUIRE_NOTHROW(error = refusal(b, stage));
    CHECK(stage == b.refused_by);
    CHECK(error != "");
    INFO("error: " << p::escape_bytes(error));
    CHECK(error.find(b.error) != std::string::npos);
    // Errors end up in results and replays: always valid UTF-8.
    CHECK(valid_utf8(error));
  }
}

TEST_CASE("the schemas refuse the bad lines the readers refuse", "[protocol][bad_lines][schema]") {
  // Only the referee knows which id it expects.
  // The schemas see one message alone: not the pending request's id, nor the version the bot's
  // ready chose.
  const std::set<std::string> schema_cannot_tell = {"wrong id", "id of the previous request",
                                                    "another version than the ready chose"};
  for (const auto& b : bad_lines()) {
    if (b.refused_by == "parse_line") continue;
    INFO("case: " << b.name);
    auto parsed = p::parse_line(b.bytes, b.limits);
    REQUIRE(parsed.ok());
    const std::string type = b.refused_by == "read_ready" ? "ready" : "action";
    const bool refused = !check_schema(schema_for(type), *parsed).empty();
    CHECK(refused == !schema_cannot_tell.contains(b.name));
  }
}

TEST_CASE("a good line next to each bad one is accepted", "[protocol][bad_lines]") {
  // The fixtures' expectations are not vacuous: the same shapes, well formed, pass.
  auto ok_action =
      p::parse_line(R"({"type":"action","protocol":1,"id":3,"action":{"kind":"take","slot":2},"debug":"caf\u00e9"})");
  REQUIRE(ok_action.ok());
  CHECK(p::read_action(*ok_action, 3, 4096).ok());
  auto ok_ready =
      p::parse_line(R"({"type":"ready","protocol":1,"name":")" + std::string(64, 'n') + R"(","version":""})");
  REQUIRE(ok_ready.ok());
  CHECK(p::read_ready(*ok_ready).ok());
  CHECK(p::parse_line(R"({"a":{"b":{}}})", {3, 64}).ok());  // 3 levels under a limit of 3
  CHECK(p::parse_line(R"({"type":"action","protocol":1,"id":3,"action":{"kind":"take","slot":2}})", {64, 71})
            .ok());  // exactly at the limit
  // Whitespace around the object, a trailing CR included, is JSON whitespace.
  CHECK(p::parse_line(" {\"type\":\"ready\"} \r").ok());
}

}  // namespace arena::protocol_test
