"""Finding the processes a test's engine programs left behind, by a tag in their command
line (tests/protocol/bots/bot.py --tag: every child the bot forks carries it too), in /proc."""
import os
import signal
import time
import uuid


def new_tag():
    return f"roost-test-{uuid.uuid4().hex[:12]}"


def running(tag):
    """PIDs of the live processes (not zombies) whose command line holds ``tag``."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read()
            with open(f"/proc/{pid}/stat", "rb") as f:
                state = f.read().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        if tag.encode() in cmd and state != b"Z" and b"pytest" not in cmd:
            found.append(int(pid))
    return found


def left_after(tag, settle=10.0):
    """The processes still running ``settle`` seconds on (or fewer: as soon as none is)."""
    deadline = time.monotonic() + settle
    while running(tag) and time.monotonic() < deadline:
        time.sleep(0.1)
    return running(tag)


def kill_all(tag):
    """End whatever a failed test left (so a failure does not leave processes behind)."""
    for pid in running(tag):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def describe(pids):
    """One line per process: pid, parent, group, session, state and command line."""
    lines = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        state, ppid, pgrp, session = (x.decode() for x in fields[:4])
        lines.append(f"{pid} parent {ppid} group {pgrp} session {session} {state}: {cmd[:160]}")
    return "\n".join(lines)
