/* Stellar's drawing in the web viewer (games/stellar/web/viewer.js): the module the page of a
 * Stellar match embeds after the viewer's core script (referee/render/web/viewer.js, whose top
 * comment is the contract). It draws the row, each seat's hand, telescope and notebook, the
 * starters and the keep choice, says each action in words, and breaks the score down by type,
 * section, diversity, satellites and 6/0 cards (docs/games/stellar.md). Cards come from the card
 * table (v.cards, by id): the full state names cards by id, a seat's view as objects. */
ArenaViewer.registerGame('stellar', function (v) {
  'use strict';

  // The viewer's helpers this drawing uses (viewer.js: the API `v`).
  const { el, area, none, plural, seatLabel, cardName, value } = v;

  var TYPES = ['planet', 'moon', 'asteroid', 'cloud', 'black_hole', 'satellite'];
  var TYPE_LABELS = {
    planet: 'Planet', moon: 'Moon', asteroid: 'Asteroid', cloud: 'Cloud',
    black_hole: 'Black Hole', satellite: 'Satellite'
  };
  // Telescope slots 1-12 as (x in half cards, row): the centred pyramid of docs/games/stellar.md.
  var SLOT_XY = [[1, 0], [0, 1], [2, 1], [0, 2], [2, 2], [-1, 3], [1, 3], [3, 3], [-2, 4], [0, 4], [2, 4], [4, 4]];
  var STAR = '\u2605';
  var DIAMOND = '\u25c6';

  function card(id) { return v.cards[id]; }

  // ---- the model: the full table and a seat's view in one shape ------------------------------

  // The full table: the referee's state (every card by id) with the public fields of a view.
  function fullModel(shown) {
    var st = shown.state;
    var pub = shown.views[0];
    return {
      full: true,
      phase: st.phase,
      round: pub.round,
      turn: st.turn,
      start_player: pub.start_player,
      to_act: shown.to_act,
      row: st.row.map(function (id) { return id === null ? null : card(id); }),
      deck_size: st.deck.length,
      discard: st.discard.map(card),
      refresh_available: st.refresh_pending,
      placing: st.placing === null ? null : card(st.placing),
      last_step3_slot: st.last_step3_slot,
      players: st.players.map(function (pl, i) {
        return {
          seat: i,
          hand: pl.hand.map(card),
          hand_size: pl.hand.length,
          telescope: pl.telescope.map(function (s) {
            return s === null ? null : { face: s.face_up ? 'up' : 'down', card: card(s.card), seen: s.seen };
          }),
          notebook: pl.notebook.map(card),
          starters: st.phase === 'choose_starter' ? pl.starters.map(card) : null,
          starter_choice: pl.starter_choice,
          starter_chosen: pl.starter_choice !== null,
          keep_choice: pl.keep_choice,
          keep_chosen: pl.keep_choice !== null
        };
      })
    };
  }

  // One seat's view, as the bot received it (cards are already objects).
  function seatModel(view) {
    return {
      full: false,
      seat: view.seat,
      phase: view.phase,
      round: view.round,
      turn: view.turn,
      start_player: view.start_player,
      to_act: view.to_act,
      row: view.row,
      deck_size: view.deck_size,
      discard: view.discard,
      refresh_available: view.refresh_available,
      placing: view.placing,
      last_step3_slot: view.last_step3_slot,
      players: view.players.map(function (pl) {
        return {
          seat: pl.seat,
          hand: pl.hand || null,
          hand_size: pl.hand_size,
          telescope: pl.telescope,
          notebook: pl.notebook,
          starters: pl.starters || null,
          starter_choice: pl.starter_choice === undefined ? null : pl.starter_choice,
          starter_chosen: pl.starter_chosen,
          keep_choice: pl.keep_choice === undefined ? null : pl.keep_choice,
          keep_chosen: pl.keep_chosen
        };
      })
    };
  }

  // ---- drawing ---------------------------------------------------------------------------

  function cardNode(c, facedown, title) {
    return el('div', {
      class: 'card type-' + c.type + (facedown ? ' facedown' : ''),
      data: { card: c.id },
      title: title || (c.name + ' (' + (c.stars || 0) + ' stars' + (c.starter ? ', starter' : '') + ')')
    },
    el('span', { class: 'num', text: c.number }),
    el('span', { class: 'name', text: c.name }),
    c.stars ? el('span', { class: 'stars', text: STAR.repeat(c.stars) }) : null,
    c.starter ? el('span', { class: 'starter', text: DIAMOND, title: 'starter' }) : null);
  }

  function telescope(pl, model) {
    var slots = pl.telescope.map(function (entry, i) {
      var slot = i + 1;
      var xy = SLOT_XY[i];
      var section = slot <= 5 ? 'top' : slot <= 8 ? 'middle' : 'bottom';
      var content;
      if (entry === null) {
        content = v.emptySlot(String(slot));
      } else if (entry.face === 'up') {
        content = cardNode(entry.card, false);
      } else if (entry.card) {
        var who = model.full ? (entry.seen ? 'face down, seen by its owner\'s opponent' : 'face down')
                             : 'face down (this seat may see it)';
        content = cardNode(entry.card, true, entry.card.name + ', ' + who);
      } else {
        content = v.cardBack('face down, unseen');
      }
      var node = el('div', { class: 'tslot section-' + section, data: { slot: slot } },
        content,
        entry === null ? null : el('span', { class: 'slot-no', text: slot }));
      node.style.left = 'calc(var(--half) * ' + (xy[0] + 2) + ')';
      node.style.top = 'calc(var(--row-h) * ' + xy[1] + ')';
      return node;
    });
    return area('Telescope (slots 1-5 top, 6-8 middle, 9-12 bottom)',
      el('div', { class: 'telescope', testid: 'telescope-' + pl.seat }, slots));
  }

  function notebook(pl) {
    var stacks = {};
    pl.notebook.forEach(function (c) { (stacks[c.type] = stacks[c.type] || []).push(c); });
    var order = function (c) { return c.number === '6/0' ? 6 : c.number; };
    var columns = TYPES.filter(function (t) { return stacks[t]; }).map(function (t) {
      var list = stacks[t].slice().sort(function (a, b) { return order(a) - order(b) || a.id - b.id; });
      return el('div', { class: 'stack', data: { type: t } },
        el('span', { class: 'stack-title', text: TYPE_LABELS[t] + ' (' + list.length + ')' }),
        list.map(function (c) { return cardNode(c, false); }));
    });
    return area('Notebook (' + plural(pl.notebook.length, 'card') + ')',
      el('div', { class: 'notebook', testid: 'notebook-' + pl.seat }, columns.length ? columns : none('empty')));
  }

  function hand(pl, model) {
    var body;
    if (pl.hand) {
      body = pl.hand.length ? pl.hand.map(function (c) {
        var node = cardNode(c, false);
        if (model.phase === 'keep' && pl.keep_choice === c.id) node.classList.add('highlight');
        return node;
      }) : none('empty');
    } else {
      var backs = [];
      for (var i = 0; i < pl.hand_size; i++) backs.push(v.cardBack('a card in an opponent\'s hand'));
      body = backs.length ? backs : none('empty');
    }
    return area('Hand (' + pl.hand_size + ')', el('div', { class: 'cards hand', testid: 'hand-' + pl.seat }, body));
  }

  function choices(pl, model) {
    var out = [];
    if (model.phase === 'choose_starter') {
      if (pl.starters) {
        out.push(area('Starters (one goes to telescope slot 1, the other to the notebook)',
          el('div', { class: 'cards', testid: 'starters-' + pl.seat }, pl.starters.map(function (c) {
            var node = cardNode(c, false);
            if (pl.starter_choice === c.id) node.classList.add('highlight');
            return node;
          }))));
      } else {
        out.push(area('Starters', el('div', { class: 'cards', testid: 'starters-' + pl.seat },
          v.cardBack('hidden starter'), v.cardBack('hidden starter'))));
      }
      out.push(el('div', { text: pl.starter_chosen ? 'starter chosen' + (pl.starter_choice !== null && (model.full || pl.hand) ? ': ' + cardName(pl.starter_choice) : ' (hidden)') : 'starter not chosen yet' }));
    }
    if (model.phase === 'keep') {
      out.push(el('div', { text: pl.keep_chosen ? 'kept for the notebook' + (pl.keep_choice !== null && (model.full || pl.hand) ? ': ' + cardName(pl.keep_choice) : ' (hidden)') : 'has not chosen the card to keep yet' }));
    }
    return out;
  }

  function table(shown) {
    var model = shown.full ? fullModel(shown) : seatModel(shown.view);
    var out = [];
    out.push(v.globals([
      ['phase', model.phase, 'phase'],
      ['round', model.round + ' of 11', 'round'],
      ['start player', model.start_player === null ? 'not drawn yet' : seatLabel(model.start_player), 'start_player'],
      ['to act', model.to_act === null ? 'nobody (over)' : seatLabel(model.to_act), 'to_act'],
      ['deck', plural(model.deck_size, 'card'), 'deck_size'],
      ['discard', plural(model.discard.length, 'card') + (model.discard.length ? ', top ' + model.discard[model.discard.length - 1].name : ''), 'discard'],
      model.refresh_available ? ['refresh', 'available to the player to act', 'refresh'] : null,
      model.last_step3_slot !== null && model.last_step3_slot !== undefined ? ['last step-3 slot', model.last_step3_slot, 'last_step3_slot'] : null
    ]));
    var row = model.row.map(function (c, i) {
      return el('div', { class: 'slot-wrap', data: { slot: i + 1 } },
        el('span', { class: 'slot-label', text: 'slot ' + (i + 1) }),
        c ? cardNode(c, false) : v.emptySlot(String(i + 1)));
    });
    var rowArea = [el('div', { class: 'cards', testid: 'row' }, row)];
    if (model.placing) {
      rowArea.push(el('div', { class: 'area' }, el('div', { class: 'area-title', text: 'Card being placed (step 3)' }),
        el('div', { class: 'cards', testid: 'placing' }, cardNode(model.placing, false))));
    }
    out.push(area('Row', rowArea));
    out.push(el('div', { class: 'players' }, model.players.map(function (pl) {
      return v.playerPanel(pl.seat, {
        toAct: model.to_act === pl.seat,
        opponent: !model.full && model.seat !== pl.seat,
        badges: model.start_player === pl.seat ? el('span', { class: 'badge', text: 'start player' }) : null
      }, [
        hand(pl, model),
        choices(pl, model),
        el('div', { class: 'player-body' }, telescope(pl, model), notebook(pl))
      ]);
    })));
    return out;
  }

  function describe(action, p) {
    var st = v.frames[p].state;
    switch (action.kind) {
      case 'choose_starter':
        return 'chooses ' + cardName(action.card) + ' for telescope slot 1 (the other starter goes to the notebook)';
      case 'refresh':
        return action.accept ? 'refreshes the row (the five row cards are discarded and replaced)' : 'declines to refresh the row';
      case 'take': {
        var id = st.row[action.slot - 1];
        return 'takes row slot ' + action.slot + (id === null || id === undefined ? '' : ' (' + cardName(id) + ')');
      }
      case 'play':
        return action.area === 'notebook'
          ? 'plays ' + cardName(action.card) + ' to the notebook'
          : 'plays ' + cardName(action.card) + ' to telescope slot ' + action.slot + ', face ' + action.face;
      case 'place':
        return 'places ' + (st.placing === null ? 'the row card' : cardName(st.placing)) + ' in telescope slot ' + action.slot + ', face ' + action.face;
      case 'keep':
        return 'keeps ' + cardName(action.card) + ' for the notebook (the other card is discarded)';
      default:
        return JSON.stringify(action);
    }
  }

  // ---- the score breakdown ---------------------------------------------------------------

  function breakdown(outcome) {
    var rows = [];
    var o = 'outcome.players.';
    ['planet', 'moon', 'asteroid', 'cloud', 'black_hole'].forEach(function (t) {
      rows.push({
        label: TYPE_LABELS[t] + ': stars \u00d7 run',
        cell: function (i) {
          var p = o + i + '.types.' + t;
          var stack = outcome.players[i].types[t].stack || [];
          return [value(p + '.stars'), STAR + ' \u00d7 ', value(p + '.run'), ' = ', value(p + '.points'),
            el('div', { class: 'none', text: 'stack ' + (stack.length ? stack.join(' ') : '(empty)') })];
        }
      });
    });
    rows.push({ label: 'Types', class: 'subtotal', cell: function (i) { return value(o + i + '.type_points'); } });
    ['top', 'middle', 'bottom'].forEach(function (sec) {
      rows.push({
        label: v.capitalise(sec) + ' section: sum \u2192 points',
        cell: function (i) { return [value(o + i + '.sections.' + sec + '.sum'), ' \u2192 ', value(o + i + '.sections.' + sec + '.points')]; }
      });
    });
    rows.push({ label: 'Sections', class: 'subtotal', cell: function (i) { return value(o + i + '.section_points'); } });
    rows.push({ label: 'Diversity', cell: function (i) { return value(o + i + '.diversity'); } });
    rows.push({
      label: 'Satellites (stack)',
      cell: function (i) {
        var sats = outcome.players[i].satellites;
        return sats.length ? sats.map(function (s) {
          return el('div', { text: cardName(s.card) + ' \u2192 ' + (s.stack ? TYPE_LABELS[s.stack] || s.stack : 'no stack') });
        }) : '\u2013';
      }
    });
    rows.push({
      label: '6/0 cards (value)',
      cell: function (i) {
        var six = outcome.players[i].six_zero;
        return six.length ? six.map(function (s, k) {
          return el('div', null, cardName(s.card) + ' = ', value(o + i + '.six_zero.' + k + '.value'));
        }) : '\u2013';
      }
    });
    rows.push({ label: 'Total', class: 'total', cell: function (i) { return value(o + i + '.total'); } });
    return rows;
  }

  return {
    table: table,
    progressNote: function (progress, seat) {
      var pl = progress.outcome && progress.outcome.players ? progress.outcome.players[seat] : null;
      return pl ? 'types ' + pl.type_points + ' \u00b7 sections ' + pl.section_points + ' \u00b7 diversity ' + pl.diversity : null;
    },
    describe: describe,
    breakdown: breakdown,
    resultNotes: function () { return null; },  // the breakdown says it all
    meta: function () { return []; }
  };
});
