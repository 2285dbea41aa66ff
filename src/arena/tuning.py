"""Fitting the games' evaluation weights from self-play (``roost tune GAME``), Texel-style.

Each game's evaluation is a softmax over the players of a weighted sum of features
(src/core/linear.pxd); ``evaluate(p)`` estimates p's result.  Tuning plays seeded self-play
games with an engine, records every decision position's features with the game's final
result, and fits the weights by maximum likelihood: conditional (multinomial) logistic
regression of the results on the features, solved by Newton's method with numpy.  With
two players this is the logistic regression of the result on the feature differences,
which is what Texel tuning fits for chess evaluations.

The games are split by game into a training set and a held-out set (one game in five), so
the fit reports how well the weights predict results they were not fitted on, next to
the hand-set and the currently shipped weights on the same positions.
"""
import json
import math
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np

from roost.core.errors import RoostError
from roost.core.weights import WeightsError, read_weights
from roost.search.engine import Engine
from roost.search.engines import parse_spec
from roost.search.spec import EngineSpec

HOLDOUT_EVERY = 5          # game k is held out when k % HOLDOUT_EVERY == HOLDOUT_EVERY - 1


class TuningError(RoostError):
    """Options that cannot make a fit (too few positions, a game without a linear
    evaluation, a player count the game does not have)."""


def evaluation_of(game_info):
    """The game's LinearEval (its module's EVALUATION), or TuningError."""
    module = sys.modules[game_info.cls.__module__]
    evaluation = getattr(module, "EVALUATION", None)
    if evaluation is None:
        raise TuningError(f"{game_info.name} has no tunable evaluation")
    return evaluation


@dataclass
class Positions:
    """Self-play positions: features[i, p, :] of player p in position i, results[i, p] the
    game's final result for p, game[i] the game it came from."""
    features: np.ndarray
    results: np.ndarray
    game: np.ndarray
    games: int
    engine: str
    info: dict = field(default_factory=dict)

    def split(self):
        held = self.game % HOLDOUT_EVERY == HOLDOUT_EVERY - 1
        if held.all() or not held.any():
            return self, self
        return self.subset(~held), self.subset(held)

    def subset(self, mask):
        return Positions(self.features[mask], self.results[mask], self.game[mask], self.games,
                         self.engine, self.info)

    def __len__(self):
        return len(self.results)


def self_play(game_info, players, games, engine_spec, seed, opening=4, positions=None,
              progress=None):
    """Play ``games`` seeded self-play games with ``engine_spec`` in every seat and return
    their decision positions (at most ``positions``, drawn evenly at random) with results."""
    from roost.arena.match import derive_seed, play_game, random_opening
    import random
    if games < 1:
        raise TuningError("self-play needs at least one game")
    spec = parse_spec(engine_spec)
    feats, results, which = [], [], []
    for k in range(games):
        engines = [spec.engine() for _ in range(players)]
        start = game_info.start(players=players, seed=derive_seed(seed, k, 1))
        random_opening(start, opening, derive_seed(seed, k, 2))
        rows = []

        def record(state, _rec):
            if not state.is_over and not state.is_chance:
                rows.append([state.eval_features(p) for p in range(players)])
        if not start.is_over and not start.is_chance:
            record(start, None)
        rec = play_game(game_info, engines, derive_seed(seed, k, 3), start=start, on_move=record)
        feats.extend(rows)
        results.extend([list(rec.result)] * len(rows))
        which.extend([k] * len(rows))
        if progress is not None:
            progress(k + 1, len(feats))
    if not feats:
        raise TuningError(f"{games} self-play games gave no decision positions")
    X = np.asarray(feats, dtype=float)
    Y = np.asarray(results, dtype=float)
    G = np.asarray(which, dtype=int)
    if positions is not None and positions < len(Y):
        keep = np.sort(np.asarray(random.Random(derive_seed(seed, 9)).sample(range(len(Y)), positions)))
        X, Y, G = X[keep], Y[keep], G[keep]
    return Positions(X, Y, G, games, str(spec))


def log_loss(weights, data):
    """Mean cross-entropy of the results under the softmax of the players' scores (nats a
    position; a player count of n scores log(n) with all-equal scores)."""
    s = data.features @ np.asarray(weights, dtype=float)
    s -= s.max(axis=1, keepdims=True)
    logp = s - np.log(np.exp(s).sum(axis=1, keepdims=True))
    return float(-(data.results * logp).sum(axis=1).mean())


def fit(data, l2=1e-3, start=None, iterations=100):
    """Weights maximising the likelihood of the results (minus an L2 penalty ``l2``/2 |w|^2
    a position), by Newton's method with a backtracking line search."""
    X, Y = data.features, data.results
    n, _, f = X.shape
    w = np.zeros(f) if start is None else np.asarray(start, dtype=float).copy()

    def objective(w):
        return log_loss(w, data) + 0.5 * l2 * float(w @ w)

    current = objective(w)
    for _ in range(iterations):
        s = X @ w
        s -= s.max(axis=1, keepdims=True)
        p = np.exp(s)
        p /= p.sum(axis=1, keepdims=True)
        grad = np.einsum("np,npf->f", p - Y, X) / n + l2 * w
        mean = np.einsum("np,npf->nf", p, X)
        hess = (np.einsum("np,npf,npg->fg", p, X, X) - mean.T @ mean) / n + l2 * np.eye(f)
        step = np.linalg.solve(hess, grad)
        t = 1.0
        while t > 1e-6:
            trial = w - t * step
            value = objective(trial)
            if value <= current:
                break
            t *= 0.5
        else:
            break
        w, done = trial, current - value < 1e-10
        current = value
        if done:
            break
    return w


@dataclass
class TuneReport:
    game: str
    players: int
    features: tuple
    weights: list
    positions: int
    games: int
    engine: str
    seed: int
    opening: int
    losses: dict           # {"fitted"|"hand"|"shipped": {"train": x, "held_out": y}}
    seconds: float
    play_weights: str = "shipped"      # the weights the self-play engines evaluated with

    def as_file(self, command=None, keep=None):
        """The weights file (roost.core.weights), keeping other player counts' rows of
        ``keep`` (an existing file's {players: weights})."""
        rows = {str(p): list(w) for p, w in sorted((keep or {}).items())}
        rows[str(self.players)] = [round(w, 6) for w in self.weights]
        return {"game": self.game, "features": list(self.features),
                "weights": dict(sorted(rows.items())),
                "fit": {str(self.players): {
                    "positions": self.positions, "games": self.games, "engine": self.engine,
                    "seed": self.seed, "opening": self.opening, "play_weights": self.play_weights,
                    "log_loss": {k: {kk: round(vv, 5) for kk, vv in v.items()}
                                 for k, v in self.losses.items()},
                    **({"command": command} if command else {})}}}

    def lines(self):
        out = [f"{self.game}, {self.players} players: {self.positions:,} positions from "
               f"{self.games} self-play games of {self.engine} (seed {self.seed}) in {self.seconds:.1f} s",
               "log loss a position (train / held out; lower predicts the results better):"]
        for name, v in self.losses.items():
            out.append(f"  {name:<8} {v['train']:.4f} / {v['held_out']:.4f}")
        out.append("weights:")
        for name, w in zip(self.features, self.weights):
            out.append(f"  {name:<18} {w:+.4f}")
        return out


def tune(game_info, players=None, games=200, engine_spec="ab:depth=2", seed=0, opening=4,
         positions=None, l2=1e-3, progress=None, play_weights="shipped"):
    """Self-play, then fit; the report holds the weights and how well each set predicts.

    The self-play engines evaluate with ``play_weights``: "shipped" (what the package ships
    now, so each fit starts from the last) or "hand" (the hand-set evaluation, which does
    not change when a new weights file is shipped: the same options then always give the
    same weights)."""
    players = game_info.default_players if players is None else players
    if not game_info.min_players <= players <= game_info.max_players:
        raise TuningError(f"{game_info.title} is played by {game_info.min_players} to "
                          f"{game_info.max_players} players, not {players}")
    if positions is not None and positions < 10:
        raise TuningError(f"--positions {positions} is too few to fit weights (at least 10)")
    evaluation = evaluation_of(game_info)
    if players not in evaluation.player_counts:
        raise TuningError(f"{game_info.name}'s evaluation has no weights for {players} players")
    t0 = time.perf_counter()
    with _restored(evaluation, players):
        if play_weights == "hand":
            evaluation.set(players, evaluation.hand.get(players) or evaluation.hand[min(evaluation.hand)])
        elif play_weights != "shipped":
            raise TuningError(f"self-play weights {play_weights!r}: use 'shipped' or 'hand'")
        data = self_play(game_info, players, games, engine_spec, seed, opening, positions, progress)
    train, held = data.split()
    weights = fit(train, l2=l2)
    losses = {"fitted": weights.tolist(), "hand": evaluation.hand.get(players) or
              evaluation.hand[min(evaluation.hand)], "shipped": evaluation.default(players)}
    losses = {k: {"train": log_loss(w, train), "held_out": log_loss(w, held)} for k, w in losses.items()}
    return TuneReport(game_info.name, players, evaluation.features, weights.tolist(), len(data),
                      games, data.engine, seed, opening, losses, time.perf_counter() - t0, play_weights)


def write_weights(report, path, command=None):
    """Write (or update: other player counts are kept) a weights file."""
    from pathlib import Path
    path = Path(path)
    keep = {}
    if path.exists():
        try:
            keep = read_weights(path, report.game, report.features)
        except WeightsError:
            keep = {}
        keep.pop(report.players, None)
    data = report.as_file(command, keep)
    if path.exists():
        try:
            old = json.loads(path.read_text())
            fits = old.get("fit", {}) if isinstance(old, dict) else {}
            if isinstance(fits, dict):
                data["fit"] = {**{k: v for k, v in fits.items() if k != str(report.players)},
                               **data["fit"]}
        except ValueError:
            pass
    try:
        path.write_text(json.dumps(data, indent=1) + "\n")
    except OSError as e:
        raise TuningError(f"cannot write {path}: {e.strerror or e}") from None
    return path


# ------------------------------------------------------------------ evaluation matches

class WeightedEngine(Engine):
    """An engine that searches with its own evaluation weights: they are installed before
    each of its moves (the weights are module-wide, so both sides of an in-process match
    take turns with them).  ``label`` names it in the records."""

    def __init__(self, engine, evaluation, players, weights, label):
        super().__init__(engine.spec)
        self.engine, self.evaluation, self.players = engine, evaluation, players
        self.weights = list(weights)
        self.label = label

    def __str__(self):
        return self.label

    def choose(self, state, limit=None, **options):
        self.evaluation.set(self.players, self.weights)
        return self.engine.choose(state, limit, **options)

    def advance(self, move):
        self.engine.advance(move)

    def new_game(self):
        self.engine.new_game()


@contextmanager
def _restored(evaluation, players):
    saved = evaluation.get(players)
    try:
        yield
    finally:
        evaluation.set(players, saved)


def eval_match(game_info, spec, weights_a, weights_b, games, seed=0, players=None, opening=4,
               labels=("a", "b"), on_game=None):
    """Play ``spec`` with weights_a against ``spec`` with weights_b; seats rotate and each
    rotation shares its start and opening.  ``spec`` may be a pair, an engine for each side
    (e.g. MCTS against alpha-beta with the hand-set weights).  Returns the arena's
    MatchResult."""
    from roost.arena.match import MatchResult, derive_seed, play_game, random_opening, rotation
    players = game_info.default_players if players is None else players
    evaluation = evaluation_of(game_info)
    sides = (weights_a, weights_b)
    specs = tuple(parse_spec(s) for s in ((spec, spec) if isinstance(spec, (str, EngineSpec)) else spec))
    match = MatchResult(specs=[f"{specs[0]} [{labels[0]}]", f"{specs[1]} [{labels[1]}]"])
    with _restored(evaluation, players):
        for i in range(games):
            order = rotation(players, i, 2)
            start = game_info.start(players=players, seed=derive_seed(seed, i // players, 1))
            random_opening(start, opening, derive_seed(seed, i // players, 2))
            engines = [WeightedEngine(specs[e].engine(), evaluation, players, sides[e],
                                      match.specs[e]) for e in order]
            rec = play_game(game_info, engines, derive_seed(seed, i, 3), start=start)
            match.records.append((rec, order))
            if on_game is not None:
                on_game(i, rec, order, match)
    return match


def score_interval(match, engine=0):
    """(mean score of ``engine``, 95% half-width) over the match's games."""
    per_game = [sum(r for r, e in zip(rec.result, order) if e == engine) for rec, order in match.records]
    n = len(per_game)
    mean = sum(per_game) / n
    var = sum((x - mean) ** 2 for x in per_game) / max(1, n - 1)
    return mean, 1.96 * math.sqrt(var / n)
