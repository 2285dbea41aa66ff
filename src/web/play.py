"""Games played in the browser: people and engines at the seats of one game, kept by the
server, so that a person sees only what their seat may see.

A game's engines think while a page follows it (its live socket); a page that closes
stops the search at once, and the game waits, as it stands, for a page to follow it again.
Chance outcomes are drawn from the game's seed, so a game replays exactly.  Undo takes the
game back to the last position where a person was to move; a hint is ``auto``'s move for
the person to move, read from that seat's view only.
"""
import asyncio
import itertools
import logging
import time

from roost.web import library
from roost.web.errors import BadRequest, NotFound

HUMAN = "human"
MAX_GAMES = 64              # games kept in memory; the oldest one nobody follows goes first
HINT_SECONDS = 1.0
log = logging.getLogger("roost.web")


class Seat:
    def __init__(self, spec):
        self.spec = spec
        self.human = spec == HUMAN


class Ply:
    """One move of the game: who made it, its name, the position before it, and every
    seat's clock before it (so that undo restores them)."""

    def __init__(self, before, move, name, mover, clocks):
        self.before, self.move, self.name, self.mover, self.clocks = before, move, name, mover, clocks


class Game:
    """One game in the browser."""
    _ids = itertools.count(1)

    def __init__(self, pool, state, seats, seed, tc=None, position=None):
        self.id = str(next(self._ids))
        self.pool = pool
        self.state = state
        self.start = state.copy()
        self.position = position                 # the text it started from, None: dealt from the seed
        self.seats = seats
        self.seed = seed
        self.tc = tc                             # (base, increment) or None
        self.clocks = [tc[0] for _ in seats] if tc else None
        self.managers = [library.MoveClock(state) for _ in seats] if tc else None
        self.turn_started = time.monotonic()
        self.history = []
        self.ending = None                       # {"seat", "reason"}: resigned or lost on time
        self.result = None
        self.listeners = set()
        self.worker = None
        self.thinking = None                     # the task of the engine to move
        self.progress = None                     # its last report
        self.flag = None                         # the task that ends a person's time
        self.touched = time.monotonic()
        self.version = 0                         # counts the changes: a page keeps the newest view

    # ---------------------------------------------------------------- who sees what
    def humans(self):
        return [k for k, s in enumerate(self.seats) if s.human]

    def viewer(self):
        """The seat whose view the page shows: the one person, else the person to move (or
        the last who moved), else everything (engines only, or once the game is over)."""
        people = self.humans()
        if not people or not library.hidden(self.state) or self.over():
            return None                          # nothing hidden, or the game is over: all is shown
        if len(people) == 1:
            return people[0]
        mover = library.to_move(self.state)
        if mover in people:
            return mover
        for ply in reversed(self.history):
            if ply.mover in people:
                return ply.mover
        return people[0]

    def over(self):
        return self.ending is not None or library.to_move(self.state) is None

    def mover(self):
        return None if self.ending is not None else library.to_move(self.state)

    def person_to_move(self):
        m = self.mover()
        return m if isinstance(m, int) and self.seats[m].human else None

    def view(self):
        viewer = self.viewer()
        last = self.history[-1] if self.history else None
        d = library.view(self.state, viewer, last.before if last else None, last.move if last else None)
        if self.ending is not None:
            d["over"] = True
            d["to_move"] = None
            d["moves"] = []
            d["result"] = self.result
            side = d["sides"][self.ending["seat"]]
            d["result_text"] = f"{side} {self.ending['reason']}"
        d.update({
            "id": self.id, "version": self.version, "seats": [s.spec for s in self.seats], "seed": self.seed,
            "position": self.position,
            "your_turn": self.person_to_move() is not None,
            "clocks": self.clock_values(), "tc": f"{self.tc[0]:g}+{self.tc[1]:g}" if self.tc else None,
            "history": [self._ply_view(p, viewer) for p in self.history],
            "thinking": self.thinking_seat(), "progress": self.progress,
            "can_undo": any(p.mover in self.humans() for p in self.history) or
                        (not self.humans() and bool(self.history)),
            "ending": self.ending})
        if self.person_to_move() is None:
            d["moves"] = []
        return d

    @staticmethod
    def _ply_view(ply, viewer):
        seen = library.visible(ply.before, ply.move, viewer)
        words = library.move_words(ply.before, ply.move, viewer) if seen else ""
        return {"mover": "chance" if ply.mover is None else ply.mover, "name": ply.name if seen else None,
                "words": words}

    def clock_values(self):
        if self.clocks is None:
            return None
        values = list(self.clocks)
        m = self.mover()
        if isinstance(m, int) and not self.over():
            values[m] -= time.monotonic() - self.turn_started
        return [round(v, 2) for v in values]

    def thinking_seat(self):
        m = self.mover()
        if self.thinking is not None and not self.thinking.done() and isinstance(m, int):
            return m
        return None

    # ---------------------------------------------------------------- moves
    def _play(self, move_id, name, mover):
        clocks = list(self.clocks) if self.clocks is not None else None
        before = self.state
        if isinstance(mover, int) and self.clocks is not None:
            self.clocks[mover] -= time.monotonic() - self.turn_started
            if self.clocks[mover] < -library.CLOCK_MARGIN:
                self._lose(mover, "lost on time", clocks)
                return
            self.clocks[mover] += self.tc[1]
        self.state = library.play_id(before, move_id)
        self.history.append(Ply(before, move_id, name, mover, clocks))
        self.turn_started = time.monotonic()
        self.version += 1

    def _lose(self, seat, reason, clocks=None):
        self.version += 1
        self.ending = {"seat": seat, "reason": reason}
        self.result = library.forfeit_result(library.players(self.state), seat)
        if clocks is not None and self.clocks is not None:
            self.clocks[seat] = min(self.clocks[seat], 0.0)

    def play_person(self, name):
        seat = self.person_to_move()
        if seat is None:
            raise BadRequest("it is not a person's turn in this game" if not self.over()
                             else "the game is over")
        library.play(self.state, name)             # names an unknown or illegal move
        m = library.move_id(self.state, name)
        self._play(m, library.move_name(self.state, m), seat)
        self._settle_chance()

    def preview(self, name):
        """The picture after the person to move plays ``name``, as that seat sees it."""
        seat = self.person_to_move()
        if seat is None:
            raise BadRequest("a preview is of a move of the person to move")
        return library.picture(library.play(self.state, name), self.viewer())

    def _settle_chance(self):
        """Play chance's outcomes, drawn from the game's seed and the ply."""
        while not self.over() and library.to_move(self.state) == "chance":
            name = library.random_outcome(self.state, library.derive_seed(self.seed, len(self.history)))
            self._play(library.move_id(self.state, name), name, None)

    def undo(self):
        """Back to the last position where a person was to move (one ply when only
        engines play)."""
        self.stop_thinking()
        people = self.humans()
        if not self.history:
            raise BadRequest("there is no move to take back")
        if people:
            k = max((i for i, p in enumerate(self.history) if p.mover in people), default=None)
            if k is None:
                raise BadRequest("no person has moved yet: there is nothing to take back")
        else:
            k = len(self.history) - 1
        ply = self.history[k]
        self.state = ply.before
        if ply.clocks is not None:
            self.clocks = list(ply.clocks)
        del self.history[k:]
        self.version += 1
        self.ending = self.result = None
        self.progress = None
        self.turn_started = time.monotonic()

    def resign(self, seat=None):
        people = self.humans()
        if seat is None:
            seat = self.person_to_move()
            if seat is None and len(people) == 1:
                seat = people[0]
        if seat is None or seat not in people:
            raise BadRequest("only a person's seat can resign" if people else "no person plays this game")
        if self.over():
            raise BadRequest("the game is over")
        self.stop_thinking()
        self._lose(seat, "resigned")

    # ---------------------------------------------------------------- engines
    def stop_thinking(self):
        if self.thinking is not None and not self.thinking.done():
            self.thinking.cancel()
        self.thinking = None
        if self.worker is not None:
            self.worker.stop()

    async def close_worker(self):
        self.stop_thinking()
        if self.flag is not None:
            self.flag.cancel()
            self.flag = None
        if self.worker is not None:
            w, self.worker = self.worker, None
            await w.close()

    def _worker(self):
        if self.worker is None:
            self.worker = self.pool.worker()
        return self.worker

    def go(self):
        """Start whatever happens next while a page follows: an engine's move, or the
        watch on a person's clock."""
        if not self.listeners or self.over():
            return
        m = self.mover()
        if isinstance(m, int) and not self.seats[m].human:
            if self.thinking is None or self.thinking.done():
                self.thinking = asyncio.ensure_future(self._think(m))
        elif self.clocks is not None and self.person_to_move() is not None:
            if self.flag is not None:
                self.flag.cancel()
            self.flag = asyncio.ensure_future(self._watch_clock(self.person_to_move(), len(self.history)))

    async def _watch_clock(self, seat, ply):
        left = self.clock_values()[seat]
        await asyncio.sleep(max(0.0, left + library.CLOCK_MARGIN))
        if len(self.history) == ply and self.person_to_move() == seat:
            self._lose(seat, "lost on time", [])
            await self.broadcast()

    async def _think(self, seat):
        limits = self.pool.limits
        spec = self.seats[seat].spec
        seconds = limits.seconds
        if self.clocks is not None:
            seconds = min(seconds, self.managers[seat].seconds(self.state, self.clock_values()[seat], self.tc[1]))
        ply = len(self.history)

        async def on_message(msg):
            if "progress" in msg:
                self.progress = dict(msg["progress"], seat=seat)
                await self.broadcast({"type": "thinking", "seat": seat, "progress": self.progress})
        try:
            answer = await self._worker().request(
                {"op": "search", "game": library.game_name(self.state), "position": library.text(self.state),
                 "engine": spec, "seconds": seconds, "observer": seat,
                 "seed": library.derive_seed(self.seed, ply, 3)}, on_message)
        except asyncio.CancelledError:
            return
        except Exception as e:          # the worker could not start: say so to the page
            log.exception("the engine of seat %s in game %s failed", seat, self.id)
            await self.broadcast({"type": "error", "error": f"the engine of seat {seat} failed: {e}"})
            return
        self.progress = None
        if len(self.history) != ply or self.over():
            return                        # undone or ended meanwhile
        found = answer.get("result") or answer.get("stopped")
        if not found:
            await self.broadcast({"type": "error", "error": f"the engine of seat {seat}: "
                                  f"{answer.get('error', 'no move')}"})
            return
        name = found["move"]
        self._play(library.move_id(self.state, name), name, seat)
        self._settle_chance()
        await self.broadcast()
        self.thinking = None             # this task is done: the next mover may be an engine too
        self.go()

    async def hint(self):
        seat = self.person_to_move()
        if seat is None:
            raise BadRequest("a hint is for a person to move")
        seconds = min(HINT_SECONDS, self.pool.limits.seconds)
        try:
            answer = await self._worker().request(
                {"op": "search", "game": library.game_name(self.state), "position": library.text(self.state),
                 "engine": "auto", "seconds": seconds, "observer": seat,
                 "seed": library.derive_seed(self.seed, len(self.history), 5)})
        finally:
            if not self.listeners:           # asked without a page following: no process kept
                await self.close_worker()
        found = answer.get("result") or answer.get("stopped")
        if not found:
            raise BadRequest(answer.get("error", "no hint could be found"))
        m = library.move_id(self.state, found["move"])
        return {"move": found["move"], "steps": library.move_steps(self.state, m, seat),
                "value": found["seat_value"], "engine": found["engine"]}

    # ---------------------------------------------------------------- pages
    async def broadcast(self, message=None):
        message = message or {"type": "position", "view": self.view()}
        for queue in list(self.listeners):
            queue.put_nowait(message)


class Games:
    """The games of a server, by id."""

    def __init__(self, pool):
        self.pool = pool
        self.games = {}

    def create(self, game, players=None, seats=None, position=None, seed=0, tc=None, allow_cmd=False):
        if position:
            state = library.parse(game, position)
        else:
            state = library.start(game, players, seed)
        n = library.players(state)
        if players is not None and players != n:
            raise BadRequest(f"the position has {n} players, not {players}")
        specs = list(seats) if seats else [HUMAN] + ["auto"] * (n - 1)
        if len(specs) != n:
            raise BadRequest(f"give one seat per player: {n} seats, not {len(specs)}")
        checked = []
        for spec in specs:
            if not isinstance(spec, str):
                raise BadRequest("a seat is 'human' or an engine spec")
            checked.append(HUMAN if spec.strip().lower() == HUMAN else
                           library.check_engine(spec, allow_cmd=allow_cmd,
                                                max_threads=self.pool.limits.threads,
                                                memory_mb=self.pool.limits.memory))
        clock = library.time_control(tc) if tc else None
        g = Game(self.pool, state, [Seat(s) for s in checked], seed, clock,
                 position=position.strip() if position else None)
        g._settle_chance()
        self._make_room()
        self.games[g.id] = g
        return g

    def _make_room(self):
        while len(self.games) >= MAX_GAMES:
            idle = [g for g in self.games.values() if not g.listeners]
            if not idle:
                break
            oldest = min(idle, key=lambda g: g.touched)
            del self.games[oldest.id]

    def get(self, gid):
        g = self.games.get(gid)
        if g is None:
            raise NotFound(f"no game {gid!r} on this server (games started here are kept while "
                           "the server runs)")
        g.touched = time.monotonic()
        return g

    async def close(self):
        for g in self.games.values():
            await g.close_worker()
