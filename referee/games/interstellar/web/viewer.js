/* Interstellar's drawing in the web viewer (games/interstellar/web/viewer.js): the module the page
 * of an Interstellar match embeds after the viewer's core script (referee/render/web/viewer.js,
 * whose top comment is the contract). It draws the turn bar (turn, who is on turn, moves left,
 * the next attacks' costs), a pending attack waiting for the defender's reaction, the line every
 * unit stands on (seat 0's planets, its Orbit, the Battlefield, seat 1's Orbit, its planets) and
 * one board per seat: HP bars for the character, the ship and the Reinforcements, the primary
 * Water and Star slots, the E115s in play (depleted ones dimmed), the Planet section with each
 * planet's R and harvest, gates, escape pods, the hand (or, for the opponent in a seat's view,
 * only its backs: Resource and Main backs differ), decks, discard and void; then the events in
 * words, with the dice, the reactions and a Cloak's revealed card marked, and in the full table
 * what the last decision did. It says each action in words and breaks the end down into HP.
 *
 * The full table is drawn from every seat's view merged (each seat's own entry is complete, as
 * Traits::whole_table does in C++), so both drawings read one shape: json.cpp's view(). Views name
 * cards by catalogue key ({"id": 40, "card": "mars"}); the names below are cards.cpp's, which
 * test_interstellar checks against this file. Nothing here tells the result before the end: the
 * view names a winner only once the game is over, which is the last position. */
ArenaViewer.registerGame('interstellar', function (v) {
  'use strict';

  // The viewer's helpers this drawing uses (viewer.js: the API `v`).
  const { el, area, none, plural, seatLabel } = v;

  // key: [name, category, value] (referee/games/interstellar/cards.cpp, kCatalogue).
  var CARDS = {
    "water_1": ["Water +1", "water", 1],
    "water_2": ["Water +2", "water", 2],
    "water_3": ["Water +3", "water", 3],
    "energy_1": ["Energy +1", "energy", 1],
    "energy_2": ["Energy +2", "energy", 2],
    "energy_3": ["Energy +3", "energy", 3],
    "ammo_1": ["Ammo +1", "ammo", 1],
    "ammo_2": ["Ammo +2", "ammo", 2],
    "ammo_3": ["Ammo +3", "ammo", 3],
    "e115": ["Element 115", "e115", 3],
    "halley": ["Halley's Comet", "halley", 0],
    "proxima_centauri": ["Proxima Centauri +1", "star", 1],
    "binary_star": ["Binary Star +2", "star", 2],
    "orions_belt": ["Orion's Belt +3", "star", 3],
    "proxima_b": ["Proxima B", "planet", 12],
    "earth": ["Earth", "planet", 12],
    "titan": ["Titan", "planet", 9],
    "unknown_planet": ["?????", "planet", 9],
    "saturn": ["Saturn", "planet", 6],
    "mars": ["Mars", "planet", 6],
    "venus": ["Venus", "planet", 6],
    "jupiter": ["Jupiter", "planet", 6],
    "mercury": ["Mercury", "planet", 3],
    "uranus": ["Uranus", "planet", 3],
    "neptune": ["Neptune", "planet", 3],
    "pluto": ["Pluto", "planet", 3],
    "harvest": ["Harvest", "action", 0],
    "depletion": ["Depletion", "action", 0],
    "into_the_void": ["Into the Void", "action", 0],
    "space_junk": ["Space Junk", "action", 0],
    "secret_formula": ["Secret Formula", "action", 0],
    "force_field": ["Force Field", "reaction", 0],
    "gate": ["Gate", "artifact", 0],
    "escape_pod": ["Escape Pod", "artifact", 0],
    "reinforcements": ["Reinforcements", "creature", 0],
    "colonization": ["Colonization", "artifact", 0]
  };
  // key: [name, ship's name] (cards.cpp, kCharactersInfo).
  var CHARACTERS = {
    "shifter": ["Shifter", "UFO"],
    "shane": ["Shane", "Star Cruiser"]
  };
  var REINFORCEMENTS_HP = 35;  // rules.hpp kReinforcementsHp
  var MAX_MOVES = 2;           // kMaxMoves
  var PLANET_CAP = 15;         // kPlanetCap
  var MAX_BOMBARDS = 2;        // kMaxBombards
  var FORCE_FIELD = 40;        // kForceField
  var DIE = ['\u2680', '\u2681', '\u2682', '\u2683', '\u2684', '\u2685'];

  function info(card) {
    var key = card && typeof card.card === 'string' ? card.card : '';
    var c = Object.prototype.hasOwnProperty.call(CARDS, key) ? CARDS[key] : null;
    return c ? { name: c[0], category: c[1], value: c[2] } : { name: key || '?', category: 'unknown', value: 0 };
  }
  function cardName(card) { return info(card).name; }
  function cardRef(card) { return cardName(card) + '#' + card.id; }

  function character(p) { return CHARACTERS[p.character] || [p.character, p.ship]; }
  function characterName(p) { return character(p)[0]; }
  function shipName(p) { return character(p)[1]; }
  function unitName(p, unit) {
    if (unit === 'ship') return shipName(p);
    if (unit === 'character') return characterName(p);
    if (unit === 'reinforcements') return 'Reinforcements';
    return String(unit);
  }

  // ---- the model: one seat's view, or both merged ---------------------------------------------

  function merged(views) {
    var table = {};
    Object.keys(views[0]).forEach(function (k) { table[k] = views[0][k]; });
    table.seat = null;
    table.players = views[0].players.map(function (p, i) { return views[i] ? views[i].players[i] : p; });
    return table;
  }

  function modelOf(shown) { return shown.full ? merged(shown.views) : shown.view; }

  // Every card object of the table by id, to name an id that an event or an action gives.
  function cardsById(table) {
    var out = {};
    (function walk(x) {
      if (Array.isArray(x)) { x.forEach(walk); return; }
      if (x === null || typeof x !== 'object') return;
      if (typeof x.id === 'number' && typeof x.card === 'string' && !(x.id in out)) out[x.id] = { id: x.id, card: x.card };
      Object.keys(x).forEach(function (k) { if (x[k] !== null && typeof x[k] === 'object') walk(x[k]); });
    })(table);
    return out;
  }

  function idRef(byId, id) {
    if (typeof id !== 'number') return '?';
    return byId[id] ? cardRef(byId[id]) : 'card #' + id;
  }

  function place(byId, at) {
    if (!at) return '\u2013';
    if (at.zone === 'orbit') return 'Orbit';
    if (at.zone === 'battlefield') return 'the Battlefield';
    if (at.zone === 'planet') return idRef(byId, at.planet);
    return String(at.zone);
  }

  function sameAt(a, b) {
    return !!a && !!b && a.zone === b.zone && (a.zone !== 'planet' || a.planet === b.planet);
  }

  // ---- pieces ----------------------------------------------------------------------------------

  function chip(card, extraClass, text) {
    var i = info(card);
    return el('span', {
      class: 'is-chip cat-' + i.category + (extraClass ? ' ' + extraClass : ''),
      data: { id: card.id, key: card.card },
      title: cardRef(card)
    }, text === undefined ? i.name : text);
  }

  function faceCard(card) {
    var i = info(card);
    return el('div', { class: 'card is-card cat-' + i.category, data: { card: card.id, key: card.card }, title: cardRef(card) },
      el('span', { class: 'is-cat', text: i.category === 'e115' ? 'E115' : i.category }),
      el('span', { class: 'name', text: i.name }),
      el('span', { class: 'is-id', text: '#' + card.id }));
  }

  function back(deck) {
    return el('div', {
      class: 'card back is-back deck-' + deck,
      data: { deck: deck },
      title: 'a ' + (deck === 'resource' ? 'Resource' : 'Main') + ' card (its face is hidden; the backs of the two decks differ)'
    }, el('span', { class: 'name', text: deck === 'resource' ? 'Resource' : 'Main' }));
  }

  function hpBar(kind, seat, label, hp, max) {
    var pct = max > 0 ? Math.max(0, Math.min(100, (100 * hp) / max)) : 0;
    var level = pct > 50 ? 'high' : pct > 25 ? 'mid' : 'low';
    return el('div', { class: 'is-hp hp-' + kind + (hp <= 0 ? ' down' : ''), testid: 'hp-' + kind + '-' + seat, data: { hp: hp, max: max } },
      el('span', { class: 'is-hp-label', text: label }),
      el('span', { class: 'is-hp-track', title: hp + ' of ' + max + ' HP' },
        el('span', { class: 'is-hp-fill ' + level, style: 'width: ' + pct.toFixed(1) + '%' })),
      el('span', { class: 'is-hp-text', text: hp + ' / ' + max + (hp <= 0 ? (kind === 'character' ? ' defeated' : ' destroyed') : '') }));
  }

  function unitChip(p, seat, unit, byId, withSeat) {
    var at = unit === 'character' ? p.character_at : p.ship_at;
    var aboard = unit === 'ship' && p.ship_hp > 0 && sameAt(p.ship_at, p.character_at);
    var text = unit === 'ship' ? shipName(p) + (aboard ? ' + ' + characterName(p) : '') : characterName(p);
    if (withSeat) text += ' (seat ' + seat + ')';
    return el('span', { class: 'is-unit seat-' + seat + ' unit-' + unit, data: { seat: seat, unit: unit }, title: text + ' at ' + place(byId, at) }, text);
  }

  // The units of a seat standing at a place (a dead ship is not drawn).
  function unitsAt(p, seat, test, byId, withSeat) {
    var out = [];
    var shipAlive = p.ship_hp > 0;
    if (shipAlive && test(p.ship_at)) out.push(unitChip(p, seat, 'ship', byId, withSeat));
    if (test(p.character_at) && !(shipAlive && sameAt(p.ship_at, p.character_at))) out.push(unitChip(p, seat, 'character', byId, withSeat));
    return out;
  }

  function gatesAt(p, seat, test, byId) {
    return (p.gates || []).filter(function (g) { return test(g.at); }).map(function (g) {
      return el('span', { class: 'is-gate seat-' + seat + (g.usable ? '' : ' used'), data: { id: g.id }, title: cardRef(g) + (g.usable ? ', usable' : ', used this turn') + ' at ' + place(byId, g.at) }, 'Gate #' + g.id);
    });
  }

  // ---- the line ---------------------------------------------------------------------------------

  function zoneIndex(at) { return at && at.zone === 'planet' ? 0 : at && at.zone === 'orbit' ? 1 : 2; }

  function line(m, byId) {
    var players = m.players;
    var cells = [];
    function isZone(zone) { return function (at) { return !!at && at.zone === zone; }; }
    [0, 1].forEach(function (seat) {
      var p = players[seat];
      var planets = (p.planets || []).map(function (pl) {
        var on = function (at) { return !!at && at.zone === 'planet' && at.planet === pl.id; };
        return el('div', { class: 'is-line-planet' + (pl.depleted ? ' depleted' : ''), data: { id: pl.id } },
          el('span', { class: 'is-planet-name', text: cardName(pl) + ' ' + pl.r + 'R' }),
          pl.harvest_size ? el('span', { class: 'is-count', title: plural(pl.harvest_size, 'harvested card'), text: '\u25a3' + pl.harvest_size }) : null,
          unitsAt(p, seat, on, byId, false), gatesAt(p, seat, on, byId));
      });
      cells[seat === 0 ? 0 : 4] = { label: 'Seat ' + seat + '\u2019s planets', zone: 'planets-' + seat, body: planets.length ? planets : none('no planet') };
      var orbit = unitsAt(p, seat, isZone('orbit'), byId, false).concat(gatesAt(p, seat, isZone('orbit'), byId));
      cells[seat === 0 ? 1 : 3] = { label: 'Seat ' + seat + '\u2019s Orbit', zone: 'orbit-' + seat, body: orbit.length ? orbit : none('empty') };
    });
    var field = [];
    [0, 1].forEach(function (seat) {
      var p = players[seat];
      field = field.concat(unitsAt(p, seat, isZone('battlefield'), byId, true), gatesAt(p, seat, isZone('battlefield'), byId));
    });
    cells[2] = { label: 'Battlefield', zone: 'battlefield', body: field.length ? field : none('empty') };
    var active = players.map(function (p) { return zoneIndex(p.ship_hp > 0 ? p.ship_at : p.character_at); });
    var range = 4 - active[0] - active[1];
    return area('The line (range counts the steps between two places)',
      [el('div', { class: 'is-line', testid: 'line' }, cells.map(function (c) {
        return el('div', { class: 'is-zone', data: { zone: c.zone } }, el('div', { class: 'is-zone-title', text: c.label }), el('div', { class: 'is-zone-body' }, c.body));
      })),
      el('div', { class: 'is-range', testid: 'range', data: { steps: range }, text: 'Range between the active units (the ship, or the character once its ship is lost): ' + plural(range, 'step') })]);
  }

  // ---- a seat's board ---------------------------------------------------------------------------

  function board(m, p, seat, byId, full) {
    var own = Array.isArray(p.hand);
    var onTurn = (m.phase === 'main' || m.phase === 'reaction') && m.on_turn === seat;
    var hp = [
      hpBar('character', seat, characterName(p), p.hp, p.max_hp),
      hpBar('ship', seat, shipName(p), p.ship_hp, p.max_ship_hp),
      p.reinforcements ? hpBar('reinforcements', seat, 'Reinforcements', p.reinforcements.hp, REINFORCEMENTS_HP) : null
    ];
    var where = el('div', { class: 'is-where', testid: 'where-' + seat },
      p.ship_hp > 0 && sameAt(p.ship_at, p.character_at)
        ? characterName(p) + ' aboard the ' + shipName(p) + ' at ' + place(byId, p.ship_at)
        : (p.ship_hp > 0 ? shipName(p) + ' at ' + place(byId, p.ship_at) : shipName(p) + ' lost at ' + place(byId, p.ship_at)) +
          '; ' + characterName(p) + ' at ' + place(byId, p.character_at));
    var primary = el('div', { class: 'is-row', testid: 'primary-' + seat },
      el('span', { class: 'is-label', text: 'Water (' + p.water.length + '):' }),
      p.water.length ? p.water.map(function (c) { return chip(c); }) : none('empty'),
      el('span', { class: 'is-label', text: 'Stars (total ' + p.star_total + '):' }),
      p.stars.length ? p.stars.map(function (c) { return chip(c); }) : none('empty'));
    var elements = el('div', { class: 'is-row', testid: 'elements-' + seat },
      p.elements.length ? p.elements.map(function (e) {
        return chip(e, e.depleted ? 'depleted' : 'charged', cardName(e) + (e.depleted ? ' (depleted)' : ''));
      }) : none('none in play'));
    var planets = el('div', { class: 'is-planets', testid: 'planets-' + seat }, p.planets.length ? p.planets.map(function (pl) {
      var on = function (at) { return !!at && at.zone === 'planet' && at.planet === pl.id; };
      var harvest = Array.isArray(pl.harvest) ? pl.harvest : null;
      return el('div', { class: 'is-planet' + (pl.depleted ? ' depleted' : ''), data: { id: pl.id, harvest: pl.harvest_size }, title: cardRef(pl) },
        el('div', { class: 'is-planet-head' }, el('b', { text: cardName(pl) }), el('span', { class: 'is-r', text: pl.r + 'R' })),
        el('div', { class: 'is-planet-harvest', text: pl.harvest_size ? plural(pl.harvest_size, 'card') + ' harvested' + (harvest ? '' : ', face down') : 'no harvest' }),
        harvest && harvest.length ? el('div', { class: 'is-row' }, harvest.map(function (c) { return chip(c); })) : null,
        pl.colony ? el('div', { class: 'is-row' }, el('span', { class: 'is-label', text: 'colonised:' }), chip(pl.colony)) : null,
        pl.depleted ? el('div', { class: 'is-depleted', text: 'depleted' }) : null,
        unitsAt(p, seat, on, byId, false));
    }) : none('no planet'));
    var gates = (p.gates || []).map(function (g) {
      return el('span', { class: 'is-gate' + (g.usable ? '' : ' used'), data: { id: g.id } }, 'Gate #' + g.id + ' at ' + place(byId, g.at) + (g.usable ? '' : ' (used)'));
    });
    var hand;
    if (own) {
      hand = p.hand.length ? p.hand.map(faceCard) : none('empty');
    } else {
      var backs = [];
      for (var r = 0; r < p.hand_resource; r++) backs.push(back('resource'));
      for (var k = 0; k < p.hand_main; k++) backs.push(back('main'));
      hand = backs.length ? backs : none('empty');
    }
    var discardTop = p.discard.length ? p.discard[p.discard.length - 1] : null;
    var piles = el('div', { class: 'is-row is-piles', testid: 'piles-' + seat },
      el('span', { data: { pile: 'resource_deck', count: p.resource_deck }, text: 'Resource deck ' + p.resource_deck }),
      el('span', { data: { pile: 'main_deck', count: p.main_deck }, text: 'Main deck ' + p.main_deck }),
      el('span', { data: { pile: 'discard', count: p.discard.length }, text: 'Discard ' + p.discard.length + (discardTop ? ' (top: ' + cardName(discardTop) + ')' : '') }),
      el('span', { data: { pile: 'void', count: p.void.length }, text: 'Void ' + p.void.length }));
    return v.playerPanel(seat, {
      toAct: m.to_act === seat,
      opponent: !full && m.seat !== seat,
      badges: [
        el('span', { class: 'badge', text: characterName(p) + ' \u00b7 ' + shipName(p) }),
        onTurn ? el('span', { class: 'badge is-on-turn', text: 'on turn' }) : null,
        m.start_player === seat ? el('span', { class: 'badge', text: 'start player' }) : null,
        p.timewarp === 'took' ? el('span', { class: 'badge', text: 'TimeWarp' }) : null,
        p.invasion_used ? el('span', { class: 'badge', text: 'Invasion used' }) : null
      ]
    }, [
      el('div', { class: 'is-hps', testid: 'board-' + seat }, hp),
      where,
      area('Primary slots', primary),
      area('E115 in play', elements),
      area('Planet section (' + p.planet_total + 'R of ' + PLANET_CAP + ')', planets),
      area('Gates and escape pods', el('div', { class: 'is-row', testid: 'gates-' + seat },
        gates.length ? gates : none('no gate'),
        el('span', { class: 'is-label', data: { pods: p.pods.length }, text: plural(p.pods.length, 'escape pod') }))),
      area(own ? 'Hand (' + p.hand.length + ')' : 'Hand (' + p.hand_size + ': ' + p.hand_resource + ' Resource, ' + p.hand_main + ' Main; faces hidden)',
        el('div', { class: 'cards hand', testid: 'hand-' + seat, data: { size: p.hand_size } }, hand)),
      piles
    ]);
  }

  // ---- events -----------------------------------------------------------------------------------

  function eventNode(m, byId, e) {
    var seat = e.seat;
    var p = m.players[seat] || {};
    var foe = m.players[1 - seat] || {};
    var who = 'seat ' + seat;
    var kind = e.event;
    var cls = 'is-event ev-' + kind;
    var parts;
    switch (kind) {
      case 'start': parts = [el('b', { text: who + ' starts turn ' + e.turn })]; break;
      case 'draw': parts = [who + ' draws ' + e.main + ' Main + ' + e.resource + ' Resource']; break;
      case 'timewarp': parts = [who + (e.took ? ' takes TimeWarp' : ' keeps its opening hand')]; break;
      case 'recharge': parts = [who + ' recharges ' + e.count + ' E115']; break;
      case 'play':
        parts = [who + ' plays ', chip(e.card), typeof e.target === 'number' ? ' on ' + idRef(byId, e.target) : '', e.to ? ' at ' + place(byId, e.to) : ''];
        break;
      case 'pay': parts = [who + (e.depleted ? ' depletes ' : ' pays with '), chip(e.card, e.depleted ? 'depleted' : '')]; break;
      case 'move':
        parts = [who + '\u2019s ' + unitName(p, e.unit) + (e.by === 'teleport' ? ' teleports to a Gate at ' : e.by === 'escape_pod' ? ' takes an Escape Pod to ' : ' moves to ') + place(byId, e.to)];
        break;
      case 'collect': parts = [who + ' collects ' + plural(e.count, 'card') + ' from ' + idRef(byId, e.planet)]; break;
      case 'harvest': parts = [who + ' harvests ' + plural(e.count, 'card') + ' onto ' + idRef(byId, e.planet)]; break;
      case 'deplete': parts = [idRef(byId, e.planet) + ' depleted: ' + plural(e.voided, 'harvested card') + ' voided, ' + who + ' draws ' + e.drawn]; break;
      case 'void': parts = [who + '\u2019s ', chip(e.card), ' goes to the void']; break;
      case 'discard': parts = [who + '\u2019s ', chip(e.card), ' is discarded']; break;
      case 'draw_resource':
        parts = [who + ' draws ' + plural(e.count, 'Resource card') + (typeof e.planet === 'number' ? ' (Invasion of ' + idRef(byId, e.planet) + ')' : '')];
        break;
      case 'attack':
        parts = [el('b', { text: who + ' attacks with the ' + unitName(p, e.by) + ' at seat ' + (1 - seat) + '\u2019s ' + unitName(foe, e.target) }), ' (base ' + e.base + ')'];
        break;
      case 'reaction':
        cls += ' is-key';
        parts = [el('b', { text: who + ' reacts: ' + (e.reaction === 'cloak' ? 'Defensive Cloak' : 'Force Field (\u2212' + FORCE_FIELD + ' damage)') })];
        break;
      case 'cloak':
        cls += ' is-key';
        parts = [who + ' draws ', e.drawn ? chip(e.drawn, 'revealed', cardRef(e.drawn)) : 'nothing (an empty Resource deck)',
          ' for the Cloak: ', el('b', { text: e.base === null || e.base === undefined ? 'a miss' : 'base ' + e.base })];
        break;
      case 'roll':
        cls += ' is-key';
        parts = [who + ' rolls ', el('span', { class: 'is-dice', data: { dice: (e.dice || []).join(',') } }, (e.dice || []).map(function (d) {
          return el('span', { class: 'is-die', title: String(d), text: (DIE[d - 1] || '?') + d });
        })), e.for === 'bombard' ? ' (bombard)' : ' (the ship at a character: even hits)'];
        break;
      case 'damage':
        cls += ' is-hit';
        parts = [el('b', { text: 'seat ' + seat + '\u2019s ' + unitName(p, e.unit) + ' loses ' + e.amount + ' HP' })];
        break;
      case 'destroyed':
        cls += ' is-hit';
        parts = [el('b', { text: 'seat ' + seat + '\u2019s ' + unitName(p, e.unit) + ' is destroyed' })];
        break;
      case 'formula': parts = [who + ' turns ' + e.value + ' face value into an E115']; break;
      case 'end_turn': parts = [who + ' ends the turn' + (e.why === 'second_move' ? ' (second move)' : e.why === 'escape_pod' ? ' (Escape Pod)' : '')]; break;
      default: parts = [who + ' ' + JSON.stringify(e)];
    }
    return el('li', { class: cls, data: { event: kind, seat: seat } }, parts);
  }

  function eventList(m, byId, events, testid) {
    if (!events || !events.length) return none('none');
    return el('ol', { class: 'is-events', testid: testid }, events.map(function (e) { return eventNode(m, byId, e); }));
  }

  // What decision p - 1 did: the events between the tables at p - 1 and p (public, as in both views).
  function stepEvents(p) {
    if (p < 1 || !v.frames[p - 1] || !v.frames[p]) return null;
    var a = v.frames[p - 1].views[0];
    var b = v.frames[p].views[0];
    if (!a || !b) return null;
    if (b.turn === a.turn) return b.events.slice(a.events.length);
    return b.last_events.slice(a.events.length).concat(b.events);
  }

  // ---- the table --------------------------------------------------------------------------------

  function turnBar(m) {
    var tt = m.this_turn;
    var items = [
      ['turn', m.phase === 'timewarp' ? 'opening (TimeWarp offers)' : m.turn + ' of at most ' + m.config.max_turns, 'turn'],
      ['phase', m.phase === 'over' ? 'over (' + m.end + ')' : m.phase, 'phase'],
      m.phase === 'main' || m.phase === 'reaction' ? ['on turn', seatLabel(m.on_turn), 'on_turn'] : null,
      ['to act', m.to_act === null || m.to_act === undefined ? 'nobody (over)' : seatLabel(m.to_act), 'to_act'],
      ['start player', 'seat ' + m.start_player, 'start_player']
    ];
    if (tt) {
      items.push(['moves left', tt.moves_left + ' of ' + MAX_MOVES, 'moves_left']);
      items.push(['played', plural(tt.actions, 'action') + ', ' + plural(tt.artifacts, 'artifact'), 'played']);
      items.push(['next attack', 'ship ' + tt.next_ship_attack_ammo + ' Ammo, character ' + tt.next_character_attack_energy + ' Energy', 'next_attack']);
      items.push(['bombards', tt.bombards + ' of ' + MAX_BOMBARDS, 'bombards']);
    }
    return v.globals(items);
  }

  // The reactions the defender may answer a pending attack with: exactly the legal list of the
  // request it was sent (the frame whose table `shown` draws), never every reaction card in its
  // hand (a Force Field needs a card to pay with, a Cloak 1 Energy + 1 card: pay.cpp decides).
  // Null when the list is not the reader's to see: in the attacker's view, the defender's choices
  // would tell what it holds.
  function reactionChoices(shown, defender) {
    if (!shown.full && shown.seat !== defender) return null;
    var frame = v.frames[shown.full ? shown.position : shown.step];
    if (!frame || frame.to_act !== defender || !Array.isArray(frame.legal)) return null;
    return frame.legal;
  }

  function reactionName(byId, action) {
    switch (action.kind) {
      case 'pass': return 'no reaction';
      case 'cloak': return 'Defensive Cloak';
      case 'force_field': return 'Force Field (' + idRef(byId, action.card) + ')';
      default: return JSON.stringify(action);
    }
  }

  function pending(m, shown, byId) {
    var a = m.pending;
    if (!a) return null;
    var attacker = m.players[a.attacker];
    var defender = m.players[1 - a.attacker];
    var choices = reactionChoices(shown, 1 - a.attacker);
    var offer = choices === null
      ? [seatLabel(1 - a.attacker) + ' decides whether to react (what it may pay for is in its hand, not in this view).']
      : [seatLabel(1 - a.attacker) + (choices.length === 1 ? ' can only answer: ' : ' may answer: '),
        el('span', { class: 'is-reactions', testid: 'reactions', data: { count: choices.length } }, choices.map(function (r, i) {
          return [i ? (i === choices.length - 1 ? ' or ' : ', ') : '', el('b', { data: { kind: r.kind, card: r.card }, text: reactionName(byId, r) })];
        })), '.'];
    return el('div', { class: 'is-pending', testid: 'pending', data: { attacker: a.attacker, by: a.by, target: a.target, base: a.base } },
      el('b', { text: 'Attack pending: ' }),
      'seat ' + a.attacker + '\u2019s ' + unitName(attacker, a.by) + ' attacks seat ' + (1 - a.attacker) + '\u2019s ' + unitName(defender, a.target) +
      ' (base ' + a.base + '); ', offer);
  }

  function table(shown) {
    var m = modelOf(shown);
    var byId = cardsById(m);
    var out = [turnBar(m), pending(m, shown, byId)];
    if (m.phase === 'over') {
      // The view names the winner only once the game is over: the last position.
      out.push(el('div', { class: 'is-over', testid: 'game-over', data: { winner: m.winner === null ? 'none' : m.winner } },
        'Game over (' + m.end + ') on turn ' + m.turn + ': ',
        el('b', { text: m.winner === null || m.winner === undefined ? 'a draw' : v.capitalise(seatLabel(m.winner)) + ' takes the match' }), '.'));
    }
    out.push(line(m, byId));
    out.push(el('div', { class: 'players' }, m.players.map(function (p, seat) { return board(m, p, seat, byId, shown.full); })));
    var boxes = [];
    if (shown.full) {
      var step = stepEvents(shown.position);
      if (step) {
        var k = shown.position - 1;
        var lead = 'Decision ' + shown.position + ': ' + seatLabel(v.steps[k].seat) + ' ' + describe(v.steps[k].action, k);
        boxes.push(area('What the last decision did', [el('div', { class: 'is-lead', text: lead }),
          step.length ? el('ol', { class: 'is-events', testid: 'step-events' }, step.map(function (e) { return eventNode(m, byId, e); })) : none('no public event')]));
      }
    }
    boxes.push(area('Events this turn' + (m.turn ? ' (turn ' + m.turn + ')' : ''), eventList(m, byId, m.events, 'events')));
    boxes.push(area('The turn before', eventList(m, byId, m.last_events, 'last-events'), { class: 'is-before' }));
    out.push(el('div', { class: 'is-event-boxes' }, boxes));
    return out;
  }

  // ---- words for an action ----------------------------------------------------------------------

  function describe(action, p) {
    var frame = v.frames[p];
    var seat = frame ? frame.to_act : -1;
    var view = frame && seat >= 0 ? frame.views[seat] : null;
    var me = view ? view.players[seat] : null;
    var byId = view ? cardsById(view) : {};
    var unit = me ? (me.ship_hp > 0 ? shipName(me) : characterName(me)) : 'unit';
    switch (action.kind) {
      case 'keep': return 'keeps the opening hand';
      case 'timewarp': return 'takes TimeWarp (reshuffles, draws 3 Resource + 7 Main again)';
      case 'end_turn': return 'ends the turn';
      case 'move': return 'moves the ' + unit + ' to ' + place(byId, action.to);
      case 'teleport': {
        var gate = me ? (me.gates || []).filter(function (g) { return g.id === action.gate; })[0] : null;
        return 'teleports the ' + unit + ' through ' + idRef(byId, action.gate) + ' to ' + (gate ? place(byId, gate.at) : '?');
      }
      case 'pod': return 'escapes: the ' + (me ? characterName(me) : 'character') + ' takes an Escape Pod to ' + place(byId, action.to) + ' (the turn ends)';
      case 'play': {
        var card = byId[action.card];
        var i = card ? info(card) : { name: 'card #' + action.card, category: '' };
        if (card && card.card === 'into_the_void' && typeof action.target === 'number') return 'Into the Void on ' + idRef(byId, action.target);
        var out = 'plays ' + i.name;
        if (typeof action.target === 'number') out += ' on ' + idRef(byId, action.target);
        if (action.to) out += ' at ' + place(byId, action.to);
        if (i.category === 'water') out += ' into the primary Water slot';
        if (i.category === 'star') out += ' into the primary Star slot';
        if (i.category === 'e115') out += ' into play (it enters depleted)';
        if (i.category === 'planet') out += ' into its Planet section (' + i.value + 'R)';
        return out;
      }
      case 'attack': {
        var tt = view ? view.this_turn : null;
        var aim = typeof action.target === 'number' ? ' at the Reinforcements' : '';
        if (action.by === 'ship') return 'attacks with the ship (' + (me ? shipName(me) : 'ship') + (tt ? ', ' + tt.next_ship_attack_ammo + ' Ammo' : '') + ')' + aim;
        return 'attacks with the character (' + (me ? characterName(me) : 'character') + (tt ? ', ' + tt.next_character_attack_energy + ' Energy' : '') + ')' + aim;
      }
      case 'invasion': return 'invades ' + idRef(byId, action.planet) + ' (Invasion: draws Resource cards)';
      case 'bombard': return 'bombards the Reinforcements (pays 1, rolls 2 dice)';
      case 'pass': return 'does not react';
      case 'cloak': return 'Defensive Cloak (the attacker draws a Resource card that sets the damage)';
      case 'force_field': return 'Force Field (\u2212' + FORCE_FIELD + ' damage)';
      default: return 'plays ' + JSON.stringify(action);
    }
  }

  // ---- the end ----------------------------------------------------------------------------------

  function breakdown() {
    return [
      { label: 'Character HP', cell: function (i) { return v.value('outcome.hp.' + i); } },
      { label: 'Ship HP', cell: function (i) { return v.value('outcome.ship_hp.' + i); } }
    ];
  }

  var ENDS = {
    defeated: 'a character reached 0 HP',
    deckout: 'an empty Main deck and a turn with no card played',
    turn_cap: 'the turn cap: the higher character HP takes the match'
  };

  function resultNotes(outcome) {
    return el('p', null, 'Game end: ', v.value('outcome.end'), outcome && ENDS[outcome.end] ? ' (' + ENDS[outcome.end] + ')' : '',
      ' after ', v.value('outcome.turns'), ' turns.');
  }

  function meta() {
    var first = v.frames[0] && v.frames[0].views[0];
    if (!first) return [];
    return [first.players.map(function (p) { return characterName(p) + ' (' + shipName(p) + ')'; }).join(' vs ')];
  }

  return {
    table: table,
    describe: describe,
    breakdown: breakdown,
    resultNotes: resultNotes,
    meta: meta,
    progressNote: function (progress, seat) {
      return progress && Array.isArray(progress.ship_hp) ? 'character HP; ship ' + progress.ship_hp[seat] + ' HP' : null;
    }
  };
});
