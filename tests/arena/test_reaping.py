"""A tournament leaves nothing behind: when it ends, when it is stopped (SIGTERM, Ctrl-C)
and when it is killed (SIGKILL), at --jobs 1 and 2, no process of its engine programs survives:
not the programs (one of them deaf to quit and to signals), not the children they forked,
detached with setsid or left by a double fork.  Each tournament runs as a command of its
own; a tag in the bots' command lines finds what survives in /proc."""
import os
import shlex
import signal
import subprocess
import sys
import time

import pytest

from tests.protocol.leftovers import describe, kill_all, left_after, new_tag, running

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

BOT = os.path.join(os.path.dirname(__file__), os.pardir, "protocol", "bots", "bot.py")
CHILDREN = "fork,setsid,double"


@pytest.fixture
def tag():
    t = new_tag()
    yield t
    kill_all(t)


def bot(tag, *args):
    return "cmd:" + " ".join(shlex.quote(w) for w in [sys.executable, os.path.abspath(BOT),
                                                      "--tag", tag, *args])


def tournament(tmp_path, specs, *extra):
    argv = [sys.executable, "-m", "roost.cli.main", "tournament", "ducks", "--games", "2",
            "--seed", "5", "--db", str(tmp_path / "t.db"), "--no-progress", *extra]
    for s in specs:
        argv += ["-e", s]
    return argv


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_tournament_on_a_clock_leaves_no_process_of_its_engines(tmp_path, tag, jobs):
    specs = [bot(tag, "--mode", "random", "--spawn", CHILDREN),
             bot(tag, "--mode", "random", "--deaf", "--spawn", CHILDREN), "random"]
    r = subprocess.run(tournament(tmp_path, specs, "--tc", "30+0.1", "--jobs", jobs),
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "6/6 games (complete)" in r.stdout and "forfeits" not in r.stdout
    left = left_after(tag)
    assert not left, "engine processes outlived the tournament:\n" + describe(left)


def _started(proc, tag, count, within=120.0):
    deadline = time.monotonic() + within
    while len(running(tag)) < count:
        assert proc.poll() is None, proc.stderr.read()
        assert time.monotonic() < deadline, "the engines never started"
        time.sleep(0.1)


@pytest.mark.parametrize("how, jobs", [(signal.SIGTERM, 2), (signal.SIGINT, 2), (signal.SIGKILL, 2),
                                       (signal.SIGINT, 1), (signal.SIGKILL, 1)],
                         ids=["SIGTERM-2", "SIGINT-2", "SIGKILL-2", "SIGINT-1", "SIGKILL-1"])
def test_a_stopped_or_killed_tournament_leaves_no_process_of_its_engines(tmp_path, tag, how, jobs):
    # the games under way (with 2 jobs both, one in each worker), each engine in the middle
    # of a long think, deaf to quit, to the end of its input and to SIGTERM
    slow = bot(tag, "--mode", "slow", "--sleep", "600", "--deaf", "--spawn", CHILDREN)
    argv = tournament(tmp_path, [slow, "random"], "--tc", "1000+0", "--jobs", str(jobs))
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _started(proc, tag, jobs * 4)       # a bot and its three children in each game
        time.sleep(1.0)
        proc.send_signal(how)
        proc.wait(timeout=60)
        left = left_after(tag)
        assert not left, ("engine processes outlived the stopped tournament:\n" + describe(left)
                          + "\nit said: " + proc.stderr.read()[-2000:])
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
