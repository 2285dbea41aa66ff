"""Every roost game as an OpenSpiel game.

``import roost.interop.openspiel`` registers each registered roost game with OpenSpiel as
``roost_<name>`` (``roost_ducks``, ``roost_cubirds``, ``roost_connect4``, ...), after which
``pyspiel.load_game("roost_cubirds", {"players": 3})`` (or ``"roost_cubirds(players=3)"``)
gives an OpenSpiel game whose states wrap roost's native ones.  Parameters:

- ``players``: the player count (the roost game's default when left out);
- ``seed``: the seed of roost's start position (the deal of CuBirds, Under the Leaves and
  Wingspan is drawn from it, not at chance nodes);
- ``chance_split``: the most outcomes one OpenSpiel chance node lists (default 256).  A
  roost chance node with more (a Tweeeet row has 80,640) is shown as a few chance nodes in
  a row, each choosing a group of the outcomes (ordered by id) with the group's total
  probability, the last choosing the outcome itself: the product of the probabilities
  along the way is the outcome's own, so the distribution is exactly roost's.

What OpenSpiel sees:

- actions are roost's move ids (``num_distinct_actions`` bounds them per game); chance
  outcomes are roost's outcome ids (or, at a group stage, the group's index);
- returns are ``n * r - 1`` for roost's result ``r`` of each of the ``n`` players (a
  win alone ``n - 1``, a loss ``-1``, a shared win in between): zero-sum; a solo Wingspan
  game returns roost's solo result itself (docs/rules/wingspan.md §5.3), so Wingspan is
  registered as general-sum;
- the observation string is the position text on perfect-information games, and what the
  seat sees on hidden-information ones (the game's ``view``: its own cards, the others' as
  counts; Under the Leaves with 2-3 players, whose bag alone is hidden, its picture); the
  information-state string is the history of actions on perfect-information games, and on
  hidden-information ones the seat's first view, every action as that seat saw it (``?``
  where it was hidden) and its current view;
- Wingspan resolves chance inside, from a random state that is part of the position (its
  rules file §6.2) and that no seat sees: to OpenSpiel it is a deterministic game of
  imperfect information whose start (and so that random state) the ``seed`` parameter
  draws; a game sampled over starts varies ``seed``;
- serialization is OpenSpiel's own (the history, and the Python attributes pickled: a
  roost state pickles as its position text).

OpenSpiel's C++ ``MCTSBot`` (2.0.2) crashes on any game written in Python, its own Python
games included; its Python algorithms (``open_spiel.python.algorithms.mcts``, ``ismcts``)
play these games (docs/openspiel.md).
"""
import functools
from dataclasses import dataclass

import numpy as np
import pyspiel

from roost.core.errors import GameError, MoveError
from roost.core.games import registered_games
from roost.interop import native

PREFIX = "roost_"
DEFAULT_CHANCE_SPLIT = 256


@dataclass(frozen=True)
class Spaces:
    """What OpenSpiel needs to know of a game before any state exists."""
    actions: int            # decision move ids are below this
    outcomes: int           # chance outcome ids are below this (0: no chance nodes)
    max_length: int         # decisions in one game at most (from the rules' caps where
                            # they have one; otherwise a generous bound the tests check)


SPACES = {
    "ducks": Spaces(189, 0, 24 + 300),          # 24 setup ducks, 300 crumbs (the cap)
    "cubirds": Spaces(77, 88, 4 * 1000),        # at most four decisions a turn, 1,000 turns
    "tweeeet": Spaces(181, 1024 + 80640, 2000),
    "leaves": Spaces(15000, 16384 + 50, 13 * 4),  # thirteen tiles a garden, four gardens
    "wingspan": Spaces(248, 0, 5000),
    "connect4": Spaces(7, 0, 42),
    "dice": Spaces(3, 22, 64),
}


def game_name(info):
    return PREFIX + info.name


# ------------------------------------------------------------------ shared pieces of a state
class _Native:
    """Holds a roost state inside an OpenSpiel state's attributes: OpenSpiel clones a
    Python state by deep-copying its attributes, and a roost state copies natively."""
    __slots__ = ("state",)

    def __init__(self, state):
        self.state = state

    def __deepcopy__(self, memo):
        return _Native(self.state.copy())

    def __reduce__(self):
        return _Native, (self.state,)


class _Seen:
    """What each seat has seen so far (hidden-information games): an immutable chain of
    steps shared by clones, so a clone costs nothing however long the game."""
    __slots__ = ("parent", "step")

    def __init__(self, parent, step):
        self.parent = parent
        self.step = step

    def __deepcopy__(self, memo):
        return self

    def steps(self):
        out = []
        node = self
        while node is not None:
            out.append(node.step)
            node = node.parent
        return out[::-1]

    def __reduce__(self):
        return _seen_from_steps, (self.steps(),)


class _FirstViews:
    """The start of a hidden-information game, and what each seat saw there (computed once,
    shared by every state of the game)."""
    __slots__ = ("state", "views")

    def __init__(self, state):
        self.state = state
        self.views = {}

    def of(self, player):
        if player not in self.views:
            self.views[player] = _view(self.state, player)
        return self.views[player]

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return _FirstViews, (self.state,)


def _seen_from_steps(steps):
    node = None
    for step in steps:
        node = _Seen(node, step)
    return node


@functools.lru_cache(maxsize=64)
def _chance_table(game, text):
    """The outcomes (ids, probabilities, cumulative probabilities) of the chance node at a
    position; cached because every group stage of one node reads the same table."""
    ids, probs = native.chance_table(game.parse(text))
    return ids, probs, np.concatenate(([0.0], np.cumsum(probs)))


def split_groups(size, limit):
    """How a range of ``size`` outcomes is split so that no node lists more than ``limit``:
    the group length (every group but the last has it), or 0 when no split is needed.  The
    split is balanced: the fewest stages, with about the same count at each."""
    if size <= limit:
        return 0
    stages = 1
    while limit ** stages < size:
        stages += 1
    k = 1
    while k ** stages < size:
        k += 1
    return -(-size // k)


# ------------------------------------------------------------------ the game
class RoostGame(pyspiel.Game):
    """An OpenSpiel game backed by one roost game at one player count (a subclass per
    roost game sets ``info``)."""
    info = None

    def __init__(self, params=None):
        info = self.info
        params = dict(params or {})
        players = int(params.get("players", info.default_players))
        seed = int(params.get("seed", 0))
        split = int(params.get("chance_split", DEFAULT_CHANCE_SPLIT))
        if split < 2:
            raise GameError(f"chance_split must be at least 2, not {split}")
        self.spaces = SPACES[info.name]
        self.start = info.start(players=players, seed=seed)
        self.chance_split = split
        self.hidden = bool(self.start.hidden_info)
        # shared by every state that starts at the start (OpenSpiel makes one per clone)
        self.start_text = self.start.text()
        self.start_views = _FirstViews(self.start) if self.hidden else None
        super().__init__(_game_type(info), pyspiel.GameInfo(
            num_distinct_actions=self.spaces.actions,
            max_chance_outcomes=self.spaces.outcomes,
            num_players=players,
            min_utility=0.0 if players == 1 else -1.0,
            max_utility=1.0 if players == 1 else float(players - 1),
            utility_sum=None if info.min_players == 1 else 0.0,
            max_game_length=self.spaces.max_length), {"players": players, "seed": seed,
                                                      "chance_split": split})

    def new_initial_state(self, *args):
        if args:
            raise MoveError("roost games start from their own start position; "
                            "use RoostState.from_roost to start from another")
        return RoostState(self, self.start.copy(), self.start_text, self.start_views)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise GameError(f"roost observers take no parameters (given {params})")
        return RoostObserver(self, iig_obs_type)

    def state_from(self, roost_state):
        """An OpenSpiel state at a roost position of this game (its history starts there)."""
        return RoostState(self, roost_state.copy())


@functools.lru_cache(maxsize=None)
def _game_type(info):
    start = info.start(players=info.default_players, seed=0)
    spaces = SPACES[info.name]
    chance = (pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if spaces.outcomes else
              pyspiel.GameType.ChanceMode.DETERMINISTIC)
    return pyspiel.GameType(
        short_name=PREFIX + info.name,
        long_name=f"{info.title} (roost)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance,
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if start.hidden_info
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        # a game that can be played solo (Wingspan) has a solo utility, not a share of a
        # victory: general-sum as a type, zero-sum in fact from two players on
        utility=(pyspiel.GameType.Utility.GENERAL_SUM if info.min_players == 1
                 else pyspiel.GameType.Utility.ZERO_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={"players": info.default_players, "seed": 0,
                                 "chance_split": DEFAULT_CHANCE_SPLIT})


# ------------------------------------------------------------------ the state
class RoostState(pyspiel.State):
    """An OpenSpiel state wrapping a roost position (``roost``) and, at a chance node whose
    outcomes are split into groups, the range of outcomes still in play."""

    def __init__(self, game, roost_state, origin=None, first_views=None):
        super().__init__(game)
        self._native = _Native(roost_state)
        self._origin = origin if origin is not None else roost_state.text()   # where the history starts
        self._range = None          # (lo, hi) into the chance table while groups are chosen
        self._first_view = None
        self._seen = None
        if game.hidden:
            self._first_view = first_views or _FirstViews(roost_state.copy())

    @property
    def roost(self):
        """The roost state (do not play moves on it: use apply_action)."""
        return self._native.state

    # -- helpers
    def _table(self):
        s = self._native.state
        return _chance_table(type(s), s.text())

    def _chance_range(self):
        if self._range is not None:
            return self._range
        if native.chance_count(self._native.state) <= self.get_game().chance_split:
            return 0, native.chance_count(self._native.state)
        return 0, len(self._table()[0])

    # -- the OpenSpiel API
    def current_player(self):
        s = self._native.state
        if s.is_over:
            return pyspiel.PlayerId.TERMINAL
        if s.is_chance:
            return pyspiel.PlayerId.CHANCE
        return s.player

    def _legal_actions(self, player):
        return sorted(self._native.state.legal())

    def chance_outcomes(self):
        s = self._native.state
        if self._range is None and native.chance_count(s) <= self.get_game().chance_split:
            return sorted(s.chances())
        ids, probs, cum = self._table()
        lo, hi = self._chance_range()
        size = hi - lo
        group = split_groups(size, self.get_game().chance_split)
        total = cum[hi] - cum[lo]
        if not group:
            return [(int(ids[i]), float(probs[i] / total)) for i in range(lo, hi)]
        starts = range(lo, hi, group)
        return [(j, float((cum[min(a + group, hi)] - cum[a]) / total)) for j, a in enumerate(starts)]

    def _apply_action(self, action):
        s = self._native.state
        if s.is_over:
            raise MoveError("the game is over: no action can be applied")
        if s.is_chance:
            lo, hi = self._chance_range()
            group = split_groups(hi - lo, self.get_game().chance_split)
            if group:
                if not 0 <= action < -(-(hi - lo) // group):
                    raise MoveError(f"{action} is not a group of this chance node")
                a = lo + action * group
                self._range = (a, min(a + group, hi))
                return
            if self._range is None and native.chance_count(s) <= self.get_game().chance_split:
                if action not in s.legal():
                    raise MoveError(f"{action} is not a chance outcome here")
            elif action not in self._table()[0][lo:hi]:
                raise MoveError(f"{action} is not a chance outcome here")
            self._range = None
        elif action not in s.legal():
            raise MoveError(f"illegal action {action} in this position")
        if self._first_view is not None:
            mover = -1 if s.is_chance else s.player
            seen = tuple(native.observe(s, action, p) for p in range(s.players))
            self._seen = _Seen(self._seen, (mover, action, seen))
        s.play_unchecked(action)

    def _action_to_string(self, player, action):
        s = self._native.state
        if player == pyspiel.PlayerId.CHANCE and s.is_chance:
            lo, hi = self._chance_range()
            group = split_groups(hi - lo, self.get_game().chance_split)
            if group:
                ids = self._table()[0]
                a = lo + action * group
                b = min(a + group, hi) - 1
                return f"outcomes {s.move_name(int(ids[a]))}..{s.move_name(int(ids[b]))}"
        try:
            return s.move_name(action)
        except MoveError:
            return str(action)

    def is_terminal(self):
        return self._native.state.is_over

    def returns(self):
        s = self._native.state
        n = s.players
        if not s.is_over:
            return [0.0] * n
        r = s.result()
        if n == 1:
            return [float(r[0])]
        return [n * x - 1.0 for x in r]

    def __str__(self):
        text = self._native.state.text()
        if self._range is not None:
            text += f" (chance: {self._range[1] - self._range[0]} outcomes left in play)"
        return text

    # -- what one seat knows
    def observation_string_for(self, player):
        s = self._native.state
        text = _view(s, player) if self.get_game().hidden else s.text()
        if self._range is not None and self._outcome_visible(player):
            text += f"\nchance: outcomes {self._range[0]}..{self._range[1] - 1} in play"
        return text

    def information_state_string_for(self, player):
        game = self.get_game()
        if not game.hidden:
            return self._origin + " | " + " ".join(str(a) for a in self.history())
        s = self._native.state
        lines = [f"seat {player}", self._first_view.of(player)]
        for mover, action, seen in (self._seen.steps() if self._seen is not None else []):
            who = "chance" if mover < 0 else f"p{mover}"
            lines.append(f"{who}: {'?' if seen[player] is None else seen[player]}")
        lines.append(self.observation_string_for(player))
        return "\n".join(lines)

    def _outcome_visible(self, player):
        ids = self._table()[0]
        return native.observe(self._native.state, int(ids[self._range[0]]), player) is not None


def _view(state, player):
    """What one seat sees: the game's ``view`` where it has one (CuBirds, Wingspan), else
    its picture from that seat (Under the Leaves hides only the bag's contents)."""
    view = getattr(state, "view", None)
    return view(player) if view is not None else state.render(observer=player)


class RoostObserver:
    """OpenSpiel's observer interface: strings only (no tensors)."""

    def __init__(self, game, iig_obs_type):
        self.tensor = None
        self.dict = {}
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        if game.hidden and iig_obs_type is not None and (
                iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
                or not iig_obs_type.public_info):
            raise GameError("roost's hidden-information games observe from one seat: "
                            "public and private information together")
        self.perfect_recall = recall

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        if self.perfect_recall:
            return state.information_state_string_for(player)
        return state.observation_string_for(player)


# ------------------------------------------------------------------ registration
# One class per roost game, registered as the game's creator.  OpenSpiel's registry keeps
# the creator until the process ends, after Python has shut down: a creator that the
# module keeps alive (a class here) is never freed then, while a temporary one (a
# functools.partial) would be, without the interpreter, and abort the process at exit.
GAME_CLASSES = {}


def _register():
    for info in registered_games():
        if info.name not in SPACES:
            raise GameError(f"the OpenSpiel bridge does not know the action spaces of {info.name!r}")
        if game_name(info) in pyspiel.registered_names():
            continue
        cls = type(f"Roost{info.name.capitalize()}Game", (RoostGame,), {"info": info})
        GAME_CLASSES[info.name] = cls
        pyspiel.register_game(_game_type(info), cls)


def load(name, players=None, **params):
    """The OpenSpiel game of a roost game (by roost name or alias)."""
    from roost.core.games import get_game
    info = get_game(name)
    if players is not None:
        params["players"] = players
    return pyspiel.load_game(game_name(info), params)


_register()
