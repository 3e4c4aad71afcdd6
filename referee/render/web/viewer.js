/* The web viewer's core script (referee/render/web/viewer.js), inlined into every page that
 * `referee html` writes. Plain ES2017, no libraries, no network: it reads the match from the
 * <script type="application/json" id="match-data"> element and draws it. Every piece of text
 * from the replay is set with textContent, never parsed as HTML.
 *
 * The core knows no game. It draws the header, the fault banner, the navigation (buttons, keys,
 * slider, autoplay), the seat selector, the step panel (who acted, the action, its time, the
 * bot's debug text, the legal actions), the raw JSON and the result panel. The table itself, the
 * words for an action and the score breakdown come from the replay's game's module, which the
 * page embeds after this script (games/<game>/web/viewer.js, Game::web_module() in C++); a game
 * without a module, or whose module is not in the page, gets the core's generic drawing (its
 * state or a seat's view as a JSON tree, the moves so far, the footer's scores). A game is never
 * drawn as another one.
 *
 * Positions: the slider runs from 0 to the number of decisions. Position p shows frames[p], the
 * table after p decisions; while p is below the end, steps[p] is the decision taken from that
 * table (who acted, the action, its time, the bot's debug text). The last position is the table
 * at the end, with the fault if the match ended with one.
 *
 * ---- The game module contract --------------------------------------------------------------
 *
 * A module is a script that calls, once:
 *
 *   ArenaViewer.registerGame(name, function factory(v) { return { ...functions... }; });
 *
 * `name` is the game's registry name (the replay header's "game"). The page then runs
 * ArenaViewer.start(), which calls the factory of the replay's game only, with `v`, the viewer's
 * API below, and uses the functions it returns; each one is optional (the generic drawing's
 * stands in for a missing one):
 *
 *   table(shown)          -> DOM node(s): the table at one position. `shown` is either the full
 *                            table, { full: true, position, state, views, to_act } (the referee's
 *                            state, every seat's view re-simulated, the seat to act or null), or
 *                            one seat's view, { full: false, position, seat, view, source, step }
 *                            (the view the seat was sent at decision `step`, source "recorded",
 *                            or the one re-simulated at this position, source "resimulated").
 *                            A seat's drawing must use `view` only, so it shows no more than the
 *                            bot saw.
 *   describe(action, p)   -> string: the action taken from position p in words, after the seat's
 *                            name ("takes row slot 2 (Moon 3)"); v.frames[p] is the table it was
 *                            taken from.
 *   breakdown(outcome)    -> rows of the score table, [{ label, class, cell(seat) -> node(s) }],
 *                            from the footer's result.outcome (the game's own outcome); the core
 *                            adds the Score and Rank rows. Use v.value(path) for numbers, so
 *                            that each names its path under the footer's result.
 *   resultNotes(outcome)  -> node(s) shown in the result box above the score table.
 *   meta()                -> strings added to the header line after the players.
 *
 * The API `v` (read-only data and helpers; the module keeps no other link to the core):
 *   v.data, v.header, v.steps, v.frames, v.cards (the game's card table or null), v.footer,
 *   v.result (footer.result or null), v.fault (the result's fault or null), v.seats, v.last
 *   (the number of decisions, the last position), v.position() (the position drawn);
 *   v.el(tag, props, children...), v.append(node, child), v.clear(node): DOM building, text only
 *   (props: class, text, testid, data: {...}, any attribute);
 *   v.botName(seat), v.seatLabel(seat), v.cardName(id), v.plural(n, word), v.capitalise(s);
 *   v.area(title, body, props), v.globals([[label, value, key], ...]), v.none(text),
 *   v.emptySlot(label), v.cardBack(title, props) (a card whose face is hidden, class "card back");
 *   v.playerPanel(seat, { toAct, opponent, badges }, body) (a seat's panel, data-testid
 *   "seat-N", marked when that seat faulted at the end);
 *   v.value(path) (a number of the footer's result, tagged data-key=path);
 *   v.jsonTree(value, key) (a collapsible JSON tree that keeps its open branches per key).
 * The core's style sheet styles these (.card, .card.back, .player, .badge, .area, .globals, ...);
 * the module's style sheet (games/<game>/web/viewer.css) adds the game's own classes. */
var ArenaViewer = (function () {
  'use strict';

  var factories = {};

  function registerGame(name, factory) {
    if (typeof name !== 'string' || typeof factory !== 'function') {
      throw new Error('ArenaViewer.registerGame(name, factory): a game name and a function');
    }
    factories[name] = factory;
  }

  function start() {
    var data = JSON.parse(document.getElementById('match-data').textContent);
    if (data.format !== 2) throw new Error('match data format ' + data.format + ' is not supported by this page');

    var header = data.header;
    var steps = data.steps;
    var frames = data.frames;
    var cards = data.cards;
    var footer = data.footer;
    var result = footer ? footer.result : null;
    var fault = result && result.fault ? result.fault : null;
    var gameName = header.game;
    var gameTitle = data.game && data.game.title ? data.game.title : gameName;
    var seats = header.seats;
    var last = steps.length;

    var pos = 0;
    var mode = 'full';  // 'full', or the number of the seat whose view is drawn
    var timer = null;

    // ---- DOM helpers -----------------------------------------------------------------------

    function append(node, child) {
      if (child === null || child === undefined || child === false) return;
      if (Array.isArray(child)) {
        child.forEach(function (c) { append(node, c); });
        return;
      }
      node.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
    }

    // el('div', {class, text, testid, data: {...}, title, ...}, children...)
    function el(tag, props) {
      var node = document.createElement(tag);
      if (props) {
        Object.keys(props).forEach(function (key) {
          var value = props[key];
          if (value === undefined || value === null || value === false) return;
          if (key === 'class') node.className = value;
          else if (key === 'text') node.textContent = String(value);
          else if (key === 'testid') node.setAttribute('data-testid', value);
          else if (key === 'data') {
            Object.keys(value).forEach(function (d) {
              if (value[d] !== undefined && value[d] !== null) node.setAttribute('data-' + d, String(value[d]));
            });
          } else node.setAttribute(key, String(value));
        });
      }
      for (var i = 2; i < arguments.length; i++) append(node, arguments[i]);
      return node;
    }

    function byId(id) { return document.getElementById(id); }

    function clear(node) {
      while (node.firstChild) node.removeChild(node.firstChild);
      return node;
    }

    // ---- names -----------------------------------------------------------------------------

    function botName(seat) {
      var b = header.bots[seat];
      return b && b.name ? b.name : '?';
    }

    function seatLabel(seat) {
      if (typeof seat === 'string') return 'the ' + capitalise(seat);  // a seat no bot plays ("dummy")
      if (seat === null || seat === undefined || seat < 0) return 'nobody';
      return 'seat ' + seat + ' (' + botName(seat) + ')';
    }

    function cardName(id) {
      return cards && cards[id] && cards[id].name !== undefined ? String(cards[id].name) : 'card ' + id;
    }

    function formatMs(ms) {
      if (typeof ms !== 'number') return '';
      return (ms < 10 ? ms.toFixed(3) : ms < 1000 ? ms.toFixed(1) : ms.toFixed(0)) + ' ms';
    }

    function plural(n, word) { return n + ' ' + word + (n === 1 ? '' : 's'); }

    function capitalise(s) { return s ? s.charAt(0).toUpperCase() + s.slice(1) : s; }

    // JSON text with object keys sorted, so that two equal values compare equal as text.
    function canonical(value) {
      if (Array.isArray(value)) return '[' + value.map(canonical).join(',') + ']';
      if (value !== null && typeof value === 'object') {
        return '{' + Object.keys(value).sort().map(function (k) { return JSON.stringify(k) + ':' + canonical(value[k]); }).join(',') + '}';
      }
      return JSON.stringify(value);
    }

    // ---- widgets shared by the drawings ----------------------------------------------------

    function cardBack(title, props) {
      var attrs = props || {};
      return el('div', {
        class: 'card back' + (attrs.class ? ' ' + attrs.class : ''),
        data: attrs.data,
        title: title || 'a hidden card'
      }, el('span', { class: 'name', text: '?' }));
    }

    function emptySlot(label) {
      return el('div', { class: 'empty-slot', text: label });
    }

    function none(textValue) { return el('span', { class: 'none', text: textValue }); }

    function area(title, body, props) {
      var attrs = props || {};
      attrs.class = 'area' + (attrs.class ? ' ' + attrs.class : '');
      return el('div', attrs, el('div', { class: 'area-title', text: title }), body);
    }

    function globals(items) {
      return el('div', { class: 'globals', testid: 'globals' }, items.filter(Boolean).map(function (it) {
        return el('span', { class: 'item', data: { key: it[2] } }, el('span', { class: 'label', text: it[0] + ': ' }), it[1]);
      }));
    }

    function playerPanel(seat, opts, body) {
      var o = opts || {};
      var faulted = pos === last && fault && fault.seat === seat;
      return el('div', {
        class: 'player' + (o.toAct ? ' to-act' : '') + (faulted ? ' faulted' : ''),
        testid: 'seat-' + seat,
        data: { seat: seat }
      },
      el('div', { class: 'player-title' },
        'Seat ' + seat + ' \u00b7 ' + botName(seat),
        o.toAct ? el('span', { class: 'badge turn', text: 'to act' }) : null,
        o.badges,
        faulted ? el('span', { class: 'badge fault', text: 'fault: ' + fault.kind }) : null,
        o.opponent ? el('span', { class: 'badge', text: 'opponent' }) : null),
      body);
    }

    // A number from the footer, tagged with its path under footer.result (the test reads these).
    function value(path) {
      var v = path.split('.').reduce(function (o, k) { return o === null || o === undefined ? undefined : o[k]; }, result);
      var shown = v === undefined || v === null ? '\u2013' : typeof v === 'object' ? JSON.stringify(v) : v;
      return el('span', { data: { key: path }, text: shown });
    }

    // A JSON value as a tree of <details>, one per object or array; every scalar carries its path
    // (keys joined by ".") in data-path. Which branches are open is kept per tree key and path,
    // so stepping through the match keeps what the reader opened or closed.
    var openBranches = {};
    function jsonTree(rootValue, key) {
      var treeKey = key || 'tree';
      function scalar(v) {
        var type = v === null ? 'null' : typeof v;
        return { type: type, text: JSON.stringify(v) };
      }
      function node(label, v, path, depth) {
        var isContainer = v !== null && typeof v === 'object';
        var empty = isContainer && Object.keys(v).length === 0;
        if (!isContainer || empty) {
          var s = isContainer ? { type: 'empty', text: Array.isArray(v) ? '[]' : '{}' } : scalar(v);
          return el('div', { class: 'json-leaf' },
            label === null ? null : el('span', { class: 'json-key', text: label + ': ' }),
            el('span', { class: 'json-value json-' + s.type, data: { path: path }, text: s.text }));
        }
        var keys = Object.keys(v);
        var stateKey = treeKey + '\u0000' + path;
        var open = stateKey in openBranches ? openBranches[stateKey] : depth < 2;
        var details = el('details', { class: 'json-branch', data: { path: path } },
          el('summary', null,
            label === null ? null : el('span', { class: 'json-key', text: label + ': ' }),
            el('span', { class: 'json-size', text: Array.isArray(v) ? '[' + plural(keys.length, 'item') + ']' : '{' + plural(keys.length, 'key') + '}' })),
          el('div', { class: 'json-children' }, keys.map(function (k) {
            return node(k, v[k], path === '' ? k : path + '.' + k, depth + 1);
          })));
        details.open = open;
        details.addEventListener('toggle', function () { openBranches[stateKey] = details.open; });
        return details;
      }
      var root = node(null, rootValue, '', 0);
      if (root.tagName.toLowerCase() === 'details') {  // the root's entries, without a branch of their own
        root = root.querySelector('.json-children');
      }
      return el('div', { class: 'json-tree', testid: 'json-tree' }, root);
    }

    // ---- what is drawn at a position -------------------------------------------------------

    // The view a seat's bot was sent: its last decision at or before position p, else the view
    // re-simulated from the replay (the bot has not been asked anything yet).
    function seatView(p, seat) {
      for (var k = Math.min(p, last - 1); k >= 0; k--) {
        if (steps[k].seat === seat && steps[k].view) return { source: 'recorded', step: k, view: steps[k].view };
      }
      return { source: 'resimulated', step: p, view: frames[p].views[seat] };
    }

    function shownAt(p) {
      if (mode === 'full') {
        var f = frames[p];
        return { full: true, position: p, state: f.state, views: f.views, to_act: f.to_act < 0 ? null : f.to_act, source: 'full', json: f.state };
      }
      var sv = seatView(p, mode);
      return { full: false, position: p, seat: mode, view: sv.view, source: sv.source, step: sv.step, json: sv.view };
    }

    // ---- the API given to a game module ----------------------------------------------------

    var api = {
      data: data, header: header, steps: steps, frames: frames, cards: cards, footer: footer,
      result: result, fault: fault, seats: seats, last: last,
      position: function () { return pos; },
      el: el, append: append, clear: clear,
      botName: botName, seatLabel: seatLabel, cardName: cardName, plural: plural, capitalise: capitalise,
      area: area, globals: globals, none: none, emptySlot: emptySlot, cardBack: cardBack,
      playerPanel: playerPanel, value: value, jsonTree: jsonTree
    };

    // ---- the generic drawing: any game, from its JSON alone ---------------------------------

    var generic = {
      table: function (shown) {
        var p = shown.position;
        var toAct = frames[p].to_act < 0 ? null : frames[p].to_act;
        var out = [];
        out.push(globals([
          ['decisions taken', p + ' of ' + last, 'decisions'],
          ['to act', toAct === null ? 'nobody (over)' : seatLabel(toAct), 'to_act'],
          shown.full ? null : ['drawn', 'seat ' + shown.seat + '\'s view', 'seat']
        ]));
        out.push(el('div', { class: 'players' }, header.bots.map(function (b, seat) {
          var facts = [];
          if (p === last && result && Array.isArray(result.scores)) {
            facts.push(el('div', null, 'score ', value('scores.' + seat)));
            if (Array.isArray(result.ranks)) facts.push(el('div', null, 'rank ', value('ranks.' + seat)));
          }
          var decided = 0;
          for (var k = 0; k < p; k++) if (steps[k].seat === seat) decided++;
          facts.push(el('div', { class: 'none', text: plural(decided, 'decision') + ' so far' }));
          return playerPanel(seat, { toAct: toAct === seat, opponent: !shown.full && shown.seat !== seat }, facts);
        })));
        out.push(area(shown.full ? 'The referee\'s state (no bot sees all of it)' : 'What seat ' + shown.seat + ' sees',
          jsonTree(shown.full ? shown.state : shown.view, shown.full ? 'state' : 'view')));
        var moves = [];
        var first = Math.max(0, p - 100);
        for (var k = p - 1; k >= first; k--) {
          moves.push(el('li', { value: String(k), data: { step: k } },
            capitalise(seatLabel(steps[k].seat)) + ' ' + describe(steps[k].action, k)));
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
            : typeof w === 'number' ? ['winner seat ', value('outcome.winner'), ' (' + botName(w) + ')'] : ['winner ', value('outcome.winner')]));
        }
        out.push(el('details', { class: 'outcome-json' }, el('summary', { text: 'The game\'s outcome as JSON' }),
          jsonTree(outcome, 'outcome')));
        return out;
      },
      meta: function () { return []; }
    };

    // The replay's game's module, else the generic drawing; a function the module lacks is the
    // generic one.
    var game = generic;
    var drawing = 'generic';
    if (Object.prototype.hasOwnProperty.call(factories, gameName)) {
      try {
        var made = factories[gameName](api) || {};
        game = {};
        Object.keys(generic).forEach(function (k) { game[k] = typeof made[k] === 'function' ? made[k] : generic[k]; });
        drawing = 'module';
      } catch (e) {
        console.error('the viewer module of ' + gameName + ' failed (' + (e && e.message ? e.message : e) + '); the generic drawing stands in');
        game = generic;
      }
    }

    function describe(action, p) {
      try {
        return game.describe(action, p);
      } catch (e) {
        console.error('describe failed at step ' + p + ': ' + (e && e.message ? e.message : e));
        return generic.describe(action, p);
      }
    }

    // ---- the step panel --------------------------------------------------------------------

    function drawStep() {
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
        action.textContent = capitalise(seatLabel(s.seat)) + ' ' + describe(s.action, pos);
        action.setAttribute('data-seat', String(s.seat));
        actionJson.textContent = JSON.stringify(s.action);
        time.textContent = 'took ' + formatMs(s.time_ms) + (typeof s.cpu_ms === 'number' ? ' (CPU ' + formatMs(s.cpu_ms) + ')' : '');
        time.setAttribute('data-ms', String(s.time_ms));
        var text = s.debug || '';
        debug.textContent = text || '(none)';
        debug.classList.toggle('empty', !text);
        drawLegal();
        return;
      }
      action.removeAttribute('data-seat');
      actionJson.textContent = '\u2013 (no decision at the end)';
      time.textContent = '';
      time.removeAttribute('data-ms');
      debug.textContent = '(none)';
      debug.classList.add('empty');
      drawLegal();
      if (fault) {
        turn.textContent = 'End of the match after ' + last + ' decisions: ' + seatLabel(fault.seat) + ' faulted at request ' + fault.request_id;
        action.textContent = 'Fault (' + fault.kind + '): ' + seatLabel(fault.seat) + ' forfeits: ' + fault.message;
        action.classList.add('fault');
        action.setAttribute('data-seat', String(fault.seat));
      } else if (!footer) {
        turn.textContent = 'The replay stops after ' + last + ' decisions (no footer: the referee was stopped mid-match)';
        action.textContent = 'No further decision recorded';
      } else {
        turn.textContent = 'End of the match after ' + last + ' decisions (' + footer.end + ')';
        action.textContent = winnerText();
      }
    }

    // The legal actions the seat to act was offered (re-simulated), in the full table and in that
    // seat's own view only: they may name what it holds. Listed when the box is opened.
    function drawLegal() {
      var box = byId('legal-box');
      var list = clear(byId('legal'));
      var legal = pos < last ? frames[pos].legal : null;
      if (!Array.isArray(legal)) {
        box.hidden = true;
        return;
      }
      box.hidden = false;
      var seat = steps[pos].seat;
      var summary = byId('legal-summary');
      box.setAttribute('data-count', String(legal.length));
      if (mode !== 'full' && mode !== seat) {
        box.open = false;
        box.setAttribute('data-hidden', 'true');
        summary.textContent = 'Legal actions: not shown in seat ' + mode + '\'s view (they may name what seat ' + seat + ' holds)';
        return;
      }
      box.removeAttribute('data-hidden');
      summary.textContent = plural(legal.length, 'legal action') + ' for seat ' + seat + ' (the one taken is marked)';
      if (!box.open) return;
      var taken = canonical(steps[pos].action);
      append(list, legal.map(function (a) {
        var isTaken = canonical(a) === taken;
        return el('li', { class: isTaken ? 'taken' : null, data: { taken: isTaken ? 'true' : null } }, el('code', { text: JSON.stringify(a) }));
      }));
    }

    function winnerText() {
      if (!result) return 'no result';
      if (result.winner !== null && result.winner !== undefined) return capitalise(seatLabel(result.winner)) + ' wins';
      if (footer.end === 'finished') return 'A draw (shared first place)';
      return 'No winner (' + footer.end + ')';
    }

    function describeSource(shown) {
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
        return game.table(shown);
      } catch (e) {
        if (game === generic) throw e;
        console.error('the ' + gameName + ' drawing failed at step ' + shown.position + ': ' + (e && e.message ? e.message : e));
        return [el('p', { class: 'fault-line', text: 'The game\'s drawing failed here; the generic drawing stands in.' }), generic.table(shown)];
      }
    }

    function draw() {
      byId('step-counter').textContent = 'Step ' + pos + ' / ' + last;
      byId('step-counter').setAttribute('data-position', String(pos));
      byId('slider').value = String(pos);
      byId('prev').disabled = pos === 0;
      byId('first').disabled = pos === 0;
      byId('next').disabled = pos === last;
      byId('last').disabled = pos === last;
      drawStep();
      var shown = shownAt(pos);
      describeSource(shown);
      var table = clear(byId('table'));
      table.setAttribute('data-mode', String(mode));
      append(table, drawTable(shown));
      if (byId('raw').open) byId('raw-json').textContent = JSON.stringify(shown.json, null, 1);
    }

    // ---- result and score breakdown --------------------------------------------------------

    function scoreTable(rows) {
      var head = el('tr', null, el('th', { text: '' }), header.bots.map(function (b, i) {
        return el('th', { text: 'seat ' + i + ' ' + botName(i) });
      }));
      return el('table', { class: 'score' }, el('thead', null, head), el('tbody', null, rows.map(function (r) {
        return el('tr', { class: r.class || '' }, el('td', { text: r.label }), header.bots.map(function (b, i) {
          return el('td', { data: { seat: i } }, r.cell(i));
        }));
      })));
    }

    function drawResult() {
      var box = clear(byId('result'));
      var breakdown = clear(byId('score-breakdown'));
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
        text: winnerText()
      }));
      if (fault) {
        append(box, el('p', { class: 'fault-line', text: 'Fault: ' + seatLabel(fault.seat) + ', ' + fault.kind + ' at request ' + fault.request_id + '.' }));
      }
      var outcome = result ? result.outcome : null;
      var rows = [];
      if (outcome !== null && outcome !== undefined) {
        rows = game.breakdown(outcome) || [];
        append(box, game.resultNotes(outcome));
      }
      if (result && result.scores) rows.push({ label: 'Score', class: 'total', cell: function (i) { return value('scores.' + i); } });
      if (result && result.ranks) rows.push({ label: 'Rank', cell: function (i) { return value('ranks.' + i); } });
      if (rows.length) append(breakdown, scoreTable(rows));
      if (outcome === null || outcome === undefined) {
        append(breakdown, el('p', { class: 'none', text: 'No score breakdown: the match did not finish (' + footer.end + ').' }));
      }
    }

    function drawHeader() {
      byId('match-title').textContent = gameTitle + ', seed ' + header.seed;
      var players = header.bots.map(function (b, i) { return botName(i) + ' (seat ' + i + ')'; }).join(' vs ');
      var meta = [players].concat(game.meta() || []);
      meta.push(last + ' decisions');
      meta.push('ended: ' + (footer ? footer.end : 'no footer'));
      if (header.started) meta.push('started ' + header.started);
      meta.push('replay ' + data.source);
      byId('match-meta').textContent = meta.join(' \u00b7 ');
      var banner = byId('fault-banner');
      if (fault) {
        banner.hidden = false;
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
    }

    // ---- controls --------------------------------------------------------------------------

    function go(p) {
      var next = Math.max(0, Math.min(last, p));
      if (next === pos) return;
      pos = next;
      draw();
    }

    function stop() {
      if (timer !== null) clearInterval(timer);
      timer = null;
      byId('play').textContent = 'Play';
      byId('play').setAttribute('aria-pressed', 'false');
    }

    function play() {
      if (pos === last) go(0);
      var speed = Number(byId('speed').value) || 1;
      if (timer !== null) clearInterval(timer);
      timer = setInterval(function () {
        if (pos >= last) {
          stop();
          return;
        }
        go(pos + 1);
        if (pos >= last) stop();
      }, 1000 / speed);
      byId('play').textContent = 'Pause';
      byId('play').setAttribute('aria-pressed', 'true');
    }

    function toggle() {
      if (timer === null) play();
      else stop();
    }

    function setMode(v) {
      mode = v === 'full' ? 'full' : Number(v);
      byId('seat-toggle').value = String(v);
      draw();
    }

    function setup() {
      var slider = byId('slider');
      slider.max = String(last);
      var toggleSelect = byId('seat-toggle');
      append(toggleSelect, el('option', { value: 'full', text: 'full table' }));
      for (var s = 0; s < seats; s++) {
        append(toggleSelect, el('option', { value: String(s), text: 'seat ' + s + ' view (' + botName(s) + ')' }));
      }
      byId('first').addEventListener('click', function () { stop(); go(0); });
      byId('prev').addEventListener('click', function () { stop(); go(pos - 1); });
      byId('next').addEventListener('click', function () { stop(); go(pos + 1); });
      byId('last').addEventListener('click', function () { stop(); go(last); });
      byId('play').addEventListener('click', toggle);
      byId('speed').addEventListener('change', function () { if (timer !== null) play(); });
      slider.addEventListener('input', function () { stop(); go(Number(slider.value)); });
      toggleSelect.addEventListener('change', function () { setMode(toggleSelect.value); });
      byId('raw').addEventListener('toggle', function () {
        if (byId('raw').open) draw();
        else byId('raw-json').textContent = '';
      });
      byId('legal-box').addEventListener('toggle', drawLegal);
      document.addEventListener('keydown', function (e) {
        if (e.altKey || e.ctrlKey || e.metaKey) return;
        var t = e.target;
        var tag = t && t.tagName ? t.tagName.toLowerCase() : '';
        if (tag === 'select' || tag === 'textarea' || (tag === 'input' && t.type !== 'range')) return;
        var handled = true;
        if (e.key === 'ArrowRight') { stop(); go(pos + 1); }
        else if (e.key === 'ArrowLeft') { stop(); go(pos - 1); }
        else if (e.key === 'Home') { stop(); go(0); }
        else if (e.key === 'End') { stop(); go(last); }
        else if (e.key === ' ' && tag !== 'button' && tag !== 'summary') toggle();
        else if (e.key === 'f' || e.key === 'F') setMode('full');
        else if (/^[0-9]$/.test(e.key) && Number(e.key) < seats) setMode(e.key);
        else handled = false;
        if (handled) e.preventDefault();
      });
    }

    document.body.setAttribute('data-game', gameName);
    document.body.setAttribute('data-drawing', drawing);
    setup();
    drawHeader();
    drawResult();
    draw();
    document.body.setAttribute('data-ready', 'true');
  }

  return { registerGame: registerGame, start: start };
})();
