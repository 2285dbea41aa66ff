"""Every example a user is shown runs as written: each `roost ...` line of the README's code
blocks and every line under "Examples:" in the --help of every command, in that order, in
one empty folder (beside a copy of examples/, as at the root of a clone), each through a
shell as a user types it (a command that fails says so, early in a pipe too), with the
installed `roost` first on the PATH and nothing on standard input: a command that waits for
a person ends cleanly at the end of its input, a server once it takes connections ends
cleanly on Ctrl-C.  Examples build on the files that earlier ones made; none writes into
the package."""
import os
import pathlib
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

import click
import pytest

from roost.cli.main import cli

REPO = pathlib.Path(__file__).resolve().parents[2]
BIN = os.path.dirname(sys.executable)       # the environment's `roost` is beside its python
TIMEOUT = 240                                # seconds: a hung example fails, never the suite


def readme_examples(path=REPO / "README.md"):
    """The `roost` command lines of the README's code blocks, as written (a line that installs
    first, `pip install . && roost ...`, gives its `roost` part)."""
    lines, in_block = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_block = not in_block
            continue
        text = line.strip()
        if not in_block or not text:
            continue
        if text.startswith("pip install") and "&& roost " in text:
            text = text[text.index("&& roost ") + 3:]
        if text.startswith("roost "):
            lines.append(text)
    return lines


def help_examples(command):
    """The lines under "Examples:" (or "Example:") in a command's help, a line ending in a
    backslash joined to the next."""
    lines, on = [], False
    for raw in (command.help or "").splitlines():
        text = raw.strip()
        if text.rstrip(":") in ("Examples", "Example"):
            on = True
            continue
        if not on or text == "\b":
            continue
        if not text:
            on = False
            continue
        if lines and lines[-1].endswith("\\"):
            lines[-1] = lines[-1][:-1].rstrip() + " " + text
        else:
            lines.append(text)
    return lines


def command_tree(command, path=()):
    """``(path, command)`` for ``command`` and every command under it, in the order --help
    lists them."""
    yield path, command
    if isinstance(command, click.Group):
        for name in command.list_commands(click.Context(command)):
            yield from command_tree(command.get_command(click.Context(command), name), path + (name,))


def all_examples():
    """Every example once, in order: the README's, then each command's --help."""
    out = [("README", line) for line in readme_examples()]
    for path, command in command_tree(cli):
        where = " ".join(("roost",) + path) + " --help"
        out += [(where, line) for line in help_examples(command)]
    seen, unique = set(), []
    for where, line in out:
        words = tuple(shlex.split(line, comments=True))      # the same command, said twice
        if words not in seen:
            seen.add(words)
            unique.append((where, line))
    return unique


def test_the_examples_are_found():
    # the collection itself: the README's tour and every command's help give their examples
    examples = all_examples()
    places = {where for where, _ in examples}
    assert "README" in places and "roost --help" in places
    for path, command in command_tree(cli):
        if path:
            assert help_examples(command), f"roost {' '.join(path)} --help shows no example"
    assert len(examples) > 50


def test_no_example_writes_into_the_package():
    for where, line in all_examples():
        words = shlex.split(line, comments=True)
        assert not any(w.startswith(("src/", "./src/")) or "/src/" in w for w in words), (where, line)


def _run(line, folder, env):
    """``(exit status, what it said)`` of one example run through bash; a hung one is killed."""
    try:
        r = subprocess.run(["bash", "-c", line], cwd=folder, env=env, stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, f"did not end within {TIMEOUT} s"
    return r.returncode, r.stdout + r.stderr


def _port_free(port):
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("", port))
            return True
        except OSError:
            return False


def _serve(line, folder, env):
    """A server (`roost serve`) runs until Ctrl-C: start it, wait until it takes connections,
    press Ctrl-C, and return ``(exit status, what it said)``."""
    port = next((int(w) for flag, w in zip(shlex.split(line), shlex.split(line)[1:])
                 if flag in ("--port", "-p")), 8000)
    for _ in range(60):             # another program of this machine may hold the port a while
        if _port_free(port):
            break
        time.sleep(0.5)
    else:
        return None, f"port {port} stays busy on this machine: the example cannot run as written"
    p = subprocess.Popen(["bash", "-c", "exec " + line], cwd=folder, env=env, text=True,
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         start_new_session=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    watchdog = threading.Timer(TIMEOUT, p.kill)
    watchdog.start()
    said = ""
    try:
        while "Ctrl-C stops" not in said:
            text = p.stdout.readline()
            if not text:
                break
            said += text
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        p.send_signal(signal.SIGINT)
        rest, _ = p.communicate(timeout=60)
    finally:
        watchdog.cancel()
    return p.returncode, said + rest


def test_every_example_runs_as_written_in_order_in_an_empty_folder(tmp_path):
    assert shutil.which("roost", path=BIN), f"no roost installed beside {sys.executable}"
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    env = dict(os.environ, PATH=BIN + os.pathsep + os.environ.get("PATH", ""), COLUMNS="100")
    failures = []
    for where, line in all_examples():
        serves = shlex.split(line, comments=True)[1:2] == ["serve"]
        status, said = (_serve if serves else _run)(line, tmp_path, env)
        # Ctrl-C ends a command with 130 (roost.cli.main); a command early in a pipe
        # (`roost export t.db | head -1`) fails with its message
        ended = status in ((0, 130) if serves else (0,))
        if not ended or "Traceback" in said or "Error:" in said:
            tail = "\n  ".join(said.strip().splitlines()[-6:])
            failures.append(f"[{where}] {line}\n  exit {status}:\n  {tail}")
    assert not failures, "examples that fail:\n" + "\n".join(failures)
