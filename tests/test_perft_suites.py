"""Runs every perft suite in tests/perft/*.jsonl (one JSON object a line: game, position,
{depth: leaves}, source).  On a mismatch the failure message carries the divide, so the
faulty subtree can be found by hand, as with chess perft suites."""
import json
import pathlib

import pytest

from roost.core.games import get_game

SUITES = sorted((pathlib.Path(__file__).parent / "perft").glob("*.jsonl"))


def _cases():
    for path in SUITES:
        for lineno, line in enumerate(path.read_text().splitlines(), 1):
            if line.strip() and not line.startswith("#"):
                entry = json.loads(line)
                for depth, leaves in entry["perft"].items():
                    yield pytest.param(entry["game"], entry["position"], int(depth), leaves,
                                       id=f"{path.stem}:{lineno}:d{depth}")


@pytest.mark.parametrize("game,position,depth,expected", list(_cases()))
def test_perft(game, position, depth, expected):
    state = get_game(game).parse(position)
    got = state.perft(depth)
    if got != expected:
        divide = "\n".join(f"  {name}: {n}" for name, n in state.divide(depth))
        pytest.fail(f"perft({depth}) = {got}, expected {expected}\ndivide:\n{divide}")


def test_there_is_a_suite_for_every_game():
    from roost.core.games import all_games
    games_with_suites = {json.loads(l)["game"] for p in SUITES for l in p.read_text().splitlines()
                         if l.strip() and not l.startswith("#")}
    assert {g.name for g in all_games()} <= games_with_suites
