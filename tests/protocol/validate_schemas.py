#!/usr/bin/python3
"""Checks the protocol's JSON Schemas with an independent validator (python3-jsonschema, draft
2020-12), and checks protocol traffic against them.

    validate_schemas.py                  the schemas themselves, then the transcripts: protocol/
                                         transcripts/*.jsonl and every game's transcripts/*.jsonl
    validate_schemas.py --live DIR...    also every captured line under DIR (recording_bot.py)
    validate_schemas.py --game DIR...    also the game folders DIR (a game outside referee/games)

Schemas (loaded and checked by schema_files.py): protocol/schema/<message>.schema.json (one per
message, both protocol versions) and each game's own, in its folder: referee/games/<game>/schema/
(view, view-v2, action, legal, card, config, outcome; card-table for a game with a card table).
The games are the folders of referee/games/ that hold a schema/ folder, found by a glob, never
listed here. Every file must be a valid draft 2020-12 schema with a well-formed $id
(urn:stellar-arena:protocol:1:<message>, urn:stellar-arena:game:<game>:<name>) and every $ref must
resolve; the per-game schemas must be typed (no bare "type": "object").

A message is checked against its message schema, then its game-specific parts against the game's
schemas: hello.config (config), hello.cards (card-table), request.view (view for protocol 1,
view-v2 for protocol 2), request.legal (legal), action.action (action), game_over.result.outcome
(outcome). Beyond the schemas, a seat's session must follow the protocol: hello, ready, then
request/action pairs with matching ids and an action from the legal list, game_over last, every
message after the ready carrying the version the ready chose; a request goes to the seat its view
names in seat and to_act (in Interstellar, out of turn exactly in phase reaction); a version-2
view must name only cards that hello.cards holds or that the view's own "cards" lists (and
"cards" exactly those), and a version-1 view's card objects must equal the hello.cards entries
with their ids.

Live traffic: a directory holds one file per seat and match, each line exactly one line of the
wire, in order (what recording_bot.py writes). The direction follows from the message type.

Exit status: 0 all valid, 1 a problem (each printed as FILE:LINE: JSON-POINTER: message), 2 usage
or python3-jsonschema missing.
"""

import argparse
import copy
import importlib.metadata
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
# The schema files, the problem list and strict JSON lines (schema_files.py); live_schemas.py
# reaches them through this module too.
from schema_files import (  # noqa: E402,F401
    FROM_BOT, MESSAGE_SCHEMAS, MESSAGES, PROTOCOL_TRANSCRIPTS, ROOT, TO_BOT, LineError, Problems, Schemas,
    check_schemas, game_folders, jsonschema, parse_line, pointer, require_jsonschema, short, shown)
from schema_files import Draft202012Validator, RefResolver  # noqa: E402


# ---- messages ------------------------------------------------------------------------------


class Collector:
    """Validators whose schema for $defs/card also notes every value it is applied to: the cards
    a view names (ids in version 2, card objects in version 1)."""

    def __init__(self, schemas, view_id):
        self.seen = []
        store = dict(schemas.by_id)
        view = copy.deepcopy(store[view_id])
        card = view.get("$defs", {}).get("card")
        if not isinstance(card, dict):
            self.validator = None
            return
        card = dict(card)
        card["x-arena-collect"] = True
        view["$defs"]["card"] = card
        store[view_id] = view

        def collect(validator, value, instance, schema):
            self.seen.append(instance)
            return iter(())

        cls = jsonschema.validators.extend(Draft202012Validator, {"x-arena-collect": collect})
        self.validator = cls(view, resolver=RefResolver(base_uri=view_id, referrer=view, store=store))

    def cards(self, view):
        self.seen = []
        if self.validator is None:
            return []
        for _ in self.validator.iter_errors(view):
            pass
        return list(self.seen)


def join(at, path):
    """A JSON pointer below the pointer at ("" is the message itself)."""
    return (at + path if path != "/" else at) if at else path


def closest_error(error):
    """For a oneOf/anyOf that no alternative matched: the error of the alternative that came
    closest, descending into nested alternatives. The closest alternative is the one of the
    instance's type, with the fewest const mismatches (a wrong "kind") and the fewest errors."""
    while error.context:
        branches = {}
        for e in error.context:
            branches.setdefault(e.relative_schema_path[0], []).append(e)

        def distance(errs):
            wrong_type = any(e.validator == "type" and not e.relative_path for e in errs)
            consts = sum(1 for e in errs if e.validator in ("const", "enum"))
            return (wrong_type, consts, len(errs))

        best = min(branches.values(), key=distance)
        error = max(best, key=lambda e: len(e.absolute_path))
    return error


class Checker:
    def __init__(self, schemas, problems):
        self.schemas = schemas
        self.problems = problems
        self.validators = {}
        self.collectors = {}
        self.counts = {}

    def count(self, key):
        self.counts[key] = self.counts.get(key, 0) + 1

    def validate(self, where, sid, instance, at=""):
        """Reports every error of instance against schema sid; True when valid."""
        if sid not in self.validators:
            self.validators[sid] = self.schemas.validator(sid)
        errors = sorted(self.validators[sid].iter_errors(instance), key=lambda e: list(map(str, e.absolute_path)))
        for e in errors:
            detail = short(e.message, 160)
            closest = closest_error(e)
            if closest is not e:
                detail += " (closest alternative: {} at {})".format(short(closest.message, 200),
                                                                    join(at, pointer(closest.absolute_path)))
            self.problems.add(where, join(at, pointer(e.absolute_path)),
                              "{} [schema {}#{}]".format(detail, self.schemas.files.get(sid, sid),
                                                        pointer(e.absolute_schema_path)))
        return not errors

    def game_schema(self, where, game, name):
        sid = self.schemas.game_id(game, name)
        if sid is None:
            self.problems.add(where, "/", "no schema {}.schema.json in the schema/ folder of {}".format(name, game))
        return sid

    def collector(self, game, name):
        key = (game, name)
        if key not in self.collectors:
            sid = self.schemas.game_id(game, name)
            self.collectors[key] = Collector(self.schemas, sid) if sid else None
        return self.collectors[key]

    def message(self, where, game, message, session):
        """One message of a seat's session: its schema, its game's schemas, and the session rules.
        session: a dict kept between the messages of one seat."""
        kind = message.get("type")
        if kind not in MESSAGES:
            self.problems.add(where, "/type", "unknown message type {}".format(json.dumps(kind)))
            return
        self.count(kind)
        self.validate(where, self.schemas.message_id(kind), message)
        self.session(where, message, kind, session)
        if game is None:
            return
        version = message.get("protocol")
        if kind == "hello":
            sid = self.game_schema(where, game, "config")
            if sid and "config" in message:
                self.validate(where, sid, message["config"], "/config")
            has_table = "card-table" in self.schemas.games.get(game, {})
            if "cards" in message and not has_table:
                self.problems.add(where, "/cards", "hello.cards from {}, a game without a card table (no "
                                  "card-table.schema.json in the schema/ folder of {}): docs/protocol.md, 'Version 2', sends "
                                  "it only for a game with one".format(game, game))
            elif "cards" not in message and has_table and 2 in (message.get("protocols") or []):
                self.problems.add(where, "/", "hello offers protocol 2 for {}, a game with a card table, "
                                  "without its cards".format(game))
            elif "cards" in message:
                sid = self.game_schema(where, game, "card-table")
                if sid and self.validate(where, sid, message["cards"], "/cards"):
                    for i, card in enumerate(message["cards"]):
                        if card is not None and card.get("id") != i:
                            self.problems.add(where, "/cards/{}/id".format(i),
                                              "is {}: the table is indexed by id".format(card.get("id")))
                    session["table"] = message["cards"]
        elif kind == "request":
            name = "view-v2" if version == 2 else "view"
            sid = self.game_schema(where, game, name)
            if sid and "view" in message:
                self.count("{} request v{}".format(game, version))
                if self.validate(where, sid, message["view"], "/view"):
                    self.view_cards(where, game, name, message["view"], session)
                    if name == "view":
                        self.derived_v2(where, game, message["view"])
                    self.seat_to_act(where, game, message)
            sid = self.game_schema(where, game, "legal")
            if sid and "legal" in message:
                self.validate(where, sid, message["legal"], "/legal")
        elif kind == "action":
            sid = self.game_schema(where, game, "action")
            if sid and "action" in message:
                self.validate(where, sid, message["action"], "/action")
        elif kind == "game_over":
            outcome = message.get("result", {}).get("outcome") if isinstance(message.get("result"), dict) else None
            if outcome is not None:
                sid = self.game_schema(where, game, "outcome")
                if sid:
                    self.validate(where, sid, outcome, "/result/outcome")

    def seat_to_act(self, where, game, message):
        """A request goes to the seat the view says is to act, and only that seat sees it: the
        request's seat, the view's seat and its to_act agree. That seat need not be the one whose
        turn it is: Interstellar asks the attacked seat out of turn (phase reaction, view.on_turn
        the attacker), and such a request must say so."""
        view = message["view"]
        seat = message.get("seat")
        if view.get("seat") != seat:
            self.problems.add(where, "/view/seat", "is {}, but the request is for seat {}".format(view.get("seat"), seat))
        if "to_act" in view and view["to_act"] != seat:
            self.problems.add(where, "/view/to_act", "is {}, but the request is for seat {}".format(view["to_act"], seat))
        if game == "interstellar" and "on_turn" in view:
            out_of_turn = view["on_turn"] != seat
            if out_of_turn != (view.get("phase") == "reaction"):
                self.problems.add(where, "/view/on_turn", "seat {} asked in phase {} while seat {} is on turn".format(
                    seat, json.dumps(view.get("phase")), view["on_turn"]))
            elif out_of_turn:
                self.count("interstellar requests out of turn")

    def derived_v2(self, where, game, view):
        """A version-1 view of a game with a card table, its card objects replaced by their ids,
        is a version-2 view (without "cards", which only a seat table that lacks a card needs):
        view-v2 is checked on every version-1 view there is, whatever the referee speaks."""
        card_sid = self.schemas.game_id(game, "card")
        v2_sid = self.schemas.game_id(game, "view-v2")
        if "card-table" not in self.schemas.games.get(game, {}) or not card_sid or not v2_sid:
            return
        if card_sid not in self.validators:
            self.validators[card_sid] = self.schemas.validator(card_sid)
        card_validator = self.validators[card_sid]

        def ids(node):
            if isinstance(node, dict):
                if card_validator.is_valid(node):
                    return node["id"]
                return {k: ids(v) for k, v in node.items()}
            if isinstance(node, list):
                return [ids(v) for v in node]
            return node

        self.count("{} v2 views derived from v1".format(game))
        self.validate(where + " (as version 2)", v2_sid, ids(view), "/view")

    def view_cards(self, where, game, name, view, session):
        """The cards a valid view names, against the seat's card table (hello.cards)."""
        table = session.get("table")
        collector = self.collector(game, name)
        if collector is None or collector.validator is None:
            return
        named = collector.cards(view)
        if name == "view":
            # Version 1: every card object is the table's entry for its id (but for the entry's
            # "owner" where the game's card objects carry none: Interstellar's).
            for card in named:
                if not isinstance(card, dict) or table is None:
                    continue
                cid = card.get("id")
                entry = table[cid] if isinstance(cid, int) and 0 <= cid < len(table) else None
                if isinstance(entry, dict) and "owner" not in card:
                    entry = {k: v for k, v in entry.items() if k != "owner"}
                if entry is not None and entry != card:
                    self.problems.add(where, "/view", "card {} is {}, but hello.cards has {}".format(
                        cid, json.dumps(card, sort_keys=True), json.dumps(entry, sort_keys=True)))
            return
        # Version 2: every id resolves through hello.cards or the view's own cards, and the view's
        # cards are exactly the ids the table lacks.
        if table is None:
            self.problems.add(where, "/view", "a version-2 view of a game with a card table, but hello had no cards")
            return
        ids = {c for c in named if isinstance(c, int) and not isinstance(c, bool)}
        lacking = {c for c in ids if not (0 <= c < len(table)) or table[c] is None}
        extra = view.get("cards", [])
        listed = {}
        for i, card in enumerate(extra):
            if card.get("id") in listed:
                self.problems.add(where, "/view/cards/{}".format(i), "card {} listed twice".format(card.get("id")))
            listed[card.get("id")] = card
        if set(listed) != lacking:
            self.problems.add(where, "/view/cards", "lists ids {} but the view names {} that hello.cards lacks".format(
                sorted(listed), sorted(lacking)))
        for cid in sorted(set(listed) & ids):
            if 0 <= cid < len(table) and table[cid] is not None and table[cid] != listed[cid]:
                self.problems.add(where, "/view/cards", "card {} differs from hello.cards".format(cid))
        self.count("{} v2 view cards resolved".format(game))
        if lacking:
            self.count("{} v2 views with their own cards".format(game))

    def session(self, where, message, kind, session):
        """The lifecycle of one seat: hello, ready, request/action pairs, game_over; versions."""
        state = session.setdefault("state", "start")
        version = message.get("protocol")
        if session.get("over"):
            self.problems.add(where, "/type", "{} after game_over".format(kind))
            return
        if kind == "hello":
            if state != "start":
                self.problems.add(where, "/type", "a second hello")
            session["state"] = "hello"
            session["offered"] = message.get("protocols", [1])
            session["game"] = message.get("game")
            return
        if state == "start":
            self.problems.add(where, "/type", "{} before hello".format(kind))
            return
        if kind == "ready":
            if state != "hello":
                self.problems.add(where, "/type", "ready after {}".format(state))
            if version not in session.get("offered", [1]):
                self.problems.add(where, "/protocol", "{} is not among the versions hello offered {}".format(
                    json.dumps(version), session.get("offered")))
            session["version"] = version
            session["state"] = "ready"
            return
        if session.get("version") is not None and version != session["version"]:
            self.problems.add(where, "/protocol", "{} says protocol {}, but the seat chose {} in its ready".format(
                kind, json.dumps(version), session["version"]))
        if kind == "request":
            if state == "request":
                self.problems.add(where, "/type", "a request before the action of request {}".format(session.get("id")))
            session["state"] = "request"
            session["id"] = message.get("id")
            session["legal"] = message.get("legal")
            if isinstance(session.get("last_id"), int) and isinstance(message.get("id"), int):
                if message["id"] <= session["last_id"]:
                    self.problems.add(where, "/id", "{} after {}: ids increase".format(message["id"], session["last_id"]))
            session["last_id"] = message.get("id")
        elif kind == "action":
            if state != "request":
                self.problems.add(where, "/type", "an action without a pending request")
            elif message.get("id") != session.get("id"):
                self.problems.add(where, "/id", "{} answers request {}".format(message.get("id"), session.get("id")))
            elif message.get("action") not in (session.get("legal") or []):
                self.problems.add(where, "/action", "not in the request's legal list")
            session["state"] = "action"
        elif kind == "game_over":
            if state == "request":
                self.problems.add(where, "/type", "game_over while request {} is pending".format(session.get("id")))
            session["over"] = True


# ---- the transcripts: protocol/transcripts/ and each game's transcripts/ ----------------------


def integral_floats(value):
    """True when a bot line has a float with an integral value (1.0), which JSON Schema takes for
    an integer and the codec refuses (docs/protocol.md, 'Note for schema users')."""
    if isinstance(value, float):
        return value.is_integer()
    if isinstance(value, dict):
        return any(integral_floats(v) for v in value.values())
    if isinstance(value, list):
        return any(integral_floats(v) for v in value)
    return False


def transcript_folders(games):
    """protocol/transcripts/ and the transcripts/ folder of each game ({game: folder})."""
    folders = [PROTOCOL_TRANSCRIPTS]
    for _, folder in sorted(games.items()):
        if os.path.isdir(os.path.join(folder, "transcripts")):
            folders.append(os.path.join(folder, "transcripts"))
    return folders


def check_transcripts(folder, checker, problems):
    files = sorted(f for f in os.listdir(folder) if f.endswith(".jsonl"))
    if not files:
        problems.add(shown(folder), "/", "no transcripts")
    for name in files:
        path = os.path.join(folder, name)
        rel = shown(path)
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        if not lines:
            problems.add(rel, "/", "empty")
            continue
        first = json.loads(lines[0])
        if "transcript" in first:
            check_session_transcript(rel, first["transcript"], lines, checker, problems)
        elif "case" in first:
            check_bad_lines(rel, lines, checker, problems)
        else:
            problems.add(rel + ":1", "/", "neither a transcript header nor a bad-line case")


def check_session_transcript(rel, header, lines, checker, problems):
    game = header.get("game")
    sessions = {}
    for number, text in enumerate(lines[1:], start=2):
        where = "{}:{}".format(rel, number)
        try:
            entry = parse_line(text)
        except LineError as e:
            problems.add(where, "/", str(e))
            continue
        message = entry.get("line")
        if not isinstance(message, dict):
            problems.add(where, "/line", "not a message object")
            continue
        kind = message.get("type")
        expected = TO_BOT if entry.get("dir") == "to_bot" else FROM_BOT if entry.get("dir") == "from_bot" else set()
        if kind not in expected:
            problems.add(where, "/dir", "{} {} goes the wrong way".format(entry.get("dir"), json.dumps(kind)))
        session = sessions.setdefault(entry.get("seat"), {})
        checker.count("transcript lines")
        if str(entry.get("note", "")).startswith("refused:"):
            # A bot line the transcript shows being refused (a fault): the schemas, or the session
            # rules for what a schema cannot see (the id, the version), must refuse it too.
            found = Problems()
            checker.problems, kept = found, checker.problems
            try:
                checker.message(where + " (line)", game, message, session)
            finally:
                checker.problems = kept
            checker.count("refused bot lines")
            if not found.items and not integral_floats(message):
                problems.add(where, "/line", "the transcript says the referee refuses this line, but it validates")
            continue
        checker.message(where + " (line)", game, message, session)


def check_bad_lines(rel, lines, checker, problems):
    """The refused ready and action lines must not validate either, but for what a schema cannot
    see: an integral float (JSON Schema's integers include 1.0), the id of the pending request,
    and the version the seat chose in its ready (the case's "version", 1 by default)."""
    schema_for = {"read_ready": "ready", "read_action": "action"}
    for number, text in enumerate(lines, start=1):
        where = "{}:{}".format(rel, number)
        case = json.loads(text)
        message_type = schema_for.get(case.get("refused_by"))
        if message_type is None or "line" not in case:
            continue
        try:
            message = parse_line(case["line"])
        except LineError:
            continue
        checker.count("refused bot lines")
        validator = checker.schemas.validator(checker.schemas.message_id(message_type))
        if not validator.is_valid(message):
            continue
        if integral_floats(message):
            continue
        if message_type == "action" and message.get("id") != case.get("expect_id"):
            continue
        if message_type == "action" and message.get("protocol") in (1, 2) and (
                "protocol" in case.get("error", "") or message.get("protocol") != case.get("version", 1)):
            continue  # a version this referee speaks, but not the one the seat chose in its ready
        problems.add(where, "/line", "the {} schema accepts a line the codec refuses ({}): {}".format(
            message_type, json.dumps(case.get("case")), short(case["line"])))


# ---- live traffic ----------------------------------------------------------------------------


def check_live(folder, checker, problems, schemaless=()):
    """Every *.jsonl under folder: one seat's lines of one match, exactly as on the wire. A game
    in schemaless has no schema/ folder (schemas are optional): its lines are checked against the
    message schemas and the session rules only."""
    found = []
    for top, dirs, names in os.walk(folder):
        dirs.sort()
        found.extend(os.path.join(top, n) for n in sorted(names) if n.endswith(".jsonl"))
    if not found:
        problems.add(folder, "/", "no captured *.jsonl files")
    summaries = {}
    for path in found:
        summaries[path] = check_live_file(path, checker, problems, schemaless)
    return summaries


def check_live_file(path, checker, problems, schemaless):
    session = {}
    game = None
    summary = {"lines": 0, "requests": 0, "version": None, "game": None, "over": False}
    with open(path, "rb") as f:
        raw = f.read()
    if raw and not raw.endswith(b"\n"):
        problems.add(path, "/", "the last line has no newline")
    for number, line in enumerate(raw.split(b"\n")[:-1] if raw.endswith(b"\n") else raw.split(b"\n"), start=1):
        where = "{}:{}".format(path, number)
        summary["lines"] += 1
        try:
            text = line.decode("utf-8")
            message = parse_line(text)
        except UnicodeDecodeError as e:
            problems.add(where, "/", "invalid UTF-8: {}".format(e))
            continue
        except LineError as e:
            problems.add(where, "/", str(e))
            continue
        if number == 1:
            if message.get("type") != "hello":
                problems.add(where, "/type", "the first line is not hello")
            game = message.get("game")
            summary["game"] = game
            if game not in checker.schemas.games:
                if game not in schemaless:
                    problems.add(where, "/game", "no schemas for game {}".format(json.dumps(game)))
                game = None
        checker.message(where, game, message, session)
        checker.count("live lines")
        kind = message.get("type")
        if kind == "ready":
            summary["version"] = message.get("protocol")
        elif kind == "request":
            summary["requests"] += 1
        elif kind == "game_over":
            summary["over"] = True
    if summary["lines"] == 0:
        problems.add(path, "/", "empty")
    return summary


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--schemas", default=MESSAGE_SCHEMAS, help="the message schemas")
    parser.add_argument("--game", nargs="+", default=[], metavar="DIR",
                        help="a game folder outside referee/games (its schema/ and transcripts/)")
    parser.add_argument("--transcripts", nargs="+", default=None, metavar="DIR",
                        help="instead of protocol/transcripts and every game's transcripts/")
    parser.add_argument("--live", nargs="+", default=[], metavar="DIR", help="captured lines (recording_bot.py)")
    parser.add_argument("--no-transcripts", action="store_true", help="only the schemas and --live")
    args = parser.parse_args(argv)
    require_jsonschema()
    problems = Problems()
    games = game_folders(args.game)
    schemas = Schemas(args.schemas, games)
    check_schemas(schemas, problems)
    checker = Checker(schemas, problems)
    if len(problems) == 0:  # traffic is only worth checking against sound schemas
        if not args.no_transcripts:
            for folder in args.transcripts or transcript_folders(games):
                check_transcripts(folder, checker, problems)
        for folder in args.live:
            check_live(folder, checker, problems)
    for p in problems.items:
        print(p)
    counts = ", ".join("{} {}".format(n, k) for k, n in sorted(checker.counts.items()))
    print("jsonschema {} (Draft202012Validator), {} schema files; checked: {}".format(
        importlib.metadata.version("jsonschema"), len(schemas.by_id), counts or "nothing"))
    if problems.items:
        print("FAILED: {} problem(s)".format(len(problems.items)))
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
