// The browser checks both games' pages share, for viewer_test.js: navigation (buttons, keys,
// slider, autoplay), the step panel at chosen steps, the score breakdown at the end against the
// footer, a seat's view against the recorded view (hiding the other seats' hands), the legal
// actions a step lists, and the stderr lines a bot wrote during each decision. `h` holds
// viewer_test.js's page helpers.
'use strict';

const assert = require('assert');

const { check } = require('./checks.js');

module.exports = function sharedChecks(h) {
  const { canonical, lookup, byTestId, position, counterText, goTo, focusPage, showMode, cardsIn } = h;


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
        // The time it had: the decision limit plus what its seat's bank kept from earlier overruns.
        const limits = replay.header.limits;
        let bank = limits.time_bank_ms || 0;
        for (const earlier of replay.steps.slice(0, p)) {
          if (earlier.seat === step.seat) bank = Math.max(0, bank - Math.max(0, earlier.time_ms - limits.decision_ms));
        }
        assert.strictEqual(Number(await byTestId(page, 'time').getAttribute('data-allowed-ms')), limits.decision_ms + bank);
        assert.ok((await byTestId(page, 'time').textContent()).includes('allowed'), 'the step does not say the time allowed');
        assert.strictEqual(await byTestId(page, 'debug').textContent(), step.debug ? step.debug : '(none)');
        assert.strictEqual(await byTestId(page, 'stderr').textContent(), step.stderr ? step.stderr.join('\n') : '(none)');
      });
    }
  }

  // Every number of the result panel that names its path in the footer equals the footer's value.
  async function checkScore(label, page, replay, minimumCells) {
    await check(label + ': the score breakdown equals the footer at the last step', async () => {
      assert.ok(replay.footer, 'the replay has no footer');
      await goTo(page, replay.steps.length);
      const cells = await page.locator('#result-panel [data-key]').evaluateAll((nodes) =>
        nodes.map((n) => ({ key: n.getAttribute('data-key'), text: n.textContent })));
      assert.ok(cells.length >= minimumCells, 'only ' + cells.length + ' values in the breakdown, expected ' + minimumCells + ' or more');
      for (const cell of cells) {
        const value = lookup(replay.footer.result, cell.key);
        assert.notStrictEqual(value, undefined, cell.key + ' is not in the footer');
        assert.strictEqual(cell.text, value === null ? '\u2013' : String(value), cell.key);
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

  // The legal actions of the step at position p: listed in the full table with the action taken
  // marked, hidden in another seat's view.
  async function checkLegal(label, page, replay, p) {
    const step = replay.steps[p];
    await check(label + ': step ' + p + ' lists the legal actions, the one taken marked, and hides them from another seat', async () => {
      await goTo(page, p);
      await showMode(page, 'full');
      const box = byTestId(page, 'legal-box');
      assert.ok(await box.isVisible(), 'no legal actions box');
      const count = Number(await box.getAttribute('data-count'));
      assert.ok(count >= 1, 'no legal action counted');
      if (!(await box.evaluate((node) => node.open))) await byTestId(page, 'legal-summary').click();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="legal"] li').length > 0);
      const items = await byTestId(page, 'legal').locator('li').evaluateAll((nodes) =>
        nodes.map((n) => ({ text: n.textContent, taken: n.getAttribute('data-taken') === 'true' })));
      assert.strictEqual(items.length, count);
      const taken = items.filter((i) => i.taken);
      assert.strictEqual(taken.length, 1, taken.length + ' legal actions marked as the one taken, ' + JSON.stringify(step.action));
      assert.strictEqual(canonical(JSON.parse(taken[0].text)), canonical(step.action));
      if (replay.header.seats > 1) {
        const other = (step.seat + 1) % replay.header.seats;
        await showMode(page, other);
        assert.strictEqual(await box.getAttribute('data-hidden'), 'true', 'the legal actions show in another seat\'s view');
        assert.strictEqual(await byTestId(page, 'legal').locator('li').count(), 0, 'the legal actions are listed in another seat\'s view');
      }
      await showMode(page, step.seat);
      assert.strictEqual(await box.getAttribute('data-hidden'), null, 'the legal actions are hidden in the acting seat\'s view');
      await showMode(page, 'full');
    });
  }

  // At the end of a match a bot forfeited in a decision, the step panel lists the legal actions of
  // the request it got wrong (the last frame's, from the page's data) and its answer marked as the
  // fault: `answer` is the text that answer shows (an illegal action, a malformed line, a timeout).
  // Not before the end, and not in the other seat's view.
  async function checkFaultLegal(label, page, replay, legal, answer) {
    const fault = replay.footer.result.fault;
    const n = replay.steps.length;
    await check(label + ': at the end, the ' + legal.length + ' legal actions of request ' + fault.request_id + ' and the ' + fault.kind + ' answer marked', async () => {
      await showMode(page, 'full');
      await goTo(page, n - 1);
      const box = byTestId(page, 'legal-box');
      assert.strictEqual(await box.getAttribute('data-fault'), null, 'the step before the end is marked as the fault');
      await goTo(page, n);
      assert.ok(await box.isVisible(), 'no legal actions at the fault');
      assert.strictEqual(await box.getAttribute('data-fault'), fault.kind);
      assert.ok(await box.evaluate((node) => node.open), 'the list of the faulted request is not open');
      assert.ok((await byTestId(page, 'legal-summary').textContent()).includes('request ' + fault.request_id), 'the summary does not name the request');
      const items = await byTestId(page, 'legal').locator('li').evaluateAll((nodes) =>
        nodes.map((li) => ({ text: li.textContent, fault: li.getAttribute('data-testid') === 'legal-fault', taken: li.hasAttribute('data-taken') })));
      assert.deepStrictEqual(items.filter((i) => !i.fault).map((i) => canonical(JSON.parse(i.text))), legal.map(canonical), 'the legal list');
      const marked = items.filter((i) => i.fault);
      assert.strictEqual(marked.length, 1, 'the answer is not listed once');
      assert.strictEqual(marked[0].text, 'its answer: ' + answer);
      assert.ok(items.every((i) => !i.taken), 'an action is marked as taken at the fault');
      const color = await byTestId(page, 'legal-fault').evaluate((li) => getComputedStyle(li).color);
      assert.strictEqual(color, 'rgb(255, 93, 93)', 'the answer is not drawn in the fault colour');
      await showMode(page, 1 - fault.seat);
      assert.strictEqual(await box.getAttribute('data-hidden'), 'true', 'the faulted request\'s legal actions show in the other seat\'s view');
      assert.strictEqual(await byTestId(page, 'legal').locator('li').count(), 0);
      await showMode(page, fault.seat);
      assert.strictEqual(await byTestId(page, 'legal-fault').count(), 1, 'the faulting seat\'s own view does not mark its answer');
      await showMode(page, 'full');
    });
  }

  // The lines a bot wrote on stderr during each decision (the replay's "stderr" and "stderr_cut"
  // of each step): shown in the step panel for the seat that decided, at every step, as text.
  async function checkStderr(label, page, replay) {
    const n = replay.steps.length;
    const withStderr = replay.steps.filter((s) => Array.isArray(s.stderr));
    await check(label + ': the replay records stderr lines in some steps, one of them cut', async () => {
      assert.ok(withStderr.length >= 5, 'only ' + withStderr.length + ' steps with stderr');
      assert.ok(withStderr.length < n, 'every step has stderr');
      assert.ok(replay.steps.some((s) => s.stderr_cut > 0), 'no step says that stderr was cut');
    });
    await check(label + ': every step shows the stderr lines of its decision, with the bytes cut, and none at the end', async () => {
      for (let p = 0; p <= n; p++) {
        await goTo(page, p);
        const s = p < n ? replay.steps[p] : null;
        const lines = s && s.stderr ? s.stderr : [];
        const where = 'step ' + p + ': ';
        assert.strictEqual(await byTestId(page, 'stderr').textContent(), lines.length > 0 ? lines.join('\n') : '(none)', where + 'text');
        assert.strictEqual(await byTestId(page, 'stderr').getAttribute('data-lines'), String(lines.length), where + 'lines');
        const cut = byTestId(page, 'stderr-cut');
        if (s && s.stderr_cut > 0) {
          assert.ok(await cut.isVisible(), where + 'the cut is not shown');
          assert.strictEqual(await cut.getAttribute('data-bytes'), String(s.stderr_cut));
          assert.ok((await cut.textContent()).includes(String(s.stderr_cut)), where + 'the cut does not say how many bytes');
        } else {
          assert.ok(await cut.isHidden(), where + 'a cut is shown');
        }
        if (s) assert.ok((await byTestId(page, 'stderr-label').textContent()).startsWith('seat ' + s.seat + ' '), where + 'the label does not name seat ' + s.seat);
      }
    });
    const markup = replay.steps.findIndex((s) => Array.isArray(s.stderr) && s.stderr.some((l) => l.includes('<b>')));
    await check(label + ': stderr is text in monospace beside the debug text ("<b>" is no element)', async () => {
      assert.ok(markup >= 0, 'no stderr line with "<b>" in the replay');
      await goTo(page, markup);
      const node = byTestId(page, 'stderr');
      assert.ok((await node.textContent()).includes('<b>not bold</b> & \\'), 'the markup is not shown as text');
      assert.strictEqual(await node.locator('b').count(), 0, 'a <b> element inside the stderr box');
      const font = await node.evaluate((e) => getComputedStyle(e).fontFamily);
      assert.ok(/monospace/.test(font), 'not monospace: ' + font);
      const debugBox = await page.locator('#debug-box').boundingBox();
      const stderrBox = await page.locator('#stderr-box').boundingBox();
      const beside = Math.abs(debugBox.y - stderrBox.y) < 2 && stderrBox.x > debugBox.x + debugBox.width - 1;
      const below = Math.abs(debugBox.x - stderrBox.x) < 2 && stderrBox.y >= debugBox.y + debugBox.height - 1;  // a narrow step panel
      assert.ok(beside || below, 'the stderr box is neither beside nor right below the debug text: ' + JSON.stringify([debugBox, stderrBox]));
    });
  }

  return { checkNavigation, checkSteps, checkScore, checkSeatView, checkLegal, checkFaultLegal, checkStderr };
};
