/* Stella Quest's drawing in the web viewer (games/stella_quest/web/viewer.js): the module the page
 * of a Stella Quest match embeds after the viewer's core script (referee/render/web/viewer.js,
 * whose top comment is the contract). It draws the trick, the discard pile (trump), each seat's
 * tokens, hand (backs show their colour) and collection, the Dummy of a two-seat game, who holds
 * the trick so far (frames[p].progress, the game's rule applied in C++), says each
 * action in words, and breaks the score down into tokens, jewels and cards flipped face down
 * (docs/games/stella_quest.md). The full state names cards by id (v.cards); a seat's view names
 * faces ("Blue 6", "Break"). */
ArenaViewer.registerGame('stella_quest', function (v) {
  'use strict';

  // The viewer's helpers this drawing uses (viewer.js: the API `v`).
  const { el, area, none, plural, seatLabel, value } = v;
  var cards = v.cards || [];

  var JEWEL = '\u2666';
  var TOKENS = 5;

  function card(id) { return cards[id]; }

  // A view names faces; any card with that face stands for it.
  var byName = {};
  cards.forEach(function (c) { if (!(c.name in byName)) byName[c.name] = c; });
  function face(name) {
    return byName[name] || { name: name, colour: 'break', number: 0, jewels: 0 };
  }

  // ---- the model: the full table and a seat's view in one shape ------------------------------

  function fullModel(shown) {
    var st = shown.state;
    var pub = shown.views[0];
    return {
      full: true,
      seats: st.seats,
      dummy: pub.dummy,
      phase: st.phase,
      to_act: shown.to_act,
      tricks_played: st.tricks,
      max_tricks: pub.max_tricks,
      leader: st.leader,
      marker: pub.marker,
      trump: pub.trump,
      leading_colour: pub.leading_colour,
      trick: st.trick.map(function (t) { return { seat: t.seat, card: card(t.card) }; }),
      winner: pub.winner,
      discard: st.discard.map(card),
      deck_size: st.deck.length,
      deck_top_colour: pub.deck_top_colour,
      deck_top: st.deck.length ? card(st.deck[st.deck.length - 1]) : null,
      end: pub.end,
      players: st.players.map(function (pl, i) {
        return {
          seat: i,
          tokens: pl.tokens,
          hand: pl.hand.map(card),
          hand_size: pl.hand.length,
          hand_colours: pl.hand.map(function (id) { return card(id).colour; }),
          collection: pl.collection.map(card)
        };
      })
    };
  }

  function seatModel(view) {
    return {
      full: false,
      seat: view.seat,
      seats: view.seats,
      dummy: view.dummy,
      phase: view.phase,
      to_act: view.to_act,
      tricks_played: view.tricks_played,
      max_tricks: view.max_tricks,
      leader: view.leader,
      marker: view.marker,
      trump: view.trump,
      leading_colour: view.leading_colour,
      trick: view.trick.map(function (t) { return { seat: t.seat, card: face(t.card) }; }),
      winner: view.winner,
      discard: view.discard.map(face),
      deck_size: view.deck_size,
      deck_top_colour: view.deck_top_colour,
      deck_top: null,
      end: view.end,
      players: view.players.map(function (pl) {
        return {
          seat: pl.seat,
          tokens: pl.tokens,
          hand: pl.hand ? pl.hand.map(face) : null,
          hand_size: pl.hand_size,
          hand_colours: pl.hand_colours,
          collection: pl.collection.map(face)
        };
      })
    };
  }

  // ---- drawing ---------------------------------------------------------------------------

  function cardNode(c, extraClass) {
    var isBreak = c.colour === 'break';
    return el('div', {
      class: 'card colour-' + c.colour + (extraClass ? ' ' + extraClass : ''),
      data: { card: c.name },
      title: isBreak ? 'Break card' : c.name + ', ' + c.jewels + ' jewels'
    },
    el('span', { class: 'num', text: isBreak ? '\u2013' : c.number }),
    el('span', { class: 'name', text: c.name }),
    isBreak ? null : el('span', { class: 'jewels', text: JEWEL.repeat(c.jewels) }));
  }

  // A hand card seen from behind: its colour is public.
  function back(colour) {
    return v.cardBack('a ' + colour + ' card (backs show their colour)', { class: 'colour-' + colour, data: { colour: colour } });
  }

  function tokens(count) {
    var out = [];
    for (var i = 0; i < TOKENS; i++) out.push(el('span', { class: 'token' + (i < count ? ' lit' : '') }));
    return el('span', { class: 'tokens', title: count + ' lit tokens' }, out);
  }

  // Who holds the trick so far, by the game's rule (frames[p].progress.trick_leader, from C++):
  // present while cards are in a trick being played, null when they are all breaks. The trick
  // itself is public, so every view shows it.
  function trickLeader(p, played) {
    var progress = v.frames[p] ? v.frames[p].progress : null;
    if (!played || !progress || !('trick_leader' in progress)) return null;
    var lead = progress.trick_leader;
    if (lead === null) return el('div', { class: 'trick-leader', testid: 'trick-leader', data: { seat: 'none' }, text: 'Nobody holds the trick yet: only breaks.' });
    var cell = el('div', { class: 'trick-leader', testid: 'trick-leader', data: { seat: lead.seat, card: lead.card, index: lead.index } },
      'Holding the trick: ', el('b', { text: v.capitalise(seatLabel(lead.seat)) }), ' with ', el('b', { text: lead.card }),
      lead.super_trump ? ' (a Super Trump)' : '');
    return cell;
  }

  function table(shown) {
    var model = shown.full ? fullModel(shown) : seatModel(shown.view);
    var out = [];
    var top = model.discard.length ? model.discard[model.discard.length - 1] : null;
    out.push(v.globals([
      ['phase', model.phase + (model.end ? ' (' + model.end + ')' : ''), 'phase'],
      ['tricks', model.tricks_played + ' of at most ' + model.max_tricks, 'tricks'],
      ['to act', model.to_act === null ? 'nobody (over)' : seatLabel(model.to_act), 'to_act'],
      ['leader', seatLabel(model.leader), 'leader'],
      ['marker (Black Star)', seatLabel(model.marker), 'marker'],
      ['trump', model.trump || 'none (a break is on top)', 'trump'],
      ['leading colour', model.leading_colour || 'none yet', 'leading_colour'],
      ['deck', plural(model.deck_size, 'card') + (model.deck_top_colour ? ', top card ' + model.deck_top_colour : ''), 'deck'],
      model.winner !== null && model.winner !== undefined ? ['trick won by', seatLabel(model.winner), 'winner'] : null
    ]));
    // A seat's recorded view is the table at its step, which may be before the position drawn.
    var at = shown.full ? shown.position : shown.step;
    var progress = v.frames[at] ? v.frames[at].progress : null;
    var holding = progress && progress.trick_leader ? progress.trick_leader.index : -1;
    var trick = model.trick.map(function (t, i) {
      return el('div', { class: 'trick-play' + (i === holding ? ' leading' : '') },
        el('span', { class: 'slot-label', text: t.seat === 'dummy' ? 'Dummy' : 'seat ' + t.seat }),
        cardNode(t.card));
    });
    out.push(el('div', { class: 'players' },
      area('Current trick', [el('div', { class: 'cards', testid: 'trick' }, trick.length ? trick : none('no card played yet')),
        trickLeader(at, model.trick.length)]),
      area('Discard pile (' + model.discard.length + ')', el('div', { class: 'cards', testid: 'discard' },
        top ? cardNode(top) : none('empty'),
        el('span', { class: 'none', text: top ? 'top card; trump: ' + (model.trump || 'none') : '' }))),
      model.full && model.deck_top ? area('Next deck card (the referee\'s eyes only)',
        el('div', { class: 'cards', testid: 'deck-top' }, cardNode(model.deck_top))) : null));
    var panels = model.players.map(function (pl) {
      var hand;
      if (pl.hand) {
        hand = pl.hand.length ? pl.hand.map(function (c) { return cardNode(c); }) : none('empty');
      } else {
        hand = pl.hand_colours.length ? pl.hand_colours.map(back) : none('empty');
      }
      var numbers = {};
      pl.collection.forEach(function (c) { if (c.number) numbers[c.number] = (numbers[c.number] || 0) + 1; });
      var collection = pl.collection.map(function (c) {
        return cardNode(c, numbers[c.number] > 1 ? 'dup' : '');
      });
      return v.playerPanel(pl.seat, {
        toAct: model.to_act === pl.seat,
        opponent: !model.full && model.seat !== pl.seat,
        badges: [
          tokens(pl.tokens),
          model.marker === pl.seat ? el('span', { class: 'badge marker', text: 'Black Star' }) : null,
          model.leader === pl.seat ? el('span', { class: 'badge', text: 'leader' }) : null
        ]
      }, [
        el('div', { class: 'area' }, el('div', { class: 'area-title', text: 'Tokens: ' + pl.tokens + ' lit' })),
        area('Hand (' + pl.hand_size + ')', el('div', { class: 'cards hand', testid: 'hand-' + pl.seat }, hand)),
        area('Collection (' + pl.collection.length + '; a dashed card repeats a number)',
          el('div', { class: 'cards', testid: 'collection-' + pl.seat }, collection.length ? collection : none('empty')))
      ]);
    });
    if (model.dummy) {
      panels.push(el('div', { class: 'player dummy', testid: 'seat-dummy' },
        el('div', { class: 'player-title' }, 'The Dummy',
          model.marker === 'dummy' ? el('span', { class: 'badge marker', text: 'Black Star' }) : null),
        el('div', { text: 'No hand and no tokens: it plays the top card of the deck' +
          (model.deck_top_colour ? ' (next: a ' + model.deck_top_colour + ' card)' : '') + '.' })));
    }
    out.push(el('div', { class: 'players' }, panels));
    return out;
  }

  function describe(action) {
    switch (action.kind) {
      case 'play': return 'plays ' + action.card;
      case 'draw': return 'darkens a token and draws 3 cards';
      case 'collect': return 'takes ' + action.card + ' into the collection';
      case 'top': return 'puts ' + action.card + ' on top of the discard pile (it sets the next trump)';
      default: return JSON.stringify(action);
    }
  }

  function breakdown(outcome) {
    var o = 'outcome.players.';
    return [
      { label: 'Lit tokens', cell: function (i) { return value(o + i + '.tokens'); } },
      { label: 'Jewels on face-up cards', cell: function (i) { return value(o + i + '.jewels'); } },
      {
        label: 'Flipped face down (numbers repeated)',
        cell: function (i) {
          var list = outcome.players[i].face_down;
          return list.length ? list.join(', ') : '\u2013';
        }
      },
      { label: 'Points', class: 'total', cell: function (i) { return value(o + i + '.points'); } }
    ];
  }

  return {
    table: table,
    progressNote: function (progress, seat) {
      var pl = progress.outcome && progress.outcome.players ? progress.outcome.players[seat] : null;
      return pl ? plural(pl.tokens, 'lit token') + ' + ' + plural(pl.jewels, 'jewel') : null;
    },
    describe: describe,
    breakdown: breakdown,
    resultNotes: function () { return el('p', null, 'Game end: ', value('outcome.end')); },
    meta: function () { return v.seats === 2 ? ['with the Dummy'] : []; }
  };
});
