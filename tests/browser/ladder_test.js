// End-to-end test of the ladder's web pages (docs/ladder.md "The web pages") in Debian's Chromium
// driven by playwright-core (scripts/setup-browser.sh installs them; the test fails, never skips,
// without). One real ladder for every check: the three starter kits (C++, Python, JavaScript; the
// Python kit's author's name is markup) and a C++ kit whose build fails on purpose (the compiler's
// message, its build log, is markup), run by `referee ladder run -j 2 --listen 127.0.0.1:0`. It
// checks: the leaderboard shows every kit once built and updates its games without a reload, the
// author's name shown as text, each bot linked to its page also in the rows the refresh redraws;
// a bot page (its version, the rating chart with an interval, head to head, a match link opening
// the viewer); the failed build's page (the log hidden without a token, an author's token told it
// is not theirs, the organiser's token showing the log as text); the organiser's page (workers,
// the rejected version) with the organiser's token only; the matches page filtered by bot, its
// link opening the viewer; a match's viewer page (/matches/ID/LEG) opened at #step=3; the submit
// page, with an account's token, sends one Python file that becomes a version, is built and plays
// (its row appears on the open leaderboard), and its answer links the bot's page, which shows the
// build log with the token the submit page kept; every page at 1280x800 and 390x800 without
// anything cut off (no horizontal overflow of the page or of a table); no console error; no
// dialog. Screenshots in OUT: ladder-NAME-WIDTH.png for NAME board, submit, matches, organiser,
// bot, bot-rejected, bot-uploaded and WIDTH 1280, 390.
//
//   node ladder_test.js --referee REFEREE --sources PROJECT_SOURCE_DIR --out DIR
'use strict';

const assert = require('assert');
const childProcess = require('child_process');
const fs = require('fs');
const path = require('path');

const USAGE = 'usage: node ladder_test.js --referee R --sources PROJECT_SOURCE_DIR --out DIR';
const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
for (const k of ['referee', 'sources', 'out']) if (!args[k]) { console.error(USAGE); process.exit(2); }
const shots = path.resolve(args.out);
const dir = path.join(shots, 'ladder');

const { check, tally, CHROMIUM, chromiumOrExit } = require('./checks.js');

const chromium = chromiumOrExit();

function referee(argv) {
  const r = childProcess.spawnSync(args.referee, argv, { encoding: 'utf8' });
  if (r.error) throw r.error;
  assert.strictEqual(r.status, 0, 'referee ' + argv.join(' ') + ' exited ' + r.status + ':\n' + r.stdout + r.stderr);
  return r.stdout;
}

const AUTHOR = '<img src=x onerror=alert(1)>';
fs.rmSync(dir, { recursive: true, force: true });
fs.mkdirSync(dir, { recursive: true });
const L = path.join(dir, 'L');
referee(['ladder', 'init', L, '--game', 'stellar', '--placement-games', '2', '--check-games', '1']);
// The three starter kits, as their authors would submit them (the Python one's author is markup).
const KITS = { 'py-kit': 'python', 'cpp-kit': 'cpp', 'js-kit': 'javascript' };
for (const [name, kit] of Object.entries(KITS)) {
  referee(['ladder', 'submit', L, path.join(args.sources, 'sample_bots', 'starter', kit), '--name', name,
    '--author', name === 'py-kit' ? AUTHOR : 'alice']);
}
const randomBot = path.join(args.sources, 'sample_bots', 'python', 'random_bot.py');
// The C++ kit with a line that fails its build on purpose, the compiler's message (its build log)
// markup.
const HOSTILE_LOG = "<script>alert('log')</script>";
const brokenDir = path.join(dir, 'broken');
fs.mkdirSync(brokenDir);
fs.writeFileSync(path.join(brokenDir, 'bot.cpp'), '#error "' + HOSTILE_LOG + '"\n' +
  fs.readFileSync(path.join(args.sources, 'sample_bots', 'starter', 'cpp', 'bot.cpp'), 'utf8'));
fs.writeFileSync(path.join(brokenDir, 'bot.json'), '{"language": "cpp"}');
referee(['ladder', 'submit', L, brokenDir, '--name', 'broken', '--author', 'bob']);
const token = referee(['ladder', 'author', 'add', L, 'tester']).trim();
const organiserToken = referee(['ladder', 'author', 'add', L, 'org', '--organiser']).trim();

// The ladder runs (and serves) until the test ends.
const log = path.join(dir, 'run.log');
const run = childProcess.spawn(args.referee, ['ladder', 'run', L, '-j', '2', '--listen', '127.0.0.1:0'],
  { stdio: ['ignore', fs.openSync(log, 'w'), fs.openSync(log, 'a')] });

async function served() {
  for (let i = 0; i < 600; i++) {
    const m = /serving http:\/\/127\.0\.0\.1:(\d+)\//.exec(fs.readFileSync(log, 'utf8'));
    if (m) return 'http://127.0.0.1:' + m[1];
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the ladder did not serve within 60 s:\n' + fs.readFileSync(log, 'utf8'));
}

// Nothing wider than the window: the page, and the table inside its section.
async function noClipping(page) {
  const sizes = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth, window: window.innerWidth,
    tables: [...document.querySelectorAll('section')].map((s) => [s.scrollWidth, s.clientWidth]),
  }));
  assert.ok(sizes.page <= sizes.window, 'the page is ' + sizes.page + ' px wide in a ' + sizes.window + ' px window');
  for (const [inner, outer] of sizes.tables) assert.ok(inner <= outer, 'a table of ' + inner + ' px in ' + outer + ' px');
}

const rowsOf = (page) => page.$$eval('#board-rows tr', (rows) => rows.map((r) => ({
  bot: r.dataset.bot, cells: [...r.cells].map((c) => c.textContent) })));

const consoleErrors = [];
const dialogs = [];
// Requests a check makes fail on purpose (a wrong token): Chromium logs each refused request as a
// console error, and that message may arrive after the page has already shown the refusal, so the
// refusals a check provokes are matched at the end, by page and status, not when the check ends.
const provoked = [];
const unexpected = (errors) => errors.filter((e) =>
  !provoked.some(({ target, status }) => e.startsWith(target + ': ') && e.includes('status of ' + status + ' ')));

(async () => {
  const started = Date.now();
  const base = await served();
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const open = async (target) => {
    const page = await context.newPage();
    page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(target + ': ' + m.text()); });
    page.on('pageerror', (e) => consoleErrors.push(target + ': uncaught ' + e.message));
    page.on('dialog', (d) => { dialogs.push(target + ': ' + d.message()); d.dismiss().catch(() => {}); });
    await page.goto(base + target);
    return page;
  };
  try {
    const board = await open('/');
    let loads = 0;
    board.on('load', () => loads++);
    await check('the leaderboard shows every starter kit once they are built, without a reload', async () => {
      await board.waitForFunction((names) => names.every((b) =>
        document.querySelector('#board-rows tr[data-bot="' + b + '"]')), Object.keys(KITS), { timeout: 180000 });
      assert.strictEqual(loads, 0);
    });
    await check('the leaderboard counts new games as they finish, without a reload', async () => {
      const before = await board.textContent('#board-meta');
      await board.waitForFunction((t) => document.getElementById('board-meta').textContent !== t, before,
        { timeout: 120000 });
      assert.strictEqual(loads, 0);
      const rows = await rowsOf(board);
      assert.ok(rows.some((r) => Number(r.cells[5]) > 0), JSON.stringify(rows));
      assert.ok(await board.$('#board-rows .elo-bar'), 'no interval bar');
    });
    await check("the author's markup is shown as text", async () => {
      const rows = await rowsOf(board);
      const kit = rows.find((r) => r.bot === 'py-kit');
      assert.strictEqual(kit.cells[2], AUTHOR);
      assert.strictEqual(await board.$('#board-rows img'), null);
    });

    const submit = await open('/submit');
    await check('the submit page sends one Python file with the token: a version is made', async () => {
      await submit.fill('#token', token);
      await submit.fill('input[name="name"]', 'uploaded');
      await submit.setInputFiles('input[name="file"]', randomBot);
      await submit.selectOption('select[name="language"]', 'python');
      await submit.click('button[type="submit"]');
      await submit.waitForFunction(() => /submitted|refused|not sent/.test(document.getElementById('result').textContent),
        null, { timeout: 30000 });
      assert.match(await submit.textContent('#result'), /^uploaded@v1 submitted/);
      assert.strictEqual(await submit.getAttribute('#result a', 'href'), '/bots/uploaded');
    });
    await check('a wrong token is refused on the page, as text', async () => {
      provoked.push({ target: '/submit', status: 401 });
      await submit.fill('#token', 'wrong');
      await submit.click('button[type="submit"]');
      await submit.waitForFunction(() => /refused/.test(document.getElementById('result').textContent), null,
        { timeout: 30000 });
      assert.match(await submit.textContent('#result'), /refused \(401\): the token is not one of this ladder's/);
    });
    await check('the uploaded version is built and plays: its row appears on the open leaderboard', async () => {
      await board.waitForFunction(() => {
        const row = document.querySelector('#board-rows tr[data-bot="uploaded"]');
        return row && Number(row.cells[5].textContent) > 0;
      }, null, { timeout: 240000 });
      assert.strictEqual(loads, 0);
    });
    await check("the account page: nothing without a token, then the author's account and bots, linked", async () => {
      const me = await open('/me');
      assert.strictEqual(await me.$$eval('#bots tbody tr', (rows) => rows.length), 0);
      await me.fill('#token', token);
      await me.click('#token-form button');
      await me.waitForSelector('#bots tbody tr a[href="/bots/uploaded"]', { timeout: 30000 });
      assert.match(await me.textContent('#account'), /^\S+, since \d{4}-\d{2}-\d{2}$/);
      const names = await me.$$eval('#bots tbody tr td:first-child', (cells) => cells.map((c) => c.textContent));
      assert.ok(names.includes('uploaded'), JSON.stringify(names));
      await me.close();
    });
    await check('a match\'s viewer page (/matches/ID/LEG#step=3), served from the database, opens at that step', async () => {
      const games = await (await context.request.get(base + '/api/v1/matches?limit=1')).json();
      const g = games.games[0];
      const viewer = await open('/matches/' + g.match + '/' + g.leg + '#step=3');
      await viewer.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
      const counter = viewer.locator('[data-testid="step-counter"]');
      assert.strictEqual(Number(await counter.getAttribute('data-position')), 3);
      await viewer.close();
    });
    const list = await open('/matches');
    await check('the matches page filters by bot, and its link opens the viewer', async () => {
      await list.selectOption('select[name="bot"]', 'uploaded');
      await Promise.all([list.waitForNavigation(), list.click('#filters button[type="submit"]')]);
      const seats = await list.$$eval('#games tbody tr td.bot', (cells) => cells.map((c) => c.textContent));
      assert.ok(seats.length > 0 && seats.every((t) => t.includes('uploaded@v1')), JSON.stringify(seats));
      await Promise.all([list.waitForNavigation(), list.click('#games tbody tr a[href^="/matches/"]')]);
      await list.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
      assert.match(list.url(), /\/matches\/\d+\/\d+#step=0$/);
      assert.strictEqual(Number(await list.locator('[data-testid="step-counter"]').getAttribute('data-position')), 0);
      await list.goto(base + '/matches');
    });
    const organiser = await open('/organiser');
    await check("the organiser's page: nothing without the token, an author's refused, the organiser's shows all", async () => {
      assert.strictEqual(await organiser.$$eval('tbody tr', (rows) => rows.length), 0);
      provoked.push({ target: '/organiser', status: 403 });
      await organiser.fill('#token', token);
      await organiser.click('#token-form button');
      await organiser.waitForFunction(() => /refused/.test(document.getElementById('note').textContent), null,
        { timeout: 30000 });
      assert.match(await organiser.textContent('#note'), /refused: 403: only the organiser's account/);
      await organiser.fill('#token', organiserToken);
      await organiser.click('#token-form button');
      await organiser.waitForFunction(() => document.querySelectorAll('#workers tbody tr').length >= 2 &&
        document.querySelectorAll('#rejected tbody tr').length >= 1, null, { timeout: 30000 });
      const rejected = await organiser.$$eval('#rejected tbody tr', (rows) => rows.map((r) => r.textContent));
      assert.ok(rejected.some((t) => t.includes('broken@v1') && t.includes('bob')), JSON.stringify(rejected));
      assert.strictEqual(await organiser.$('main table script'), null);
    });
    await check('the leaderboard links every bot to its page, also after its live refresh', async () => {
      // The rows on the page now are the script's (the games counted moved above without a reload).
      const links = await board.$$eval('#board-rows a.bot-link', (as) => as.map((a) => a.getAttribute('href')));
      for (const bot of [...Object.keys(KITS), 'uploaded']) assert.ok(links.includes('/bots/' + bot), JSON.stringify(links));
      const list2 = await board.$$eval('#board-rows tr', (rows) => rows.map((r) => r.dataset.bot));
      assert.strictEqual(list2.length, 4);
    });
    const botPage = await open('/bots/py-kit');
    await check("a bot's page: its version, the rating chart with its interval, head to head, matches linked to the viewer", async () => {
      // Server-drawn: reloaded until the version has had enough games for an interval.
      for (let i = 0; i < 120 && !(await botPage.$('svg[data-testid="rating-chart"] polygon.interval')); i++) {
        await new Promise((r) => setTimeout(r, 1000));
        await botPage.reload();
      }
      assert.ok(await botPage.$('svg[data-testid="rating-chart"] polygon.interval'), 'no interval drawn');
      assert.ok(await botPage.$('svg[data-testid="rating-chart"] polyline'), 'no rating line');
      assert.match(await botPage.textContent('#versions tbody'), /v1\s*active/);
      assert.strictEqual(await botPage.textContent('#author'), AUTHOR);
      assert.strictEqual(await botPage.$('header img'), null);
      const rivals = await botPage.$$eval('#rivals tbody tr', (rows) => rows.map((r) => r.cells[0].textContent));
      assert.ok(rivals.length >= 1 && rivals.every((r) => ['cpp-kit', 'js-kit', 'uploaded'].includes(r)),
        JSON.stringify(rivals));
      await Promise.all([botPage.waitForNavigation(), botPage.click('#games tbody tr a[href^="/matches/"]')]);
      await botPage.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
      assert.match(botPage.url(), /\/matches\/\d+\/\d+#step=0$/);
      await botPage.goto(base + '/bots/py-kit');
    });
    const brokenPage = await open('/bots/broken');
    await check("a bot whose build failed: its page hides the log without a token, an author's token refused, the organiser's shows it as text", async () => {
      assert.match(await brokenPage.textContent('#versions tbody'), /v1\s*rejected/);
      assert.strictEqual(await brokenPage.$('#logs pre'), null);
      await brokenPage.fill('#token', token);
      await brokenPage.click('#logs-form button');
      await brokenPage.waitForFunction(() => /not shown/.test(document.getElementById('logs-note').textContent), null,
        { timeout: 30000 });
      assert.match(await brokenPage.textContent('#logs-note'), /neither the bot's author's nor the organiser's/);
      await brokenPage.fill('#token', organiserToken);
      await brokenPage.click('#logs-form button');
      await brokenPage.waitForSelector('#logs pre.log', { state: 'attached', timeout: 30000 });
      assert.ok((await brokenPage.textContent('#logs pre.log')).includes(HOSTILE_LOG));
      assert.match(await brokenPage.textContent('#logs'), /why it was rejected: /);
      assert.strictEqual(await brokenPage.$('#logs script'), null);
    });
    await check('the submit page kept its token: the uploaded bot\'s page, opened in its tab, shows its build log', async () => {
      await submit.goto(base + '/bots/uploaded');
      await submit.waitForSelector('#logs pre.log', { state: 'attached', timeout: 30000 });
      assert.match(await submit.textContent('#logs-note'), /shown with your token/);
      assert.match(await submit.textContent('#versions tbody'), /v1\s*active/);
      for (const width of [390, 1280]) {
        await submit.setViewportSize({ width, height: 800 });
        await noClipping(submit);
        await submit.screenshot({ path: path.join(shots, 'ladder-bot-uploaded-' + width + '.png'), fullPage: true });
      }
      await submit.goto(base + '/submit');
    });
    for (const width of [1280, 390]) {
      for (const [name, page] of [['board', board], ['submit', submit], ['matches', list], ['organiser', organiser],
        ['bot', botPage], ['bot-rejected', brokenPage]]) {
        await check(name + ' page at ' + width + ' px: nothing cut off', async () => {
          await page.setViewportSize({ width, height: 800 });
          await noClipping(page);
          await page.screenshot({ path: path.join(shots, 'ladder-' + name + '-' + width + '.png'), fullPage: true });
        });
      }
    }
    await check('no console errors', async () => assert.deepStrictEqual(unexpected(consoleErrors), []));
    await check('no dialog opened (no script of a bot or an author ran)', async () => assert.deepStrictEqual(dialogs, []));
  } catch (e) {
    tally.failed++;
    console.log('FAIL ' + (e && e.stack ? e.stack : e));
  } finally {
    await browser.close();
    run.kill('SIGTERM');
  }
  console.log(tally.passed + ' passed, ' + tally.failed + ' failed (' + ((Date.now() - started) / 1000).toFixed(1) + ' s)');
  process.exit(tally.failed === 0 ? 0 : 1);
})().catch((e) => {
  console.error(e);
  run.kill('SIGTERM');
  process.exit(1);
});
