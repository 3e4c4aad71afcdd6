/* The web viewer's core script (referee/render/web/viewer.js), inlined into every page that
 * `referee html` writes. Plain ES2017, no libraries, no network: it reads the match from the
 * <script type="text/plain" id="match-data"> element (its JSON gzip-compressed, in base64:
 * render/page_data.hpp; inflated with the browser's DecompressionStream) and draws it. Every piece of text
 * from the replay is set with textContent, never parsed as HTML.
 *
 * The core knows no game. It draws the header, the fault banner, the navigation (buttons, keys,
 * slider, autoplay, deep links, the keyboard help), the seat selector, the step panel (who acted,
 * the action, its time, the bot's debug text and stderr lines, the legal actions), the raw JSON
 * and the result panel. The table itself, the words for an action and the score breakdown come from the
 * replay's game's module, which the page embeds after this script (games/<game>/web/viewer.js,
 * Game::web_module() in C++); a game without a module, or whose module is not in the page, gets
 * the core's generic drawing (its state or a seat's view as a JSON tree, the moves so far, the
 * footer's scores). A game is never drawn as another one.
 *
 * The core is several files, joined in this order into the page's one core <script> at build
 * time (referee/render/CMakeLists.txt): this one (the game module contract, the shared state,
 * the DOM helpers and widgets, the API given to a module, start()), then viewer_generic.js (the
 * generic drawing), viewer_panels.js (what is drawn at a position: the step panel, the seat's
 * view, the table), viewer_result.js (the result panel and the header, hidden until the last
 * step: no spoilers), viewer_score.js (the running score at each step from the frame's
 * `progress`, which a game gives through GameState::progress(), and its chart, drawn only up to
 * the step shown until the result is revealed; a module may add a note per seat with
 * `progressNote`) and viewer_nav.js (the controls, the keys, the keyboard help, the deep links
 * #step=N&seat=K). Each of those calls ArenaViewer.corePart(init) once; start() calls every
 * init with `core`, the object they share (the match data, the position and mode shown, the
 * helpers below), to which each adds its own functions.
 *
 * Positions: the slider runs from 0 to the number of decisions. Position p shows frames[p], the
 * table after p decisions; while p is below the end, steps[p] is the decision taken from that
 * table (who acted, the action, its time, the bot's debug text and stderr lines). The last position is the table
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
  var parts = [];

  function registerGame(name, factory) {
    if (typeof name !== 'string' || typeof factory !== 'function') {
      throw new Error('ArenaViewer.registerGame(name, factory): a game name and a function');
    }
    factories[name] = factory;
  }

  // A part of the core (viewer_*.js): init(core) adds its functions to `core`.
  function corePart(init) { parts.push(init); }

  // The match data: the element's base64 text, gunzipped, parsed as JSON (a promise).
  function readData() {
    var node = document.getElementById('match-data');
    if (node.getAttribute('data-encoding') !== 'gzip base64') {
      return Promise.reject(new Error('the match data is not in the encoding this page reads (gzip base64)'));
    }
    if (typeof DecompressionStream !== 'function') {
      return Promise.reject(new Error('this browser cannot inflate the page\'s compressed match data (it has no DecompressionStream: ' +
        'Chromium 80, Firefox 113 and Safari 16.4 or later have it)'));
    }
    var text = atob(node.textContent.trim());
    var bytes = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    var inflated = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    return new Response(inflated).text().then(JSON.parse);
  }

  // Reads the match data, then draws the page; a page that cannot be read says why in its body.
  function start() {
    return readData().then(run, function (e) {
      var message = 'This page could not read its match: ' + (e && e.message ? e.message : e);
      var p = document.createElement('p');
      p.setAttribute('data-testid', 'data-error');
      p.textContent = message;
      document.body.insertBefore(p, document.body.firstChild);
      document.body.setAttribute('data-ready', 'error');
      throw e;
    });
  }

  function run(data) {
    if (data.format !== 2) throw new Error('match data format ' + data.format + ' is not supported by this page');

    var header = data.header;
    var footer = data.footer;
    var result = footer ? footer.result : null;
    var core = {
      data: data,
      header: header,
      steps: data.steps,
      frames: data.frames,
      cards: data.cards,
      footer: footer,
      unverified: data.unverified || null,  // why the footer did not verify (it is then left out)
      result: result,
      fault: result && result.fault ? result.fault : null,
      gameName: header.game,
      gameTitle: data.game && data.game.title ? data.game.title : header.game,
      seats: header.seats,
      last: data.steps.length,
      pos: 0,           // the position drawn
      mode: 'full',     // 'full', or the number of the seat whose view is drawn
      revealed: false,  // the reader asked to see the result before the last step
      timer: null       // autoplay's interval
    };
    var fault = core.fault;

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
      return core.cards && core.cards[id] && core.cards[id].name !== undefined ? String(core.cards[id].name) : 'card ' + id;
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
      var faulted = core.pos === core.last && fault && fault.seat === seat;
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

    var helpers = {
      el: el, append: append, clear: clear, byId: byId,
      botName: botName, seatLabel: seatLabel, cardName: cardName, formatMs: formatMs, plural: plural,
      capitalise: capitalise, canonical: canonical,
      area: area, globals: globals, none: none, emptySlot: emptySlot, cardBack: cardBack,
      playerPanel: playerPanel, value: value, jsonTree: jsonTree
    };
    Object.keys(helpers).forEach(function (k) { core[k] = helpers[k]; });

    // ---- the API given to a game module ----------------------------------------------------

    var api = {
      data: data, header: header, steps: core.steps, frames: core.frames, cards: core.cards, footer: footer,
      result: result, fault: fault, seats: core.seats, last: core.last,
      position: function () { return core.pos; },
      el: el, append: append, clear: clear,
      botName: botName, seatLabel: seatLabel, cardName: cardName, plural: plural, capitalise: capitalise,
      area: area, globals: globals, none: none, emptySlot: emptySlot, cardBack: cardBack,
      playerPanel: playerPanel, value: value, jsonTree: jsonTree
    };

    parts.forEach(function (init) { init(core); });

    // The replay's game's module, else the generic drawing (viewer_generic.js); a function the
    // module lacks is the generic one.
    var generic = core.generic;
    core.game = generic;
    var drawing = 'generic';
    if (Object.prototype.hasOwnProperty.call(factories, core.gameName)) {
      try {
        var made = factories[core.gameName](api) || {};
        core.game = {};
        Object.keys(generic).forEach(function (k) { core.game[k] = typeof made[k] === 'function' ? made[k] : generic[k]; });
        drawing = 'module';
      } catch (e) {
        console.error('the viewer module of ' + core.gameName + ' failed (' + (e && e.message ? e.message : e) + '); the generic drawing stands in');
        core.game = generic;
      }
    }

    document.body.setAttribute('data-game', core.gameName);
    document.body.setAttribute('data-drawing', drawing);
    document.body.setAttribute('data-seats', String(core.seats));
    core.setup();
    core.draw();
    document.body.setAttribute('data-ready', 'true');
  }

  return { registerGame: registerGame, corePart: corePart, start: start };
})();
