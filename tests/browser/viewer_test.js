// End-to-end test of the web viewer (`referee html`) in a real browser: Debian's Chromium driven by
// playwright-core. run.sh plays the matches and writes the pages; this script opens each page
// from the file system, steps through it with the buttons, the keys, the slider and autoplay, and
// checks what is shown against the replay files themselves: the step counter, the action of a
// step, the score breakdown against the footer, a seat's view (the opponent's hand is hidden),
// the fault of a faulty match. It also checks that bot text cannot break out of the page's data
// block, that the page makes no network request at all and logs no console error, and saves
// screenshots. It prints one line per check and ends with "N passed, M failed"; the exit code is
// non-zero on any failure.
//
//   node viewer_test.js --referee REFEREE --dir DIR --screenshots SHOTS
//     DIR holds stellar.{jsonl,html}, stella_quest.{jsonl,html} and fault.{jsonl,html} (run.sh);
//     the screenshots go to SHOTS/viewer.png (Stellar), viewer-stella_quest.png, viewer-fault.png.
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

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i].startsWith('--') || i + 1 >= argv.length) throw new Error('usage: node viewer_test.js --referee REFEREE --dir DIR --screenshots SHOTS');
    out[argv[i].slice(2)] = argv[i + 1];
  }
  if (!out.referee || !out.dir || !out.screenshots) {
    throw new Error('usage: node viewer_test.js --referee REFEREE --dir DIR --screenshots SHOTS');
  }
  return out;
}

const args = parseArgs(process.argv.slice(2));
const dir = path.resolve(args.dir);
const shots = path.resolve(args.screenshots);

let passed = 0;
let failed = 0;

// One named check: passes unless `fn` throws (assert's messages say what differed).
async function check(name, fn) {
  try {
    await fn();
    passed++;
    console.log('ok   ' + name);
  } catch (e) {
    failed++;
    console.log('FAIL ' + name + '\n     ' + String(e && e.message ? e.message : e).split('\n').join('\n     '));
  }
}

function readReplay(file) {
  const lines = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
  const header = lines.find((l) => l.type === 'header');
  const steps = lines.filter((l) => l.type === 'step');
  const footer = lines.find((l) => l.type === 'footer') || null;
  assert.ok(header, file + ' has no header');
  return { header, steps, footer, lines };
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

async function openPage(file) {
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(path.basename(file) + ': ' + m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(path.basename(file) + ': uncaught ' + e.message));
  await page.goto(url.pathToFileURL(file).href);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
  return page;
}

const byTestId = (page, id) => page.locator('[data-testid="' + id + '"]');

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

// ---- checks shared by both games ---------------------------------------------------------

async function checkNavigation(label, page, replay) {
  const n = replay.steps.length;
  await check(label + ': starts at step 0 of ' + n, async () => {
    assert.strictEqual(await counterText(page), 'Step 0 / ' + n);
    assert.strictEqual(await position(page), 0);
    assert.ok(await byTestId(page, 'prev').isDisabled(), 'previous is enabled at step 0');
  });
  await check(label + ': next and previous buttons', async () => {
    for (let i = 0; i < 3; i++) await byTestId(page, 'next').click();
    assert.strictEqual(await counterText(page), 'Step 3 / ' + n);
    await byTestId(page, 'prev').click();
    assert.strictEqual(await counterText(page), 'Step 2 / ' + n);
  });
  await check(label + ': arrow keys, End and Home', async () => {
    await focusPage(page);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    assert.strictEqual(await position(page), 4);
    await page.keyboard.press('ArrowLeft');
    assert.strictEqual(await position(page), 3);
    await page.keyboard.press('End');
    assert.strictEqual(await counterText(page), 'Step ' + n + ' / ' + n);
    assert.ok(await byTestId(page, 'next').isDisabled(), 'next is enabled at the end');
    await page.keyboard.press('ArrowRight');
    assert.strictEqual(await position(page), n, 'stepped past the end');
    await page.keyboard.press('Home');
    assert.strictEqual(await position(page), 0);
    await page.keyboard.press('ArrowLeft');
    assert.strictEqual(await position(page), 0, 'stepped before the start');
  });
  await check(label + ': first and last buttons, and an arrow key on the focused slider moves one step', async () => {
    await byTestId(page, 'last').click();
    assert.strictEqual(await position(page), n);
    await byTestId(page, 'first').click();
    assert.strictEqual(await position(page), 0);
    await byTestId(page, 'slider').focus();
    await page.keyboard.press('ArrowRight');
    assert.strictEqual(await position(page), 1);
  });
  await check(label + ': autoplay plays and pauses', async () => {
    await goTo(page, 0);
    await byTestId(page, 'speed').selectOption('20');
    await byTestId(page, 'play').click();
    assert.strictEqual(await byTestId(page, 'play').getAttribute('aria-pressed'), 'true');
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="step-counter"]').getAttribute('data-position')) >= 3,
      null, { timeout: 10000 });
    await byTestId(page, 'play').click();
    assert.strictEqual(await byTestId(page, 'play').getAttribute('aria-pressed'), 'false');
    const stopped = await position(page);
    await page.waitForTimeout(400);
    assert.strictEqual(await position(page), stopped, 'autoplay went on after pause');
    await focusPage(page);
    await page.keyboard.press(' ');
    assert.strictEqual(await byTestId(page, 'play').getAttribute('aria-pressed'), 'true', 'Space did not start autoplay');
    await page.keyboard.press(' ');
    assert.strictEqual(await byTestId(page, 'play').getAttribute('aria-pressed'), 'false', 'Space did not pause autoplay');
  });
}

async function checkSteps(label, page, replay, positions) {
  for (const p of positions) {
    const step = replay.steps[p];
    await check(label + ': step ' + p + ' shows the replay\'s action, seat, time and debug text', async () => {
      await goTo(page, p);
      assert.strictEqual(await counterText(page), 'Step ' + p + ' / ' + replay.steps.length);
      const shown = JSON.parse(await byTestId(page, 'action-json').textContent());
      assert.deepStrictEqual(shown, step.action);
      assert.strictEqual(await byTestId(page, 'action').getAttribute('data-seat'), String(step.seat));
      assert.ok((await byTestId(page, 'turn').textContent()).includes('seat ' + step.seat), 'the turn line does not name seat ' + step.seat);
      assert.strictEqual(Number(await byTestId(page, 'time').getAttribute('data-ms')), step.time_ms);
      assert.strictEqual(await byTestId(page, 'debug').textContent(), step.debug ? step.debug : '(none)');
    });
  }
}

// Every number of the result panel that names its path in the footer equals the footer's value.
async function checkScore(label, page, replay, minimumCells) {
  await check(label + ': the score breakdown equals the footer', async () => {
    assert.ok(replay.footer, 'the replay has no footer');
    const cells = await page.locator('#result-panel [data-key]').evaluateAll((nodes) =>
      nodes.map((n) => ({ key: n.getAttribute('data-key'), text: n.textContent })));
    assert.ok(cells.length >= minimumCells, 'only ' + cells.length + ' values in the breakdown, expected ' + minimumCells + ' or more');
    for (const cell of cells) {
      const value = lookup(replay.footer.result, cell.key);
      assert.notStrictEqual(value, undefined, cell.key + ' is not in the footer');
      assert.strictEqual(cell.text, String(value), cell.key);
    }
    const result = replay.footer.result;
    if (result.scores) {
      for (let seat = 0; seat < result.scores.length; seat++) {
        assert.ok(cells.some((c) => c.key === 'scores.' + seat), 'no cell for scores.' + seat);
      }
    }
    const winner = await byTestId(page, 'winner').getAttribute('data-seat');
    assert.strictEqual(winner, result.winner === null ? 'none' : String(result.winner));
    assert.strictEqual(await byTestId(page, 'end').textContent(), replay.footer.end);
  });
}

// A step where `other` acts (so its recorded view gives its exact hand at that position) after
// `seat` has acted at least once; near the middle of the match.
function seatViewPosition(replay, seat, other) {
  const candidates = [];
  let seatActed = false;
  replay.steps.forEach((s, k) => {
    if (s.seat === seat) seatActed = true;
    const hand = s.view && s.view.players && s.view.players[other] && s.view.players[other].hand;
    if (seatActed && s.seat === other && hand && hand.length > 0) candidates.push(k);
  });
  assert.ok(candidates.length > 0, 'no step where seat ' + other + ' acts with cards in hand after seat ' + seat + ' acted');
  return candidates[Math.floor(candidates.length / 2)];
}

function lastDecisionOf(replay, seat, p) {
  for (let k = Math.min(p, replay.steps.length - 1); k >= 0; k--) if (replay.steps[k].seat === seat) return k;
  return -1;
}

async function checkSeatView(label, page, replay, nameOf) {
  const seat = 0;
  const other = 1;
  const p = seatViewPosition(replay, seat, other);
  const otherHand = replay.steps[p].view.players[other].hand;  // the opponent's real hand here
  const otherNames = otherHand.map(nameOf);
  const otherKeys = otherHand.map((c) => String(typeof c === 'object' ? c.id : c));

  await check(label + ': the full table at step ' + p + ' shows seat ' + other + '\'s hand', async () => {
    await goTo(page, p);
    await showMode(page, 'full');
    assert.strictEqual(await byTestId(page, 'view-source').getAttribute('data-source'), 'full');
    const hand = byTestId(page, 'hand-' + other);
    assert.deepStrictEqual((await cardsIn(hand)).slice().sort(), otherKeys.slice().sort());
    const text = await hand.textContent();
    for (const name of otherNames) assert.ok(text.includes(name), 'full table: ' + name + ' missing from seat ' + other + '\'s hand');
  });

  await check(label + ': seat ' + seat + '\'s view at step ' + p + ' hides seat ' + other + '\'s hand and is the recorded view', async () => {
    await showMode(page, seat);
    const k = lastDecisionOf(replay, seat, p);
    const source = byTestId(page, 'view-source');
    assert.strictEqual(await source.getAttribute('data-source'), 'recorded');
    assert.strictEqual(await source.getAttribute('data-step'), String(k));
    assert.ok((await source.textContent()).includes('recorded'), 'the page does not say the view is recorded');
    const hand = byTestId(page, 'hand-' + other);
    assert.deepStrictEqual(await cardsIn(hand), [], 'the opponent\'s hand shows card faces');
    const text = await hand.textContent();
    for (const name of otherNames) assert.ok(!text.includes(name), 'seat view leaks ' + name + ' from the opponent\'s hand');
    const sent = replay.steps[k].view;
    assert.strictEqual(await hand.locator('.card.back').count(), sent.players[other].hand_size);
    if (sent.players[other].hand_colours) {
      const colours = await hand.locator('.card.back').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-colour')));
      assert.deepStrictEqual(colours, sent.players[other].hand_colours, 'the backs do not show the public colours');
    }
    const own = byTestId(page, 'hand-' + seat);
    const ownSent = sent.players[seat].hand.map((c) => String(typeof c === 'object' ? c.id : c));
    assert.deepStrictEqual(await cardsIn(own), ownSent, 'seat ' + seat + '\'s own hand is not the one it was sent');
    await page.locator('#raw summary').click();  // the page fills it on the details' toggle event
    await page.waitForFunction(() => document.querySelector('[data-testid="raw-json"]').textContent !== '');
    assert.deepStrictEqual(JSON.parse(await byTestId(page, 'raw-json').textContent()), sent, 'the raw JSON is not the view the bot was sent');
    await page.locator('#raw summary').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="raw-json"]').textContent === '');
  });

  await check(label + ': before its first decision a seat\'s view is re-simulated, and F returns to the full table', async () => {
    const waiting = replay.steps[0].seat === 0 ? 1 : 0;  // a seat that does not act at step 0
    await goTo(page, 0);
    await showMode(page, waiting);
    const source = byTestId(page, 'view-source');
    assert.strictEqual(await source.getAttribute('data-source'), 'resimulated');
    assert.ok((await source.textContent()).includes('re-simulated'), 'the page does not say the view is re-simulated');
    await focusPage(page);
    await page.keyboard.press('f');
    assert.strictEqual(await source.getAttribute('data-source'), 'full');
    assert.strictEqual(await byTestId(page, 'seat-toggle').inputValue(), 'full');
  });
}

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
  await check('stellar: both telescopes are drawn as 12 numbered slots, with the row of 5', async () => {
    await goTo(page, Math.floor(n / 2));
    await showMode(page, 'full');
    for (const seat of [0, 1]) {
      const slots = await byTestId(page, 'telescope-' + seat).locator('.tslot').evaluateAll((nodes) => nodes.map((x) => x.getAttribute('data-slot')));
      assert.deepStrictEqual(slots, ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12']);
    }
    assert.strictEqual(await byTestId(page, 'row').locator('.slot-wrap').count(), 5);
  });
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
  await goTo(page, Math.floor(n / 2));
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
  await check('fault: the banner shows the footer\'s fault (kind, seat, message)', async () => {
    const banner = byTestId(page, 'fault');
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
  await page.screenshot({ path: path.join(shots, 'viewer-fault.png'), fullPage: true });
  await page.close();
}

// Bot text that tries to end the data block and run a script is shown as text, nothing more.
async function testEscaping() {
  const replay = readReplay(path.join(dir, 'stellar.jsonl'));
  const attack = '</script><script>window.__pwned = 1;</script><!-- & </SCRIPT> \u2028 end';
  const name = '<b>x</b></title><script>window.__pwned = 2;</script>';
  replay.steps[0].debug = attack;
  replay.header.bots[0].name = name;
  const file = path.join(dir, 'escape.jsonl');
  writeReplay(file, replay);
  await check('escaping: referee html accepts the replay with hostile bot text', async () => {
    assert.strictEqual(refereeHtml([file, '-o', path.join(dir, 'escape.html')]), 0);
    const html = fs.readFileSync(path.join(dir, 'escape.html'), 'utf8');
    const data = html.slice(html.indexOf('id="match-data">'));
    assert.ok(!data.slice(0, data.indexOf('</script>')).includes('<'), 'a raw < inside the data block');
  });
  const page = await openPage(path.join(dir, 'escape.html'));
  await check('escaping: "</script>" in debug text and a bot name stays text and runs nothing', async () => {
    assert.strictEqual(await page.evaluate(() => window.__pwned), undefined);
    await goTo(page, 0);
    assert.strictEqual(await byTestId(page, 'debug').textContent(), attack);
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
  for (const f of ['stellar', 'stella_quest', 'fault']) {
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
  console.log(passed + ' passed, ' + failed + ' failed');
  process.exitCode = failed === 0 && passed > 0 ? 0 : 1;
}

main().catch((e) => {
  console.log('FAIL the browser test could not run: ' + (e && e.stack ? e.stack : e));
  console.log(passed + ' passed, ' + (failed + 1) + ' failed');
  process.exitCode = 1;
});
