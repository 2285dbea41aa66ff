"""Playing games between engines: one game (``play_game``) and a match of several games
with rotated seats (``play_match``).  Every random choice (chance outcomes, each engine's
seed per move) derives from the game's seed, so a seed replays the same game exactly.

The arena's rules.  With a time control (``TimeControl``, ``--tc BASE+INC``) every seat has
a clock: BASE seconds, the seconds a move takes are taken off, INC is added after each of its
moves.  A forced move (the only legal one) is played by the arena at once: its engine is not
asked, and it takes no time.  A seat loses the game at once (a forfeit) when its engine

- answers after its clock ran out by more than the margin (``MARGIN``, 0.1 s),
- crashes (an external program exits or breaks the pipe; an engine in this process raises),
- answers with a move that does not parse (malformed) or is not legal here (illegal),
- reports an error instead of a move,
- or does not finish the handshake in time (external programs).

A forfeiting seat scores 0 and every other seat shares the win (1/(N-1) each: with more
than two players the forfeiter ranks last and the others tie).  The record keeps the
moves played up to the forfeit; every record says why its game ended (``GameRecord.ending``:
the game's own reason, ``State.ending()``, or the forfeit).
"""
import math
import time
from dataclasses import dataclass, field

from roost.arena.engines import arena_engine
from roost.arena.ratings import elo_text, score_to_elo, score_with_interval
from roost.core.errors import RoostError
from roost.search.engines import parse_spec
from roost.search.limit import Limit

from roost.core.seeds import derive_seed  # noqa: F401  (the arena's seeds, re-exported)
from roost.search.forfeits import MARGIN, REASONS, Forfeit  # noqa: F401


class TimeControlError(RoostError):
    """A time control that does not read as BASE+INC seconds."""


@dataclass(frozen=True)
class TimeControl:
    """BASE seconds on every seat's clock, INC added after each of its moves."""
    base: float
    inc: float = 0.0
    margin: float = MARGIN

    @classmethod
    def parse(cls, text):
        """``"60+0.5"`` (or ``"60"``: no increment) -> TimeControl."""
        src = str(text).strip()
        base, plus, inc = src.partition("+")
        try:
            b = float(base)
            i = float(inc) if plus else 0.0
        except ValueError:
            raise TimeControlError(f"time control {src!r} is not BASE+INC in seconds, e.g. 60+0.5 "
                                   "or 10 (no increment)") from None
        if not (math.isfinite(b) and math.isfinite(i)) or b <= 0 or i < 0:
            raise TimeControlError(f"time control {src!r}: BASE must be more than 0 seconds and "
                                   "INC at least 0")
        return cls(b, i)

    def text(self):
        return f"{self.base:g}+{self.inc:g}"


def forfeit_result(players, seat):
    """The result of a game ``seat`` forfeited: 0 for it, the win shared by the others."""
    if players == 1:
        return (0.0,)
    share = 1.0 / (players - 1)
    return tuple(0.0 if p == seat else share for p in range(players))


def is_forfeit(ending):
    """Whether a record's ``ending`` is a seat's forfeit (else the game was played out)."""
    return bool(ending) and ending.get("seat") is not None


def ending_text(ending, seats=None):
    """One line saying how a game ended: the game's own words, who forfeited and why, or the
    adjudication and its rule ('' for a record that does not say)."""
    if not ending:
        return ""
    if ending.get("reason") == "adjudicated":
        return f"adjudicated ({ending.get('rule', '?')}): {ending['detail']}"
    if not is_forfeit(ending):
        return ending["detail"]
    seat = ending["seat"]
    who = f"p{seat}" + (f" ({seats[seat]})" if seats and 0 <= seat < len(seats) else "")
    return f"{who} forfeits: {ending['reason']}: {ending['detail']}"


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
    ending: dict = None          # why it ended: {"reason", "detail"} (State.ending()), with
                                 # "seat" for a forfeit, "rule" for an adjudication; None:
                                 # not said (an interrupted game)
    reports: list = field(default_factory=list)  # per move: what its engine reported
                                 # (reports.Report), None where no engine was asked
    opening: dict = None         # the suite's opening it started from: {"index", "text"}

    def as_dict(self):
        return {"game": self.game, "players": self.players, "seats": self.seats,
                "start": self.start, "seed": self.seed, "moves": self.names,
                "move_ids": self.moves, "movers": self.movers,
                "times": [round(t, 4) for t in self.times], "result": list(self.result),
                "final": self.final, "ending": self.ending,
                "reports": [None if r is None else r.row() for r in self.reports],
                **({"opening": self.opening} if self.opening else {})}

    @classmethod
    def from_dict(cls, d):
        """A record from ``as_dict()`` output, a tournament database row or a line of
        ``roost export`` (which all name the moves and give their ids)."""
        from roost.arena.reports import Report
        return cls(game=d["game"], players=int(d["players"]), seats=list(d["seats"]),
                   start=d["start"], seed=int(d["seed"]), moves=list(d["move_ids"]),
                   names=list(d["moves"]), movers=list(d["movers"]),
                   times=[float(t) for t in d["times"]], result=tuple(d["result"]),
                   final=d.get("final", ""), id=d.get("id"), engines=d.get("engines"),
                   ending=d.get("ending") or None,
                   reports=[Report.from_row(r) for r in d.get("reports") or ()],
                   opening=d.get("opening") or None)


def random_opening(state, plies, seed):
    """Play ``plies`` uniformly random moves (and chance outcomes) from ``state`` in place,
    stopping short of the end: matches between deterministic engines need varied starts."""
    random_plies(state, plies, seed)
    return state


def random_plies(state, plies, seed):
    """``random_opening``'s work: the number of plies it played, fewer than ``plies`` when
    it reached the end of the game's reach (every move ends the game, or it is over)."""
    import random
    rnd = random.Random(seed)
    for done in range(plies):
        if state.is_over:
            return done
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
            return done
    return plies


def play_game(game, engines, seed, start=None, on_move=None, opening=0, opening_seed=None,
              tc=None, adjudication=None):
    """Play one game.  ``game`` is a GameInfo, ``engines`` one engine per seat,
    ``start`` a State (default: the game's fresh start drawn from ``seed``), then
    ``opening`` random plies drawn from ``opening_seed`` (default ``seed``); ``tc`` a
    TimeControl (default: no clocks); ``adjudication`` the rules that may end it early
    (``adjudication.Adjudication``).  ``on_move(state, record)`` is called after every
    move.  An engine that breaks the arena's rules (see the module) forfeits the game."""
    state = start.copy() if start is not None else game.start(players=len(engines), seed=seed)
    if opening:
        random_opening(state, opening, seed if opening_seed is None else opening_seed)
    if state.players != len(engines):
        raise ValueError(f"{len(engines)} engines for a {state.players}-player position")
    record = GameRecord(game=game.name, players=state.players, seats=[str(e) for e in engines],
                        start=state.text(), seed=seed)
    clocks = [tc.base] * state.players if tc else None
    judge = adjudication.judge(record.seats) if adjudication else None
    seat = 0
    try:
        for seat, e in enumerate(engines):
            e.begin_game(game.name, state, seat)
        ply = 0
        verdict = None
        while not state.is_over:
            report = None
            if state.is_chance:
                move = state.sample(derive_seed(seed, ply, 1))
                mover = seat = -1
                spent = 0.0
            else:
                mover = seat = state.player
                legal = state.legal()
                if len(legal) == 1:
                    # forced: played at once, asking no engine and spending no clock (a
                    # search of a moment would grow a reused tree by what the load allows)
                    move, spent = legal[0], 0.0
                else:
                    move, spent, report = _ask(engines[mover], state, derive_seed(seed, ply, 2),
                                               tc, clocks[mover] if clocks else None)
                if clocks:
                    clocks[mover] += tc.inc - spent
            name = _play(state, move, mover)
            record.moves.append(move)
            record.names.append(name)
            record.movers.append(mover)
            record.times.append(spent)
            record.reports.append(report)
            for e in engines:
                e.advance(move)
            ply += 1
            if on_move is not None:
                on_move(state, record)
            if judge is not None and mover >= 0 and not state.is_over:
                verdict = judge.see(mover, report) if report is not None else judge.forced()
                if verdict:
                    break
        if verdict:
            record.result, record.ending = verdict
        else:
            record.result = state.result()
            record.ending = state.ending()
    except Forfeit as f:
        record.ending = {"seat": seat, "reason": f.reason, "detail": f.detail}
        record.result = forfeit_result(state.players, seat)
    record.final = state.text()
    return record


def _ask(engine, state, seed, tc, remaining):
    """(move, seconds, report) of ``engine`` at ``state``; Forfeit when it breaks a rule."""
    from roost.arena.reports import reported
    t0 = time.perf_counter()
    try:
        r = engine.choose(state, None if tc is None else Limit(clock=remaining, inc=tc.inc, margin=tc.margin), seed=seed)
    except (Forfeit, KeyboardInterrupt):
        raise
    except Exception as e:       # an engine in this process failed: it loses, the arena goes on
        raise Forfeit("crash", f"{type(e).__name__}: {e}") from None
    spent = time.perf_counter() - t0
    if tc is not None and spent > remaining + tc.margin:
        raise Forfeit("time", f"answered after {spent:.3f}s with {max(0.0, remaining):.3f}s on "
                              f"its clock (margin {tc.margin:g}s)")
    move = getattr(r, "move", None)
    if not isinstance(move, int):
        raise Forfeit("malformed", f"answered {move!r}, not a move")
    return move, spent, reported(r)


def _play(state, move, mover):
    """Play ``move`` (checked: play_move refuses an illegal one) and return its name."""
    name = None
    try:
        name = state.move_name(move)
        state.play_move(move)
    except RoostError:
        if mover < 0:
            raise
        raise Forfeit("illegal", f"{name or f'move id {move}'} is not legal here") from None
    return name


def rotation(n_seats, index, n_engines=None):
    """Seat order for game ``index``: engine (index + k) % n_engines sits in seat k, so over
    n_engines games every engine plays every seat once (fewer engines than seats fill
    several seats each).  Those n_engines games are a round, and with 3+ engines the turn
    direction alternates between rounds: in an odd round engine (index - k) % n_engines
    sits in seat k, so over two rounds every engine moves right after each other one as
    often as right before it (rotating alone would keep engine e + 1 always right after e).
    With 1 or 2 engines both directions are the same seating."""
    n_engines = n_engines or n_seats
    step = -1 if n_engines >= 3 and (index // n_engines) % 2 else 1
    return [(index + step * k) % n_engines for k in range(n_seats)]


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
                    f"score {score_with_interval(mean, margin, n)}")
            if 0 < mean < 1:
                def elo(p):
                    return elo_text(score_to_elo(p))
                line += f", Elo {elo(mean)} [{elo(mean - margin)}, {elo(mean + margin)}] (95%)"
            return line
        if len(self.specs) == 1:
            # an engine against itself wins every game it does not draw: what its games
            # tell is how the seats fared
            seats = [0.0] * len(self.records[0][0].result)
            for rec, _ in self.records:
                for s, r in enumerate(rec.result):
                    seats[s] += r
            return (f"{n} games of {self.specs[0]} against itself; by seat: "
                    + ", ".join(f"p{s} {x:g}" for s, x in enumerate(seats)))
        parts = [f"{s}: {scores[i]:g} ({tallies[i][0]} won)" for i, s in enumerate(self.specs)]
        return f"{n} games, {len(self.specs)} engines: " + "; ".join(parts)


def play_match(game, specs, games, seed, players=None, start=None, on_game=None, on_move=None,
               opening=0, tc=None):
    """Play ``games`` games between the engine ``specs`` (EngineSpecs or spec texts; one per
    seat, or fewer sharing the seats), rotating seats, on clocks when ``tc`` (a TimeControl)
    is given.  Each game gets fresh engines and the seed ``derive_seed(seed, index)``; the
    games of one rotation share their random opening, so every engine plays it from every
    seat."""
    n = players or len(specs)
    if len(specs) > n:
        raise ValueError(f"{len(specs)} engines for {n} seats")
    specs = [parse_spec(s) for s in specs]
    match = MatchResult(specs=[str(s) for s in specs])
    for i in range(games):
        order = rotation(n, i, len(specs))
        engines = [arena_engine(specs[e], game, tc) for e in order]
        try:
            rec = play_game(game, engines, derive_seed(seed, i), start=start, on_move=on_move,
                            opening=opening, opening_seed=derive_seed(seed, i // n, 7), tc=tc)
        finally:
            for e in engines:
                e.close()
        match.records.append((rec, order))
        if on_game is not None:
            on_game(i, rec, order, match)
    return match
