// End-to-end test of the web viewer (`referee html`) in a real browser: Debian's Chromium driven by
// playwright-core. run.sh plays the matches and writes the pages; this script opens each page
// from the file system, steps through it with the buttons, the keys, the slider and autoplay, and
// checks what is shown against the replay files themselves: the step counter, the action of a
// step, the score breakdown against the footer, a seat's view (the opponent's hand is hidden),
// the fault of a faulty match (and the legal actions of the request it got wrong, with its answer:
// an illegal action, a timeout, a malformed line), the legal actions of a step, the stderr lines a bot wrote during
// each decision (a match with tests/match/stderr_bot.py). It checks that the result is not
// spoiled before the last step (no winner, scores or fault in the page's text nor in its title)
// and that "Show result" reveals it, the deep links (#step=N&seat=K: opened, clamped, followed),
// the keyboard help (? and Escape), and the layouts of 2, 3 and 4 seats at 1280x800 and 390px
// wide (nothing outside the page's width, no horizontal scroll). It checks the generic drawing (a game
// without its own web module: the state and views as JSON trees, the moves, the scores) on a
// Stellar page stripped of its game module, and on the page of a game without a module when one
// is given. It also checks that bot text cannot break out of the page's data block, that the page
// makes no network request at all and logs no console error, and saves screenshots. It prints one
// line per check and ends with "N passed, M failed"; the exit code is non-zero on any failure.
// The checks live in modules by concept: viewer_shared_checks.js (navigation, steps, score, seat
// views, legal actions), viewer_usability_checks.js (spoilers, deep links, help, layouts),
// viewer_score_checks.js (the running score and its chart, the trick holder); checks.js counts.
//
//   node viewer_test.js --referee REFEREE --dir DIR --screenshots SHOTS [--generic PAGE]
//     DIR holds stellar, stella_quest, stella_quest3, stella_quest4, fault, fault_timeout,
//     fault_malformed, stderr, interstellar and interstellar_pay .{jsonl,html} (run.sh); the screenshots go to SHOTS/viewer.png (Stellar),
//     viewer-stella_quest.png, viewer-fault.png, viewer-generic.png (the stripped Stellar page),
//     viewer-plugin.png (PAGE), viewer-help.png, viewer-spoiler-hidden.png, viewer-stderr.png (a
//     step whose stderr was cut), and per layout viewer-layout-<page>-<width>.png. PAGE is the
//     page of a game without a web module; its replay is PAGE's stem with .jsonl when that file
//     exists, else the replay embedded in the page.
'use strict';

const assert = require('assert');
const childProcess = require('child_process');
const fs = require('fs');
const path = require('path');
const url = require('url');

const { chromium } = require('playwright-core');

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'
];

const USAGE = 'usage: node viewer_test.js --referee REFEREE --dir DIR --screenshots SHOTS [--generic PAGE]';

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i].startsWith('--') || i + 1 >= argv.length) throw new Error(USAGE);
    out[argv[i].slice(2)] = argv[i + 1];
  }
  if (!out.referee || !out.dir || !out.screenshots) throw new Error(USAGE);
  return out;
}

const args = parseArgs(process.argv.slice(2));
const dir = path.resolve(args.dir);
const shots = path.resolve(args.screenshots);

const { check, tally } = require('./checks.js');
const { pageData, embeddedData } = require('./page_data.js');

function readReplay(file) {
  const lines = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
  const header = lines.find((l) => l.type === 'header');
  const steps = lines.filter((l) => l.type === 'step');
  const footer = lines.find((l) => l.type === 'footer') || null;
  assert.ok(header, file + ' has no header');
  // A version-2 replay records each view the bot was sent as a hash (`referee verify` checks
  // it); `referee html` puts the re-simulated view into the page's steps, and that is the view
  // the checks below compare the drawing with.
  const page = file.replace(/\.jsonl$/, '.html');
  if (steps.some((s) => !s.view) && fs.existsSync(page)) {
    const embedded = embeddedReplay(page);
    steps.forEach((s, k) => {
      if (s.view) return;
      assert.ok(s.view_hash, file + ': step ' + k + ' has neither a view nor a view hash');
      s.view = embedded.steps[k].view;
    });
  }
  return { header, steps, footer, lines };
}

// The replay a page embeds (its header, steps and footer), in readReplay's shape.
function embeddedReplay(file) {
  const data = embeddedData(file);
  return { header: data.header, steps: data.steps, footer: data.footer, lines: null };
}

function writeReplay(file, replay) {
  fs.writeFileSync(file, replay.lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
}

// Runs `referee html ...`; returns its exit status.
function refereeHtml(argv) {
  const r = childProcess.spawnSync(args.referee, ['html'].concat(argv), { encoding: 'utf8' });
  if (r.error) throw r.error;
  return r.status;
}

// JSON text with object keys sorted, so that equal values compare equal as text.
function canonical(value) {
  if (Array.isArray(value)) return '[' + value.map(canonical).join(',') + ']';
  if (value !== null && typeof value === 'object') {
    return '{' + Object.keys(value).sort().map((k) => JSON.stringify(k) + ':' + canonical(value[k])).join(',') + '}';
  }
  return JSON.stringify(value);
}

// Every scalar (and empty object or array) of a JSON value by its path, keys joined by ".", as
// the generic drawing tags them.
function leaves(value, prefix, out) {
  const result = out || {};
  const isContainer = value !== null && typeof value === 'object';
  if (!isContainer || Object.keys(value).length === 0) {
    result[prefix] = isContainer ? (Array.isArray(value) ? '[]' : '{}') : JSON.stringify(value);
    return result;
  }
  for (const k of Object.keys(value)) leaves(value[k], prefix === '' ? k : prefix + '.' + k, result);
  return result;
}

function lookup(obj, keyPath) {
  return keyPath.split('.').reduce((o, k) => (o === null || o === undefined ? undefined : o[k]), obj);
}

// ---- the browser -------------------------------------------------------------------------

let context = null;
const requests = [];
const badRequests = [];
const consoleErrors = [];

async function launch() {
  const profile = fs.mkdtempSync(path.join(dir, 'chromium-profile-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1400, height: 1000 },
    offline: true
  });
  context.on('request', (r) => {
    requests.push(r.url());
    if (!/^(file|data):/.test(r.url())) badRequests.push(r.url());
  });
  return profile;
}

async function openPage(file, hash, viewport) {
  const page = await context.newPage();
  if (viewport) await page.setViewportSize(viewport);
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(path.basename(file) + ': ' + m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(path.basename(file) + ': uncaught ' + e.message));
  await page.goto(url.pathToFileURL(file).href + (hash || ''));
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
  return page;
}

const byTestId = (page, id) => page.locator('[data-testid="' + id + '"]');

// The running score, its chart and Stella Quest's trick holder (viewer_score_checks.js).
const { checkRunningScore, questPoints, checkTrickLeader } = require('./viewer_score_checks.js')({ byTestId, goTo, showMode, cardsIn });

async function position(page) {
  return Number(await byTestId(page, 'step-counter').getAttribute('data-position'));
}

async function counterText(page) {
  return (await byTestId(page, 'step-counter').textContent()).trim();
}

// Moves to position p with the slider (an 'input' event, as a drag would fire).
async function goTo(page, p) {
  await byTestId(page, 'slider').evaluate((node, value) => {
    node.value = String(value);
    node.dispatchEvent(new Event('input', { bubbles: true }));
  }, p);
  assert.strictEqual(await position(page), p, 'slider did not move to ' + p);
}

// Keys go to the page, not to a control: click a neutral spot first.
async function focusPage(page) {
  await page.locator('#match-header').click();
}

async function showMode(page, value) {
  await byTestId(page, 'seat-toggle').selectOption(String(value));
}

async function cardsIn(locator) {
  return locator.locator('[data-card]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-card')));
}

// ---- checks shared by both games: viewer_shared_checks.js ----------------------------------

const { checkNavigation, checkSteps, checkScore, checkSeatView, checkLegal, checkFaultLegal, checkStderr } = require('./viewer_shared_checks.js')({
  canonical, lookup, byTestId, position, counterText, goTo, focusPage, showMode, cardsIn,
});

async function treeLeaves(page) {
  const pairs = await byTestId(page, 'table').locator('[data-testid="json-tree"] .json-value').evaluateAll((nodes) =>
    nodes.map((n) => [n.getAttribute('data-path') || '', n.textContent]));
  const out = {};
  for (const [k, v] of pairs) out[k] = v;
  return out;
}

// The generic drawing of a game without a web module: no game's drawing, the state and a seat's
// recorded view as JSON trees equal to the JSON, the moves so far, the steps, the legal actions,
// and the scores at the end.
async function checkGeneric(label, page, replay) {
  const n = replay.steps.length;
  const seats = replay.header.seats;
  await check(label + ': drawn by the generic drawing, as no game\'s table', async () => {
    assert.strictEqual(await page.locator('body').getAttribute('data-drawing'), 'generic');
    assert.strictEqual(await page.locator('body').getAttribute('data-game'), replay.header.game);
    const title = await byTestId(page, 'match-title').textContent();
    assert.ok(title.includes('seed ' + replay.header.seed), 'the title does not name the seed: ' + title);
    const table = byTestId(page, 'table');
    for (const selector of ['.card', '.telescope', '.tokens', '[data-testid="seat-dummy"]', '[data-testid="row"]', '[data-testid="trick"]']) {
      assert.strictEqual(await table.locator(selector).count(), 0, 'the generic drawing has ' + selector);
    }
    assert.strictEqual(await table.locator('[data-testid="json-tree"]').count(), 1);
    for (let seat = 0; seat < seats; seat++) assert.strictEqual(await byTestId(page, 'seat-' + seat).count(), 1, 'no panel for seat ' + seat);
  });
  await check(label + ': navigation by buttons and keys', async () => {
    await goTo(page, 0);
    assert.ok(await byTestId(page, 'first').isDisabled(), 'first is enabled at step 0');
    if (n > 0) {
      await byTestId(page, 'next').click();
      assert.strictEqual(await position(page), 1);
      await byTestId(page, 'prev').click();
      assert.strictEqual(await position(page), 0);
    }
    await focusPage(page);
    await page.keyboard.press('End');
    assert.strictEqual(await counterText(page), 'Step ' + n + ' / ' + n);
    await page.keyboard.press('Home');
    assert.strictEqual(await position(page), 0);
  });
  await check(label + ': the full table at step 0 is the state as a JSON tree, equal to its raw JSON', async () => {
    await goTo(page, 0);
    await showMode(page, 'full');
    assert.strictEqual(await byTestId(page, 'view-source').getAttribute('data-source'), 'full');
    await page.locator('#raw summary').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="raw-json"]').textContent !== '');
    const state = JSON.parse(await byTestId(page, 'raw-json').textContent());
    await page.locator('#raw summary').click();
    const shown = await treeLeaves(page);
    assert.ok(Object.keys(shown).length > 0, 'an empty tree');
    assert.deepStrictEqual(shown, leaves(state, ''));
  });
  const withView = replay.steps.map((s, k) => (s.view ? k : -1)).filter((k) => k >= 0);
  if (withView.length > 0) {
    const k = withView[Math.floor(withView.length / 2)];
    const step = replay.steps[k];
    await check(label + ': seat ' + step.seat + '\'s view at step ' + k + ' is the recorded view as a JSON tree, with the moves so far', async () => {
      await goTo(page, k);
      await showMode(page, step.seat);
      const source = byTestId(page, 'view-source');
      assert.strictEqual(await source.getAttribute('data-source'), 'recorded');
      assert.strictEqual(await source.getAttribute('data-step'), String(k));
      assert.deepStrictEqual(await treeLeaves(page), leaves(step.view, ''));
      if (k > 0) {
        const moves = await byTestId(page, 'moves').locator('li[data-step]').evaluateAll((nodes) =>
          nodes.map((x) => ({ step: Number(x.getAttribute('data-step')), text: x.textContent })));
        assert.strictEqual(moves.length, Math.min(k, 100));
        assert.strictEqual(moves[0].step, k - 1, 'the latest move is not listed first');
        assert.ok(moves[0].text.includes(JSON.stringify(replay.steps[k - 1].action)), 'the latest move does not show its action: ' + moves[0].text);
        assert.ok(moves[0].text.toLowerCase().startsWith('seat ' + replay.steps[k - 1].seat + ' '), 'the latest move does not name its seat: ' + moves[0].text);
      }
      await showMode(page, 'full');
    });
  }
  if (n > 0) {
    await checkSteps(label, page, replay, n > 1 ? [0, n - 1] : [0]);
    await checkLegal(label, page, replay, Math.floor((n - 1) / 2));
  }
  await check(label + ': the last step shows the end and every seat\'s score', async () => {
    await focusPage(page);
    await page.keyboard.press('End');
    assert.strictEqual(await position(page), n);
    const result = replay.footer ? replay.footer.result : null;
    assert.ok(result && Array.isArray(result.scores), 'the replay has no scores');
    for (let seat = 0; seat < seats; seat++) {
      const cell = byTestId(page, 'seat-' + seat).locator('[data-key="scores.' + seat + '"]');
      assert.strictEqual(await cell.textContent(), String(result.scores[seat]), 'seat ' + seat + '\'s score in its panel');
    }
    if (result.fault) {
      assert.ok(await byTestId(page, 'action').evaluate((node) => node.classList.contains('fault')), 'the fault is not shown at the end');
    } else {
      const winner = result.winner === null || result.winner === undefined ? null : result.winner;
      const text = await byTestId(page, 'action').textContent();
      if (winner !== null) assert.ok(text.toLowerCase().startsWith('seat ' + winner + ' ') && text.includes('wins'), 'the end does not name the winner: ' + text);
    }
  });
  await checkScore(label, page, replay, seats);
}

// ---- no spoilers, deep links, the keyboard help, layouts: viewer_usability_checks.js ----------

const { checkSpoilers, checkDeepLinks, checkHelp, checkLayout } = require('./viewer_usability_checks.js')({
  openPage, goTo, position, focusPage, byTestId, showMode, shots,
});

async function testUsability() {
  const stellar = readReplay(path.join(dir, 'stellar.jsonl'));
  const quest4 = readReplay(path.join(dir, 'stella_quest4.jsonl'));
  const fault = readReplay(path.join(dir, 'fault.jsonl'));
  await checkSpoilers('spoilers stellar', path.join(dir, 'stellar.html'), stellar, 'viewer-spoiler-hidden.png');
  await checkSpoilers('spoilers stella_quest 4 seats', path.join(dir, 'stella_quest4.html'), quest4);
  await checkSpoilers('spoilers fault', path.join(dir, 'fault.html'), fault);
  await checkDeepLinks('links stellar', path.join(dir, 'stellar.html'), stellar);
  await checkDeepLinks('links stella_quest 4 seats', path.join(dir, 'stella_quest4.html'), quest4);
  await checkHelp('help', path.join(dir, 'stellar.html'));
  for (const f of ['stellar', 'stella_quest', 'stella_quest3', 'stella_quest4']) {
    const replay = readReplay(path.join(dir, f + '.jsonl'));
    for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      await checkLayout('layout ' + f, path.join(dir, f + '.html'), replay, viewport);
    }
  }
}

// Interstellar's module on a real match (viewer_interstellar_checks.js; viewer-interstellar.png).
const { testInterstellar } = require('./viewer_interstellar_checks.js')({
  openPage, byTestId, goTo, showMode, readReplay, checkSteps, checkScore, checkLegal, checkSpoilers, checkLayout, dir, shots,
});

// ---- the runs ----------------------------------------------------------------------------

async function testStellar() {
  const replay = readReplay(path.join(dir, 'stellar.jsonl'));
  const page = await openPage(path.join(dir, 'stellar.html'));
  const n = replay.steps.length;
  await check('stellar: the title names the game and the bots', async () => {
    assert.ok((await byTestId(page, 'match-title').textContent()).startsWith('Stellar'));
    const meta = await byTestId(page, 'match-meta').textContent();
    for (const b of replay.header.bots) assert.ok(meta.includes(b.name), 'no ' + b.name + ' in the header');
    assert.ok(await byTestId(page, 'fault').isHidden(), 'a fault banner on a clean match');
  });
  await checkNavigation('stellar', page, replay);
  await checkSteps('stellar', page, replay, [0, 1, Math.floor(n / 2), n - 1]);
  await checkScore('stellar', page, replay, 2 * 25);
  await checkSeatView('stellar', page, replay, (c) => c.name);
  await checkLegal('stellar', page, replay, Math.floor(n / 2));
  await check('stellar: both telescopes are drawn as 12 numbered slots, with the row of 5', async () => {
    await goTo(page, Math.floor(n / 2));
    await showMode(page, 'full');
    for (const seat of [0, 1]) {
      const slots = await byTestId(page, 'telescope-' + seat).locator('.tslot').evaluateAll((nodes) => nodes.map((x) => x.getAttribute('data-slot')));
      assert.deepStrictEqual(slots, ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12']);
    }
    assert.strictEqual(await byTestId(page, 'row').locator('.slot-wrap').count(), 5);
  });
  await checkRunningScore('stellar', page, path.join(dir, 'stellar.html'), replay,
    (frame, seat) => {  // its breakdown adds up (types + sections + diversity)
      const pl = frame.progress.outcome.players[seat];
      return pl.type_points + pl.section_points + pl.diversity;
    },
    (result, seat) => result.scores[seat]);
  await page.screenshot({ path: path.join(shots, 'viewer.png'), fullPage: true });
  await page.close();
}

async function testStellaQuest() {
  const replay = readReplay(path.join(dir, 'stella_quest.jsonl'));
  const page = await openPage(path.join(dir, 'stella_quest.html'));
  const n = replay.steps.length;
  await check('stella_quest: the title names the game, the Dummy plays with two seats', async () => {
    assert.ok((await byTestId(page, 'match-title').textContent()).startsWith('Stella Quest'));
    if (replay.header.seats === 2) assert.strictEqual(await byTestId(page, 'seat-dummy').count(), 1);
  });
  await checkNavigation('stella_quest', page, replay);
  await checkSteps('stella_quest', page, replay, [0, Math.floor(n / 2), n - 1]);
  await checkScore('stella_quest', page, replay, 2 * 4 + 1);
  await checkSeatView('stella_quest', page, replay, (c) => c);
  await checkLegal('stella_quest', page, replay, Math.floor(n / 2));
  const file = path.join(dir, 'stella_quest.html');
  await checkRunningScore('stella_quest', page, file, replay, questPoints, (result, seat) => result.outcome.players[seat].points);
  await goTo(page, await checkTrickLeader('stella_quest', page, file));
  await page.screenshot({ path: path.join(shots, 'viewer-stella_quest.png'), fullPage: true });
  await page.close();
}

async function testFault() {
  const replay = readReplay(path.join(dir, 'fault.jsonl'));
  const fault = replay.footer && replay.footer.result.fault;
  const page = await openPage(path.join(dir, 'fault.html'));
  await check('fault: the replay under test ended with a fault', async () => {
    assert.strictEqual(replay.footer.end, 'fault');
    assert.ok(fault, 'no fault object in the footer');
  });
  await check('fault: the banner shows the footer\'s fault (kind, seat, message) at the last step only', async () => {
    const banner = byTestId(page, 'fault');
    assert.ok(await banner.isHidden(), 'the fault banner shows at step 0');
    assert.strictEqual(await banner.textContent(), '', 'the hidden fault banner has text');
    await goTo(page, replay.steps.length);
    assert.ok(await banner.isVisible(), 'no fault banner');
    assert.strictEqual(await banner.getAttribute('data-kind'), fault.kind);
    assert.strictEqual(await banner.getAttribute('data-seat'), String(fault.seat));
    assert.strictEqual(await byTestId(page, 'fault-message').textContent(), fault.message);
    assert.ok((await banner.textContent()).includes(fault.kind));
  });
  await check('fault: at the end the offending seat and the action are highlighted', async () => {
    await focusPage(page);
    await page.keyboard.press('End');
    const action = byTestId(page, 'action');
    assert.ok(await action.evaluate((node) => node.classList.contains('fault')), 'the action line is not marked as a fault');
    assert.strictEqual(await action.getAttribute('data-seat'), String(fault.seat));
    assert.ok((await action.textContent()).includes(fault.kind));
    const panel = byTestId(page, 'seat-' + fault.seat);
    assert.ok(await panel.evaluate((node) => node.classList.contains('faulted')), 'the seat panel is not marked');
    const color = await panel.evaluate((node) => getComputedStyle(node).borderTopColor);
    assert.strictEqual(color, 'rgb(255, 93, 93)', 'the faulted seat is not drawn in the fault colour');
  });
  await checkScore('fault', page, replay, 2);
  await checkFaultLegal('fault', page, replay, embeddedData(path.join(dir, 'fault.html')).frames[replay.steps.length].legal,
    JSON.stringify(JSON.parse(fault.raw).action));
  await page.screenshot({ path: path.join(shots, 'viewer-fault.png'), fullPage: true });
  await page.close();
  // A timeout and a malformed line (run.sh: faulty_bot sleep and garbage): the legal list of the
  // request, and what came instead of a legal answer.
  for (const [name, answer] of [['fault_timeout', () => 'no answer in time (timeout)'], ['fault_malformed', (f) => f.raw]]) {
    const other = readReplay(path.join(dir, name + '.jsonl'));
    const otherFault = other.footer.result.fault;
    const otherPage = await openPage(path.join(dir, name + '.html'));
    await check(name + ': the replay under test ended with a ' + (name === 'fault_timeout' ? 'timeout' : 'malformed line'), async () => {
      assert.strictEqual(otherFault.kind, name === 'fault_timeout' ? 'timeout' : 'malformed');
      assert.strictEqual(otherFault.phase, 'decision');
    });
    await checkFaultLegal(name, otherPage, other, embeddedData(path.join(dir, name + '.html')).frames[other.steps.length].legal, answer(otherFault));
    await otherPage.close();
  }
}

// A match where seat 1's bot wrote known lines on stderr in some decisions (stderr_bot.py).
async function testStderr() {
  const replay = readReplay(path.join(dir, 'stderr.jsonl'));
  const page = await openPage(path.join(dir, 'stderr.html'));
  await checkStderr('stderr', page, replay);
  await checkSteps('stderr', page, replay, [0, 1, 3]);
  await goTo(page, replay.steps.findIndex((s) => s.stderr_cut > 0));
  await page.screenshot({ path: path.join(shots, 'viewer-stderr.png') });
  await page.close();
}

// The Stellar page without its game module (the module's <script> element emptied): the core
// alone must draw it with the generic drawing, never refusing it.
async function testGenericFallback() {
  const replay = readReplay(path.join(dir, 'stellar.jsonl'));
  const html = fs.readFileSync(path.join(dir, 'stellar.html'), 'utf8');
  // The module's element is the one just before the element that starts the viewer.
  const moduleElement = /<script>((?:(?!<\/script>)[\s\S])*)<\/script>(\s*<script>ArenaViewer\.start\(\);<\/script>)/;
  const found = moduleElement.exec(html);
  const file = path.join(dir, 'stellar-generic.html');
  await check('generic: the Stellar page embeds its module, which can be taken out', async () => {
    assert.ok(found, 'no script element before the one that starts the viewer');
    assert.ok(found[1].includes("ArenaViewer.registerGame('stellar'"), 'the Stellar module does not register itself');
    fs.writeFileSync(file, html.replace(moduleElement, '<script></script>$2'));
  });
  const page = await openPage(file);
  await checkGeneric('generic', page, replay);
  await page.screenshot({ path: path.join(shots, 'viewer-generic.png'), fullPage: true });
  await page.close();
}

// The page of a game without a web module (run.sh's sixth argument).
async function testPlugin(file) {
  if (!fs.existsSync(file)) {
    await check('plugin: the page ' + file + ' exists', () => assert.fail(file + ' is missing'));
    return;
  }
  const sibling = file.replace(/\.html?$/, '') + '.jsonl';
  const replay = fs.existsSync(sibling) ? readReplay(sibling) : embeddedReplay(file);
  const page = await openPage(file);
  await check('plugin: the page of ' + path.basename(file) + ' loads', async () => {
    assert.strictEqual(await page.locator('body').getAttribute('data-ready'), 'true');
  });
  await checkGeneric('plugin', page, replay);
  await page.screenshot({ path: path.join(shots, 'viewer-plugin.png'), fullPage: true });
  await page.close();
}

// Bot text that tries to end the data block and run a script is shown as text, nothing more.
async function testEscaping() {
  const replay = readReplay(path.join(dir, 'stellar.jsonl'));
  const attack = '</script><script>window.__pwned = 1;</script><!-- & </SCRIPT> \u2028 end';
  const name = '<b>x</b></title><script>window.__pwned = 2;</script>';
  replay.steps[0].debug = attack;
  replay.steps[0].stderr = [attack, attack];
  replay.header.bots[0].name = name;
  const file = path.join(dir, 'escape.jsonl');
  writeReplay(file, replay);
  await check('escaping: referee html accepts the replay with hostile bot text', async () => {
    assert.strictEqual(refereeHtml([file, '-o', path.join(dir, 'escape.html')]), 0);
    const { block, data } = pageData(path.join(dir, 'escape.html'));
    assert.ok(/^[A-Za-z0-9+/]*=*$/.test(block), 'the data block is not base64 alone');
    assert.strictEqual(data.steps[0].debug, attack, 'the debug text does not reach the data intact');
    assert.strictEqual(data.header.bots[0].name, name, 'the bot name does not reach the data intact');
  });
  const page = await openPage(path.join(dir, 'escape.html'));
  await check('escaping: "</script>" in debug text, stderr lines and a bot name stays text and runs nothing', async () => {
    assert.strictEqual(await page.evaluate(() => window.__pwned), undefined);
    await goTo(page, 0);
    assert.strictEqual(await byTestId(page, 'debug').textContent(), attack);
    assert.strictEqual(await byTestId(page, 'stderr').textContent(), attack + '\n' + attack);
    assert.ok((await byTestId(page, 'match-meta').textContent()).includes(name));
    assert.ok((await page.title()).includes(name), 'the title does not show the name as text');
  });
  await page.close();
}

function testCli() {
  return check('cli: a replay that does not re-simulate exits 5, a missing one 5, no replay 2', async () => {
    const broken = readReplay(path.join(dir, 'stellar.jsonl'));  // steps are the lines' own objects
    const k = broken.steps.findIndex((s) => s.action.kind === 'take');
    broken.steps[k].action = { kind: 'take', slot: 9 };
    const file = path.join(dir, 'broken.jsonl');
    writeReplay(file, broken);
    assert.strictEqual(refereeHtml([file, '-o', path.join(dir, 'broken.html')]), 5);
    assert.ok(!fs.existsSync(path.join(dir, 'broken.html')), 'a page was written for a broken replay');
    assert.strictEqual(refereeHtml([path.join(dir, 'no-such-replay.jsonl')]), 5);
    assert.strictEqual(refereeHtml([]), 2);
  });
}

async function main() {
  for (const f of ['stellar', 'stella_quest', 'stella_quest3', 'stella_quest4', 'fault', 'fault_timeout', 'fault_malformed', 'stderr', 'interstellar', 'interstellar_pay']) {
    for (const ext of ['.jsonl', '.html']) {
      const file = path.join(dir, f + ext);
      if (!fs.existsSync(file)) throw new Error(file + ' is missing (run.sh writes it)');
    }
  }
  const profile = await launch();
  try {
    await testStellar();
    await testStellaQuest();
    await testFault();
    await testStderr();
    await testInterstellar();
    await testGenericFallback();
    await testUsability();
    if (args.generic) await testPlugin(path.resolve(args.generic));
    await testEscaping();
    await testCli();
    await check('no request left the file system (only file: and data: URLs)', async () => {
      assert.ok(requests.length >= 4, 'the request listener saw ' + requests.length + ' requests');
      assert.deepStrictEqual(badRequests, []);
    });
    await check('no console error and no uncaught exception on any page', async () => {
      assert.deepStrictEqual(consoleErrors, []);
    });
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  console.log(tally.passed + ' passed, ' + tally.failed + ' failed');
  process.exitCode = tally.failed === 0 && tally.passed > 0 ? 0 : 1;
}

main().catch((e) => {
  console.log('FAIL the browser test could not run: ' + (e && e.stack ? e.stack : e));
  console.log(tally.passed + ' passed, ' + (tally.failed + 1) + ' failed');
  process.exitCode = 1;
});
