#include "protocol/codec.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <vector>

#include "referee/core/bounds.hpp"
#include "referee/core/markup.hpp"

namespace arena::protocol {

namespace {

// Thrown only inside parse_line's callback, caught there.
struct Refused {
  std::string reason;
};

// `version`: the one the message must carry; 0 = any version this referee speaks.
Status check_header(const json& m, const char* expected_type, int version) {
  auto type = m.find("type");
  if (type == m.end() || !type->is_string()) return fail(std::string("the message has no \"type\" string"));
  if (*type != expected_type) {
    return fail(fmt::format("expected type \"{}\", got {}", expected_type, to_line(*type)));
  }
  auto given = m.find("protocol");
  if (given == m.end()) return fail(std::string("the message has no \"protocol\" version"));
  const bool known = given->is_number_integer() && *given >= 1 && *given <= kLatestVersion;
  if (!known) {
    return fail(
        fmt::format("protocol {} is not supported (this referee speaks 1 and {})", to_line(*given), kLatestVersion));
  }
  if (version != 0 && *given != version) {
    return fail(
        fmt::format("protocol {} in an action, but the bot chose protocol {} in its ready", to_line(*given), version));
  }
  return {};
}

Status only_keys(const json& m, std::initializer_list<const char*> keys) {
  for (const auto& [key, value] : m.items()) {
    bool known = false;
    for (const char* k : keys) known = known || key == k;
    if (!known) return fail(fmt::format("unknown field \"{}\"", escape_bytes(key, 64)));
  }
  return {};
}

}  // namespace

Result<json> parse_line(std::string_view line, const ParseLimits& limits) {
  if (line.empty()) return fail(std::string("empty line"));
  if (line.size() > limits.max_bytes) {
    return fail(fmt::format("line of {} bytes exceeds the limit of {}", line.size(), limits.max_bytes));
  }
  // Duplicate keys are refused (nlohmann keeps the last silently); depth is capped before
  // anything recursive (dump, destruction) can run deep.
  // The keys seen so far in each open object (bot messages are small: a linear search is the
  // cheapest check, and the vectors are reused from one object to the next).
  std::vector<std::vector<std::string>> keys;
  std::size_t open = 0;
  auto callback = [&](int depth, json::parse_event_t event, json& parsed) -> bool {
    // A container opened at depth d is nesting level d + 1 (the message itself is level 1).
    const bool opens = event == json::parse_event_t::object_start || event == json::parse_event_t::array_start;
    if (opens && static_cast<std::size_t>(depth) >= limits.max_depth) {
      throw Refused{fmt::format("nesting deeper than {}", limits.max_depth)};
    }
    switch (event) {
      case json::parse_event_t::object_start:
        if (keys.size() == open) keys.emplace_back();
        keys[open++].clear();
        break;
      case json::parse_event_t::object_end:
        if (open > 0) --open;
        break;
      case json::parse_event_t::key: {
        if (open == 0) break;
        const auto& key = parsed.get_ref<const std::string&>();
        auto& seen = keys[open - 1];
        if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
          throw Refused{fmt::format("duplicate key \"{}\"", escape_bytes(key, 64))};
        }
        seen.push_back(key);
        break;
      }
      default:
        break;
    }
    return true;
  };
  try {
    json j = json::parse(line.begin(), line.end(), callback, /*allow_exceptions=*/true,
                         /*ignore_comments=*/false);
    if (!j.is_object()) return fail(std::string("a message must be a JSON object"));
    return j;
  } catch (const Refused& r) {
    return fail(r.reason);
  } catch (const json::exception& e) {
    // nlohmann quotes the offending bytes ("last read: ..."), which may be invalid UTF-8.
    return fail(fmt::format("invalid JSON: {}", escape_bytes(e.what())));
  }
}

std::string to_line(const json& message) {
  return message.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string escape_bytes(std::string_view bytes, std::size_t max_bytes) {
  const std::size_t n = std::min(bytes.size(), max_bytes);
  std::string out = visible_text(bytes.substr(0, n), Visible::ascii);
  if (bytes.size() > n) out += fmt::format("... ({} more bytes)", bytes.size() - n);
  return out;
}

json Limits::to_json() const {
  return {{"init_ms", init_ms},
          {"decision_ms", decision_ms},
          {"time_bank_ms", time_bank_ms},
          {"max_line_bytes", max_line_bytes},
          {"max_debug_bytes", max_debug_bytes}};
}

Status check_limits(const Limits& l, double time_scale) {
  auto whole = [](const char* key, auto value, const auto& range) -> Status {
    if (range.contains(value)) return {};
    return fail(bounds::out_of_range(key, std::to_string(value), range));
  };
  if (auto st = whole("init_ms", l.init_ms, bounds::kInitMs); !st) return st;
  if (auto st = whole("decision_ms", l.decision_ms, bounds::kDecisionMs); !st) return st;
  if (auto st = whole("time_bank_ms", l.time_bank_ms, bounds::kTimeBankMs); !st) return st;
  if (auto st = whole("max_line_bytes", std::uint64_t{l.max_line_bytes}, bounds::kMaxLineBytes); !st) return st;
  if (auto st = whole("max_debug_bytes", std::uint64_t{l.max_debug_bytes}, bounds::kMaxDebugBytes); !st) return st;
  if (!bounds::kTimeScale.contains(time_scale))
    return fail(bounds::out_of_range("time_scale", fmt::format("{}", time_scale), bounds::kTimeScale));
  return {};
}

std::int64_t scaled_ms(std::int64_t ms, double time_scale) {
  const double x = static_cast<double>(ms) * time_scale + 0.5;
  if (!(x > 0)) return 0;  // also NaN
  constexpr auto max = bounds::kMaxScaledMs;
  return x >= static_cast<double>(max) ? max : static_cast<std::int64_t>(x);
}

Limits scaled(const Limits& limits, double time_scale) {
  Limits l = limits;
  l.init_ms = scaled_ms(limits.init_ms, time_scale);
  l.decision_ms = scaled_ms(limits.decision_ms, time_scale);
  l.time_bank_ms = scaled_ms(limits.time_bank_ms, time_scale);
  return l;
}

json hello(const std::string& game, int seat, int seats, const json& config, const Limits& limits, const json& cards) {
  json versions = json::array();
  for (int v = 1; v <= kLatestVersion; ++v) versions.push_back(v);
  json h = {
      {"type", "hello"}, {"protocol", kVersion}, {"protocols", std::move(versions)}, {"game", game}, {"seat", seat},
      {"seats", seats},  {"config", config},     {"limits", limits.to_json()}};
  if (!cards.is_null()) h["cards"] = cards;
  return h;
}

json request(std::int64_t id, int seat, const json& view, const json& legal, std::int64_t time_left_ms,
             std::int64_t bank_ms, int version) {
  return {{"type", "request"}, {"protocol", version},          {"id", id},          {"seat", seat}, {"view", view},
          {"legal", legal},    {"time_left_ms", time_left_ms}, {"bank_ms", bank_ms}};
}

std::string request_line(int version, std::int64_t id, int seat, std::string_view view_line,
                         std::string_view legal_line, std::int64_t time_left_ms, std::int64_t bank_ms, bool view_delta,
                         std::string_view removed_line) {
  // Keys in the order nlohmann's dump writes them (sorted), so both forms are identical.
  std::string line;
  line.reserve(view_line.size() + legal_line.size() + removed_line.size() + 128);
  fmt::format_to(std::back_inserter(line), R"({{"bank_ms":{},"id":{},"legal":)", bank_ms, id);
  line.append(legal_line);
  fmt::format_to(std::back_inserter(line), R"(,"protocol":{},"seat":{},"time_left_ms":{},"type":"request",)", version,
                 seat, time_left_ms);
  line.append(view_delta ? R"("view_delta":)" : R"("view":)").append(view_line);
  if (!removed_line.empty()) line.append(R"(,"view_removed":)").append(removed_line);
  line.push_back('}');
  return line;
}

json game_over(const json& result, int version) {
  return {{"type", "game_over"}, {"protocol", version}, {"result", result}};
}

namespace {

constexpr std::size_t kMaxGamesListed = 64;
constexpr std::size_t kMaxGameName = 64;
constexpr int kMaxSeatsListed = 64;

// ready.games: ["stellar", {"name": "stella_quest", "seats": [3, 4]}, ...].
Result<std::vector<GameSupport>> read_games(const json& list) {
  if (!list.is_array() || list.empty() || list.size() > kMaxGamesListed)
    return fail(fmt::format("\"games\" must be an array of 1 to {} games", kMaxGamesListed));
  std::vector<GameSupport> games;
  for (const json& entry : list) {
    GameSupport g;
    const json* name = &entry;
    if (entry.is_object()) {
      if (auto st = only_keys(entry, {"name", "seats"}); !st) return fail("\"games\": " + st.error());
      const auto it = entry.find("name");
      if (it == entry.end()) return fail(std::string("\"games\": a game without \"name\""));
      name = &*it;
      if (const auto seats = entry.find("seats"); seats != entry.end()) {
        if (!seats->is_array() || seats->empty() || seats->size() > static_cast<std::size_t>(kMaxSeatsListed))
          return fail(fmt::format("\"games\": \"seats\" must be an array of 1 to {} seat counts", kMaxSeatsListed));
        for (const json& n : *seats) {
          if (!n.is_number_integer() || n.get<std::int64_t>() < 1 || n.get<std::int64_t>() > kMaxSeatsListed)
            return fail(fmt::format("\"games\": a seat count must be a whole number in 1..{}, not {}", kMaxSeatsListed,
                                    to_line(n)));
          g.seats.push_back(n.get<int>());
        }
      }
    }
    if (!name->is_string() || name->get<std::string>().empty() || name->get<std::string>().size() > kMaxGameName)
      return fail(fmt::format("\"games\": a game is a name of 1 to {} bytes or {{\"name\", \"seats\"}}, not {}",
                              kMaxGameName, to_line(*name)));
    g.name = name->get<std::string>();
    games.push_back(std::move(g));
  }
  return games;
}

}  // namespace

Status check_plays(const Ready& ready, std::string_view game, int seats) {
  if (!ready.games) return {};
  for (const GameSupport& g : *ready.games) {
    if (g.name == game && (g.seats.empty() || std::find(g.seats.begin(), g.seats.end(), seats) != g.seats.end()))
      return {};
  }
  std::vector<std::string> listed;
  for (const GameSupport& g : *ready.games) {
    listed.push_back(g.seats.empty() ? fmt::format("{} (any seats)", g.name)
                                     : fmt::format("{} ({} seats)", g.name, fmt::join(g.seats, " or ")));
  }
  return fail(fmt::format("does not play {} with {} seats: it lists {}", game, seats, fmt::join(listed, ", ")));
}

Result<Ready> read_ready(const json& m) {
  if (auto st = check_header(m, "ready", 0); !st) return fail(st.error());
  Ready ready;
  ready.protocol = m.at("protocol").get<int>();
  // "reuse" exists from version 2 on: in a version-1 ready it is an unknown field, as before.
  if (ready.protocol >= 2) {
    if (auto st = only_keys(m, {"type", "protocol", "name", "version", "reuse", "view_delta", "games"}); !st) {
      return fail(st.error());
    }
  } else if (auto st = only_keys(m, {"type", "protocol", "name", "version"}); !st) {
    return fail(st.error());
  }
  if (auto reuse = m.find("reuse"); reuse != m.end()) {
    if (!reuse->is_boolean()) return fail(std::string("\"reuse\" must be true or false"));
    ready.reuse = reuse->get<bool>();
  }
  if (auto delta = m.find("view_delta"); delta != m.end()) {
    if (!delta->is_boolean()) return fail(std::string("\"view_delta\" must be true or false"));
    ready.view_delta = delta->get<bool>();
  }
  if (auto games = m.find("games"); games != m.end()) {
    auto listed = read_games(*games);
    if (!listed) return fail(listed.error());
    ready.games = std::move(listed).value();
  }
  auto name = m.find("name");
  if (name == m.end() || !name->is_string() || name->get<std::string>().empty() ||
      name->get<std::string>().size() > 64) {
    return fail(std::string("\"name\" must be a string of 1 to 64 bytes"));
  }
  ready.name = name->get<std::string>();
  if (auto v = m.find("version"); v != m.end()) {
    if (!v->is_string() || v->get<std::string>().size() > 64) {
      return fail(std::string("\"version\" must be a string of at most 64 bytes"));
    }
    ready.version = v->get<std::string>();
  }
  return ready;
}

Result<ActionReply> read_action(const json& m, std::int64_t expected_id, std::size_t max_debug_bytes, int version) {
  if (auto st = check_header(m, "action", version); !st) return fail(st.error());
  if (auto st = only_keys(m, {"type", "protocol", "id", "action", "debug"}); !st) return fail(st.error());
  ActionReply reply;
  auto id = m.find("id");
  if (id == m.end() || !id->is_number_integer()) return fail(std::string("\"id\" must be an integer"));
  reply.id = id->get<std::int64_t>();
  if (reply.id != expected_id) {
    return fail(fmt::format("wrong request id {} (expected {})", to_line(*id), expected_id));
  }
  auto action = m.find("action");
  if (action == m.end()) return fail(std::string("no \"action\""));
  if (!action->is_object()) return fail(std::string("\"action\" must be a JSON object"));
  reply.action = *action;
  if (auto debug = m.find("debug"); debug != m.end()) {
    if (!debug->is_string()) return fail(std::string("\"debug\" must be a string"));
    reply.debug = debug->get<std::string>();
    if (reply.debug.size() > max_debug_bytes) {
      // Cut on a UTF-8 boundary.
      std::size_t cut = max_debug_bytes;
      while (cut > 0 && (static_cast<unsigned char>(reply.debug[cut]) & 0xC0) == 0x80) --cut;
      reply.debug.resize(cut);
      reply.debug_cut = true;
    }
  }
  return reply;
}

}  // namespace arena::protocol
