#include "referee/replay/result.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace arena::replay {

namespace {

// The most seats a result may list: a sanity bound for reading (verify compares with the header).
constexpr std::int64_t kSeatLimit = 64;

// Whole points print as integers ("79", not "79.0"); rank points may be fractional.
json number(double x) {
  return x == static_cast<double>(static_cast<std::int64_t>(x)) ? json(static_cast<std::int64_t>(x)) : json(x);
}

// One JSON object read field by field: each read names the field on error ("result.fault.seat:
// ..."), and done() refuses the fields nobody read.
class Fields {
 public:
  Fields(const json& j, std::string where) : j_(j), where_(std::move(where)) {}

  Status object() const {
    if (!j_.is_object()) return fail(fmt::format("{} is not an object ({})", where_, j_.type_name()));
    return {};
  }

  // The field, or null when absent and optional; an error when absent and required.
  Result<const json*> at(const char* key, bool required = true) {
    seen_.insert(key);
    auto it = j_.find(key);
    if (it == j_.end()) {
      if (required) return fail(fmt::format("{}: missing \"{}\"", where_, key));
      return static_cast<const json*>(nullptr);
    }
    return &*it;
  }

  std::string name(const char* key) const { return fmt::format("{}.{}", where_, key); }

  Status text(const char* key, std::string& out, bool required = true) {
    auto v = at(key, required);
    if (!v) return fail(v.error());
    if (*v == nullptr) return {};
    if (!(*v)->is_string()) return wrong(key, "a string", **v);
    out = (*v)->get<std::string>();
    return {};
  }

  Status integer(const char* key, std::int64_t& out, std::int64_t low, std::int64_t high, bool required = true) {
    auto v = at(key, required);
    if (!v) return fail(v.error());
    if (*v == nullptr) return {};
    const json& x = **v;
    if (x.is_number_unsigned() && x.get<std::uint64_t>() <= static_cast<std::uint64_t>(high)) {
      out = static_cast<std::int64_t>(x.get<std::uint64_t>());
    } else if (x.is_number_integer() && !x.is_number_unsigned()) {
      out = x.get<std::int64_t>();
    } else {
      return wrong(key, fmt::format("an integer from {} to {}", low, high), x);
    }
    if (out < low || out > high) return wrong(key, fmt::format("an integer from {} to {}", low, high), x);
    return {};
  }

  Status unsigned_integer(const char* key, std::uint64_t& out, bool required = true) {
    auto v = at(key, required);
    if (!v) return fail(v.error());
    if (*v == nullptr) return {};
    if (!(*v)->is_number_unsigned()) return wrong(key, "an integer from 0", **v);
    out = (*v)->get<std::uint64_t>();
    return {};
  }

  // A finite number of milliseconds, 0 or more.
  Status duration(const char* key, double& out, bool required = true) {
    auto v = at(key, required);
    if (!v) return fail(v.error());
    if (*v == nullptr) return {};
    if (!(*v)->is_number() || !std::isfinite((*v)->get<double>()) || (*v)->get<double>() < 0)
      return wrong(key, "a number of milliseconds, 0 or more", **v);
    out = (*v)->get<double>();
    return {};
  }

  Status boolean(const char* key, bool& out, bool required = true) {
    auto v = at(key, required);
    if (!v) return fail(v.error());
    if (*v == nullptr) return {};
    if (!(*v)->is_boolean()) return wrong(key, "true or false", **v);
    out = (*v)->get<bool>();
    return {};
  }

  template <typename E>
  Status name_of(const char* key, E& out, bool required = true) {
    std::string text_value;
    const bool present = j_.contains(key);
    if (auto st = text(key, text_value, required); !st) return st;
    if (!present) return {};
    auto parsed = parse_enum<E>(text_value);
    if (!parsed) return wrong(key, enum_names_text<E>(), j_.at(key));
    out = *parsed;
    return {};
  }

  Status done() const {
    for (const auto& [key, value] : j_.items()) {
      if (!seen_.contains(key)) return fail(fmt::format("{}: unknown field \"{}\"", where_, key));
    }
    return {};
  }

  Status wrong(const char* key, std::string_view wanted, const json& got) const {
    std::string shown = got.dump(-1, ' ', false, json::error_handler_t::replace);
    if (shown.size() > 40) shown = shown.substr(0, 40) + "...";
    return fail(fmt::format("{}: expected {}, got {}", name(key), wanted, shown));
  }

 private:
  const json& j_;
  std::string where_;
  std::set<std::string, std::less<>> seen_;
};

Status text_list(const json& j, const std::string& where, std::vector<std::string>& out) {
  if (!j.is_array()) return fail(fmt::format("{}: expected a list of strings", where));
  for (const json& line : j) {
    if (!line.is_string()) return fail(fmt::format("{}: expected a list of strings", where));
    out.push_back(line.get<std::string>());
  }
  return {};
}

// The fault, and in `bot` the name it gives its seat's bot (checked by the caller).
Result<Fault> fault_from_json(const json& j, std::string& bot) {
  Fault f;
  Fields in(j, "result.fault");
  if (auto st = in.object(); !st) return fail(st.error());
  std::int64_t seat = 0;
  if (auto st = in.integer("seat", seat, 0, kSeatLimit - 1); !st) return fail(st.error());
  f.seat = static_cast<Seat>(seat);
  if (auto st = in.name_of("kind", f.kind); !st) return fail(st.error());
  if (auto st = in.integer("request_id", f.request_id, 0, std::numeric_limits<std::int64_t>::max()); !st)
    return fail(st.error());
  // Absent in replays before the phase was recorded: a request id says whether it was a decision.
  f.phase = f.request_id > 0 ? FaultPhase::decision : FaultPhase::handshake;
  f.request_sent = f.request_id > 0;
  if (auto st = in.name_of("phase", f.phase, false); !st) return fail(st.error());
  if (auto st = in.boolean("request_sent", f.request_sent, false); !st) return fail(st.error());
  if (auto st = in.text("message", f.message); !st) return fail(st.error());
  if (auto st = in.text("bot", bot); !st) return fail(st.error());
  if (auto st = in.text("raw", f.raw); !st) return fail(st.error());
  if (auto st = in.text("exit", f.exit); !st) return fail(st.error());
  auto tail = in.at("stderr_tail");
  if (!tail) return fail(tail.error());
  if (auto st = text_list(**tail, "result.fault.stderr_tail", f.stderr_tail); !st) return fail(st.error());
  if (auto st = in.done(); !st) return fail(st.error());
  return f;
}

Result<SeatReport> seat_from_json(const json& j, std::size_t index) {
  SeatReport s;
  Fields in(j, fmt::format("result.bots[{}]", index));
  if (auto st = in.object(); !st) return fail(st.error());
  std::int64_t seat = 0;
  if (auto st = in.integer("seat", seat, 0, kSeatLimit - 1); !st) return fail(st.error());
  if (seat != static_cast<std::int64_t>(index))
    return fail(fmt::format("result.bots[{}].seat: expected {}, got {}", index, index, seat));
  if (auto st = in.text("name", s.name); !st) return fail(st.error());
  if (auto st = in.text("version", s.version); !st) return fail(st.error());
  if (auto st = in.text("command", s.command); !st) return fail(st.error());
  std::string log;
  if (auto st = in.text("stderr_log", log); !st) return fail(st.error());
  s.stderr_log = log;
  if (auto st = in.unsigned_integer("stderr_bytes", s.stderr_bytes); !st) return fail(st.error());
  if (auto st = in.integer("decisions", s.decisions, 0, std::numeric_limits<std::int64_t>::max()); !st)
    return fail(st.error());
  if (auto st = in.duration("total_ms", s.total_ms); !st) return fail(st.error());
  if (auto st = in.duration("max_ms", s.max_ms); !st) return fail(st.error());
  if (auto st = in.duration("cpu_ms", s.cpu_ms, false); !st) return fail(st.error());
  if (auto st = in.duration("idle_cpu_ms", s.idle_cpu_ms, false); !st) return fail(st.error());
  if (auto st = in.text("exit", s.exit); !st) return fail(st.error());
  std::int64_t protocol = 1, process_match = 1;
  if (auto st = in.integer("protocol", protocol, 1, 2, false); !st) return fail(st.error());
  if (auto st = in.integer("process_match", process_match, 1, std::numeric_limits<int>::max(), false); !st)
    return fail(st.error());
  s.protocol = static_cast<int>(protocol);
  s.process_match = static_cast<int>(process_match);
  if (auto st = in.done(); !st) return fail(st.error());
  return s;
}

}  // namespace

Ranking rank_seats(End end, const std::vector<double>& scores, std::optional<Seat> offender, int seats) {
  Ranking r;
  if (end == End::interrupted || end == End::error) return r;
  r.ranks.assign(static_cast<std::size_t>(seats), 1);
  if (end == End::finished) {
    for (std::size_t i = 0; i < r.ranks.size() && i < scores.size(); ++i) {
      for (std::size_t k = 0; k < scores.size(); ++k) {
        if (scores[k] > scores[i]) ++r.ranks[i];
      }
    }
  } else if (offender && *offender >= 0 && *offender < seats) {
    r.ranks[static_cast<std::size_t>(*offender)] = seats;
  }
  if (std::count(r.ranks.begin(), r.ranks.end(), 1) == 1)
    r.winner = static_cast<Seat>(std::find(r.ranks.begin(), r.ranks.end(), 1) - r.ranks.begin());
  return r;
}

void settle(FinalResult& r) {
  auto ranking = rank_seats(r.end, r.scores, r.fault ? std::optional<Seat>(r.fault->seat) : std::nullopt,
                            static_cast<int>(r.seats.size()));
  r.ranks = std::move(ranking.ranks);
  r.winner = ranking.winner;
}

json public_json(const FinalResult& r) {
  json j = {
      {"end", enum_name(r.end)}, {"scores", nullptr}, {"winner", nullptr}, {"fault", nullptr}, {"outcome", nullptr}};
  if (r.end == End::finished) {
    j["scores"] = json::array();
    for (double x : r.scores) j["scores"].push_back(number(x));
    j["outcome"] = r.outcome;
  }
  if (r.fault) {
    j["fault"] = {{"seat", r.fault->seat},
                  {"kind", enum_name(r.fault->kind)},
                  {"request_id", r.fault->request_id},
                  {"message", r.fault->message}};
  }
  if (!r.ranks.empty()) j["ranks"] = r.ranks;
  if (r.winner) j["winner"] = *r.winner;
  return j;
}

json to_json(const FinalResult& r) {
  json j = public_json(r);
  j["game"] = r.game;
  j["seed"] = r.seed;
  j["config"] = r.config;
  j["decisions"] = r.decisions;
  j["replay"] = r.replay.string();
  json bots = json::array();
  for (std::size_t i = 0; i < r.seats.size(); ++i) {
    const SeatReport& s = r.seats[i];
    bots.push_back({{"seat", i},
                    {"name", s.name},
                    {"version", s.version},
                    {"command", s.command},
                    {"stderr_log", s.stderr_log.string()},
                    {"stderr_bytes", s.stderr_bytes},
                    {"decisions", s.decisions},
                    {"total_ms", s.total_ms},
                    {"max_ms", s.max_ms},
                    {"cpu_ms", s.cpu_ms},
                    {"idle_cpu_ms", s.idle_cpu_ms},
                    {"exit", s.exit},
                    {"protocol", s.protocol},
                    {"process_match", s.process_match}});
  }
  j["bots"] = std::move(bots);
  if (r.fault) {
    json& f = j["fault"];
    const auto seat = static_cast<std::size_t>(r.fault->seat);
    f["bot"] = seat < r.seats.size() ? r.seats[seat].name : std::string();
    f["phase"] = enum_name(r.fault->phase);
    f["request_sent"] = r.fault->request_sent;
    f["raw"] = r.fault->raw;
    f["stderr_tail"] = r.fault->stderr_tail;
    f["exit"] = r.fault->exit;
  }
  if (r.end == End::error) j["error"] = r.error;
  return j;
}

Result<FinalResult> result_from_json(const json& j) {
  FinalResult r;
  Fields in(j, "result");
  if (auto st = in.object(); !st) return fail(st.error());
  if (auto st = in.name_of("end", r.end); !st) return fail(st.error());
  if (auto st = in.text("game", r.game); !st) return fail(st.error());
  if (auto st = in.unsigned_integer("seed", r.seed); !st) return fail(st.error());
  auto config = in.at("config");
  if (!config) return fail(config.error());
  r.config = **config;
  if (auto st = in.integer("decisions", r.decisions, 0, std::numeric_limits<std::int64_t>::max()); !st)
    return fail(st.error());
  std::string path;
  if (auto st = in.text("replay", path); !st) return fail(st.error());
  r.replay = path;

  auto bots = in.at("bots");
  if (!bots) return fail(bots.error());
  if (!(*bots)->is_array() || (*bots)->empty() || (*bots)->size() > static_cast<std::size_t>(kSeatLimit))
    return fail(in.wrong("bots", fmt::format("a list of 1 to {} seats", kSeatLimit), **bots).error());
  for (std::size_t i = 0; i < (*bots)->size(); ++i) {
    auto seat = seat_from_json((**bots)[i], i);
    if (!seat) return fail(seat.error());
    r.seats.push_back(std::move(seat).value());
  }
  const std::size_t seats = r.seats.size();

  auto scores = in.at("scores");
  if (!scores) return fail(scores.error());
  if (!(*scores)->is_null()) {
    if (!(*scores)->is_array() || (*scores)->size() != seats)
      return fail(in.wrong("scores", fmt::format("null or {} numbers", seats), **scores).error());
    for (const json& x : **scores) {
      if (!x.is_number() || !std::isfinite(x.get<double>()))
        return fail(in.wrong("scores", fmt::format("null or {} numbers", seats), **scores).error());
      r.scores.push_back(x.get<double>());
    }
  }
  auto outcome = in.at("outcome");
  if (!outcome) return fail(outcome.error());
  r.outcome = **outcome;

  auto ranks = in.at("ranks", false);
  if (!ranks) return fail(ranks.error());
  if (*ranks != nullptr) {
    if (!(*ranks)->is_array() || (*ranks)->size() != seats)
      return fail(in.wrong("ranks", fmt::format("{} ranks from 1 to {}", seats, seats), **ranks).error());
    for (const json& x : **ranks) {
      if (!x.is_number_integer() || x.get<std::int64_t>() < 1 ||
          x.get<std::int64_t>() > static_cast<std::int64_t>(seats))
        return fail(in.wrong("ranks", fmt::format("{} ranks from 1 to {}", seats, seats), **ranks).error());
      r.ranks.push_back(x.get<int>());
    }
  }
  auto winner = in.at("winner");
  if (!winner) return fail(winner.error());
  if (!(*winner)->is_null()) {
    std::int64_t w = 0;
    if (auto st = in.integer("winner", w, 0, static_cast<std::int64_t>(seats) - 1); !st) return fail(st.error());
    r.winner = static_cast<Seat>(w);
  }

  auto fault = in.at("fault");
  if (!fault) return fail(fault.error());
  if (!(*fault)->is_null()) {
    std::string bot;
    auto f = fault_from_json(**fault, bot);
    if (!f) return fail(f.error());
    const auto seat = static_cast<std::size_t>(f->seat);
    if (seat >= seats)
      return fail(fmt::format("result.fault.seat: expected a seat from 0 to {}, got {}", seats - 1, seat));
    if (bot != r.seats[seat].name)
      return fail(fmt::format("result.fault.bot: \"{}\" is not the name of seat {}", bot, seat));
    r.fault = std::move(f).value();
  }

  auto error = in.at("error", false);
  if (!error) return fail(error.error());
  if (*error != nullptr) {
    if (auto st = in.text("error", r.error); !st) return fail(st.error());
  }
  if (auto st = in.done(); !st) return fail(st.error());
  return r;
}

}  // namespace arena::replay
