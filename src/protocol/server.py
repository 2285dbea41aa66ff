"""A roost engine served over the protocol (``roost engine GAME --engine SPEC``).

Two threads.  The reader takes every line as it comes, so nothing the arena sends waits
behind a search: ``isready`` is answered at once while a ``go`` waits for its answer, and a
``stop`` or ``quit`` marks every search asked for before it as stopped.  The main thread
answers the commands in the order they came and runs the searches, where roost's searchers
notice signals: while one runs, a timer looks at the stop mark every ``POLL`` seconds and
ends the search through the searchers' own interruption path, with the best move so far.
So ``stop`` and ``quit`` end the search under way at once whatever is queued behind it (a
``go`` waiting behind ``go infinite`` included: it is answered at once too), and the end of
the input is a ``quit``, as for UCI engines.

On a clock (``go clock MS inc MS``) the time manager (``roost.search.timeman``) allots the
move's seconds, after taking off the time the server already spent since ``go`` arrived.
On perfect-information games the engine keeps its tree between moves: the moves sent
after a position it has already seen are played into it (``Engine.advance``), exactly as
in the arena's own process, so a game through the protocol repeats the in-process game
move for move when the budgets are not times.  There it also analyses whoever is to move,
as a UCI engine analyses any position; on a game with hidden information the position is
the seat's own view, and only that seat's decisions are searched.
"""
import queue
import signal
import threading
import time

from roost.core.errors import RoostError
from roost.core.moves import LineError, play_line
from roost.core.seeds import derive_seed
from roost.protocol import VERSION
from roost.protocol import messages as M
from roost.protocol.lines import MAX_LINE, LineReader, LineTooLong, write_line
from roost.search.limit import Limit

POLL = 0.02                 # seconds between looks at the stop mark during a search
ERROR_LINE = 400            # characters of an error message at most (it may quote the input)


class _Stopped(KeyboardInterrupt):
    """`stop` arrived during a search (raised from the timer).  It is a KeyboardInterrupt so
    that wherever it lands, in a searcher's native loop or in a progress report made in
    Python, the search takes it as Ctrl-C: it stops and returns what it has."""


class _TooLong:
    """What the reader hands on in place of a line too long to be the protocol."""


class Server:
    def __init__(self, game, spec, infd=0, outfd=1, seed=0):
        from roost.search.engines import parse_spec
        from roost.search.timeman import TimeManager
        self.game = game
        spec = parse_spec(spec)
        if spec.external:
            raise RoostError("roost engine serves roost's own engines, not another program (cmd:)")
        self.engine = spec.engine()
        self.reader = LineReader(infd)
        self.out = outfd
        self.seed = seed
        self.goes = 0
        self.players = None
        self.seat = None
        self.position = None
        self.world = None
        self.moves = []
        self.seen = None             # (position, move ids) the engine's tree has followed
        self.cache = None            # (position, move names, state reached, ids): the last go
        self.manager = TimeManager(game.name)
        self.commands = queue.Queue()     # the lines for the main thread, in order; None: the end
        self.writing = threading.Lock()
        self.marks = threading.Lock()
        # the go lines are numbered in the order they came; the reader counts those read and
        # the main thread those answered, and every go up to `stop_upto` stops at once
        self.gos_read = 0
        self.gos_answered = 0
        self.stop_upto = 0
        self.searching = False
        self.stop_raised = False

    # ------------------------------------------------------------------ the loop
    def send(self, line):
        with self.writing:           # both threads answer
            write_line(self.out, line)

    def run(self):
        """Answer commands until ``quit`` or the end of the input."""
        threading.Thread(target=self.read, name="roost-engine-reader", daemon=True).start()
        try:
            while True:
                line = self.commands.get()
                if line is _TooLong:
                    self.send(f"{M.INFO} string a line longer than {MAX_LINE} bytes ignored")
                elif line is None or M.split(line)[0] == M.QUIT:
                    return
                else:
                    self.handle(line)
        except BrokenPipeError:
            return                   # the arena is gone: nobody to answer

    def read(self):
        """The reader thread: every line as it comes, to the main thread in order, except
        what cannot wait for it (``isready`` during a search, ``stop``)."""
        while True:
            try:
                line = self.reader.readline()
            except LineTooLong:
                self.commands.put(_TooLong)
                continue
            except OSError:
                line = None          # an input that breaks is an input that ended
            word = M.QUIT if line is None else M.split(line)[0]
            with self.marks:
                if word == M.GO:
                    self.gos_read += 1
                elif word in (M.STOP, M.QUIT):
                    self.stop_upto = self.gos_read
                elif word == M.ISREADY and self.gos_answered < self.gos_read:
                    try:
                        self.send(M.READYOK)
                    except OSError:
                        pass
                    continue
            if word == M.STOP:
                continue             # acted on; in order it would change nothing
            self.commands.put(line)
            if word == M.QUIT:
                return

    def handle(self, line):
        word, rest = M.split(line)
        if not word:
            return
        handler = self.HANDLERS.get(word)
        if handler is None:
            self.send(f"{M.INFO} string unknown command {M.cut(word)!r} ignored")
            return
        try:
            handler(self, rest)
        except RoostError as e:
            self.send(f"{M.ERROR} {M.cut(str(e), ERROR_LINE)}")
        finally:
            if word == M.GO:
                with self.marks:
                    self.gos_answered += 1

    # ------------------------------------------------------------------ commands
    def on_hello(self, rest):
        self.send(f"{M.ID} name roost {self.engine.spec}")
        self.send(f"{M.ID} author the roost project")
        for p in self.engine.params:
            self.send(M.option_line(p))
        self.send(f"{M.HELLO_OK} {VERSION}")

    def on_setoption(self, rest):
        name, value = M.parse_setoption(rest)
        params = {p.name: p for p in self.engine.params}
        if name not in params:
            raise M.ProtocolError(f"setoption: {self.engine.kind} has no option {M.cut(name)!r}; its options: "
                                  f"{', '.join(params) or 'none'}")
        value = params[name].convert(self.engine.kind, value)
        self.engine = self.engine.spec.replace(**{name: value}).engine()
        self.seen = None

    def on_newgame(self, rest):
        from roost.core.games import get_game
        from roost.search.timeman import TimeManager
        name, players, seat = M.parse_newgame(rest)
        if get_game(name).name != self.game.name:
            raise M.ProtocolError(f"newgame: this engine plays {self.game.name}, not {M.cut(name)}")
        g = self.game
        if not g.min_players <= players <= g.max_players:
            raise M.ProtocolError(f"newgame: {g.title} is not played by {players} players")
        self.players, self.seat = players, seat
        self.position = self.world = None
        self.moves = []
        self.seen = None
        self.engine.new_game()
        self.manager = TimeManager(g.name, players)

    def on_isready(self, rest):
        self.send(M.READYOK)

    def on_position(self, rest):
        if not rest:
            raise M.ProtocolError("position: the position text is missing")
        self.position, self.world, self.moves = rest, None, []

    def on_world(self, rest):
        if not rest:
            raise M.ProtocolError("world: the position text is missing")
        self.world = rest

    def on_moves(self, rest):
        self.moves = rest.split()

    def on_go(self, rest):
        t0 = time.monotonic()
        go = M.Go.parse(rest)
        state, ids = self.current()
        if state.is_over:
            raise M.ProtocolError("go: the game is over")
        if state.is_chance:
            raise M.ProtocolError("go: chance acts here, not a player")
        if self.seat is not None and state.player != self.seat and state.hidden_info:
            raise M.ProtocolError(f"go: seat {state.player} is to move; this engine plays seat "
                                  f"{self.seat}, whose view this is")
        self.follow(state, ids)
        seed = go.seed if go.seed is not None else derive_seed(self.seed, self.goes)
        self.goes += 1
        seconds = None
        if go.movetime is not None:
            seconds = go.movetime / 1000
        if go.clock is not None and not go.infinite:
            from roost.search.timeman import Clock
            clock = Clock(go.clock / 1000 - (time.monotonic() - t0), (go.inc or 0) / 1000)
            share = self.manager.allocate(clock, state)
            seconds = share if seconds is None else min(seconds, share)
        ignored = [what for what, value in (("nodes", go.nodes), ("depth", go.depth))
                   if value is not None and what not in self.budgets(state)]
        if ignored:
            self.send(f"{M.INFO} string {self.engine.kind} has no {' or '.join(ignored)} limit; "
                      f"it searches by its other limits")
        # movetime is the time of an infinite go too; the rest of the spec's budget is lifted
        r = self.search(state, seed, Limit(time=seconds, nodes=go.nodes, depth=go.depth,
                                           infinite=go.infinite and seconds is None))
        if r.info.get("book"):
            self.send(f"{M.INFO} string {r.move_name} is from the opening book ({r.info['book']})")
        self.send(M.Info(depth=r.depth or None, nodes=r.iterations or r.nodes,
                         iterations=r.iterations or None, time=round(r.seconds * 1000),
                         value=r.value, best=r.move_name if r.iterations else None,
                         proven=r.proven if r.proven and not r.expectation else None,
                         pv=r.pv).line())
        self.send(f"{M.BESTMOVE} {r.move_name}")

    HANDLERS = {M.HELLO: on_hello, M.SETOPTION: on_setoption, M.NEWGAME: on_newgame,
                M.ISREADY: on_isready, M.POSITION: on_position, M.WORLD: on_world,
                M.MOVES: on_moves, M.GO: on_go}

    def budgets(self, state):
        """The limits of `go` the engine takes at ``state`` (``time``, ``nodes``, ``depth``)."""
        return self.engine.limited_by(state)

    # ------------------------------------------------------------------ positions
    def current(self):
        """The state to search (the world where one was sent) and the ids of the moves."""
        text = self.world or self.position
        if text is None:
            raise M.ProtocolError("go: no position was sent")
        cached = self.cache
        if cached is not None and cached[0] == text and self.moves[:len(cached[1])] == cached[1]:
            # the same game a few moves on: replay only the new moves (checking a chance
            # outcome can mean listing a hundred thousand of them)
            state, ids, done = cached[2].copy(), list(cached[3]), len(cached[1])
        else:
            try:
                state = self.game.parse(text)
            except RoostError as e:
                raise M.ProtocolError(f"the {'world' if self.world else 'position'} does not parse: {e}") from None
            if self.players is not None and state.players != self.players:
                raise M.ProtocolError(f"the position has {state.players} players, the game {self.players}")
            ids, done = [], 0
        try:
            ids += play_line(state, self.moves[done:], first=done + 1)
        except LineError as e:
            raise M.ProtocolError(f"moves: move {e.index} ({e.move}) does not play: {e.reason}") from None
        self.cache = (text, list(self.moves), state.copy(), list(ids))
        return state, ids

    def follow(self, state, ids):
        """Play the moves since the last search into the engine's tree, or drop the tree
        when the position is another one."""
        if state.hidden_info:
            return                   # a fresh view each time; the searchers start afresh
        anchor = self.world or self.position
        if self.seen is not None and self.seen[0] == anchor and ids[:len(self.seen[1])] == self.seen[1]:
            for m in ids[len(self.seen[1]):]:
                self.engine.advance(m)
        elif self.seen is not None:
            self.engine.new_game()
        self.seen = (anchor, list(ids))

    # ------------------------------------------------------------------ searching
    def stopped(self):
        """Whether the search under way was asked to stop (by a stop or quit that came
        after its go, or the end of the input)."""
        return self.gos_answered + 1 <= self.stop_upto

    def on_timer(self, signum, frame):
        if self.searching and not self.stop_raised and self.stopped():
            # once: the search takes the first as its interruption and then reports in
            # Python code, where a second one would cut its report off
            self.stop_raised = True
            raise _Stopped

    def search(self, state, seed, limit):
        from roost.search.alphabeta import SearchInterrupted
        self.stop_raised = False
        timed = threading.current_thread() is threading.main_thread()
        if timed:
            previous = signal.signal(signal.SIGALRM, self.on_timer)
            # a search stopped before it began stops at its first look
            signal.setitimer(signal.ITIMER_REAL, 1e-4 if self.stopped() else POLL, POLL)
        try:
            self.searching = True
            try:
                return self.engine.choose(state, limit, seed=seed, progress=self.progress_info)
            finally:
                self.searching = False
        except SearchInterrupted as e:
            partial = e.partial
        except _Stopped as e:
            # before the searcher began it has nothing yet; while it was wrapping up what it
            # had (stopped by Ctrl-C, then a stop in the same instant), that is in the context
            partial = e.__context__.partial if isinstance(e.__context__, SearchInterrupted) else None
        finally:
            if timed:
                signal.setitimer(signal.ITIMER_REAL, 0, 0)
                signal.signal(signal.SIGALRM, previous)
        return self.partial(state, partial, seed)

    def partial(self, state, partial, seed):
        """The move to play after a stop: the search's best so far, else the engine's own
        smallest search (one ply, a few hundred iterations), so the answer is still its."""
        from roost.search.result import SearchResult
        if isinstance(partial, SearchResult) and partial.move in state.legal():
            return partial
        return self.engine.choose(state, Limit(time=0.05, nodes=256, depth=1), seed=seed)

    def progress_info(self, progress):
        """An ``info`` line from a search's progress report (alpha-beta: each depth done;
        the MCTS family: at growing intervals, 0.1 s, then twice as long each time)."""
        if progress.iterations:
            self.send(M.Info(nodes=progress.iterations, iterations=progress.iterations,
                             world=progress.world[0] if progress.world else None,
                             time=round(progress.seconds * 1000),
                             nps=round(progress.speed) if progress.seconds > 0 else None,
                             value=progress.value, best=progress.best or None,
                             share=progress.share, pv=progress.pv).line())
        else:
            self.send(M.Info(depth=progress.depth or None, nodes=progress.nodes,
                             time=round(progress.seconds * 1000), value=progress.value,
                             pv=progress.pv).line())


def serve(game, spec, infd=0, outfd=1, seed=0):
    """Serve ``spec`` for ``game`` until ``quit`` or the end of the input."""
    Server(game, spec, infd, outfd, seed).run()


def main(argv=None, prog="python -m roost.protocol"):
    """``python -m roost.protocol GAME [--engine SPEC] [--seed N]``: serve an engine of the
    kinds known to this process (lighter to start than the whole command line; the arena's
    worker, ``roost.arena.worker``, knows every kind the arena does)."""
    import argparse
    import sys
    from roost.core.games import get_game
    parser = argparse.ArgumentParser(prog=prog,
                                     description="Serve a roost engine over the engine protocol.")
    parser.add_argument("game")
    parser.add_argument("--engine", default="mcts")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    signal.signal(signal.SIGINT, signal.SIG_IGN)       # the arena ends its workers itself
    try:
        serve(get_game(args.game), args.engine, seed=args.seed)
    except RoostError as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(2)
