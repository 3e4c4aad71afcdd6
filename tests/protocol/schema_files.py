#!/usr/bin/python3
"""The protocol's JSON Schema files, loaded and checked (a part of validate_schemas.py, which
checks traffic against them): the message schemas of protocol/schema/ and each game's own, in
the schema/ folder of its game folder (referee/games/<game>/, found by a glob: game_folders());
the problem list every check reports into, and strict JSON lines as the codec reads them.
"""

import copy
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

try:
    import jsonschema
    from jsonschema import Draft202012Validator, RefResolver
except ImportError:  # pragma: no cover - the message is the point
    jsonschema = None
MISSING_JSONSCHEMA = (
    "FAIL: python3-jsonschema is not installed for {python}: this test needs Debian's python3-jsonschema "
    "(draft 2020-12). Run scripts/test.sh, which installs the test tools "
    "(ARENA_TEST_TOOLS=1 scripts/setup.sh), or: apt-get install python3-jsonschema"
)

MESSAGES = ["hello", "ready", "request", "action", "game_over"]
TO_BOT = {"hello", "request", "game_over"}
FROM_BOT = {"ready", "action"}
GAME_FILES = ["view", "view-v2", "action", "legal", "card", "config", "outcome"]
DRAFT = "https://json-schema.org/draft/2020-12/schema"


def require_jsonschema():
    if jsonschema is None:
        print(MISSING_JSONSCHEMA.format(python=sys.executable), file=sys.stderr)
        sys.exit(2)


def pointer(path):
    """A JSON pointer ("/view/players/0") from a jsonschema path (a deque of keys and indices)."""
    parts = [str(p).replace("~", "~0").replace("/", "~1") for p in path]
    return "/" + "/".join(parts) if parts else "/"


def shown(path):
    """A path as the report shows it: relative to the repository when inside it."""
    rel = os.path.relpath(path, ROOT)
    return path if rel.startswith("..") else rel


def short(text, limit=300):
    text = str(text)
    return text if len(text) <= limit else text[:limit] + "..."


class Problems:
    """Every problem found, as "FILE:LINE: JSON-POINTER: message"."""

    def __init__(self):
        self.items = []

    def add(self, where, path, message):
        self.items.append("{}: {}: {}".format(where, path, message))

    def __len__(self):
        return len(self.items)


# ---- strict JSON, the way the codec reads a line -------------------------------------------


class LineError(ValueError):
    pass


def _no_duplicates(pairs):
    out = {}
    for key, value in pairs:
        if key in out:
            raise LineError('duplicate key "{}"'.format(key))
        out[key] = value
    return out


def _no_constant(name):
    raise LineError("{} is not JSON".format(name))


def parse_line(text):
    """One JSON object per line: refuses duplicate keys, NaN/Infinity and a non-object."""
    try:
        value = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except LineError:
        raise
    except ValueError as e:
        raise LineError("invalid JSON: {}".format(e))
    if not isinstance(value, dict):
        raise LineError("the line is not a JSON object")
    return value


# ---- the schemas ---------------------------------------------------------------------------


MESSAGE_SCHEMAS = os.path.join(ROOT, "protocol", "schema")
PROTOCOL_TRANSCRIPTS = os.path.join(ROOT, "protocol", "transcripts")


def game_folders(extra=()):
    """{game: folder} of every game folder with a schema/ folder: referee/games/<game>/ (a glob,
    so a new game is found without a list of games), plus the extra folders (named by their
    last component, as referee/games/<game>/ is)."""
    games_dir = os.path.join(ROOT, "referee", "games")
    folders = [os.path.join(games_dir, n) for n in sorted(os.listdir(games_dir))]
    folders += [os.path.abspath(f) for f in extra]
    return {os.path.basename(os.path.normpath(f)): f for f in folders if os.path.isdir(os.path.join(f, "schema"))}


class Schemas:
    """The message schemas of protocol/schema/ and every game's schema/ folder ({game: folder},
    game_folders())."""

    def __init__(self, folder=MESSAGE_SCHEMAS, games=None):
        self.folder = folder
        self.by_id = {}  # $id -> schema
        self.files = {}  # $id -> path
        self.games = {}  # game -> {name: $id}
        self.load_errors = []
        for name in sorted(os.listdir(folder)):
            if name.endswith(".schema.json"):
                self._load(os.path.join(folder, name), game=None)
        for game, game_folder in sorted((game_folders() if games is None else games).items()):
            path = os.path.join(game_folder, "schema")
            for sub in sorted(os.listdir(path)):
                if sub.endswith(".schema.json"):
                    self._load(os.path.join(path, sub), game=game)

    def _load(self, path, game):
        rel = shown(path)
        try:
            with open(path, encoding="utf-8") as f:
                schema = json.load(f, object_pairs_hook=_no_duplicates)
        except (OSError, ValueError) as e:
            self.load_errors.append((rel, "/", "cannot read the schema: {}".format(e)))
            return
        stem = os.path.basename(path)[: -len(".schema.json")]
        expected = ("urn:stellar-arena:game:{}:{}".format(game, stem) if game
                    else "urn:stellar-arena:protocol:1:{}".format(stem))
        sid = schema.get("$id") if isinstance(schema, dict) else None
        if sid != expected:
            self.load_errors.append((rel, "/$id", "is {}, expected {}".format(json.dumps(sid), expected)))
            sid = expected
        if sid in self.by_id:
            self.load_errors.append((rel, "/$id", "{} is also the $id of {}".format(sid, self.files[sid])))
            return
        self.by_id[sid] = schema
        self.files[sid] = rel
        if game:
            self.games.setdefault(game, {})[stem] = sid

    def message_id(self, message):
        return "urn:stellar-arena:protocol:1:{}".format(message)

    def game_id(self, game, name):
        return self.games.get(game, {}).get(name)

    def validator(self, sid, store=None):
        store = self.by_id if store is None else store
        schema = store[sid]
        resolver = RefResolver(base_uri=sid, referrer=schema, store=dict(store))
        return Draft202012Validator(schema, resolver=resolver)


def walk(node, path=()):
    """Every (JSON pointer tuple, subschema) of a schema document, objects only."""
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            if key in ("const", "enum", "default", "examples"):
                continue
            yield from walk(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from walk(value, path + (i,))


def v2_from_v1(v1, v2):
    """What a game's view-v2 schema must be, given its view schema: the same document with its
    own $id and refs, and only its card definition, its "cards" property, title and descriptions
    of its own."""
    v1_id, v2_id = v1["$id"], v2["$id"]
    expected = copy.deepcopy(v1)

    def retarget(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "$ref" and isinstance(value, str) and value.startswith(v1_id + "#"):
                    node[key] = v2_id + value[len(v1_id):]
                else:
                    retarget(value)
        elif isinstance(node, list):
            for value in node:
                retarget(value)

    retarget(expected)
    expected["$id"] = v2_id
    expected.setdefault("$defs", {})["card"] = v2.get("$defs", {}).get("card")
    if "cards" in v2.get("properties", {}):
        expected["properties"]["cards"] = v2["properties"]["cards"]
    return expected


def strip_annotations(node):
    if isinstance(node, dict):
        return {k: strip_annotations(v) for k, v in node.items() if k not in ("title", "description", "$comment")}
    if isinstance(node, list):
        return [strip_annotations(v) for v in node]
    return node


def check_schemas(schemas, problems):
    """(a): every schema file is a valid draft 2020-12 schema, well named, its refs resolve, and
    the per-game ones are typed."""
    for rel, path, message in schemas.load_errors:
        problems.add(rel, path, message)
    for message in MESSAGES:
        if schemas.message_id(message) not in schemas.by_id:
            problems.add("protocol/schema", "/", "no {}.schema.json".format(message))
    if not schemas.games:
        problems.add("referee/games", "/", "no game folder with a schema/ folder")
    for game, names in sorted(schemas.games.items()):
        for name in GAME_FILES:
            if name not in names:
                problems.add("the schema/ folder of " + game, "/", "no {}.schema.json".format(name))
    for sid, schema in sorted(schemas.by_id.items()):
        rel = schemas.files[sid]
        if schema.get("$schema") != DRAFT:
            problems.add(rel, "/$schema", "expected {}".format(DRAFT))
        try:
            Draft202012Validator.check_schema(schema)
        except jsonschema.exceptions.SchemaError as e:
            problems.add(rel, pointer(e.absolute_path), "not a valid draft 2020-12 schema: " + short(e.message))
            continue
        if not schema.get("title") or not schema.get("description"):
            problems.add(rel, "/", "a schema needs a title and a description")
        validator = schemas.validator(sid)
        per_game = ":game:" in sid
        for path, node in walk(schema):
            ref = node.get("$ref")
            if isinstance(ref, str):
                if not ref.startswith("urn:stellar-arena:"):
                    # jsonschema 4.10 resolves a relative ref against the document it started
                    # from, not the one it is in: refs name their target by its full $id.
                    problems.add(rel, pointer(path + ("$ref",)), "{} is not a full urn:stellar-arena: $id".format(ref))
                    continue
                try:
                    validator.resolver.resolve(ref)
                except jsonschema.exceptions.RefResolutionError as e:
                    problems.add(rel, pointer(path + ("$ref",)), "does not resolve: " + short(e))
            if per_game and node.get("type") == "object" and path[-1:] != ("not",):
                if "properties" not in node or node.get("additionalProperties") is not False:
                    problems.add(rel, pointer(path), 'an object type without its "properties" and '
                                 '"additionalProperties": false (a placeholder, not a type)')
    # A game's view-v2 is its view with ids for cards (or, for a game without a card table, the
    # view itself by reference): the two files must not drift apart.
    for game, names in sorted(schemas.games.items()):
        if "view" not in names or "view-v2" not in names:
            continue
        v1, v2 = schemas.by_id[names["view"]], schemas.by_id[names["view-v2"]]
        if v2.get("$ref") == v1["$id"]:
            continue
        if strip_annotations(v2_from_v1(v1, v2)) != strip_annotations(v2):
            problems.add(schemas.files[names["view-v2"]], "/", "differs from view.schema.json by more than its "
                         "card definition ($defs/card) and its \"cards\" property")
        card = v2.get("$defs", {}).get("card", {})
        if not isinstance(card, dict) or "card-table" not in names:
            problems.add(schemas.files[names["view-v2"]], "/$defs/card", "a version-2 view with ids for cards "
                         "needs $defs/card and the game's card-table.schema.json")
