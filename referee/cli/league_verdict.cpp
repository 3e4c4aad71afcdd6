#include "referee/cli/league_verdict.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <string_view>

#include "referee/cli/common.hpp"
#include "referee/core/markup.hpp"

namespace arena::cli {

Result<FailOn> parse_fail_on(const std::vector<std::string>& values) {
  FailOn f;
  constexpr std::string_view kElo = "elo-below=";
  for (const std::string& v : values) {
    if (v == "fault") {
      f.fault = true;
    } else if (v == "sprt-h0") {
      f.sprt_h0 = true;
    } else if (std::string_view(v).substr(0, kElo.size()) == kElo) {
      std::string number = v.substr(kElo.size());
      const std::string error = within(bounds::kElo)(number);
      if (!error.empty()) {
        return fail(fmt::format("--fail-on {}: {} is not a number in {}", v, number.empty() ? "\"\"" : number,
                                bounds::text(bounds::kElo)));
      }
      std::string_view text = number;
      if (text.front() == '+') text.remove_prefix(1);
      double x = 0;
      std::from_chars(text.data(), text.data() + text.size(), x);
      f.elo_below = x;
    } else {
      return fail(fmt::format("--fail-on: unknown condition \"{}\" (conditions: fault, sprt-h0, elo-below=X)", v));
    }
  }
  return f;
}

Verdict league_verdict(const FailOn& f, const league::Standings& s, const std::string& first_bot) {
  if (f.fault) {
    std::vector<std::string> faulted;
    for (const league::BotStanding& b : s.bots) {
      if (b.fault_count() > 0) faulted.push_back(fmt::format("{} ({})", terminal_safe(b.name), b.fault_count()));
    }
    if (!faulted.empty()) {
      std::string list;
      for (const std::string& text : faulted) list += (list.empty() ? "" : ", ") + text;
      return {kBotFault, fmt::format("--fail-on fault: bots faulted: {}", list)};
    }
  }
  if (f.sprt_h0 && s.sprt && s.sprt->state.decision == league::SprtState::Decision::accept_h0) {
    return {kSprtH0, fmt::format("--fail-on sprt-h0: {}", league::sprt_text(s, terminal_safe))};
  }
  if (f.elo_below) {
    const auto bot =
        std::find_if(s.bots.begin(), s.bots.end(), [&](const league::BotStanding& b) { return b.name == first_bot; });
    if (bot == s.bots.end() || bot->elo.samples == 0) {
      return {kEloBelow, fmt::format("--fail-on elo-below={:g}: {} has no counted games, so no Elo", *f.elo_below,
                                     terminal_safe(first_bot))};
    }
    if (bot->elo.elo < *f.elo_below) {
      return {kEloBelow, fmt::format("--fail-on elo-below={:g}: {} has Elo {}", *f.elo_below, terminal_safe(first_bot),
                                     league::format_elo(bot->elo))};
    }
  }
  return {};
}

}  // namespace arena::cli
