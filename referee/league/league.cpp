#include "referee/league/league.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

#include "referee/bots/affinity.hpp"
#include "referee/core/host.hpp"
#include "referee/core/private_file.hpp"
#include "referee/core/rng.hpp"
#include "referee/core/version.hpp"
#include "referee/games/game.hpp"
#include "referee/league/deal.hpp"
#include "referee/league/folder.hpp"
#include "referee/league/league_file.hpp"
#include "referee/league/rounds.hpp"
#include "referee/match/match.hpp"

namespace arena::league {

namespace fs = std::filesystem;

// ---- the runner ----------------------------------------------------------------------------

namespace {

constexpr int kMaxShards = 100000;

class Runner {
 public:
  Runner(const LeagueSpec& spec, const RunOptions& o)
      : spec_(spec),
        o_(o),
        schedule_(spec_),
        working_dir_(o.working_dir.empty() ? fs::current_path() : fs::absolute(o.working_dir)),
        shard_(o.shard.value_or(Shard{})) {}

  Result<LeagueOutcome> run() {
    // A new league checks its bots before it creates anything; a resumed one once league.json
    // has said where its commands are relative to (check_league_file).
    const bool resuming = o_.resume && fs::exists(o_.out / "league.json");
    if (auto st = check_sprt_on_shard(spec_, o_.shard); !st) return fail(st.error());
    if (auto st = check_rounds_on_shard(spec_, o_.shard); !st) return fail(st.error());
    if (!resuming) {
      if (auto st = preflight(); !st) return fail(st.error());
    }
    if (auto st = check_not_link(o_.out); !st) return fail(st.error());
    // Owner-only while bots run (a bot must not read a match): the folders 0700, the files 0600.
    auto created = files::make_private_dirs(o_.out);
    if (!created) return fail(created.error());
    folders_ = *created;
    if (auto st = check_league_file(); !st) return fail(st.error());
    if (auto st = check_sprt_on_shard(spec_, shard_); !st) return fail(st.error());
    for (const char* sub : {kReplaysDir, kLogsDir}) {
      if (auto made = files::make_private_dirs(o_.out / sub); !made) return fail(made.error());
      folders_.push_back(o_.out / sub);
    }
    setup_ = match_setup();
    outcome_.seed = *spec_.seed;
    outcome_.seed_scheme = *spec_.seed_scheme;
    if (plays_in_rounds(spec_.format)) rounds_.emplace(spec_);  // its seed is known now
    if (spec_.sprt) sprt_.emplace(spec_.bots[0].name, schedule_.legs(), schedule_.deals(), *spec_.sprt);
    // What was journaled before, streamed: its indices (as ranges: the workers skip them), its
    // count, the SPRT's tally.
    std::string foreign;  // the first record of another shard, if any
    auto existing = stream_journal(journal_path(), [&](const MatchRecord& r) {
      if (r.index < schedule_.total() && !shard_.owns_deal(r.deal) && foreign.empty()) {
        foreign = fmt::format(
            "{}: match {} (deal {}) belongs to another shard than {}/{}: this folder is not that "
            "shard's",
            journal_path().string(), r.index, r.deal, shard_.index, shard_.count);
      }
      if (r.index < schedule_.total()) done_.insert(r.index);
      if (rounds_) rounds_->add(r);
      count(r);
    });
    if (!existing) return fail(existing.error());
    if (!foreign.empty()) return fail(foreign);
    if (rounds_) {  // a journal whose matches its rounds do not pair is another league's
      if (auto paired = rounds_->rounds(); !paired)
        return fail(fmt::format("{}: {}", journal_path().string(), paired.error()));
    }
    if (auto st = repair_tail(*existing); !st) return fail(st.error());
    auto journal = files::open_private(journal_path(), std::ios::app);
    if (!journal) return fail(journal.error());
    journal_ = std::move(journal).value();
    if (existing->unterminated && !existing->torn) {
      *journal_ << '\n' << std::flush;
      if (!*journal_) return fail(fmt::format("cannot write {}", journal_path().string()));
    }
    outcome_.total = owned_deals(schedule_.deals()) * static_cast<std::uint64_t>(schedule_.legs());
    outcome_.league_total = schedule_.total();
    if (shard_.count > 1) outcome_.shard = shard_;
    update_sprt();

    const std::int64_t started_ms = unix_ms();
    if (rounds_) {
      play_rounds();
    } else {
      // A worker takes a whole deal: no more workers than deals with a leg missing. A deal is
      // complete when all its legs lie in one range of journaled indices.
      const auto legs = static_cast<std::uint64_t>(schedule_.legs());
      std::uint64_t complete = 0;
      for (const auto& [first, last] : done_.ranges()) {       // indices below total: last + 1 does not overflow
        const std::uint64_t from = (first + legs - 1) / legs;  // the first deal starting in the range
        const std::uint64_t to = (last + 1) / legs;            // one past the last deal ending in it
        if (to > from) complete += owned_deals(to) - owned_deals(from);
      }
      play_deals(0, schedule_.deals(), owned_deals(schedule_.deals()) - complete);
    }

    if (o_.share_output) {  // every bot is gone: the league's folders and files
      std::vector<fs::path> paths = folders_;
      paths.push_back(o_.out / "league.json");
      paths.push_back(journal_path());
      if (auto st = files::share(paths); !st && outcome_.error.empty()) outcome_.error = st.error();
    }
    outcome_.interrupted = interrupted_.load();
    outcome_.records = JournalRecords(journal_path(), outcome_.journaled);
    if (shard_.count > 1) {
      if (auto st = write_manifest(started_ms); !st && outcome_.error.empty()) outcome_.error = st.error();
    }
    return std::move(outcome_);
  }

 private:
  fs::path journal_path() const { return o_.out / kJournalFile; }

  // Deals of this run's shard below deal `end` (all of them without a shard).
  std::uint64_t owned_deals(std::uint64_t end) const { return shard_.deals_below(end); }
  // The k-th deal of this run's shard.
  std::uint64_t owned_deal(std::uint64_t k) const {
    return k * static_cast<std::uint64_t>(shard_.count) + static_cast<std::uint64_t>(shard_.index - 1);
  }

  // shard.json, the shard's manifest: which machine played it, with what, when. Each run (the
  // first and every resume) adds an entry, so a merge can tell a slow or faulty machine.
  Status write_manifest(std::int64_t started_ms) const {
    const fs::path file = o_.out / "shard.json";
    json manifest = {{"shard", to_json(shard_)}, {"runs", json::array()}};
    if (auto text = files::read_file(file); text) {  // never through a link (docs/security.md)
      json old = json::parse(*text, nullptr, false);
      if (old.is_object() && old.contains("runs") && old.at("runs").is_array()) manifest["runs"] = old.at("runs");
    }
    manifest["runs"].push_back({{"host", host_name()},
                                {"referee_version", std::string(referee_version())},
                                {"cpu", cpu_model()},
                                {"cpus", usable_cpus()},
                                {"concurrency", spec_.concurrency},
                                {"start_unix_ms", started_ms},
                                {"end_unix_ms", unix_ms()},
                                {"played", outcome_.played_now},
                                {"journaled", outcome_.journaled},
                                {"interrupted", outcome_.interrupted}});
    return files::write_private(file, manifest.dump(2) + '\n', o_.share_output);
  }
  fs::path replay_of(std::uint64_t index) const { return o_.out / replay_name(index); }

  // What every match of this league shares; its working directory is the resolved one.
  MatchSetup match_setup() const {
    return {.game = spec_.game,
            .config = spec_.config,
            .limits = spec_.limits,
            .time_scale = spec_.time_scale,
            .sandbox = o_.sandbox,
            .env = o_.env,
            .grace = o_.grace,
            .stop = o_.stop,
            .working_dir = working_dir_,
            .log_dir = o_.out / kLogsDir,
            .hidden = {fs::absolute(o_.out).lexically_normal()},  // league.json, the journal, other matches
            .reuse = o_.reuse,
            .rerun = o_.rerun};
  }

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
        paths.push_back(o_.out / log_name(i, static_cast<std::size_t>(seat)));  // match.hpp's log names
      }
    }
    if (auto st = files::share(paths); !st) {
      outcome_.error = st.error();
      interrupted_ = true;
    }
  }

  // Every bot command can start (match::preflight), from the league's working directory.
  Status preflight() const {
    for (const match::BotSpec& b : spec_.bots) {
      if (auto st = match::preflight(b.command, working_dir_, o_.env); !st)
        return fail(fmt::format("bot {}: {}", b.name, st.error()));
    }
    return {};
  }

  // league.json records the league; a resume must be of the same league (concurrency aside,
  // check_same_league), of the same shard, and takes its working directory, its shard, and its
  // seed and scheme unless the spec sets them. A new league draws its seed from the OS.
  Status check_league_file() {
    const fs::path file = o_.out / kLeagueFile;
    if (std::error_code ec; fs::exists(fs::symlink_status(file, ec))) {
      if (!o_.resume) {
        return fail(fmt::format("{} already holds a league; pass --resume to finish it, or choose another --out",
                                o_.out.string()));
      }
      std::optional<LeagueFile> read;
      if (o_.recorded == nullptr) {
        auto r = read_league_file(o_.out);
        if (!r) return fail(r.error());
        read = std::move(r).value();
      }
      const LeagueFile& recorded = o_.recorded != nullptr ? *o_.recorded : *read;
      if (auto st = check_shard(o_.shard, recorded); !st) return fail(st.error());
      if (recorded.shard) shard_ = *recorded.shard;
      if (recorded.working_dir) working_dir_ = *recorded.working_dir;
      if (auto st = check_same_league(spec_, recorded); !st) return fail(st.error());
      return preflight();
    }
    if (!spec_.seed) spec_.seed = os_random_u64();
    if (!spec_.seed_scheme) spec_.seed_scheme = SeedScheme::keyed_v1;
    const LeagueFile recorded{file, spec_, working_dir_,
                              shard_.count > 1 ? std::optional<Shard>(shard_) : std::nullopt};
    return files::write_private(file, to_json(recorded).dump(2) + '\n');
  }

  // Plays the deals begin .. end - 1 (those of this run's shard), `missing` of them with a leg
  // not journaled: a worker takes a whole deal, so no more workers than those.
  void play_deals(std::uint64_t begin, std::uint64_t end, std::uint64_t missing) {
    next_deal_ = owned_deals(begin);
    deal_end_ = end;
    const auto threads =
        static_cast<std::size_t>(std::min<std::uint64_t>(static_cast<std::uint64_t>(spec_.concurrency), missing));
    std::vector<std::thread> workers;
    for (std::size_t i = 0; i < threads; ++i) {
      workers.emplace_back([this, i] {
        if (o_.affinity) bots::pin_thread_to_cpu(i);
        work();
      });
    }
    for (std::thread& t : workers) t.join();
  }

  // A Swiss or knockout league (rounds.hpp): round after round, each paired from the journal once
  // the one before is wholly journaled; a stop or an error ends it between (or within) rounds.
  void play_rounds() {
    const RoundLayout& layout = rounds_->layout();
    const auto legs = static_cast<std::uint64_t>(layout.legs());
    for (int r = 0; r < layout.rounds(); ++r) {
      auto paired = rounds_->rounds();
      if (!paired) {
        outcome_.error = fmt::format("{}: {}", journal_path().string(), paired.error());
        return;
      }
      if (paired->size() <= static_cast<std::size_t>(r)) return;  // the round before is not complete
      const PlayedRound& round = (*paired)[static_cast<std::size_t>(r)];
      if (round.complete) continue;
      tables_ = round.tables;
      const std::uint64_t begin = layout.round_begin(r) / legs;
      const std::uint64_t end = layout.round_begin(r + 1) / legs;
      std::uint64_t missing = 0;
      for (std::uint64_t deal = begin; deal < end; ++deal) {
        for (std::uint64_t i = deal * legs; i < deal * legs + legs; ++i) {
          if (!done_.contains(i)) {
            ++missing;
            break;
          }
        }
      }
      play_deals(begin, end, missing);
      if (stopping()) return;
    }
  }

  // The match `index`: the schedule's, or in a league of rounds its round's (tables_).
  Scheduled scheduled(std::uint64_t index) const {
    return rounds_ ? round_match(spec_, rounds_->layout(), index, tables_) : schedule_.at(index);
  }

  // The unit of work is a deal: its legs (the same cards, seats rotated) are played one after the
  // other by this worker, so two copies of one bot never hold both hands of a deal at once.
  void work() {
    const auto legs = static_cast<std::uint64_t>(schedule_.legs());
    KeptBots kept;  // --reuse: this worker's bot processes, by (bot, leg)
    for (;;) {
      if (stopping()) break;
      const std::uint64_t slot = next_deal_.fetch_add(1);
      if (slot >= owned_deals(deal_end_)) break;
      const std::uint64_t deal = owned_deal(slot);
      if (o_.reuse) keep_only(kept, scheduled(deal * legs).seat_bots, setup_);
      std::uint64_t journaled = 0;  // legs of this deal journaled before or now
      for (std::uint64_t leg = 0; leg < legs; ++leg) {
        const std::uint64_t index = deal * legs + leg;
        if (done_.contains(index)) {
          ++journaled;
          continue;
        }
        if (stopping()) break;  // Ctrl-C or a decided SPRT, also between the legs of a deal
        if (play_and_journal(scheduled(index), journaled + 1 == legs, kept)) ++journaled;
      }
    }
    keep_only(kept, {}, setup_);
  }

  // Plays a match and journals it; false when it was not journaled (interrupted, or the journal
  // could not be written). `completes_deal`: it is the last leg of its deal still missing.
  bool play_and_journal(const Scheduled& m, bool completes_deal, KeptBots& kept) {
    auto record = play(m, kept);
    if (!record) return false;  // interrupted: nothing is written, resume plays it again
    std::lock_guard lock(mu_);
    *journal_ << journal_line(*record) << '\n' << std::flush;
    if (!*journal_) {
      outcome_.error = fmt::format("cannot write {}", journal_path().string());
      interrupted_ = true;
      return false;
    }
    count(*record);
    if (rounds_) rounds_->add(*record);
    if (completes_deal && o_.share_output) share_deal(m.deal);
    ++outcome_.played_now;
    if (o_.on_match) o_.on_match(*record, outcome_.journaled, outcome_.total);
    update_sprt();
    return true;
  }

  bool stopping() const {
    if (o_.stop != nullptr && o_.stop->requested()) {
      interrupted_ = true;
      return true;
    }
    return sprt_stop_.load() || interrupted_.load() || refused_.load();
  }

  // Plays a match (deal.hpp); nullopt when it was not played to its end: interrupted, or a set-up
  // or disk problem of the whole league (the league stops).
  std::optional<MatchRecord> play(const Scheduled& m, KeptBots& kept) {
    auto played = play_match(setup_, spec_.bots, m, replay_of(m.index), match_stem(m.index), kept);
    if (!played) {
      std::lock_guard lock(mu_);
      outcome_.error = played.error();
      interrupted_ = true;
      return std::nullopt;
    }
    if (!*played) {
      interrupted_ = true;
      return std::nullopt;
    }
    const auto& fault = (*played)->record.fault;
    if (fault && fault->kind == replay::FaultKind::unsupported_game) {  // not journaled: the league stops
      std::lock_guard lock(mu_);
      if (outcome_.refused.empty()) {
        const std::string& bot =
            spec_.bots[static_cast<std::size_t>(m.seat_bots[static_cast<std::size_t>(fault->seat)])].name;
        outcome_.refused = fmt::format("bot {} {}", bot, fault->message);
      }
      refused_ = true;
      return std::nullopt;
    }
    return std::move((*played)->record);
  }

  // The SPRT on what is journaled so far (bot 0's view), from its tally: on complete duplicate
  // pairs when deals are duplicated, else on games. Called with mu_ held (or before the workers
  // start).
  void update_sprt() {
    if (!sprt_) return;
    const SprtState state = sprt_->state();
    const std::uint64_t counted = sprt_->counted_deals() * static_cast<std::uint64_t>(schedule_.legs());
    // Reported when a block is complete: the test looks at the league only there.
    if (o_.on_sprt && counted > outcome_.sprt_counted_matches) o_.on_sprt(state);
    outcome_.sprt = state;
    outcome_.sprt_counted_matches = counted;
    if (sprt_->decided()) {
      outcome_.sprt_stopped = counted < schedule_.total();
      sprt_stop_ = true;
    }
  }

  LeagueSpec spec_;  // its seed and seed scheme resolved by check_league_file
  const RunOptions& o_;
  Schedule schedule_;
  fs::path working_dir_;  // absolute; a resume's from league.json
  MatchSetup setup_;      // what its matches share, once the working directory is known
  Shard shard_;           // 1/1: the whole league
  IndexSet done_;         // journaled before this run (read only while the workers run)
  std::optional<SprtTally> sprt_;
  std::optional<RoundsPlay> rounds_;  // Swiss and knockout: the rounds, from the journal
  std::vector<TableTally> tables_;    // the round being played (read only while the workers run)
  std::atomic<std::uint64_t> next_deal_{0};
  std::uint64_t deal_end_ = 0;  // the deals being played end before this one
  mutable std::atomic<bool> interrupted_{false};
  std::atomic<bool> sprt_stop_{false};
  std::atomic<bool> refused_{false};  // a bot does not play the league's game (outcome_.refused)
  std::mutex mu_;
  std::unique_ptr<std::ostream> journal_;  // results.jsonl, appended (files::open_private)
  LeagueOutcome outcome_;
  std::vector<fs::path> folders_;  // this run's new folders, replays/ and logs/ (--share-output)
};

}  // namespace

Result<Shard> parse_shard(std::string_view text) {
  const auto slash = text.find('/');
  int index = 0;
  int count = 0;
  const auto number = [](std::string_view part, int& out) {
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), out);
    return ec == std::errc() && end == part.data() + part.size() && !part.empty();
  };
  if (slash == std::string_view::npos || !number(text.substr(0, slash), index) ||
      !number(text.substr(slash + 1), count) || count < 1 || count > kMaxShards || index < 1 || index > count) {
    return fail(fmt::format("--shard \"{}\": expected I/N with 1 <= I <= N <= {} (e.g. 2/4)", text, kMaxShards));
  }
  return Shard{index, count};
}

Result<std::optional<Shard>> recorded_shard(const json& league_file, const std::string& file) {
  const auto it = league_file.find("shard");
  if (it == league_file.end()) return std::optional<Shard>();
  if (!it->is_object() || !it->value("index", json()).is_number_integer() ||
      !it->value("count", json()).is_number_integer()) {
    return fail(fmt::format("{}: \"shard\" is not {{\"index\": I, \"count\": N}}", file));
  }
  const Shard shard{it->at("index").get<int>(), it->at("count").get<int>()};
  if (shard.count < 1 || shard.index < 1 || shard.index > shard.count)
    return fail(fmt::format("{}: shard {}/{} is not a shard", file, shard.index, shard.count));
  return std::optional<Shard>(shard);
}

json to_json(const Shard& shard) {
  return {{"index", shard.index}, {"count", shard.count}};
}

Result<LeagueOutcome> run(const LeagueSpec& spec, const RunOptions& options) {
  Runner runner(spec, options);
  return runner.run();
}

}  // namespace arena::league
