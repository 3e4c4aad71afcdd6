#!/usr/bin/env python3
"""Starter bot in Python 3 (standard library only): plays every game of the referee.

The protocol (docs/protocol.md): one JSON object per line on stdin, one per line on stdout,
flushed. Diagnostics go to stderr only: every stdout line must be a message.

    hello    -> answer ready (protocol 2 when offered, else 1)
    request  -> answer action: one entry of "legal", copied unchanged, with the request's id
    game_over-> nothing to answer; keep reading: stdin closes (we exit) or a new hello comes

It picks its action by a simple rule per game (see choose_stellar, choose_stella_quest,
choose_interstellar), and the first legal action in a game it does not know. Every answer is
copied from "legal", so it is always legal. Run it: python3 bot.py (no arguments).
"""

import json
import sys

NAME = "starter_python"


def log(text):
    print(NAME + ": " + text, file=sys.stderr, flush=True)


def send(message):
    # One line, then flush: the referee waits for the newline and times out on a buffered line.
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


# ---------------------------------------------------------------------------------------------
# Stellar (docs/games/stellar.md). Cards are objects {"id","name","type","number","stars"} in
# protocol 1; in protocol 2 a view names them by id and hello["cards"][id] is the object.


class Cards:
    """Turns what a view holds for a card (an object, or an id in protocol 2) into the object."""

    def __init__(self, hello):
        self.table = hello.get("cards") or []  # protocol 2: element i is card i (or null)
        self.extra = {}

    def set_view(self, view):
        # A protocol-2 view carries in "cards" the objects that the hello table lacks.
        self.extra = {c["id"]: c for c in view.get("cards", []) if isinstance(c, dict)}

    def get(self, ref):
        if isinstance(ref, dict) or ref is None:
            return ref  # protocol 1: already the object (or an empty slot)
        if 0 <= ref < len(self.table) and self.table[ref] is not None:
            return self.table[ref]
        return self.extra.get(ref, {"id": ref, "type": "?", "number": 3, "stars": 0})


def number_value(card):
    return 6 if card["number"] == "6/0" else card["number"]


def extends_run(card, notebook):
    """True when the card's number is next to a number of its type already in the notebook."""
    numbers = {number_value(c) for c in notebook if c["type"] == card["type"]}
    n = number_value(card)
    return bool({n - 1, n + 1} & numbers) and n not in numbers


def choose_stellar(request, cards):
    view = request["view"]
    legal = request["legal"]
    cards.set_view(view)
    me = view["players"][view["seat"]]
    notebook = [cards.get(c) for c in me["notebook"]]
    phase = view["phase"]

    if phase == "take":
        # Take the row card with the most stars (ties: the lowest slot, the first in "legal").
        row = [cards.get(c) for c in view["row"]]
        return max(legal, key=lambda a: row[a["slot"] - 1]["stars"])

    if phase == "play":
        # A card with stars goes face up into the telescope (stars count only face up); one
        # without, or one that lengthens a run of its type, into the notebook; never face down.
        hand = {c["id"]: c for c in map(cards.get, me["hand"])}

        def value(action):
            card = hand[action["card"]]
            if action["area"] == "notebook":
                return 3 if extends_run(card, notebook) else 1
            return 2 * card["stars"] if action["face"] == "up" else 0

        return max(legal, key=value)  # max keeps the first of equals: the lowest slot

    if phase == "place":
        # Step 3's card ("placing") must go into the telescope: face up if it may.
        return next((a for a in legal if a["face"] == "up"), legal[0])

    if phase == "refresh":
        # Refresh the row only when it holds no card with 2 stars or more.
        best = max((cards.get(c)["stars"] for c in view["row"] if c is not None), default=0)
        return next(a for a in legal if a["accept"] == (best < 2))

    if phase == "keep":
        # The last card to the notebook: one that lengthens a run, else the first.
        hand = {c["id"]: c for c in map(cards.get, me["hand"])}
        return next((a for a in legal if extends_run(hand[a["card"]], notebook)), legal[0])

    return legal[0]  # choose_starter (both starters are 3s with 2 stars), or a new phase


# ---------------------------------------------------------------------------------------------
# Stella Quest (docs/games/stella_quest.md). Cards are faces: "Blue 6", "Break". Other hands
# show their colours only.

JEWELS = {1: 3, 2: 3, 3: 2, 4: 2, 5: 1, 6: 1}


def face_colour(face):
    return face.split()[0].lower()  # "Blue 6" -> "blue", "Break" -> "break"


def face_number(face):
    parts = face.split()
    return int(parts[1]) if len(parts) == 2 else 0  # a break has no number


def choose_stella_quest(request):
    view = request["view"]
    legal = request["legal"]
    me = view["players"][view["seat"]]
    phase = view["phase"]

    if phase == "play":
        # Never buy cards ("draw"). Winning while holding the marker costs a token: then try to
        # lose (a break, else the lowest card); otherwise try to win (a trump, else the highest).
        plays = [a for a in legal if a["kind"] == "play"]
        if not plays:
            return legal[0]
        if view["marker"] == view["seat"]:
            return min(plays, key=lambda a: (face_colour(a["card"]) != "break", face_number(a["card"])))
        return max(plays, key=lambda a: (face_colour(a["card"]) == view["trump"], face_number(a["card"])))

    if phase == "collect":
        # A number not yet collected, with the most jewels; else the duplicate costing least.
        have = {face_number(f) for f in me["collection"]}

        def value(action):
            n = face_number(action["card"])
            return JEWELS[n] if n not in have else -JEWELS[n]

        return max(legal, key=value)

    if phase == "top":
        # The card on top of the discard pile sets the next trump: the colour we hold most of.
        colours = me["hand_colours"]
        return max(legal, key=lambda a: colours.count(face_colour(a["card"])))

    return legal[0]


# ---------------------------------------------------------------------------------------------
# Interstellar (docs/games/interstellar.md). Each seat has a character ("hp") and its ship
# ("ship_hp"); the ship must fall before the character can be hit, and a character at 0 HP
# loses. A card is {"id","card"} in protocol 1 ("card" is its kind: "water_1", "e115", "earth",
# ...); in protocol 2 a view names it by id and hello["cards"][id] is the object (your own cards;
# the other seat's that a view names are in its "cards"). Only your own hand is shown
# (me["hand"]), the other seat's as counts.

STARS = {"proxima_centauri", "binary_star", "orions_belt"}


def choose_interstellar(request, cards):
    view = request["view"]
    legal = request["legal"]
    me = view["players"][view["seat"]]
    phase = view["phase"]

    if phase == "reaction":
        # Attacked out of turn: view["pending"] is the attack, {"by": "ship"|"character",
        # "target": "ship"|"character", "base": DAMAGE before range}. Play a Force Field (-40
        # damage) for our character, or for our ship when the blow could destroy it; else pass.
        pending = view["pending"]
        if pending["target"] == "character" or me["ship_hp"] <= pending["base"]:
            return next((a for a in legal if a["kind"] == "force_field"), legal[0])
        return legal[0]  # pass
    if phase != "main":
        return legal[0]  # timewarp: "keep" the opening hand

    turn = view["this_turn"]  # this turn's counts: moves, played_card, attacks...
    end_turn = next(a for a in legal if a["kind"] == "end_turn")
    # Deck-out: with config "literal_win", a seat whose Main deck is empty and that plays no card
    # in a turn wins when the turn ends.
    if view["config"]["deckout"] == "literal_win" and me["main_deck"] == 0 and not turn["played_card"]:
        return end_turn
    cards.set_view(view)
    hand = {c["id"]: c["card"] for c in map(cards.get, me["hand"])}  # card id -> kind
    for a in legal:
        # 1. Cards that cost nothing and help at once: an E115 (pays 3, recharges every turn), a
        #    star (character attacks need one), Water into the empty slot (moving needs Water and
        #    a star; more Water stays in hand to pay costs), Reinforcements (15 damage at the start
        #    of each of our turns), Space Junk (2 Resource cards) while it is free: the turn's
        #    first action card costs nothing, each further one a card.
        if a["kind"] != "play":
            continue
        kind = hand[a["card"]]
        if (
            kind == "e115"
            or kind in STARS
            or (kind.startswith("water") and not me["water"])
            or kind == "reinforcements"
            or (kind == "space_junk" and turn["actions"] == 0)
        ):
            return a
    # 2. The ship one step toward the Battlefield (less range penalty), once a turn: a 2nd move
    #    would end the turn. me["ship_at"]["zone"] is "planet", "orbit" or "battlefield".
    if turn["moves"] == 0:
        move = next((a for a in legal if a["kind"] == "move" and a["to"]["zone"] == "battlefield"), None)
        if move:
            return move
    # 3. Attack while we can pay: the ship first (it comes first in "legal"), then the character.
    attack = next((a for a in legal if a["kind"] == "attack"), None)
    if attack:
        return attack
    # 4. Nothing left: end the turn.
    log("turn %d ends: our hp %d, ship %d at %s" % (view["turn"], me["hp"], me["ship_hp"], me["ship_at"]["zone"]))
    return end_turn


# ---------------------------------------------------------------------------------------------


def choose_protocol(hello):
    """2 when the referee offers it, 1 when hello says 1, None for a version we do not speak."""
    if 2 in (hello.get("protocols") or []):
        return 2
    return 1 if hello.get("protocol") == 1 else None


def main():
    protocol, game, seat, cards = 1, "", 0, Cards({})
    for line in sys.stdin:  # the loop ends at EOF: the referee has closed our stdin
        message = json.loads(line)
        kind = message.get("type")

        if kind == "hello":  # a new match
            protocol = choose_protocol(message)
            if protocol is None:
                log("unknown protocol %r: stopping" % message.get("protocol"))
                return
            game, seat, cards = message["game"], message["seat"], Cards(message)
            log("%s, seat %d of %d, protocol %d" % (game, seat, message["seats"], protocol))
            ready = {"type": "ready", "protocol": protocol, "name": NAME, "version": "1.0"}
            if protocol == 2:
                ready["reuse"] = True  # we treat every hello as a new match (version 2 only)
            send(ready)

        elif kind == "request":
            if game == "stellar":
                action = choose_stellar(message, cards)
            elif game == "stella_quest":
                action = choose_stella_quest(message)
            elif game == "interstellar":
                action = choose_interstellar(message, cards)
            else:
                action = message["legal"][0]  # a game this bot does not know: still legal
            send({"type": "action", "protocol": protocol, "id": message["id"], "action": action})

        elif kind == "game_over":
            result = message["result"]
            ranks = result.get("ranks") or []
            rank = ranks[seat] if seat < len(ranks) else None
            log("game over: %s, our rank %s, scores %s" % (result["end"], rank, result.get("scores")))


if __name__ == "__main__":
    try:
        main()
    except (BrokenPipeError, KeyboardInterrupt):
        pass  # the referee is gone: nothing left to say
