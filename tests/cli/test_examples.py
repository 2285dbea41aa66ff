"""Every example a user is shown runs as written: each `roost ...` line of the README's code
blocks and every line under "Examples:" in the --help of every command, in that order, in
one empty folder (beside a copy of examples/, as at the root of a clone), each through a
shell as a user types it (a command that fails says so on stderr, early in a pipe too), with the installed `roost` first on the PATH and nothing on
standard input (a command that waits for a person ends cleanly at the end of its input).
Examples build on the files that earlier ones made; none writes into the package."""
import os
import pathlib
import shlex
import shutil
import subprocess
import sys

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


def test_every_example_runs_as_written_in_order_in_an_empty_folder(tmp_path):
    assert shutil.which("roost", path=BIN), f"no roost installed beside {sys.executable}"
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    env = dict(os.environ, PATH=BIN + os.pathsep + os.environ.get("PATH", ""), COLUMNS="100")
    failures = []
    for where, line in all_examples():
        try:
            r = subprocess.run(["bash", "-c", line], cwd=tmp_path, env=env,
                               stdin=subprocess.DEVNULL, capture_output=True, text=True,
                               timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            failures.append(f"[{where}] {line}\n  did not end within {TIMEOUT} s")
            continue
        said = r.stdout + r.stderr
        # a command early in a pipe (`roost export t.db | head -1`) fails with its message
        if r.returncode != 0 or "Traceback" in said or "Error:" in r.stderr:
            tail = "\n  ".join(said.strip().splitlines()[-6:])
            failures.append(f"[{where}] {line}\n  exit {r.returncode}:\n  {tail}")
    assert not failures, "examples that fail:\n" + "\n".join(failures)
