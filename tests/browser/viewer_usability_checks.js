// The browser checks of the viewer's usability (referee/render/web/viewer_result.js and
// viewer_nav.js), for viewer_test.js: no spoilers before the last step, the deep links
// #step=N&seat=K, the keyboard help, and layouts for 2 to 4 seats at 1280x800 and 390 px wide.
// `h` holds viewer_test.js's page helpers and the screenshots folder.
'use strict';

const assert = require('assert');
const path = require('path');

const { check } = require('./checks.js');

module.exports = function usabilityChecks(h) {
  const { openPage, goTo, position, focusPage, byTestId, showMode, shots } = h;


  // The page's text as a reader gets it: every element but the scripts (the match data holds the
  // footer) and the style sheets, whether or not a style hides it.
  async function pageText(page) {
    return page.evaluate(() => {
      const body = document.body.cloneNode(true);
      body.querySelectorAll('script, style').forEach((n) => n.remove());
      return body.textContent;
    });
  }

  function winnerWords(replay) {
    const result = replay.footer.result;
    const name = (s) => replay.header.bots[s].name;
    return result.winner === null || result.winner === undefined ? null : 'Seat ' + result.winner + ' (' + name(result.winner) + ') wins';
  }

  // Nothing of the result in the page's text, its elements or its title.
  async function assertNoResult(page, replay, where) {
    const text = await pageText(page);
    const winner = winnerWords(replay);
    for (const words of [winner, ' wins', 'A draw', 'No winner', 'forfeits', 'Ended:', 'ended:']) {
      if (words) assert.ok(!text.includes(words), where + ': the page says "' + words + '"');
    }
    for (const selector of ['[data-testid="winner"]', '[data-testid="end"]', '#result-panel [data-key]', '[data-key^="scores."]', 'table.score', '[data-testid="fault-message"]', '.player.faulted']) {
      assert.strictEqual(await page.locator(selector).count(), 0, where + ': the page has ' + selector);
    }
    assert.ok(await byTestId(page, 'fault').isHidden(), where + ': the fault banner shows');
    assert.strictEqual(await byTestId(page, 'result-hidden').count(), 1, where + ': the result panel does not say the result is hidden');
    // The title names the bots (e.g. faulty_bot): the words are looked for around their names.
    const title = replay.header.bots.reduce((t, b) => t.split(b.name).join(' '), await page.title());
    for (const words of ['win', 'score', 'draw', 'fault', 'forfeit', replay.footer.end]) {
      assert.ok(!title.toLowerCase().includes(words), where + ': the title says "' + words + '": ' + title);
    }
  }

  async function assertResult(page, replay, where) {
    const result = replay.footer.result;
    const winner = byTestId(page, 'winner');
    assert.strictEqual(await winner.count(), 1, where + ': no winner line');
    assert.strictEqual(await winner.getAttribute('data-seat'), result.winner === null ? 'none' : String(result.winner), where);
    if (winnerWords(replay)) assert.strictEqual(await winner.textContent(), winnerWords(replay), where);
    for (let seat = 0; seat < (result.scores || []).length; seat++) {
      assert.strictEqual(await page.locator('#result-panel [data-key="scores.' + seat + '"]').textContent(), String(result.scores[seat]), where + ': seat ' + seat + '\'s score');
    }
    if (result.fault) assert.ok(await byTestId(page, 'fault').isVisible(), where + ': no fault banner');
  }

  async function checkSpoilers(label, file, replay, screenshot) {
    const n = replay.steps.length;
    const page = await openPage(file);
    await check(label + ': no result, winner or score in the page or its title before the last step', async () => {
      assert.strictEqual(await position(page), 0);
      await assertNoResult(page, replay, 'step 0');
      if (screenshot) await page.screenshot({ path: path.join(shots, screenshot) });
      for (const p of [1, Math.floor(n / 2), n - 1]) {
        await goTo(page, p);
        await assertNoResult(page, replay, 'step ' + p);
      }
    });
    await check(label + ': "Show result" reveals the result at any step, and hides it again', async () => {
      await goTo(page, 1);
      const reveal = byTestId(page, 'reveal');
      assert.strictEqual(await reveal.getAttribute('aria-pressed'), 'false');
      await reveal.click();
      assert.strictEqual(await reveal.getAttribute('aria-pressed'), 'true');
      await assertResult(page, replay, 'revealed at step 1');
      await goTo(page, 2);
      await assertResult(page, replay, 'revealed, then step 2');
      await reveal.click();
      await assertNoResult(page, replay, 'hidden again at step 2');
      await focusPage(page);
      await page.keyboard.press('r');
      await assertResult(page, replay, 'R at step 2');
      await page.keyboard.press('r');
      await assertNoResult(page, replay, 'R again at step 2');
    });
    await check(label + ': the last step shows the result without asking, and Home hides it again', async () => {
      await focusPage(page);
      await page.keyboard.press('End');
      assert.strictEqual(await position(page), n);
      await assertResult(page, replay, 'the last step');
      assert.ok(await byTestId(page, 'reveal').isDisabled(), '"Show result" is enabled at the last step');
      assert.ok((await byTestId(page, 'match-meta').textContent()).includes('ended: ' + replay.footer.end));
      await page.keyboard.press('Home');
      await assertNoResult(page, replay, 'back at step 0');
    });
    await page.close();
  }

  async function checkDeepLinks(label, file, replay) {
    const n = replay.steps.length;
    const seats = replay.header.seats;
    const opened = async (hash, pos, mode, what) => {
      const page = await openPage(file, hash);
      try {
        assert.strictEqual(await position(page), pos, what + ': ' + hash + ' opened step ' + (await position(page)));
        assert.strictEqual(await byTestId(page, 'seat-toggle').inputValue(), String(mode), what + ': ' + hash + ' opened the wrong view');
        assert.strictEqual(await byTestId(page, 'table').getAttribute('data-mode'), String(mode), what + ': ' + hash);
      } finally {
        await page.close();
      }
    };
    await check(label + ': #step=N&seat=K opens that step in that seat\'s view; either alone, or seat=full', async () => {
      await opened('#step=5&seat=1', 5, 1, 'both');
      await opened('#seat=1&step=3', 3, 1, 'the other order');
      await opened('#step=7', 7, 'full', 'a step alone');
      await opened('#seat=' + (seats - 1), 0, seats - 1, 'a seat alone');
      await opened('#step=4&seat=full', 4, 'full', 'seat=full');
    });
    await check(label + ': out-of-range values are clamped, garbage is ignored', async () => {
      await opened('#step=' + (n + 1000) + '&seat=' + (seats + 5), n, seats - 1, 'too big');
      await opened('#step=-3&seat=-1', 0, 0, 'negative');
      await opened('#step=abc&seat=xyz', 0, 'full', 'garbage');
      await opened('#step=2.5&seat=', 0, 'full', 'not an integer');
      await opened('#nonsense', 0, 'full', 'no key');
      await opened('#step=6&seat=1&step=oops&x=1', 6, 1, 'a bad repeat and an unknown key');
    });
    await check(label + ': the address follows every move without adding history entries, and an edited address moves the page', async () => {
      const page = await openPage(file, '#step=5&seat=1');
      try {
        const hash = () => page.evaluate(() => window.location.hash);
        const entries = await page.evaluate(() => window.history.length);
        assert.strictEqual(await hash(), '#step=5&seat=1');
        await focusPage(page);
        await page.keyboard.press('ArrowRight');
        assert.strictEqual(await hash(), '#step=6&seat=1');
        await page.keyboard.press('End');
        assert.strictEqual(await hash(), '#step=' + n + '&seat=1');
        await showMode(page, 'full');
        assert.strictEqual(await hash(), '#step=' + n);
        await goTo(page, 2);
        assert.strictEqual(await hash(), '#step=2');
        await focusPage(page);
        await page.keyboard.press('0');
        assert.strictEqual(await hash(), '#step=2&seat=0');
        assert.strictEqual(await page.evaluate(() => window.history.length), entries, 'stepping added history entries');
        await setHash(page, '#step=9&seat=full', 9);
        assert.strictEqual(await byTestId(page, 'seat-toggle').inputValue(), 'full');
        // A link never carries "Show result".
        await byTestId(page, 'reveal').click();
        assert.strictEqual(await hash(), '#step=9');
      } finally {
        await page.close();
      }
    });
  }

  async function checkHelp(label, file) {
    const page = await openPage(file, '#step=3');
    await check(label + ': ? opens the keyboard help, which lists the keys; Escape closes it; keys do not step while it is open', async () => {
      const help = byTestId(page, 'help');
      assert.ok(await help.isHidden(), 'the help shows on opening');
      await focusPage(page);
      await page.keyboard.press('?');
      assert.ok(await help.isVisible(), '? did not open the help');
      const text = await help.textContent();
      for (const key of ['\u2190', '\u2192', 'Home', 'End', 'Space', 'F', 'R', 'Esc', '#step=N&seat=K']) {
        assert.ok(text.includes(key), 'the help does not name ' + key);
      }
      await page.keyboard.press('ArrowRight');
      assert.strictEqual(await position(page), 3, 'an arrow key stepped behind the help');
      await page.screenshot({ path: path.join(shots, 'viewer-help.png') });
      await page.keyboard.press('Escape');
      assert.ok(await help.isHidden(), 'Escape did not close the help');
      await page.keyboard.press('ArrowRight');
      assert.strictEqual(await position(page), 4, 'keys do not work after the help closed');
    });
    await check(label + ': the ? button opens the help, its Close button closes it', async () => {
      await byTestId(page, 'help-button').click();
      assert.ok(await byTestId(page, 'help').isVisible());
      assert.strictEqual(await byTestId(page, 'help-button').getAttribute('aria-expanded'), 'true');
      await byTestId(page, 'help-close').click();
      assert.ok(await byTestId(page, 'help').isHidden());
      await byTestId(page, 'help-button').click();
      await page.keyboard.press('Escape');
      assert.ok(await byTestId(page, 'help').isHidden(), 'Escape did not close the help opened by its button');
    });
    await page.close();
  }

  // What sticks out of the page's width: every drawn element outside [0, innerWidth] (an element
  // inside a box that clips or scrolls sideways counts as that box), and the page's scroll width.
  async function overflow(page) {
    return page.evaluate(() => {
      const width = window.innerWidth;
      const out = [];
      const clips = (n) => getComputedStyle(n).overflowX !== 'visible';
      for (const n of document.body.querySelectorAll('*')) {
        const r = n.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) continue;
        let inClip = false;
        for (let a = n.parentElement; a && a !== document.body; a = a.parentElement) if (clips(a)) inClip = true;
        if (inClip) continue;
        if (r.left < -0.5 || r.right > width + 0.5) {
          out.push(n.tagName.toLowerCase() + (n.id ? '#' + n.id : '') + (n.className && typeof n.className === 'string' ? '.' + n.className.split(' ').join('.') : '') +
            ' spans ' + Math.round(r.left) + '..' + Math.round(r.right));
        }
      }
      const b = document.getElementById('score-breakdown');
      return { width, scrollWidth: document.documentElement.scrollWidth, outside: out.slice(0, 8), count: out.length,
        breakdown: { scroll: b.scrollWidth, client: b.clientWidth } };
    });
  }

  // The page at one size: at step 0 and at the last step (the result drawn), in the full table and
  // in the last seat's view, nothing sticks out; at 1280 wide the score table fits its panel
  // without scrolling; below 600 wide the panels are stacked.
  // Edits the page's address as a reader would, and waits until the page has moved to position p.
  async function setHash(page, hash, p) {
    await page.evaluate((h) => { window.location.hash = h; }, hash);
    for (let i = 0; i < 100 && (await position(page)) !== p; i++) await page.waitForTimeout(20);
    assert.strictEqual(await position(page), p, 'the address ' + hash + ' did not move the page');
  }

  async function checkLayout(label, file, replay, viewport) {
    const n = replay.steps.length;
    const seats = replay.header.seats;
    const name = path.basename(file, '.html');
    const page = await openPage(file, '', viewport);
    await check(label + ': ' + seats + ' seats at ' + viewport.width + 'x' + viewport.height + ': nothing outside the page\'s width, no horizontal scroll' +
      (viewport.width >= 1280 ? ', the board in view beside the step panel' : ''), async () => {
      for (const [hash, what] of [['#step=0', 'step 0'], ['#step=' + n, 'the last step'], ['#step=' + n + '&seat=' + (seats - 1), 'the last step, seat ' + (seats - 1)]]) {
        await setHash(page, hash, hash.startsWith('#step=0') ? 0 : n);
        const o = await overflow(page);
        assert.ok(o.scrollWidth <= o.width, what + ': the page scrolls sideways (' + o.scrollWidth + ' > ' + o.width + ')');
        assert.deepStrictEqual(o.outside, [], what + ': ' + o.count + ' elements outside the width ' + o.width);
        if (viewport.width >= 1280) {
          // The board first: the table's top in the first half of the screen, left of the step panel.
          const box = await page.evaluate(() => {
            const table = document.getElementById('table').getBoundingClientRect();
            const step = document.getElementById('step-panel').getBoundingClientRect();
            return { top: table.top + window.scrollY, right: table.right, stepLeft: step.left };
          });
          assert.ok(box.top < viewport.height / 2, what + ': the board starts at ' + box.top + ' px, below the first half of the ' + viewport.height + ' px screen');
          assert.ok(box.right <= box.stepLeft, what + ': the board is not beside the step panel: ' + JSON.stringify(box));
        }
        if (viewport.width >= 1280 && hash.indexOf('seat') < 0 && n > 0 && hash === '#step=' + n) {
          assert.ok(o.breakdown.scroll <= o.breakdown.client, what + ': the score table is wider than its panel (' + o.breakdown.scroll + ' > ' + o.breakdown.client + ')');
          const cells = await page.locator('#result-panel table.score th').count();
          assert.strictEqual(cells, seats + 1, 'the score table does not have a column per seat');
        }
      }
      if (viewport.width < 600) {
        const boxes = await page.evaluate(() => ['step-panel', 'view-panel', 'result-panel'].map((id) => {
          const r = document.getElementById(id).getBoundingClientRect();
          return { id, left: r.left, top: r.top, bottom: r.bottom };
        }));
        for (let i = 1; i < boxes.length; i++) {
          assert.ok(boxes[i].top >= boxes[i - 1].bottom, boxes[i].id + ' is not below ' + boxes[i - 1].id + ': ' + JSON.stringify(boxes));
          assert.strictEqual(Math.round(boxes[i].left), Math.round(boxes[0].left), boxes[i].id + ' is not stacked');
        }
      }
      await setHash(page, '#step=' + n, n);
      await page.screenshot({ path: path.join(shots, 'viewer-layout-' + name + '-' + viewport.width + '.png'), fullPage: viewport.width < 600 });
    });
    await page.close();
  }

  return { checkSpoilers, checkDeepLinks, checkHelp, checkLayout };
};
