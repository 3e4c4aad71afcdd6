#include "referee/league/league.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <utility>

#include "referee/core/bounds.hpp"
#include "referee/core/private_file.hpp"
#include "referee/core/rng.hpp"
#include "referee/games/game.hpp"
#include "referee/match/match.hpp"

namespace arena::league {

namespace fs = std::filesystem;

namespace {

const char* format_name(Format f) {
  return f == Format::round_robin ? "round-robin" : "gauntlet";
}

Status only_keys(const json& j, std::initializer_list<const char*> keys, const char* where) {
  for (const auto& [key, value] : j.items()) {
    if (std::none_of(keys.begin(), keys.end(), [&](const char* k) { return key == k; })) {
      return fail(fmt::format("{}: unknown key \"{}\"", where, key));
    }
  }
  return {};
}

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

// j[key], when present, as a whole number in `range`, into `out`. Anything else (negative,
// fractional, too large, a string) is refused with the key, the value and the range; nothing is
// wrapped or truncated.
template <typename T, typename R>
Status read_whole(const json& j, const char* where, const char* key, const bounds::Range<R>& range, T& out) {
  const auto it = j.find(key);
  if (it == j.end()) return {};
  bool inside = false;
  if (it->is_number_unsigned()) {
    const auto v = it->template get<std::uint64_t>();
    inside = std::cmp_greater_equal(v, range.lo) && std::cmp_less_equal(v, range.hi);
    if (inside) out = static_cast<T>(v);
  } else if (it->is_number_integer()) {
    const auto v = it->template get<std::int64_t>();
    inside = std::cmp_greater_equal(v, range.lo) && std::cmp_less_equal(v, range.hi);
    if (inside) out = static_cast<T>(v);
  }
  if (!inside)
    return fail(fmt::format("{}: {}", where, bounds::out_of_range(fmt::format("\"{}\"", key), it->dump(), range)));
  return {};
}

// j[key], when present, as a finite number in `range`, into `out`.
Status read_real(const json& j, const char* where, const char* key, const bounds::Range<double>& range, double& out) {
  const auto it = j.find(key);
  if (it == j.end()) return {};
  if (!it->is_number() || !range.contains(it->get<double>())) {
    return fail(fmt::format("{}: {}", where, bounds::out_of_range(fmt::format("\"{}\"", key), it->dump(), range)));
  }
  out = it->get<double>();
  return {};
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

// ---- the spec ------------------------------------------------------------------------------

Result<LeagueSpec> spec_from_json(const json& j) {
  if (!j.is_object()) return fail(std::string("a league file must hold a JSON object"));
  if (auto st = only_keys(j,
                          {"game", "config", "bots", "format", "seats", "deals", "duplicate", "concurrency", "seed",
                           "seed_scheme", "limits", "time_scale", "sprt"},
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
        if (b.is_string()) {
          s.bots.push_back({"", b.get<std::string>()});
          continue;
        }
        if (auto st = only_keys(b, {"name", "command", "address_space_mb", "seat_config"}, "league bot"); !st)
          return fail(st.error());
        if (!b.contains("command")) return fail(std::string("league: a bot without \"command\""));
        BotEntry entry{b.value("name", ""), b.at("command").get<std::string>(), std::nullopt};
        if (b.contains("address_space_mb")) {
          std::uint64_t mb = 0;
          if (auto st = read_whole(b, "league bot", "address_space_mb", bounds::kAddressSpaceMb, mb); !st)
            return fail(st.error());
          entry.address_space_mb = mb;
        }
        entry.seat_config = b.value("seat_config", json(nullptr));
        s.bots.push_back(std::move(entry));
      }
    }
    const std::string format = j.value("format", "round-robin");
    if (format == "round-robin") {
      s.format = Format::round_robin;
    } else if (format == "gauntlet") {
      s.format = Format::gauntlet;
    } else {
      return fail(fmt::format("league: format \"{}\", expected \"round-robin\" or \"gauntlet\"", format));
    }
    for (const Status& st : {read_whole(j, "league", "seats", bounds::kSeats, s.seats),
                             read_whole(j, "league", "deals", bounds::kDeals, s.deals),
                             read_whole(j, "league", "concurrency", bounds::kConcurrency, s.concurrency),
                             read_real(j, "league", "time_scale", bounds::kTimeScale, s.time_scale)}) {
      if (!st) return fail(st.error());
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
  for (const BotEntry& b : s.bots) {
    json entry = {{"name", b.name}, {"command", b.command}};
    if (b.address_space_mb) entry["address_space_mb"] = *b.address_space_mb;
    if (!b.seat_config.is_null()) entry["seat_config"] = b.seat_config;
    bots.push_back(std::move(entry));
  }
  json j = {{"game", s.game},
            {"config", s.config},
            {"bots", bots},
            {"format", format_name(s.format)},
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
  if (s.seed_scheme) j["seed_scheme"] = seed_scheme_name(*s.seed_scheme);
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
    return fail(fmt::format("{} is played by {} to {} seats, not {}", s.game, info.min_seats, info.max_seats, s.seats));
  }
  if (static_cast<int>(s.bots.size()) < s.seats) {
    return fail(fmt::format("a league of {} needs at least {} bots, got {}", s.game, s.seats, s.bots.size()));
  }
  if (s.format == Format::gauntlet && s.bots.size() < 2) return fail(std::string("a gauntlet needs a bot and a field"));
  std::set<std::string> names;
  for (BotEntry& b : s.bots) {
    if (auto argv = match::split_command(b.command); !argv) return fail(argv.error());
    if (b.name.empty()) {
      const std::string base = match::program_name(match::split_command(b.command).value());
      b.name = base;
      for (int n = 2; names.count(b.name) > 0; ++n) b.name = fmt::format("{}-{}", base, n);
    }
    if (!names.insert(b.name).second)
      return fail(fmt::format("two bots are named \"{}\"; give each a distinct name", b.name));
  }
  for (BotEntry& b : s.bots) {
    auto seat_config = game->normalize_seat_config(b.seat_config);
    if (!seat_config) return fail(fmt::format("bot {}: seat_config: {}", b.name, seat_config.error()));
    b.seat_config = std::move(seat_config).value();
  }
  // The ranges of docs/league.md, for callers of the library too (the file's reader checks them).
  for (const BotEntry& b : s.bots) {
    if (b.address_space_mb && !bounds::kAddressSpaceMb.contains(*b.address_space_mb)) {
      return fail(bounds::out_of_range(fmt::format("address_space_mb of {}", b.name),
                                       std::to_string(*b.address_space_mb), bounds::kAddressSpaceMb));
    }
  }
  if (!bounds::kDeals.contains(s.deals))
    return fail(bounds::out_of_range("deals", std::to_string(s.deals), bounds::kDeals));
  if (!s.duplicate) s.duplicate = s.seats == 2;
  if (s.concurrency == 0) {
    s.concurrency = static_cast<int>(
        std::clamp(std::thread::hardware_concurrency(), 1U, static_cast<unsigned>(bounds::kConcurrency.hi)));
  }
  if (!bounds::kConcurrency.contains(s.concurrency)) {
    return fail(bounds::out_of_range("concurrency", std::to_string(s.concurrency), bounds::kConcurrency));
  }
  if (auto st = protocol::check_limits(s.limits, s.time_scale); !st) return fail(st.error());
  // The whole schedule: deals x groups of bots that meet x legs (seat rotations of a deal).
  const auto n = static_cast<std::uint64_t>(s.bots.size());
  const auto k = static_cast<std::uint64_t>(s.seats);
  const std::uint64_t groups = s.format == Format::round_robin ? choose(n, k) : choose(n - 1, k - 1);
  const std::uint64_t legs = *s.duplicate ? k : 1;
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

// ---- the runner's helpers ------------------------------------------------------------------

std::string shell_quote(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=/.,:@%") ==
                        std::string::npos) {
    return s;
  }
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// ---- the runner ----------------------------------------------------------------------------

namespace {

class Runner {
 public:
  Runner(const LeagueSpec& spec, const RunOptions& o) : spec_(spec), o_(o), schedule_(spec_) {}

  Result<LeagueOutcome> run() {
    // Owner-only while bots run (a bot must not read a match): the folders 0700, the files 0600.
    auto created = files::make_private_dirs(o_.out);
    if (!created) return fail(created.error());
    folders_ = *created;
    if (auto st = check_league_file(); !st) return fail(st.error());
    for (const char* sub : {"replays", "logs"}) {
      if (auto made = files::make_private_dirs(o_.out / sub); !made) return fail(made.error());
      folders_.push_back(o_.out / sub);
    }
    outcome_.seed = *spec_.seed;
    outcome_.seed_scheme = *spec_.seed_scheme;
    if (spec_.sprt) sprt_.emplace(spec_.bots[0].name, spec_.duplicate.value_or(false), *spec_.sprt);
    // What was journaled before, streamed: its indices (as ranges: the workers skip them), its
    // count, the SPRT's tally.
    auto existing = stream_journal(journal_path(), [&](const MatchRecord& r) {
      if (r.index < schedule_.total()) done_.insert(r.index);
      count(r);
    });
    if (!existing) return fail(existing.error());
    if (auto st = repair_tail(*existing); !st) return fail(st.error());
    auto journal = files::open_private(journal_path(), std::ios::app);
    if (!journal) return fail(journal.error());
    journal_ = std::move(journal).value();
    if (existing->unterminated && !existing->torn) {
      journal_ << '\n' << std::flush;
      if (!journal_) return fail(fmt::format("cannot write {}", journal_path().string()));
    }
    outcome_.total = schedule_.total();
    update_sprt();

    // A worker takes a whole deal: no more workers than deals with a leg missing. A deal is
    // complete when all its legs lie in one range of journaled indices.
    const auto legs = static_cast<std::uint64_t>(schedule_.legs());
    std::uint64_t complete = 0;
    for (const auto& [first, last] : done_.ranges()) {       // indices below total: last + 1 does not overflow
      const std::uint64_t from = (first + legs - 1) / legs;  // the first deal starting in the range
      const std::uint64_t to = (last + 1) / legs;            // one past the last deal ending in it
      if (to > from) complete += to - from;
    }
    const std::uint64_t missing = schedule_.deals() - complete;
    const auto threads =
        static_cast<std::size_t>(std::min<std::uint64_t>(static_cast<std::uint64_t>(spec_.concurrency), missing));
    std::vector<std::thread> workers;
    for (std::size_t i = 0; i < threads; ++i) workers.emplace_back([this] { work(); });
    for (std::thread& t : workers) t.join();

    if (o_.share_output) {  // every bot is gone: the league's folders and files
      std::vector<fs::path> paths = folders_;
      paths.push_back(o_.out / "league.json");
      paths.push_back(journal_path());
      if (auto st = files::share(paths); !st && outcome_.error.empty()) outcome_.error = st.error();
    }
    outcome_.interrupted = interrupted_.load();
    outcome_.records = JournalRecords(journal_path(), outcome_.journaled);
    return std::move(outcome_);
  }

 private:
  fs::path journal_path() const { return o_.out / "results.jsonl"; }
  static std::string stem_of(std::uint64_t index) { return fmt::format("m{:06}", index); }
  fs::path replay_of(std::uint64_t index) const { return o_.out / "replays" / (stem_of(index) + ".jsonl"); }

  // One journaled record (read back, or just written with mu_ held): the counts, the SPRT's tally.
  void count(const MatchRecord& r) {
    ++outcome_.journaled;
    outcome_.faulted = outcome_.faulted || r.fault.has_value();
    if (sprt_) sprt_->add(r);
  }

  // A journal that ends in a torn line (a referee killed in the middle of a write) is cut back to
  // its last record, so that what this run appends starts on a line of its own and the journal
  // stays readable (stream_journal ignores a torn line only at the end).
  Status repair_tail(const JournalRead& read) const {
    if (!read.torn) return {};
    std::error_code ec;
    fs::resize_file(journal_path(), read.valid_bytes, ec);
    if (ec) return fail(fmt::format("cannot cut the torn last line of {}: {}", journal_path().string(), ec.message()));
    return {};
  }

  // --share-output, called with mu_ held once a deal's last missing leg is journaled: the deal's
  // replays and logs and the league's folders become readable by others. Not sooner: a leg still
  // to play has the same cards.
  void share_deal(std::uint64_t deal) {
    const auto legs = static_cast<std::uint64_t>(schedule_.legs());
    std::vector<fs::path> paths = folders_;
    for (std::uint64_t i = deal * legs; i < deal * legs + legs; ++i) {
      paths.push_back(replay_of(i));
      for (int seat = 0; seat < spec_.seats; ++seat) {
        paths.push_back(o_.out / "logs" /
                        fmt::format("{}.seat{}.stderr.log", stem_of(i), seat));  // match.hpp's log names
      }
    }
    if (auto st = files::share(paths); !st) {
      outcome_.error = st.error();
      interrupted_ = true;
    }
  }

  // league.json records the league; a resume must be of the same league (concurrency aside). A
  // resume takes the seed and its scheme from it unless the spec sets them (a league.json without
  // "seed_scheme" was journaled with the legacy derivation); a new league draws its seed from the OS.
  Status check_league_file() {
    const fs::path file = o_.out / "league.json";
    if (fs::exists(file)) {
      if (!o_.resume) {
        return fail(fmt::format("{} already holds a league; pass --resume to finish it, or choose another --out",
                                o_.out.string()));
      }
      std::ifstream in(file);
      json theirs = json::parse(in, nullptr, false);
      if (theirs.is_object()) {
        theirs.erase("concurrency");
        const json scheme_name = theirs.value("seed_scheme", json(seed_scheme_name(SeedScheme::legacy)));
        auto scheme = parse_seed_scheme(scheme_name.is_string() ? scheme_name.get<std::string>() : scheme_name.dump());
        if (!scheme) return fail(fmt::format("{}: {}", file.string(), scheme.error()));
        theirs["seed_scheme"] = seed_scheme_name(*scheme);
        if (!spec_.seed_scheme) spec_.seed_scheme = *scheme;
        if (auto seed = theirs.find("seed"); !spec_.seed && seed != theirs.end() && seed->is_number_unsigned()) {
          spec_.seed = seed->get<std::uint64_t>();
        }
      }
      json mine = to_json(spec_);
      mine.erase("concurrency");
      if (theirs != mine || !spec_.seed) {
        return fail(
            fmt::format("{} describes another league (different bots, game, seed or limits); "
                        "resume it with its own settings or choose another --out",
                        file.string()));
      }
      return {};
    }
    if (!spec_.seed) spec_.seed = os_random_u64();
    if (!spec_.seed_scheme) spec_.seed_scheme = SeedScheme::keyed_v1;
    return files::write_private(file, to_json(spec_).dump(2) + '\n');
  }

  // The unit of work is a deal: its legs (the same cards, seats rotated) are played one after the
  // other by this worker, so two copies of one bot never hold both hands of a deal at once.
  void work() {
    const auto legs = static_cast<std::uint64_t>(schedule_.legs());
    KeptBots kept;  // --reuse: this worker's bot processes, by (bot, leg)
    for (;;) {
      if (stopping()) break;
      const std::uint64_t deal = next_deal_.fetch_add(1);
      if (deal >= schedule_.deals()) break;
      if (o_.reuse) keep_only(kept, schedule_.at(deal * legs).seat_bots);
      std::uint64_t journaled = 0;  // legs of this deal journaled before or now
      for (std::uint64_t leg = 0; leg < legs; ++leg) {
        const std::uint64_t index = deal * legs + leg;
        if (done_.contains(index)) {
          ++journaled;
          continue;
        }
        if (stopping()) break;  // Ctrl-C or a decided SPRT, also between the legs of a deal
        if (play_and_journal(schedule_.at(index), journaled + 1 == legs, kept)) ++journaled;
      }
    }
    keep_only(kept, {});
  }

  // A worker's kept processes: one per (bot index, leg), so that the legs of a duplicate deal,
  // which repeat its cards, are played by different processes of each bot.
  using KeptBots = std::map<std::pair<int, int>, match::KeptBot>;

  // Ends the kept processes of bots not in `bots` (the next deal's): a worker keeps only the bots
  // it is playing, whatever the number of bots in the league. They get EOF and the usual grace.
  void keep_only(KeptBots& kept, const std::vector<int>& bots) const {
    for (auto it = kept.begin(); it != kept.end();) {
      if (std::find(bots.begin(), bots.end(), it->first.first) != bots.end()) {
        ++it;
        continue;
      }
      if (it->second.process) it->second.process->shutdown(std::chrono::milliseconds(200));
      it = kept.erase(it);
    }
  }

  // Plays a match and journals it; false when it was not journaled (interrupted, or the journal
  // could not be written). `completes_deal`: it is the last leg of its deal still missing.
  bool play_and_journal(const Scheduled& m, bool completes_deal, KeptBots& kept) {
    auto record = play(m, kept);
    if (!record) return false;  // interrupted: nothing is written, resume plays it again
    std::lock_guard lock(mu_);
    journal_ << to_json(*record).dump(-1, ' ', false, json::error_handler_t::replace) << '\n' << std::flush;
    if (!journal_) {
      outcome_.error = fmt::format("cannot write {}", journal_path().string());
      interrupted_ = true;
      return false;
    }
    count(*record);
    if (completes_deal && o_.share_output) share_deal(m.deal);
    ++outcome_.played_now;
    if (o_.on_match) o_.on_match(*record, outcome_.journaled, schedule_.total());
    update_sprt();
    return true;
  }

  bool stopping() const {
    if (o_.stop != nullptr && o_.stop->load()) {
      interrupted_ = true;
      return true;
    }
    return sprt_stop_.load() || interrupted_.load();
  }

  std::optional<MatchRecord> play(const Scheduled& m, KeptBots& kept) {
    match::Options o;
    o.game = spec_.game;
    o.config = spec_.config;
    o.seed = m.seed;
    for (int b : m.seat_bots) {
      const BotEntry& bot = spec_.bots[static_cast<std::size_t>(b)];
      o.bots.push_back({bot.command, bot.name, bot.address_space_mb});
      o.bots.back().seat_config = bot.seat_config;  // a bot's deck moves with it when seats rotate
    }
    o.sandbox = o_.sandbox;
    o.limits = spec_.limits;
    o.time_scale = spec_.time_scale;
    o.replay_path = replay_of(m.index);
    o.log_dir = o_.out / "logs";
    o.hidden = {fs::absolute(o_.out).lexically_normal()};  // league.json, the journal, other matches
    o.log_stem = stem_of(m.index);
    o.working_dir = o_.working_dir.empty() ? fs::current_path() : o_.working_dir;
    o.env = o_.env;
    o.stop = o_.stop;
    if (o_.reuse) {
      for (int bot : m.seat_bots) o.kept.push_back(&kept[{bot, m.leg}]);
      // A kept process meets every bot of the league in time: none of their files is for it.
      for (const BotEntry& bot : spec_.bots) o.hide_commands.push_back(bot.command);
    }
    std::error_code ec;
    const std::int64_t start = unix_ms();
    auto result = match::play(o);
    const std::int64_t end = unix_ms();
    if (!result) {
      // A set-up problem of the whole league (the spec was validated, so this is the disk).
      std::lock_guard lock(mu_);
      outcome_.error = result.error();
      interrupted_ = true;
      return std::nullopt;
    }
    if (result->end == match::End::interrupted) {
      interrupted_ = true;
      fs::remove(o.replay_path, ec);
      return std::nullopt;
    }
    MatchRecord r;
    r.index = m.index;
    r.deal = m.deal;
    r.leg = m.leg;
    r.seed = m.seed;
    r.end = result->end;
    const json& res = result->result;
    for (std::size_t s = 0; s < m.seat_bots.size(); ++s) {
      SeatRecord seat;
      seat.bot = spec_.bots[static_cast<std::size_t>(m.seat_bots[s])].name;
      if (res.at("scores").is_array()) seat.score = res.at("scores").at(s).get<double>();
      seat.rank = res.at("ranks").at(s).get<int>();
      seat.decision_ms = result->seats[s].decision_ms;
      seat.stderr_bytes = result->seats[s].stderr_bytes;
      r.seats.push_back(std::move(seat));
    }
    if (result->fault) {
      const match::Fault& f = *result->fault;
      r.fault = FaultRecord{f.seat, match::fault_name(f.kind), f.request_id, f.message};
    }
    r.replay = o.replay_path.string();
    r.rerun = rerun_command(o);
    r.start_unix_ms = start;
    r.end_unix_ms = end;
    return r;
  }

  std::string rerun_command(const match::Options& o) const {
    std::string cmd = fmt::format("{} play --game {} --seed {}", shell_quote(o_.referee), o.game, o.seed);
    if (!o.config.is_null() && !o.config.empty()) cmd += " --config " + shell_quote(o.config.dump());
    const bool seat_configs =
        std::any_of(o.bots.begin(), o.bots.end(), [](const match::BotSpec& b) { return !b.seat_config.is_null(); });
    for (const match::BotSpec& b : o.bots) {
      cmd += fmt::format(" --bot {} --name {}", shell_quote(b.command), shell_quote(b.name));
      if (seat_configs)
        cmd += " --seat-config " + (b.seat_config.is_null() ? std::string("-") : shell_quote(b.seat_config.dump()));
    }
    cmd += fmt::format(" --init-ms {} --decision-ms {}", spec_.limits.init_ms, spec_.limits.decision_ms);
    if (spec_.limits.time_bank_ms > 0) cmd += fmt::format(" --time-bank-ms {}", spec_.limits.time_bank_ms);
    if (spec_.time_scale != 1.0) cmd += fmt::format(" --time-scale {}", spec_.time_scale);
    return cmd;
  }

  // The SPRT on what is journaled so far (bot 0's view), from its tally: on complete duplicate
  // pairs when deals are duplicated, else on games. Called with mu_ held (or before the workers
  // start).
  void update_sprt() {
    if (!sprt_) return;
    const SprtState state = sprt_->state();
    outcome_.sprt = state;
    if (o_.on_sprt && outcome_.journaled > 0) o_.on_sprt(state);
    if (state.decision != SprtState::Decision::none) {
      outcome_.sprt_stopped = outcome_.journaled < schedule_.total();
      sprt_stop_ = true;
    }
  }

  static std::int64_t unix_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
  }

  LeagueSpec spec_;  // its seed and seed scheme resolved by check_league_file
  const RunOptions& o_;
  Schedule schedule_;
  IndexSet done_;  // journaled before this run (read only while the workers run)
  std::optional<SprtTally> sprt_;
  std::atomic<std::uint64_t> next_deal_{0};
  mutable std::atomic<bool> interrupted_{false};
  std::atomic<bool> sprt_stop_{false};
  std::mutex mu_;
  std::ofstream journal_;
  LeagueOutcome outcome_;
  std::vector<fs::path> folders_;  // this run's new folders, replays/ and logs/ (--share-output)
};

}  // namespace

Result<LeagueOutcome> run(const LeagueSpec& spec, const RunOptions& options) {
  Runner runner(spec, options);
  return runner.run();
}

}  // namespace arena::league
