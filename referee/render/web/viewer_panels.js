/* What the web viewer draws at a position (referee/render/web/viewer_panels.js), a part of the core
 * (see viewer.js): the step counter, the step panel (who acted, the action in words, its time, the
 * bot's debug text and the lines it wrote on stderr during that decision, the legal actions),
 * which view is drawn (the full table or a seat's view) and the table itself by the game's
 * drawing. It sets core.draw, which redraws everything that depends on the position and the mode. */
ArenaViewer.corePart(function (core) {
  'use strict';

  // The shared helpers and match data this part uses (viewer.js: core).
  const { el, append, clear, byId, seatLabel, botName, plural, capitalise, steps, frames, last } = core;

  // The view a seat's bot was sent: its last decision at or before position p, else the view
  // re-simulated from the replay (the bot has not been asked anything yet).
  function seatView(p, seat) {
    for (var k = Math.min(p, last - 1); k >= 0; k--) {
      if (steps[k].seat === seat && steps[k].view) return { source: 'recorded', step: k, view: steps[k].view };
    }
    return { source: 'resimulated', step: p, view: frames[p].views[seat] };
  }

  function shownAt(p) {
    if (core.mode === 'full') {
      var f = frames[p];
      return { full: true, position: p, state: f.state, views: f.views, to_act: f.to_act < 0 ? null : f.to_act, source: 'full', json: f.state };
    }
    var sv = seatView(p, core.mode);
    return { full: false, position: p, seat: core.mode, view: sv.view, source: sv.source, step: sv.step, json: sv.view };
  }

  // The action taken from position p in words, by the game's drawing, else the generic one.
  core.describe = function (action, p) {
    try {
      return core.game.describe(action, p);
    } catch (e) {
      console.error('describe failed at step ' + p + ': ' + (e && e.message ? e.message : e));
      return core.generic.describe(action, p);
    }
  };

  // The time the bot at step `pos` had, as the referee gave it: the decision limit plus what was
  // left of its seat's time bank, which each earlier decision of that seat used beyond the limit
  // (the replay header's limits, already scaled; match.cpp). Null when the header has no limits.
  function allowedMs(pos) {
    var limits = core.header.limits;
    if (!limits || typeof limits.decision_ms !== 'number') return null;
    var decision = limits.decision_ms;
    var bank = typeof limits.time_bank_ms === 'number' ? limits.time_bank_ms : 0;
    var seat = steps[pos].seat;
    for (var i = 0; i < pos; i++) {
      if (steps[i].seat === seat) bank = Math.max(0, bank - Math.max(0, steps[i].time_ms - decision));
    }
    return { decision: decision, bank: bank, total: decision + bank };
  }

  function drawStep() {
    var pos = core.pos;
    var fault = core.fault;
    var turn = byId('turn');
    var action = byId('action');
    var actionJson = byId('action-json');
    var time = byId('time');
    var debug = byId('debug');
    action.classList.remove('fault');
    if (pos < last) {
      var s = steps[pos];
      turn.textContent = 'Replay step ' + s.n + ' (request ' + s.request_id + '), decision ' + (pos + 1) + ' of ' + last + ': ' +
        seatLabel(s.seat) + ' to act';
      action.textContent = capitalise(seatLabel(s.seat)) + ' ' + core.describe(s.action, pos);
      action.setAttribute('data-seat', String(s.seat));
      actionJson.textContent = JSON.stringify(s.action);
      var allowed = allowedMs(pos);
      time.textContent = 'took ' + core.formatMs(s.time_ms) + (typeof s.cpu_ms === 'number' ? ' (CPU ' + core.formatMs(s.cpu_ms) + ')' : '') +
        (allowed === null ? '' : ' of ' + core.formatMs(allowed.total) + ' allowed (' + core.formatMs(allowed.decision) +
          ' per decision + ' + core.formatMs(allowed.bank) + ' of its bank); ' + core.formatMs(Math.max(0, allowed.total - s.time_ms)) + ' left');
      time.setAttribute('data-ms', String(s.time_ms));
      if (allowed === null) time.removeAttribute('data-allowed-ms'); else time.setAttribute('data-allowed-ms', String(allowed.total));
      var text = s.debug || '';
      debug.textContent = text || '(none)';
      debug.classList.toggle('empty', !text);
      drawStderr(s);
      drawLegal();
      return;
    }
    action.removeAttribute('data-seat');
    actionJson.textContent = '\u2013 (no decision at the end)';
    time.textContent = '';
    time.removeAttribute('data-ms');
    time.removeAttribute('data-allowed-ms');
    debug.textContent = '(none)';
    debug.classList.add('empty');
    drawStderr(null);
    drawLegal();
    if (fault) {
      turn.textContent = 'End of the match after ' + last + ' decisions: ' + seatLabel(fault.seat) + ' faulted at request ' + fault.request_id;
      action.textContent = 'Fault (' + fault.kind + '): ' + seatLabel(fault.seat) + ' forfeits: ' + fault.message;
      action.classList.add('fault');
      action.setAttribute('data-seat', String(fault.seat));
    } else if (core.unverified) {
      turn.textContent = 'End of the replay after ' + last + ' decisions: UNVERIFIED, its result is not shown';
      action.textContent = 'The footer does not match the re-simulated match (' + core.unverified + ')';
    } else if (!core.footer) {
      turn.textContent = 'The replay stops after ' + last + ' decisions (no footer: the referee was stopped mid-match)';
      action.textContent = 'No further decision recorded';
    } else {
      turn.textContent = 'End of the match after ' + last + ' decisions (' + core.footer.end + ')';
      action.textContent = core.winnerText();
    }
  }

  // What the bot of step `s` (null: none, the end) wrote on stderr during that decision, as the
  // replay records it (match/stderr_capture.hpp): its lines, and how many bytes were left out.
  function drawStderr(s) {
    var node = byId('stderr');
    var cut = byId('stderr-cut');
    var lines = s && Array.isArray(s.stderr) ? s.stderr.map(String) : [];
    var left = s && typeof s.stderr_cut === 'number' && s.stderr_cut > 0 ? s.stderr_cut : 0;
    byId('stderr-label').textContent = s ? seatLabel(s.seat) + '\'s stderr during this decision' : 'stderr';
    node.textContent = lines.length > 0 ? lines.join('\n') : '(none)';
    node.classList.toggle('empty', lines.length === 0);
    node.setAttribute('data-lines', String(lines.length));
    cut.hidden = left === 0;
    cut.textContent = left === 0 ? '' : '\u2026 and ' + plural(left, 'more byte') + ', not recorded';
    if (left === 0) cut.removeAttribute('data-bytes'); else cut.setAttribute('data-bytes', String(left));
  }

  // The request a bot got wrong, when the match ended with its fault in a decision: the table at
  // the end is the one it was asked about (frames[last]), so its legal list is that request's.
  // Null for a fault without a request (spawn, handshake, between matches, output before a
  // request) or one charged to another seat than the one to act.
  function faultedRequest() {
    var fault = core.fault;
    if (!fault || fault.phase !== 'decision' || fault.request_sent === false) return null;
    var frame = frames[last];
    if (!Array.isArray(frame.legal) || frame.to_act !== fault.seat) return null;
    return { seat: fault.seat, legal: frame.legal, fault: fault };
  }

  // What the faulting bot answered, as the fault records it: the action of an illegal answer (its
  // line's "action"), the offending bytes of a malformed one, else what happened instead of an answer.
  function faultAnswer(fault) {
    if (fault.raw) {
      var line = null;
      try { line = JSON.parse(fault.raw); } catch (e) { line = null; }
      var action = line !== null && typeof line === 'object' && 'action' in line ? line.action : undefined;
      return { text: action === undefined ? fault.raw : JSON.stringify(action), code: true };
    }
    if (fault.kind === 'timeout') return { text: 'no answer in time (timeout)', code: false };
    if (fault.kind === 'crash') return { text: 'no answer: the bot ended' + (fault.exit ? ' (' + fault.exit + ')' : ''), code: false };
    return { text: 'no valid answer (' + fault.kind + ')', code: false };
  }

  // The legal actions the seat to act was offered (re-simulated), in the full table and in that
  // seat's own view only: they may name what it holds. Listed when the box is opened. At the end
  // of a match a bot forfeited in a decision, the list is the one of the request it got wrong,
  // with its answer marked as the fault (the box opens by itself each time that list comes into view).
  var faultListShown = false;
  function drawLegal() {
    var pos = core.pos;
    var mode = core.mode;
    var box = byId('legal-box');
    var list = clear(byId('legal'));
    var faulted = pos === last ? faultedRequest() : null;
    var legal = pos < last ? frames[pos].legal : faulted ? faulted.legal : null;
    var wasShown = faultListShown;
    faultListShown = false;
    if (!Array.isArray(legal)) {
      box.hidden = true;
      box.removeAttribute('data-fault');
      return;
    }
    box.hidden = false;
    var seat = faulted ? faulted.seat : steps[pos].seat;
    var summary = byId('legal-summary');
    box.setAttribute('data-count', String(legal.length));
    if (faulted) box.setAttribute('data-fault', faulted.fault.kind); else box.removeAttribute('data-fault');
    if (mode !== 'full' && mode !== seat) {
      box.open = false;
      box.setAttribute('data-hidden', 'true');
      summary.textContent = 'Legal actions: not shown in seat ' + mode + '\'s view (they may name what seat ' + seat + ' holds)';
      return;
    }
    box.removeAttribute('data-hidden');
    if (faulted) {
      summary.textContent = plural(legal.length, 'legal action') + ' for seat ' + seat + ' at request ' + faulted.fault.request_id +
        ', which it got wrong (' + faulted.fault.kind + '): its answer is marked';
      faultListShown = true;
      if (!wasShown) box.open = true;  // the toggle event redraws this list
    } else {
      summary.textContent = plural(legal.length, 'legal action') + ' for seat ' + seat + ' (the one taken is marked)';
    }
    if (!box.open) return;
    var taken = faulted ? null : core.canonical(steps[pos].action);
    append(list, legal.map(function (a) {
      var isTaken = taken !== null && core.canonical(a) === taken;
      return el('li', { class: isTaken ? 'taken' : null, data: { taken: isTaken ? 'true' : null } }, el('code', { text: JSON.stringify(a) }));
    }));
    if (faulted) {
      var answer = faultAnswer(faulted.fault);
      append(list, el('li', { class: 'fault', testid: 'legal-fault', data: { kind: faulted.fault.kind } },
        'its answer: ', answer.code ? el('code', { text: answer.text }) : el('span', { text: answer.text })));
    }
  }
  core.drawLegal = drawLegal;

  function describeSource(shown) {
    var pos = core.pos;
    var mode = core.mode;
    var node = byId('view-source');
    node.setAttribute('data-source', shown.source);
    if (shown.source === 'full') {
      node.removeAttribute('data-step');
      node.textContent = 'Full table: the referee\'s state, every hand and face-down card included (no bot sees this).';
      return;
    }
    node.setAttribute('data-step', String(shown.step));
    if (shown.source === 'recorded') {
      node.textContent = 'Seat ' + mode + ' (' + botName(mode) + '), recorded: exactly the view this bot was sent for step ' +
        shown.step + (shown.step === pos ? ' (this step)' : ', its last decision before this step (' + plural(pos - shown.step, 'step') + ' ago)') + '.';
    } else {
      node.textContent = 'Seat ' + mode + ' (' + botName(mode) + '), re-simulated: this bot has not been asked for a decision yet; ' +
        'this is what it may see at this step, re-simulated from the replay.';
    }
  }

  function drawTable(shown) {
    try {
      return core.game.table(shown);
    } catch (e) {
      if (core.game === core.generic) throw e;
      console.error('the ' + core.gameName + ' drawing failed at step ' + shown.position + ': ' + (e && e.message ? e.message : e));
      return [el('p', { class: 'fault-line', text: 'The game\'s drawing failed here; the generic drawing stands in.' }), core.generic.table(shown)];
    }
  }

  // Everything that depends on the position and the mode: the controls' state, the step panel,
  // the table, the raw JSON, the result panel (hidden before the end) and the page's address.
  core.draw = function () {
    var pos = core.pos;
    byId('step-counter').textContent = 'Step ' + pos + ' / ' + last;
    byId('step-counter').setAttribute('data-position', String(pos));
    byId('slider').value = String(pos);
    byId('prev').disabled = pos === 0;
    byId('first').disabled = pos === 0;
    byId('next').disabled = pos === last;
    byId('last').disabled = pos === last;
    byId('seat-toggle').value = String(core.mode);
    drawStep();
    var shown = shownAt(pos);
    describeSource(shown);
    var table = clear(byId('table'));
    table.setAttribute('data-mode', String(core.mode));
    append(table, drawTable(shown));
    if (byId('raw').open) byId('raw-json').textContent = JSON.stringify(shown.json, null, 1);
    core.drawResult();
    core.writeLink();
  };
});
