// The league's spec (read from a league file, checked and completed) and its schedule: index ->
// (deal, leg, seed, seats), a pure function. The runner is league.cpp.
#include <fmt/format.h>
#include <sched.h>

#include <algorithm>
#include <set>
#include <thread>
#include <utility>

#include "protocol/json_fields.hpp"
#include "referee/core/bounds.hpp"
#include "referee/games/game.hpp"
#include "referee/league/league.hpp"
#include "referee/league/rounds.hpp"
#include "referee/match/command.hpp"

namespace arena::league {

namespace fs = std::filesystem;
using json_fields::only_keys;
using json_fields::read_real;
using json_fields::read_whole;

namespace {

// n choose k; UINT64_MAX when it may not fit (normalize caps a league far below that).
std::uint64_t choose(std::uint64_t n, std::uint64_t k) {
  if (k > n) return 0;
  std::uint64_t r = 1;
  for (std::uint64_t i = 1; i <= k; ++i) {
    const std::uint64_t factor = n - k + i;
    if (r > UINT64_MAX / factor) return UINT64_MAX;
    r = r * factor / i;  // exact: r * factor is i * C(n - k + i, i)
  }
  return r;
}

// The g-th k-subset of {0..n-1} in lexicographic order.
std::vector<int> unrank(std::uint64_t g, int n, int k) {
  std::vector<int> out;
  int x = 0;
  for (int i = 0; i < k; ++i) {
    for (;;) {
      const std::uint64_t c = choose(static_cast<std::uint64_t>(n - 1 - x), static_cast<std::uint64_t>(k - 1 - i));
      if (g < c) break;
      g -= c;
      ++x;
    }
    out.push_back(x++);
  }
  return out;
}

}  // namespace

std::string_view format_name(Format f) {
  return enum_name(f);
}

Result<Format> parse_format(std::string_view text) {
  if (const auto f = parse_enum<Format>(text)) return *f;
  return fail(fmt::format("format \"{}\", expected {}", text, enum_names_text<Format>()));
}

int usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
  return static_cast<int>(std::thread::hardware_concurrency());
}

// ---- the spec ------------------------------------------------------------------------------

Result<LeagueSpec> spec_from_json(const json& j) {
  if (!j.is_object()) return fail(std::string("a league file must hold a JSON object"));
  if (auto st = only_keys(j,
                          {"game", "config", "bots", "format", "seats", "deals", "duplicate", "concurrency", "seed",
                           "seed_scheme", "limits", "time_scale", "sprt", "rounds", "seeding"},
                          "league");
      !st) {
    return fail(st.error());
  }
  try {
    LeagueSpec s;
    s.game = j.value("game", s.game);
    s.config = j.value("config", json(nullptr));
    if (auto it = j.find("bots"); it != j.end()) {
      if (!it->is_array()) return fail(std::string("league: \"bots\" must be an array of {\"name\", \"command\"}"));
      for (const json& b : *it) {
        s.ratings.emplace_back();
        if (b.is_string()) {  // a command alone, parsed here once
          auto command = match::BotCommand::parse(b.get<std::string>());
          if (!command) return fail(command.error());
          s.bots.emplace_back(std::move(command).value());
          continue;
        }
        if (auto st = only_keys(b, {"name", "command", "address_space_mb", "seat_config", "rating"}, "league bot"); !st)
          return fail(st.error());
        if (!b.contains("command")) return fail(std::string("league: a bot without \"command\""));
        auto command = match::BotCommand::parse(b.at("command").get<std::string>());
        if (!command) return fail(command.error());
        match::BotSpec entry{std::move(command).value(), b.value("name", "")};
        if (b.contains("address_space_mb")) {
          std::uint64_t mb = 0;
          if (auto st = read_whole(b, "league bot", "address_space_mb", bounds::kAddressSpaceMb, mb); !st)
            return fail(st.error());
          entry.address_space_mb = mb;
        }
        entry.seat_config = b.value("seat_config", json(nullptr));
        if (b.contains("rating")) {  // a knockout's seeding
          double rating = 0;
          if (auto st = read_real(b, "league bot", "rating", kRating, rating); !st) return fail(st.error());
          s.ratings.back() = rating;
        }
        s.bots.push_back(std::move(entry));
      }
    }
    auto format = parse_format(j.value("format", std::string(format_name(s.format))));
    if (!format) return fail(fmt::format("league: {}", format.error()));
    s.format = *format;
    for (const Status& st : {read_whole(j, "league", "seats", bounds::kSeats, s.seats),
                             read_whole(j, "league", "deals", bounds::kDeals, s.deals),
                             read_whole(j, "league", "concurrency", bounds::kConcurrency, s.concurrency),
                             read_real(j, "league", "time_scale", bounds::kTimeScale, s.time_scale)}) {
      if (!st) return fail(st.error());
    }
    if (j.contains("rounds")) {
      int rounds = 0;
      if (auto st = read_whole(j, "league", "rounds", kRounds, rounds); !st) return fail(st.error());
      s.rounds = rounds;
    }
    if (j.contains("seeding")) {
      const auto seeding = parse_enum<Seeding>(j.at("seeding").get<std::string>());
      if (!seeding) {
        return fail(fmt::format("league: seeding \"{}\", expected {}", j.at("seeding").get<std::string>(),
                                enum_names_text<Seeding>()));
      }
      s.seeding = *seeding;
    }
    if (j.contains("duplicate")) s.duplicate = j.at("duplicate").get<bool>();
    if (j.contains("seed")) {  // a whole number 0..2^64-1: -1 or 1.5 is refused, not wrapped or cut
      std::uint64_t seed = 0;
      if (auto st = read_whole(j, "league", "seed", bounds::kSeed, seed); !st) return fail(st.error());
      s.seed = seed;
    }
    if (j.contains("seed_scheme")) {
      auto scheme = parse_seed_scheme(j.at("seed_scheme").get<std::string>());
      if (!scheme) return fail(fmt::format("league: {}", scheme.error()));
      s.seed_scheme = *scheme;
    }
    if (auto it = j.find("limits"); it != j.end()) {
      if (!it->is_object()) return fail(std::string("league: \"limits\" must be an object"));
      if (auto st = only_keys(*it, {"init_ms", "decision_ms", "time_bank_ms", "max_line_bytes"}, "league limits");
          !st) {
        return fail(st.error());
      }
      protocol::Limits& l = s.limits;
      for (const Status& st :
           {read_whole(*it, "league limits", "init_ms", bounds::kInitMs, l.init_ms),
            read_whole(*it, "league limits", "decision_ms", bounds::kDecisionMs, l.decision_ms),
            read_whole(*it, "league limits", "time_bank_ms", bounds::kTimeBankMs, l.time_bank_ms),
            read_whole(*it, "league limits", "max_line_bytes", bounds::kMaxLineBytes, l.max_line_bytes)}) {
        if (!st) return fail(st.error());
      }
    }
    if (auto it = j.find("sprt"); it != j.end() && !it->is_null()) {
      if (!it->is_object()) return fail(std::string("league: \"sprt\" must be an object"));
      if (auto st = only_keys(*it, {"elo0", "elo1", "alpha", "beta"}, "league sprt"); !st) return fail(st.error());
      SprtConfig t{};
      for (const char* key : {"elo0", "elo1", "alpha", "beta"}) {
        if (!it->contains(key)) return fail(fmt::format("league sprt: \"{}\" is missing", key));
      }
      for (const Status& st : {read_real(*it, "league sprt", "elo0", bounds::kElo, t.elo0),
                               read_real(*it, "league sprt", "elo1", bounds::kElo, t.elo1),
                               read_real(*it, "league sprt", "alpha", bounds::kProbability, t.alpha),
                               read_real(*it, "league sprt", "beta", bounds::kProbability, t.beta)}) {
        if (!st) return fail(st.error());
      }
      s.sprt = t;
    }
    return s;
  } catch (const json::exception& e) {
    return fail(fmt::format("league: {}", e.what()));
  }
}

json to_json(const LeagueSpec& s) {
  json bots = json::array();
  for (std::size_t i = 0; i < s.bots.size(); ++i) {
    const match::BotSpec& b = s.bots[i];
    json entry = {{"name", b.name}, {"command", b.command.text}};
    if (b.address_space_mb) entry["address_space_mb"] = *b.address_space_mb;
    if (i < s.ratings.size() && s.ratings[i]) entry["rating"] = *s.ratings[i];
    if (!b.seat_config.is_null()) entry["seat_config"] = b.seat_config;
    bots.push_back(std::move(entry));
  }
  json j = {{"game", s.game},
            {"config", s.config},
            {"bots", bots},
            {"format", enum_name(s.format)},
            {"seats", s.seats},
            {"deals", s.deals},
            {"duplicate", s.duplicate.value_or(false)},
            {"concurrency", s.concurrency},
            {"limits",
             {{"init_ms", s.limits.init_ms},
              {"decision_ms", s.limits.decision_ms},
              {"time_bank_ms", s.limits.time_bank_ms},
              {"max_line_bytes", s.limits.max_line_bytes}}},
            {"time_scale", s.time_scale},
            {"sprt", nullptr}};
  if (s.seed) j["seed"] = *s.seed;
  if (s.rounds) j["rounds"] = *s.rounds;
  if (s.seeding) j["seeding"] = enum_name(*s.seeding);
  if (s.seed_scheme) j["seed_scheme"] = enum_name(*s.seed_scheme);
  if (s.sprt)
    j["sprt"] = {{"elo0", s.sprt->elo0}, {"elo1", s.sprt->elo1}, {"alpha", s.sprt->alpha}, {"beta", s.sprt->beta}};
  return j;
}

Result<LeagueSpec> normalize(LeagueSpec s) {
  const games::Game* game = games::find_game(s.game);
  if (game == nullptr) return fail(fmt::format("unknown game \"{}\" (see `referee games`)", s.game));
  auto config = game->normalize_config(s.config);
  if (!config) return fail(config.error());
  s.config = *config;
  const auto& info = game->info();
  if (s.seats == 0) s.seats = info.min_seats;
  if (s.seats < info.min_seats || s.seats > info.max_seats) {
    return fail(fmt::format("{} is played by {} seats, not {}", s.game, match::seat_range(info), s.seats));
  }
  if (static_cast<int>(s.bots.size()) < s.seats) {
    return fail(fmt::format("a league of {} needs at least {} bots, got {}", s.game, s.seats, s.bots.size()));
  }
  if (s.format == Format::gauntlet && s.bots.size() < 2) return fail(std::string("a gauntlet needs a bot and a field"));
  std::set<std::string> names;
  for (match::BotSpec& b : s.bots) {
    if (b.command.argv.empty()) return fail(std::string("an empty bot command"));
    if (b.name.empty()) {
      const std::string base = b.command.display_name();
      b.name = base;
      for (int n = 2; names.count(b.name) > 0; ++n) b.name = fmt::format("{}-{}", base, n);
    }
    if (!names.insert(b.name).second)
      return fail(fmt::format("two bots are named \"{}\"; give each a distinct name", b.name));
  }
  for (match::BotSpec& b : s.bots) {
    auto seat_config = game->normalize_seat_config(b.seat_config);
    if (!seat_config) return fail(fmt::format("bot {}: seat_config: {}", b.name, seat_config.error()));
    b.seat_config = std::move(seat_config).value();
  }
  // The ranges of docs/league.md, for callers of the library too (the file's reader checks them).
  for (const match::BotSpec& b : s.bots) {
    if (b.address_space_mb && !bounds::kAddressSpaceMb.contains(*b.address_space_mb)) {
      return fail(bounds::out_of_range(fmt::format("address_space_mb of {}", b.name),
                                       std::to_string(*b.address_space_mb), bounds::kAddressSpaceMb));
    }
  }
  if (!bounds::kDeals.contains(s.deals))
    return fail(bounds::out_of_range("deals", std::to_string(s.deals), bounds::kDeals));
  if (!s.duplicate) s.duplicate = s.seats == 2;
  if (s.concurrency == 0)
    s.concurrency = static_cast<int>(std::clamp<std::int64_t>(usable_cpus(), 1, bounds::kConcurrency.hi));
  if (!bounds::kConcurrency.contains(s.concurrency)) {
    return fail(bounds::out_of_range("concurrency", std::to_string(s.concurrency), bounds::kConcurrency));
  }
  if (auto st = protocol::check_limits(s.limits, s.time_scale); !st) return fail(st.error());
  if (auto st = normalize_rounds(s); !st) return fail(st.error());
  // The whole schedule: deals x groups of bots that meet x legs (seat rotations of a deal).
  const auto n = static_cast<std::uint64_t>(s.bots.size());
  const auto k = static_cast<std::uint64_t>(s.seats);
  const std::uint64_t legs = *s.duplicate ? k : 1;
  const std::uint64_t groups = plays_in_rounds(s.format)         ? RoundLayout(s).total() / (s.deals * legs)
                               : s.format == Format::round_robin ? choose(n, k)
                                                                 : choose(n - 1, k - 1);
  if (groups > bounds::kMaxMatches || s.deals * groups * legs > bounds::kMaxMatches) {
    return fail(
        fmt::format("the league would play {} matches ({} deals x {} groups of bots x {} legs); at most {}: "
                    "give fewer deals or bots",
                    groups > bounds::kMaxMatches ? std::string("too many") : std::to_string(s.deals * groups * legs),
                    s.deals, groups, legs, bounds::kMaxMatches));
  }
  if (s.sprt) {
    if (s.bots.size() != 2 || s.seats != 2)
      return fail(std::string("--sprt needs a league of exactly two bots, two seats"));
    const SprtConfig& t = *s.sprt;
    if (!(t.alpha > 0 && t.alpha < 1 && t.beta > 0 && t.beta < 1 && t.alpha + t.beta < 1) || !(t.elo1 > t.elo0)) {
      return fail(std::string("sprt: alpha and beta in (0,1) with alpha + beta < 1, and elo1 > elo0"));
    }
    if (!bounds::kElo.contains(t.elo0) || !bounds::kElo.contains(t.elo1)) {
      return fail(fmt::format("sprt: elo0 and elo1 must lie in {}", bounds::text(bounds::kElo)));
    }
  }
  return s;
}

// ---- the schedule --------------------------------------------------------------------------

Schedule::Schedule(const LeagueSpec& spec) : spec_(spec) {
  if (plays_in_rounds(spec.format)) {  // played round by round (rounds.hpp), not by at()
    legs_ = RoundLayout(spec).legs();
    total_ = RoundLayout(spec).total();
    return;
  }
  const auto n = static_cast<std::uint64_t>(spec.bots.size());
  const auto k = static_cast<std::uint64_t>(spec.seats);
  groups_ = spec.format == Format::round_robin ? choose(n, k) : choose(n - 1, k - 1);
  legs_ = spec.duplicate.value_or(false) ? spec.seats : 1;
  total_ = spec.deals * groups_ * static_cast<std::uint64_t>(legs_);
}

std::vector<int> Schedule::group(std::uint64_t g) const {
  const int n = static_cast<int>(spec_.bots.size());
  if (spec_.format == Format::round_robin) return unrank(g, n, spec_.seats);
  // Gauntlet: bot 0 against every (seats-1)-set of the field.
  std::vector<int> bots = {0};
  for (int other : unrank(g, n - 1, spec_.seats - 1)) bots.push_back(other + 1);
  return bots;
}

Scheduled Schedule::at(std::uint64_t index) const {
  Scheduled m;
  m.index = index;
  const auto legs = static_cast<std::uint64_t>(legs_);
  m.leg = static_cast<int>(index % legs);
  const std::uint64_t rest = index / legs;
  const std::uint64_t g = rest % groups_;
  const std::uint64_t round = rest / groups_;
  m.deal = round * groups_ + g;
  m.seed = deal_seed(spec_.seed_scheme.value_or(SeedScheme::keyed_v1), spec_.seed.value(), m.deal);
  const std::vector<int> bots = group(g);
  const auto k = static_cast<std::uint64_t>(spec_.seats);
  // Duplicate deals rotate seats by leg; single deals rotate by round, so seats stay fair.
  const std::uint64_t rotation = legs_ > 1 ? static_cast<std::uint64_t>(m.leg) : round % k;
  for (std::uint64_t s = 0; s < k; ++s) m.seat_bots.push_back(bots[static_cast<std::size_t>((s + rotation) % k)]);
  return m;
}

}  // namespace arena::league
