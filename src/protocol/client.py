"""The arena's side of the protocol: ``ProtocolEngine`` runs a program that speaks it behind
the engine interface, so a ``cmd:COMMAND`` spec plays wherever a spec goes (the kind
registers itself with the engine registry when this module is imported), and the arena can
end a roost engine that overruns its clock (``roost.arena.engines`` serves in-process specs
from a worker process when a clock is on).

The program is started when it first plays (a spec is parsed, and checked, long before),
as a ``processes.Program``: ending it ends whatever it started, and the last lines of its
stderr explain a crash.  Every wait has a deadline: the handshake
(``handshake_timeout``), each move (the clock plus the arena's margin, or without a clock
the hang guard ``hang_guard``), even writing to a program that stopped reading.  A program
that breaks a rule raises ``Forfeit`` and is ended; the next game starts it afresh.
"""
import os
import shlex
import shutil
import time

from roost.core.errors import EngineSpecError
from roost.core.seeds import derive_seed
from roost.protocol import VERSION
from roost.protocol import messages as M
from roost.protocol.lines import LineReader, LineTooLong, PipeWriter
from roost.protocol.processes import Program
from roost.protocol.views import seat_texts
from roost.search.engine import Engine
from roost.search.engines import register_engine
from roost.search.forfeits import MARGIN, Forfeit
from roost.search.result import SearchResult
from roost.search.spec import EngineSpec, Param
from roost.search.timeman import Clock

HANDSHAKE_TIMEOUT = 10.0     # seconds to start and answer `roost 1`, and each `isready`
HANG_GUARD = 300.0           # seconds a move may take without a clock
QUIT_GRACE = 0.5             # seconds a program has to exit after `quit` before it is killed


def _forfeit(reason, detail):
    return Forfeit(reason, detail)


def _ms(seconds):
    return max(0, int(seconds * 1000))


class ProtocolEngine(Engine):
    """A program speaking the engine protocol, as an engine: a ``cmd:COMMAND`` spec, or a
    roost engine served from a worker process (the arena's ``worker_engine``).  ``spec``
    names it in records and ratings; ``argv`` starts it (by default, the spec's command
    split into words)."""
    kind = "cmd"
    summary = "an external program speaking the engine protocol"
    params = (Param("command", str, "", "the program's command line"),)
    any_seat = False
    external = True

    def __init__(self, spec, argv=None, handshake_timeout=HANDSHAKE_TIMEOUT, hang_guard=HANG_GUARD):
        super().__init__(spec)
        self.argv = list(argv) if argv is not None else shlex.split(spec["command"])
        self.handshake_timeout = handshake_timeout
        self.hang_guard = hang_guard
        self.program = None          # a processes.Program while it runs
        self.reader = None
        self.writer = None
        self.name = None             # what the program calls itself (id name)
        self.author = None
        self.options = []            # its option lines
        self.seat = None
        self.shadow = None           # the game as the arena played it (names the moves)
        self.anchor = None           # where the moves sent start from
        self.played = []             # names of the moves since the anchor
        self.last_info = None

    # ------------------------------------------------------------------ the spec
    @classmethod
    def read_spec(cls, rest, text):
        """``cmd:COMMAND``: the rest of the spec is a command line, not name=value pairs;
        EngineSpecError when there is no such program."""
        command = (rest or "").strip()
        if not command:
            raise EngineSpecError("cmd: needs a command, e.g. cmd:./mybot or "
                                  "cmd:roost engine ducks --engine ab:depth=4")
        try:
            argv = shlex.split(command)
        except ValueError as e:
            raise EngineSpecError(f"cmd:{command}: the command does not split into words ({e})") from None
        program = argv[0]
        if os.sep in program:
            if not os.path.isfile(program):
                raise EngineSpecError(f"cmd:{command}: no such program {program!r}")
            if not os.access(program, os.X_OK):
                raise EngineSpecError(f"cmd:{command}: {program!r} is not executable")
        elif shutil.which(program) is None:
            raise EngineSpecError(f"cmd:{command}: no program {program!r} on the PATH")
        return EngineSpec(cls, (("command", command),))

    @classmethod
    def spec_text(cls, spec):
        return "cmd:" + spec["command"]

    @classmethod
    def spec_hint(cls):
        return "cmd:COMMAND (an external program speaking the engine protocol)"

    @classmethod
    def describe(cls):
        return ["cmd:COMMAND: an external program speaking the engine protocol (docs/protocol.md),",
                "    e.g. cmd:python3 examples/randombot.py, or cmd:roost engine ducks --engine ab:depth=4"]

    # ------------------------------------------------------------------ the process
    @property
    def alive(self):
        return self.program is not None and self.program.running

    def _exit_detail(self, what):
        status = self.program.wait_exit(1.0) if self.program is not None else None
        how = ("" if status is None else f" (killed by signal {-status})" if status < 0
               else f" (exit code {status})")
        tail = ""
        if self.program is not None:
            self.program.words.settle(0.2)       # what it wrote just before it went
            tail = self.program.words.text()
        return f"{what}{how}" + (f"; its last words: {tail}" if tail else "")

    def start(self):
        """Start the program and shake hands; Forfeit('handshake') if it does not."""
        self.kill()
        try:
            self.program = Program(self.argv)
        except OSError as e:
            self.program = None
            raise _forfeit("crash", f"cannot start {self.argv[0]!r}: {e.strerror or e}") from None
        self.reader = LineReader(self.program.stdout, watch=self.program.pidfd)
        self.writer = PipeWriter(self.program.stdin)
        deadline = time.monotonic() + self.handshake_timeout
        self._send([f"{M.HELLO} {VERSION}"], deadline, handshake=True)
        self.options = []
        said = []                    # what else it wrote: quoted if the handshake fails
        while True:
            try:
                word, rest = self._read(deadline, "handshake", f"did not finish the handshake "
                                        f"(roostok) within {self.handshake_timeout:g}s")
            except Forfeit as f:
                if said:
                    raise _forfeit(f.reason, f"{f.detail}; on stdout it wrote: "
                                             f"{' | '.join(said[-3:])}") from None
                raise
            if word == M.ID:
                key, _, value = rest.partition(" ")
                if key == "name":
                    self.name = value.strip()
                elif key == "author":
                    self.author = value.strip()
            elif word == M.OPTION:
                self.options.append(rest)
            elif word == M.HELLO_OK:
                if rest.split()[:1] != [str(VERSION)]:
                    self.kill()
                    raise _forfeit("handshake", f"speaks protocol version {M.cut(rest) or '?'}, the arena {VERSION}")
                return
            elif word == M.ERROR:
                self.kill()
                raise _forfeit("handshake", f"reported an error: {M.cut(rest, 400)}")
            elif word:
                said.append(M.cut(f"{word} {rest}".strip()))

    def _send(self, lines, deadline, handshake=False):
        """Write ``lines`` before ``deadline``: a program that stopped reading is late (on
        time, or in its handshake), one that is gone crashed (or failed its handshake)."""
        try:
            self.writer.send(lines, deadline)
        except TimeoutError:
            self.kill()
            raise _forfeit("handshake" if handshake else "time",
                           "stopped reading its input (the pipe stayed full)") from None
        except OSError:
            detail = self._exit_detail("exited")
            self.kill()
            raise _forfeit("handshake" if handshake else "crash", detail) from None

    def _read(self, deadline, reason, late, patient=False):
        """The next (word, rest) before ``deadline``; Forfeit(reason) when it is late, or
        with ``patient`` (None, None): the caller has something to say first."""
        try:
            line = self.reader.readline(timeout=max(0.0, deadline - time.monotonic()))
        except TimeoutError:
            if patient:
                return None, None
            self.kill()
            raise _forfeit(reason, late) from None
        except LineTooLong as e:
            self.kill()
            raise _forfeit("malformed", f"wrote {e}") from None
        if line is None:
            detail = self._exit_detail("exited")
            self.kill()
            raise _forfeit("crash" if reason != "handshake" else "handshake", detail)
        return M.split(line)

    def kill(self):
        """End the program (and everything it started) at once."""
        program, self.program = self.program, None
        if program is not None:
            program.end()
        self.reader = self.writer = None

    def close(self):
        """Say quit, give the program a moment to exit, then end it."""
        if self.alive:
            try:
                self.writer.send([M.QUIT], time.monotonic() + QUIT_GRACE)
                self.program.wait_exit(QUIT_GRACE)
            except (OSError, TimeoutError):
                pass
        self.kill()

    def __del__(self):
        try:
            self.kill()
        except Exception:
            pass

    # ------------------------------------------------------------------ the engine interface
    def begin_game(self, game_name, state, seat):
        """A new game in which this engine plays ``seat`` from ``state``."""
        if not self.alive:
            self.start()
        self.program.words.clear()           # last words are this game's
        deadline = time.monotonic() + self.handshake_timeout
        self._send([f"{M.NEWGAME} {game_name} players {state.players} seat {seat}", M.ISREADY],
                   deadline, handshake=True)
        while True:
            word, rest = self._read(deadline, "handshake",
                                    f"did not answer isready within {self.handshake_timeout:g}s")
            if word == M.READYOK:
                break
            if word == M.ERROR:
                self.kill()
                raise _forfeit("handshake", f"refused the game: {M.cut(rest, 400)}")
        self.seat = seat
        self.shadow = state.copy()
        self.anchor = state.text()
        self.played = []

    def new_game(self):
        self.shadow = None

    def advance(self, move):
        if self.shadow is not None:
            self.played.append(self.shadow.move_name(move))
            self.shadow.play_unchecked(move)


    def _position_lines(self, state, seed):
        if state.hidden_info:
            position, world = seat_texts(state, state.player, derive_seed(seed, 3))
            return [f"{M.POSITION} {position}", f"{M.WORLD} {world}"]
        if self.shadow is None or self.shadow.text() != state.text():
            # not the game this engine was told about (a position given by hand): send it whole
            return [f"{M.POSITION} {state.text()}"]
        lines = [f"{M.POSITION} {self.anchor}"]
        if self.played:
            lines.append(f"{M.MOVES} {' '.join(self.played)}")
        return lines

    def choose(self, state, limit=None, *, seed=0, observer=None, progress=None, multipv=1):
        """The program's move at ``state``: on the mover's clock when ``limit`` gives one
        (``go clock MS inc MS``), else within the hang guard; the program keeps to its own
        budget otherwise."""
        self._check_playable(state, seed, observer)
        clock = None if limit is None or limit.clock is None else Clock(limit.clock, limit.inc)
        margin = limit.margin if limit is not None else MARGIN
        if self.shadow is None or not self.alive:
            # outside the arena's begin_game (a lone analysis), or after a crash
            if self.shadow is not None:
                raise _forfeit("crash", self._exit_detail("is not running"))
            self.begin_game(getattr(state, "name", None) or type(state).__name__.lower(),
                            state, state.player)
        go = M.Go(seed=seed & ((1 << 63) - 1))
        if clock is not None:
            go.clock, go.inc = _ms(clock.remaining), _ms(clock.increment)
            allowed = max(0.0, clock.remaining + margin)     # the clock may be a little
                                                                  # below 0 already
            late = (f"answered no move within its {max(0.0, clock.remaining):.3f}s and the "
                    f"{margin:g}s margin after stop")
        else:
            allowed = self.hang_guard
            late = f"answered no move within {self.hang_guard:g}s (no clock: the arena's hang guard)"
        lines = self._position_lines(state, seed) + [go.line()]
        t0 = time.monotonic()
        deadline = t0 + allowed
        # when the clock runs out the engine is told to stop, and has the margin to answer
        stop_at = t0 + max(0.0, clock.remaining) if clock is not None else None
        self._send(lines, deadline)
        info = None
        while True:
            word, rest = self._read(stop_at or deadline, "time", late, patient=stop_at is not None)
            if word is None:
                self._send([M.STOP], deadline)
                stop_at = None
                continue
            if word == M.BESTMOVE:
                break
            if word == M.INFO:
                info = M.Info.parse(rest)
            elif word == M.ERROR:
                self.kill()
                raise _forfeit("error", M.cut(rest, 400) or "reported an error")
        spent = time.monotonic() - t0
        self.last_info = info
        words = rest.split()
        if len(words) != 1:
            self.kill()
            raise _forfeit("malformed", f"bestmove {M.cut(rest)!r} does not name one move")
        try:
            move = state.parse_move(words[0])
        except Exception as e:
            self.kill()
            raise _forfeit("malformed", f"bestmove {M.cut(words[0])!r}: {e}") from None
        if move not in state.legal():
            self.kill()
            raise _forfeit("illegal", f"bestmove {M.cut(words[0])} is not legal here")
        info = info or M.Info()
        said = {"engine": self.name} if self.name else {}
        if info.value is None:
            said["no_value"] = True       # 0.5 stands in for the value it did not send
        return SearchResult(engine=str(self.spec), move=move, move_name=state.move_name(move),
                            player=state.player, value=0.5 if info.value is None else info.value,
                            pv=info.pv or [words[0]], nodes=info.nodes or 0, depth=info.depth or 0,
                            iterations=info.iterations or 0, proven=info.proven or "",
                            seconds=spent, info=said)


register_engine(ProtocolEngine)
