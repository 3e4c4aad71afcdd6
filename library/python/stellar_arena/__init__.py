"""The Stellar Arena referee's games as a library (docs/library.md).

Game is the referee's own engine (the compiled stellar_arena._core): views and actions are
dicts, hashes the replay's hex strings. Env wraps a Game in the shape game-AI users know.
"""

from ._core import Error, Game, game_names

__all__ = ["Env", "Error", "Game", "game_names"]


class Env:
    """One game as an environment: the agent to act observes its view and picks an index into
    the legal list; rewards are the final scores, given to every seat when the game ends.

    agents: the seats 0..n-1. reset(seed) starts a new game; observe(agent) is that seat's view
    (protocol 2); action_mask() has one True per legal action of the agent to act; step(index)
    plays the legal action at that index; rewards and terminations are dicts by seat.
    """

    def __init__(self, game, config=None, seat_configs=None, seats=0, protocol=2):
        self.game_name = game
        self.config = config
        self.seat_configs = seat_configs
        self.seats = seats
        self.protocol = protocol
        self.game = None
        self.agents = []
        self.rewards = {}
        self.terminations = {}

    def reset(self, seed):
        """A new game from `seed`; returns the observation of the agent to act."""
        self.game = Game(self.game_name, seed, self.config, self.seat_configs, self.seats)
        self.agents = list(range(self.game.seats))
        self.rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        return self.observe(self.agent_selection)

    @property
    def agent_selection(self):
        """The seat to act, or None once the game is over."""
        return self.game.to_act

    def observe(self, agent):
        return self.game.view(agent, self.protocol)

    def legal_actions(self):
        return self.game.legal_actions()

    def action_mask(self, size=None):
        """A fixed-size mask for a policy with `size` outputs (default: the legal list's length):
        entry i is True when the legal list has an action i."""
        count = self.game.legal_count()
        if size is None:
            size = count
        if size < count:
            raise Error(f"action_mask: {count} legal actions do not fit a mask of {size}")
        return [i < count for i in range(size)]

    def step(self, index):
        """Plays the legal action at `index` for the agent to act; returns (observation of the
        next agent to act or None, rewards, terminations)."""
        if self.game.is_over():
            raise Error("step: the game is over; reset it")
        self.game.apply_index(index)
        if self.game.is_over():
            scores = self.game.scores()
            self.rewards = {a: scores[a] for a in self.agents}
            self.terminations = {a: True for a in self.agents}
            return None, self.rewards, self.terminations
        return self.observe(self.agent_selection), self.rewards, self.terminations
