#include "referee/league/league.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "referee/core/rng.hpp"
#include "referee/games/game.hpp"
#include "referee/match/match.hpp"

namespace arena::league {

namespace fs = std::filesystem;

namespace {

const char* format_name(Format f) { return f == Format::round_robin ? "round-robin" : "gauntlet"; }

Status only_keys(const json& j, std::initializer_list<const char*> keys, const char* where) {
  for (const auto& [key, value] : j.items()) {
    if (std::none_of(keys.begin(), keys.end(), [&](const char* k) { return key == k; })) {
      return fail(fmt::format("{}: unknown key \"{}\"", where, key));
    }
  }
  return {};
}

// n choose k, small arguments only (league sizes).
std::uint64_t choose(std::uint64_t n, std::uint64_t k) {
  if (k > n) return 0;
  std::uint64_t r = 1;
  for (std::uint64_t i = 1; i <= k; ++i) r = r * (n - k + i) / i;
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

// ---- the spec ------------------------------------------------------------------------------

Result<LeagueSpec> spec_from_json(const json& j) {
  if (!j.is_object()) return fail(std::string("a league file must hold a JSON object"));
  if (auto st = only_keys(j, {"game", "config", "bots", "format", "seats", "deals", "duplicate", "concurrency", "seed",
                              "limits", "time_scale", "sprt"},
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
        if (auto st = only_keys(b, {"name", "command", "address_space_mb"}, "league bot"); !st) return fail(st.error());
        if (!b.contains("command")) return fail(std::string("league: a bot without \"command\""));
        BotEntry entry{b.value("name", ""), b.at("command").get<std::string>(), std::nullopt};
        if (b.contains("address_space_mb")) entry.address_space_mb = b.at("address_space_mb").get<std::uint64_t>();
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
    s.seats = j.value("seats", 0);
    s.deals = j.value("deals", std::uint64_t{1});
    if (j.contains("duplicate")) s.duplicate = j.at("duplicate").get<bool>();
    s.concurrency = j.value("concurrency", 0);
    s.seed = j.value("seed", std::uint64_t{1});
    s.time_scale = j.value("time_scale", 1.0);
    if (auto it = j.find("limits"); it != j.end()) {
      if (auto st = only_keys(*it, {"init_ms", "decision_ms", "time_bank_ms", "max_line_bytes"}, "league limits"); !st) {
        return fail(st.error());
      }
      s.limits.init_ms = it->value("init_ms", s.limits.init_ms);
      s.limits.decision_ms = it->value("decision_ms", s.limits.decision_ms);
      s.limits.time_bank_ms = it->value("time_bank_ms", s.limits.time_bank_ms);
      s.limits.max_line_bytes = it->value("max_line_bytes", s.limits.max_line_bytes);
    }
    if (auto it = j.find("sprt"); it != j.end() && !it->is_null()) {
      if (auto st = only_keys(*it, {"elo0", "elo1", "alpha", "beta"}, "league sprt"); !st) return fail(st.error());
      s.sprt = SprtConfig{it->at("elo0").get<double>(), it->at("elo1").get<double>(), it->at("alpha").get<double>(),
                          it->at("beta").get<double>()};
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
            {"seed", s.seed},
            {"limits",
             {{"init_ms", s.limits.init_ms},
              {"decision_ms", s.limits.decision_ms},
              {"time_bank_ms", s.limits.time_bank_ms},
              {"max_line_bytes", s.limits.max_line_bytes}}},
            {"time_scale", s.time_scale},
            {"sprt", nullptr}};
  if (s.sprt) j["sprt"] = {{"elo0", s.sprt->elo0}, {"elo1", s.sprt->elo1}, {"alpha", s.sprt->alpha}, {"beta", s.sprt->beta}};
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
    if (!names.insert(b.name).second) return fail(fmt::format("two bots are named \"{}\"; give each a distinct name", b.name));
  }
  if (s.deals < 1) return fail(std::string("deals must be at least 1"));
  if (!s.duplicate) s.duplicate = s.seats == 2;
  if (s.concurrency <= 0) s.concurrency = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  if (s.time_scale <= 0) return fail(std::string("the time scale must be positive"));
  if (s.limits.decision_ms <= 0 || s.limits.init_ms <= 0 || s.limits.time_bank_ms < 0) {
    return fail(std::string("time limits must be positive (the bank may be 0)"));
  }
  if (s.sprt) {
    if (s.bots.size() != 2 || s.seats != 2) return fail(std::string("--sprt needs a league of exactly two bots, two seats"));
    const SprtConfig& t = *s.sprt;
    if (!(t.alpha > 0 && t.alpha < 1 && t.beta > 0 && t.beta < 1 && t.alpha + t.beta < 1) || !(t.elo1 > t.elo0)) {
      return fail(std::string("sprt: alpha and beta in (0,1) with alpha + beta < 1, and elo1 > elo0"));
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
  m.seed = derive_seed(spec_.seed, m.deal);
  const std::vector<int> bots = group(g);
  const auto k = static_cast<std::uint64_t>(spec_.seats);
  // Duplicate deals rotate seats by leg; single deals rotate by round, so seats stay fair.
  const std::uint64_t rotation = legs_ > 1 ? static_cast<std::uint64_t>(m.leg) : round % k;
  for (std::uint64_t s = 0; s < k; ++s) m.seat_bots.push_back(bots[static_cast<std::size_t>((s + rotation) % k)]);
  return m;
}

// ---- the journal ---------------------------------------------------------------------------

Result<std::vector<MatchRecord>> read_journal(const fs::path& path) {
  std::vector<MatchRecord> records;
  std::ifstream in(path);
  if (!in) return records;
  std::string line;
  std::size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    json j = json::parse(line, nullptr, false);
    if (j.is_discarded()) {
      if (in.peek() == EOF) break;  // torn by a kill mid-write: that match is simply replayed
      return fail(fmt::format("{} line {}: not JSON", path.string(), number));
    }
    auto r = record_from_json(j);
    if (!r) return fail(fmt::format("{} line {}: {}", path.string(), number, r.error()));
    records.push_back(std::move(r).value());
  }
  return records;
}

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
  Runner(const LeagueSpec& spec, const RunOptions& o) : spec_(spec), o_(o), schedule_(spec) {}

  Result<LeagueOutcome> run() {
    std::error_code ec;
    fs::create_directories(o_.out, ec);
    if (ec) return fail(fmt::format("cannot create the league folder {}: {}", o_.out.string(), ec.message()));
    if (auto st = check_league_file(); !st) return fail(st.error());
    auto existing = read_journal(journal_path());
    if (!existing) return fail(existing.error());
    for (MatchRecord& r : *existing) {
      if (r.index < schedule_.total()) done_.insert(r.index);
      outcome_.records.push_back(std::move(r));
    }
    journal_.open(journal_path(), std::ios::app);
    if (!journal_) return fail(fmt::format("cannot append to {}", journal_path().string()));
    outcome_.total = schedule_.total();
    update_sprt();

    const std::uint64_t missing = schedule_.total() - done_.size();
    const auto threads = static_cast<std::size_t>(std::min<std::uint64_t>(static_cast<std::uint64_t>(spec_.concurrency), missing));
    std::vector<std::thread> workers;
    for (std::size_t i = 0; i < threads; ++i) workers.emplace_back([this] { work(); });
    for (std::thread& t : workers) t.join();

    outcome_.interrupted = interrupted_.load();
    std::sort(outcome_.records.begin(), outcome_.records.end(),
              [](const MatchRecord& a, const MatchRecord& b) { return a.index < b.index; });
    return std::move(outcome_);
  }

 private:
  fs::path journal_path() const { return o_.out / "results.jsonl"; }

  // league.json records the league; a resume must be of the same league (concurrency aside).
  Status check_league_file() {
    const fs::path file = o_.out / "league.json";
    json mine = to_json(spec_);
    mine.erase("concurrency");
    if (fs::exists(file)) {
      std::ifstream in(file);
      json theirs = json::parse(in, nullptr, false);
      if (!theirs.is_discarded()) theirs.erase("concurrency");
      if (!o_.resume) {
        return fail(fmt::format("{} already holds a league; pass --resume to finish it, or choose another --out",
                                o_.out.string()));
      }
      if (theirs != mine) {
        return fail(fmt::format("{} describes another league (different bots, game, seed or limits); "
                                "resume it with its own settings or choose another --out",
                                file.string()));
      }
      return {};
    }
    std::ofstream out(file);
    out << to_json(spec_).dump(2) << '\n';
    if (!out) return fail(fmt::format("cannot write {}", file.string()));
    return {};
  }

  void work() {
    for (;;) {
      if (stopping()) return;
      const std::uint64_t index = next_.fetch_add(1);
      if (index >= schedule_.total()) return;
      if (done_.count(index) > 0) continue;
      const Scheduled m = schedule_.at(index);
      auto record = play(m);
      if (!record) continue;  // interrupted: nothing is written, resume plays it again
      std::lock_guard lock(mu_);
      journal_ << to_json(*record).dump(-1, ' ', false, json::error_handler_t::replace) << '\n' << std::flush;
      if (!journal_) {
        outcome_.error = fmt::format("cannot write {}", journal_path().string());
        interrupted_ = true;
        return;
      }
      outcome_.records.push_back(*record);
      ++outcome_.played_now;
      if (o_.on_match) o_.on_match(*record, outcome_.records.size(), schedule_.total());
      update_sprt();
    }
  }

  bool stopping() const {
    if (o_.stop != nullptr && o_.stop->load()) {
      interrupted_ = true;
      return true;
    }
    return sprt_stop_.load() || interrupted_.load();
  }

  std::optional<MatchRecord> play(const Scheduled& m) {
    match::Options o;
    o.game = spec_.game;
    o.config = spec_.config;
    o.seed = m.seed;
    for (int b : m.seat_bots) {
      const BotEntry& bot = spec_.bots[static_cast<std::size_t>(b)];
      o.bots.push_back({bot.command, bot.name, bot.address_space_mb});
    }
    o.sandbox = o_.sandbox;
    o.limits = spec_.limits;
    o.time_scale = spec_.time_scale;
    o.replay_path = o_.out / "replays" / fmt::format("m{:06}.jsonl", m.index);
    o.log_dir = o_.out / "logs";
    o.log_stem = fmt::format("m{:06}", m.index);
    o.working_dir = o_.working_dir.empty() ? fs::current_path() : o_.working_dir;
    o.env = o_.env;
    o.stop = o_.stop;
    std::error_code ec;
    fs::create_directories(o.replay_path.parent_path(), ec);
    auto result = match::play(o);
    if (!result) {
      // A set-up problem of the whole league (the spec was validated, so this is the disk).
      std::lock_guard lock(mu_);
      outcome_.error = result.error();
      interrupted_ = true;
      return std::nullopt;
    }
    if (result->end == "interrupted") {
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
    return r;
  }

  std::string rerun_command(const match::Options& o) const {
    std::string cmd = fmt::format("{} play --game {} --seed {}", shell_quote(o_.referee), o.game, o.seed);
    if (!o.config.is_null() && !o.config.empty()) cmd += " --config " + shell_quote(o.config.dump());
    for (const match::BotSpec& b : o.bots) cmd += fmt::format(" --bot {} --name {}", shell_quote(b.command), shell_quote(b.name));
    cmd += fmt::format(" --init-ms {} --decision-ms {}", spec_.limits.init_ms, spec_.limits.decision_ms);
    if (spec_.limits.time_bank_ms > 0) cmd += fmt::format(" --time-bank-ms {}", spec_.limits.time_bank_ms);
    if (spec_.time_scale != 1.0) cmd += fmt::format(" --time-scale {}", spec_.time_scale);
    return cmd;
  }

  // The SPRT on what is journaled so far (bot 0's view): on complete duplicate pairs when deals
  // are duplicated, else on games. Called with mu_ held (or before the workers start).
  void update_sprt() {
    if (!spec_.sprt) return;
    const std::string& a = spec_.bots[0].name;
    SprtState state;
    if (spec_.duplicate.value_or(false)) {
      Pentanomial p{};
      std::map<std::uint64_t, std::vector<const MatchRecord*>> by_deal;
      for (const MatchRecord& r : outcome_.records) by_deal[r.deal].push_back(&r);
      for (const auto& [deal, games] : by_deal) {
        if (games.size() != 2) continue;
        double points = 0;
        for (const MatchRecord* r : games) points += points_of(*r, a);
        p.counts[static_cast<std::size_t>(points * 2 + 0.5)] += 1;
      }
      state = sprt_pentanomial(p, *spec_.sprt);
    } else {
      int w = 0, d = 0, l = 0;
      for (const MatchRecord& r : outcome_.records) {
        const double x = points_of(r, a);
        (x > 0.75 ? w : x < 0.25 ? l : d) += 1;
      }
      state = sprt_trinomial(w, d, l, *spec_.sprt);
    }
    outcome_.sprt = state;
    if (o_.on_sprt && !outcome_.records.empty()) o_.on_sprt(state);
    if (state.decision != SprtState::Decision::none) {
      outcome_.sprt_stopped = outcome_.records.size() < schedule_.total();
      sprt_stop_ = true;
    }
  }

  static double points_of(const MatchRecord& r, const std::string& bot) {
    for (std::size_t s = 0; s < r.seats.size(); ++s) {
      if (r.seats[s].bot == bot) return rank_points(r, static_cast<int>(s));
    }
    return 0;
  }

  const LeagueSpec& spec_;
  const RunOptions& o_;
  Schedule schedule_;
  std::set<std::uint64_t> done_;
  std::atomic<std::uint64_t> next_{0};
  mutable std::atomic<bool> interrupted_{false};
  std::atomic<bool> sprt_stop_{false};
  std::mutex mu_;
  std::ofstream journal_;
  LeagueOutcome outcome_;
};

}  // namespace

Result<LeagueOutcome> run(const LeagueSpec& spec, const RunOptions& options) {
  Runner runner(spec, options);
  return runner.run();
}

}  // namespace arena::league
