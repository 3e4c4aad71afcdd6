// The league page's script (referee/render/web/league.js), inlined into league.html by
// `referee html LEAGUE_FOLDER` (referee/render/league_page.cpp). It builds the page's sections
// (SECTIONS), reads the JSON in <script id="league-data"> and draws the standings (with each bot's
// Elo interval as a bar on a scale shared by all bots), the crosstable, the head-to-head pairs, the
// faults and every match, linked to its viewer page or, without one, to its replay; a Swiss
// league's order and rounds, a knockout's bracket (standings.rounds), one column per round. Every text from the data (bot names,
// fault messages) goes into the page as text (textContent), never as markup. When it is done,
// <body> gets data-ready="true" (the browser test waits for it).
'use strict';

const ArenaLeague = (() => {
  const data = JSON.parse(document.getElementById('league-data').textContent);
  const standings = data.standings || {};
  const bots = standings.bots || [];
  const pairs = standings.pairs || [];
  const matches = data.matches || [];
  const MATCH_ROWS = 1000;  // rows drawn at first; "Show all" draws the rest

  // An element with attributes (`class`, `data-testid`, `href`, ...) and children (strings become
  // text nodes, null is skipped).
  function el(tag, attrs, children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v !== null && v !== undefined) e.setAttribute(k, String(v));
    }
    for (const c of [].concat(children === undefined ? [] : children)) {
      if (c === null || c === undefined) continue;
      e.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
    }
    return e;
  }
  const num = (text, attrs) => el('td', Object.assign({ class: 'num' }, attrs || {}), text);
  const head = (cells) => el('tr', {}, cells.map((c) => el('th', { class: c[1] ? 'num' : null }, c[0])));
  const two = (x) => Number(x || 0).toFixed(2);
  const signed = (x) => { const r = Math.round(x) + 0; return (r >= 0 ? '+' : '') + r; };
  const matchName = (index) => 'm' + String(index).padStart(6, '0');
  // A relative path as a link target: each part percent-encoded, so '#', '?' and spaces stay part
  // of the file name.
  const href = (rel) => rel.split('/').map(encodeURIComponent).join('/');
  // The page's sections in order: a heading, a note (its text, or true: the section's drawing writes
  // it into #ID-note; none when absent) and a table #ID; built by buildSections() before drawing.
  const SECTIONS = [
    { id: 'standings', title: 'Standings', note: true },
    { id: 'crosstable', title: 'Crosstable', note: 'Points of the row bot against the column bot, head to head, out of the games they met in.' },
    { id: 'pairs', title: 'Head to head' },
    { id: 'faults', title: 'Faults', note: true },
    { id: 'matches', title: 'Matches', note: true }
  ];

  function buildSections() {
    const main = document.getElementById('sections');
    for (const s of SECTIONS) {
      const note = s.note === true ? el('p', { class: 'note', id: s.id + '-note', 'data-testid': s.id + '-note' })
        : s.note ? el('p', { class: 'note' }, s.note) : null;
      main.appendChild(el('section', { id: s.id + '-section' }, [el('h2', {}, s.title), note, el('table', { id: s.id, 'data-testid': s.id })]));
    }
    const more = el('button', { type: 'button', id: 'more-matches', 'data-testid': 'more-matches' });
    more.hidden = true;
    document.getElementById('matches-section').appendChild(more);
    // After the standings: a Swiss league's order and rounds or a knockout's bracket, shown by
    // drawRounds for those formats only.
    const order = el('table', { id: 'swiss-order', 'data-testid': 'swiss-order' });
    order.hidden = true;
    const rounds = el('section', { id: 'rounds-section', 'data-testid': 'rounds' }, [el('h2', { id: 'rounds-title' }),
      el('p', { class: 'note', id: 'rounds-note', 'data-testid': 'rounds-note' }), order,
      el('div', { id: 'bracket', class: 'bracket', 'data-testid': 'bracket' })]);
    rounds.hidden = true;
    main.insertBefore(rounds, document.getElementById('crosstable-section'));
  }
  const hasInterval = (e) => e && e.low !== null && e.high !== null && e.low !== undefined && e.high !== undefined;

  function eloText(e) {
    if (!e || !e.samples) return '-';
    if (!hasInterval(e)) return signed(e.elo) + ' [not enough games]';
    return signed(e.elo) + ' [' + signed(e.low) + ', ' + signed(e.high) + ']' + (e.interval === 'exact' ? ' exact' : '');
  }

  // The common scale of the bars: every interval end and estimate, and 0, with a margin.
  function eloScale() {
    let lo = 0;
    let hi = 0;
    for (const b of bots) {
      if (!hasInterval(b.elo)) continue;
      lo = Math.min(lo, b.elo.low, b.elo.elo);
      hi = Math.max(hi, b.elo.high, b.elo.elo);
    }
    const margin = Math.max(10, (hi - lo) * 0.05);
    return { lo: lo - margin, hi: hi + margin };
  }

  function eloCell(e, scale) {
    const text = el('span', {}, eloText(e));
    if (!hasInterval(e)) {
      const none = e && e.samples ? el('span', { class: 'elo-none', 'data-testid': 'elo-none' }, 'not enough games') : null;
      return el('td', {}, el('div', { class: 'elo-cell' }, [text, none]));
    }
    const pct = (x) => (100 * (x - scale.lo) / (scale.hi - scale.lo)).toFixed(2) + '%';
    const width = (100 * (e.high - e.low) / (scale.hi - scale.lo)).toFixed(2) + '%';
    const bar = el('div', { class: 'elo-bar', 'data-testid': 'elo-bar', title: '95% interval ' + eloText(e) }, [
      el('div', { class: 'zero', style: 'left:' + pct(0) }),
      el('div', { class: 'ci' + (e.interval === 'exact' ? ' exact' : ''), 'data-testid': 'elo-ci',
                  style: 'left:' + pct(e.low) + ';width:' + width }),
      el('div', { class: 'point', style: 'left:' + pct(e.elo) })
    ]);
    return el('td', {}, el('div', { class: 'elo-cell' }, [bar, text]));
  }

  function faultsText(faults) {
    return Object.entries(faults || {}).map(([kind, n]) => n + ' ' + kind).join(', ');
  }

  function drawStandings() {
    const scale = eloScale();
    const scaleHead = el('th', {}, ['Elo [95% interval]',
      el('div', { class: 'scale' }, [el('span', { style: 'left:0' }, signed(scale.lo)),
        el('span', { class: 'mid', style: 'left:' + (100 * -scale.lo / (scale.hi - scale.lo)).toFixed(2) + '%' }, '0'),
        el('span', { style: 'right:0' }, signed(scale.hi))])]);
    const table = document.getElementById('standings');
    const top = head([['#', 1], ['Bot'], ['Games', 1], ['Points', 1], ['Points/game', 1], ['W', 1], ['D', 1], ['L', 1]]);
    top.appendChild(scaleHead);
    top.appendChild(el('th', {}, 'Faults'));
    table.appendChild(top);
    for (const b of bots) {
      const row = el('tr', { 'data-testid': 'standing' }, [
        num(b.place), el('td', { class: 'bot' }, b.name), num(b.games), num(two(b.points)),
        num(Number(b.points_per_game || 0).toFixed(3)), num(b.wins), num(b.draws), num(b.losses)]);
      row.appendChild(eloCell(b.elo, scale));
      row.appendChild(el('td', { class: b.fault_count ? 'faulty' : null }, b.fault_count ? b.fault_count + ' (' + faultsText(b.faults) + ')' : '0'));
      table.appendChild(row);
    }
    const rule = standings.points_rule ? 'Points: ' + standings.points_rule + '. ' : '';
    document.getElementById('standings-note').textContent = rule +
      'Elo is logistic, against the field (0 is its mean), with a 95% interval drawn on one scale for all bots ' +
      '(clamped to \u00b1' + (standings.elo_bound || 1000) + '; none below ' + (standings.elo_min_samples || 10) +
      ' games: "not enough games"; a one-sided record gets an exact bound).';
  }

  // Head-to-head points of `row` against `col` as "points/games", "" when they never met.
  function cross(row, col) {
    for (const p of pairs) {
      if (!p.games) continue;
      if (p.a === row && p.b === col) return p.a_points + '/' + p.games;
      if (p.b === row && p.a === col) return (p.games - p.a_points) + '/' + p.games;
    }
    return '';
  }

  function drawCrosstable() {
    const table = document.getElementById('crosstable');
    table.appendChild(el('tr', {}, [el('th', {}, '')].concat(bots.map((b) => el('th', { class: 'num' }, b.name)))));
    for (const r of bots) {
      const cells = [el('th', {}, r.name)];
      for (const c of bots) {
        cells.push(r.name === c.name ? el('td', { class: 'self' }, '-') : num(cross(r.name, c.name)));
      }
      table.appendChild(el('tr', { 'data-testid': 'cross-row' }, cells));
    }
  }

  function drawPairs() {
    const table = document.getElementById('pairs');
    const penta = (standings.seats_per_match || 0) <= 2;
    const cols = [['Bot A'], ['Bot B'], ['Games', 1], ['A points', 1], ['A wins', 1], ['Draws', 1], ['B wins', 1]];
    if (penta) cols.push(['Pairs', 1], ['Pentanomial LL / LD / DD+WL / WD / WW']);
    cols.push(['Elo of A vs B [95%]'], ['Model']);
    table.appendChild(head(cols));
    for (const p of pairs) {
      const cells = [el('td', { class: 'bot' }, p.a), el('td', { class: 'bot' }, p.b), num(p.games), num(p.a_points),
        num(p.a_wins), num(p.draws), num(p.b_wins)];
      if (penta) cells.push(num(p.pairs), el('td', {}, p.pairs ? (p.pentanomial || []).join(' / ') : '-'));
      cells.push(el('td', {}, eloText(p.elo)), el('td', {}, p.elo_model || ''));
      table.appendChild(el('tr', { 'data-testid': 'pair' }, cells));
    }
  }

  const byIndex = new Map(matches.map((m) => [m.index, m]));
  function matchLink(index, text) {
    const m = byIndex.get(index);
    if (!m || !(m.page || m.replay)) return text;
    return el('a', { href: href(m.page || m.replay) }, text);
  }

  function drawFaults() {
    const table = document.getElementById('faults');
    table.appendChild(head([['Bot'], ['Kind'], ['Match'], ['Seat', 1], ['Message']]));
    let shown = 0;
    let total = 0;
    for (const b of bots) {
      total += b.fault_count || 0;
      for (const f of b.fault_entries || []) {
        shown++;
        table.appendChild(el('tr', { 'data-testid': 'fault' }, [el('td', { class: 'bot' }, b.name), el('td', {}, f.kind),
          el('td', {}, matchLink(f.match, matchName(f.match))), num(f.seat), el('td', { class: 'message' }, f.message)]));
      }
    }
    document.getElementById('faults-note').textContent = total === 0 ? 'No bot faulted.'
      : total + ' fault' + (total === 1 ? '' : 's') + (shown < total ? ', the first ' + shown + ' listed' : '') +
        '; the offender of a fault forfeits the match.';
    if (total === 0) table.hidden = true;
  }

  function resultText(m) {
    if (m.fault) {
      const seat = m.seats[m.fault.seat];
      return 'fault: ' + m.fault.kind + ' by ' + (seat ? seat.bot : 'seat ' + m.fault.seat);
    }
    const first = m.seats.filter((s) => s.rank === 1).map((s) => s.bot);
    if (first.length === 1) return first[0] + ' wins';
    return first.length === m.seats.length ? 'draw' : 'shared first: ' + first.join(', ');
  }

  function matchRow(m) {
    const seats = el('td', { class: 'bot' });
    m.seats.forEach((s, k) => {
      if (k > 0) seats.appendChild(document.createTextNode(' \u2013 '));
      seats.appendChild(el('span', { class: s.rank === 1 && !m.fault ? 'winner' : null }, s.bot + ' ' + s.score));
    });
    const link = m.page ? el('a', { href: href(m.page), 'data-testid': 'match-page' }, 'viewer')
      : m.replay ? el('a', { href: href(m.replay), 'data-testid': 'match-replay' }, 'replay (.jsonl)') : 'no replay';
    return el('tr', { 'data-testid': 'match', class: m.fault ? 'fault' : null, id: matchName(m.index) }, [
      el('td', {}, matchName(m.index)), num(m.deal), num(m.leg), seats, el('td', { class: 'result' }, resultText(m)),
      el('td', {}, link)]);
  }

  function drawMatches() {
    const table = document.getElementById('matches');
    table.appendChild(head([['Match'], ['Deal', 1], ['Leg', 1], ['Seats: bot score'], ['Result'], ['Page']]));
    const drawRows = (from, to) => { for (let i = from; i < to; i++) table.appendChild(matchRow(matches[i])); };
    drawRows(0, Math.min(matches.length, MATCH_ROWS));
    const more = document.getElementById('more-matches');
    if (matches.length > MATCH_ROWS) {
      more.hidden = false;
      more.textContent = 'Show all ' + matches.length + ' matches';
      more.addEventListener('click', () => { drawRows(MATCH_ROWS, matches.length); more.hidden = true; });
    }
    const pages = data.pages || {};
    const withPage = matches.filter((m) => m.page).length;
    let note = matches.length + ' match' + (matches.length === 1 ? '' : 'es') + ' journaled. ';
    if (withPage === matches.length) note += 'Each links to its viewer page (replays/mNNNNNN.html).';
    else note += withPage + ' link to their viewer page (at most ' + pages.limit + ' are written: the faulted ' +
      'matches first, then in index order; `referee html LEAGUE --match-pages N` changes it); the others link to ' +
      'their replay, which `referee html REPLAY` turns into a page.';
    document.getElementById('matches-note').textContent = note;
  }

  // standings.rounds (league/rounds_report.hpp): the Swiss order and each round's tables, or the
  // knockout bracket; each table links its first match.
  function drawRounds() {
    const r = standings.rounds;
    if (!r) return;
    document.getElementById('rounds-section').hidden = false;
    const knockout = r.format === 'knockout';
    document.getElementById('rounds-title').textContent = knockout ? 'Bracket' : 'Swiss rounds';
    document.getElementById('rounds-note').textContent = knockout
      ? r.rounds + ' rounds; winner: ' + (r.winner === null || r.winner === undefined ? 'not decided yet' : r.winner) +
        '. A table goes to the bot with more points over its matches, then more of the game\'s points, then the higher seed.'
      : r.rounds + ' rounds; a bye scores ' + two(r.bye_points) + '. Order: score, then Buchholz, then ' +
        'Sonneborn-Berger, then a draw seeded by the league seed.';
    if (!knockout) {
      const order = document.getElementById('swiss-order');
      order.hidden = false;
      order.appendChild(head([['#', 1], ['Bot'], ['Score', 1], ['Buchholz', 1], ['Sonneborn-Berger', 1], ['Byes', 1]]));
      (r.swiss || []).forEach((row, i) => order.appendChild(el('tr', { 'data-testid': 'swiss-row' }, [num(i + 1),
        el('td', { class: 'bot' }, row.bot), num(two(row.score)), num(two(row.buchholz)), num(two(row.sonneborn_berger)),
        num(row.byes)])));
    }
    const bracket = document.getElementById('bracket');
    for (const round of r.played || []) {
      const column = el('div', { class: 'round', 'data-testid': 'round' },
        el('h3', {}, 'Round ' + round.round + (round.complete ? '' : ' (not complete)')));
      for (const t of round.tables || []) {
        const box = el('div', { class: 'table-box', 'data-testid': 'table' });
        t.bots.forEach((bot, i) => {
          const out = t.winner !== null && t.winner !== undefined && t.winner !== bot;
          box.appendChild(el('div', { class: 'entry' + (t.winner === bot ? ' winner' : out ? ' out' : '') }, [
            el('span', {}, [t.seeds && t.seeds.length ? el('span', { class: 'seed' }, '(' + t.seeds[i] + ')') : null, bot]),
            el('span', { class: 'num' }, two(t.points[i]))]));
        });
        const how = t.played < t.matches ? t.played + ' of ' + t.matches + ' matches'
          : t.decided_by && t.decided_by !== 'points' ? 'decided by ' + t.decided_by : '';
        box.appendChild(el('div', { class: 'how' }, [matchLink(t.first_match, matchName(t.first_match)), how ? ' ' + how : null]));
        column.appendChild(box);
      }
      for (const bye of round.byes || []) column.appendChild(el('div', { class: 'bye', 'data-testid': 'bye' }, bye + ': bye'));
      bracket.appendChild(column);
    }
  }

  function drawHeader() {
    const lg = data.league || {};
    document.getElementById('league-title').textContent = 'League ' + (data.name || '');
    const parts = [];
    if (lg.game) parts.push('game ' + lg.game);
    if (lg.format) parts.push(lg.format);
    if (lg.seats) parts.push(lg.seats + ' seats');
    if (lg.deals) parts.push(lg.deals + ' deals' + (lg.duplicate ? ' (duplicate)' : ''));
    parts.push((standings.matches || 0) + ' matches in the standings');
    if (lg.seed !== undefined && lg.seed !== null) parts.push('league seed ' + lg.seed);
    document.getElementById('league-meta').textContent = parts.join(', ');
    const c = standings.completion || {};
    const banner = document.getElementById('partial');
    const lines = [];
    if (c.partial) lines.push(c.message || ('PARTIAL: ' + c.journaled + ' of ' + c.total + ' matches'));
    if (standings.not_counted) lines.push(standings.not_counted + ' matches journaled after the SPRT decided are not counted');
    if (lines.length) {
      banner.hidden = false;
      banner.textContent = lines.join('. ');
    }
    if (data.standings_source === 'journal') {
      const note = document.getElementById('source-note');
      note.hidden = false;
      note.textContent = 'This folder has no standings.json (the league is still running or was stopped hard): ' +
        'the standings are computed from results.jsonl, the matches journaled so far.';
    }
  }

  function start() {
    buildSections();
    drawHeader();
    drawStandings();
    drawRounds();
    drawCrosstable();
    drawPairs();
    drawFaults();
    drawMatches();
    document.body.setAttribute('data-ready', 'true');
  }
  return { start };
})();

ArenaLeague.start();
