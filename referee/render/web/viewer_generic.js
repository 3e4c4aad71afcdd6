/* The web viewer's generic drawing (referee/render/web/viewer_generic.js), a part of the core (see
 * viewer.js): any game from its JSON alone, for a game without a web module or whose module is
 * not in the page, and the stand-in for any function a module lacks. It sets core.generic. */
ArenaViewer.corePart(function (core) {
  'use strict';

  // The shared helpers and match data this part uses (viewer.js: core).
  const { el, area, globals, none, plural, seatLabel, capitalise, value, steps, frames, last, seats } = core;

  core.generic = {
    table: function (shown) {
      var p = shown.position;
      var toAct = frames[p].to_act < 0 ? null : frames[p].to_act;
      var result = core.result;
      var out = [];
      out.push(globals([
        ['decisions taken', p + ' of ' + last, 'decisions'],
        ['to act', toAct === null ? 'nobody (over)' : seatLabel(toAct), 'to_act'],
        shown.full ? null : ['drawn', 'seat ' + shown.seat + '\'s view', 'seat']
      ]));
      out.push(el('div', { class: 'players' }, core.header.bots.map(function (b, seat) {
        var facts = [];
        if (p === last && result && Array.isArray(result.scores)) {
          facts.push(el('div', null, 'score ', value('scores.' + seat)));
          if (Array.isArray(result.ranks)) facts.push(el('div', null, 'rank ', value('ranks.' + seat)));
        }
        var decided = 0;
        for (var k = 0; k < p; k++) if (steps[k].seat === seat) decided++;
        facts.push(el('div', { class: 'none', text: plural(decided, 'decision') + ' so far' }));
        return core.playerPanel(seat, { toAct: toAct === seat, opponent: !shown.full && shown.seat !== seat }, facts);
      })));
      out.push(area(shown.full ? 'The referee\'s state (no bot sees all of it)' : 'What seat ' + shown.seat + ' sees',
        core.jsonTree(shown.full ? shown.state : shown.view, shown.full ? 'state' : 'view')));
      var moves = [];
      var first = Math.max(0, p - 100);
      for (var k = p - 1; k >= first; k--) {
        moves.push(el('li', { value: String(k), data: { step: k } },
          capitalise(seatLabel(steps[k].seat)) + ' ' + core.describe(steps[k].action, k)));
      }
      out.push(area('Moves so far (' + p + ', the latest first)',
        moves.length ? el('ol', { class: 'moves', testid: 'moves', reversed: 'reversed' }, moves,
          first > 0 ? el('li', { class: 'none', text: plural(first, 'earlier move') + ' not listed' }) : null)
          : none('none yet')));
      return out;
    },
    describe: function (action) { return 'plays ' + JSON.stringify(action); },
    breakdown: function (outcome) {
      // One row per array of one scalar per seat in the outcome, and per scalar field of a
      // per-seat "players" array.
      var rows = [];
      if (!outcome || typeof outcome !== 'object') return rows;
      var perSeat = function (list) { return Array.isArray(list) && list.length === seats; };
      var isScalar = function (x) { return x === null || typeof x !== 'object'; };
      Object.keys(outcome).forEach(function (k) {
        var list = outcome[k];
        if (perSeat(list) && list.every(isScalar)) {
          rows.push({ label: k, cell: function (i) { return value('outcome.' + k + '.' + i); } });
        } else if (perSeat(list) && list.every(function (x) { return x !== null && typeof x === 'object' && !Array.isArray(x); })) {
          Object.keys(list[0]).filter(function (f) { return isScalar(list[0][f]); }).forEach(function (f) {
            rows.push({ label: k + ': ' + f, cell: function (i) { return value('outcome.' + k + '.' + i + '.' + f); } });
          });
        }
      });
      return rows;
    },
    resultNotes: function (outcome) {
      var out = [];
      if (outcome && typeof outcome === 'object' && 'winner' in outcome) {
        var w = outcome.winner;
        out.push(el('p', null, 'The game\'s outcome: ', w === null || w === undefined ? 'no winner'
          : typeof w === 'number' ? ['winner seat ', value('outcome.winner'), ' (' + core.botName(w) + ')'] : ['winner ', value('outcome.winner')]));
      }
      out.push(el('details', { class: 'outcome-json' }, el('summary', { text: 'The game\'s outcome as JSON' }),
        core.jsonTree(outcome, 'outcome')));
      return out;
    },
    meta: function () { return []; }
  };
});
