// The bot page (bot_page.hpp): the server draws the versions, the chart, the head-to-head table
// and the recent games; its script only fills in the build logs with the author's token, as text.
#include "referee/web/bot_page.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "referee/core/enum_names.hpp"
#include "referee/core/markup.hpp"
#include "referee/ladder/roster.hpp"
#include "referee/league/stats.hpp"
#include "referee/web/token_script.hpp"

namespace arena::web {

namespace {

// Each version's colour in the chart and its legend.
constexpr std::array<const char*, 6> kVersionColours = {"#6fa8ff", "#ffd166", "#7ee08a",
                                                        "#ff8fab", "#b48cff", "#5fd3d3"};

constexpr std::string_view kBotCss = R"(
.logs { background: var(--panel); border-radius: 6px; padding: 6px 10px; margin-bottom: 8px; }
.logs h3 { font-size: 14px; margin: 2px 0 4px; }
.logs p { margin: 2px 0; overflow-wrap: anywhere; }
.logs .why { color: var(--fault); }
pre.log { max-height: 20em; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere; background: #0c1122;
  padding: 6px; margin: 4px 0; font-size: 12px; }
svg.chart { width: 100%; max-width: 760px; height: auto; background: var(--panel); border-radius: 6px; display: block; }
svg.chart text { fill: var(--muted); font-size: 11px; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 14px; margin: 4px 0; color: var(--muted); }
.legend i { display: inline-block; width: 14px; height: 4px; margin-right: 4px; vertical-align: middle; }
.state-rejected { color: var(--fault); }
.state-active { color: #7ee08a; }
.state-building, .state-retired { color: var(--muted); }
)";

// Fills each version's logs from GET /api/v1/versions/ID with the token the submit page kept in
// this tab (or one typed in), writing every text as text.
constexpr std::string_view kBotJs = R"(
  const form = document.getElementById('logs-form');
  const note = document.getElementById('logs-note');
  function para(cls, text) {
    const p = document.createElement('p');
    if (cls) p.className = cls;
    p.textContent = text;
    return p;
  }
  function fill(cell, v) {
    const parts = [];
    const title = document.createElement('h3');
    title.textContent = v.label + ' (' + v.state + ')';
    parts.push(title);
    if (v.fault) parts.push(para('why', 'why it was rejected: ' + v.fault));
    if (v.first_fault) {
      const f = v.first_fault;
      const p = para('why', 'first fault in play: ' + f.kind + ' (' + f.message + ') in ');
      const a = document.createElement('a');
      a.href = '/matches/' + f.match + '/' + f.leg + '#step=0';
      a.textContent = 'game ' + f.game;
      p.appendChild(a);
      parts.push(p);
    }
    const details = document.createElement('details');
    const summary = document.createElement('summary');
    summary.textContent = 'build log';
    const pre = document.createElement('pre');
    pre.className = 'log';
    pre.textContent = v.build_log === '' ? '(empty)' : v.build_log;
    details.append(summary, pre);
    if (v.state === 'rejected') details.open = true;
    parts.push(details);
    cell.replaceChildren(...parts);
  }
  async function show(token) {
    try {
      for (const cell of document.querySelectorAll('[data-logs]')) {
        const body = await read('/api/v1/versions/' + cell.dataset.logs, token);
        if (!('build_log' in body)) throw new Error("this token is neither the bot's author's nor the organiser's");
        fill(cell, body);
      }
      sessionStorage.setItem(kTokenKey, token);
      note.classList.remove('refused');
      note.textContent = 'shown with your token';
    } catch (e) {
      note.classList.add('refused');
      note.textContent = 'not shown: ' + e.message;
    }
  }
  withToken(form, show);
)";

// A refit's row holds an interval once the version had enough games (before, the fit stores the
// rating's bounds, [-kEloBound, +kEloBound]).
bool has_interval(const ladder::RatingRow& r) {
  return r.low > -league::kEloBound || r.high < league::kEloBound;
}

// A version that has not played and will not (rejected, retired) has no rating to wait for.
std::string rating_text(const VersionView& v, const RatingScale& scale) {
  const ladder::VersionState s = v.row.version.state;
  if (v.row.rating.games == 0 && (s == ladder::VersionState::rejected || s == ladder::VersionState::retired))
    return R"(<span class="elo-none">none</span>)";
  return rating_cell(v.row.rating, scale);
}

std::string state_text(ladder::VersionState s) {
  return fmt::format(R"(<span class="state-{0}">{0}</span>)", enum_name(s));
}

// A version's build log, why it was rejected and its first fault in play, as the server draws
// them (the script draws the same from the API).
std::string logs_html(const VersionView& v) {
  const ladder::VersionRow& row = v.row.version;
  std::string out = fmt::format("<h3>{} ({})</h3>", markup_escape(ladder::version_label(row)), enum_name(row.state));
  if (!row.fault.empty()) out += fmt::format(R"(<p class="why">why it was rejected: {}</p>)", markup_escape(row.fault));
  if (v.first_fault != nullptr) {
    const FirstFault& f = *v.first_fault;
    out +=
        fmt::format(R"(<p class="why">first fault in play: {} ({}) in <a href="/matches/{}/{}#step=0">game {}</a></p>)",
                    enum_name(f.kind), markup_escape(f.message), f.match, f.leg, f.game);
  }
  out += fmt::format(R"(<details{}><summary>build log</summary><pre class="log">{}</pre></details>)",
                     row.state == ladder::VersionState::rejected ? " open" : "",
                     row.build_log.empty() ? "(empty)" : markup_escape(row.build_log));
  return out;
}

}  // namespace

std::vector<ladder::RatingRow> sample_history(const std::vector<ladder::RatingRow>& history, std::size_t points) {
  if (history.size() <= points || points < 2) return history;
  std::vector<ladder::RatingRow> out;
  out.reserve(points);
  for (std::size_t i = 0; i < points; ++i) out.push_back(history[i * (history.size() - 1) / (points - 1)]);
  return out;
}

std::string rating_chart(const BotView& bot) {
  std::int64_t t0 = 0;
  std::int64_t t1 = 0;
  double lo = 0;
  double hi = 0;
  bool any = false;
  for (const VersionView& v : bot.versions) {
    for (const ladder::RatingRow& r : v.history) {
      t0 = any ? std::min(t0, r.at_ms) : r.at_ms;
      t1 = any ? std::max(t1, r.at_ms) : r.at_ms;
      lo = std::min(lo, has_interval(r) ? r.low : r.rating);
      hi = std::max(hi, has_interval(r) ? r.high : r.rating);
      any = true;
    }
  }
  if (!any) return R"(<p class="note" data-testid="no-chart">No rating yet: no version of it has played.</p>)";
  if (t1 == t0) {
    t0 -= 60'000;
    t1 += 60'000;
  }
  const double margin = std::max(10.0, (hi - lo) * 0.05);
  lo -= margin;
  hi += margin;
  constexpr double kWidth = 720, kHeight = 240, kLeft = 52, kRight = 12, kTop = 10, kBottom = 26;
  const auto x = [&](std::int64_t t) {
    return kLeft + (kWidth - kLeft - kRight) * static_cast<double>(t - t0) / static_cast<double>(t1 - t0);
  };
  const auto y = [&](double r) { return kTop + (kHeight - kTop - kBottom) * (hi - r) / (hi - lo); };
  std::string svg = fmt::format(
      R"(<svg class="chart" data-testid="rating-chart" viewBox="0 0 {} {}" role="img" aria-label="rating over time">)",
      kWidth, kHeight);
  // The axes: the rating's range and 0 (the field's mean), the first and last refit's time.
  svg += fmt::format(R"(<line x1="{0}" y1="{1:.1f}" x2="{2}" y2="{1:.1f}" stroke="#9aa6c6" stroke-dasharray="3 3"/>)",
                     kLeft, y(0), kWidth - kRight);
  svg += fmt::format(R"(<text x="4" y="{:.1f}">{:+.0f}</text><text x="4" y="{:.1f}">{:+.0f}</text>)", kTop + 10, hi,
                     kHeight - kBottom, lo);
  // The 0 label only where it clears the range's two (12 units of height each).
  if (y(0) > kTop + 18 && y(0) < kHeight - kBottom - 16)
    svg += fmt::format(R"(<text x="4" y="{:.1f}">0</text>)", y(0) + 4);
  svg += fmt::format(R"(<text x="{}" y="{}">{}</text><text x="{}" y="{}" text-anchor="end">{}</text>)", kLeft,
                     kHeight - 8, minute_text(t0), kWidth - kRight, kHeight - 8, minute_text(t1));
  std::string legend;
  for (std::size_t k = 0; k < bot.versions.size(); ++k) {
    const VersionView& v = bot.versions[k];
    if (v.history.empty()) continue;
    const char* colour = kVersionColours[k % kVersionColours.size()];
    // The interval as a band over each run of refits that had one.
    std::string bands;
    for (std::size_t i = 0; i < v.history.size();) {
      if (!has_interval(v.history[i])) {
        ++i;
        continue;
      }
      std::size_t end = i;
      while (end < v.history.size() && has_interval(v.history[end])) ++end;
      std::string band;
      for (std::size_t j = i; j < end; ++j)
        band += fmt::format("{:.1f},{:.1f} ", x(v.history[j].at_ms), y(v.history[j].high));
      for (std::size_t j = end; j-- > i;)
        band += fmt::format("{:.1f},{:.1f} ", x(v.history[j].at_ms), y(v.history[j].low));
      bands += fmt::format(R"(<polygon class="interval" points="{}" fill="{}" fill-opacity="0.2" stroke="{}" )"
                           R"(stroke-opacity="0.5"/>)",
                           band, colour, colour);
      i = end;
    }
    std::string line;
    for (const ladder::RatingRow& r : v.history) line += fmt::format("{:.1f},{:.1f} ", x(r.at_ms), y(r.rating));
    svg += fmt::format(R"(<g data-version="{}">{}<polyline points="{}" fill="none" stroke="{}" stroke-width="2"/>)",
                       v.row.version.id, bands, line, colour);
    const ladder::RatingRow& last = v.history.back();
    svg +=
        fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="3" fill="{}"/></g>)", x(last.at_ms), y(last.rating), colour);
    legend += fmt::format(R"(<span><i style="background:{}"></i>{}: {:+.0f} {} after {} games</span>)", colour,
                          markup_escape(ladder::version_label(v.row.version)), last.rating,
                          has_interval(last) ? fmt::format("[{:+.0f}, {:+.0f}]", last.low, last.high)
                                             : std::string("(too few games for an interval)"),
                          last.games);
  }
  svg += "</svg>";
  return svg + fmt::format(R"(<p class="legend">{}</p>)", legend);
}

std::string bot_page(const ladder::LadderConfig& config, const BotView& bot) {
  std::vector<ladder::BoardRow> rows;
  for (const VersionView& v : bot.versions) rows.push_back(v.row);
  const RatingScale scale = rating_scale(rows);
  std::string versions;
  std::string logs;
  for (const VersionView& v : bot.versions) {
    const ladder::VersionRow& row = v.row.version;
    versions +=
        fmt::format(R"(<tr data-version="{}"><td>v{}</td><td>{}</td><td class="hide-narrow">{}</td><td>{}</td>)"
                    R"(<td class="num">{}</td><td class="num">{}</td><td class="num hide-narrow">{}</td></tr>)",
                    row.id, row.number, state_text(row.state), minute_text(row.submitted_ms), rating_text(v, scale),
                    v.row.rating.games, v.row.rating.games > 0 ? record_text(v.row.rating) : "-", v.row.faults);
    logs += fmt::format(R"(<div class="logs" data-logs="{}">{}</div>)", row.id,
                        config.logs_public ? logs_html(v)
                                           : fmt::format("<h3>{} ({})</h3>", markup_escape(ladder::version_label(row)),
                                                         enum_name(row.state)));
  }
  const bool two = config.seats == 2;
  std::string rivals;
  for (const Rivalry& r : bot.rivals) {
    rivals +=
        fmt::format(R"(<tr><td class="bot">{}</td><td class="num">{}</td><td class="num">{}</td>)"
                    R"(<td class="num">{:.0f}%</td></tr>)",
                    bot_link(r.opponent, r.opponent), r.games,
                    two ? fmt::format("{}/{}/{}", r.wins, r.draws, r.losses) : fmt::format("{:.2f}", r.mean_place),
                    100 * r.score());
  }
  const std::string access =
      config.logs_public
          ? R"(<p class="note">Build logs and faults are public on this ladder (ladder.json "logs_public").</p>)"
          : R"(<form id="logs-form" class="filters"><label><span>Build logs and faults are shown to the bot's author )"
            R"(and the organiser: your token</span><input id="token" type="password" autocomplete="off" required>)"
            R"(</label><button type="submit">Show</button></form><p id="logs-note" class="note" role="status"></p>)";
  return fmt::format(
      R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{game} ladder: {bot}</title><style>{css}{bot_css}</style></head>
<body><header><h1>{bot}</h1><p class="note">by <span id="author">{author}</span> &middot; <a href="/">the leaderboard</a>
&middot; <a href="/matches?bot={bot}">all its matches</a> &middot; as JSON: <a href="/api/v1/bots/{bot}">/api/v1/bots/{bot}</a></p></header>
<main><h2>Versions</h2><section><table id="versions"><thead><tr><th>version</th><th>state</th>
<th class="hide-narrow">submitted</th><th>rating [95% interval]</th><th class="num">games</th><th class="num">{record}</th>
<th class="num hide-narrow">faults</th></tr></thead><tbody>{versions}</tbody></table></section>
<h2>Rating over time</h2><section>{chart}</section>
<h2>Head to head</h2><section><table id="rivals"><thead><tr><th>against</th><th class="num">games</th>
<th class="num">{rival_record}</th><th class="num">score</th></tr></thead><tbody>{rivals}</tbody></table></section>
<h2>Recent matches</h2><section>{games}</section>
<h2>Build logs and faults</h2>{access}<div id="logs">{logs}</div></main>
{script}</body></html>
)",
      fmt::arg("game", markup_escape(config.game)), fmt::arg("bot", markup_escape(bot.name)),
      fmt::arg("author", markup_escape(bot.author)), fmt::arg("css", page_style(true)), fmt::arg("bot_css", kBotCss),
      fmt::arg("record", two ? "W/D/L" : "places"), fmt::arg("versions", versions),
      fmt::arg("chart", rating_chart(bot)), fmt::arg("rival_record", two ? "W/D/L" : "mean place"),
      fmt::arg("rivals", rivals), fmt::arg("games", games_table(bot.recent)), fmt::arg("access", access),
      fmt::arg("logs", logs),
      fmt::arg("script", config.logs_public ? std::string()
                                            : fmt::format("<script>(function () {{'use strict';{}{}}})();</script>",
                                                          kTokenScriptJs, kBotJs)));
}

}  // namespace arena::web
