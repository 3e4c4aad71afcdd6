#!/usr/bin/env node
// Starter bot in JavaScript (Node.js 18 or later, no dependencies): plays every game of the
// referee. Run it: node bot.js
//
// The protocol (docs/protocol.md): one JSON object per line on stdin, one per line on stdout.
// Diagnostics go to stderr only (console.error): every stdout line must be a message.
//
//   hello     -> answer ready (protocol 2 when offered, else 1)
//   request   -> answer action: one entry of "legal", copied unchanged, with the request's id
//   game_over -> nothing to answer; keep reading: stdin closes (we exit) or a new hello comes
//
// It picks its action by a simple rule per game (chooseStellar, chooseStellaQuest,
// chooseInterstellar), and the first legal action in a game it does not know. Every answer is
// copied from "legal", so it is always legal.
'use strict';

const readline = require('readline');

const NAME = 'starter_javascript';

function log(text) {
  console.error(`${NAME}: ${text}`);
}

// One message, one line. On Linux, writes to a pipe are synchronous in Node: the line is sent
// at once, nothing waits in a buffer.
function send(message) {
  process.stdout.write(JSON.stringify(message) + '\n');
}

// "max by key" keeping the first of equals (the legal list's order breaks ties).
function best(list, key) {
  let top = list[0];
  let topKey = key(top);
  for (const item of list.slice(1)) {
    const k = key(item);
    if (k > topKey) [top, topKey] = [item, k];
  }
  return top;
}

// ---------------------------------------------------------------------------------------------
// Stellar (docs/games/stellar.md). Cards are objects {"id","name","type","number","stars"} in
// protocol 1; in protocol 2 a view names them by id and hello.cards[id] is the object.

// Turns what a view holds for a card (an object, or an id in protocol 2) into the object.
function cardReader(table, view) {
  const extra = new Map((view.cards || []).filter(Boolean).map((c) => [c.id, c]));
  return (ref) => {
    if (ref === null || typeof ref === 'object') return ref;  // protocol 1, or an empty slot
    if (table[ref]) return table[ref];
    return extra.get(ref) || {id: ref, type: '?', number: 3, stars: 0};
  };
}

const numberValue = (card) => (card.number === '6/0' ? 6 : card.number);

// True when the card's number is next to a number of its type already in the notebook.
function extendsRun(card, notebook) {
  const numbers = new Set(notebook.filter((c) => c.type === card.type).map(numberValue));
  const n = numberValue(card);
  return !numbers.has(n) && (numbers.has(n - 1) || numbers.has(n + 1));
}

function chooseStellar(request, table) {
  const {view, legal} = request;
  const card = cardReader(table, view);
  const me = view.players[view.seat];
  const notebook = me.notebook.map(card);
  const hand = new Map((me.hand || []).map(card).map((c) => [c.id, c]));

  switch (view.phase) {
    case 'take':
      // The row card with the most stars (ties: the lowest slot, the first in "legal").
      return best(legal, (a) => card(view.row[a.slot - 1]).stars);
    case 'play':
      // A card with stars goes face up into the telescope (stars count only face up); one
      // without, or one that lengthens a run of its type, into the notebook; never face down.
      return best(legal, (a) => {
        const c = hand.get(a.card);
        if (a.area === 'notebook') return extendsRun(c, notebook) ? 3 : 1;
        return a.face === 'up' ? 2 * c.stars : 0;
      });
    case 'place':
      // Step 3's card ("placing") must go into the telescope: face up if it may.
      return legal.find((a) => a.face === 'up') || legal[0];
    case 'refresh': {
      // Refresh the row only when it holds no card with 2 stars or more.
      const stars = view.row.filter((c) => c !== null).map((c) => card(c).stars);
      const accept = Math.max(0, ...stars) < 2;
      return legal.find((a) => a.accept === accept) || legal[0];
    }
    case 'keep':
      // The last card to the notebook: one that lengthens a run, else the first.
      return legal.find((a) => extendsRun(hand.get(a.card), notebook)) || legal[0];
    default:
      return legal[0];  // choose_starter (both starters are 3s with 2 stars), or a new phase
  }
}

// ---------------------------------------------------------------------------------------------
// Stella Quest (docs/games/stella_quest.md). Cards are faces: "Blue 6", "Break". Other hands
// show their colours only.

const JEWELS = {1: 3, 2: 3, 3: 2, 4: 2, 5: 1, 6: 1};
const faceColour = (face) => face.split(' ')[0].toLowerCase();  // "Blue 6" -> "blue"
const faceNumber = (face) => Number(face.split(' ')[1] || 0);   // "Break" -> 0

function chooseStellaQuest(request) {
  const {view, legal} = request;
  const me = view.players[view.seat];

  switch (view.phase) {
    case 'play': {
      // Never buy cards ("draw"). Winning while holding the marker costs a token: then try to
      // lose (a break, else the lowest card); otherwise try to win (a trump, else the highest).
      const plays = legal.filter((a) => a.kind === 'play');
      if (plays.length === 0) return legal[0];
      if (view.marker === view.seat) {
        return best(plays, (a) => (faceColour(a.card) === 'break' ? 100 : -faceNumber(a.card)));
      }
      return best(plays, (a) => (faceColour(a.card) === view.trump ? 10 : 0) + faceNumber(a.card));
    }
    case 'collect': {
      // A number not yet collected, with the most jewels; else the duplicate costing least.
      const have = new Set(me.collection.map(faceNumber));
      return best(legal, (a) => {
        const n = faceNumber(a.card);
        return have.has(n) ? -JEWELS[n] : JEWELS[n];
      });
    }
    case 'top':
      // The card on top of the discard pile sets the next trump: the colour we hold most of.
      return best(legal, (a) => me.hand_colours.filter((c) => c === faceColour(a.card)).length);
    default:
      return legal[0];
  }
}

// ---------------------------------------------------------------------------------------------
// Interstellar (docs/games/interstellar.md). Each seat has a character ("hp") and its ship
// ("ship_hp"); the ship must fall before the character can be hit, and a character at 0 HP
// loses. A card is {"id","card"} in protocol 1 ("card" is its kind: "water_1", "e115", "earth",
// ...); in protocol 2 a view names it by id and hello.cards[id] is the object (your own cards;
// the other seat's that a view names are in its "cards"). Only your own hand is shown (me.hand),
// the other seat's as counts.

const STARS = new Set(['proxima_centauri', 'binary_star', 'orions_belt']);

function chooseInterstellar(request, table) {
  const {view, legal} = request;
  const me = view.players[view.seat];

  if (view.phase === 'reaction') {
    // Attacked out of turn: view.pending is the attack, {by: 'ship'|'character',
    // target: 'ship'|'character', base: DAMAGE before range}. Play a Force Field (-40 damage)
    // for our character, or for our ship when the blow could destroy it; else pass (legal[0]).
    const {pending} = view;
    if (pending.target === 'character' || me.ship_hp <= pending.base) {
      return legal.find((a) => a.kind === 'force_field') || legal[0];
    }
    return legal[0];
  }
  if (view.phase !== 'main') return legal[0];  // timewarp: 'keep' the opening hand

  const turn = view.this_turn;  // this turn's counts: moves, played_card, attacks...
  const endTurn = legal.find((a) => a.kind === 'end_turn');
  // Deck-out: with config 'literal_win', a seat whose Main deck is empty and that plays no card
  // in a turn wins when the turn ends.
  if (view.config.deckout === 'literal_win' && me.main_deck === 0 && !turn.played_card) return endTurn;
  // card id -> kind; protocol 1 sends the objects, protocol 2 the ids of cards in our table
  const hand = new Map(me.hand.map((ref) => (typeof ref === 'number' ? table[ref] : ref)).map((c) => [c.id, c.card]));
  // 1. Cards that cost nothing and help at once: an E115 (pays 3, recharges every turn), a star
  //    (character attacks need one), Water into the empty slot (moving needs Water and a star;
  //    more Water stays in hand to pay costs), Reinforcements (15 damage at the start of each of
  //    our turns), Space Junk (2 Resource cards) while it is free: the turn's first action card
  //    costs nothing, each further one a card.
  const free = legal.find((a) => {
    if (a.kind !== 'play') return false;
    const kind = hand.get(a.card);
    return kind === 'e115' || STARS.has(kind) || (kind.startsWith('water') && me.water.length === 0) ||
        kind === 'reinforcements' || (kind === 'space_junk' && turn.actions === 0);
  });
  if (free) return free;
  // 2. The ship one step toward the Battlefield (less range penalty), once a turn: a 2nd move
  //    would end the turn. me.ship_at.zone is 'planet', 'orbit' or 'battlefield'.
  const move = legal.find((a) => a.kind === 'move' && a.to.zone === 'battlefield');
  if (turn.moves === 0 && move) return move;
  // 3. Attack while we can pay: the ship first (it comes first in legal), then the character.
  const attack = legal.find((a) => a.kind === 'attack');
  if (attack) return attack;
  // 4. Nothing left: end the turn.
  log(`turn ${view.turn} ends: our hp ${me.hp}, ship ${me.ship_hp} at ${me.ship_at.zone}`);
  return endTurn;
}

// ---------------------------------------------------------------------------------------------

// 2 when the referee offers it, 1 when hello says 1, null for a version we do not speak.
function chooseProtocol(hello) {
  if ((hello.protocols || []).includes(2)) return 2;
  return hello.protocol === 1 ? 1 : null;
}

let protocol = 1;
let game = '';
let seat = 0;
let table = [];  // protocol 2: hello.cards, element i is card i (or null)

const input = readline.createInterface({input: process.stdin, crlfDelay: Infinity});
input.on('close', () => process.exit(0));  // EOF: the referee has closed our stdin
input.on('line', (line) => {
  const message = JSON.parse(line);
  if (message.type === 'hello') {  // a new match
    protocol = chooseProtocol(message);
    if (protocol === null) {
      log(`unknown protocol ${message.protocol}: stopping`);
      process.exit(1);
    }
    ({game, seat} = message);
    table = message.cards || [];
    log(`${game}, seat ${seat} of ${message.seats}, protocol ${protocol}`);
    const ready = {type: 'ready', protocol, name: NAME, version: '1.0'};
    if (protocol === 2) ready.reuse = true;  // we treat every hello as a new match (version 2 only)
    send(ready);
  } else if (message.type === 'request') {
    let action;
    if (game === 'stellar') {
      action = chooseStellar(message, table);
    } else if (game === 'stella_quest') {
      action = chooseStellaQuest(message);
    } else if (game === 'interstellar') {
      action = chooseInterstellar(message, table);
    } else {
      action = message.legal[0];  // a game this bot does not know: still legal
    }
    send({type: 'action', protocol, id: message.id, action});
  } else if (message.type === 'game_over') {
    const {result} = message;
    const rank = (result.ranks || [])[seat];
    log(`game over: ${result.end}, our rank ${rank}, scores ${JSON.stringify(result.scores)}`);
  }
});
