// A ladder worker (worker.hpp): claim, play the legs as a league plays a deal, report.
#include "referee/ladder/worker.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

#include "referee/core/host.hpp"
#include "referee/core/private_file.hpp"
#include "referee/ladder/archive.hpp"
#include "referee/ladder/roster.hpp"
#include "referee/ladder/storage.hpp"
#include "referee/league/deal.hpp"

namespace arena::ladder {

namespace fs = std::filesystem;

namespace {

// Renews a claim's lease, from a database connection of its own (the worker's second, used by
// nothing else while the keeper lives), every third of the lease while the match is played. It
// stops with the match (a worker whose match loop died renews nothing), so a lease held means a
// match in progress.
class LeaseKeeper {
 public:
  LeaseKeeper(Store& store, const Claim& claim, std::int64_t lease_ms, std::function<std::int64_t()> now)
      : thread_([this, &store, claim, lease_ms, now] { keep(store, claim, lease_ms, now); }) {}
  ~LeaseKeeper() {
    {
      std::lock_guard lock(mu_);
      done_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  LeaseKeeper(const LeaseKeeper&) = delete;
  LeaseKeeper& operator=(const LeaseKeeper&) = delete;

 private:
  void keep(Store& store, const Claim& claim, std::int64_t lease_ms, const std::function<std::int64_t()>& now) {
    std::unique_lock lock(mu_);
    while (!wake_.wait_for(lock, std::chrono::milliseconds(lease_ms / 3), [this] { return done_; })) {
      lock.unlock();
      const auto held = store.renew(claim, now(), lease_ms);
      lock.lock();
      if (held && !*held) return;  // taken by another worker: nothing more to renew
    }
  }

  std::mutex mu_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;
};

class Worker {
 public:
  Worker(const Location& where, const LadderConfig& config, const WorkerOptions& o, std::unique_ptr<Store> store)
      : where_(where), config_(config), o_(o), store_(std::move(store)) {}

  Result<WorkerOutcome> run() {
    for (const char* sub : {"matches", "logs"}) {
      if (auto made = files::make_private_dirs(o_.cache / sub); !made) return fail(made.error());
    }
    // The versions' files: every bot's uid passes through (0711) to its own folder (0755); in
    // tier strict a bot sees only its own folder, in basic the others' too (docs/ladder.md).
    // The storage folders (storage.hpp), when the ladder keeps storage, likewise: each is its
    // bot's alone (0700, given to its uid).
    std::vector<fs::path> shared = {o_.cache, o_.cache / "versions"};
    if (config_.storage) shared.push_back(o_.cache / "storage");
    std::error_code ec;
    for (const fs::path& p : shared) {
      fs::create_directories(p, ec);
      fs::permissions(p, fs::perms(0711), ec);
    }
    if (ec) return fail(fmt::format("cannot create {}: {}", (o_.cache / "versions").string(), ec.message()));
    if (config_.storage) clear_storage_folders(o_.cache / "storage");
    WorkerRow row{o_.name, host_name(), now(), now(), std::nullopt};
    if (auto st = store_->heartbeat(row); !st) return fail(st.error());
    std::int64_t idle_since = now();
    Status ended;
    while (!stopping()) {
      if (o_.max_matches > 0 && outcome_.played >= o_.max_matches) break;
      auto claim = store_->claim(o_.name, now(), lease_ms());
      if (!claim) {
        ended = fail(claim.error());
        break;
      }
      if (!*claim) {
        row.heartbeat_ms = now();
        row.match.reset();
        if (auto st = store_->heartbeat(row); !st) {
          ended = fail(st.error());
          break;
        }
        if (o_.idle_exit.count() > 0 && now() - idle_since >= o_.idle_exit.count()) break;
        if (o_.stop != nullptr ? o_.stop->wait_for(o_.poll) : (std::this_thread::sleep_for(o_.poll), false)) break;
        continue;
      }
      row.heartbeat_ms = now();
      row.match = (*claim)->match.id;
      if (auto st = store_->heartbeat(row); !st) {
        ended = fail(st.error());
        break;
      }
      if (auto st = play(**claim); !st) {
        ended = fail(st.error());
        break;
      }
      idle_since = now();
    }
    (void)store_->worker_gone(o_.name);
    if (!ended) return fail(ended.error());
    return outcome_;
  }

 private:
  std::int64_t now() const { return o_.now_ms ? o_.now_ms() : league::unix_ms(); }
  std::int64_t lease_ms() const { return static_cast<std::int64_t>(config_.lease_s) * 1000; }
  bool stopping() const { return o_.stop != nullptr && o_.stop->requested(); }
  void say(const std::string& line) const {
    if (o_.say) o_.say(line);
  }

  // Plays a claimed match and reports it; an error only for the database or the disk (the match
  // is given back first when it can be).
  Status play(const Claim& claim) {
    const MatchRow& m = claim.match;
    auto table = roster_.table(*store_, m, o_.cache / "versions", config_);
    if (!table) {
      (void)store_->give_back(claim);
      return fail(table.error());
    }
    const fs::path dir = o_.cache / "matches" / std::to_string(m.id);
    if (auto made = files::make_private_dirs(dir); !made) return fail(made.error());
    // Every version's storage as it is now: each leg starts from it.
    MatchStorage storage(claim, config_, o_.cache / "storage");
    if (auto st = storage.load(*store_); !st) {
      (void)store_->give_back(claim);
      return fail(st.error());
    }
    std::vector<LegReport> legs;
    {
      if (!renewals_) {
        auto opened = Store::open(where_);
        if (!opened) {
          (void)store_->give_back(claim);
          return fail(opened.error());
        }
        renewals_ = std::move(*opened);
      }
      LeaseKeeper lease(*renewals_, claim, lease_ms(), [this] { return now(); });
      for (int leg = 0; leg < m.legs; ++leg) {
        league::Scheduled s;
        s.index = static_cast<std::uint64_t>(m.id);
        s.deal = static_cast<std::uint64_t>(m.id);
        s.leg = leg;
        s.seed = m.seed;
        s.seat_bots = table->leg_bots(leg);
        const fs::path replay = dir / fmt::format("leg{}.jsonl", leg);
        auto bots = storage.prepare_leg(*table, leg);
        if (!bots) {
          (void)store_->give_back(claim);
          return fail(bots.error());
        }
        const std::int64_t start = now();
        auto played = league::play_match(setup(), *bots, s, replay, fmt::format("match{}-leg{}", m.id, leg), kept_);
        if (!played) {
          (void)store_->give_back(claim);
          return fail(played.error());
        }
        if (!*played) {  // interrupted: nothing is reported
          (void)store_->give_back(claim);
          ++outcome_.given_back;
          fs::remove_all(dir);
          return {};
        }
        storage.finish_leg(*table, leg);
        auto text = files::read_file(replay);
        if (!text) {
          (void)store_->give_back(claim);
          return fail(text.error());
        }
        legs.push_back(LegReport{leg, (*played)->result, std::move(*text), start, now()});
      }
    }
    for (const std::string& problem : storage.problems()) {
      if (auto st = store_->log_event(EventKind::storage, problem, now()); !st) return fail(st.error());
    }
    auto reported = store_->report(claim, legs, now(), storage.reports());
    std::error_code ec;
    fs::remove_all(dir, ec);
    if (!reported) return fail(reported.error());
    if (*reported) {
      ++outcome_.played;
      say(fmt::format("match {} played ({} leg{})", m.id, m.legs, m.legs == 1 ? "" : "s"));
    } else {
      ++outcome_.lost;
      say(fmt::format("match {}: its lease expired before the report; another worker plays it", m.id));
    }
    return {};
  }

  league::MatchSetup setup() const {
    league::MatchSetup s;
    s.game = config_.game;
    s.config = config_.config;
    s.limits = config_.limits;
    s.time_scale = config_.time_scale;
    s.sandbox = o_.sandbox;
    s.env = o_.env;
    s.stop = o_.stop;
    s.working_dir = o_.cache;
    s.log_dir = o_.cache / "logs";
    s.hidden = {fs::absolute(o_.cache / "matches"), fs::absolute(o_.cache / "logs")};
    // The ladder's own folder (its database, replays, builds) but the cache the bots run from.
    std::error_code ec;
    if (!where_.folder.empty()) {
      const fs::path cache = fs::weakly_canonical(o_.cache, ec);
      for (const auto& entry : fs::directory_iterator(where_.folder, ec)) {
        const fs::path p = fs::weakly_canonical(entry.path(), ec);
        const fs::path rel = cache.lexically_relative(p);
        if (!rel.empty() && *rel.begin() != "..") continue;  // the cache is in it
        s.hidden.push_back(p);
      }
    }
    return s;
  }

  const Location& where_;
  const LadderConfig& config_;
  const WorkerOptions& o_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<Store> renewals_;  // the lease keeper's connection, opened once
  Roster roster_;
  league::KeptBots kept_;  // empty: a ladder starts its bots for every match
  WorkerOutcome outcome_;
};

}  // namespace

Result<WorkerOutcome> run_worker(const Location& where, const LadderConfig& config, const WorkerOptions& options) {
  auto store = Store::open(where);
  if (!store) return fail(store.error());
  Worker w(where, config, options, std::move(*store));
  return w.run();
}

}  // namespace arena::ladder
