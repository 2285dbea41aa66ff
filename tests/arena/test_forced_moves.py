"""A forced move (one legal move) is played by the arena at once: the engine is not asked,
no search runs and no clock is spent, so nothing of a forced move depends on the machine's
load (a search of the time manager's minimum would grow a reused tree by as much as the
load allows, and the same seed would play different games)."""
import os
import shlex
import sys

from roost.arena.match import TimeControl, play_game
from roost.core.games import get_game
from roost.protocol.client import ProtocolEngine
from roost.search.engine import Engine
from roost.search.engines import parse_engine

DUCKS = get_game("ducks")
BOT = os.path.join(os.path.dirname(__file__), os.pardir, "protocol", "bots", "bot.py")


class Spy(Engine):
    """An engine that plays random moves and notes how many moves it had to choose from."""
    kind = "spy"

    def __init__(self):
        super().__init__()
        self.inner = parse_engine("random")
        self.choices = []

    def choose(self, state, limit=None, **options):
        self.choices.append(len(state.legal()))
        return self.inner.choose(state, limit, **options)


def forced_plies(record):
    """The plies (0-based) at which the mover had one legal move."""
    state = DUCKS.parse(record.start)
    out = []
    for k, move in enumerate(record.moves):
        if record.movers[k] >= 0 and len(state.legal()) == 1:
            out.append(k)
        state.play_unchecked(move)
    return out


def a_game_with_forced_moves(engines, tc=None):
    for seed in range(200):
        rec = play_game(DUCKS, engines, seed=seed, tc=tc)
        if forced_plies(rec):
            return rec
    raise AssertionError("no game with a forced move in 200 seeds")


def test_a_forced_move_is_played_without_asking_the_engine():
    # (in Feed the Ducks the last duck of the setup has one cell left)
    spies = [Spy(), Spy()]
    rec = a_game_with_forced_moves(spies, tc=TimeControl(60.0, 0.5))
    forced = forced_plies(rec)
    assert all(rec.times[k] == 0.0 for k in forced)
    assert min(n for spy in spies for n in spy.choices) >= 2


def test_a_program_is_not_sent_go_for_a_forced_move(tmp_path):
    log = tmp_path / "heard.txt"
    command = " ".join(shlex.quote(w) for w in [sys.executable, BOT, "--record", str(log)])
    program = parse_engine("cmd:" + command)
    try:
        for seed in range(200):
            log.write_bytes(b"")
            rec = play_game(DUCKS, [parse_engine("random"), program], seed=seed,
                            tc=TimeControl(60.0, 0.5))
            forced = [k for k in forced_plies(rec) if rec.movers[k] == 1]
            if forced:
                break
        assert forced, "no game with a forced move of seat 1 in 200 seeds"
        decisions = sum(1 for m in rec.movers if m == 1)
        goes = [l for l in log.read_text().splitlines() if l.startswith("go ")]
        assert len(goes) == decisions - len(forced)
        assert all(rec.times[k] == 0.0 for k in forced)
    finally:
        program.close()
