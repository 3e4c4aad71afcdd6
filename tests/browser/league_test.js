// End-to-end test of the league page (`referee html LEAGUE_FOLDER`) in Debian's Chromium driven by
// playwright-core (scripts/setup-browser.sh installs them; the test fails, never skips, without).
// It plays two small real leagues with the sample bots: A (greedy, a random bot whose name is
// markup, and `faulty_bot garbage`, 3 duplicate deals: 18 matches, 12 games per bot, so Elo
// intervals exist) and B (greedy and random, 1 deal: too few games for an interval; its
// standings.json removed, so the page computes them from the journal; --match-pages 1 and the page
// written in a subfolder). It writes their pages and checks: the standings rows against
// standings.json, an interval bar drawn per bot with an interval and "not enough games" for the
// others, the crosstable against the pairs, the faults, the bot name shown as text (no markup),
// every viewer link of A opening a viewer page that loads, B's links to its replay, no request
// leaving the file system, no console error. C, a knockout of 3: its bracket drawn (rounds, tables,
// the bye, the winner, the name with markup as text). D, a league whose seed and whose deal book's
// seed are above 2^53: both shown exactly on the league page and the viewer pages. Screenshots:
// SHOTS/league.png (A), SHOTS/league-bracket.png (C).
//
//   node league_test.js --referee REFEREE --greedy GREEDY_BOT --random RANDOM_BOT --faulty FAULTY_BOT --out DIR
'use strict';

const assert = require('assert');
const childProcess = require('child_process');
const fs = require('fs');
const path = require('path');
const url = require('url');

const USAGE = 'usage: node league_test.js --referee R --greedy G --random R --faulty F --out DIR';
const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
for (const k of ['referee', 'greedy', 'random', 'faulty', 'out']) if (!args[k]) { console.error(USAGE); process.exit(2); }
const shots = path.resolve(args.out);
const dir = path.join(shots, 'league');

const { check, tally, CHROMIUM, chromiumOrExit } = require('./checks.js');

const chromium = chromiumOrExit();

function referee(argv, expected) {
  const r = childProcess.spawnSync(args.referee, argv, { encoding: 'utf8' });
  if (r.error) throw r.error;
  assert.strictEqual(r.status, expected, 'referee ' + argv.join(' ') + ' exited ' + r.status + ':\n' + r.stderr);
  return r;
}

const WEIRD = 'rand<b>"om</script>';
fs.rmSync(dir, { recursive: true, force: true });
fs.mkdirSync(dir, { recursive: true });
const A = path.join(dir, 'a');
const B = path.join(dir, 'b');
const league = (out, bots, deals, more) => referee(['league', '--time-scale', '10', '--deals', String(deals), '--out', out]
  .concat(more || [], ...bots.map(([name, cmd]) => ['--bot', cmd, '--name', name])), 0);
league(A, [['greedy', args.greedy], [WEIRD, args.random], ['faulty', args.faulty + ' garbage']], 3);
league(B, [['greedy', args.greedy], ['random', args.random]], 1);
fs.rmSync(path.join(B, 'standings.json'));
// C: a knockout of 3 (seed 1 has a bye), drawn as a bracket.
const C = path.join(dir, 'c');
league(C, [['greedy', args.greedy], [WEIRD, args.random], ['random', args.random]], 1, ['--format', 'knockout']);
referee(['html', C], 0);
referee(['html', A], 0);
const bPage = path.join(B, 'page', 'b.html');
fs.mkdirSync(path.dirname(bPage));
referee(['html', B, '--match-pages', '1', '--out', bPage], 0);
// D: a league whose seed and whose one deal's seed (from a deal book) are above 2^53, where a
// JavaScript number would round them: the pages must show both exactly, as the journal's text.
const D = path.join(dir, 'd');
const LEAGUE_SEED = '18446744073709551557';
const DEAL_SEED = '9007199254740993';  // 2^53 + 1: the first whole number a double cannot hold
const book = path.join(dir, 'deals.jsonl');
fs.writeFileSync(book, '"' + DEAL_SEED + '"\n');
referee(['league', '--time-scale', '10', '--seed', LEAGUE_SEED, '--deals-file', book, '--out', D,
  '--bot', args.greedy, '--name', 'greedy', '--bot', args.random, '--name', 'random'], 0);
referee(['html', D], 0);
// The journal's decimal seeds, read as text (JSON.parse would round them).
const journalSeedsD = fs.readFileSync(path.join(D, 'results.jsonl'), 'utf8').split('\n').filter((l) => l.trim())
  .map((l) => /"seed":(\d+)/.exec(l)[1]);
const standingsA = JSON.parse(fs.readFileSync(path.join(A, 'standings.json'), 'utf8'));
const journalA = fs.readFileSync(path.join(A, 'results.jsonl'), 'utf8').split('\n').filter((l) => l.trim());

const requests = [];
const consoleErrors = [];

(async () => {
  const started = Date.now();
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, offline: true });
  context.on('request', (r) => requests.push(r.url()));
  const open = async (file) => {
    const page = await context.newPage();
    page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(file + ': ' + m.text()); });
    page.on('pageerror', (e) => consoleErrors.push(file + ': uncaught ' + e.message));
    await page.goto(url.pathToFileURL(file).href);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
    return page;
  };
  const ids = (page, id) => page.locator('[data-testid="' + id + '"]');

  try {
    const page = await open(path.join(A, 'league.html'));
    await check('the standings list every bot in the order of standings.json', async () => {
      const rows = await ids(page, 'standing').evaluateAll((rs) => rs.map((r) => Array.from(r.cells).map((c) => c.textContent)));
      assert.strictEqual(rows.length, standingsA.bots.length);
      rows.forEach((cells, i) => {
        const b = standingsA.bots[i];
        assert.deepStrictEqual(cells.slice(0, 8), [String(b.place), b.name, String(b.games), b.points.toFixed(2),
          b.points_per_game.toFixed(3), String(b.wins), String(b.draws), String(b.losses)]);
        assert.ok(cells[9].startsWith(String(b.fault_count)), 'faults cell ' + cells[9]);
      });
    });
    await check('a bar is drawn for each Elo interval, "not enough games" without one', async () => {
      const withInterval = standingsA.bots.filter((b) => b.elo.low !== null).length;
      assert.ok(withInterval >= 1, 'league A has no interval');
      const boxes = await ids(page, 'elo-ci').evaluateAll((es) => es.map((e) => e.getBoundingClientRect().width));
      assert.strictEqual(boxes.length, withInterval);
      boxes.forEach((w) => assert.ok(w >= 2, 'a bar ' + w + 'px wide'));
      assert.strictEqual(await ids(page, 'elo-none').count(), standingsA.bots.length - withInterval);
    });
    await check('a bot name with markup is shown as text', async () => {
      assert.strictEqual(await page.locator('#standings b, #crosstable b, #matches b').count(), 0);
      assert.ok((await ids(page, 'standings').textContent()).includes(WEIRD));
      assert.ok((await page.title()).startsWith('League a'));
    });
    await check('the crosstable has the head-to-head points of the pairs', async () => {
      const rows = await ids(page, 'cross-row').evaluateAll((rs) => rs.map((r) => Array.from(r.cells).map((c) => c.textContent)));
      const names = standingsA.bots.map((b) => b.name);
      assert.strictEqual(rows.length, names.length);
      rows.forEach((cells, i) => {
        assert.strictEqual(cells[0], names[i]);
        names.forEach((col, j) => {
          if (i === j) return assert.strictEqual(cells[j + 1], '-');
          const p = standingsA.pairs.find((q) => (q.a === names[i] && q.b === col) || (q.b === names[i] && q.a === col));
          const pts = p.a === names[i] ? p.a_points : p.games - p.a_points;
          assert.strictEqual(cells[j + 1], pts + '/' + p.games, names[i] + ' vs ' + col);
        });
      });
      assert.strictEqual(await ids(page, 'pair').count(), standingsA.pairs.length);
      assert.ok((await ids(page, 'pairs').textContent()).includes('Pentanomial'));
    });
    await check('the faults list the faulty bot\'s faults', async () => {
      const rows = await ids(page, 'fault').evaluateAll((rs) => rs.map((r) => Array.from(r.cells).map((c) => c.textContent)));
      const expected = standingsA.bots.reduce((n, b) => n + b.fault_entries.length, 0);
      assert.ok(expected >= 1);
      assert.strictEqual(rows.length, expected);
      rows.forEach((cells) => { assert.strictEqual(cells[0], 'faulty'); assert.ok(/^m\d{6}$/.test(cells[2])); });
      assert.ok(rows.some((c) => c[1] === 'malformed'), 'kinds: ' + rows.map((c) => c[1]));
    });
    await check('every match is listed, and each viewer link opens a viewer page that loads', async () => {
      assert.strictEqual(await ids(page, 'match').count(), journalA.length);
      const hrefs = await ids(page, 'match-page').evaluateAll((as) => as.map((a) => a.href));
      assert.strictEqual(hrefs.length, journalA.length);
      for (const h of hrefs) {
        const viewer = await open(url.fileURLToPath(h));
        assert.ok((await viewer.locator('[data-testid="step-counter"]').textContent()).length > 0, h);
        await viewer.close();
      }
    });
    await page.screenshot({ path: path.join(shots, 'league.png'), fullPage: true });

    const pb = await open(bPage);
    await check('without standings.json the page computes them from the journal and says so', async () => {
      assert.ok(await ids(pb, 'source-note').isVisible());
      assert.strictEqual(await ids(pb, 'standing').count(), 2);
      assert.strictEqual(await ids(pb, 'elo-none').count(), 2);
      assert.strictEqual(await ids(pb, 'elo-bar').count(), 0);
      assert.strictEqual(await ids(pb, 'partial').isVisible(), false);
    });
    await check('--match-pages 1: one viewer link, the other match links to its replay, from a subfolder', async () => {
      const pages = await ids(pb, 'match-page').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      const replays = await ids(pb, 'match-replay').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      assert.deepStrictEqual(pages, ['../replays/m000000.html']);
      assert.deepStrictEqual(replays, ['../replays/m000001.jsonl']);
      assert.ok((await ids(pb, 'matches-note').textContent()).includes('at most 1'));
      const viewer = await open(path.join(B, 'replays', 'm000000.html'));
      await viewer.close();
    });
    await check('a knockout\'s bracket: a column per round, its tables, the bye, the winner, names as text', async () => {
      const rounds = JSON.parse(fs.readFileSync(path.join(C, 'standings.json'), 'utf8')).rounds;
      const pc = await open(path.join(C, 'league.html'));
      assert.ok(await ids(pc, 'rounds').isVisible());
      assert.strictEqual(await ids(pc, 'round').count(), rounds.played.length);
      assert.strictEqual(rounds.played.length, 2);
      assert.strictEqual(await ids(pc, 'table').count(), 2);
      assert.strictEqual(await ids(pc, 'bye').count(), 1);
      assert.ok((await ids(pc, 'rounds-note').textContent()).includes('winner: ' + rounds.winner));
      assert.strictEqual(await pc.locator('#bracket b').count(), 0);
      assert.ok((await ids(pc, 'bracket').textContent()).includes(WEIRD));
      await pc.screenshot({ path: path.join(shots, 'league-bracket.png'), fullPage: true });
      await pc.close();
    });
    await check('a folder that is not a league is still refused with "wants a replay file"', async () => {
      const r = childProcess.spawnSync(args.referee, ['html', path.join(A, 'replays')], { encoding: 'utf8' });
      assert.strictEqual(r.status, 2);
      assert.ok(r.stderr.includes('wants a replay file'), r.stderr);
    });
    await check('seeds above 2^53 are shown exactly: the league seed and each match\'s (a deal book\'s) seed', async () => {
      assert.deepStrictEqual(journalSeedsD, [DEAL_SEED, DEAL_SEED]);  // both legs of the book's deal
      const pc = await open(path.join(D, 'league.html'));
      assert.ok((await ids(pc, 'league-meta').textContent()).includes('league seed ' + LEAGUE_SEED),
        await ids(pc, 'league-meta').textContent());
      const hrefs = await ids(pc, 'match-page').evaluateAll((as) => as.map((a) => a.href));
      assert.strictEqual(hrefs.length, journalSeedsD.length);
      for (let i = 0; i < hrefs.length; ++i) {
        const viewer = await open(url.fileURLToPath(hrefs[i]));
        const title = await viewer.locator('#match-title').textContent();
        assert.ok(title.endsWith('seed ' + journalSeedsD[i]), title);
        await viewer.close();
      }
      await pc.close();
    });
    await check('no request left the file system, no console error', async () => {
      assert.ok(requests.length >= journalA.length);
      assert.deepStrictEqual(requests.filter((r) => !/^(file|data):/.test(r)), []);
      assert.deepStrictEqual(consoleErrors, []);
    });
  } finally {
    await browser.close();
  }
  console.log(tally.passed + ' passed, ' + tally.failed + ' failed (' + ((Date.now() - started) / 1000).toFixed(1) + ' s in the browser)');
  process.exit(tally.failed === 0 ? 0 : 1);
})().catch((e) => {
  console.error('FAIL ' + (e && e.stack ? e.stack : e));
  process.exit(1);
});
