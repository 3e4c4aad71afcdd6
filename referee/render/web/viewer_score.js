/* The web viewer's running score (referee/render/web/viewer_score.js), a part of the core (see
 * viewer.js): at every position, each seat's score so far and a small chart of the scores over the
 * match, below the step panel. The scores come from the frames (frames[p].progress, the game's
 * GameState::progress() re-simulated in C++: {scores: [per seat], outcome: the breakdown so far});
 * nothing is scored here. A game whose frames carry no progress gets a line saying so. A game
 * module may add progressNote(progress, seat) -> string: the breakdown of a seat's running score
 * in a few words ("types 12 · sections 10"); the generic one says nothing.
 *
 * No spoilers (viewer_result.js): before the last step, unless the result is shown, the chart
 * stops at the position drawn, and its vertical scale is that of the steps drawn, so neither its
 * lines nor its axis tell the scores to come. The chart is inline SVG, drawn with attributes only.
 * Runs after viewer_result.js: it wraps core.drawResult, which core.draw and "Show result" call. */
ArenaViewer.corePart(function (core) {
  'use strict';

  // The shared helpers and match data this part uses (viewer.js: core).
  const { el, append, clear, byId, frames, last, seats } = core;

  var SVG = 'http://www.w3.org/2000/svg';
  var COLOURS = ['#ffd166', '#5bc0eb', '#9bc53d', '#e55934', '#c38eeb', '#fa7921'];
  var WIDTH = 400;
  var HEIGHT = 100;

  core.generic.progressNote = function () { return null; };

  function colour(seat) { return COLOURS[seat % COLOURS.length]; }

  function scoresAt(p) {
    var progress = frames[p].progress;
    return progress && Array.isArray(progress.scores) ? progress.scores : null;
  }

  function svg(tag, attrs) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, String(attrs[k])); });
    for (var i = 2; i < arguments.length; i++) if (arguments[i]) node.appendChild(arguments[i]);
    return node;
  }

  // The panel, made once below the step panel's contents.
  var panel = null;
  function box() {
    if (!panel) {
      panel = el('div', { id: 'running', testid: 'running-score', style: 'margin-top: 8px' });
      append(byId('step-panel'), panel);
    }
    return panel;
  }

  // The chart of every seat's score from step 0 to `upto`, a marker at `pos`.
  function chart(upto, pos) {
    var lo = 0;
    var hi = 1;
    for (var p = 0; p <= upto; p++) {
      (scoresAt(p) || []).forEach(function (s) {
        lo = Math.min(lo, s);
        hi = Math.max(hi, s);
      });
    }
    var x = function (p) { return last > 0 ? (p / last) * WIDTH : 0; };
    var y = function (s) { return HEIGHT - ((s - lo) / (hi - lo)) * HEIGHT; };
    var root = svg('svg', {
      viewBox: '0 0 ' + WIDTH + ' ' + HEIGHT, width: '100%', height: 110, preserveAspectRatio: 'none',
      role: 'img', 'aria-label': 'Each seat\'s score by step, to step ' + upto, 'data-testid': 'score-chart',
      'data-upto': upto, 'data-max': hi, style: 'display: block; background: #232d52; border-radius: 4px; overflow: visible'
    });
    append(root, svg('line', { x1: 0, y1: y(0), x2: WIDTH, y2: y(0), stroke: '#3b4776', 'vector-effect': 'non-scaling-stroke' }));
    for (var seat = 0; seat < seats; seat++) {
      var points = [];
      for (var q = 0; q <= upto; q++) {
        var s = scoresAt(q);
        if (s && typeof s[seat] === 'number') points.push(x(q).toFixed(2) + ',' + y(s[seat]).toFixed(2));
      }
      append(root, svg('polyline', {
        class: 'score-line', 'data-seat': seat, 'data-points': points.length, points: points.join(' '),
        fill: 'none', stroke: colour(seat), 'stroke-width': 2, 'vector-effect': 'non-scaling-stroke'
      }));
    }
    append(root, svg('line', {
      'data-testid': 'chart-marker', 'data-step': pos, x1: x(pos), y1: 0, x2: x(pos), y2: HEIGHT,
      stroke: '#e8ecf6', 'stroke-dasharray': '3 3', 'vector-effect': 'non-scaling-stroke'
    }));
    return root;
  }

  function drawScore() {
    var pos = core.pos;
    var node = clear(box());
    var now = scoresAt(pos);
    if (!now) {
      append(node, el('p', { class: 'none', text: 'No running score: this game gives none before the end.' }));
      return;
    }
    var upto = core.revealed || pos === last ? last : pos;
    var progress = frames[pos].progress;
    append(node, el('div', { class: 'area-title', text: 'Running score at step ' + pos }));
    append(node, el('table', { class: 'running' }, el('tbody', null, now.map(function (score, seat) {
      var note = null;
      try {
        note = core.game.progressNote(progress, seat);
      } catch (e) {
        console.error('progressNote failed at step ' + pos + ': ' + (e && e.message ? e.message : e));
      }
      return el('tr', { data: { seat: seat } },
        el('td', null, el('span', { text: '\u25a0 ', style: 'color: ' + colour(seat) }), 'seat ' + seat + ' (' + core.botName(seat) + ')'),
        el('td', { testid: 'running-' + seat, data: { score: score }, style: 'font-weight: bold; padding: 0 8px', text: score }),
        el('td', { class: 'none', text: note || '' }));
    }))));
    append(node, chart(upto, pos));
    if (upto < last) {
      append(node, el('div', { class: 'none', text: 'The chart stops at this step until the result is shown.' }));
    }
  }

  var drawResult = core.drawResult;
  core.drawResult = function () {
    drawResult();
    drawScore();
  };
});
