#include "referee/league/deal.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace arena::league {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kFaultExcerpt = 300;     // bytes of a fault's request and reply in the journal
constexpr std::size_t kFaultStderrLines = 10;  // the offender's last stderr lines in the journal

// The journal's record of a finished (or faulted) match.
MatchRecord record_of(const match::MatchResult& result, const std::vector<match::BotSpec>& bots, const Scheduled& m) {
  MatchRecord r;
  r.index = m.index;
  r.deal = m.deal;
  r.leg = m.leg;
  r.seed = m.seed;
  r.end = result.end;
  for (std::size_t s = 0; s < m.seat_bots.size(); ++s) {
    SeatRecord seat;
    seat.bot = bots[static_cast<std::size_t>(m.seat_bots[s])].name;
    if (s < result.scores.size()) seat.score = result.scores[s];  // none on a fault: 0
    seat.rank = result.ranks.at(s);
    seat.decision_ms = result.seats[s].decision_ms;
    seat.stderr_bytes = result.seats[s].stderr_bytes;
    r.seats.push_back(std::move(seat));
  }
  if (result.fault) {
    const match::Fault& f = *result.fault;
    // The request and the reply, cut for the journal (junit.xml quotes them); the replay and the
    // bot's stderr log hold the rest.
    r.fault = FaultRecord{f.seat,
                          f.kind,
                          f.request_id,
                          f.message,
                          f.request.substr(0, std::min(f.request.size(), kFaultExcerpt)),
                          f.raw.substr(0, std::min(f.raw.size(), kFaultExcerpt))};
    // The offender's last stderr lines (a crash's traceback ends there), each cut like the excerpts.
    const std::size_t first = f.stderr_tail.size() - std::min(f.stderr_tail.size(), kFaultStderrLines);
    for (std::size_t i = first; i < f.stderr_tail.size(); ++i)
      r.fault->stderr_tail.push_back(f.stderr_tail[i].substr(0, std::min(f.stderr_tail[i].size(), kFaultExcerpt)));
  }
  return r;
}

}  // namespace

std::int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void keep_only(KeptBots& kept, const std::vector<int>& bots, const MatchSetup& setup) {
  for (auto it = kept.begin(); it != kept.end();) {
    if (std::find(bots.begin(), bots.end(), it->first.first) != bots.end()) {
      ++it;
      continue;
    }
    // At a stop, no grace: the league must end within moments whatever the bots do.
    const bool now = setup.stop != nullptr && setup.stop->requested();
    if (it->second.process) it->second.process->shutdown(now ? std::chrono::milliseconds(0) : setup.grace);
    it = kept.erase(it);
  }
}

Result<std::optional<PlayedMatch>> play_match(const MatchSetup& setup, const std::vector<match::BotSpec>& bots,
                                              const Scheduled& m, const fs::path& replay, const std::string& log_stem,
                                              KeptBots& kept) {
  match::Options o;
  o.game = setup.game;
  o.config = m.config.is_null() ? setup.config : m.config;
  o.seed = m.seed;
  for (int b : m.seat_bots) o.bots.push_back(bots.at(static_cast<std::size_t>(b)));  // its deck moves with it
  o.sandbox = setup.sandbox;
  o.limits = setup.limits;
  o.time_scale = setup.time_scale;
  o.replay_path = replay;
  o.log_dir = setup.log_dir;
  o.hidden = setup.hidden;
  o.log_stem = log_stem;
  o.working_dir = setup.working_dir;
  o.grace = setup.grace;
  o.env = setup.env;
  o.stop = setup.stop;
  if (setup.reuse) {
    for (int bot : m.seat_bots) o.kept.push_back(&kept[{bot, m.leg}]);
    // A kept process meets every bot of the list in time: none of their files is for it.
    for (const match::BotSpec& bot : bots) o.hide_commands.push_back(bot.command);
  }
  const std::int64_t start = unix_ms();
  auto result = match::play(o);
  const std::int64_t end = unix_ms();
  if (!result) return fail(result.error());  // the list was validated, so this is the disk
  // The replay could not be written: the disk, as above; the match is not journaled.
  if (result->end == match::End::error) return fail(fmt::format("match {}: {}", m.index, result->error));
  if (result->end == match::End::interrupted) {
    std::error_code ec;
    fs::remove(replay, ec);
    return std::optional<PlayedMatch>();
  }
  PlayedMatch played{record_of(*result, bots, m), std::move(result).value()};
  played.record.replay = replay.string();
  if (setup.rerun) played.record.rerun = setup.rerun(o);
  played.record.start_unix_ms = start;
  played.record.end_unix_ms = end;
  return std::optional<PlayedMatch>(std::move(played));
}

}  // namespace arena::league
