"""The searchers' native units and what each may cimport or import from search/
(docs/architecture.md, "The searchers"), checked on the sources: the table, the node store,
move ordering and the threads know nothing of the searches built on them."""
import pathlib
import re

import pytest

SEARCH = pathlib.Path(__file__).resolve().parents[2] / "src" / "search"

# unit -> the units of search/ it may use (everything may use core/; the reports build the
# value types of result.py, which imports nothing of search/)
MAY_USE = {
    "clock": set(),                       # time and Ctrl-C
    "threads": {"clock"},                 # atomics, locks, thread start, the pool and its drive
    "score": set(),                       # alpha-beta's score scale
    "tt": {"threads", "clock", "score"},  # the transposition table (a proof word packs a score)
    "ordering": {"score"},                # killers and history
    "negamax": {"score", "tt", "ordering", "threads", "clock"},     # one thread's alpha-beta
    "root_move": set(),                   # a report's root moves
    "alphabeta_report": {"score", "tt", "negamax", "root_move", "result"},  # what alpha-beta returns
    "alphabeta": {"score", "tt", "negamax", "alphabeta_report", "threads", "clock"},
    "wdl": {"score", "tt", "negamax", "threads", "clock"},           # win/draw/loss window tests
    "nodes": {"threads"},                 # MCTS's node store
    "playout": {"threads"},               # playout policies
    "enhancements": {"nodes", "playout", "threads"},                 # RAVE, implicit minimax, bias
    "mcts_report": {"nodes", "root_move", "result"},                 # what MCTS returns
    # (alphabeta: SearchInterrupted, the interruption every search raises)
    "mcts": {"nodes", "playout", "enhancements", "mcts_report", "threads", "clock", "alphabeta"},
}

_USE = re.compile(r"roost\.search\.(\w+)")
NATIVE = sorted(p for p in SEARCH.iterdir() if p.suffix in (".pyx", ".pxd"))


def used_units(path):
    return set(_USE.findall(path.read_text())) - {path.stem}


def test_every_native_unit_of_search_is_mapped():
    assert {p.stem for p in NATIVE} == set(MAY_USE)


@pytest.mark.parametrize("path", NATIVE, ids=lambda p: p.name)
def test_a_unit_uses_only_the_units_below_it(path):
    wrong = used_units(path) - MAY_USE[path.stem]
    assert not wrong, f"{path.name} uses {sorted(wrong)}, beyond {sorted(MAY_USE[path.stem])}"


def test_the_check_sees_cimports_and_imports(tmp_path):
    probe = tmp_path / "nodes.pyx"
    probe.write_text("from roost.search.mcts cimport MCTS\n"
                     "def f():\n    from roost.search.alphabeta import SearchInterrupted\n")
    assert used_units(probe) == {"mcts", "alphabeta"}
