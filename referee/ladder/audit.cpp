#include "referee/ladder/audit.hpp"

#include <fmt/format.h>

#include "referee/ladder/roster.hpp"
#include "referee/replay/replay.hpp"

namespace arena::ladder {

std::string audit_report(const MatchRow& m, const std::vector<LegReport>& legs, const LadderConfig& config,
                         const std::map<Id, std::string>& labels) {
  if (legs.size() != static_cast<std::size_t>(m.legs)) {
    return fmt::format("{} legs reported, the match has {}", legs.size(), m.legs);
  }
  for (std::size_t i = 0; i < legs.size(); ++i) {
    const LegReport& leg = legs[i];
    const std::string where = fmt::format("leg {}", i);
    if (leg.leg != static_cast<int>(i)) return fmt::format("{}: reported as leg {}", where, leg.leg);
    auto parsed = replay::parse_text(leg.replay);
    if (!parsed) return fmt::format("{}: the replay cannot be read: {}", where, parsed.error());
    const replay::Replay& r = *parsed;
    const replay::Verification v = replay::verify(r);
    if (!v.ok) return fmt::format("{}: the replay does not re-simulate: {}", where, v.message);
    const replay::Header& h = r.header;
    if (h.game != config.game)
      return fmt::format("{}: game \"{}\", the ladder plays \"{}\"", where, h.game, config.game);
    if (h.config != config.config) return fmt::format("{}: the game's configuration is not the ladder's", where);
    if (h.seed != m.seed) return fmt::format("{}: seed {}, the match's is {}", where, h.seed, m.seed);
    const std::vector<Id> seats = leg_seats(m.seats, static_cast<int>(i));
    if (h.bots.size() != seats.size()) {
      return fmt::format("{}: {} seats, the match has {}", where, h.bots.size(), seats.size());
    }
    for (std::size_t s = 0; s < seats.size(); ++s) {
      const auto label = labels.find(seats[s]);
      const std::string expected = label == labels.end() ? std::to_string(seats[s]) : label->second;
      if (h.bots[s].name != expected) {
        return fmt::format("{}: seat {} was played by \"{}\", the match puts {} there", where, s, h.bots[s].name,
                           expected);
      }
    }
    const replay::FinalResult& found = *v.result;
    if (found.end != replay::End::finished && found.end != replay::End::fault) {
      return fmt::format("{}: the match ended \"{}\", which is not a result", where, enum_name(found.end));
    }
    const json replayed = replay::to_json(found);
    const json reported = replay::to_json(leg.result);
    for (const auto& [key, value] : replayed.items()) {
      const auto it = reported.find(key);
      if (it == reported.end() || *it != value) {
        return fmt::format("{}: the reported result.{} differs from the replay's", where, key);
      }
    }
    if (reported.size() != replayed.size())
      return fmt::format("{}: the reported result has fields the replay's has not", where);
  }
  return {};
}

}  // namespace arena::ladder
