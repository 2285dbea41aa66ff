"""Engine programs end with everything they started: the arena kills an engine's process
group whatever its main process did, catches the children that detached from it (setsid, a
double fork), and keeps only a bounded tail of what it writes to stderr.  The bots
(tests/protocol/bots/bot.py) fork, detach, ignore quit and flood stderr on demand; a tag in
their command line finds whatever survives in /proc."""
import os
import shlex
import signal
import sys

import pytest

from roost.arena.match import TimeControl, is_forfeit, play_game
from roost.core.games import get_game
from roost.protocol.client import ProtocolEngine
from roost.search.engines import parse_engine
from tests.protocol.leftovers import describe, kill_all, left_after, new_tag, running

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

BOT = os.path.join(os.path.dirname(__file__), "bots", "bot.py")
DUCKS = get_game("ducks")
CLOCK = TimeControl(30.0, 0.1)
CHILDREN = "fork,setsid,double"


@pytest.fixture(autouse=True)
def hang_guard():
    def fire(signum, frame):
        raise TimeoutError("the process test hung")
    previous = signal.signal(signal.SIGALRM, fire)
    signal.alarm(180)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def tag():
    t = new_tag()
    yield t
    kill_all(t)


def bot(tag, *args):
    return parse_engine("cmd:" + " ".join(shlex.quote(w) for w in
                                          [sys.executable, BOT, "--tag", tag, *args]))


def test_a_crashed_engine_is_ended_with_every_child_it_left(tag):
    # the main process exits on its own (a crash): its group is killed all the same, and
    # the children that left the group are caught
    engine = bot(tag, "--mode", "crash", "--spawn", CHILDREN)
    try:
        rec = play_game(DUCKS, [engine, parse_engine("random")], seed=1, tc=CLOCK)
        assert rec.ending["reason"] == "crash"
        left = left_after(tag, settle=5.0)
        assert not left, "the engine's children outlived it:\n" + describe(left)
    finally:
        engine.close()


def test_closing_an_engine_that_ignores_quit_ends_it_and_its_children(tag):
    engine = bot(tag, "--mode", "random", "--deaf", "--spawn", CHILDREN)
    try:
        rec = play_game(DUCKS, [parse_engine("random"), engine], seed=2, tc=CLOCK)
        assert not is_forfeit(rec.ending)
        assert len(running(tag)) == 4                 # the bot and its three children
    finally:
        engine.close()
    left = left_after(tag, settle=5.0)
    assert not left, "the engine or its children outlived close():\n" + describe(left)


def _deleted_files_bytes():
    """Bytes in the files this process holds open that have no name any more (temporary
    files)."""
    total = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{fd}").endswith(" (deleted)"):
                total += os.fstat(int(fd)).st_size
        except OSError:
            pass
    return total


def test_an_engine_flooding_stderr_leaves_only_its_last_words(tag):
    # 40 MiB on stderr before the handshake, then a crash: the forfeit quotes the last
    # lines, and nothing the arena keeps grows with the flood
    engine = bot(tag, "--mode", "crash", "--flood", "40")
    held = []
    try:
        def look(state, record):
            held.append(_deleted_files_bytes())
        rec = play_game(DUCKS, [parse_engine("random"), engine], seed=3, tc=CLOCK, on_move=look)
        assert rec.ending["reason"] == "crash"
        assert "bot: crashing on purpose" in rec.ending["detail"]
        assert len(rec.ending["detail"]) < 2000
        assert held and max(held) < (1 << 20), f"{max(held)} bytes of stderr kept in a file"
    finally:
        engine.close()
