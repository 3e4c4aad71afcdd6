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

// The league file's deal book: "deals_file" (relative to `book_dir`), an inline "deals" list or
// league.json's "deal_book", one of them, and "deals_order"; `deals` is what "deals" gave as a
// number (1 when not given), refused when it is not the book's number of deals.
Result<std::optional<DealBook>> book_of_league_file(const json& j, const std::optional<fs::path>& book_dir,
                                                    std::uint64_t deals) {
  const bool listed = j.contains("deals") && j.at("deals").is_array();
  const int sources =
      static_cast<int>(listed) + static_cast<int>(j.contains("deals_file")) + static_cast<int>(j.contains("deal_book"));
  if (sources > 1)
    return fail(std::string("league: give one deal book: \"deals_file\", a \"deals\" list or \"deal_book\""));
  std::optional<DealBook> book;
  std::string name;
  if (listed || j.contains("deal_book")) {
    const char* key = listed ? "deals" : "deal_book";
    name = fmt::format("league: \"{}\"", key);
    auto list = deals_from_json(j.at(key), name);
    if (!list) return fail(list.error());
    book = DealBook{std::move(list).value(), DealOrder::file};
  } else if (const auto file = j.find("deals_file"); file != j.end()) {
    if (!book_dir)
      return fail(std::string("league: \"deals_file\" is for a league file (league.json records \"deal_book\")"));
    if (!file->is_string()) return fail(std::string("league: \"deals_file\" must be a file name"));
    const fs::path path = *book_dir / file->get<std::string>();  // an absolute name stays as it is
    auto read = read_deal_book(path);
    if (!read) return fail(read.error());
    book = std::move(read).value();
    name = fmt::format("the deal book {}", path.string());
  }
  if (const auto order = j.find("deals_order"); order != j.end()) {
    if (!book)
      return fail(std::string("league: \"deals_order\" needs a deal book (\"deals_file\" or a \"deals\" list)"));
    if (!order->is_string()) return fail(std::string("league: \"deals_order\" must be \"file\" or \"shuffled\""));
    auto parsed = parse_deal_order(order->get<std::string>());
    if (!parsed) return fail(fmt::format("league: {}", parsed.error()));
    book->order = *parsed;
  }
  if (book && !listed && j.contains("deals") && deals != book->deals.size()) {
    return fail(
        fmt::format("league: \"deals\": {} conflicts with {}, which holds {} deals (the book gives the deals "
                    "per pairing: drop \"deals\")",
                    deals, name, book->deals.size()));
  }
  return book;
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

Result<LeagueSpec> spec_from_json(const json& j, const std::optional<fs::path>& book_dir) {
  if (!j.is_object()) return fail(std::string("a league file must hold a JSON object"));
  if (auto st = only_keys(
          j,
          {"game", "config", "bots", "format", "seats", "deals", "duplicate", "concurrency", "seed", "seed_scheme",
           "limits", "time_scale", "sprt", "deals_file", "deals_order", "deal_book", "rounds", "seeding"},
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
    const bool deals_listed = j.contains("deals") && j.at("deals").is_array();  // an inline deal book
    for (const Status& st : {read_whole(j, "league", "seats", bounds::kSeats, s.seats),
                             deals_listed ? Status{} : read_whole(j, "league", "deals", bounds::kDeals, s.deals),
                             read_whole(j, "league", "concurrency", bounds::kConcurrency, s.concurrency),
                             read_real(j, "league", "time_scale", bounds::kTimeScale, s.time_scale)}) {
      if (!st) return fail(st.error());
    }
    if (auto book = book_of_league_file(j, book_dir, s.deals); !book) {
      return fail(book.error());
    } else {
      s.book = std::move(book).value();
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
  if (s.book) {
    j["deal_book"] = to_json(s.book->deals);
    j["deals_order"] = enum_name(s.book->order);
  }
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
  if (s.book) {  // the book gives the deals per pairing, and each deal's config over the league's
    s.deals = s.book->deals.size();
    for (std::size_t i = 0; i < s.book->deals.size(); ++i) {
      json& deal_config = s.book->deals[i].config;
      if (deal_config.is_null()) continue;
      json merged = s.config.is_null() ? json::object() : s.config;
      merged.merge_patch(deal_config);
      auto normal = game->normalize_config(merged);
      if (!normal) return fail(fmt::format("deal {} of the deal book: config: {}", i + 1, normal.error()));
      deal_config = *normal;
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

void deal_of(const LeagueSpec& spec, std::uint64_t nth, Scheduled& m) {
  if (spec.book) {  // the book's deal `nth`, in its order
    const auto& deals = spec.book->deals;
    const BookDeal& d = deals[book_position(spec.book->order, spec.seed.value(), nth, deals.size())];
    m.seed = d.seed;
    m.config = d.config;
  } else {
    m.seed = deal_seed(spec.seed_scheme.value_or(SeedScheme::keyed_v1), spec.seed.value(), m.deal);
  }
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
  deal_of(spec_, round, m);
  const std::vector<int> bots = group(g);
  const auto k = static_cast<std::uint64_t>(spec_.seats);
  // Duplicate deals rotate seats by leg; single deals rotate by round, so seats stay fair.
  const std::uint64_t rotation = legs_ > 1 ? static_cast<std::uint64_t>(m.leg) : round % k;
  for (std::uint64_t s = 0; s < k; ++s) m.seat_bots.push_back(bots[static_cast<std::size_t>((s + rotation) % k)]);
  return m;
}

}  // namespace arena::league
