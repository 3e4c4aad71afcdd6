// The browser checks of Interstellar's web module (referee/games/interstellar/web/viewer.js), for
// viewer_test.js, on a real match that run.sh plays (interstellar.{jsonl,html}): the page is drawn
// by the module (both boards, the line of places, the turn bar); every HP bar equals the view's
// numbers (the full table: each seat's own re-simulated view; a seat's view: the one it was sent);
// a seat's view draws the opponent's hand only as backs (Resource and Main counts as sent) and no
// card of it; the events of the turn and what the last decision did, with the dice, reactions and
// a Cloak's drawn card; a pending attack offers exactly the defender's legal reactions (also on
// interstellar_pay, seed 1, where a targeted UFO cannot pay for its Cloak); no result before the
// last step (viewer_usability_checks.js's spoiler check, and no "game over" box), the winner at the end; the layouts at 1280x800 and 390 px wide, nothing
// outside the page's width; the steps, legal actions and score breakdown as for the other games.
// Screenshot: SHOTS/viewer-interstellar.png. `h` holds viewer_test.js's helpers.
'use strict';

const assert = require('assert');
const path = require('path');

const { check } = require('./checks.js');
const { embeddedData } = require('./page_data.js');

module.exports = function interstellarChecks(h) {
  const { openPage, byTestId, goTo, showMode, readReplay, checkSteps, checkScore, checkLegal, checkSpoilers, checkLayout, dir, shots } = h;

  // The events between the tables at p - 1 and p: what decision p - 1 did.
  function stepEvents(frames, p) {
    const a = frames[p - 1].views[0];
    const b = frames[p].views[0];
    return b.turn === a.turn ? b.events.slice(a.events.length) : b.last_events.slice(a.events.length).concat(b.events);
  }

  async function hpBars(page, seat) {
    const out = {};
    for (const kind of ['character', 'ship', 'reinforcements']) {
      const bar = byTestId(page, 'hp-' + kind + '-' + seat);
      if ((await bar.count()) === 0) continue;
      out[kind] = await bar.evaluate((n) => ({
        hp: Number(n.getAttribute('data-hp')),
        max: Number(n.getAttribute('data-max')),
        text: n.querySelector('.is-hp-text').textContent,
        width: n.querySelector('.is-hp-fill').style.width
      }));
    }
    return out;
  }

  // The HP bars drawn for `seat` are the numbers of player entry `p` of a view.
  async function assertHp(page, seat, p, where) {
    const bars = await hpBars(page, seat);
    const expected = { character: [p.hp, p.max_hp], ship: [p.ship_hp, p.max_ship_hp] };
    if (p.reinforcements) expected.reinforcements = [p.reinforcements.hp, 35];
    assert.deepStrictEqual(Object.keys(bars).sort(), Object.keys(expected).sort(), where + ': the HP bars drawn');
    for (const [kind, [hp, max]] of Object.entries(expected)) {
      const bar = bars[kind];
      assert.strictEqual(bar.hp, hp, where + ': ' + kind + ' HP');
      assert.strictEqual(bar.max, max, where + ': ' + kind + ' max HP');
      assert.ok(bar.text.startsWith(hp + ' / ' + max), where + ': ' + kind + ' says ' + bar.text);
      const width = Math.max(0, Math.min(100, (100 * hp) / max));
      assert.ok(bar.width.endsWith('%') && Math.abs(parseFloat(bar.width) - width) < 0.06, where + ': ' + kind + ' bar width ' + bar.width + ', expected ' + width + '%');
    }
  }

  // The pending attack's line offers exactly the defender's legal reactions (the frame's legal
  // list: what it may pay for), in the full table and in the defender's own view; the attacker's
  // view names none. Returns how many of the positions checked had a reaction the defender could
  // not pay for or use (a Force Field in hand, or its living UFO targeted, without that reaction
  // in the legal list), which the old line offered anyway.
  async function checkReactions(label, file) {
    const frames = embeddedData(file).frames;
    const positions = frames.map((f, p) => p).filter((p) => frames[p].to_act >= 0 && frames[p].views[frames[p].to_act].pending);
    let unpayable = 0;
    await check(label + ': the attack line offers exactly the defender\'s legal reactions at each of ' + positions.length + ' pending attacks', async () => {
      assert.ok(positions.length > 0, 'the match has no pending attack');
      const page = await openPage(file);
      const drawn = async () => byTestId(page, 'reactions').locator('b').evaluateAll((nodes) =>
        nodes.map((b) => b.getAttribute('data-kind') + (b.hasAttribute('data-card') ? '#' + b.getAttribute('data-card') : '')));
      for (const p of positions) {
        const f = frames[p];
        const defender = f.to_act;
        const view = f.views[defender];
        const me = view.players[defender];
        const legal = f.legal.map((a) => a.kind + (a.card === undefined ? '' : '#' + a.card));
        const kinds = f.legal.map((a) => a.kind);
        if (((me.hand || []).some((c) => c.card === 'force_field') && !kinds.includes('force_field')) ||
            (me.ship === 'ufo' && me.ship_hp > 0 && view.pending.target === 'ship' && !kinds.includes('cloak'))) unpayable++;
        await goTo(page, p);
        await showMode(page, 'full');
        assert.deepStrictEqual(await drawn(), legal, 'step ' + p + ', the full table: the reactions offered');
        assert.strictEqual(await byTestId(page, 'reactions').getAttribute('data-count'), String(legal.length));
        await showMode(page, defender);
        assert.deepStrictEqual(await drawn(), legal, 'step ' + p + ', seat ' + defender + '\'s own view: the reactions offered');
        await showMode(page, 1 - defender);
        assert.strictEqual(await byTestId(page, 'reactions').count(), 0, 'step ' + p + ': the attacker\'s view names the defender\'s reactions');
      }
      await page.close();
    });
    return unpayable;
  }

  async function testInterstellar() {
    const file = path.join(dir, 'interstellar.html');
    const replay = readReplay(path.join(dir, 'interstellar.jsonl'));
    const data = embeddedData(file);  // the frames hold every seat's re-simulated view per position
    const frames = data.frames;
    const n = replay.steps.length;
    const page = await openPage(file);

    await check('interstellar: drawn by its module: the turn bar, the line of five places, both boards', async () => {
      assert.strictEqual(await page.locator('body').getAttribute('data-drawing'), 'module');
      assert.strictEqual(await page.locator('body').getAttribute('data-game'), 'interstellar');
      assert.ok((await byTestId(page, 'match-title').textContent()).startsWith('Interstellar'));
      await goTo(page, Math.floor(n / 2));
      await showMode(page, 'full');
      assert.strictEqual(await byTestId(page, 'globals').count(), 1);
      const zones = await byTestId(page, 'line').locator('.is-zone').evaluateAll((nodes) => nodes.map((x) => x.getAttribute('data-zone')));
      assert.deepStrictEqual(zones, ['planets-0', 'orbit-0', 'battlefield', 'orbit-1', 'planets-1']);
      for (const seat of [0, 1]) {
        assert.strictEqual(await byTestId(page, 'seat-' + seat).count(), 1, 'no board for seat ' + seat);
        for (const part of ['board', 'primary', 'elements', 'planets', 'gates', 'hand', 'piles']) {
          assert.strictEqual(await byTestId(page, part + '-' + seat).count(), 1, 'seat ' + seat + ' has no ' + part);
        }
      }
      // Every unit stands where the view says: the ship (with its character aboard) or each alone.
      const view = frames[Math.floor(n / 2)].views[0];
      const units = await byTestId(page, 'line').locator('.is-unit').evaluateAll((nodes) =>
        nodes.map((x) => x.getAttribute('data-seat') + ':' + x.getAttribute('data-unit') + '@' + x.closest('.is-zone').getAttribute('data-zone')));
      const zoneOf = (seat, at) => (at.zone === 'battlefield' ? 'battlefield' : (at.zone === 'orbit' ? 'orbit-' : 'planets-') + seat);
      const expected = [];
      view.players.forEach((p, seat) => {
        const aboard = p.ship_hp > 0 && JSON.stringify(p.ship_at) === JSON.stringify(p.character_at);
        if (p.ship_hp > 0) expected.push(seat + ':ship@' + zoneOf(seat, p.ship_at));
        if (!aboard) expected.push(seat + ':character@' + zoneOf(seat, p.character_at));
      });
      assert.deepStrictEqual(units.slice().sort(), expected.sort());
    });

    await checkSteps('interstellar', page, replay, [0, 1, Math.floor(n / 2), n - 1]);
    await checkLegal('interstellar', page, replay, Math.floor(n / 2));

    await check('interstellar: the HP bars equal the views\' numbers at every step of the full table', async () => {
      await showMode(page, 'full');
      for (let p = 0; p <= n; p++) {
        await goTo(page, p);
        for (const seat of [0, 1]) await assertHp(page, seat, frames[p].views[seat].players[seat], 'step ' + p + ', seat ' + seat);
      }
    });

    // A step where seat 0 decides (its recorded view is the table then) and seat 1 holds cards.
    const k = (() => {
      const ks = replay.steps.map((s, i) => i).filter((i) => replay.steps[i].seat === 0 && frames[i].views[1].players[1].hand.length > 0 && i > 2);
      assert.ok(ks.length > 0, 'no step where seat 0 decides while seat 1 holds cards');
      return ks[Math.floor(ks.length / 2)];
    })();
    await check('interstellar: seat 0\'s view at step ' + k + ' draws seat 1\'s hand as backs only, its own hand and HP as sent', async () => {
      const sent = replay.steps[k].view;
      const hidden = frames[k].views[1].players[1].hand;  // seat 1's real hand then
      await goTo(page, k);
      await showMode(page, 'full');
      assert.deepStrictEqual(await byTestId(page, 'hand-1').locator('[data-card]').evaluateAll((x) => x.map((c) => Number(c.getAttribute('data-card')))),
        hidden.map((c) => c.id), 'the full table does not show seat 1\'s hand');
      await showMode(page, 0);
      assert.strictEqual(await byTestId(page, 'view-source').getAttribute('data-source'), 'recorded');
      assert.strictEqual(await byTestId(page, 'view-source').getAttribute('data-step'), String(k));
      const hand = byTestId(page, 'hand-1');
      assert.strictEqual(await hand.locator('[data-card]').count(), 0, 'a face of seat 1\'s hand is drawn');
      assert.strictEqual(await hand.locator('.card.back').count(), sent.players[1].hand_size);
      assert.strictEqual(await hand.locator('.card.back[data-deck="resource"]').count(), sent.players[1].hand_resource);
      assert.strictEqual(await hand.locator('.card.back[data-deck="main"]').count(), sent.players[1].hand_main);
      const visible = new Set(JSON.stringify(sent).match(/"id":\d+/g));
      const table = byTestId(page, 'table');
      for (const c of hidden) {
        if (visible.has('"id":' + c.id)) continue;  // shown elsewhere (a Cloak's drawn card)
        assert.strictEqual(await table.locator('[data-card="' + c.id + '"], [data-id="' + c.id + '"]').count(), 0, 'card ' + c.id + ' of seat 1\'s hand is drawn');
      }
      assert.deepStrictEqual(await byTestId(page, 'hand-0').locator('[data-card]').evaluateAll((x) => x.map((c) => Number(c.getAttribute('data-card')))),
        sent.players[0].hand.map((c) => c.id), 'seat 0\'s own hand is not the one it was sent');
      for (const seat of [0, 1]) await assertHp(page, seat, sent.players[seat], 'seat 0\'s view, seat ' + seat);
      // The cards face down on seat 1's planets: a count, never a face.
      for (const pl of sent.players[1].planets) {
        const tile = byTestId(page, 'planets-1').locator('.is-planet[data-id="' + pl.id + '"]');
        assert.strictEqual(await tile.getAttribute('data-harvest'), String(pl.harvest_size));
        assert.strictEqual(await tile.locator('.is-chip').count(), 0, 'a face on seat 1\'s planet ' + pl.id);
      }
      await showMode(page, 'full');
    });

    await check('interstellar: the events of the turn and of each decision are drawn in order, with the dice, reactions and a Cloak\'s card', async () => {
      await showMode(page, 'full');
      let rolls = 0;
      let keyEvents = 0;
      for (let p = 1; p <= n; p++) {
        const step = stepEvents(frames, p);
        const turn = frames[p].views[0].events;
        const interesting = step.some((e) => ['roll', 'cloak', 'reaction', 'damage'].includes(e.event));
        if (!interesting && p !== n && p % 10 !== 0) continue;
        await goTo(page, p);
        const kinds = async (id) => byTestId(page, id).locator('li').evaluateAll((x) => x.map((li) => li.getAttribute('data-event')));
        if (turn.length) assert.deepStrictEqual(await kinds('events'), turn.map((e) => e.event), 'step ' + p + ': this turn\'s events');
        if (step.length) {
          assert.deepStrictEqual(await kinds('step-events'), step.map((e) => e.event), 'step ' + p + ': what the last decision did');
        } else {
          assert.strictEqual(await byTestId(page, 'step-events').count(), 0, 'step ' + p + ': events for a decision that made none');
        }
        const list = byTestId(page, 'step-events');
        for (const [i, e] of step.entries()) {
          const li = list.locator('li').nth(i);
          if (e.event === 'roll') {
            assert.strictEqual(await li.locator('.is-dice').getAttribute('data-dice'), e.dice.join(','), 'step ' + p + ': the dice');
            rolls++;
          }
          if (e.event === 'cloak' && e.drawn) {
            assert.strictEqual(await li.locator('.is-chip.revealed').getAttribute('data-id'), String(e.drawn.id), 'step ' + p + ': the Cloak\'s card');
            assert.ok((await li.textContent()).includes(e.base === null ? 'a miss' : 'base ' + e.base), 'step ' + p + ': the Cloak\'s base');
          }
          if (e.event === 'reaction') assert.ok((await li.textContent()).includes(e.reaction === 'cloak' ? 'Defensive Cloak' : 'Force Field'));
          if (e.event === 'damage') assert.ok((await li.textContent()).includes('loses ' + e.amount + ' HP'), 'step ' + p + ': the damage');
          if (['roll', 'cloak', 'reaction', 'damage'].includes(e.event)) keyEvents++;
        }
      }
      assert.ok(keyEvents > 0 && rolls > 0, 'the match has no die roll (' + rolls + ') or no reaction or damage to check');
    });

    await check('interstellar: no "game over" nor winner in the table before the last step; at the end the view\'s winner', async () => {
      await showMode(page, 'full');
      for (const p of [0, Math.floor(n / 2), n - 1]) {
        await goTo(page, p);
        assert.strictEqual(await byTestId(page, 'game-over').count(), 0, 'step ' + p + ': a game-over box');
        const text = await byTestId(page, 'table').textContent();
        for (const words of [' wins', 'takes the match', 'a draw', 'Game over']) assert.ok(!text.includes(words), 'step ' + p + ': the table says "' + words + '"');
      }
      await goTo(page, n);
      const over = byTestId(page, 'game-over');
      assert.strictEqual(await over.count(), 1, 'no game-over box at the end');
      const winner = replay.footer.result.winner;
      assert.strictEqual(await over.getAttribute('data-winner'), winner === null || winner === undefined ? 'none' : String(winner));
    });

    await checkScore('interstellar', page, replay, 2 * 2 + 2 + 2);

    await goTo(page, Math.floor(n / 2));
    await showMode(page, 'full');
    await page.screenshot({ path: path.join(shots, 'viewer-interstellar.png'), fullPage: true });
    await page.close();

    // Reactions: this match and one (seed 1) where the defender's UFO is targeted with no Cloak it can pay for.
    let unpayable = await checkReactions('interstellar', file);
    unpayable += await checkReactions('interstellar seed 1', path.join(dir, 'interstellar_pay.html'));
    await check('interstellar: the reactions checked include one the defender held or could use but not pay for', async () => {
      assert.ok(unpayable > 0, 'no pending attack with a reaction the defender could not pay for');
    });

    await checkSpoilers('spoilers interstellar', file, replay);
    for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      await checkLayout('layout interstellar', file, replay, viewport);
    }
  }

  return { testInterstellar };
};
