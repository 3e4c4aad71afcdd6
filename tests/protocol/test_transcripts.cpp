// The example transcripts in protocol/transcripts/ are real: every line goes through the codec
// (parse_line, then read_ready / read_action for the bot's lines; the referee's lines must equal
// what hello() / request() / game_over() build), conforms to its JSON Schema, follows the
// lifecycle (hello, ready, request/action pairs, game_over), and the game engine, replayed from
// the header's seed and prefix, agrees with every view, legal list, action and result.

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <map>
#include <optional>
#include <set>

#include "protocol/codec.hpp"
#include "referee/games/game.hpp"
#include "tests/protocol/fixtures.hpp"
#include "tests/protocol/schema_check.hpp"

namespace arena::protocol_test {

namespace {

namespace p = arena::protocol;

p::Limits limits_from(const json& j) {
  p::Limits l;
  l.init_ms = j.at("init_ms").get<std::int64_t>();
  l.decision_ms = j.at("decision_ms").get<std::int64_t>();
  l.time_bank_ms = j.at("time_bank_ms").get<std::int64_t>();
  l.max_line_bytes = j.at("max_line_bytes").get<std::size_t>();
  l.max_debug_bytes = j.at("max_debug_bytes").get<std::size_t>();
  return l;
}

// What the transcript has told us about one seat so far.
struct SeatLog {
  bool hello = false;
  bool ready = false;
  bool over = false;
  std::optional<std::int64_t> pending;  // the id of a request not answered yet
  json legal;                           // of the pending request
  int version = 1;                      // the protocol version the seat chose in its ready
};

// A bot line whose note says the referee refuses it (the transcript's example of a fault).
bool fault_expected(const json& entry) {
  return entry.value("note", "").rfind("refused:", 0) == 0;
}

std::string conforms(const std::string& type, const json& message, bool closed) {
  std::string out;
  for (const auto& e : check_schema(schema_for(type), message, closed)) out += e + "\n";
  return out;
}

void check_transcript(const std::filesystem::path& path) {
  const auto lines = read_lines(path);
  REQUIRE(lines.size() >= 2);
  const p::ParseLimits fixture_limits{64, 1 << 20};

  auto header_parsed = p::parse_line(lines[0], fixture_limits);
  REQUIRE(header_parsed.ok());
  const json header = header_parsed->at("transcript");
  const auto* game = games::find_game(header.at("game").get<std::string>());
  REQUIRE(game != nullptr);
  const int seats = header.at("seats").get<int>();

  std::vector<json> entries;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    INFO("line " << i + 1);
    auto entry = p::parse_line(lines[i], fixture_limits);
    REQUIRE(entry.ok());
    for (const auto& [key, value] : entry->items()) {
      CHECK((key == "seat" || key == "dir" || key == "line" || key == "note"));
    }
    REQUIRE(entry->at("seat").is_number_integer());
    REQUIRE(entry->at("line").is_object());
    REQUIRE((entry->at("dir") == "to_bot" || entry->at("dir") == "from_bot"));
    if (entry->contains("note")) CHECK(entry->at("note").is_string());
    entries.push_back(std::move(entry).value());
  }

  // The game as the referee had it: config from the hello, then the left-out decisions.
  const json& first = entries.front().at("line");
  REQUIRE(first.at("type") == "hello");
  const json config = first.at("config");
  const p::Limits limits = limits_from(first.at("limits"));
  auto normalized = game->normalize_config(config);
  REQUIRE(normalized.ok());
  CHECK(*normalized == config);  // hello carries the canonical form
  auto created = game->new_game(config, header.at("seed").get<std::uint64_t>(), seats);
  REQUIRE(created.ok());
  std::unique_ptr<games::GameState> state = std::move(created).value();
  std::int64_t last_id = 0;
  for (const auto& index : header.at("prefix")) {
    REQUIRE(index.get<std::size_t>() < state->legal_count());
    state->apply_index(index.get<std::size_t>());
    ++last_id;
  }

  std::vector<SeatLog> log(static_cast<std::size_t>(seats));
  std::optional<json> fault;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const json& entry = entries[i];
    const int seat = entry.at("seat").get<int>();
    REQUIRE(seat >= 0);
    REQUIRE(seat < seats);
    SeatLog& s = log[static_cast<std::size_t>(seat)];
    const json& message = entry.at("line");
    const std::string type = message.value("type", "");
    const std::string line = p::to_line(message);
    INFO(path.filename().string() << " line " << i + 2 << ": seat " << seat << " " << entry.at("dir") << " " << type);
    REQUIRE_FALSE(s.over);

    // Whoever wrote it, the line passes the codec under the limits of the match.
    auto parsed = p::parse_line(line, {64, limits.max_line_bytes});
    REQUIRE(parsed.ok());
    CHECK(*parsed == message);

    if (entry.at("dir") == "to_bot") {
      REQUIRE((type == "hello" || type == "request" || type == "game_over"));
      CHECK(conforms(type, message, /*closed=*/true) == "");
      if (type == "hello") {
        REQUIRE_FALSE(s.hello);
        s.hello = true;
        const json cards = games::seat_card_table(game->protocol_card_table(config, {}), seat);
        const json built = p::hello(header.at("game").get<std::string>(), seat, seats, config, limits, cards);
        CHECK(built == message);
        CHECK(p::to_line(built) == line);
      } else if (type == "request") {
        REQUIRE(s.ready);
        REQUIRE_FALSE(s.pending);
        REQUIRE_FALSE(state->is_over());
        CHECK(state->to_act() == seat);
        const auto id = message.at("id").get<std::int64_t>();
        CHECK(id == last_id + 1);  // ids count every decision of the match
        last_id = id;
        const json view = s.version >= 2 ? state->view_v2(seat) : state->view(seat);
        CHECK(message.at("protocol") == s.version);
        CHECK(message.at("view") == view);
        CHECK(message.at("legal") == json(state->legal_actions()));
        const auto left = message.at("time_left_ms").get<std::int64_t>();
        const auto bank = message.at("bank_ms").get<std::int64_t>();
        CHECK(left == limits.decision_ms + bank);
        CHECK(bank <= limits.time_bank_ms);
        const json built = p::request(id, seat, view, json(state->legal_actions()), left, bank, s.version);
        CHECK(built == message);
        CHECK(p::to_line(built) == line);
        s.pending = id;
        s.legal = message.at("legal");
      } else {
        const json& result = message.at("result");
        CHECK(p::game_over(result, s.version) == message);
        CHECK(p::to_line(p::game_over(result, s.version)) == line);
        s.over = true;
        if (result.at("end") == "finished") {
          REQUIRE(state->is_over());
          CHECK(result.at("scores") == json(state->scores()));
          CHECK(result.at("outcome") == state->outcome());
          CHECK(result.at("fault").is_null());
        } else if (result.at("end") == "fault") {
          fault = result.at("fault");
          const int offender = fault->at("seat").get<int>();
          CHECK(offender != seat);  // the offender gets no game_over
          const SeatLog& o = log[static_cast<std::size_t>(offender)];
          CHECK(fault->at("request_id") == json(o.pending.value_or(0)));
          CHECK(result.at("winner") != json(offender));
          CHECK(result.at("ranks").at(static_cast<std::size_t>(offender)) == seats);
        }
      }
    } else {
      CHECK(conforms(type, message, /*closed=*/false) == "");
      if (!s.ready) {
        REQUIRE(s.hello);
        auto ready = p::read_ready(*parsed);
        REQUIRE(ready.ok());
        CHECK(ready->name == message.at("name"));
        s.version = ready->protocol;
        s.ready = true;
      } else {
        REQUIRE(s.pending);
        auto reply = p::read_action(*parsed, *s.pending, limits.max_debug_bytes, s.version);
        INFO((reply.ok() ? std::string() : reply.error()));
        if (fault_expected(entry)) {
          // A line the transcript shows being refused: the codec refuses it, the match ends.
          CHECK_FALSE(reply.ok());
          continue;
        }
        REQUIRE(reply.ok());
        CHECK(reply->id == *s.pending);
        CHECK(reply->debug == message.value("debug", ""));
        CHECK_FALSE(reply->debug_cut);
        const auto& legal = s.legal;
        CHECK(std::find(legal.begin(), legal.end(), reply->action) != legal.end());
        const auto applied = state->apply(reply->action);
        INFO((applied.ok() ? std::string() : applied.error()));
        REQUIRE(applied.ok());
        s.pending.reset();
      }
    }
  }
  // Everyone but an offender got game_over; with no fault the game is over.
  for (int seat = 0; seat < seats; ++seat) {
    const bool offender = fault && fault->at("seat") == seat;
    INFO("seat " << seat);
    CHECK(log[static_cast<std::size_t>(seat)].over == !offender);
  }
  if (!fault) CHECK(state->is_over());
}

}  // namespace

TEST_CASE("the example transcripts exist and cover the lifecycle", "[protocol][transcripts]") {
  const auto files = transcript_files();
  REQUIRE(files.size() >= 2);
  std::set<std::string> types;
  bool debug = false;
  std::set<std::string> ends;
  for (const auto& f : files) {
    const auto lines = read_lines(f);
    for (std::size_t i = 1; i < lines.size(); ++i) {
      const json entry = json::parse(lines[i]);
      types.insert(entry.at("line").value("type", ""));
      debug = debug || entry.at("line").contains("debug");
      if (entry.at("line").value("type", "") == "game_over") ends.insert(entry.at("line").at("result").at("end"));
    }
  }
  CHECK(types == std::set<std::string>{"hello", "ready", "request", "action", "game_over"});
  CHECK(debug);
  CHECK(ends.contains("finished"));
  CHECK(ends.contains("fault"));
}

TEST_CASE("every example transcript passes the codec, the schemas and the engine", "[protocol][transcripts]") {
  for (const auto& f : transcript_files()) {
    SECTION(f.filename().string()) {
      check_transcript(f);
    }
  }
}

TEST_CASE("the schemas use only the checked keywords and describe the open objects", "[protocol][schema]") {
  for (const char* type : {"hello", "ready", "request", "action", "game_over"}) {
    INFO(type);
    const json& schema = schema_for(type);
    CHECK(schema.at("$schema") == "https://json-schema.org/draft/2020-12/schema");
    CHECK(schema.at("properties").at("type").at("const") == type);
    // hello always says version 1; the other messages carry the version the seat chose (1 or 2).
    const json& protocol = schema.at("properties").at("protocol");
    const json versions = protocol.contains("const") ? json::array({protocol.at("const")}) : protocol.at("enum");
    CHECK(std::find(versions.begin(), versions.end(), json(p::kVersion)) != versions.end());
    CHECK(versions == (std::string(type) == "hello" ? json::array({1}) : json::array({1, 2})));
    // A schema validated against an empty object reports only missing fields (no unsupported keyword).
    for (const auto& e : check_schema(schema, json::object()))
      CHECK(e.find("missing required field") != std::string::npos);
    // The bot's messages are closed, as the codec refuses unknown fields.
    const bool from_bot = std::string(type) == "ready" || std::string(type) == "action";
    CHECK(schema.contains("additionalProperties") == from_bot);
  }
  // Version 2's ready: "reuse" is a boolean, and only in a version-2 ready (the codec refuses it as
  // an unknown field in a version-1 ready); other versions are refused.
  const json ready = {{"type", "ready"}, {"protocol", 2}, {"name", "bot"}, {"reuse", true}};
  CHECK(check_schema(schema_for("ready"), ready).empty());
  const auto with = [&](const char* key, json value) {
    json changed = ready;
    changed[key] = std::move(value);
    return changed;
  };
  for (const json& bad : {with("protocol", 1), with("reuse", "yes"), with("protocol", 3), with("protocol", 2.0)}) {
    INFO(bad.dump());
    CHECK_FALSE(check_schema(schema_for("ready"), bad).empty());
  }
  CHECK(check_schema(schema_for("ready"), {{"type", "ready"}, {"protocol", 1}, {"name", "bot"}}).empty());
  // Game-specific parts are open objects that point to docs/games/<game>.md.
  for (auto [type, field] : {std::pair{"hello", "config"}, {"request", "view"}, {"action", "action"}}) {
    const json& sub = schema_for(type).at("properties").at(field);
    CHECK(sub.at("type") == "object");
    CHECK_FALSE(sub.contains("properties"));
    CHECK(sub.at("description").get<std::string>().find("docs/games/") != std::string::npos);
  }
}

TEST_CASE("a whole game of every registered game goes through the codec and the schemas", "[protocol][transcripts]") {
  for (const games::Game* game : games::all_games()) {
    for (std::uint64_t seed : {1u, 2u, 3u}) {
      const int seats = game->info().min_seats;
      INFO(game->info().name << " seed " << seed);
      auto state = std::move(game->new_game(nullptr, seed, seats)).value();
      Rng rng(seed);
      std::int64_t id = 0;
      std::size_t longest = 0;
      std::string problems;
      while (!state->is_over()) {
        ++id;
        const int seat = state->to_act();
        const json request = p::request(id, seat, state->view(seat), json(state->legal_actions()), 1000, 0);
        const std::string line = p::to_line(request);
        longest = std::max(longest, line.size());
        auto parsed = p::parse_line(line);
        if (!parsed || *parsed != request) problems += fmt::format("request {} does not round-trip\n", id);
        for (const auto& e : check_schema(schema_for("request"), request, true)) problems += e + "\n";
        const json chosen = request.at("legal").at(rng.below(request.at("legal").size()));
        const json reply = {{"type", "action"}, {"protocol", 1}, {"id", id}, {"action", chosen}};
        for (const auto& e : check_schema(schema_for("action"), reply)) problems += e + "\n";
        auto back = p::parse_line(p::to_line(reply));
        auto read = back ? p::read_action(*back, id, 4096) : Result<p::ActionReply>(fail(back.error()));
        if (!read) {
          problems += fmt::format("reply {}: {}\n", id, read.error());
          break;
        }
        if (auto st = state->apply(read->action); !st) {
          problems += fmt::format("reply {}: {}\n", id, st.error());
          break;
        }
      }
      CHECK(problems == "");
      CHECK(state->is_over());
      CHECK(longest < p::Limits{}.max_line_bytes);
      json result = {{"end", "finished"}, {"scores", state->scores()},
                     {"winner", nullptr}, {"ranks", std::vector<int>(static_cast<std::size_t>(seats), 1)},
                     {"fault", nullptr},  {"outcome", state->outcome()}};
      CHECK(conforms("game_over", p::game_over(result), true) == "");
    }
  }
}

TEST_CASE("game_over results of every kind conform to the schema", "[protocol][schema]") {
  const json fault = {{"end", "fault"},
                      {"scores", nullptr},
                      {"winner", 1},
                      {"ranks", {2, 1}},
                      {"outcome", nullptr},
                      {"fault", {{"seat", 0}, {"kind", "illegal"}, {"request_id", 7}, {"message", "illegal action"}}}};
  const json interrupted = {
      {"end", "interrupted"}, {"scores", nullptr}, {"winner", nullptr}, {"fault", nullptr}, {"outcome", nullptr}};
  CHECK(conforms("game_over", p::game_over(fault), true) == "");
  CHECK(conforms("game_over", p::game_over(interrupted), true) == "");
  json bad = fault;
  bad["fault"]["kind"] = "slow";
  CHECK(conforms("game_over", p::game_over(bad), true) != "");
  bad = interrupted;
  bad["end"] = "abandoned";
  CHECK(conforms("game_over", p::game_over(bad), true) != "");
  // The referee's messages may not carry a field their schema does not declare.
  json extra = p::game_over(interrupted);
  extra["seed"] = 42;
  CHECK(conforms("game_over", extra, true) != "");
  CHECK(conforms("game_over", extra, false) == "");  // ... but to a bot, unknown fields are allowed
  CHECK(conforms("hello", p::hello(games::default_game_name(), 0, 2, json::object(), p::Limits{}), true) == "");
}

}  // namespace arena::protocol_test
