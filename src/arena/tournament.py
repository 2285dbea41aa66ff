"""Tournaments: a deterministic schedule (``schedule.py``) played by a backend
(``runner.py``), every finished game stored in an SQLite database (``store.py``), ratings
from the stored results (``ratings.py``).

Resuming is running again: the games already in the database are skipped, the rest of the
schedule is played.  With an SPRT, the test reads the games in schedule order and the
tournament is the prefix of the schedule up to the game where it decided; games that
finished in flight after that are kept in the database but not counted, so the reported
numbers do not depend on which worker was faster.
"""
import hashlib
import math
import time
from dataclasses import dataclass, field, replace

from roost.arena.adjudication import is_adjudicated
from roost.arena.match import is_forfeit
from roost.arena.reports import EngineStats
from roost.arena.ratings import PairStream, ScoreStream, Sprt, Tally, elo_text, fit_elo, score_with_interval
from roost.arena.schedule import GAUNTLET, MODES, ROUND_ROBIN, pairings, schedule
from roost.arena.runner import ArenaError
from roost.arena.stopping import StopRequest
from roost.arena.store import Store, StoreError, Writer, canonical, live_row
from roost.arena.work import GameSettings, WorkItem
from roost.core.errors import RoostError
from roost.search.engines import parse_spec

# 2: seeds derived with the parent mixed first (roost.core.seeds); a format-1 database
# holds games of the old derivation and is not resumed.
# 3: with 3+ seats the turn order alternates between rounds (schedule.py); a format-2
# database holds games seated in the old order and is not resumed.
FORMAT = 3


class TournamentError(RoostError):
    """A tournament configuration that cannot be played."""


@dataclass
class TournamentConfig:
    game: object                 # a GameInfo
    engines: list                # engine specs (EngineSpecs or texts; kept as canonical texts)
    players: int = None          # seats per game (default: the game's default)
    games: int = None            # games per pairing (default: 10 per seat)
    seed: int = 0
    mode: str = ROUND_ROBIN
    position: str = None         # start text for every game (default: a fresh start per seed)
    opening: int = 0             # random plies before the engines play (shared per round)
    sprt: Sprt = None
    tc: object = None            # a match.TimeControl: every seat on a clock (None: no clocks)
    # seconds a move may take without a clock before its engine forfeits the game (None: roost's
    # engines play in the arena's process, trusted to honour their own limits); how the games
    # are played, not what they are, so not part of the stored configuration
    hang_guard: float = None
    openings: object = None      # an openings.Suite the games start from (None: no suite)
    order: str = "sequential"    # the suite's order: sequential or random (openings.py)
    repeat: bool = False         # the games of a round share an opening (every seating)
    adjudication: object = None  # adjudication.Adjudication: rules that end games early
    # how the tournament grew: [(engines, games per pairing), ...] (schedule.schedule), None
    # for one that never gained an engine
    stages: list = None

    def __post_init__(self):
        if not self.engines or len(self.engines) < 2:
            raise TournamentError("a tournament needs at least two engines (give the same spec "
                                  "twice for self-play)")
        self.engines = [str(parse_spec(s)) for s in self.engines]
        if isinstance(self.tc, str):
            from roost.arena.match import TimeControl
            self.tc = TimeControl.parse(self.tc)
        g = self.game
        if self.players is None:
            self.players = g.default_players
        if not g.min_players <= self.players <= g.max_players:
            span = (f"{g.min_players}" if g.min_players == g.max_players
                    else f"{g.min_players} to {g.max_players}")
            raise TournamentError(f"{g.title} is played by {span} players, not {self.players}")
        if self.hang_guard is not None and not (math.isfinite(self.hang_guard) and self.hang_guard > 0):
            raise TournamentError(f"the hang guard must be a number of seconds above 0, not "
                                  f"{self.hang_guard!r}")
        if self.mode not in MODES:
            raise TournamentError(f"unknown tournament mode {self.mode!r}; known: {', '.join(MODES)}")
        n = self.players
        if self.games is None:
            self.games = 10 * n
        if self.games < 1 or self.games % n:
            lo = max(n, self.games - self.games % n)
            raise TournamentError(
                f"{self.games} games per pairing do not rotate evenly over {n} seats (every engine "
                f"plays every seat equally often): use a multiple of {n}, e.g. {lo} or {lo + n}")
        if self.sprt is not None and len(self.engines) != 2:
            raise TournamentError(f"an SPRT compares two engines; {len(self.engines)} were given")
        self._check_openings()
        if self.adjudication is not None and not self.adjudication:
            self.adjudication = None
        if self.adjudication is not None:
            from roost.arena.adjudication import AdjudicationError
            try:
                self.adjudication.check_players(n)
            except AdjudicationError as e:
                raise TournamentError(str(e)) from None
        if self.position is not None:
            state = g.parse(self.position)
            if state.players != n:
                raise TournamentError(f"the start position has {state.players} players, the "
                                      f"tournament {n} seats")
            if state.is_over:
                raise TournamentError("the start position is already over")
            self.position = state.text()

    def _check_openings(self):
        from roost.arena.openings import ORDERS
        if self.order not in ORDERS:
            raise TournamentError(f"unknown opening order {self.order!r}; known: {', '.join(ORDERS)}")
        if self.openings is None:
            if self.repeat:
                raise TournamentError("--repeat plays each opening of a suite from every seating: "
                                      "give the suite (--openings FILE); random openings "
                                      "(--opening N) are shared by the seatings of a round already")
            if self.order != "sequential":
                raise TournamentError("--order orders an opening suite: give one (--openings FILE)")
            return
        if self.opening:
            raise TournamentError("give an opening suite (--openings) or random opening plies "
                                  "(--opening), not both")
        if self.position is not None:
            raise TournamentError("give an opening suite (--openings) or a start position "
                                  "(--position), not both")

    @property
    def paired(self):
        """Whether two engines' games come in pairs: two seats, and the two games of a round
        (the seats swapped) share their start (unless a suite's openings are not repeated).
        The head-to-head interval and the SPRT then count pairs (the pentanomial model), else
        games (the trinomial)."""
        return self.players == 2 and (self.openings is None or self.repeat)

    def opening_of(self, g):
        """The suite's opening scheduled game ``g`` starts from: ``{"index", "text"}``
        (the index from 1), or None without a suite."""
        suite = self.openings
        if suite is None:
            return None
        number = g.round if self.repeat else g.round * self.players + g.rotation
        k = suite.pick(number, self.seed, self.order)
        return {"index": k + 1, "text": suite.texts[k]} if suite.texts else {"index": k + 1}

    def settings(self):
        """What every game starts from, and how it is played (a work.GameSettings)."""
        return GameSettings(position=self.position, opening_plies=self.opening, tc=self.tc,
                            hang_guard=self.hang_guard, adjudication=self.adjudication)

    def work_item(self, g):
        """Scheduled game ``g`` as the backends play it (a work.WorkItem)."""
        return WorkItem(id=g.id, pairing=g.pairing, rotation=g.rotation, engines=g.engines,
                        specs=[self.engines[e] for e in g.engines], seed=g.seed,
                        opening_seed=g.opening_seed, opening=self.opening_of(g))

    def as_dict(self):
        suite = self.openings
        return {"format": FORMAT, "game": self.game.name, "players": self.players,
                "engines": list(self.engines), "mode": self.mode, "games": self.games,
                "seed": self.seed, "position": self.position,
                **({"opening": self.opening} if self.opening else {}),
                **({"openings": {"sha256": suite.digest, "count": suite.count,
                                 "order": self.order, "repeat": self.repeat}} if suite else {}),
                **({"tc": self.tc.text()} if self.tc else {}),
                **({"adjudication": self.adjudication.as_dict()} if self.adjudication else {}),
                **({"stages": [list(st) for st in self.stages]} if self.stages else {}),
                "sprt": self.sprt.as_dict() if self.sprt else None}

    def key(self):
        return hashlib.sha256(canonical(self.as_dict()).encode()).hexdigest()[:8]

    def default_db(self):
        """The database a command uses without --db: one file per configuration, so the
        same command finds (and resumes) the same file."""
        return f"roost-{self.game.name}-{self.key()}.db"

    def pairings(self):
        return pairings(len(self.engines), self.players, self.mode)

    def schedule(self):
        return schedule(len(self.engines), self.players, self.games, self.seed, self.mode,
                        self.stages)

    def grown_from(self, stored):
        """This configuration as the growth of a stored one (a dict of ``as_dict``): with
        the stored stages, and a new one where engines are added; None when it is not one
        (another setting differs, an engine of the roster changed or went, fewer games)."""
        mine = self.as_dict()
        before = dict(stored)
        stages = [list(st) for st in before.pop("stages", None) or
                  [[len(before.get("engines", ())), before.get("games", 0)]]]
        k_old, k, g_old = len(before.get("engines", ())), len(self.engines), before.get("games", 0)
        same = {key: v for key, v in mine.items() if key not in ("engines", "games", "stages")}
        if (same != {key: v for key, v in before.items() if key not in ("engines", "games")}
                or self.engines[:k_old] != list(before.get("engines", ()))
                or k < k_old or self.games < g_old):
            return None
        if k > k_old:
            stages.append([k, self.games])
        else:
            stages[-1][1] = self.games
        grown = replace(self, stages=stages if len(stages) > 1 else None)
        try:
            grown.schedule()
        except ValueError:           # a stage that drops a pairing (fewer engines than seats)
            return None
        return grown

    def names(self):
        return display_names(self.engines)


def turn_order_note(config):
    """A one-line note when the games per pairing are an odd number of rounds of 3+ seats:
    the schedule alternates the turn direction between rounds, so who moves right after
    whom balances only over an even number (None when there is nothing to say)."""
    n, g = config.players, config.games
    if n < 3 or g % (2 * n) == 0:
        return None
    closest = " or ".join(str(x) for x in (g - n, g + n) if x > 0)
    return (f"note: {g} games per pairing are an odd number of rounds of {n} seats, and the turn "
            f"direction alternates between rounds, so who moves right after whom is balanced "
            f"only over a multiple of {2 * n} games (e.g. --games {closest})")


def display_names(specs):
    """Specs as names, a repeated spec numbered (#2, #3) so every roster entry is distinct."""
    seen, out = {}, []
    for s in specs:
        seen[s] = seen.get(s, 0) + 1
        out.append(s if seen[s] == 1 else f"{s}#{seen[s]}")
    return out


@dataclass
class Progress:
    done: int                    # games in the tournament so far (stored and counted)
    total: int                   # games scheduled
    played: int                  # games played by this run
    elapsed: float               # seconds this run
    rate: float                  # games/s this run
    eta: float                   # seconds left (math.nan before the first game)
    leader: str                  # the engine with the best score so far
    leader_score: float


@dataclass
class TournamentResult:
    config: TournamentConfig
    db: str
    tally: Tally
    stream: ScoreStream = None
    sprt: tuple = None           # (decision, games used, llr) when an SPRT runs
    counted: int = 0
    stored: int = 0
    scheduled: int = 0
    extra: int = 0               # stored after the SPRT decided, not counted
    played: int = 0              # games played by this run
    resumed: int = 0             # games found in the database at the start
    grown: bool = False          # the stored tournament was given more games or engines
    wall: float = 0.0
    game_seconds: float = 0.0    # summed durations of this run's games (in the workers)
    workers: int = 1
    backend: str = ""
    interrupted: bool = False
    anchor: int = 0
    ratings: object = None
    finished: bool = False
    forfeits: list = None        # per engine: {reason: games it forfeited} (counted games)
    pair_forfeits: list = None   # [i][j]: counted games engine i forfeited with engine j seated
    stats: list = None           # per engine: reports.EngineStats of its stored games
    adjudicated: dict = None     # rule -> counted games it ended

    def rate(self):
        return self.played / self.wall if self.wall > 0 else 0.0

    def busy(self):
        """Share of the workers' time spent playing games (1.0: no bookkeeping at all)."""
        cap = self.wall * self.workers
        return self.game_seconds / cap if cap > 0 else 0.0


class _Book:
    """The tournament's view of its results: counts games in schedule order when an SPRT
    decides where the tournament ends, in any order otherwise."""

    def __init__(self, config, plan):
        self.config = config
        self.total = len(plan)
        self.tally = Tally(len(config.engines))
        self.stream = None
        if len(config.engines) == 2:
            self.stream = PairStream() if config.paired else ScoreStream()
        self.rounds = {g.id: (g.pairing, g.round) for g in plan}
        self.sprt = config.sprt
        self.decision = ("", 0, 0.0) if self.sprt else None
        self.waiting = {}            # id -> (engines, result, ending), beyond the counted prefix
        self.next_id = 1
        self.counted = 0
        self.extra = 0
        self.forfeits = [{} for _ in config.engines]     # per engine: reason -> games lost so
        k = len(config.engines)
        self.pair_forfeits = [[0] * k for _ in range(k)]  # [i][j]: i forfeited, j at the table
        self.stats = [EngineStats() for _ in config.engines]
        self.adjudicated = {}        # rule -> games it ended (counted games)

    def add_stats(self, engines, seats):
        """A stored game's per-seat sums of its engines' reports (every stored game counts,
        the SPRT's extra ones too: they were played by the same engines)."""
        for e, seat in zip(engines, seats or ()):
            self.stats[e].add(seat)

    @property
    def decided(self):
        return bool(self.decision and self.decision[0])

    def _count(self, gid, engines, result, ending=None):
        self.tally.add(engines, result)
        self.counted += 1
        if is_adjudicated(ending):
            self.adjudicated[ending["rule"]] = self.adjudicated.get(ending["rule"], 0) + 1
        if is_forfeit(ending):
            lost = self.forfeits[engines[ending["seat"]]]
            lost[ending["reason"]] = lost.get(ending["reason"], 0) + 1
            for j in set(engines) - {engines[ending["seat"]]}:
                self.pair_forfeits[engines[ending["seat"]]][j] += 1
        if self.stream is not None:
            x = ScoreStream.game_score(engines, result)
            if x is None:
                pass
            elif isinstance(self.stream, PairStream):
                self.stream.add(x, self.rounds.get(gid))
            else:
                self.stream.add(x)

    def add(self, gid, engines, result, ending=None):
        if self.sprt is None:
            self._count(gid, engines, result, ending)
            return
        if self.decided:
            self.extra += 1
            return
        self.waiting[gid] = (engines, result, ending)
        while self.next_id in self.waiting and not self.decided:
            e, r, end = self.waiting.pop(self.next_id)
            self._count(self.next_id, e, r, end)
            self.next_id += 1
            s = self.stream
            llr = s.llr(self.sprt)
            self.decision = (self.sprt.decision(llr), s.n, llr)
        if self.decided:
            self.extra += len(self.waiting)
            self.waiting.clear()

    def leader(self, names):
        t = self.tally
        best, frac = "", -1.0
        for i, name in enumerate(names):
            if t.games[i]:
                f = sum(t.raw_W[i]) / max(1, sum(t.raw_N[i]))
                if f > frac:
                    best, frac = name, f
        return best, frac


def make_backend(config, jobs=None, scheduler=None, dask_local=None, close_fds=(), verbose=False):
    from roost.arena import runner
    if scheduler or dask_local:
        return runner.DaskBackend(config.game, config.settings(), scheduler=scheduler, local=dask_local,
                                  verbose=verbose)
    jobs = jobs or default_jobs()
    if jobs == 1:
        return runner.InProcess(config.game, config.settings())
    return runner.LocalPool(config.game, config.settings(), jobs, close_fds=close_fds)


def default_jobs():
    import os
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def run_tournament(config, db=None, jobs=None, backend=None, on_progress=None,
                   progress_every=0.25, anchor=0, on_event=None, stop=None):
    """Play (or resume) a tournament and return its TournamentResult.  ``backend`` is a
    runner backend (default: ``make_backend(config, jobs)``, with no more local processes
    than games to play); ``on_progress(Progress)`` is called at most every
    ``progress_every`` seconds and after the last game; ``on_event(text)`` hears what the
    backend has to say while it waits (no Dask workers).

    A tournament that cannot be played (``check_setup``) raises ``readiness.SetupError``
    before anything is stored.

    Ctrl-C (SIGINT) and SIGTERM stop it with ``interrupted`` set, every finished game in the
    database by then: while it runs, in the main thread, the signals only set ``stop`` (a
    StopRequest; see ``stopping.py``), which the backend's loop checks."""
    db = db or config.default_db()
    config, plan, store, grew = _open_store(config, db)
    try:
        book, stored = _book_of(store, config, plan, db)
        res = _result(config, db, book, plan, len(stored), anchor)
        res.grown = grew
        done = {gid for gid, _, _ in stored}
        todo = [config.work_item(g) for g in plan if g.id not in done]
        listener = _Listener(res, book, plan, config.names(), on_progress, progress_every)
        try:
            _play_into(store, listener, backend, config, jobs, todo, stop or StopRequest(), on_event)
        except StoreError as e:
            raise StoreError(f"{e} ({_stored_note(store, plan, db)})") from None
        except ArenaError as e:
            if not e.resumable:
                raise
            raise type(e)(f"{e}: {_stored_note(store, plan, db)}") from None
        listener.finish()
        _count(res, book, store, plan, anchor)
        return res
    finally:
        store.close()


def _open_store(config, db):
    """(config, plan, store, grew): the tournament's database created, or opened to resume
    (the config grown where the stored one is a smaller schedule of it: ``grew``), once the
    setup is checked."""
    stored = _stored_config(db)
    grown = config.grown_from(stored) if stored is not None else None
    if grown is not None:
        config = grown
    plan = config.schedule()
    check_setup(config, plan)
    store = Store.create_or_resume(db, config.as_dict(), defaults={"opening": 0},
                                   replaces=stored if grown is not None else None)
    grew = grown is not None and canonical(stored) != canonical(config.as_dict())
    return config, plan, store, grew


def _book_of(store, config, plan, db):
    """(book, stored): the games already in the database counted, and their rows."""
    book = _Book(config, plan)
    stored = store.results()
    endings = {gid: end for gid, _, end in store.endings()}
    valid = {g.id for g in plan}
    for gid, engines, result in stored:
        if gid not in valid:
            raise StoreError(f"{db} holds game {gid}, which is not in this tournament's schedule")
        book.add(gid, engines, result, endings.get(gid))
    for _, engines, seats in store.seat_stats():
        book.add_stats(engines, seats)
    return book, stored


class _Listener:
    """What a run does with what its backend reports while it plays: each finished game
    handed to the writer and counted, each game under way written as its moves so far, and
    the progress reported (``on_progress``) at most every ``progress_every`` seconds."""

    def __init__(self, res, book, plan, names, on_progress, progress_every):
        self.res, self.book, self.plan, self.names = res, book, plan, names
        self.on_progress, self.progress_every = on_progress, progress_every
        self.t0 = time.perf_counter()
        self.last = 0.0
        self.workers_seen = set()
        self.playing = {}            # id -> (engines, seats, start, names, movers, times)
        self.writer = None

    def report(self, force=False):
        if self.on_progress is None:
            return
        now = time.perf_counter()
        if not force and now - self.last < self.progress_every:
            return
        self.last = now
        book, plan = self.book, self.plan
        elapsed = now - self.t0
        rate = self.res.played / elapsed if elapsed > 0 else 0.0
        remaining = len(plan) - (book.counted + book.extra) if not book.decided else 0
        if book.sprt is not None and not book.decided:
            remaining = len(plan) - book.counted - len(book.waiting)
        eta = remaining / rate if rate > 0 else math.nan
        leader, frac = book.leader(self.names)
        self.on_progress(Progress(done=book.counted, total=len(plan), played=self.res.played,
                                  elapsed=elapsed, rate=rate, eta=eta, leader=leader,
                                  leader_score=frac))

    def on_record(self, rec):
        self.writer.put(rec)
        self.playing.pop(rec["id"], None)
        self.res.played += 1
        self.res.game_seconds += rec["seconds"]
        self.workers_seen.add(rec["worker"])
        self.book.add(rec["id"], tuple(rec["engines"]), tuple(rec["result"]), rec.get("ending"))
        self.book.add_stats(rec["engines"], rec.get("stats"))
        self.report()
        return self.book.decided

    def on_live(self, gid, first, engines, seats, start, names, movers, times):
        game = self.playing.get(gid) if first else None
        if game is None:
            game = self.playing[gid] = (engines, seats, start, [], [], [])
        del game[3][first:], game[4][first:], game[5][first:]
        game[3].extend(names)
        game[4].extend(movers)
        game[5].extend(times)
        self.writer.put_live(live_row(gid, *game))

    def finish(self):
        """The run's wall time and workers, and the last progress report."""
        self.res.wall = time.perf_counter() - self.t0
        if self.workers_seen:
            self.res.workers = len(self.workers_seen)
        self.report(force=True)


def _play_into(store, listener, backend, config, jobs, todo, stop, on_event):
    """Play ``todo`` (unless the book is decided), every finished game written to
    ``store`` as it comes; the signal handlers stay as long as the writer, until it has
    committed everything handed over."""
    with stop.installed():
        store.begin_playing()
        listener.writer = Writer(store)
        try:
            if todo and not listener.book.decided:
                _play(backend, config, jobs, todo, listener.on_record, listener.res,
                      store.lock_fds(), stop, on_event, listener.on_live)
        finally:
            try:
                listener.writer.close()
            finally:
                _stop_playing(store)


def _count(res, book, store, plan, anchor):
    """``res`` completed from the book and the database once play has ended."""
    res.counted = book.counted
    res.extra = book.extra
    res.stored = store.count()
    res.sprt = book.decision
    res.finished = book.decided or res.stored >= len(plan)
    res.ratings = fit_elo(book.tally, anchor=anchor) if book.counted else None


def _stored_config(db):
    """The configuration ``db`` holds (None: no such file, or not a tournament database yet;
    a file that cannot be one is refused by the store with its own message)."""
    import os
    if not os.path.exists(db):
        return None
    try:
        with Store.open(db) as store:
            return store.config()
    except StoreError:
        return None


def _stop_playing(store):
    """Empty the live table as the tournament stops.  A database that cannot be written by
    now has said so already; what the table keeps then is left out by readers (its process
    is gone) and emptied on resume."""
    import sqlite3
    try:
        store.end_playing()
    except sqlite3.Error:
        pass


def _result(config, db, book, plan, resumed, anchor):
    return TournamentResult(config=config, db=db, tally=book.tally, stream=book.stream,
                            scheduled=len(plan), resumed=resumed, anchor=anchor,
                            forfeits=book.forfeits, pair_forfeits=book.pair_forfeits,
                            stats=book.stats, adjudicated=book.adjudicated)


def config_from_dict(cfg, game=None):
    """The TournamentConfig a database's stored configuration describes (an opening suite
    by its size and digest: each stored game keeps its opening)."""
    from roost.arena.adjudication import Adjudication
    from roost.arena.match import TimeControl
    from roost.arena.openings import Suite
    from roost.core.games import get_game
    suite = cfg.get("openings")
    return TournamentConfig(game=game or get_game(cfg["game"]), engines=cfg["engines"],
                            players=cfg["players"], games=cfg["games"], seed=cfg["seed"],
                            mode=cfg["mode"], position=cfg["position"],
                            sprt=Sprt(**cfg["sprt"]) if cfg.get("sprt") else None,
                            opening=cfg.get("opening", 0),
                            tc=TimeControl.parse(cfg["tc"]) if cfg.get("tc") else None,
                            openings=Suite.described(suite) if suite else None,
                            order=suite["order"] if suite else "sequential",
                            repeat=bool(suite and suite["repeat"]),
                            adjudication=Adjudication.from_dict(cfg.get("adjudication")) or None,
                            stages=cfg.get("stages"))


def check_setup(config, plan):
    """SetupError (``readiness``) before any game when the tournament cannot be played: an
    engine that cannot start or cannot play the game with its seats, an opening that would
    end a game of ``plan``."""
    from roost.arena.readiness import check_engines, check_openings
    start = config.game.parse(config.position) if config.position is not None else None
    check_openings(config.game, config.players, config.opening,
                   [(g.seed, g.opening_seed) for g in plan], start)
    check_engines(config.game, config.engines, config.players, start)


def _stored_note(store, plan, db):
    try:
        n = store.count()
    except Exception:           # the database itself is what failed: say what can be said
        return f"the games committed before are in {db}; run the same command to resume"
    return f"{n} of {len(plan)} games are stored in {db}; run the same command to resume"


def _play(backend, config, jobs, todo, on_record, res, close_fds, stop, on_event, on_live):
    own = backend is None
    if own:
        # no more processes than games to play: the rest would only start and stop
        jobs = min(jobs or default_jobs(), len(todo))
        backend = make_backend(config, jobs, close_fds=close_fds)
    res.workers = backend.workers
    res.backend = backend.name
    aborted = True
    try:
        backend.play(todo, on_record, stop, on_event, on_live)
        aborted = False
    except KeyboardInterrupt:
        res.interrupted = True
    finally:
        if own:
            backend.close(abort=aborted)


def result_from_db(db, game=None, anchor=0):
    """The TournamentResult of a stored tournament, without playing (``roost tournament
    --report``, or a program reading a database)."""
    store = Store.open(db)
    try:
        config = config_from_dict(store.config(), game)
        plan = config.schedule()
        plan_len = len(plan)
        book = _Book(config, plan)
        stored = store.results()
        endings = {gid: end for gid, _, end in store.endings()}
        for gid, engines, result in stored:
            book.add(gid, engines, result, endings.get(gid))
        for _, engines, seats in store.seat_stats():
            book.add_stats(engines, seats)
        res = _result(config, db, book, plan, len(stored), anchor)
        res.counted, res.extra, res.stored, res.sprt = book.counted, book.extra, len(stored), book.decision
        res.finished = book.decided or res.stored >= plan_len
        res.ratings = fit_elo(book.tally, anchor=anchor) if book.counted else None
        return res
    finally:
        store.close()


# ---------------------------------------------------------------------- reports
def summary_dict(res):
    cfg = res.config
    names = cfg.names()
    t = res.tally
    r = res.ratings
    engines = []
    order = r.order() if r else list(range(len(names)))
    for rank, i in enumerate(order, 1):
        engines.append({
            "rank": rank, "index": i, "name": names[i], "spec": cfg.engines[i],
            "elo": None if not r or r.elo[i] is None else round(r.elo[i], 1),
            "elo_error95": None if not r or r.err[i] is None else round(r.err[i], 1),
            "games": t.games[i], "score": t.score[i],
            "wins": t.wdl[i][0], "draws": t.wdl[i][1], "losses": t.wdl[i][2],
            "forfeits": dict((res.forfeits or [{}] * len(names))[i]),
            "pairwise_score": sum(t.raw_W[i]), "pairwise_games": sum(t.raw_N[i]),
            "stats": (res.stats[i] if res.stats else EngineStats()).as_dict(
                time_forfeits=(res.forfeits or [{}] * len(names))[i].get("time", 0))})
    pf = res.pair_forfeits or [[0] * t.k for _ in range(t.k)]
    cross = [[None if i == j or not t.raw_N[i][j] else
              {"score": t.raw_W[i][j], "games": t.raw_N[i][j], "forfeits": pf[i][j]}
              for j in range(t.k)] for i in range(t.k)]
    d = {"db": res.db, "config": cfg.as_dict(), "scheduled": res.scheduled, "stored": res.stored,
         "counted": res.counted, "played_now": res.played, "resumed_from": res.resumed,
         "grown": res.grown,
         "finished": res.finished, "interrupted": res.interrupted,
         "anchor": names[res.anchor] if res.anchor < len(names) else None,
         "rating_note": r.note if r else "", "engines": engines, "crosstable": cross,
         "adjudicated": dict(res.adjudicated or {}),
         "backend": res.backend, "workers": res.workers, "wall_seconds": round(res.wall, 3),
         "games_per_second": round(res.rate(), 2), "time_in_games": round(res.busy(), 3)}
    h = res.stream.head_to_head() if res.stream is not None and res.stream.n else None
    if h is not None:
        d["head_to_head"] = {"engine": names[0], "opponent": names[1], "games": h.games,
                             "model": res.stream.model, "pairs": h.pairs,
                             "score": h.score, "margin95": h.margin,
                             "elo": None if math.isinf(h.elo) else h.elo,
                             "elo_low": None if math.isinf(h.elo_low) else h.elo_low,
                             "elo_high": None if math.isinf(h.elo_high) else h.elo_high,
                             "los": h.los}
    if res.sprt is not None:
        s = cfg.sprt
        dec, n, llr = res.sprt
        d["sprt"] = {**s.as_dict(), "model": res.stream.model, "llr": llr, "lower": s.lower, "upper": s.upper,
                     "decision": dec or None, "games": n, "extra_not_counted": res.extra}
    return d


def _stats_lines(engines, w):
    """The per-engine statistics of the summary: moves searched, mean seconds a move, mean
    depth (alpha-beta) or iterations (MCTS), nodes (or iterations) a second, time forfeits
    and the games in which the engine proved a result."""
    if not any(e["stats"]["moves"] for e in engines):
        return []
    out = ["", f"{'':>4}  {'engine':<{w}}  {'moves':>6}  {'s/move':>7}  {'depth':>5}  "
               f"{'iterations':>10}  {'nodes/s':>9}  {'time losses':>11}  {'proofs':>6}"]
    for e in engines:
        st = e["stats"]

        def shown(v, fmt):
            return "-" if v is None else format(v, fmt)
        out.append(f"{'':>4}  {e['name']:<{w}}  {st['moves']:>6}  "
                   f"{shown(st['seconds_per_move'], '.3f'):>7}  {shown(st['mean_depth'], '.1f'):>5}  "
                   f"{shown(st['mean_iterations'], '.0f'):>10}  {shown(st['nodes_per_second'], ',d'):>9}  "
                   f"{st['time_forfeits']:>11}  {st['games_with_proofs']:>6}")
    out.append("(nodes/s: MCTS counts iterations; proofs: games in which the engine proved a result)")
    return out


def summary_text(res):
    cfg = res.config
    d = summary_dict(res)
    names = cfg.names()
    lines = []
    mode = "round robin" if cfg.mode == ROUND_ROBIN else "gauntlet"
    decided = res.sprt is not None and res.sprt[0]
    state = ("stopped early: the SPRT decided" if decided and res.counted < res.scheduled
             else "complete" if res.finished else "interrupted" if res.interrupted else "incomplete")
    clock = f", clocks {cfg.tc.text()}" if cfg.tc else ""
    lines.append(f"{cfg.game.title}, {cfg.players} seats, {mode} of {len(names)} engines, "
                 f"seed {cfg.seed}{clock}: {res.counted}/{res.scheduled} games ({state}), db {res.db}")
    if cfg.openings is not None:
        lines.append(f"openings: a suite of {cfg.openings.count}, {cfg.order}, "
                     + ("each played from every seating" if cfg.repeat else "one a game"))
    if cfg.adjudication:
        lines.append(f"adjudication: {cfg.adjudication.text()}")
    if res.played:
        lines.append(f"played {res.played} games in {res.wall:.1f}s on {res.workers} "
                     f"{'worker' if res.workers == 1 else 'workers'} ({res.backend}): "
                     f"{res.rate():.1f} games/s, {100 * res.busy():.0f}% of worker time in games")
    if res.resumed and res.played:
        lines.append(f"grown from {res.resumed} stored games to {res.scheduled} scheduled" if res.grown
                     else f"resumed: {res.resumed} {'game was' if res.resumed == 1 else 'games were'} already stored")
    if not res.counted:
        lines.append("no games yet")
        return "\n".join(lines)
    w = max(6, max(len(n) for n in names))
    lines.append("")
    lines.append(f"{'rank':>4}  {'engine':<{w}}  {'Elo':>6}  {'±95%':>5}  {'score':>7}  "
                 f"{'games':>5}  {'won':>4}  {'drawn':>5}  {'lost':>4}")
    for e in d["engines"]:
        err = "-" if e["elo_error95"] is None else f"{e['elo_error95']:.0f}"
        if e["index"] == res.anchor:
            err = "anchor"
        lines.append(f"{e['rank']:>4}  {e['name']:<{w}}  {elo_text(e['elo']):>6}  {err:>5}  "
                     f"{e['score']:>7.1f}  {e['games']:>5}  {e['wins']:>4}  {e['draws']:>5}  "
                     f"{e['losses']:>4}")
    if res.ratings and res.ratings.note:
        lines.append(f"note: {res.ratings.note}")
    lines += _stats_lines(d["engines"], w)
    if d["adjudicated"]:
        lines.append("adjudicated: " + ", ".join(f"{n} {'game' if n == 1 else 'games'} by {rule}"
                                                 for rule, n in sorted(d["adjudicated"].items())))
    lost = [e for e in d["engines"] if e["forfeits"]]
    if lost:
        lines.append("forfeits (games lost by breaking the arena's rules: clock, crash, illegal "
                     "or malformed move, error, handshake):")
        for e in lost:
            why = ", ".join(f"{r} {n}" for r, n in sorted(e["forfeits"].items()))
            lines.append(f"  {e['name']}: {sum(e['forfeits'].values())} ({why})")
    if len(names) > 2 or cfg.players > 2:
        lines.append("")
        lines.append("crosstable: the row engine's pairwise score against the column engine")
        order = [e["index"] for e in d["engines"]]
        cross = d["crosstable"]
        cells = [[("-" if i == j else f"{cross[i][j]['score']:g}/{cross[i][j]['games']}"
                   + (f" {cross[i][j]['forfeits']}f" if cross[i][j]["forfeits"] else "")
                   if cross[i][j] else ".") for j in order] for i in order]
        cw = max(6, max(len(c) for row in cells for c in row))
        lines.append(f"{'':>4}  {'':<{w}}  " + "  ".join(f"{k + 1:>{cw}}" for k in range(len(order))))
        for k, i in enumerate(order):
            lines.append(f"{k + 1:>4}  {names[i]:<{w}}  " + "  ".join(f"{c:>{cw}}" for c in cells[k]))
        if lost:
            lines.append("(Nf: N of those games the row engine forfeited)")
    h = d.get("head_to_head")
    if h:
        lines.append("")
        el = "" if h["elo"] is None else f", Elo {elo_text(h['elo'])}"
        if h["elo"] is not None and h["elo_low"] is not None and h["elo_high"] is not None:
            el += f" [{elo_text(h['elo_low'])}, {elo_text(h['elo_high'])}]"
        over = f"{h['games']} games" + (f" ({h['pairs']} pairs)" if h["pairs"] else "")
        lines.append(f"{h['engine']} vs {h['opponent']}: score {score_with_interval(h['score'], h['margin95'], h['games'])} "
                     f"over {over}{el}, LOS {100 * h['los']:.1f}%")
    s = d.get("sprt")
    if s:
        what = {"H1": f"H1 accepted: {names[0]} is at least {s['elo1']:g} Elo stronger",
                "H0": f"H0 accepted: {names[0]} is at most {s['elo0']:g} Elo stronger"}.get(
                    s["decision"], "undecided")
        lines.append(f"SPRT {cfg.sprt.text()} ({s['model']}): LLR {s['llr']:.2f} in [{s['lower']:.2f}, "
                     f"{s['upper']:.2f}] after {s['games']} games: {what}")
        if s["extra_not_counted"]:
            lines.append(f"({s['extra_not_counted']} games that finished after the decision are "
                         "stored but not counted)")
    return "\n".join(lines)
