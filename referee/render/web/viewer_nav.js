/* The web viewer's navigation (referee/render/web/viewer_nav.js), a part of the core (see
 * viewer.js): the buttons, the slider, autoplay, the seat selector, "Show result", the keys, the
 * keyboard help ("?", Escape closes it) and the deep links. Sets core.setup and core.writeLink.
 *
 * Deep links: the page's address ends with #step=N&seat=K (K a seat's number, or "full" for the
 * full table; either may be left out), so that a link can point at a moment of the match. On
 * opening, and when the reader edits it, the address picks the step and the view: a number out
 * of range is clamped to the nearest step or seat, anything else is ignored. Every move writes
 * the address back (history.replaceState: no new history entry per step). The address never
 * carries "Show result": a link does not spoil the match for the one who opens it. */
ArenaViewer.corePart(function (core) {
  'use strict';

  // The shared helpers and match data this part uses (viewer.js: core).
  const { byId, last, seats } = core;

  function go(p) {
    var next = Math.max(0, Math.min(last, p));
    if (next === core.pos) return;
    core.pos = next;
    core.draw();
  }

  function stop() {
    if (core.timer !== null) clearInterval(core.timer);
    core.timer = null;
    byId('play').textContent = 'Play';
    byId('play').setAttribute('aria-pressed', 'false');
  }

  function play() {
    if (core.pos === last) go(0);
    var speed = Number(byId('speed').value) || 1;
    if (core.timer !== null) clearInterval(core.timer);
    core.timer = setInterval(function () {
      if (core.pos >= last) {
        stop();
        return;
      }
      go(core.pos + 1);
      if (core.pos >= last) stop();
    }, 1000 / speed);
    byId('play').textContent = 'Pause';
    byId('play').setAttribute('aria-pressed', 'true');
  }

  function toggle() {
    if (core.timer === null) play();
    else stop();
  }

  function setMode(v) {
    core.mode = v === 'full' ? 'full' : Number(v);
    core.draw();
  }

  // ---- deep links ------------------------------------------------------------------------

  // An integer in [lo, hi] from the text of a link, clamped; null for anything but an integer.
  function clampedInt(text, lo, hi) {
    if (!/^[+-]?\d{1,15}$/.test(text)) return null;
    return Math.max(lo, Math.min(hi, Number(text)));
  }

  // The step and the view the address asks for: { pos, mode }, each null when not given or not
  // understood.
  function readLink() {
    var out = { pos: null, mode: null };
    String(window.location.hash || '').replace(/^#/, '').split('&').forEach(function (pair) {
      var eq = pair.indexOf('=');
      if (eq < 0) return;
      var key = pair.slice(0, eq).trim().toLowerCase();
      var text = pair.slice(eq + 1).trim();
      var value = key === 'step' ? clampedInt(text, 0, last)
        : key === 'seat' ? (text.toLowerCase() === 'full' ? 'full' : clampedInt(text, 0, seats - 1)) : null;
      if (value !== null) out[key === 'step' ? 'pos' : 'mode'] = value;
    });
    return out;
  }

  // The page as a new tab opening the address would show it: step 0 and the full table unless
  // the address says otherwise.
  function followLink() {
    var link = readLink();
    core.pos = link.pos !== null ? link.pos : 0;
    core.mode = link.mode !== null ? link.mode : 'full';
  }

  core.writeLink = function () {
    var hash = '#step=' + core.pos + (core.mode === 'full' ? '' : '&seat=' + core.mode);
    if (window.location.hash === hash) return;
    try {
      window.history.replaceState(null, '', hash);
    } catch (e) {  // a browser that refuses it for a file: page keeps the old address
      console.warn('the page\'s address cannot follow the step: ' + (e && e.message ? e.message : e));
    }
  };

  // ---- the keyboard help -----------------------------------------------------------------

  var helpReturn = null;  // the element focused before the help opened

  function helpOpen() { return !byId('help').hidden; }

  function showHelp(open) {
    var help = byId('help');
    if (open === helpOpen()) return;
    help.hidden = !open;
    byId('help-button').setAttribute('aria-expanded', open ? 'true' : 'false');
    if (open) {
      helpReturn = document.activeElement;
      byId('help-close').focus();
    } else if (helpReturn && typeof helpReturn.focus === 'function') {
      helpReturn.focus();
    }
  }

  // ---- wiring ----------------------------------------------------------------------------

  function onKey(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (helpOpen()) {  // the help is modal: Escape or ? closes it, other keys do nothing
      if (e.key === 'Escape' || e.key === '?') {
        showHelp(false);
        e.preventDefault();
      }
      return;
    }
    var t = e.target;
    var tag = t && t.tagName ? t.tagName.toLowerCase() : '';
    if (tag === 'select' || tag === 'textarea' || (tag === 'input' && t.type !== 'range')) return;
    var handled = true;
    if (e.key === 'ArrowRight') { stop(); go(core.pos + 1); }
    else if (e.key === 'ArrowLeft') { stop(); go(core.pos - 1); }
    else if (e.key === 'Home') { stop(); go(0); }
    else if (e.key === 'End') { stop(); go(last); }
    else if (e.key === ' ' && tag !== 'button' && tag !== 'summary') toggle();
    else if (e.key === 'f' || e.key === 'F') setMode('full');
    else if (/^[0-9]$/.test(e.key) && Number(e.key) < seats) setMode(e.key);
    else if (e.key === 'r' || e.key === 'R') core.setRevealed(!core.revealed);
    else if (e.key === '?') showHelp(true);
    else handled = false;
    if (handled) e.preventDefault();
  }

  core.setup = function () {
    var slider = byId('slider');
    slider.max = String(last);
    var toggleSelect = byId('seat-toggle');
    core.append(toggleSelect, core.el('option', { value: 'full', text: 'full table' }));
    for (var s = 0; s < seats; s++) {
      core.append(toggleSelect, core.el('option', { value: String(s), text: 'seat ' + s + ' view (' + core.botName(s) + ')' }));
    }
    byId('first').addEventListener('click', function () { stop(); go(0); });
    byId('prev').addEventListener('click', function () { stop(); go(core.pos - 1); });
    byId('next').addEventListener('click', function () { stop(); go(core.pos + 1); });
    byId('last').addEventListener('click', function () { stop(); go(last); });
    byId('play').addEventListener('click', toggle);
    byId('speed').addEventListener('change', function () { if (core.timer !== null) play(); });
    slider.addEventListener('input', function () { stop(); go(Number(slider.value)); });
    toggleSelect.addEventListener('change', function () { setMode(toggleSelect.value); });
    byId('reveal').addEventListener('click', function () { core.setRevealed(!core.revealed); });
    byId('raw').addEventListener('toggle', function () {
      if (byId('raw').open) core.draw();
      else byId('raw-json').textContent = '';
    });
    byId('legal-box').addEventListener('toggle', core.drawLegal);
    byId('help-button').addEventListener('click', function () { showHelp(true); });
    byId('help-close').addEventListener('click', function () { showHelp(false); });
    byId('help').addEventListener('click', function (e) { if (e.target === byId('help')) showHelp(false); });
    document.addEventListener('keydown', onKey);
    window.addEventListener('hashchange', function () {
      stop();
      followLink();
      core.draw();
    });
    followLink();
  };
});
