/* The web viewer's result and header (referee/render/web/viewer_result.js), a part of the core (see
 * viewer.js): the title and the match line, the fault banner, the result panel (how the match
 * ended, the winner, the score breakdown by the game's drawing, the scores and ranks).
 *
 * No spoilers: the result (the winner, the scores, the breakdown, the fault banner, how the match
 * ended) is in the page only at the last position, or once the reader asks for it with "Show
 * result" (R). Before that it is not drawn at all (not merely hidden by a style), so no text of
 * the page gives it away; the page's <title> never names it (html.cpp). The game's drawing of the
 * table at a position shows only what was on the table then. Sets core.drawResult,
 * core.winnerText and core.setRevealed. */
ArenaViewer.corePart(function (core) {
  'use strict';

  // The shared helpers and match data this part uses (viewer.js: core).
  const { el, append, clear, byId, botName, seatLabel, plural, header, footer, result, fault, last } = core;

  var drawnShown = null;  // whether the result was shown when last drawn (null: never drawn)

  function resultShown() { return core.revealed || core.pos === last; }

  core.winnerText = function () {
    if (core.unverified) return 'unverified replay: no result';
    if (!result) return 'no result';
    if (result.winner !== null && result.winner !== undefined) return core.capitalise(seatLabel(result.winner)) + ' wins';
    if (footer.end === 'finished') return 'A draw (shared first place)';
    return 'No winner (' + footer.end + ')';
  };

  function scoreTable(rows) {
    var head = el('tr', null, el('th', { text: '' }), header.bots.map(function (b, i) {
      return el('th', null, 'seat ' + i + ' ', el('span', { class: 'bot-name', text: botName(i) }));
    }));
    return el('table', { class: 'score' }, el('thead', null, head), el('tbody', null, rows.map(function (r) {
      return el('tr', { class: r.class || '' }, el('td', { text: r.label }), header.bots.map(function (b, i) {
        return el('td', { data: { seat: i } }, r.cell(i));
      }));
    })));
  }

  function drawOutcome(box, breakdown) {
    if (core.unverified) {
      append(box, el('p', { class: 'unverified', testid: 'unverified', text:
        'Unverified replay: its result is not shown, because the footer does not match the re-simulated match (' +
        core.unverified + ').' }));
      return;
    }
    if (!footer) {
      append(box, el('p', { text: 'The replay has no footer: the referee was stopped before the match ended, so there is no result.' }));
      return;
    }
    append(box, el('p', null, 'Ended: ', el('b', { testid: 'end', text: footer.end }), ' after ' + plural(last, 'decision') + '.'));
    var winner = result ? result.winner : null;
    append(box, el('p', {
      class: 'winner',
      testid: 'winner',
      data: { seat: winner === null || winner === undefined ? 'none' : winner },
      text: core.winnerText()
    }));
    if (fault) {
      append(box, el('p', { class: 'fault-line', text: 'Fault: ' + seatLabel(fault.seat) + ', ' + fault.kind + ' at request ' + fault.request_id + '.' }));
    }
    var outcome = result ? result.outcome : null;
    var rows = [];
    if (outcome !== null && outcome !== undefined) {
      rows = core.game.breakdown(outcome) || [];
      append(box, core.game.resultNotes(outcome));
    }
    if (result && result.scores) rows.push({ label: 'Score', class: 'total', cell: function (i) { return core.value('scores.' + i); } });
    if (result && result.ranks) rows.push({ label: 'Rank', cell: function (i) { return core.value('ranks.' + i); } });
    if (rows.length) append(breakdown, scoreTable(rows));
    if (outcome === null || outcome === undefined) {
      append(breakdown, el('p', { class: 'none', text: 'No score breakdown: the match did not finish (' + footer.end + ').' }));
    }
  }

  // The title, the match line and the fault banner; how the match ended only when `shown`.
  function drawHeader(shown) {
    byId('match-title').textContent = core.gameTitle + ', seed ' + header.seed;
    var players = header.bots.map(function (b, i) { return botName(i) + ' (seat ' + i + ')'; }).join(' vs ');
    var meta = [players].concat(core.game.meta() || []);
    meta.push(last + ' decisions');
    if (core.unverified) meta.push('UNVERIFIED replay');
    else if (shown) meta.push('ended: ' + (footer ? footer.end : 'no footer'));
    if (header.started) meta.push('started ' + header.started);
    meta.push('replay ' + core.data.source);
    byId('match-meta').textContent = meta.join(' \u00b7 ');
    var banner = clear(byId('fault-banner'));
    banner.hidden = !(fault && shown);
    if (banner.hidden) {
      banner.removeAttribute('data-seat');
      banner.removeAttribute('data-kind');
      return;
    }
    banner.setAttribute('data-seat', String(fault.seat));
    banner.setAttribute('data-kind', fault.kind);
    append(banner, [
      el('div', { class: 'fault-title', text: 'Fault: ' + seatLabel(fault.seat) + ' forfeits (' + fault.kind + ' at request ' + fault.request_id + ')' }),
      el('div', { testid: 'fault-message', text: fault.message }),
      fault.raw ? [el('div', { text: 'Offending bytes:' }), el('pre', { text: fault.raw })] : null,
      fault.stderr_tail && fault.stderr_tail.length ? [el('div', { text: 'Last lines of its stderr:' }), el('pre', { text: fault.stderr_tail.join('\n') })] : null,
      fault.exit ? el('div', { text: 'Exit: ' + fault.exit }) : null
    ]);
  }

  // The header and the result panel, redrawn when whether the result is shown changes.
  core.drawResult = function () {
    var shown = resultShown();
    var button = byId('reveal');
    button.disabled = core.pos === last;
    button.setAttribute('aria-pressed', core.revealed ? 'true' : 'false');
    button.textContent = core.revealed ? 'Hide result' : 'Show result';
    button.title = core.pos === last ? 'The last step always shows the result' : (core.revealed ? 'Hide' : 'Show') + ' the result now (R)';
    if (shown === drawnShown) return;
    drawnShown = shown;
    document.body.setAttribute('data-result', shown ? 'shown' : 'hidden');
    drawHeader(shown);
    var box = clear(byId('result'));
    var breakdown = clear(byId('score-breakdown'));
    if (shown) {
      drawOutcome(box, breakdown);
      return;
    }
    append(box, el('p', { class: 'none', testid: 'result-hidden',
      text: 'Hidden until the last step, so that the match is not spoiled: "Show result" (R) shows it now.' }));
  };

  core.setRevealed = function (on) {
    core.revealed = Boolean(on);
    core.drawResult();
  };
});
