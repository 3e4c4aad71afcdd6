// JUnit XML for CI: what failed, in which match, and how to see it again.
//
// <testsuites>
//   <testsuite name="league">: one testcase "league complete", failing when the league is partial
//   <testsuite name=BOT> per bot: a failing testcase "m000012 timeout" per match in which the bot
//     faulted (its first kFaultEntriesPerBot; then one "N more faults"), or one passing testcase
//     "no faults"; the bot's summary line in <system-out>.
//   <testsuite name="sprt">, with an SPRT only: one testcase "BOT not rejected by the SPRT",
//     failing (type "sprt-h0") when H0 was accepted, skipped while undecided, passing on H1.

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "referee/core/markup.hpp"
#include "referee/league/report_text.hpp"
#include "referee/league/standings.hpp"

namespace arena::league {

namespace {

using report_text::faults_text;
using report_text::finite;

struct Case {
  std::string name;
  std::string failure_type;  // "" for a passing testcase
  std::string message;
  std::string body;
  bool skipped = false;  // with `message` as the reason
};

// What a CI page shows of one fault: enough to find the match, see it and play it again.
Case fault_case(const std::string& bot, const FaultEntry& f) {
  Case c;
  const std::string kind(enum_name(f.kind));
  c.name = fmt::format("m{:06} {}", f.index, kind);
  c.failure_type = kind;
  c.message = fmt::format("{} {} in match m{:06}: {}", bot, kind, f.index, f.message);
  c.body =
      fmt::format("bot: {}\nmatch: m{:06} (seat {})\nfault: {}\nmessage: {}\n", bot, f.index, f.seat, kind, f.message);
  if (!f.request.empty()) c.body += fmt::format("request (id {}): {}\n", f.request_id, f.request);
  if (!f.reply.empty()) c.body += fmt::format("reply: {}\n", f.reply);
  if (!f.stderr_tail.empty()) {
    c.body += "last stderr lines:\n";
    for (const std::string& line : f.stderr_tail) c.body += fmt::format("  {}\n", line);
  }
  c.body += fmt::format("replay: {}\nre-run: {}\n", f.replay.empty() ? "(not recorded)" : f.replay,
                        f.rerun.empty() ? "(not recorded)" : f.rerun);
  return c;
}

std::vector<Case> bot_cases(const BotStanding& b) {
  std::vector<Case> cases;
  for (const FaultEntry& f : b.fault_entries) cases.push_back(fault_case(b.name, f));
  const int listed = static_cast<int>(b.fault_entries.size());
  if (b.fault_count() > listed) {
    Case more;
    more.name = fmt::format("{} more faults", b.fault_count() - listed);
    more.failure_type = "fault";
    more.message = fmt::format("{} committed {} faults ({}); the first {} are listed", b.name, b.fault_count(),
                               faults_text(b), listed);
    more.body = more.message + "\n";
    cases.push_back(std::move(more));
  }
  if (cases.empty()) cases.push_back(Case{"no faults", "", "", ""});
  return cases;
}

// The SPRT's verdict as a test: its losing verdict (H0 accepted) fails it.
Case sprt_case(const Standings& s) {
  const SprtVerdict& v = *s.sprt;
  Case c;
  c.name = fmt::format("{} not rejected by the SPRT", v.bot);
  const std::string text = sprt_text(s, [](std::string_view t) { return std::string(t); });
  switch (v.state.decision) {
    case SprtState::Decision::accept_h0:
      c.failure_type = "sprt-h0";
      c.message = text;
      c.body = fmt::format("{}\ncounted matches: {}\n", text, v.counted_matches);
      break;
    case SprtState::Decision::none:
      c.skipped = true;
      c.message = text;
      break;
    case SprtState::Decision::accept_h1:
      break;
  }
  return c;
}

std::size_t failures_of(const std::vector<Case>& cases) {
  return static_cast<std::size_t>(
      std::count_if(cases.begin(), cases.end(), [](const Case& c) { return !c.failure_type.empty(); }));
}

// One <testsuite> with its testcases (classname: the report's name, then the suite's).
std::string suite_xml(const std::string& report, const std::string& name, const std::vector<Case>& cases,
                      double seconds, const std::string& properties, const std::string& system_out) {
  const auto skipped = std::count_if(cases.begin(), cases.end(), [](const Case& c) { return c.skipped; });
  std::string out = fmt::format(
      "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" time=\"{:.3f}\">\n",
      markup_escape(name), cases.size(), failures_of(cases), skipped, seconds);
  out += properties;
  const std::string classname = markup_escape(fmt::format("{}.{}", report, name));
  for (const Case& c : cases) {
    out += fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"0\">", classname, markup_escape(c.name));
    if (!c.failure_type.empty()) {
      out += fmt::format("\n      <failure message=\"{}\" type=\"{}\">{}</failure>\n    ", markup_escape(c.message),
                         markup_escape(c.failure_type), markup_escape(c.body));
    } else if (c.skipped) {
      out += fmt::format("\n      <skipped message=\"{}\"/>\n    ", markup_escape(c.message));
    }
    out += "</testcase>\n";
  }
  if (!system_out.empty()) out += fmt::format("    <system-out>{}</system-out>\n", markup_escape(system_out));
  out += "  </testsuite>\n";
  return out;
}

}  // namespace

std::string junit_xml(const Standings& s, const std::string& suite_name) {
  std::vector<Case> league_cases;
  if (s.completion.partial) {
    std::string body = completion_text(s) + "\n";
    if (s.not_counted > 0) body += not_counted_text(s) + "\n";
    league_cases.push_back(Case{"league complete", "partial", completion_text(s), body});
  } else {
    league_cases.push_back(Case{"league complete", "", "", ""});
  }
  std::string properties = "    <properties>\n";
  const auto property = [&](std::string_view name, const std::string& value) {
    properties += fmt::format("      <property name=\"{}\" value=\"{}\"/>\n", name, markup_escape(value));
  };
  property("matches", fmt::format("{}", s.matches));
  property("seats_per_match", fmt::format("{}", s.seats_per_match));
  property("points_rule", s.points_rule);
  property("partial", s.completion.partial ? "true" : "false");
  if (s.completion.partial) {
    property("journaled", fmt::format("{}", s.completion.journaled));
    property("total", fmt::format("{}", s.completion.total));
  }
  property("not_counted", fmt::format("{}", s.not_counted));
  properties += "    </properties>\n";

  std::string suites = suite_xml(suite_name, "league", league_cases, 0, properties, not_counted_text(s));
  std::size_t tests = league_cases.size();
  std::size_t failures = failures_of(league_cases);
  if (s.sprt) {
    const std::vector<Case> cases = {sprt_case(s)};
    tests += cases.size();
    failures += failures_of(cases);
    suites += suite_xml(suite_name, "sprt", cases, 0, "", "");
  }
  double total_ms = 0;
  for (const BotStanding& b : s.bots) {
    const std::vector<Case> cases = bot_cases(b);
    tests += cases.size();
    failures += failures_of(cases);
    total_ms += finite(b.decision_total_ms);
    suites += suite_xml(suite_name, b.name, cases, finite(b.decision_total_ms) / 1000, "", report_text::bot_summary(b));
  }
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuites name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" time=\"{:.3f}\">\n",
                     markup_escape(suite_name), tests, failures, total_ms / 1000);
  out += suites;
  out += "</testsuites>\n";
  return out;
}

}  // namespace arena::league
