"""Playing games between engines: one game (``play_game``) and a match of several games
with rotated seats (``play_match``).  Every random choice (chance outcomes, each engine's
seed per move) derives from the game's seed, so a seed replays the same game exactly."""
import math
import time
from dataclasses import dataclass, field

from roost.search.engines import parse_engine

_MASK = (1 << 63) - 1


def derive_seed(seed, *parts):
    """A 63-bit seed from a parent seed and integer parts (splitmix64 steps): stable across
    runs, platforms and Python versions, unlike hash()."""
    x = seed & 0xFFFFFFFFFFFFFFFF
    for p in parts:
        x = (x + 0x9E3779B97F4A7C15 + (p & 0xFFFFFFFFFFFFFFFF)) & 0xFFFFFFFFFFFFFFFF
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        x = z ^ (z >> 31)
    return x & _MASK


@dataclass
class GameRecord:
    """A finished (or interrupted) game: enough to replay it move by move."""
    game: str
    players: int
    seats: list                 # engine spec of each seat
    start: str                  # the start position text
    seed: int
    moves: list = field(default_factory=list)    # move and chance outcome ids, in order
    names: list = field(default_factory=list)
    movers: list = field(default_factory=list)   # the player of each move, -1 for chance
    times: list = field(default_factory=list)    # seconds the mover took (0 for chance)
    result: tuple = ()
    final: str = ""
    id: int = None               # the game's id in a tournament (None outside one)
    engines: list = None         # roster index of each seat's engine, in a tournament

    def as_dict(self):
        return {"game": self.game, "players": self.players, "seats": self.seats,
                "start": self.start, "seed": self.seed, "moves": self.names,
                "move_ids": self.moves, "movers": self.movers,
                "times": [round(t, 4) for t in self.times], "result": list(self.result),
                "final": self.final}

    @classmethod
    def from_dict(cls, d):
        """A record from ``as_dict()`` output, a tournament database row or a line of
        ``roost export`` (which all name the moves and give their ids)."""
        return cls(game=d["game"], players=int(d["players"]), seats=list(d["seats"]),
                   start=d["start"], seed=int(d["seed"]), moves=list(d["move_ids"]),
                   names=list(d["moves"]), movers=list(d["movers"]),
                   times=[float(t) for t in d["times"]], result=tuple(d["result"]),
                   final=d.get("final", ""), id=d.get("id"), engines=d.get("engines"))


def random_opening(state, plies, seed):
    """Play ``plies`` uniformly random moves (and chance outcomes) from ``state`` in place,
    stopping short of the end: matches between deterministic engines need varied starts."""
    import random
    rnd = random.Random(seed)
    for _ in range(plies):
        if state.is_chance:
            state.play_unchecked(state.sample(rnd.getrandbits(63)))
            continue
        moves = state.legal()
        rnd.shuffle(moves)
        for m in moves:
            c = state.copy()
            c.play_unchecked(m)
            if not c.is_over:
                state.play_unchecked(m)
                break
        else:
            break
    return state


def play_game(game, engines, seed, start=None, on_move=None, opening=0, opening_seed=None):
    """Play one game.  ``game`` is a GameInfo, ``engines`` one engine per seat,
    ``start`` a State (default: the game's fresh start drawn from ``seed``), then
    ``opening`` random plies drawn from ``opening_seed`` (default ``seed``).
    ``on_move(state, record)`` is called after every move."""
    state = start.copy() if start is not None else game.start(players=len(engines), seed=seed)
    if opening:
        random_opening(state, opening, seed if opening_seed is None else opening_seed)
    if state.players != len(engines):
        raise ValueError(f"{len(engines)} engines for a {state.players}-player position")
    record = GameRecord(game=game.name, players=state.players, seats=[e.spec for e in engines],
                        start=state.text(), seed=seed)
    for e in engines:
        e.new_game()
    ply = 0
    while not state.is_over:
        if state.is_chance:
            move = state.sample(derive_seed(seed, ply, 1))
            mover, spent = -1, 0.0
        else:
            mover = state.player
            t0 = time.perf_counter()
            move = engines[mover].choose(state, seed=derive_seed(seed, ply, 2)).move
            spent = time.perf_counter() - t0
        record.moves.append(move)
        record.names.append(state.move_name(move))
        record.movers.append(mover)
        record.times.append(spent)
        state.play_move(move)
        for e in engines:
            e.advance(move)
        ply += 1
        if on_move is not None:
            on_move(state, record)
    record.result = state.result()
    record.final = state.text()
    return record


def rotation(n_seats, index, n_engines=None):
    """Seat order for game ``index``: engine (index + k) % n_engines sits in seat k, so over
    n_seats games every engine plays every seat equally often (fewer engines than seats
    fill several seats each)."""
    n_engines = n_engines or n_seats
    return [(index + k) % n_engines for k in range(n_seats)]


@dataclass
class MatchResult:
    specs: list
    records: list = field(default_factory=list)

    def scores(self):
        """Total result of each engine (a win 1, a shared win 1/k)."""
        totals = [0.0] * len(self.specs)
        for rec, order in self.records:
            for seat, eng in enumerate(order):
                totals[eng] += rec.result[seat]
        return totals

    def tallies(self):
        """(wins, draws-or-shared, losses) of each engine, a game at a time: an engine in
        several seats of one game counts the sum of their results once."""
        t = [[0, 0, 0] for _ in self.specs]
        for rec, order in self.records:
            for eng in set(order):
                r = sum(x for x, e in zip(rec.result, order) if e == eng)
                t[eng][0 if r >= 1.0 - 1e-9 else 2 if r <= 1e-9 else 1] += 1
        return t

    def summary(self):
        n = len(self.records)
        if n == 0:
            return "no games played"
        scores, tallies = self.scores(), self.tallies()
        if len(self.specs) == 2:
            a, b = self.specs
            per_game = [sum(r for r, e in zip(rec.result, order) if e == 0) for rec, order in self.records]
            mean = sum(per_game) / n
            # the spread includes one pseudo-win and one pseudo-loss, so that a clean sweep
            # of a few games still shows how little it proves
            prior = per_game + [0.0, 1.0]
            pm = sum(prior) / len(prior)
            var = sum((x - pm) ** 2 for x in prior) / (len(prior) - 1)
            margin = 1.96 * math.sqrt(var / n)
            w, d, l = tallies[0]
            line = (f"{a} vs {b}: {scores[0]:g}-{scores[1]:g} (+{w} ={d} -{l}) in {n} games; "
                    f"score {100 * mean:.1f}% ± {100 * margin:.1f}%")
            if 0 < mean < 1:
                def elo(p):
                    return ("-inf" if p <= 0 else "+inf" if p >= 1
                            else f"{-400 * math.log10(1 / p - 1):+.0f}")
                line += f", Elo {elo(mean)} [{elo(mean - margin)}, {elo(mean + margin)}] (95%)"
            return line
        parts = [f"{s}: {scores[i]:g} ({tallies[i][0]} won)" for i, s in enumerate(self.specs)]
        return f"{n} games, {len(self.specs)} engines: " + "; ".join(parts)


def play_match(game, specs, games, seed, players=None, start=None, on_game=None, on_move=None,
               opening=0):
    """Play ``games`` games between the engine ``specs`` (one per seat, or fewer sharing the
    seats), rotating seats.
    Each game gets fresh engines and the seed ``derive_seed(seed, index)``; the games of
    one rotation share their random opening, so every engine plays it from every seat."""
    n = players or len(specs)
    if len(specs) > n:
        raise ValueError(f"{len(specs)} engines for {n} seats")
    match = MatchResult(specs=[parse_engine(s).spec for s in specs])
    for i in range(games):
        order = rotation(n, i, len(specs))
        engines = [parse_engine(specs[e]) for e in order]
        rec = play_game(game, engines, derive_seed(seed, i), start=start, on_move=on_move,
                        opening=opening, opening_seed=derive_seed(seed, i // n, 7))
        match.records.append((rec, order))
        if on_game is not None:
            on_game(i, rec, order, match)
    return match
