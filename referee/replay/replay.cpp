#include "referee/replay/replay.hpp"

#include <fmt/format.h>

#include <cassert>
#include <cstdint>
#include <sstream>

#include "referee/core/hash.hpp"
#include "referee/core/private_file.hpp"
#include "referee/core/version.hpp"
#include "referee/games/game.hpp"
#include "referee/replay/verify_result.hpp"

namespace arena::replay {

namespace {

constexpr int kMaxDepth = 256;

using games::dump_line;

// The most seats a replay may name; a game's own range is checked when it is re-simulated.
constexpr int kMaxSeats = 64;

// Typed reads of a line's fields: each checks the type and the range and names the field, so a
// forged or damaged replay is an error of the reader, never an exception past it.
Status wrong(const char* key, const json& value, std::string_view wanted) {
  const std::string shown = value.is_number() ? "the number " + value.dump() : std::string(value.type_name());
  return fail(fmt::format("\"{}\" has the wrong type ({}; expected {})", key, shown, wanted));
}

Status take(const char* key, const json& v, std::string& out) {
  if (!v.is_string()) return wrong(key, v, "a string");
  out = v.get_ref<const std::string&>();
  return {};
}

Status take(const char* key, const json& v, std::int64_t& out) {
  if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
    return wrong(key, v, "a whole number below 2^63");
  if (!v.is_number_integer()) return wrong(key, v, "a whole number");
  out = v.get<std::int64_t>();
  return {};
}

Status take(const char* key, const json& v, std::uint64_t& out) {
  if (!v.is_number_unsigned()) return wrong(key, v, "a whole number from 0");
  out = v.get<std::uint64_t>();
  return {};
}

Status take(const char* key, const json& v, int& out) {
  std::int64_t wide = 0;
  if (auto st = take(key, v, wide); !st) return st;
  if (wide < INT32_MIN || wide > INT32_MAX) return wrong(key, v, "a whole number of 32 bits");
  out = static_cast<int>(wide);
  return {};
}

Status take(const char* key, const json& v, bool& out) {
  if (!v.is_boolean()) return wrong(key, v, "true or false");
  out = v.get<bool>();
  return {};
}

Status take(const char* key, const json& v, double& out) {
  if (!v.is_number()) return wrong(key, v, "a number");
  out = v.get<double>();
  return {};
}

Status take(const char* key, const json& v, std::vector<std::string>& out) {
  if (!v.is_array()) return wrong(key, v, "an array of strings");
  for (const json& item : v) {
    if (!item.is_string()) return wrong(key, v, "an array of strings");
    out.push_back(item.get<std::string>());
  }
  return {};
}

// j[key] into `out`; an error when it is missing or of another type.
template <typename T>
Status read_field(const json& j, const char* key, T& out) {
  auto it = j.find(key);
  if (it == j.end()) return fail(fmt::format("missing \"{}\"", key));
  return take(key, *it, out);
}

// j[key] into `out` when present (`out` keeps its default otherwise); an error for another type.
template <typename T>
Status read_optional(const json& j, const char* key, T& out) {
  auto it = j.find(key);
  if (it == j.end()) return {};
  return take(key, *it, out);
}

// j[key] when present and an object (or null with `null_ok`); `out` keeps its default otherwise.
Status read_object(const json& j, const char* key, json& out, bool null_ok = false) {
  auto it = j.find(key);
  if (it == j.end() || (null_ok && it->is_null())) return {};
  if (!it->is_object()) return wrong(key, *it, "an object");
  out = *it;
  return {};
}

Status check_range(const char* key, std::int64_t value, std::int64_t low, std::int64_t high) {
  if (value < low || value > high) return fail(fmt::format("\"{}\" is {}, outside {}..{}", key, value, low, high));
  return {};
}

// Runs the checks in order; the first error.
template <typename... Checks>
Status first_error(Checks&&... checks) {
  Status result;
  ((result ? (void)(result = checks()) : (void)0), ...);
  return result;
}

Result<BotInfo> parse_bot(const json& b) {
  if (!b.is_object()) return fail(std::string("a \"bots\" entry is not an object"));
  BotInfo bot;
  if (auto st = first_error([&] { return read_optional(b, "name", bot.name); },
                            [&] { return read_optional(b, "version", bot.version); },
                            [&] { return read_optional(b, "command", bot.command); },
                            [&] { return read_optional(b, "protocol", bot.protocol); },
                            [&] { return read_optional(b, "view_delta", bot.view_delta); });
      !st)
    return fail(fmt::format("a \"bots\" entry: {}", st.error()));
  if (auto it = b.find("seat_config"); it != b.end()) bot.seat_config = *it;
  return bot;
}

Result<Header> parse_header(const json& j) {
  Header h;
  int version = 0;
  if (auto st = read_field(j, "replay_version", version); !st) return fail(st.error());
  if (version < kOldestReplayVersion || version > kReplayVersion) {
    return fail(fmt::format("replay version {} is not supported (this referee reads {} to {})", version,
                            kOldestReplayVersion, kReplayVersion));
  }
  h.config = j.value("config", json(nullptr));
  h.limits = json::object();
  if (auto st = first_error(
          [&] { return read_field(j, "protocol", h.protocol); }, [&] { return read_field(j, "game", h.game); },
          [&] { return read_optional(j, "referee_version", h.referee_version); },
          [&] { return read_optional(j, "rules_revision", h.rules_revision); },
          [&] { return read_field(j, "seed", h.seed); }, [&] { return read_field(j, "seats", h.seats); },
          [&] { return check_range("seats", h.seats, 1, kMaxSeats); },
          [&] { return read_field(j, "initial_hash", h.initial_hash); },
          [&] { return read_object(j, "limits", h.limits, true); },
          [&] { return read_optional(j, "started", h.started); },
          [&] { return read_object(j, "extra", h.extra, true); });
      !st)
    return fail(st.error());
  auto bots = j.find("bots");
  if (bots == j.end() || !bots->is_array()) return fail(std::string("missing \"bots\" array"));
  for (const json& b : *bots) {
    auto bot = parse_bot(b);
    if (!bot) return fail(bot.error());
    h.bots.push_back(std::move(bot).value());
  }
  return h;
}

Result<Step> parse_step(const json& j, const Header& h) {
  Step s;
  if (auto st = first_error(
          [&] { return read_field(j, "n", s.n); }, [&] { return check_range("n", s.n, 0, INT64_MAX); },
          [&] { return read_field(j, "seat", s.seat); }, [&] { return check_range("seat", s.seat, 0, h.seats - 1); },
          [&] { return read_field(j, "request_id", s.request_id); }, [&] { return read_field(j, "hash", s.hash); },
          [&] { return read_optional(j, "time_ms", s.time_ms); }, [&] { return read_optional(j, "cpu_ms", s.cpu_ms); },
          [&] { return read_optional(j, "view_hash", s.view_hash); },
          [&] { return read_optional(j, "debug", s.debug); },
          [&] { return read_optional(j, "stderr", s.stderr_lines); },
          [&] { return read_optional(j, "stderr_cut", s.stderr_cut); });
      !st)
    return fail(st.error());
  auto action = j.find("action");
  if (action == j.end()) return fail(std::string("missing \"action\""));
  s.action = *action;
  s.view = j.value("view", json(nullptr));
  return s;
}

// The footer's result: an object whose fields the readers of a result use have their types (a
// seat is a seat of the match).
Status check_result(const json& result, const Header& h) {
  if (!result.is_object()) return wrong("result", result, "an object");
  auto seat_or_null = [&](const char* key, const json& v) -> Status {
    if (v.is_null()) return {};
    int seat = 0;
    if (auto st = take(key, v, seat); !st) return st;
    return check_range(key, seat, 0, h.seats - 1);
  };
  if (auto it = result.find("scores"); it != result.end() && !it->is_null()) {
    if (!it->is_array()) return wrong("scores", *it, "an array of numbers");
    for (const json& x : *it)
      if (!x.is_number()) return wrong("scores", *it, "an array of numbers");
  }
  if (auto it = result.find("winner"); it != result.end())
    if (auto st = seat_or_null("winner", *it); !st) return st;
  if (auto it = result.find("ranks"); it != result.end() && !it->is_null()) {
    if (!it->is_array()) return wrong("ranks", *it, "an array of whole numbers");
    for (const json& x : *it) {
      std::int64_t rank = 0;
      if (auto st = take("ranks", x, rank); !st) return st;
    }
  }
  if (auto it = result.find("fault"); it != result.end() && !it->is_null()) {
    if (!it->is_object()) return wrong("fault", *it, "an object");
    std::int64_t request = 0;
    if (auto st = read_optional(*it, "request_id", request); !st) return st;
    if (auto seat = it->find("seat"); seat != it->end())
      if (auto st = seat_or_null("seat", *seat); !st) return st;
  }
  return {};
}

}  // namespace

std::vector<json> seat_configs(const Header& h) {
  std::vector<json> out;
  for (const BotInfo& b : h.bots) out.push_back(b.seat_config);
  return out;
}

json to_json(const Header& h) {
  json bots = json::array();
  for (const BotInfo& b : h.bots) {
    json bot = {{"name", b.name}, {"version", b.version}, {"command", b.command}, {"protocol", b.protocol}};
    if (!b.seat_config.is_null()) bot["seat_config"] = b.seat_config;
    if (b.view_delta) bot["view_delta"] = true;
    bots.push_back(std::move(bot));
  }
  return {{"type", "header"},       {"replay_version", kReplayVersion},
          {"protocol", h.protocol}, {"referee_version", h.referee_version},
          {"game", h.game},         {"rules_revision", h.rules_revision},
          {"config", h.config},     {"seed", h.seed},
          {"seats", h.seats},       {"bots", bots},
          {"limits", h.limits},     {"initial_hash", h.initial_hash},
          {"started", h.started},   {"extra", h.extra}};
}

json to_json(const Step& s) {
  json j = {
      {"type", "step"},       {"n", s.n},      {"seat", s.seat}, {"request_id", s.request_id}, {"action", s.action},
      {"time_ms", s.time_ms}, {"hash", s.hash}};
  if (!s.view_hash.empty()) j["view_hash"] = s.view_hash;
  if (!s.view.is_null()) j["view"] = s.view;
  if (!s.debug.empty()) j["debug"] = s.debug;
  if (s.cpu_ms >= 0) j["cpu_ms"] = s.cpu_ms;
  if (!s.stderr_lines.empty()) j["stderr"] = s.stderr_lines;
  if (s.stderr_cut > 0) j["stderr_cut"] = s.stderr_cut;
  return j;
}

json to_json(const Footer& f) {
  return {{"type", "footer"}, {"end", enum_name(f.end)}, {"result", f.result}};
}

Result<Writer> Writer::open(const std::filesystem::path& path) {
  // Owner-only (0600, folders 0700): a bot must not read the match it is playing.
  if (auto dirs = files::make_private_dirs(path.parent_path()); !dirs)
    return fail(fmt::format("the replay: {}", dirs.error()));
  auto out = files::open_private(path);
  if (!out) return fail(fmt::format("the replay: {}", out.error()));
  Writer w;
  w.path_ = path;
  w.out_ = std::move(out).value();
  return w;
}

Status Writer::write(const json& line) {
  *out_ << dump_line(line) << '\n';
  out_->flush();
  if (!*out_) return fail(fmt::format("writing the replay {} failed", path_.string()));
  return {};
}

Status Writer::write_step(const Step& s) {
  // Keys in sorted order, as dump_line(to_json(s)) writes them; numbers that may have a fraction
  // go through the JSON library so that they print the same way.
  std::string& line = scratch_;
  line.clear();
  line.append(R"({"action":)").append(dump_line(s.action));
  if (s.cpu_ms >= 0) line.append(R"(,"cpu_ms":)").append(json(s.cpu_ms).dump());
  if (!s.debug.empty()) line.append(R"(,"debug":)").append(dump_line(json(s.debug)));
  fmt::format_to(std::back_inserter(line), R"(,"hash":"{}","n":{},"request_id":{},"seat":{})", s.hash, s.n,
                 s.request_id, s.seat);
  if (!s.stderr_lines.empty()) line.append(R"(,"stderr":)").append(dump_line(json(s.stderr_lines)));
  if (s.stderr_cut > 0) fmt::format_to(std::back_inserter(line), R"(,"stderr_cut":{})", s.stderr_cut);
  line.append(R"(,"time_ms":)").append(json(s.time_ms).dump()).append(R"(,"type":"step")");
  if (!s.view.is_null()) line.append(R"(,"view":)").append(dump_line(s.view));
  if (!s.view_hash.empty()) line.append(R"(,"view_hash":")").append(s.view_hash).push_back('"');
  line.append("}\n");
  out_->write(line.data(), static_cast<std::streamsize>(line.size()));
  if (!*out_) return fail(fmt::format("writing the replay {} failed", path_.string()));
  return {};
}

Result<Replay> parse(std::istream& in) {
  Replay r;
  std::string line;
  std::size_t number = 0;
  bool have_header = false;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    // Depth is capped: comparing or printing a hostile, deeply nested file must not overflow the
    // stack.
    bool too_deep = false;
    json j = json::parse(
        line,
        [&](int depth, json::parse_event_t, json&) {
          too_deep = too_deep || depth > kMaxDepth;
          return !too_deep;
        },
        false);
    if (too_deep) return fail(fmt::format("line {}: nested deeper than {}", number, kMaxDepth));
    if (j.is_discarded() || !j.is_object()) {
      // A line cut short by a killed referee can only be the last one, after the header.
      if (in.peek() == EOF && have_header) break;
      return fail(fmt::format("line {}: not a JSON object", number));
    }
    std::string type;
    if (auto st = read_field(j, "type", type); !st) return fail(fmt::format("line {}: {}", number, st.error()));
    if (r.footer) return fail(fmt::format("line {}: \"{}\" after the footer", number, type));
    if (type == "header") {
      if (have_header) return fail(fmt::format("line {}: a second header", number));
      auto h = parse_header(j);
      if (!h) return fail(fmt::format("line {} (header): {}", number, h.error()));
      r.header = std::move(h).value();
      have_header = true;
    } else if (!have_header) {
      return fail(fmt::format("line {}: expected the header first, got \"{}\"", number, type));
    } else if (type == "step") {
      auto s = parse_step(j, r.header);
      if (!s) return fail(fmt::format("line {} (step): {}", number, s.error()));
      r.steps.push_back(std::move(s).value());
    } else if (type == "footer") {
      std::string end_text;
      json result = json::object();
      if (auto st = first_error([&] { return read_field(j, "end", end_text); },
                                [&] { return read_object(j, "result", result); },
                                [&] { return check_result(result, r.header); });
          !st)
        return fail(fmt::format("line {} (footer): {}", number, st.error()));
      const auto end = parse_enum<End>(end_text);
      if (!end)
        return fail(fmt::format("line {} (footer): unknown end \"{}\" (expected {})", number, end_text,
                                enum_names_text<End>()));
      r.footer = Footer{*end, std::move(result)};
    } else {
      return fail(fmt::format("line {}: unknown line type \"{}\"", number, type));
    }
  }
  if (!have_header) return fail(std::string("no header line (empty or not a replay)"));
  return r;
}

Result<Replay> parse_text(const std::string& text) {
  std::istringstream in(text);
  return parse(in);
}

Result<Replay> read(const std::filesystem::path& path) {
  auto text = files::read_file(path);
  if (!text) return fail(text.error());
  auto r = parse_text(*text);
  if (!r) return fail(fmt::format("{}: {}", path.string(), r.error()));
  return r;
}

Result<std::unique_ptr<games::GameState>> initial_state(const Header& h) {
  const games::Game* game = games::find_game(h.game);
  if (game == nullptr)
    return fail(fmt::format("unknown game \"{}\" (this referee knows: {})", h.game, games::game_names()));
  if (h.rules_revision != game->info().rules_revision) {
    return fail(
        fmt::format("the replay was played under {} rules revision {}, and this referee ({}) implements revision {}: "
                    "it cannot re-simulate it (use the referee that played it{})",
                    h.game, h.rules_revision, referee_version(), game->info().rules_revision,
                    h.referee_version.empty() ? "" : ", version " + h.referee_version));
  }
  auto created = game->new_game(h.config, seat_configs(h), h.seed, h.seats);
  if (!created) return fail(fmt::format("the header's configuration is refused: {}", created.error()));
  return created;
}

Verification verify(const Replay& replay) {
  Verification v;
  const Header& h = replay.header;
  auto diverge = [&](std::string message) {
    v.ok = false;
    v.message = std::move(message);
    return v;
  };
  auto created = initial_state(h);
  if (!created) {
    v.simulable = false;
    return diverge(created.error());
  }
  auto state = std::move(created).value();
  if (hash_hex(state->hash()) != h.initial_hash) {
    return diverge(
        fmt::format("initial state hash {} differs from the header's {}", hash_hex(state->hash()), h.initial_hash));
  }
  std::string view_text;
  for (const Step& s : replay.steps) {
    const std::string where = fmt::format("step {} (request {})", s.n, s.request_id);
    if (static_cast<std::size_t>(s.n) != v.steps_checked) {
      return diverge(fmt::format("{}: expected step number {}", where, v.steps_checked));
    }
    // One request per decision, numbered from 1.
    if (s.request_id != s.n + 1) return diverge(fmt::format("{}: expected request id {}", where, s.n + 1));
    if (state->is_over()) return diverge(fmt::format("{}: the game was already over", where));
    if (state->to_act() != s.seat) {
      return diverge(fmt::format("{}: seat {} acted but seat {} was to act", where, s.seat, state->to_act()));
    }
    if (!s.view.is_null() && state->view(s.seat) != s.view) {
      return diverge(fmt::format("{}: the view seat {} was sent differs from the re-simulated view", where, s.seat));
    }
    if (!s.view_hash.empty()) {
      view_text.clear();
      state->write_view_v2(s.seat, view_text);
      if (hash_hex(stable_hash(view_text)) != s.view_hash) {
        return diverge(
            fmt::format("{}: the view seat {} was sent (hash {}) differs from the re-simulated view (hash {})", where,
                        s.seat, s.view_hash, hash_hex(stable_hash(view_text))));
      }
    }
    if (auto st = state->apply(s.action); !st) {
      return diverge(fmt::format("{}: action {} is refused: {}", where, dump_line(s.action), st.error()));
    }
    if (hash_hex(state->hash()) != s.hash) {
      return diverge(
          fmt::format("{}: state hash {} differs from the recorded {}", where, hash_hex(state->hash()), s.hash));
    }
    ++v.steps_checked;
  }
  if (!replay.footer)
    return diverge(fmt::format("no footer: the match did not finish ({} steps verified)", v.steps_checked));
  auto result = check_result(replay, *state);
  if (!result) return diverge(result.error());
  v.result = std::move(result).value();
  v.ok = true;
  v.message = fmt::format("{} steps re-simulated; every view, hash and the result match", v.steps_checked);
  return v;
}

}  // namespace arena::replay
