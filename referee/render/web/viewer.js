/* The web viewer's script (referee/render/web/viewer.js), inlined into every page that
 * `referee html` writes. Plain ES2017, no libraries, no network: it reads the match from the
 * <script type="application/json" id="match-data"> element and draws it. Every piece of text
 * from the replay is set with textContent, never parsed as HTML.
 *
 * Positions: the slider runs from 0 to the number of decisions. Position p shows frames[p], the
 * table after p decisions; while p is below the end, steps[p] is the decision taken from that
 * table (who acted, the action, its time, the bot's debug text). The last position is the table
 * at the end, with the fault if the match ended with one. */
(function () {
  'use strict';

  var data = JSON.parse(document.getElementById('match-data').textContent);
  if (data.format !== 1) throw new Error('match data format ' + data.format + ' is not supported by this page');

  var header = data.header;
  var steps = data.steps;
  var frames = data.frames;
  var cards = data.cards;
  var footer = data.footer;
  var result = footer ? footer.result : null;
  var fault = result && result.fault ? result.fault : null;
  var game = header.game;
  var seats = header.seats;
  var last = steps.length;

  var GAME_TITLES = { stellar: 'Stellar', stella_quest: 'Stella Quest' };
  var STELLAR_TYPES = ['planet', 'moon', 'asteroid', 'cloud', 'black_hole', 'satellite'];
  var TYPE_LABELS = {
    planet: 'Planet', moon: 'Moon', asteroid: 'Asteroid', cloud: 'Cloud',
    black_hole: 'Black Hole', satellite: 'Satellite'
  };
  // Telescope slots 1-12 as (x in half cards, row): the centred pyramid of docs/games/stellar.md.
  var SLOT_XY = [[1, 0], [0, 1], [2, 1], [0, 2], [2, 2], [-1, 3], [1, 3], [3, 3], [-2, 4], [0, 4], [2, 4], [4, 4]];
  var STAR = '\u2605';
  var DIAMOND = '\u25c6';
  var JEWEL = '\u2666';

  var pos = 0;
  var mode = 'full';  // 'full', or the number of the seat whose view is drawn
  var timer = null;

  // ---- DOM helpers -------------------------------------------------------------------------

  function append(node, child) {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) {
      child.forEach(function (c) { append(node, c); });
      return;
    }
    node.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }

  // el('div', {class, text, testid, data: {...}, title, ...}, children...)
  function el(tag, props) {
    var node = document.createElement(tag);
    if (props) {
      Object.keys(props).forEach(function (key) {
        var value = props[key];
        if (value === undefined || value === null || value === false) return;
        if (key === 'class') node.className = value;
        else if (key === 'text') node.textContent = String(value);
        else if (key === 'testid') node.setAttribute('data-testid', value);
        else if (key === 'data') {
          Object.keys(value).forEach(function (d) {
            if (value[d] !== undefined && value[d] !== null) node.setAttribute('data-' + d, String(value[d]));
          });
        } else node.setAttribute(key, String(value));
      });
    }
    for (var i = 2; i < arguments.length; i++) append(node, arguments[i]);
    return node;
  }

  function byId(id) { return document.getElementById(id); }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  // ---- names -------------------------------------------------------------------------------

  function botName(seat) {
    var b = header.bots[seat];
    return b && b.name ? b.name : '?';
  }

  function seatLabel(seat) {
    if (seat === 'dummy') return 'the Dummy';
    if (seat === null || seat === undefined || seat < 0) return 'nobody';
    return 'seat ' + seat + ' (' + botName(seat) + ')';
  }

  function cardName(id) {
    return cards[id] ? cards[id].name : 'card ' + id;
  }

  // Stella Quest views name faces ("Blue 6", "Break"); any card with that face stands for it.
  var cardsByName = {};
  cards.forEach(function (c) { if (!(c.name in cardsByName)) cardsByName[c.name] = c; });
  function questCard(name) {
    return cardsByName[name] || { name: name, colour: 'break', number: 0, jewels: 0 };
  }

  function formatMs(ms) {
    if (typeof ms !== 'number') return '';
    return (ms < 10 ? ms.toFixed(3) : ms < 1000 ? ms.toFixed(1) : ms.toFixed(0)) + ' ms';
  }

  function plural(n, word) { return n + ' ' + word + (n === 1 ? '' : 's'); }

  function capitalise(s) { return s ? s.charAt(0).toUpperCase() + s.slice(1) : s; }

  // ---- cards -------------------------------------------------------------------------------

  function stellarCard(card, facedown, title) {
    return el('div', {
      class: 'card type-' + card.type + (facedown ? ' facedown' : ''),
      data: { card: card.id },
      title: title || (card.name + ' (' + (card.stars || 0) + ' stars' + (card.starter ? ', starter' : '') + ')')
    },
    el('span', { class: 'num', text: card.number }),
    el('span', { class: 'name', text: card.name }),
    card.stars ? el('span', { class: 'stars', text: STAR.repeat(card.stars) }) : null,
    card.starter ? el('span', { class: 'starter', text: DIAMOND, title: 'starter' }) : null);
  }

  function questCardNode(card, extraClass) {
    var isBreak = card.colour === 'break';
    return el('div', {
      class: 'card colour-' + card.colour + (extraClass ? ' ' + extraClass : ''),
      data: { card: card.name },
      title: isBreak ? 'Break card' : card.name + ', ' + card.jewels + ' jewels'
    },
    el('span', { class: 'num', text: isBreak ? '\u2013' : card.number }),
    el('span', { class: 'name', text: card.name }),
    isBreak ? null : el('span', { class: 'jewels', text: JEWEL.repeat(card.jewels) }));
  }

  // A card whose face this view cannot see; Stella Quest backs show their colour (public).
  function cardBack(colour, title) {
    return el('div', {
      class: 'card back' + (colour ? ' colour-' + colour : ''),
      data: { colour: colour },
      title: title || 'a hidden card'
    }, el('span', { class: 'name', text: '?' }));
  }

  function emptySlot(label) {
    return el('div', { class: 'empty-slot', text: label });
  }

  function none(textValue) { return el('span', { class: 'none', text: textValue }); }

  function area(title, body, props) {
    var attrs = props || {};
    attrs.class = 'area' + (attrs.class ? ' ' + attrs.class : '');
    return el('div', attrs, el('div', { class: 'area-title', text: title }), body);
  }

  function globals(items) {
    return el('div', { class: 'globals', testid: 'globals' }, items.filter(Boolean).map(function (it) {
      return el('span', { class: 'item', data: { key: it[2] } }, el('span', { class: 'label', text: it[0] + ': ' }), it[1]);
    }));
  }

  function playerPanel(seat, model, extraBadges, body) {
    var faulted = pos === last && fault && fault.seat === seat;
    var toAct = model.to_act === seat;
    return el('div', {
      class: 'player' + (toAct ? ' to-act' : '') + (faulted ? ' faulted' : ''),
      testid: 'seat-' + seat,
      data: { seat: seat }
    },
    el('div', { class: 'player-title' },
      'Seat ' + seat + ' \u00b7 ' + botName(seat),
      toAct ? el('span', { class: 'badge turn', text: 'to act' }) : null,
      extraBadges,
      faulted ? el('span', { class: 'badge fault', text: 'fault: ' + fault.kind }) : null,
      model.full || model.seat === seat ? null : el('span', { class: 'badge', text: 'opponent' })),
    body);
  }

  // ---- Stellar -----------------------------------------------------------------------------

  // The full table: the referee's state (every card by id) with the public fields of a view.
  function stellarFull(p) {
    var f = frames[p];
    var st = f.state;
    var pub = f.views[0];
    var card = function (id) { return cards[id]; };
    return {
      full: true,
      phase: st.phase,
      round: pub.round,
      turn: st.turn,
      start_player: pub.start_player,
      to_act: f.to_act < 0 ? null : f.to_act,
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
  function stellarSeat(view) {
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

  function stellarTelescope(pl, model) {
    var slots = pl.telescope.map(function (entry, i) {
      var slot = i + 1;
      var xy = SLOT_XY[i];
      var section = slot <= 5 ? 'top' : slot <= 8 ? 'middle' : 'bottom';
      var content;
      if (entry === null) {
        content = emptySlot(String(slot));
      } else if (entry.face === 'up') {
        content = stellarCard(entry.card, false);
      } else if (entry.card) {
        var who = model.full ? (entry.seen ? 'face down, seen by its owner\'s opponent' : 'face down')
                             : 'face down (this seat may see it)';
        content = stellarCard(entry.card, true, entry.card.name + ', ' + who);
      } else {
        content = cardBack(null, 'face down, unseen');
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

  function stellarNotebook(pl) {
    var stacks = {};
    pl.notebook.forEach(function (c) { (stacks[c.type] = stacks[c.type] || []).push(c); });
    var order = function (c) { return c.number === '6/0' ? 6 : c.number; };
    var columns = STELLAR_TYPES.filter(function (t) { return stacks[t]; }).map(function (t) {
      var list = stacks[t].slice().sort(function (a, b) { return order(a) - order(b) || a.id - b.id; });
      return el('div', { class: 'stack', data: { type: t } },
        el('span', { class: 'stack-title', text: TYPE_LABELS[t] + ' (' + list.length + ')' }),
        list.map(function (c) { return stellarCard(c, false); }));
    });
    return area('Notebook (' + plural(pl.notebook.length, 'card') + ')',
      el('div', { class: 'notebook', testid: 'notebook-' + pl.seat }, columns.length ? columns : none('empty')));
  }

  function stellarHand(pl, model) {
    var body;
    if (pl.hand) {
      body = pl.hand.length ? pl.hand.map(function (c) {
        var chosen = model.phase === 'keep' && pl.keep_choice === c.id;
        var node = stellarCard(c, false);
        if (chosen) node.classList.add('highlight');
        return node;
      }) : none('empty');
    } else {
      var backs = [];
      for (var i = 0; i < pl.hand_size; i++) backs.push(cardBack(null, 'a card in an opponent\'s hand'));
      body = backs.length ? backs : none('empty');
    }
    return area('Hand (' + pl.hand_size + ')', el('div', { class: 'cards hand', testid: 'hand-' + pl.seat }, body));
  }

  function stellarChoices(pl, model) {
    var out = [];
    if (model.phase === 'choose_starter') {
      if (pl.starters) {
        out.push(area('Starters (one goes to telescope slot 1, the other to the notebook)',
          el('div', { class: 'cards', testid: 'starters-' + pl.seat }, pl.starters.map(function (c) {
            var node = stellarCard(c, false);
            if (pl.starter_choice === c.id) node.classList.add('highlight');
            return node;
          }))));
      } else {
        out.push(area('Starters', el('div', { class: 'cards', testid: 'starters-' + pl.seat },
          cardBack(null, 'hidden starter'), cardBack(null, 'hidden starter'))));
      }
      out.push(el('div', { text: pl.starter_chosen ? 'starter chosen' + (pl.starter_choice !== null && (model.full || pl.hand) ? ': ' + cardName(pl.starter_choice) : ' (hidden)') : 'starter not chosen yet' }));
    }
    if (model.phase === 'keep') {
      out.push(el('div', { text: pl.keep_chosen ? 'kept for the notebook' + (pl.keep_choice !== null && (model.full || pl.hand) ? ': ' + cardName(pl.keep_choice) : ' (hidden)') : 'has not chosen the card to keep yet' }));
    }
    return out;
  }

  function drawStellar(model) {
    var table = [];
    table.push(globals([
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
        c ? stellarCard(c, false) : emptySlot(String(i + 1)));
    });
    var rowArea = [el('div', { class: 'cards', testid: 'row' }, row)];
    if (model.placing) {
      rowArea.push(el('div', { class: 'area' }, el('div', { class: 'area-title', text: 'Card being placed (step 3)' }),
        el('div', { class: 'cards', testid: 'placing' }, stellarCard(model.placing, false))));
    }
    table.push(area('Row', rowArea));
    table.push(el('div', { class: 'players' }, model.players.map(function (pl) {
      var badges = model.start_player === pl.seat ? el('span', { class: 'badge', text: 'start player' }) : null;
      return playerPanel(pl.seat, model, badges, [
        stellarHand(pl, model),
        stellarChoices(pl, model),
        el('div', { class: 'player-body' }, stellarTelescope(pl, model), stellarNotebook(pl))
      ]);
    })));
    return table;
  }

  function describeStellar(action, p) {
    var st = frames[p].state;
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

  // ---- Stella Quest ------------------------------------------------------------------------

  function questFull(p) {
    var f = frames[p];
    var st = f.state;
    var pub = f.views[0];
    var card = function (id) { return cards[id]; };
    return {
      full: true,
      seats: st.seats,
      dummy: pub.dummy,
      phase: st.phase,
      to_act: f.to_act < 0 ? null : f.to_act,
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
          hand_colours: pl.hand.map(function (id) { return cards[id].colour; }),
          collection: pl.collection.map(card)
        };
      })
    };
  }

  function questSeat(view) {
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
      trick: view.trick.map(function (t) { return { seat: t.seat, card: questCard(t.card) }; }),
      winner: view.winner,
      discard: view.discard.map(questCard),
      deck_size: view.deck_size,
      deck_top_colour: view.deck_top_colour,
      deck_top: null,
      end: view.end,
      players: view.players.map(function (pl) {
        return {
          seat: pl.seat,
          tokens: pl.tokens,
          hand: pl.hand ? pl.hand.map(questCard) : null,
          hand_size: pl.hand_size,
          hand_colours: pl.hand_colours,
          collection: pl.collection.map(questCard)
        };
      })
    };
  }

  function tokens(count) {
    var out = [];
    for (var i = 0; i < 5; i++) out.push(el('span', { class: 'token' + (i < count ? ' lit' : '') }));
    return el('span', { class: 'tokens', title: count + ' lit tokens' }, out);
  }

  function drawQuest(model) {
    var table = [];
    var top = model.discard.length ? model.discard[model.discard.length - 1] : null;
    table.push(globals([
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
    var trick = model.trick.map(function (t) {
      return el('div', { class: 'trick-play' },
        el('span', { class: 'slot-label', text: t.seat === 'dummy' ? 'Dummy' : 'seat ' + t.seat }),
        questCardNode(t.card));
    });
    var middle = el('div', { class: 'players' },
      area('Current trick', el('div', { class: 'cards', testid: 'trick' }, trick.length ? trick : none('no card played yet'))),
      area('Discard pile (' + model.discard.length + ')', el('div', { class: 'cards', testid: 'discard' },
        top ? questCardNode(top) : none('empty'),
        el('span', { class: 'none', text: top ? 'top card; trump: ' + (model.trump || 'none') : '' }))),
      model.full && model.deck_top ? area('Next deck card (the referee\'s eyes only)',
        el('div', { class: 'cards', testid: 'deck-top' }, questCardNode(model.deck_top))) : null);
    table.push(middle);
    var panels = model.players.map(function (pl) {
      var badges = [
        tokens(pl.tokens),
        model.marker === pl.seat ? el('span', { class: 'badge marker', text: 'Black Star' }) : null,
        model.leader === pl.seat ? el('span', { class: 'badge', text: 'leader' }) : null
      ];
      var hand;
      if (pl.hand) {
        hand = pl.hand.length ? pl.hand.map(function (c) { return questCardNode(c); }) : none('empty');
      } else {
        hand = pl.hand_colours.length ? pl.hand_colours.map(function (colour) {
          return cardBack(colour, 'a ' + colour + ' card (backs show their colour)');
        }) : none('empty');
      }
      var numbers = {};
      pl.collection.forEach(function (c) { if (c.number) numbers[c.number] = (numbers[c.number] || 0) + 1; });
      var collection = pl.collection.map(function (c) {
        return questCardNode(c, numbers[c.number] > 1 ? 'dup' : '');
      });
      return playerPanel(pl.seat, model, badges, [
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
    table.push(el('div', { class: 'players' }, panels));
    return table;
  }

  function describeQuest(action) {
    switch (action.kind) {
      case 'play': return 'plays ' + action.card;
      case 'draw': return 'darkens a token and draws 3 cards';
      case 'collect': return 'takes ' + action.card + ' into the collection';
      case 'top': return 'puts ' + action.card + ' on top of the discard pile (it sets the next trump)';
      default: return JSON.stringify(action);
    }
  }

  // ---- what is drawn at a position ---------------------------------------------------------

  // The view a seat's bot was sent: its last decision at or before position p, else the view
  // re-simulated from the replay (the bot has not been asked anything yet).
  function seatView(p, seat) {
    for (var k = Math.min(p, last - 1); k >= 0; k--) {
      if (steps[k].seat === seat && steps[k].view) return { source: 'recorded', step: k, view: steps[k].view };
    }
    return { source: 'resimulated', step: p, view: frames[p].views[seat] };
  }

  function currentModel() {
    if (mode === 'full') {
      return { source: 'full', json: frames[pos].state, model: game === 'stellar' ? stellarFull(pos) : questFull(pos) };
    }
    var sv = seatView(pos, mode);
    return {
      source: sv.source,
      step: sv.step,
      json: sv.view,
      model: game === 'stellar' ? stellarSeat(sv.view) : questSeat(sv.view)
    };
  }

  function describeSource(m) {
    var node = byId('view-source');
    node.setAttribute('data-source', m.source);
    if (m.source === 'full') {
      node.removeAttribute('data-step');
      node.textContent = 'Full table: the referee\'s state, every hand and face-down card included (no bot sees this).';
      return;
    }
    node.setAttribute('data-step', String(m.step));
    if (m.source === 'recorded') {
      node.textContent = 'Seat ' + mode + ' (' + botName(mode) + '), recorded: exactly the view this bot was sent for step ' +
        m.step + (m.step === pos ? ' (this step)' : ', its last decision before this step (' + plural(pos - m.step, 'step') + ' ago)') + '.';
    } else {
      node.textContent = 'Seat ' + mode + ' (' + botName(mode) + '), re-simulated: this bot has not been asked for a decision yet; ' +
        'this is what it may see at this step, re-simulated from the replay.';
    }
  }

  function drawStep() {
    var turn = byId('turn');
    var action = byId('action');
    var actionJson = byId('action-json');
    var time = byId('time');
    var debug = byId('debug');
    action.classList.remove('fault');
    if (pos < last) {
      var s = steps[pos];
      turn.textContent = 'Replay step ' + s.n + ' (request ' + s.request_id + '), decision ' + (pos + 1) + ' of ' + last + ': ' +
        seatLabel(s.seat) + ' to act';
      action.textContent = capitalise(seatLabel(s.seat)) + ' ' + (game === 'stellar' ? describeStellar(s.action, pos) : describeQuest(s.action));
      action.setAttribute('data-seat', String(s.seat));
      actionJson.textContent = JSON.stringify(s.action);
      time.textContent = 'took ' + formatMs(s.time_ms);
      time.setAttribute('data-ms', String(s.time_ms));
      var text = s.debug || '';
      debug.textContent = text || '(none)';
      debug.classList.toggle('empty', !text);
      return;
    }
    action.removeAttribute('data-seat');
    actionJson.textContent = '\u2013 (no decision at the end)';
    time.textContent = '';
    time.removeAttribute('data-ms');
    debug.textContent = '(none)';
    debug.classList.add('empty');
    if (fault) {
      turn.textContent = 'End of the match after ' + last + ' decisions: ' + seatLabel(fault.seat) + ' faulted at request ' + fault.request_id;
      action.textContent = 'Fault (' + fault.kind + '): ' + seatLabel(fault.seat) + ' forfeits: ' + fault.message;
      action.classList.add('fault');
      action.setAttribute('data-seat', String(fault.seat));
    } else if (!footer) {
      turn.textContent = 'The replay stops after ' + last + ' decisions (no footer: the referee was stopped mid-match)';
      action.textContent = 'No further decision recorded';
    } else {
      turn.textContent = 'End of the match after ' + last + ' decisions (' + footer.end + ')';
      action.textContent = winnerText();
    }
  }

  function winnerText() {
    if (!result) return 'no result';
    if (result.winner !== null && result.winner !== undefined) return capitalise(seatLabel(result.winner)) + ' wins';
    if (footer.end === 'finished') return 'A draw (shared first place)';
    return 'No winner (' + footer.end + ')';
  }

  function draw() {
    byId('step-counter').textContent = 'Step ' + pos + ' / ' + last;
    byId('step-counter').setAttribute('data-position', String(pos));
    byId('slider').value = String(pos);
    byId('prev').disabled = pos === 0;
    byId('first').disabled = pos === 0;
    byId('next').disabled = pos === last;
    byId('last').disabled = pos === last;
    drawStep();
    var m = currentModel();
    describeSource(m);
    var table = clear(byId('table'));
    table.setAttribute('data-mode', String(mode));
    append(table, game === 'stellar' ? drawStellar(m.model) : drawQuest(m.model));
    if (byId('raw').open) byId('raw-json').textContent = JSON.stringify(m.json, null, 1);
  }

  // ---- result and score breakdown ----------------------------------------------------------

  // A number from the footer, tagged with its path under footer.result (the test reads these).
  function value(path) {
    var v = path.split('.').reduce(function (o, k) { return o === null || o === undefined ? undefined : o[k]; }, result);
    return el('span', { data: { key: path }, text: v === undefined || v === null ? '\u2013' : v });
  }

  function scoreTable(rows) {
    var head = el('tr', null, el('th', { text: '' }), header.bots.map(function (b, i) {
      return el('th', { text: 'seat ' + i + ' ' + botName(i) });
    }));
    return el('table', { class: 'score' }, el('thead', null, head), el('tbody', null, rows.map(function (r) {
      return el('tr', { class: r.class || '' }, el('td', { text: r.label }), header.bots.map(function (b, i) {
        return el('td', { data: { seat: i } }, r.cell(i));
      }));
    })));
  }

  function stellarBreakdown() {
    var rows = [];
    var o = 'outcome.players.';
    ['planet', 'moon', 'asteroid', 'cloud', 'black_hole'].forEach(function (t) {
      rows.push({
        label: TYPE_LABELS[t] + ': stars \u00d7 run',
        cell: function (i) {
          var p = o + i + '.types.' + t;
          var stack = result.outcome.players[i].types[t].stack || [];
          return [value(p + '.stars'), STAR + ' \u00d7 ', value(p + '.run'), ' = ', value(p + '.points'),
            el('div', { class: 'none', text: 'stack ' + (stack.length ? stack.join(' ') : '(empty)') })];
        }
      });
    });
    rows.push({ label: 'Types', class: 'subtotal', cell: function (i) { return value(o + i + '.type_points'); } });
    ['top', 'middle', 'bottom'].forEach(function (sec) {
      rows.push({
        label: capitalise(sec) + ' section: sum \u2192 points',
        cell: function (i) { return [value(o + i + '.sections.' + sec + '.sum'), ' \u2192 ', value(o + i + '.sections.' + sec + '.points')]; }
      });
    });
    rows.push({ label: 'Sections', class: 'subtotal', cell: function (i) { return value(o + i + '.section_points'); } });
    rows.push({ label: 'Diversity', cell: function (i) { return value(o + i + '.diversity'); } });
    rows.push({
      label: 'Satellites (stack)',
      cell: function (i) {
        var sats = result.outcome.players[i].satellites;
        return sats.length ? sats.map(function (s) {
          return el('div', { text: cardName(s.card) + ' \u2192 ' + (s.stack ? TYPE_LABELS[s.stack] || s.stack : 'no stack') });
        }) : '\u2013';
      }
    });
    rows.push({
      label: '6/0 cards (value)',
      cell: function (i) {
        var six = result.outcome.players[i].six_zero;
        return six.length ? six.map(function (s, k) {
          return el('div', null, cardName(s.card) + ' = ', value(o + i + '.six_zero.' + k + '.value'));
        }) : '\u2013';
      }
    });
    rows.push({ label: 'Total', class: 'total', cell: function (i) { return value(o + i + '.total'); } });
    return rows;
  }

  function questBreakdown() {
    var o = 'outcome.players.';
    return [
      { label: 'Lit tokens', cell: function (i) { return value(o + i + '.tokens'); } },
      { label: 'Jewels on face-up cards', cell: function (i) { return value(o + i + '.jewels'); } },
      {
        label: 'Flipped face down (numbers repeated)',
        cell: function (i) {
          var list = result.outcome.players[i].face_down;
          return list.length ? list.join(', ') : '\u2013';
        }
      },
      { label: 'Points', class: 'total', cell: function (i) { return value(o + i + '.points'); } }
    ];
  }

  function drawResult() {
    var box = clear(byId('result'));
    var breakdown = clear(byId('score-breakdown'));
    if (!footer) {
      append(box, el('p', { text: 'The replay has no footer: the referee was stopped before the match ended, so there is no result.' }));
      return;
    }
    append(box, el('p', null, 'Ended: ', el('b', { testid: 'end', text: footer.end }), ' after ' + plural(last, 'decision') + '.'));
    var winner = result.winner;
    append(box, el('p', {
      class: 'winner',
      testid: 'winner',
      data: { seat: winner === null || winner === undefined ? 'none' : winner },
      text: winnerText()
    }));
    if (fault) {
      append(box, el('p', { class: 'fault-line', text: 'Fault: ' + seatLabel(fault.seat) + ', ' + fault.kind + ' at request ' + fault.request_id + '.' }));
    }
    var rows = [];
    if (result.outcome) rows = game === 'stellar' ? stellarBreakdown() : questBreakdown();
    if (result.outcome && game === 'stella_quest') {
      append(box, el('p', null, 'Game end: ', value('outcome.end')));
    }
    if (result.scores) rows.push({ label: 'Score', class: 'total', cell: function (i) { return value('scores.' + i); } });
    if (result.ranks) rows.push({ label: 'Rank', cell: function (i) { return value('ranks.' + i); } });
    if (rows.length) append(breakdown, scoreTable(rows));
    if (!result.outcome) {
      append(breakdown, el('p', { class: 'none', text: 'No score breakdown: the match did not finish (' + footer.end + ').' }));
    }
  }

  function drawHeader() {
    byId('match-title').textContent = (GAME_TITLES[game] || game) + ', seed ' + header.seed;
    var players = header.bots.map(function (b, i) { return botName(i) + ' (seat ' + i + ')'; }).join(' vs ');
    var meta = [players];
    if (game === 'stella_quest' && seats === 2) meta.push('with the Dummy');
    meta.push(last + ' decisions');
    meta.push('ended: ' + (footer ? footer.end : 'no footer'));
    if (header.started) meta.push('started ' + header.started);
    meta.push('replay ' + data.source);
    byId('match-meta').textContent = meta.join(' \u00b7 ');
    var banner = byId('fault-banner');
    if (fault) {
      banner.hidden = false;
      banner.setAttribute('data-seat', String(fault.seat));
      banner.setAttribute('data-kind', fault.kind);
      append(banner, [
        el('div', { class: 'fault-title', text: 'Fault: ' + seatLabel(fault.seat) + ' forfeits (' + fault.kind + ' at request ' + fault.request_id + ')' }),
        el('div', { testid: 'fault-message', text: fault.message }),
        fault.raw ? [el('div', { text: 'Offending bytes:' }), el('pre', { text: fault.raw })] : null,
        fault.stderr_tail && fault.stderr_tail.length ? [el('div', { text: 'Last lines of its stderr:' }), el('pre', { text: fault.stderr_tail.join('\n') })] : null,
        fault.exit ? el('div', { text: 'Exit: ' + fault.exit }) : null
      ]);
    }
  }

  // ---- controls ----------------------------------------------------------------------------

  function go(p) {
    var next = Math.max(0, Math.min(last, p));
    if (next === pos) return;
    pos = next;
    draw();
  }

  function stop() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    byId('play').textContent = 'Play';
    byId('play').setAttribute('aria-pressed', 'false');
  }

  function start() {
    if (pos === last) go(0);
    var speed = Number(byId('speed').value) || 1;
    if (timer !== null) clearInterval(timer);
    timer = setInterval(function () {
      if (pos >= last) {
        stop();
        return;
      }
      go(pos + 1);
      if (pos >= last) stop();
    }, 1000 / speed);
    byId('play').textContent = 'Pause';
    byId('play').setAttribute('aria-pressed', 'true');
  }

  function toggle() {
    if (timer === null) start();
    else stop();
  }

  function setMode(value) {
    mode = value === 'full' ? 'full' : Number(value);
    byId('seat-toggle').value = String(value);
    draw();
  }

  function setup() {
    var slider = byId('slider');
    slider.max = String(last);
    var toggleSelect = byId('seat-toggle');
    append(toggleSelect, el('option', { value: 'full', text: 'full table' }));
    for (var s = 0; s < seats; s++) {
      append(toggleSelect, el('option', { value: String(s), text: 'seat ' + s + ' view (' + botName(s) + ')' }));
    }
    byId('first').addEventListener('click', function () { stop(); go(0); });
    byId('prev').addEventListener('click', function () { stop(); go(pos - 1); });
    byId('next').addEventListener('click', function () { stop(); go(pos + 1); });
    byId('last').addEventListener('click', function () { stop(); go(last); });
    byId('play').addEventListener('click', toggle);
    byId('speed').addEventListener('change', function () { if (timer !== null) start(); });
    slider.addEventListener('input', function () { stop(); go(Number(slider.value)); });
    toggleSelect.addEventListener('change', function () { setMode(toggleSelect.value); });
    byId('raw').addEventListener('toggle', function () {
      if (byId('raw').open) draw();
      else byId('raw-json').textContent = '';
    });
    document.addEventListener('keydown', function (e) {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      var t = e.target;
      var tag = t && t.tagName ? t.tagName.toLowerCase() : '';
      if (tag === 'select' || tag === 'textarea' || (tag === 'input' && t.type !== 'range')) return;
      var handled = true;
      if (e.key === 'ArrowRight') { stop(); go(pos + 1); }
      else if (e.key === 'ArrowLeft') { stop(); go(pos - 1); }
      else if (e.key === 'Home') { stop(); go(0); }
      else if (e.key === 'End') { stop(); go(last); }
      else if (e.key === ' ' && tag !== 'button') toggle();
      else if (e.key === 'f' || e.key === 'F') setMode('full');
      else if (/^[0-9]$/.test(e.key) && Number(e.key) < seats) setMode(e.key);
      else handled = false;
      if (handled) e.preventDefault();
    });
  }

  setup();
  drawHeader();
  drawResult();
  draw();
  document.body.setAttribute('data-ready', 'true');
})();
