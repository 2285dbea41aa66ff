"""Evaluation weights as data: each game's linear evaluation (src/core/linear.pxd) reads its
weights from ``roost/core/data/weights/GAME.json``, written by ``roost tune GAME``.

A game module declares its features (names, in the order its native code fills them) and
the hand-set weights that reproduce the evaluation it had before tuning, then calls
``LinearEval(...)``, which installs the shipped weights (or the hand-set ones when no file is
shipped for that player count) into the module's C array through ``install``.

The file::

    {"game": "ducks", "features": ["groups", ...],
     "weights": {"2": [w0, w1, ...]},          # per player count
     "fit": {...}}                             # how they were fitted (free-form, for people)
"""
import json
import math
from pathlib import Path

from roost.core.errors import RoostError

WEIGHTS_DIR = Path(__file__).resolve().parent / "data" / "weights"


class WeightsError(RoostError):
    """A weights file that is unreadable or does not fit the game's features."""


def weights_path(game):
    return WEIGHTS_DIR / f"{game}.json"


def read_weights(path, game, features):
    """{players: [weights]} from a weights file, checked against the game's feature names."""
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except OSError as e:
        raise WeightsError(f"cannot read the weights file {path}: {e.strerror or e}") from None
    except ValueError as e:
        raise WeightsError(f"the weights file {path} is not JSON: {e}") from None
    if not isinstance(data, dict) or not isinstance(data.get("weights"), dict):
        raise WeightsError(f"the weights file {path} has no 'weights' object")
    if data.get("game") != game:
        raise WeightsError(f"the weights file {path} is for {data.get('game')!r}, not {game!r}")
    if list(data.get("features", ())) != list(features):
        raise WeightsError(f"the weights file {path} names the features {data.get('features')}; "
                           f"{game} computes {list(features)}")
    out = {}
    for key, row in data["weights"].items():
        try:
            players = int(key)
        except ValueError:
            raise WeightsError(f"the weights file {path}: {key!r} is not a player count") from None
        out[players] = check_row(row, features, f"the weights file {path} ({key} players)")
    return out


def check_row(row, features, where):
    if (not isinstance(row, (list, tuple)) or len(row) != len(features)
            or not all(isinstance(w, (int, float)) and not isinstance(w, bool) and math.isfinite(w)
                       for w in row)):
        raise WeightsError(f"{where}: expected {len(features)} finite numbers "
                           f"({', '.join(features)}), got {row!r}")
    return [float(w) for w in row]


class LinearEval:
    """The weights a game's native evaluation uses, with the hand-set ones to fall back on.

    ``install(players, weights)`` writes one row into the module's C array; every change
    goes through ``set`` so ``get`` always tells what the native code reads."""

    def __init__(self, game, features, hand, install, player_counts):
        self.game = game
        self.features = tuple(features)
        self.hand = {p: check_row(w, self.features, f"{game}'s hand-set weights") for p, w in hand.items()}
        self.player_counts = tuple(player_counts)
        self._install = install
        self._current = {}
        self.shipped = {}
        path = weights_path(game)
        if path.exists():
            self.shipped = read_weights(path, game, self.features)
        self.reset()

    def default(self, players):
        if players in self.shipped:
            return list(self.shipped[players])
        return list(self.hand.get(players) or self.hand[min(self.hand)])

    def reset(self):
        """Back to the shipped weights (hand-set where none are shipped)."""
        for p in self.player_counts:
            self.set(p, self.default(p))

    def get(self, players):
        return list(self._current[players])

    def set(self, players, weights):
        if players not in self.player_counts:
            raise WeightsError(f"{self.game} is not played by {players} players")
        row = check_row(list(weights), self.features, f"{self.game} weights")
        self._install(players, row)
        self._current[players] = row
