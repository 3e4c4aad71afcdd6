"""The Python module stellar_arena against the referee (tests/library/CMakeLists.txt, library_python).

Run by Debian's python3 with PYTHONPATH at the build's python/ folder: every game's golden
transcript and the replays the library_replays fixture recorded (ARENA_LIBRARY_REPLAYS), step by
step, give the referee's views, legal lists, hashes and results; determinize keeps the acting
seat's view; the environment plays whole games; bad input raises stellar_arena.Error.
"""

import json
import os
import pathlib
import unittest

import stellar_arena


def replay_paths():
    root = pathlib.Path(os.environ["ARENA_LIBRARY_REPLAYS"])
    return sorted(p for p in root.glob("*/replays/*.jsonl"))


def view_hash(text):
    """docs/library.md's definition of the view hash, written out."""
    h = 0xCBF29CE484222325
    for byte in text.encode("utf-8"):
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    for multiplier in (0xFF51AFD7ED558CCD, 0xC4CEB9FE1A85EC53):
        h = ((h ^ (h >> 33)) * multiplier) & 0xFFFFFFFFFFFFFFFF
    return format(h ^ (h >> 33), "016x")


def line_of(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class Transcripts(unittest.TestCase):
    def test_golden_transcripts(self):
        names = stellar_arena.game_names()
        self.assertEqual(len(names), 3)
        for name in names:
            path = pathlib.Path(os.environ["ARENA_SOURCE_DIR"], "referee/games", name, "transcripts/match.jsonl")
            lines = [json.loads(l) for l in path.read_text().splitlines()]
            header = lines[0]["transcript"]
            hello = lines[1]["line"]
            game = stellar_arena.Game(name, header["seed"], hello["config"], None, header["seats"])
            for index in header["prefix"]:
                game.apply_index(index)
            version = [1] * game.seats
            requests = 0
            for entry in lines[1:]:
                seat, line = entry["seat"], entry["line"]
                with self.subTest(game=name, line=line["type"], seat=seat):
                    if line["type"] == "hello" and "cards" in line:
                        self.assertEqual(game.card_table(seat), line["cards"])
                    elif line["type"] == "ready":
                        version[seat] = line.get("protocol", 1)
                    elif line["type"] == "request":
                        self.assertEqual(game.to_act, seat)
                        self.assertEqual(game.view(seat, version[seat]), line["view"])
                        self.assertEqual(game.view_text(seat, version[seat]), line_of(line["view"]))
                        self.assertEqual(game.legal_actions(), line["legal"])
                        requests += 1
                    elif line["type"] == "action":
                        game.apply(line["action"])
                    elif line["type"] == "game_over":
                        self.assertTrue(game.is_over())
                        self.assertIsNone(game.to_act)
                        self.assertEqual(game.scores(), line["result"]["scores"])
                        self.assertEqual(game.outcome(), line["result"]["outcome"])
            self.assertGreater(requests, 0)


class Replays(unittest.TestCase):
    def test_recorded_replays(self):
        paths = replay_paths()
        self.assertGreaterEqual(len(paths), 30)
        games = set()
        steps = 0
        for path in paths:
            lines = [json.loads(l) for l in path.read_text().splitlines()]
            header, footer = lines[0], lines[-1]
            games.add(header["game"])
            seat_configs = [b.get("seat_config") for b in header["bots"]]
            game = stellar_arena.Game(header["game"], header["seed"], header["config"], seat_configs, header["seats"])
            self.assertEqual(game.state_hash(), header["initial_hash"], path)
            for step in (l for l in lines if l.get("type") == "step"):
                seat = step["seat"]
                self.assertEqual(game.to_act, seat, path)
                self.assertEqual(game.view_hash(seat), step["view_hash"], path)
                if step["n"] % 8 == 0:
                    self.assertEqual(view_hash(game.view_text(seat, 2)), step["view_hash"], path)
                self.assertIn(step["action"], game.legal_actions(), path)
                if step["n"] % 8 == 0:
                    d = game.determinize(seat, step["n"])
                    self.assertEqual(d.view(seat), game.view(seat), path)
                    self.assertEqual(d.legal_actions(), game.legal_actions(), path)
                game.apply(step["action"])
                self.assertEqual(game.state_hash(), step["hash"], path)
                steps += 1
            result = footer["result"]
            if result["end"] == "finished":
                self.assertTrue(game.is_over())
                self.assertEqual(game.scores(), result["scores"], path)
                self.assertEqual(game.outcome(), result["outcome"], path)
            n = sum(1 for l in lines if l.get("type") == "step")
            self.assertEqual(stellar_arena.Game.from_replay(str(path), n).state_hash(), game.state_hash())
        self.assertEqual(games, {"stellar", "stella_quest", "interstellar"})
        self.assertGreater(steps, 1000)


class Library(unittest.TestCase):
    def test_clone_rollout_determinize(self):
        for name in stellar_arena.game_names():
            game = stellar_arena.Game(name, 9)
            before = game.state_hash()
            copy = game.clone()
            scores = copy.rollout(4)
            self.assertTrue(copy.is_over())
            self.assertEqual(copy.scores(), scores)
            self.assertEqual(game.state_hash(), before)
            self.assertFalse(game.is_over())
            seat = game.to_act
            d = game.determinize(seat, 1)
            self.assertEqual(d.view(seat, 1), game.view(seat, 1))
            self.assertEqual(d.view_hash(seat), game.view_hash(seat))

    def test_env_plays_whole_games(self):
        for name in stellar_arena.game_names():
            env = stellar_arena.Env(name)
            obs = env.reset(seed=3)
            self.assertEqual(obs, env.game.view(env.agent_selection))
            self.assertEqual(env.agents, list(range(env.game.seats)))
            moves = 0
            while not all(env.terminations.values()):
                mask = env.action_mask(size=env.game.legal_count() + 2)
                self.assertEqual(mask.count(True), env.game.legal_count())
                self.assertFalse(mask[-1])
                obs, rewards, terms = env.step(moves % env.game.legal_count())
                moves += 1
            self.assertIsNone(obs)
            self.assertIsNone(env.agent_selection)
            self.assertEqual([env.rewards[a] for a in env.agents], env.game.scores())
            self.assertGreater(moves, 5)
            with self.assertRaises(stellar_arena.Error):
                env.step(0)
            env.reset(seed=3)
            self.assertFalse(env.game.is_over())
            self.assertEqual(env.rewards, {a: 0.0 for a in env.agents})

    def test_from_request(self):
        shane = {"character": "shane",
                 "resource": {"water_1": 9, "water_2": 3, "energy_1": 6, "energy_2": 3, "energy_3": 1, "ammo_1": 6,
                              "ammo_2": 3, "ammo_3": 1, "e115": 2, "halley": 1, "proxima_centauri": 2,
                              "binary_star": 1, "orions_belt": 1}}
        for name, seats, config, seat_configs in (("stella_quest", 3, None, None), ("stellar", 2, None, None),
                                                  ("interstellar", 2, None, None),
                                                  ("interstellar", 2, {"max_turns": 40}, [None, shane])):
            game = stellar_arena.Game(name, 6, config=config, seat_configs=seat_configs, seats=seats)
            rebuilt = 0
            while not game.is_over():
                seat = game.to_act
                # Interstellar reads protocol 2's views too (cards by id, kinds from the deck lists).
                for protocol in (1, 2) if name == "interstellar" else (1,):
                    request = {"type": "request", "id": 1, "seat": seat, "protocol": protocol,
                               "view": game.view(seat, protocol), "legal": game.legal_actions()}
                    world = stellar_arena.Game.from_request(name, request, seed=rebuilt, config=config,
                                                            seat_configs=seat_configs)
                    self.assertEqual(world.view(seat, protocol), request["view"])
                    self.assertEqual(world.legal_actions(), request["legal"])
                    self.assertEqual(world.seats, seats)
                rebuilt += 1
                game.apply_index(rebuilt % game.legal_count())
            self.assertGreater(rebuilt, 10)
        # Interstellar's deck lists are the caller's to give: the opponent's own list is not in the view.
        other = stellar_arena.Game("interstellar", 1, seat_configs=[None, shane])
        seat = other.to_act
        with self.assertRaisesRegex(stellar_arena.Error, "seat configs"):
            stellar_arena.Game.from_request("interstellar", {"seat": seat, "view": other.view(seat, 1)}, seed=1)

    def test_errors(self):
        with self.assertRaisesRegex(stellar_arena.Error, 'unknown game "chess"'):
            stellar_arena.Game("chess", 1)
        game = stellar_arena.Game("stella_quest", 2)
        before = game.state_hash()
        with self.assertRaisesRegex(stellar_arena.Error, "refused"):
            game.apply({"kind": "fly"})
        with self.assertRaisesRegex(stellar_arena.Error, "seat 4"):
            game.view(4)
        with self.assertRaises(TypeError):
            game.apply({"kind": object()})
        self.assertIsInstance(stellar_arena.Error("x"), ValueError)
        self.assertEqual(game.state_hash(), before)


if __name__ == "__main__":
    unittest.main()
