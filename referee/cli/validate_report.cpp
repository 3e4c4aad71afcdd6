#include "referee/cli/validate_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>

#include "referee/core/markup.hpp"
#include "referee/match/match.hpp"

namespace arena::cli::validate {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr std::size_t kShownRequestBytes = 400;  // of a request, on stderr (the files hold it all)

std::string cut(const std::string& text, std::size_t max) {
  if (text.size() <= max) return text;
  return fmt::format("{}... ({} bytes)", text.substr(0, max), text.size());
}

double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  // Nearest rank: the smallest value with at least p of the decisions at or below it.
  const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(sorted.size())));
  return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

double median(const std::vector<double>& sorted) {
  if (sorted.empty()) return 0;
  const std::size_t n = sorted.size();
  return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

// "tier strict", or "the strictest available (strict)" when no --sandbox was given.
std::string asked_text(const json& sandbox) {
  const std::string policy = sandbox.at("policy").get<std::string>();
  if (sandbox.at("asked").is_null()) return fmt::format("the strictest tier available ({})", policy);
  return fmt::format("tier {}", sandbox.at("asked").get<std::string>());
}

// "strict 30, basic 6", most seats first.
std::string tier_counts(const json& counts) {
  std::vector<std::pair<std::size_t, std::string>> sorted;
  for (const auto& [tier, n] : counts.items()) sorted.emplace_back(n.get<std::size_t>(), tier);
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::string text;
  for (const auto& [n, tier] : sorted) text += fmt::format("{}{} {}", text.empty() ? "" : ", ", tier, n);
  return text;
}

void print_sandbox(const json& sandbox, std::size_t matches) {
  const std::string policy = sandbox.at("policy").get<std::string>();
  const json& seats = sandbox.at("seat_tiers");
  const json& handshake = sandbox.at("handshake");
  std::size_t total = 0;
  for (const auto& n : seats) total += n.get<std::size_t>();
  if (sandbox.at("as_asked").get<bool>()) {
    std::string who = handshake.is_null() ? std::string() : std::string("the handshake");
    if (total > 0) {
      who += fmt::format("{}all {} of {}", who.empty() ? "" : " and ", plural(total, "seat"),
                         matches == 1 ? std::string("1 match") : fmt::format("{} matches", matches));
    }
    say("sandbox: {} asked for{}\n", asked_text(sandbox),
        who.empty() ? std::string() : fmt::format("; {} ran in tier {}", who, policy));
    return;
  }
  say("sandbox: {} asked for, but the handshake ran in tier {} and the seats in: {} (the bot's: {})\n",
      asked_text(sandbox), handshake.is_string() ? handshake.get<std::string>() : std::string("(not started)"),
      tier_counts(seats), tier_counts(sandbox.at("bot_tiers")));
  say("  warning: not every bot ran in the tier asked for (the replays' headers record each seat's)\n");
}

}  // namespace

// "random_bot" for ".../random_bot", "bot.py" for "python3 bot.py": for people and file names.
std::string label_of(const match::BotCommand& command) {
  std::string label = command.display_name();
  for (char& c : label) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '.' && c != '_' && c != '-') c = '_';
  }
  return label.empty() ? std::string("bot") : label;
}

std::string opponent_label(const Setup& s, const json& entry) {
  const auto it = entry.find("opponent");
  if (it == entry.end() || !it->is_string()) return "?";
  for (const match::BotCommand& o : s.opponents) {
    if (o.text == it->get<std::string>()) return label_of(o);
  }
  return "?";
}

std::string plural(std::size_t n, const char* word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

// `path` relative to the working directory when it lies below it (shorter commands to paste).
std::string seat_counts_text(const std::vector<int>& counts) {
  std::string text;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const char* sep = i == 0 ? "" : i + 1 == counts.size() ? " and " : ", ";
    text += fmt::format("{}{}", sep, counts[i]);
  }
  return text + (counts.size() == 1 && counts[0] == 1 ? " seat" : " seats");
}

void print_fault(std::size_t n, const json& f, const Setup& s) {
  const std::string where = f.value("phase", "") == "handshake" && !f.contains("opponent")
                                ? std::string("handshake probe")
                                : fmt::format("seat {} vs {}, seed {}", f.at("seat").get<int>(), opponent_label(s, f),
                                              f.value("seed", std::uint64_t{0}));
  const auto id = f.at("request_id").get<std::int64_t>();
  say("FAULT {}: {}: {} {}: {}\n", n, where, f.at("kind").get<std::string>(),
      id == 0 ? std::string("during the handshake") : fmt::format("at request {}", id),
      terminal_safe(f.at("message").get<std::string>()));
  if (!f.at("raw").get<std::string>().empty()) {
    say("  its reply:  {}\n", terminal_safe(cut(f.at("raw").get<std::string>(), kShownRequestBytes)));
  }
  if (f.contains("request") && !f.at("request").is_null()) {
    const bool sent = f.value("request_sent", true);
    const std::string type = f.at("request").value("type", "request");
    say("  {}: {}\n", sent ? "the " + type : "the next " + type + " (not sent)",
        cut(protocol::to_line(f.at("request")), kShownRequestBytes));
  }
  if (f.contains("request_error")) {
    say("  the request could not be rebuilt: {}\n", terminal_safe(f.at("request_error").get<std::string>()));
  }
  if (!f.value("exit", std::string()).empty()) say("  the bot ended: {}\n", f.at("exit").get<std::string>());
  const auto& tail = f.at("stderr_tail");
  if (!tail.empty()) {
    say("  last lines of its stderr ({}):\n", f.value("stderr_log", std::string()));
    for (const auto& l : tail) say("    | {}\n", terminal_safe(l.get<std::string>()));
  }
  if (f.contains("input") && f.contains("replay"))
    say("  feed it the same input:  {} < {}\n", s.bot.text, shell_quote(f.at("input").get<std::string>()));
  if (f.contains("replay")) say("  replay: {}\n", f.at("replay").get<std::string>());
  say("  re-run:  {}\n", f.at("rerun").get<std::string>());
}

json timing_json(std::vector<double>& times, std::int64_t limit_ms) {
  std::sort(times.begin(), times.end());
  return {{"decisions", times.size()},
          {"median_ms", median(times)},
          {"p99_ms", percentile(times, 0.99)},
          {"max_ms", times.empty() ? 0.0 : times.back()},
          {"limit_ms", limit_ms}};
}

json sandbox_json(const std::string& asked, const Setup& s, const Tally& t, const json& handshake_tier) {
  const std::string policy(enum_name(s.sandbox.tier));
  bool as_asked = handshake_tier.is_null() || handshake_tier == policy;
  for (const auto& [tier, n] : t.seat_tiers) as_asked = as_asked && tier == policy;
  return {{"asked", asked.empty() ? json(nullptr) : json(asked)},
          {"policy", policy},
          {"handshake", handshake_tier},
          {"seat_tiers", t.seat_tiers},
          {"bot_tiers", t.bot_tiers},
          {"as_asked", as_asked}};
}

void print_summary(const json& report, const Tally& t, const Setup& s) {
  for (std::size_t i = 0; i < t.faults.size(); ++i) print_fault(i + 1, t.faults[i], s);
  for (const auto& f : t.opponent_faults) {
    say("note: the opponent {} faulted (seed {}: {} at request {}: {}); not counted against the bot\n",
        opponent_label(s, f), f.at("seed").get<std::uint64_t>(), f.at("kind").get<std::string>(),
        f.at("request_id").get<std::int64_t>(), terminal_safe(f.at("message").get<std::string>()));
  }
  const json& timing = report.at("timing");
  const auto limit_ms = timing.at("limit_ms").get<std::int64_t>();
  if (t.times.empty()) {
    say("decision times: no decision answered\n");
  } else {
    say("decision times ({} decisions): median {:.2f} ms, p99 {:.2f} ms, max {:.2f} ms; limit {} ms\n", t.times.size(),
        timing.at("median_ms").get<double>(), timing.at("p99_ms").get<double>(), timing.at("max_ms").get<double>(),
        limit_ms);
    if (timing.at("max_ms").get<double>() > 0.5 * static_cast<double>(limit_ms)) {
      say("  warning: the slowest decision used over half the limit; a loaded machine may time it out\n");
    }
  }
  say("stderr: {} bytes in all (at most {} in one match; {} kept per match)\n",
      report.at("stderr").at("bytes").get<std::uint64_t>(), t.stderr_max, kStderrCap);
  const std::size_t matches = report.at("matches").size();
  print_sandbox(report.at("sandbox"), matches);
  if (matches > 0) {
    say("replays: {} of {} verified{}\n", t.verified, t.verified + t.diverged,
        t.diverged > 0 ? " (a diverging replay is a referee or game bug: please report it)" : "");
  }
}

}  // namespace arena::cli::validate
