// The codec under hostile input: random bytes and mutated valid lines (seeded, deterministic),
// 400,000 levels of nesting, debug texts over the cap, invalid UTF-8 handed to to_line, and
// escape_bytes. Nothing may throw; every refusal is an error value naming the problem.

#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "protocol/codec.hpp"
#include "referee/core/rng.hpp"
#include "referee/games/game.hpp"
#include "tests/protocol/fixtures.hpp"

namespace arena::protocol_test {

namespace {

namespace p = arena::protocol;

// Feeds one line through everything the match does with a bot line; returns a problem or "".
std::string exercise(const std::string& line) {
  try {
    auto parsed = p::parse_line(line);
    if (!parsed) {
      if (parsed.error().empty() || !valid_utf8(parsed.error())) return "an empty or non-UTF-8 error";
      (void)p::escape_bytes(line);
      return "";
    }
    auto ready = p::read_ready(*parsed);
    if (!ready && !valid_utf8(ready.error())) return "a non-UTF-8 read_ready error";
    auto action = p::read_action(*parsed, 3, 16);
    if (!action && !valid_utf8(action.error())) return "a non-UTF-8 read_action error";
    if (action && (action->debug.size() > 16 || !valid_utf8(action->debug))) return "a debug text not cut properly";
    (void)p::to_line(*parsed);
    return "";
  } catch (const std::exception& e) {
    return fmt::format("exception: {}", e.what());
  } catch (...) {
    return "an unknown exception";
  }
}

std::vector<std::string> seed_lines() {
  std::vector<std::string> lines = {
      R"({"type":"action","protocol":1,"id":3,"action":{"kind":"take","slot":2}})",
      R"({"type":"action","protocol":1,"id":3,"action":{"kind":"play","card":42,"area":"telescope","slot":4,"face":"down"},"debug":"\u2192 ok"})",
      R"({"type":"ready","protocol":1,"name":"fuzz","version":"1"})",
      R"({"type":"action","protocol":1,"id":3,"action":{"kind":"keep","card":17},"debug":"0123456789abcdefghij\u00e9\u00e9"})",
  };
  // The bot lines of the example transcripts too.
  for (const auto& f : transcript_files()) {
    for (const auto& text : read_lines(f)) {
      const json entry = json::parse(text);
      if (entry.value("dir", "") == "from_bot") lines.push_back(p::to_line(entry.at("line")));
    }
  }
  return lines;
}

}  // namespace

TEST_CASE("random byte strings never make the codec throw", "[protocol][fuzz]") {
  Rng rng(20240601);
  const std::string alphabet = "{}[]\":,0123456789.eE-+ tfnrulas\\\"typeidactionprotocolx";
  std::vector<std::string> problems;
  for (int i = 0; i < 5000; ++i) {
    std::string line;
    const auto length = rng.below(120);
    for (std::uint64_t k = 0; k < length; ++k) {
      line += rng.below(4) == 0 ? static_cast<char>(rng.below(256)) : alphabet[rng.below(alphabet.size())];
    }
    if (auto problem = exercise(line); !problem.empty()) problems.push_back(p::escape_bytes(line) + ": " + problem);
  }
  CHECK(problems == std::vector<std::string>{});
}

TEST_CASE("mutated valid lines never make the codec throw", "[protocol][fuzz]") {
  Rng rng(7);
  const auto seeds = seed_lines();
  const std::vector<std::string> splices = {"\xff",
                                            "\xc0\xaf",
                                            "\xed\xa0\x80",
                                            "1e999",
                                            "-1e999",
                                            "1234567890123456789012345678901234567890",
                                            "18446744073709551616",
                                            "\"id\":3,",
                                            "\"type\":\"ready\",",
                                            "[[[[[[[[",
                                            "}}}}",
                                            "\\ud800",
                                            "\\u0000",
                                            "null",
                                            std::string(1, '\0'),
                                            "\"debug\":\"",
                                            ",,",
                                            "NaN"};
  std::vector<std::string> problems;
  int accepted = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string line = seeds[rng.below(seeds.size())];
    const auto mutations = 1 + rng.below(3);
    for (std::uint64_t m = 0; m < mutations && !line.empty(); ++m) {
      const auto at = rng.below(line.size());
      switch (rng.below(6)) {
        case 0:
          line[at] = static_cast<char>(rng.below(256));
          break;
        case 1:
          line.erase(at, 1 + rng.below(8));
          break;
        case 2:
          line.insert(at, splices[rng.below(splices.size())]);
          break;
        case 3:
          line.resize(at);
          break;  // truncated
        case 4:
          line.insert(at, line.substr(at, rng.below(40)));
          break;  // a duplicated stretch
        default:
          std::swap(line[at], line[rng.below(line.size())]);
          break;
      }
    }
    if (auto problem = exercise(line); !problem.empty()) problems.push_back(p::escape_bytes(line) + ": " + problem);
    if (auto parsed = p::parse_line(line); parsed && p::read_action(*parsed, 3, 16)) ++accepted;
  }
  CHECK(problems == std::vector<std::string>{});
  CHECK(accepted > 0);  // the loop does reach read_action with good lines too
}

TEST_CASE("400,000 levels of nesting are refused, not recursed into", "[protocol][limits]") {
  const std::size_t n = 400000;
  const p::ParseLimits roomy{64, 8u << 20};
  SECTION("arrays") {
    const std::string line = "{\"a\":" + std::string(n, '[') + std::string(n, ']') + "}";
    Result<json> r = fail(std::string("not run"));
    REQUIRE_NOTHROW(r = p::parse_line(line, roomy));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error() == "nesting deeper than 64");
    // Under the default limits the size alone refuses it.
    auto by_size = p::parse_line(line);
    REQUIRE_FALSE(by_size.ok());
    CHECK(by_size.error() == fmt::format("line of {} bytes exceeds the limit of 65536", line.size()));
  }
  SECTION("objects") {
    std::string line;
    for (std::size_t i = 0; i < n; ++i) line += "{\"a\":";
    line += "1" + std::string(n, '}');
    Result<json> r = fail(std::string("not run"));
    REQUIRE_NOTHROW(r = p::parse_line(line, roomy));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error() == "nesting deeper than 64");
  }
  SECTION("never closed") {
    Result<json> r = fail(std::string("not run"));
    REQUIRE_NOTHROW(r = p::parse_line(std::string(n, '['), roomy));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error() == "nesting deeper than 64");
  }
  SECTION("the limit is exact: 64 levels pass, 65 do not") {
    auto nested = [](std::size_t levels) {  // the message object is level 1
      return "{\"a\":" + std::string(levels - 1, '[') + "1" + std::string(levels - 1, ']') + "}";
    };
    CHECK(p::parse_line(nested(64)).ok());
    CHECK(p::parse_line(std::string(63, '[').insert(0, "{\"a\":") + std::string(63, ']') + "}").ok());
    auto too_deep = p::parse_line(nested(65));
    REQUIRE_FALSE(too_deep.ok());
    CHECK(too_deep.error() == "nesting deeper than 64");
    // Empty containers count as well.
    CHECK_FALSE(p::parse_line("{\"a\":" + std::string(64, '[') + std::string(64, ']') + "}").ok());
  }
}

TEST_CASE("a debug text longer than the cap is cut on a UTF-8 boundary", "[protocol][limits]") {
  // 1-, 2-, 3- and 4-byte characters, so that every cap lands inside some character.
  const std::string text = "a\u00e9\u2192\U0001F680b\u00e9\u2192\U0001F680c\u00e9\u2192\U0001F680";
  for (std::size_t cap = 0; cap <= text.size() + 1; ++cap) {
    INFO("cap " << cap);
    const json message = {{"type", "action"}, {"protocol", 1}, {"id", 5}, {"action", json::object()}, {"debug", text}};
    auto parsed = p::parse_line(p::to_line(message));
    REQUIRE(parsed.ok());
    auto reply = p::read_action(*parsed, 5, cap);
    REQUIRE(reply.ok());
    CHECK(reply->debug.size() <= cap);
    CHECK(reply->debug.size() + 4 > std::min(cap, text.size()));  // at most one character lost
    CHECK(text.compare(0, reply->debug.size(), reply->debug) == 0);
    CHECK(valid_utf8(reply->debug));
    CHECK(reply->debug_cut == (text.size() > cap));
  }
  SECTION("the default cap, 4096 bytes") {
    std::string long_text;
    while (long_text.size() < 5000) long_text += "\u2192";  // 3 bytes: 4096 is not a boundary
    const json message = {
        {"type", "action"}, {"protocol", 1}, {"id", 1}, {"action", json::object()}, {"debug", long_text}};
    auto reply = p::read_action(*p::parse_line(p::to_line(message)), 1, p::Limits{}.max_debug_bytes);
    REQUIRE(reply.ok());
    CHECK(reply->debug.size() == 4095);
    CHECK(reply->debug_cut);
    CHECK(valid_utf8(reply->debug));
  }
}

TEST_CASE("to_line never throws on invalid UTF-8 inside strings", "[protocol][utf8]") {
  const std::vector<std::string> bad = {
      "\xff", "caf\xe9", "\xc0\xaf", "\xed\xa0\x80", "\xe2\x86", std::string("a\0b", 3), "\xf4\x90\x80\x80"};
  for (const auto& s : bad) {
    INFO(p::escape_bytes(s));
    const json message = {{"type", "action"}, {"debug", s}, {s, {s, 1, {{"k", s}}}}};
    std::string line;
    REQUIRE_NOTHROW(line = p::to_line(message));
    CHECK(valid_utf8(line));
    CHECK(line.find('\n') == std::string::npos);
    CHECK(p::parse_line(line).ok());  // what the referee writes, it can read back
  }
  CHECK(p::to_line(json("caf\xe9")) == "\"caf\xef\xbf\xbd\"");  // U+FFFD replaces the byte
}

TEST_CASE("escape_bytes output is printable ASCII", "[protocol][utf8]") {
  std::string all;
  for (int c = 0; c < 256; ++c) all += static_cast<char>(c);
  const std::string escaped = p::escape_bytes(all, 1000);
  CHECK(printable_ascii(escaped));
  CHECK(escaped.find("\\x00") != std::string::npos);
  CHECK(escaped.find("\\xff") != std::string::npos);
  CHECK(escaped.find("\\n") != std::string::npos);
  CHECK(p::escape_bytes("a\\xff") == "a\\\\xff");  // a literal backslash cannot pass for an escape
  CHECK(p::escape_bytes("caf\xe9") == "caf\\xe9");
  CHECK(p::escape_bytes(std::string(600, 'z')) == std::string(512, 'z') + "... (88 more bytes)");
  CHECK(p::escape_bytes("abcdef", 3) == "abc... (3 more bytes)");
  Rng rng(99);
  for (int i = 0; i < 2000; ++i) {
    std::string s;
    for (std::uint64_t k = rng.below(64); k > 0; --k) s += static_cast<char>(rng.below(256));
    const std::string e = p::escape_bytes(s, rng.below(80));
    if (!printable_ascii(e)) FAIL(e);
  }
}

TEST_CASE("the codec's messages are one line and build what the docs show", "[protocol][messages]") {
  const p::Limits limits;
  const json hello = p::hello("stellar", 1, 2, {{"facedown_step3", "three"}}, limits);
  CHECK(
      p::to_line(hello) ==
      R"({"config":{"facedown_step3":"three"},"game":"stellar","limits":{"decision_ms":1000,"init_ms":10000,)"
      R"("max_debug_bytes":4096,"max_line_bytes":65536,"time_bank_ms":0},"protocol":1,"protocols":[1,2],"seat":1,"seats":2,)"
      R"("type":"hello"})");
  const json request = p::request(9, 0, {{"text", "a\nb"}}, json::array({{{"kind", "take"}, {"slot", 1}}}), 1500, 500);
  const std::string line = p::to_line(request);
  CHECK(line.find('\n') == std::string::npos);  // a newline inside a string is escaped
  CHECK(
      line ==
      R"({"bank_ms":500,"id":9,"legal":[{"kind":"take","slot":1}],"protocol":1,"seat":0,"time_left_ms":1500,"type":"request","view":{"text":"a\nb"}})");
  CHECK(p::to_line(p::game_over({{"end", "interrupted"}})) ==
        R"({"protocol":1,"result":{"end":"interrupted"},"type":"game_over"})");
}

TEST_CASE("request_line builds exactly the line to_line(request(...)) builds", "[protocol]") {
  // The match writes the view and the legal list as text straight from the state and composes
  // the request line from them; it must be byte for byte the documented message, in both
  // protocol versions, for every game, seat and phase.
  for (const arena::games::Game* game : arena::games::all_games()) {
    for (int seats = game->info().min_seats; seats <= game->info().max_seats; ++seats) {
      auto state = std::move(game->new_game(nullptr, 99, seats)).value();
      arena::Rng chooser(7);
      for (std::int64_t id = 1; !state->is_over() && id < 400; ++id) {
        const int seat = state->to_act();
        const json legal = state->legal_actions();
        std::string legal_text, view_text;
        state->write_legal(legal_text);
        state->write_view_v2(seat, view_text);
        const std::int64_t left = 1000 + id, bank = id % 3 == 0 ? 0 : 250;
        CHECK(p::request_line(1, id, seat, p::to_line(state->view(seat)), legal_text, left, bank) ==
              p::to_line(p::request(id, seat, state->view(seat), legal, left, bank, 1)));
        CHECK(p::request_line(2, id, seat, view_text, legal_text, left, bank) ==
              p::to_line(p::request(id, seat, state->view_v2(seat), legal, left, bank, 2)));
        state->apply_index(static_cast<std::size_t>(chooser.below(state->legal_count())));
      }
    }
  }
}

}  // namespace arena::protocol_test
