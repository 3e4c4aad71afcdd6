// The ladder's web pages (pages.hpp): server-rendered HTML in the viewer's colours (the league
// page's style sheet), every bot- and author-written text escaped (markup_escape); a page's
// script only refreshes what the server drew, from the JSON API, writing text as text.
#include "referee/web/pages.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ctime>
#include <map>
#include <set>

#include "referee/core/enum_names.hpp"
#include "referee/core/markup.hpp"
#include "referee/ladder/roster.hpp"
#include "referee/render/html.hpp"
#include "referee/render/league_page.hpp"
#include "referee/replay/replay.hpp"
#include "referee/web/token_script.hpp"

namespace arena::web {

namespace {

std::string esc(std::string_view text) {
  return markup_escape(text);
}

constexpr std::string_view kPageCss = R"(
.live { color: var(--muted); font-size: 12px; }
.live.stale { color: var(--fault); }
@media (max-width: 600px) {
  header, main { padding: 6px 8px; }
  .elo-cell { flex-direction: column; align-items: flex-start; gap: 2px; }
  .elo-cell span { font-size: 12px; }
  .elo-bar { width: 100px; }
  td.bot { overflow-wrap: break-word; }
  .hide-narrow { display: none; }
  th, td { padding: 3px 4px; }
  th { white-space: normal; }
}
)";

// The pages' scripts run in a function of their own in strict mode (the page wraps them).

// Refreshes the leaderboard's rows from GET /api/v1/leaderboard every few seconds; text is
// written with textContent, never parsed as HTML.
constexpr std::string_view kLeaderboardJs = R"(
  const body = document.getElementById('board-rows');
  const live = document.getElementById('live');
  const meta = document.getElementById('board-meta');
  function cell(row, text, cls) {
    const td = document.createElement('td');
    if (cls) td.className = cls;
    td.textContent = text;
    row.appendChild(td);
    return td;
  }
  function signed(x) { return (x >= 0 ? '+' : '') + Math.round(x); }
  function when(ms) {
    if (!ms) return '-';
    const d = new Date(ms);
    const two = (n) => String(n).padStart(2, '0');
    return d.getUTCFullYear() + '-' + two(d.getUTCMonth() + 1) + '-' + two(d.getUTCDate()) + ' ' +
      two(d.getUTCHours()) + ':' + two(d.getUTCMinutes()) + ' UTC';
  }
  function ratingCell(row, r, scale) {
    const td = cell(row, '', '');
    if (!r.games) {
      const span = document.createElement('span');
      span.className = 'elo-none';
      span.textContent = 'placing';
      td.appendChild(span);
      return;
    }
    const text = r.rated ? signed(r.rating) + ' [' + signed(r.low) + ', ' + signed(r.high) + ']'
      : signed(r.rating) + ' (too few games)';
    const at = (x) => (100 * (x - scale.lo) / (scale.hi - scale.lo)).toFixed(2) + '%';
    const wrap = document.createElement('div');
    wrap.className = 'elo-cell';
    const bar = document.createElement('div');
    bar.className = 'elo-bar';
    bar.dataset.testid = 'elo-bar';
    bar.title = '95% interval ' + text;
    const part = (cls, left, width) => {
      const d = document.createElement('div');
      d.className = cls;
      d.style.left = left;
      if (width) d.style.width = width;
      bar.appendChild(d);
    };
    part('zero', at(0));
    if (r.rated) part('ci', at(r.low), (100 * (r.high - r.low) / (scale.hi - scale.lo)).toFixed(2) + '%');
    part('point', at(r.rating));
    const label = document.createElement('span');
    label.textContent = text;
    wrap.appendChild(bar);
    wrap.appendChild(label);
    td.appendChild(wrap);
  }
  function draw(board) {
    let lo = 0, hi = 0;
    for (const r of board.rows) {
      if (!r.games) continue;
      lo = Math.min(lo, r.low, r.rating);
      hi = Math.max(hi, r.high, r.rating);
    }
    const margin = Math.max(10, (hi - lo) * 0.05);
    const scale = { lo: lo - margin, hi: hi + margin };
    const rows = [];
    for (const r of board.rows) {
      const tr = document.createElement('tr');
      tr.dataset.bot = r.version.bot;
      cell(tr, String(r.rank), 'num');
      const link = document.createElement('a');
      link.className = 'bot-link';
      link.href = '/bots/' + encodeURIComponent(r.version.bot);
      link.textContent = r.version.bot;
      cell(tr, '', 'bot').appendChild(link);
      cell(tr, r.version.author, 'bot hide-narrow');
      cell(tr, 'v' + r.version.number, 'num hide-narrow');
      ratingCell(tr, r, scale);
      cell(tr, String(r.games), 'num');
      cell(tr, r.places ? r.places.join('/') : r.wins + '/' + r.draws + '/' + r.losses, 'num');
      cell(tr, String(r.faults), 'num hide-narrow');
      cell(tr, when(r.last_game_ms), 'hide-narrow');
      rows.push(tr);
    }
    body.replaceChildren(...rows);
    meta.textContent = board.games + ' games counted, ' + board.rows.length + ' bots';
  }
  async function refresh() {
    try {
      const answer = await fetch('/api/v1/leaderboard', { cache: 'no-store' });
      if (!answer.ok) throw new Error('HTTP ' + answer.status);
      draw(await answer.json());
      live.textContent = 'updated ' + new Date().toLocaleTimeString();
      live.classList.remove('stale');
    } catch (e) {
      live.textContent = 'not updated: ' + e.message;
      live.classList.add('stale');
    }
  }
  setInterval(refresh, 3000);
)";

constexpr std::string_view kFormCss = R"(
form.filters { display: flex; flex-wrap: wrap; align-items: end; max-width: none; margin-bottom: 8px; }
form { display: grid; gap: 10px; max-width: 32em; background: var(--panel); padding: 12px; border-radius: 6px; }
label { display: grid; gap: 4px; color: var(--muted); }
input, select { font: inherit; color: var(--text); background: var(--bg); border: 1px solid #3b4776;
  border-radius: 4px; padding: 4px 6px; max-width: 100%; }
#result { white-space: pre-wrap; overflow-wrap: anywhere; }
#result.refused, #note.refused { color: var(--fault); }
#workers td, #queue td, #rejected td, #events td { overflow-wrap: anywhere; }
)";

// Sends the form to POST /api/v1/submit with the token as a Bearer header (the token is not a
// form field), and shows the answer as text; an accepted token is kept in the tab's
// sessionStorage, where the bot pages find it to read their build logs.
constexpr std::string_view kSubmitJs = R"(
  const form = document.getElementById('submit-form');
  const result = document.getElementById('result');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const token = document.getElementById('token').value.trim();
    result.classList.remove('refused');
    result.textContent = 'sending...';
    try {
      const answer = await fetch('/api/v1/submit', {
        method: 'POST', headers: { Authorization: 'Bearer ' + token }, body: new FormData(form) });
      const body = await answer.json();
      if (answer.status === 202) {
        // The bot pages read their build logs with it (this tab only, until it is closed).
        sessionStorage.setItem(kTokenKey, token);
        result.textContent = body.version.label + ' submitted (' + body.files + ' files, ' + body.bytes +
          ' bytes): the ladder builds and checks it, then it plays. Its page: ';
        const link = document.createElement('a');
        link.href = '/bots/' + encodeURIComponent(body.version.bot);
        link.textContent = '/bots/' + body.version.bot;
        result.appendChild(link);
      } else {
        result.classList.add('refused');
        result.textContent = 'refused (' + answer.status + '): ' + body.error;
      }
    } catch (e) {
      result.classList.add('refused');
      result.textContent = 'not sent: ' + e.message;
    }
  });
)";

// The organiser's page: with the token typed in, reads the status, the queue, the rejected
// versions and the events, and draws them as text.
constexpr std::string_view kOrganiserJs = R"(
  const form = document.getElementById('token-form');
  const note = document.getElementById('note');
  const when = (ms) => (ms ? new Date(ms).toISOString().replace('T', ' ').slice(0, 19) + ' UTC' : '-');
  const seats = (list) => list.map((s) => (s.bot === null ? '?' : s.bot + '@v' + s.number)).join(' vs ');
  function fill(id, rows) {
    const body = document.querySelector('#' + id + ' tbody');
    body.replaceChildren(...rows.map((cells) => {
      const tr = document.createElement('tr');
      for (const text of cells) {
        const td = document.createElement('td');
        td.textContent = String(text);
        tr.appendChild(td);
      }
      return tr;
    }));
  }
  async function show(token) {
    try {
      const [status, queue, rejected, events] = await Promise.all([read('/api/v1/status', token),
        read('/api/v1/queue', token), read('/api/v1/versions?state=rejected', token),
        read('/api/v1/events?limit=50', token)]);
      fill('workers', status.workers.map((w) => [w.name, w.host, when(w.heartbeat_ms),
        Math.round((status.now_ms - w.heartbeat_ms) / 1000) + ' s ago', w.match === null ? '-' : w.match]));
      fill('queue', queue.matches.map((m) => [m.id, m.state, seats(m.seats), m.worker || '-', m.attempt]));
      fill('rejected', rejected.versions.map((v) => [v.label, v.author, when(v.decided_ms), v.fault]));
      fill('events', events.events.map((e) => [when(e.at_ms), e.kind, e.message]));
      note.classList.remove('refused');
      note.textContent = 'updated ' + new Date().toLocaleTimeString() + '; refreshes every 5 s';
      return true;
    } catch (e) {
      note.classList.add('refused');
      note.textContent = 'refused: ' + e.message;
      return false;
    }
  }
  let timer = null;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearInterval(timer);
    const token = document.getElementById('token').value.trim();
    if (await show(token)) timer = setInterval(() => show(token), 5000);
  });
)";

// The account page: with a token (typed in, or the one this tab's submit page kept), reads
// /api/v1/me and /api/v1/bots and draws the account and its bots as text; a token typed in and
// accepted is kept in the tab's sessionStorage, as the submit page keeps it.
constexpr std::string_view kAccountJs = R"(
  const form = document.getElementById('token-form');
  const note = document.getElementById('note');
  const cell = (text) => {
    const td = document.createElement('td');
    td.textContent = String(text);
    return td;
  };
  async function show(token) {
    try {
      const [me, bots] = await Promise.all([read('/api/v1/me', token), read('/api/v1/bots', token)]);
      sessionStorage.setItem(kTokenKey, token);
      document.getElementById('account').textContent =
        me.name + (me.organiser ? ' (the organiser: every bot, the organiser page)' : '') +
        ', since ' + new Date(me.created_ms).toISOString().slice(0, 10);
      const mine = bots.bots.filter((b) => me.organiser || b.author === me.name);
      document.querySelector('#bots tbody').replaceChildren(...mine.map((b) => {
        const tr = document.createElement('tr');
        const name = document.createElement('td');
        const link = document.createElement('a');
        link.href = '/bots/' + encodeURIComponent(b.name);
        link.textContent = b.name;
        name.appendChild(link);
        tr.append(name, cell(b.author), cell(b.versions), cell(b.active === null ? '-' : 'v' + b.active),
          cell(b.latest ? 'v' + b.latest.number + ' ' + b.latest.state : '-'));
        return tr;
      }));
      note.classList.remove('refused');
      note.textContent = mine.length ? '' : 'no bot yet: submit one';
    } catch (e) {
      note.classList.add('refused');
      note.textContent = 'refused: ' + e.message;
    }
  }
  withToken(form, show);
)";

}  // namespace

std::string RatingScale::at(double x) const {
  return fmt::format("{:.2f}%", 100 * (x - lo) / (hi - lo));
}

RatingScale rating_scale(const std::vector<ladder::BoardRow>& rows) {
  double lo = 0;
  double hi = 0;
  for (const ladder::BoardRow& r : rows) {
    if (r.rating.games == 0) continue;
    lo = std::min({lo, r.rating.low, r.rating.rating});
    hi = std::max({hi, r.rating.high, r.rating.rating});
  }
  const double margin = std::max(10.0, (hi - lo) * 0.05);
  return RatingScale{lo - margin, hi + margin};
}

std::string rating_cell(const ladder::VersionRating& r, const RatingScale& s) {
  if (r.games == 0) return R"(<span class="elo-none">placing</span>)";
  const std::string text = r.rated ? fmt::format("{:+.0f} [{:+.0f}, {:+.0f}]", r.rating, r.low, r.high)
                                   : fmt::format("{:+.0f} (too few games)", r.rating);
  std::string bar = fmt::format(R"(<div class="elo-bar" data-testid="elo-bar" title="95% interval {}">)", text);
  bar += fmt::format(R"(<div class="zero" style="left:{}"></div>)", s.at(0));
  if (r.rated) {
    bar += fmt::format(R"(<div class="ci" style="left:{};width:{:.2f}%"></div>)", s.at(r.low),
                       100 * (r.high - r.low) / (s.hi - s.lo));
  }
  bar += fmt::format(R"(<div class="point" style="left:{}"></div></div>)", s.at(r.rating));
  return fmt::format(R"(<div class="elo-cell">{}<span>{}</span></div>)", bar, text);
}

std::string record_text(const ladder::VersionRating& r) {
  if (r.places.empty()) return fmt::format("{}/{}/{}", r.wins, r.draws, r.losses);
  std::string out;
  for (std::size_t i = 0; i < r.places.size(); ++i) out += fmt::format("{}{}", i == 0 ? "" : "/", r.places[i]);
  return out;
}

std::string page_style(bool forms) {
  std::string css = render::web::league_css();
  css += kPageCss;
  if (forms) css += kFormCss;
  return css;
}

std::string bot_link(const std::string& name, const std::string& text) {
  return fmt::format(R"(<a class="bot-link" href="/bots/{}">{}</a>)", esc(name), esc(text));
}

std::string games_table(const GamesFound& found) {
  std::map<ladder::Id, const ladder::VersionRow*> by_id;
  for (const ladder::VersionRow& v : found.versions) by_id[v.id] = &v;
  std::string rows;
  for (const ladder::GameRow& g : found.games) {
    std::string seats;
    for (std::size_t i = 0; i < g.seats.size(); ++i) {
      const auto it = by_id.find(g.seats[i]);
      const bool first = i < g.ranks.size() && g.ranks[i] == 1;
      seats += fmt::format(
          R"({}<span{}>{}</span>)", i == 0 ? "" : " vs ", first ? R"( class="winner")" : "",
          it == by_id.end() ? std::string("?") : bot_link(it->second->bot, ladder::version_label(*it->second)));
    }
    std::string result;
    if (g.fault_kind) {
      result = fmt::format("{} by seat {}: {}", enum_name(*g.fault_kind), g.fault_seat ? *g.fault_seat : -1,
                           g.fault_message);
    } else {
      for (std::size_t i = 0; i < g.scores.size(); ++i)
        result += fmt::format("{}{:g}", i == 0 ? "" : " : ", g.scores[i]);
    }
    rows += fmt::format(R"(<tr{}><td class="num">{}</td><td class="hide-narrow">{}</td><td class="bot">{}</td>)"
                        R"(<td class="message result">{}</td><td><a href="/matches/{}/{}#step=0">watch</a></td></tr>)",
                        g.fault_kind ? R"( class="fault")" : "", g.id, minute_text(g.end_ms), seats, esc(result),
                        g.match, g.leg);
  }
  return fmt::format(R"(<table id="games"><thead><tr><th class="num">game</th><th class="hide-narrow">ended</th>)"
                     R"(<th>seats</th><th>scores or fault</th><th>replay</th></tr></thead><tbody>{}</tbody></table>)",
                     rows);
}

std::string organiser_page(const ladder::LadderConfig& config) {
  const auto table = [](const char* id, const char* title, std::initializer_list<const char*> heads) {
    std::string th;
    for (const char* h : heads) th += fmt::format("<th>{}</th>", h);
    return fmt::format(
        R"(<h2>{}</h2><section><table id="{}"><thead><tr>{}</tr></thead><tbody></tbody></table></section>)", title, id,
        th);
  };
  return fmt::format(
      R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{game} ladder: organiser</title><style>{css}{page_css}{form_css}</style></head>
<body><header><h1>{game} ladder: organiser</h1><p class="note"><a href="/">the leaderboard</a> &middot;
<a href="/matches">matches</a></p></header>
<main><form id="token-form" class="filters"><label><span>The organiser's token</span>
<input id="token" type="password" autocomplete="off" required></label><button type="submit">Show</button></form>
<p id="note" class="note" role="status"></p>
{workers}{queue}{rejected}{events}</main>
<script>(function () {{'use strict';{js}}})();</script></body></html>
)",
      fmt::arg("game", esc(config.game)), fmt::arg("css", render::web::league_css()), fmt::arg("page_css", kPageCss),
      fmt::arg("form_css", kFormCss),
      fmt::arg("workers", table("workers", "Workers", {"name", "host", "last heartbeat", "age", "match"})),
      fmt::arg("queue", table("queue", "Queue", {"match", "state", "seats", "worker", "attempt"})),
      fmt::arg("rejected", table("rejected", "Rejected versions", {"version", "author", "decided", "why"})),
      fmt::arg("events", table("events", "Events", {"at", "kind", "message"})),
      fmt::arg("js", fmt::format("{}{}", kTokenScriptJs, kOrganiserJs)));
}

std::string minute_text(std::int64_t ms) {
  if (ms <= 0) return "-";
  const std::time_t t = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                     tm.tm_min);
}

std::string leaderboard_page(const ladder::LadderConfig& config, const std::vector<ladder::BoardRow>& rows,
                             std::size_t games) {
  const RatingScale scale = rating_scale(rows);
  std::string body;
  for (const ladder::BoardRow& r : rows) {
    body += fmt::format(
        R"(<tr data-bot="{}"><td class="num">{}</td><td class="bot">{}</td><td class="bot hide-narrow">{}</td>)"
        R"(<td class="num hide-narrow">v{}</td><td>{}</td><td class="num">{}</td><td class="num">{}</td>)"
        R"(<td class="num hide-narrow">{}</td><td class="hide-narrow">{}</td></tr>)",
        esc(r.version.bot), r.rank, bot_link(r.version.bot, r.version.bot), esc(r.version.author), r.version.number,
        rating_cell(r.rating, scale), r.rating.games, record_text(r.rating), r.faults,
        r.last_game_ms > 0 ? minute_text(r.last_game_ms) + " UTC" : "-");
  }
  const std::string record = config.seats == 2 ? "W/D/L" : "places";
  return fmt::format(
      R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{game} ladder: leaderboard</title><style>{css}{page_css}</style></head>
<body><header><h1>{game} ladder</h1><p class="note"><span id="board-meta">{games} games counted, {bots} bots</span>
&middot; <span id="live" class="live">refreshes every 3 s</span></p></header>
<main><section><table id="board"><thead><tr><th class="num">#</th><th>bot</th><th class="hide-narrow">author</th>
<th class="num hide-narrow">version</th><th>rating [95% interval]</th><th class="num">games</th><th class="num">{record}</th>
<th class="num hide-narrow">faults</th><th class="hide-narrow">last match</th></tr></thead>
<tbody id="board-rows">{rows}</tbody></table></section>
<p class="note"><a href="/matches">Recent matches</a> &middot; <a href="/submit">submit a bot</a> &middot; <a href="/me">your account</a> &middot; the same data as JSON:
<a href="/api/v1/leaderboard">/api/v1/leaderboard</a>.</p></main>
<script>(function () {{'use strict';{js}}})();</script></body></html>
)",
      fmt::arg("game", esc(config.game)), fmt::arg("css", render::web::league_css()), fmt::arg("page_css", kPageCss),
      fmt::arg("games", games), fmt::arg("bots", rows.size()), fmt::arg("record", record), fmt::arg("rows", body),
      fmt::arg("js", kLeaderboardJs));
}

std::string matches_page(const ladder::LadderConfig& config, const GamesFound& found,
                         const std::map<std::string, std::string>& query) {
  const auto asked = [&](const char* key) {
    const auto it = query.find(key);
    return it == query.end() ? std::string() : it->second;
  };
  const std::string bot = asked("bot");
  const std::string fault = asked("fault");
  std::set<std::string> bots;
  for (const ladder::VersionRow& v : found.versions) bots.insert(v.bot);
  const auto option = [](const std::string& value, const std::string& label, bool selected) {
    return fmt::format(R"(<option value="{}"{}>{}</option>)", esc(value), selected ? " selected" : "", esc(label));
  };
  std::string bot_options = option("", "every bot", bot.empty());
  for (const std::string& b : bots) bot_options += option(b, b, b == bot);
  std::string fault_options = option("", "any end", fault.empty());
  for (const auto& [kind, name] : EnumNames<replay::FaultKind>::table)
    fault_options += option(std::string(name), "a fault: " + std::string(name), name == fault);
  std::string more;
  if (found.next_before) {
    more = fmt::format(R"(<p class="note"><a href="/matches?bot={}&amp;fault={}&amp;before={}">older games</a></p>)",
                       esc(bot), esc(fault), *found.next_before);
  }
  return fmt::format(
      R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{game} ladder: matches</title><style>{css}{page_css}{form_css}</style></head>
<body><header><h1>{game} ladder: matches</h1><p class="note"><a href="/">the leaderboard</a> &middot;
<a href="/submit">submit a bot</a></p></header>
<main><form id="filters" method="get" action="/matches" class="filters">
<label><span>Bot</span><select name="bot">{bot_options}</select></label>
<label><span>How it ended</span><select name="fault">{fault_options}</select></label>
<button type="submit">Show</button></form>
<section>{games}</section>{more}</main>
</body></html>
)",
      fmt::arg("game", esc(config.game)), fmt::arg("css", render::web::league_css()), fmt::arg("page_css", kPageCss),
      fmt::arg("form_css", kFormCss), fmt::arg("bot_options", bot_options), fmt::arg("fault_options", fault_options),
      fmt::arg("games", games_table(found)), fmt::arg("more", more));
}

Result<std::string> match_page(const std::string& replay_text, const std::string& source_name) {
  auto replay = replay::parse_text(replay_text);
  if (!replay) return fail(fmt::format("{}: the stored replay does not parse: {}", source_name, replay.error()));
  return render::html_page(*replay, source_name);
}

std::string submit_page(const ladder::LadderConfig& config) {
  std::string languages;
  for (const auto& [language, name] : EnumNames<ladder::Language>::table)
    languages += fmt::format(R"(<option value="{0}">one {0} source file</option>)", name);
  return fmt::format(
      R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{game} ladder: submit a bot</title><style>{css}{page_css}{form_css}</style></head>
<body><header><h1>{game} ladder: submit a bot</h1><p class="note"><a href="/">the leaderboard</a> &middot; <a href="/me">your account</a></p></header>
<main><form id="submit-form">
<label><span>Your token (from the organiser: <code>referee ladder author add</code>)</span>
<input id="token" type="password" autocomplete="off" required></label>
<label><span>The bot's name (its first version makes it yours)</span>
<input name="name" required maxlength="64" pattern="[A-Za-z0-9_][A-Za-z0-9_.\-]*"></label>
<label><span>The file: a .tar.gz, .tar or .tar.zst with a bot.json, or one source file</span>
<input name="file" type="file" required></label>
<label><span>What the file is</span> <select name="language"><option value="">an archive with its bot.json</option>{languages}</select></label>
<button type="submit">Submit</button>
</form>
<p id="result" class="note" role="status"></p>
<p class="note">Up to {max_mb} MiB unpacked; 10 submissions a minute per account. The same from a terminal:
<code>referee ladder submit FOLDER --name NAME --server URL --token TOKEN</code>.</p></main>
<script>(function () {{'use strict';{js}}})();</script></body></html>
)",
      fmt::arg("game", esc(config.game)), fmt::arg("css", render::web::league_css()), fmt::arg("page_css", kPageCss),
      fmt::arg("form_css", kFormCss), fmt::arg("languages", languages), fmt::arg("max_mb", config.submission.max_mb),
      fmt::arg("js", fmt::format("{}{}", kTokenScriptJs, kSubmitJs)));
}

std::string account_page(const ladder::LadderConfig& config) {
  return fmt::format(
      R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{game} ladder: your account</title><style>{css}{page_css}{form_css}</style></head>
<body><header><h1>{game} ladder: your account</h1><p class="note"><a href="/">the leaderboard</a> &middot;
<a href="/submit">submit a bot</a></p></header>
<main><form id="token-form" class="filters"><label><span>Your token (from the organiser: <code>referee ladder author add</code>)</span>
<input id="token" type="password" autocomplete="off" required></label><button type="submit">Show</button></form>
<p id="account" class="note"></p><p id="note" class="note" role="status"></p>
<h2>Your bots</h2><section><table id="bots"><thead><tr><th>bot</th><th>author</th><th class="num">versions</th>
<th>active</th><th>latest</th></tr></thead><tbody></tbody></table></section>
<p class="note">A lost token cannot be shown again: the ladder keeps only its hash. The organiser makes a new account.</p></main>
<script>(function () {{'use strict';{js}}})();</script></body></html>
)",
      fmt::arg("game", esc(config.game)), fmt::arg("css", render::web::league_css()), fmt::arg("page_css", kPageCss),
      fmt::arg("form_css", kFormCss), fmt::arg("js", fmt::format("{}{}", kTokenScriptJs, kAccountJs)));
}

}  // namespace arena::web
