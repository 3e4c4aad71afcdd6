// The ladder's coordinator (coordinator.hpp).
#include "referee/ladder/coordinator.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "referee/core/private_file.hpp"
#include "referee/ladder/archive.hpp"
#include "referee/ladder/audit.hpp"
#include "referee/ladder/build.hpp"
#include "referee/ladder/check.hpp"
#include "referee/ladder/matchmaking.hpp"
#include "referee/ladder/roster.hpp"
#include "referee/league/deal.hpp"

namespace arena::ladder {

namespace fs = std::filesystem;

namespace {

// Tier basic runs the check's bot under a uid of its own on this file system: it must pass through
// the builds' folders (0711: nothing listed) and read its built folder (o+r, o+x where the owner
// has x, folders o+rx). Links are never followed: a built folder is a stranger's (the build's
// processes are gone by now, so nothing changes under the walk).
Status open_to_bot_uids(const std::vector<fs::path>& passages, const fs::path& folder) {
  std::error_code ec;
  for (const fs::path& p : passages) {
    fs::permissions(p, fs::perms(0711), ec);
    if (ec) return fail(fmt::format("cannot open {} to the bots' uids: {}", p.string(), ec.message()));
  }
  const auto open = [&](const fs::path& p) -> Status {
    const auto st = fs::symlink_status(p, ec);
    if (ec) return fail(fmt::format("cannot read {}: {}", p.string(), ec.message()));
    if (fs::is_directory(st)) {
      fs::permissions(p, fs::perms::others_read | fs::perms::others_exec, fs::perm_options::add, ec);
    } else if (fs::is_regular_file(st)) {
      fs::perms add = fs::perms::others_read;
      if ((st.permissions() & fs::perms::owner_exec) != fs::perms::none) add |= fs::perms::others_exec;
      fs::permissions(p, add, fs::perm_options::add, ec);
    }  // links, and anything else, stay as they are
    if (ec) return fail(fmt::format("cannot open {} to the bots' uids: {}", p.string(), ec.message()));
    return {};
  };
  if (auto st = open(folder); !st) return st;
  for (auto it = fs::recursive_directory_iterator(folder, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (auto st = open(it->path()); !st) return st;
  }
  if (ec) return fail(fmt::format("cannot walk {}: {}", folder.string(), ec.message()));
  return {};
}

// The first line of a text, for one-line reasons.
std::string first_line(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

}  // namespace

Coordinator::Coordinator(const Location& where, const LadderConfig& config, const CoordinatorOptions& options,
                         std::unique_ptr<Store> store)
    : where_(where), config_(config), o_(options), store_(std::move(store)), rng_(os_random_u64()) {}

Result<std::unique_ptr<Coordinator>> Coordinator::open(const Location& where, const LadderConfig& config,
                                                       const CoordinatorOptions& options) {
  auto store = Store::open(where);
  if (!store) return fail(store.error());
  if (auto st = (*store)->put_setting(kConfigFile, to_json(config).dump()); !st) return fail(st.error());
  auto latest = (*store)->latest_ratings();
  if (!latest) return fail(latest.error());
  std::unique_ptr<Coordinator> c(new Coordinator(where, config, options, std::move(*store)));
  for (const RatingRow& r : *latest) c->stored_[r.version] = r;
  return c;
}

void Coordinator::say(const std::string& line) const {
  if (o_.say) o_.say(line);
}

// ---- builds ------------------------------------------------------------------------------------

Result<std::size_t> Coordinator::build_pending() {
  auto pending = store_->versions(VersionState::building);
  if (!pending) return fail(pending.error());
  std::size_t decided = 0;
  for (const VersionRow& v : *pending) {
    if (o_.stop != nullptr && o_.stop->requested()) break;
    const std::string label = version_label(v);
    auto source = store_->version_source(v.id);
    if (!source) return fail(source.error());
    auto files = read_archive(*source, submission_limits(config_));
    std::string command;
    Bytes built;
    std::string log;
    std::string fault;
    if (!files) {
      fault = fmt::format("its files: {}", files.error().message);
    } else if (auto submission = submission_from(std::move(*files)); !submission) {
      fault = fmt::format("its files: {}", submission.error().message);
    } else {
      const fs::path work = o_.builds / std::to_string(v.id);
      std::error_code ec;
      fs::remove_all(work, ec);
      if (auto made = files::make_private_dirs(work); !made) return fail(made.error());
      BuildOptions bo;
      bo.limits.wall = std::chrono::seconds(config_.build.time_s);
      bo.limits.memory_mb = config_.build.memory_mb;
      bo.limits.output_bytes = config_.build.log_kb * 1024;
      bo.stop = o_.stop;
      say(fmt::format("{}: building", label));
      auto b = build(*submission, work, bo);
      if (!b) return fail(fmt::format("{}: the build could not run: {}", label, b.error()));
      if (b->outcome == BuildOutcome::interrupted) break;
      log = b->log;
      if (!b->ok()) {
        fault = b->message;
      } else {
        CheckOptions co;
        co.game = config_.game;
        co.config = config_.config;
        co.seat_counts = {config_.seats};
        co.games = config_.check_games;
        co.opponents = o_.opponents;
        co.limits = config_.limits;
        co.time_scale = config_.time_scale;
        co.sandbox = o_.sandbox;
        co.env = o_.env;
        co.seed = os_random_u64();
        co.stop = o_.stop;
        if (config_.check_games > 0 && o_.sandbox.tier == bots::Tier::basic) {
          if (auto opened = open_to_bot_uids({o_.builds, work}, b->folder); !opened)
            return fail(fmt::format("{}: {}", label, opened.error()));
        }
        if (config_.check_games > 0) {
          auto checked = check(submission->manifest.run, b->folder, work / "check", co);
          if (!checked) return fail(fmt::format("{}: the conformance check could not run: {}", label, checked.error()));
          if (checked->outcome == CheckOutcome::interrupted) break;
          log += "\n" + checked->log;
          if (!checked->passed()) fault = fmt::format("the conformance check: {}", checked->message);
        }
        if (fault.empty()) {
          auto packed = pack_folder(b->folder, built_limits(config_), built_limits(config_).max_total_bytes);
          if (!packed) {
            fault = fmt::format("the built files: {}", packed.error().message);
          } else {
            built = std::move(*packed);
            command = submission->manifest.run;
          }
        }
      }
      fs::remove_all(work, ec);
    }
    const bool ok = fault.empty();
    if (auto st = store_->finish_build(v.id, ok ? VersionState::active : VersionState::rejected, command, built, log,
                                       first_line(fault), league::unix_ms());
        !st) {
      return fail(st.error());
    }
    ++decided;
    say(ok ? fmt::format("{}: active", label) : fmt::format("{}: rejected: {}", label, first_line(fault)));
  }
  return decided;
}

// ---- audits ------------------------------------------------------------------------------------

Result<std::size_t> Coordinator::audit_reported() {
  auto reported = store_->reported(64);
  if (!reported) return fail(reported.error());
  std::size_t counted = 0;
  std::map<Id, std::string> labels;
  for (const MatchRow& m : *reported) {
    for (Id id : m.seats) {
      if (labels.contains(id)) continue;
      auto v = store_->version(id);
      if (!v) return fail(v.error());
      labels[id] = *v ? version_label(**v) : std::to_string(id);
    }
    auto legs = store_->reported_legs(m.id);
    if (!legs) return fail(legs.error());
    const std::string why = audit_report(m, *legs, config_, labels);
    const std::int64_t now = league::unix_ms();
    if (why.empty()) {
      if (auto st = store_->count(m.id, now); !st) return fail(st.error());
      ++counted;
    } else {
      const std::string reason =
          fmt::format("match {} as reported by {} (attempt {}): {}", m.id, m.worker, m.attempt, why);
      if (auto st = store_->refuse(m.id, reason, now); !st) return fail(st.error());
      say(fmt::format("REFUSED {}", reason));
    }
  }
  return counted;
}

// ---- ratings ----------------------------------------------------------------------------------

Status Coordinator::refit() {
  const std::uint64_t before = board_.games();
  if (auto st = board_.load(*store_); !st) return st;
  if (board_.games() == before && !stored_.empty()) return {};
  const std::int64_t now = league::unix_ms();
  std::vector<RatingRow> rows;
  // A version's history gets a row when it played since its last row, or when the others' games
  // moved it by a point or more.
  for (const VersionRating& r : board_.fitted()) {
    const auto last = stored_.find(r.version);
    if (last != stored_.end() && last->second.games == r.games && std::abs(last->second.rating - r.rating) < 1.0)
      continue;
    RatingRow row{r.version, r.rating, r.low, r.high, r.games, now};
    rows.push_back(row);
    stored_[r.version] = row;
  }
  if (rows.empty()) return {};
  return store_->add_ratings(rows);
}

// ---- the queue ----------------------------------------------------------------------------------

Status Coordinator::top_up() {
  auto active = store_->versions(VersionState::active);
  if (!active) return fail(active.error());
  // A version retired (replaced or withdrawn) leaves the queue at once: its queued tables go.
  std::set<Id> playing;
  for (const VersionRow& v : *active) playing.insert(v.id);
  auto waiting = store_->matches(MatchState::queued, 100000);
  if (!waiting) return fail(waiting.error());
  for (const MatchRow& m : *waiting) {
    if (std::all_of(m.seats.begin(), m.seats.end(), [&](Id id) { return playing.contains(id); })) continue;
    if (auto dropped = store_->cancel(m.id); !dropped) return fail(dropped.error());
  }
  auto queued = store_->count_matches(MatchState::queued);
  if (!queued) return fail(queued.error());
  if (*queued >= o_.queue_target) return {};
  if (active->size() < static_cast<std::size_t>(config_.seats)) return {};
  // Tables already waiting or being played count toward each version's share.
  std::map<Id, std::uint64_t> pending;
  for (MatchState s : {MatchState::queued, MatchState::running, MatchState::reported}) {
    auto rows = store_->matches(s, 100000);
    if (!rows) return fail(rows.error());
    for (const MatchRow& m : *rows) {
      for (Id id : m.seats) ++pending[id];
    }
  }
  std::map<Id, const VersionRating*> fitted;
  for (const VersionRating& r : board_.fitted()) fitted[r.version] = &r;
  std::vector<Candidate> candidates;
  for (const VersionRow& v : *active) {
    Candidate c;
    c.version = v.id;
    if (const auto it = fitted.find(v.id); it != fitted.end()) {
      c.rating = it->second->rating;
      c.games = it->second->games;
      if (it->second->rated) c.uncertainty = (it->second->high - it->second->low) / 2;
    }
    c.pending = pending[v.id];
    c.active_since_ms = v.decided_ms;
    candidates.push_back(c);
  }
  MatchmakingSettings settings;
  settings.seats = config_.seats;
  settings.placement_games = static_cast<std::uint64_t>(config_.placement_games);
  settings.tables = static_cast<int>(o_.queue_target - *queued);
  auto tables = choose_tables(candidates, settings, league::unix_ms(), rng_.next());
  if (!tables) return fail(fmt::format("matchmaking: {}", tables.error()));
  const std::int64_t now = league::unix_ms();
  std::vector<NewMatch> matches;
  for (const Table& t : *tables) {
    NewMatch m;
    m.seats = t.seats;
    m.seed = os_random_u64();  // never derived: a replay's seed must not tell the next match's
    m.legs = config_.legs();
    m.priority = t.priority;
    m.now_ms = now;
    matches.push_back(std::move(m));
  }
  if (matches.empty()) return {};
  auto ids = store_->enqueue(matches);
  if (!ids) return fail(ids.error());
  return {};
}

// ---- the loop ----------------------------------------------------------------------------------

Result<bool> Coordinator::step() {
  auto built = build_pending();
  if (!built) return fail(built.error());
  auto counted = audit_reported();
  if (!counted) return fail(counted.error());
  const std::uint64_t before = board_.games();
  if (auto st = refit(); !st) return fail(st.error());
  auto queued_before = store_->count_matches(MatchState::queued);
  if (!queued_before) return fail(queued_before.error());
  if (auto st = top_up(); !st) return fail(st.error());
  auto queued_after = store_->count_matches(MatchState::queued);
  if (!queued_after) return fail(queued_after.error());
  return *built > 0 || *counted > 0 || board_.games() != before || *queued_after != *queued_before;
}

}  // namespace arena::ladder
