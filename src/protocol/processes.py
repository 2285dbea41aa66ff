"""Engine programs as processes, ended with everything they started.

The arena is its engines' reaper.  Every program it starts (``Program``)

- runs in a session of its own, so ending it kills its whole process group, whatever its
  main process did meanwhile (the group is killed before the main process is reaped, so its
  id cannot have passed to another process);
- carries a mark in its environment (``ROOST_ENGINE``), which everything it starts inherits:
  ending the program also kills every process, wherever it is, that still carries its mark
  (a child that left the group with ``setsid``, a daemon left by a double fork);
- dies with the thread that started it (Linux: ``PR_SET_PDEATHSIG``), so a killed arena
  takes its engines with it, and what they started is ended by the guardian of the process
  that started them (``roost.protocol.guardian``, one per such process), which waits for
  that process to be gone;
- has its stderr read on a thread of its own, keeping only the last ``WORDS`` bytes (its
  "last words", quoted when it crashes), however much it writes.

A process that starts programs becomes a child subreaper (Linux:
``PR_SET_CHILD_SUBREAPER``): a descendant orphaned by its parent's death is handed to it
instead of to init, so it can neither escape the arena nor stay a zombie: the arena reaps
the ended orphans of its engines' sessions.  ``reap_started_by`` ends every marked process of
the worker processes of a tournament that ended or were stopped (their engines' marks name
them) when the pool is closed.
"""
import ctypes
import os
import signal
import subprocess
import sys
import threading
import time

MARK = "ROOST_ENGINE"
WORDS = 8192                 # bytes of an engine's stderr kept (the end of it)
SWEEP_TIME = 5.0             # seconds to wait at most for marked processes to die
LINUX = sys.platform.startswith("linux")

_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
_prctl = None
if LINUX:
    try:
        _prctl = ctypes.CDLL(None, use_errno=True).prctl
        _prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong,
                           ctypes.c_ulong]
    except (OSError, AttributeError):
        _prctl = None

_reaper = None               # the pid of this process once it is a subreaper
_arena = None                # the pid of the first reaper of this process tree: the arena
_serial = 0
_running = set()             # pids of this process's programs not yet reaped
_lock = threading.Lock()


def become_reaper():
    """Make this process its engines' reaper (once; a forked worker becomes one of its own,
    and keeps the arena's id in the marks of its programs)."""
    global _reaper, _arena
    pid = os.getpid()
    if _reaper == pid:
        return
    _reaper = pid
    if _arena is None:
        _arena = pid
    if _prctl is not None:
        _prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


_guardian = None             # (pid of the process it guards, the pipe it waits on, the guardian)


def _guard():
    """Start this process's guardian (``roost.protocol.guardian``), once: when this process
    is gone, however it went, the guardian ends what its programs left running.  Only the
    end of the pipe matters, so it is never written; a forked worker holds it as well, and
    starts a guardian of its own for the programs it starts."""
    global _guardian
    pid = os.getpid()
    if not LINUX or (_guardian is not None and _guardian[0] == pid):
        return
    read, write = os.pipe()
    try:
        guardian = subprocess.Popen([sys.executable, "-m", "roost.protocol.guardian",
                                     f"{_arena}.{pid}."], stdin=read, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL, close_fds=True,
                                    start_new_session=True)
    except OSError:
        os.close(write)          # no guardian: the programs still die with this process
        return
    finally:
        os.close(read)
    _guardian = (pid, write, guardian)


def die_with_parent(signum, parent):
    """Have this process receive ``signum`` when the thread that started it ends (Linux);
    if its parent (the pid ``parent``) is already gone, receive it now.  Safe in a preexec
    function."""
    if _prctl is None:
        return
    _prctl(_PR_SET_PDEATHSIG, signum, 0, 0, 0)
    if os.getppid() != parent:
        os.kill(os.getpid(), signum)


class LastWords:
    """The end of what a program writes to a pipe, read on a thread of its own so the
    program never blocks on a full pipe, and keeping at most ``size`` bytes."""

    def __init__(self, fd, size=WORDS):
        self.fd = fd
        self.size = size
        self.buf = bytearray()
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._drain, name="roost-engine-stderr", daemon=True)
        self.thread.start()

    def _drain(self):
        try:
            while True:
                try:
                    data = os.read(self.fd, 65536)
                except InterruptedError:
                    continue
                except OSError:
                    break
                if not data:
                    break
                with self.lock:
                    self.buf += data
                    if len(self.buf) > self.size:
                        del self.buf[:len(self.buf) - self.size]
        finally:
            os.close(self.fd)

    def settle(self, timeout):
        """Wait up to ``timeout`` seconds for the writers to be gone (all of it read)."""
        self.thread.join(timeout)

    def clear(self):
        with self.lock:
            self.buf.clear()

    def kept(self):
        """How many bytes are kept."""
        with self.lock:
            return len(self.buf)

    def text(self, lines=3):
        """The last ``lines`` lines that are not blank, joined by ' | '."""
        with self.lock:
            text = bytes(self.buf).decode("utf-8", "replace")
        tail = [l.strip() for l in text.splitlines() if l.strip()][-lines:]
        return " | ".join(tail)


class Program:
    """A started engine program: pipes to its stdin and from its stdout (``stdin`` and
    ``stdout``, file descriptors), its stderr's last words (``words``), and how it ends."""

    def __init__(self, argv):
        global _serial
        become_reaper()
        _guard()
        with _lock:
            _serial += 1
            self.mark = f"{_arena}.{os.getpid()}.{_serial}"
        env = dict(os.environ)
        env[MARK] = self.mark
        parent = os.getpid()

        def dies_with_the_arena():
            die_with_parent(signal.SIGKILL, parent)
        # OSError (no such program) is the caller's to report
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, bufsize=0, close_fds=True,
                                     start_new_session=True, env=env,
                                     preexec_fn=dies_with_the_arena if _prctl is not None else None)
        self.pid = self.proc.pid
        with _lock:
            _running.add(self.pid)
        self.stdin = self.proc.stdin.fileno()
        self.stdout = self.proc.stdout.fileno()
        self.words = LastWords(os.dup(self.proc.stderr.fileno()))
        self.proc.stderr.close()
        self.pidfd = None
        if hasattr(os, "pidfd_open"):
            try:
                self.pidfd = os.pidfd_open(self.pid)
            except OSError:
                pass
        self.status = None           # the exit status once ended: a code, or -signal
        self.ended = False

    def exited(self):
        """The main process's exit status (a code, or -signal) once it has exited, else
        None; it is not reaped, so its process group keeps its id until ``end``."""
        if self.status is None and not self.ended:
            try:
                info = os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                return None
            if info is not None and info.si_pid == self.pid:
                self.status = (info.si_status if info.si_code == os.CLD_EXITED
                               else -info.si_status)
        return self.status

    def wait_exit(self, timeout):
        """The exit status once the main process exits within ``timeout`` seconds, else None."""
        deadline = time.monotonic() + timeout
        while self.exited() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        return self.status

    @property
    def running(self):
        return not self.ended and self.exited() is None

    def end(self):
        """End the program and everything it started, at once."""
        if self.ended:
            return
        self.ended = True
        try:
            os.killpg(self.pid, signal.SIGKILL)   # the group: still ours, its leader unreaped
        except (ProcessLookupError, PermissionError):
            pass
        try:
            code = self.proc.wait(timeout=SWEEP_TIME)
            if self.status is None:
                self.status = code
        except subprocess.TimeoutExpired:
            pass
        with _lock:
            _running.discard(self.pid)
        sweep(lambda mark: mark == self.mark)
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                f.close()
            except OSError:
                pass
        if self.pidfd is not None:
            os.close(self.pidfd)
            self.pidfd = None
        self.words.settle(0.5)


def reap_started_by(pids):
    """End every process carrying the mark of a program started by one of the processes
    ``pids`` of this arena (its worker processes, ended), and reap the ended orphans handed
    to this process."""
    if _arena is None:
        return
    prefixes = tuple(f"{_arena}.{pid}." for pid in pids)
    sweep(lambda mark: mark.startswith(prefixes))


def sweep(wanted, patience=SWEEP_TIME):
    """Kill every process whose mark satisfies ``wanted`` until none is left (or
    ``patience`` seconds have passed), reaping those handed to this process."""
    if not LINUX:
        return
    deadline = time.monotonic() + patience
    while True:
        marked = [pid for pid, mark in _marked() if wanted(mark)]
        for pid in marked:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        _reap_orphans()
        if not marked or time.monotonic() >= deadline:
            return
        time.sleep(0.005)


def _pids():
    """The names of /proc's process folders (none where /proc is not mounted)."""
    try:
        return [name for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return []


def _marked():
    """(pid, mark) of every live process this user may read that carries a mark."""
    key = MARK.encode() + b"="
    out = []
    for name in _pids():
        try:
            with open(f"/proc/{name}/environ", "rb") as f:
                env = f.read()
        except OSError:
            continue
        for item in env.split(b"\0"):
            if item.startswith(key):
                out.append((int(name), item[len(key):].decode("ascii", "replace")))
                break
    return out


def _reap_orphans():
    """Reap this process's ended children of other sessions than its own that are not its
    programs: the orphans of its engines' descendants, handed to it as their subreaper
    (a child it started itself in another session is one of its programs)."""
    me, mine = os.getpid(), os.getsid(0)
    for name in _pids():
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        # after the name: state, ppid, pgrp, session
        pid = int(name)
        if fields[0] != b"Z" or int(fields[1]) != me or int(fields[3]) == mine:
            continue
        with _lock:
            if pid in _running:
                continue
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            pass
