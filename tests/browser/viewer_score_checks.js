// The browser checks of the running score (referee/render/web/viewer_score.js) and of Stella
// Quest's trick holder, for viewer_test.js: the score shown at a step against the frame data and a
// recomputation, the chart (a line per seat, none past the step drawn until the result is shown:
// no spoiler), and the card and seat holding the trick so far. `h` holds viewer_test.js's page
// helpers (byTestId, goTo, showMode, cardsIn).
'use strict';

const assert = require('assert');

const { check } = require('./checks.js');
const { embeddedData } = require('./page_data.js');

module.exports = function scoreChecks(h) {
  const { byTestId, goTo, showMode, cardsIn } = h;

  // The running score shown at a middle step is the frame's (GameState::progress, from C++) and
  // `recompute(frame, seat, data)`'s; the last frame's is the footer's (`final(result, seat)`). The
  // chart has one line per seat, which stops at the step drawn (its scale too) until the result
  // is shown, and a marker at that step.
  async function checkRunningScore(label, page, file, replay, recompute, final) {
    const data = embeddedData(file);
    const n = replay.steps.length;
    const seats = replay.header.seats;
    const mid = Math.floor(n / 2);
    await check(label + ': the running score at step ' + mid + ' is the frame\'s and its recomputation; the last is the result\'s', async () => {
      await showMode(page, 'full');
      await goTo(page, mid);
      const scores = data.frames[mid].progress.scores;
      assert.strictEqual(scores.length, seats);
      for (let seat = 0; seat < seats; seat++) {
        const cell = byTestId(page, 'running-' + seat);
        assert.strictEqual(await cell.textContent(), String(scores[seat]), 'seat ' + seat + ' shows another score');
        assert.strictEqual(scores[seat], recompute(data.frames[mid], seat, data), 'seat ' + seat + '\'s recomputed score differs');
        assert.strictEqual(data.frames[n].progress.scores[seat], final(replay.footer.result, seat), 'seat ' + seat + '\'s last running score');
      }
      assert.ok(data.frames.some((f) => f.progress.scores.some((x) => x !== 0)), 'every running score is 0');
    });
    await check(label + ': the score chart has a line per seat and stops at the step drawn until the result is shown', async () => {
      await goTo(page, mid);
      const chart = byTestId(page, 'score-chart');
      const lines = chart.locator('polyline.score-line');
      const drawn = async () => lines.evaluateAll((nodes) => nodes.map((x) => x.getAttribute('points').trim().split(/\s+/).map((pt) => Number(pt.split(',')[0]))));
      const marker = Number(await byTestId(page, 'chart-marker').getAttribute('x1'));
      assert.strictEqual(await byTestId(page, 'chart-marker').getAttribute('data-step'), String(mid));
      let xs = await drawn();
      assert.strictEqual(xs.length, seats, 'not one line per seat');
      for (const line of xs) {
        assert.strictEqual(line.length, mid + 1, 'a line does not have a point per step to ' + mid);
        assert.ok(Math.max(...line) <= marker + 0.01, 'a line goes past the marker');
      }
      let top = 1;
      for (let p = 0; p <= mid; p++) top = Math.max(top, ...data.frames[p].progress.scores);
      assert.strictEqual(await chart.getAttribute('data-max'), String(top), 'the chart\'s scale is not that of the steps drawn');
      await byTestId(page, 'reveal').click();
      xs = await drawn();
      assert.ok(xs.every((line) => line.length === n + 1), 'revealed: a line stops before the end');
      await byTestId(page, 'reveal').click();
      assert.ok((await drawn()).every((line) => line.length === mid + 1), 'hidden again: a line goes on');
      await goTo(page, n);
      assert.ok((await drawn()).every((line) => line.length === n + 1), 'the last step: a line stops before the end');
      await goTo(page, mid);
    });
  }

  // Stella Quest's points: lit tokens plus the jewels of collected cards whose number is not
  // repeated (docs/games/stella_quest.md), from the frame's full state.
  function questPoints(frame, seat, data) {
    const pl = frame.state.players[seat];
    const count = {};
    pl.collection.forEach((id) => { count[data.cards[id].number] = (count[data.cards[id].number] || 0) + 1; });
    return pl.tokens + pl.collection.reduce((sum, id) => sum + (count[data.cards[id].number] > 1 ? 0 : data.cards[id].jewels), 0);
  }

  // At steps with cards in the trick being played: the table names the card and seat holding it
  // (the frame's, by the game's rule), marks that card, and with one card played it is that card.
  async function checkTrickLeader(label, page, file) {
    const data = embeddedData(file);
    const playing = data.frames.map((f, p) => p).filter((p) => data.frames[p].state.phase === 'play' && data.frames[p].state.trick.length > 0);
    await check(label + ': the table says who holds the trick so far, by the game\'s rule', async () => {
      assert.ok(playing.length > 0, 'no step with cards in a trick');
      const single = playing.find((p) => data.frames[p].state.trick.length === 1 && data.cards[data.frames[p].state.trick[0].card].colour !== 'break');
      const several = playing.find((p) => data.frames[p].state.trick.length > 1 && data.frames[p].progress.trick_leader);
      await showMode(page, 'full');
      for (const p of [single, several].filter((x) => x !== undefined)) {
        await goTo(page, p);
        const lead = data.frames[p].progress.trick_leader;
        const trick = data.frames[p].state.trick;
        if (p === single) assert.deepStrictEqual([lead.index, lead.card], [0, data.cards[trick[0].card].name], 'one card played: it holds the trick');
        assert.strictEqual(data.cards[trick[lead.index].card].name, lead.card);
        const node = byTestId(page, 'trick-leader');
        assert.strictEqual(await node.getAttribute('data-card'), lead.card);
        const who = lead.seat === 'dummy' ? 'The Dummy' : 'Seat ' + lead.seat;
        const text = await node.textContent();
        assert.ok(text.includes(lead.card) && text.includes(who), 'the holder\'s text: ' + text);
        assert.deepStrictEqual(await cardsIn(byTestId(page, 'trick').locator('.trick-play.leading')), [lead.card]);
      }
    });
    // A step late in the match for the screenshot: a trick of several cards, most of the chart.
    return playing.filter((p) => data.frames[p].state.trick.length > 1).pop() || playing[0];
  }

  return { checkRunningScore, questPoints, checkTrickLeader };
};
