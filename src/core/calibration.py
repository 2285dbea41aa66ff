"""Reference data from outside roost: Connect Four positions solved by a published perfect
solver (``data/connect4/README.md`` gives the source, the score convention and the fields).

The tests check roost's solver against the scores; ``benchmarks/`` and ``roost bench``
compare its speed with the reference solver's recorded times.

>>> rows = solved_connect4("middle")
>>> len(rows), sorted(rows[0])[:3]
(300, ['moves', 'score', 'solver_nodes'])
"""
import json
from importlib import resources

FILES = ("end", "middle", "begin")


def _data():
    return resources.files("roost.core").joinpath("data", "connect4")


def solved_connect4(name):
    """The positions of one file (``end``, ``middle`` or ``begin``), as dictionaries in file order."""
    if name not in FILES:
        raise ValueError(f"no solved Connect Four file {name!r}; the files are {', '.join(FILES)}")
    text = _data().joinpath(f"{name}.jsonl").read_text()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def reference_cpu_times():
    """The reference solver's processor time for every position, per file and table size."""
    return json.loads(_data().joinpath("reference_cpu_times.json").read_text())
