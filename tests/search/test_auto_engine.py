"""The auto engine (src/search/auto.py) against docs/strength.md's table of what won the
matches, read row by row, and its engine interface: budgets, seeds and games."""
import dataclasses
import pathlib
import re
import subprocess
import sys

import pytest

from roost.core.errors import EngineSpecError
from roost.core.games import get_game
from roost.search import auto
from roost.search.engines import parse_engine, parse_spec

STRENGTH = pathlib.Path(__file__).resolve().parents[2] / "docs" / "strength.md"
# | `ducks` | 2 | below 0.1 s | `ab` | why |   and   | `cubirds` | 2 to 5 | any | `ab:paranoid=1` | why |
ROW = re.compile(r"\| `(\w+)` \| (\d+)(?: to (\d+))? \| (any|below [\d.]+ s|from [\d.]+ s) \| `([^`]+)` \|")


def quiet(result):
    """A result's report without the wall-clock fields."""
    d = result.as_dict()
    d.pop("seconds"), d.pop("speed")
    return d


def strength_table():
    """The rows of docs/strength.md's table "What `auto` plays": (game, player counts, budget,
    spec), the budget "any", "below S s" or "from S s"."""
    text = STRENGTH.read_text(encoding="utf-8")
    section = text.split("## What `auto` plays", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        m = ROW.match(line)
        if m:
            game, low, high, budget, spec = m.groups()
            rows.append((game, range(int(low), int(high or low) + 1), budget, spec))
    return rows


def test_auto_plays_what_docs_strength_md_names_for_each_game_and_player_count():
    rows = strength_table()
    assert len(rows) >= 10, f"docs/strength.md: the table of what auto plays was not found ({rows})"
    for game, counts, budget, spec in rows:
        kind, _, settings = spec.partition(":")
        side, _, rest = budget.partition(" ")
        edge = float(rest.split()[0]) if rest else 0.0
        times = {"any": (0.01, 0.5, 1, 30), "below": (edge / 2, edge * 0.999), "from": (edge, 1, 30)}[side]
        for players in counts:
            for seconds in times:
                expected = f"{kind}:{settings + ',' if settings else ''}time={seconds:g}"
                assert auto.resolve(game, players, seconds) == parse_spec(expected), (game, players, budget)
            if side != "below":                      # no budget counts as the default second
                assert auto.resolve(game, players) == parse_spec(f"{spec}{',' if settings else ':'}time=1")
    # and the table has a row for every game, player count and budget auto.py has
    documented = {(game, n, budget.split()[0]) for game, counts, budget, _ in rows for n in counts}
    measured = set()
    for game, players in auto.TABLE:
        info = get_game(game)
        for n in [players] if players else range(info.min_players, info.max_players + 1):
            measured |= {(game, n, "below"), (game, n, "from")} if (game, n) in auto.SHORT \
                else {(game, n, "any")}
    assert documented == measured
    # a game or a player count the table has no measurement for: plain MCTS
    assert str(auto.resolve("ducks", 3, 0.5)) == "mcts:time=0.5"
    assert str(auto.resolve("nogame", 2, 0.5)) == "mcts:time=0.5"


def test_a_short_budget_plays_what_measured_strongest_there():
    # Feed the Ducks: alpha-beta below 0.1 s a move, MCTS from there (docs/strength.md)
    assert auto.resolve("ducks", 2, 0.05) == parse_spec("ab:time=0.05")
    assert auto.resolve("ducks", 2, 0.0999) == parse_spec("ab:time=0.0999")
    assert auto.resolve("ducks", 2, 0.1) == parse_spec("mcts:c=0.2,discount=0.95,plies=16,time=0.1")
    assert auto.resolve("ducks", 2, 0.05, 300) == parse_spec("ab:nodes=300,time=0.05")
    # no budget, or a node budget alone: the default second's choice
    assert auto.resolve("ducks", 2) == parse_spec("mcts:c=0.2,discount=0.95,plies=16,time=1")
    assert auto.resolve("ducks", 2, nodes=500) == parse_spec("mcts:c=0.2,discount=0.95,plies=16,iterations=500")
    # a game without a short-budget entry: one choice at every budget
    assert auto.resolve("tweeeet", 2, 0.01) == parse_spec("ab:lmr=1,time=0.01")


def test_auto_budgets_one_second_by_default_and_a_node_budget_alone():
    assert auto.resolve("leaves", 2) == parse_spec("ab:paranoid=1,time=1")
    assert auto.resolve("leaves", 2, nodes=500) == parse_spec("ab:paranoid=1,nodes=500")
    assert auto.resolve("wingspan", 2, 0.25, 300) == parse_spec("ismcts:plies=40,iterations=300,time=0.25")
    assert auto.resolve("nogame", 2, 0, 70) == parse_spec("mcts:iterations=70")
    e = parse_engine("auto")
    assert e.settings == {"time": 0.0, "nodes": 0, "threads": 1, "book": "game"} and str(e.spec) == "auto"
    assert parse_engine("auto:time=0.25,nodes=0").settings == {"time": 0.25, "nodes": 0, "threads": 1,
                                                               "book": "game"}
    for bad, says in (("auto:time=-1", "time must be at least 0"), ("auto:nodes=-1", "nodes must be at least 0"),
                      ("auto:threads=0", "threads must be at least 1"),
                      ("auto:threads=257", "threads must be at most 256")):
        with pytest.raises(EngineSpecError, match=says):
            parse_engine(bad)


def test_the_table_cannot_be_changed_by_accident():
    choice = auto.choice_for("ducks", 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        choice.kind = "mcts"
    assert {choice: 1}[auto.Choice(choice.engine, choice.why)] == 1   # hashable, by value


def test_auto_without_a_seed_plays_seed_0():
    state = get_game("wingspan").start(players=2, seed=3)
    e = parse_engine("auto:nodes=60")
    assert quiet(e.choose(state)) == quiet(e.choose(state, seed=0)) != quiet(e.choose(state, seed=1))


def test_a_new_game_forgets_what_the_last_one_taught():
    # alpha-beta's table carries over between searches; new_game clears it.  The budget's
    # time picks alpha-beta (the short budget's engine) and its 3000 nodes end each search
    # in about a millisecond; on a loaded machine a search can still be descheduled past its
    # time, and one cut by the clock is another search: then the three are made again
    state = get_game("ducks").start(seed=5)
    for attempt in range(5):
        e = parse_engine("auto:time=0.09,nodes=3000")
        e.new_game()                              # nothing built yet: nothing to forget
        e.advance(state.legal()[0])
        results = [e.choose(state, seed=1), e.choose(state, seed=1)]
        e.new_game()
        results.append(e.choose(state, seed=1))
        if all(r.nodes == 3000 for r in results):
            break
    first, again, fresh = map(quiet, results)
    assert again != first and fresh == first


@pytest.mark.parametrize("first", ["roost.search.auto", "roost.search.engines"])
def test_either_module_can_be_imported_first(first):
    # the registry lists auto, which builds on the searchers' kinds, not on the registry:
    # either module imports first in a fresh process (as a script or a notebook would)
    code = f"import {first}; from roost.search.engines import ENGINES; print(list(ENGINES))"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["['random',", "'ab',", "'mcts',", "'ismcts',", "'pimc',", "'auto']"]


def test_auto_passes_the_moves_played_to_a_tree_search_that_keeps_its_tree():
    # Dice Race has no measurement: plain MCTS, whose tree is kept between moves (reuse=1)
    state = get_game("dice").start()
    e = parse_engine("auto:nodes=300")
    r = e.choose(state, seed=1)
    assert r.info["auto"] == "mcts:iterations=300" and sum(st.visits for st in r.stats) == 300
    state.play_move(r.move)
    e.advance(r.move)
    while state.is_chance:
        outcome = state.sample(2)
        state.play_move(outcome)
        e.advance(outcome)
    again = e.choose(state, seed=1)
    assert sum(st.visits for st in again.stats) > 300          # the kept subtree's visits too
    fresh = parse_engine("auto:nodes=300").choose(state, seed=1)
    assert sum(st.visits for st in fresh.stats) == 300


@pytest.mark.parametrize("players,kind", [(2, "ab"), (3, "mcts")])
def test_auto_analyses_for_another_seat_with_what_can_value_it(players, kind):
    # two players: alpha-beta's value for the mover tells the other seat's (one point shared);
    # from three on, paranoid alpha-beta values the mover only and auto takes MCTS instead
    state = get_game("leaves").start(players=players, seed=3)
    while state.is_chance:
        state.play_move(state.sample(1))
    seat = (state.player + 1) % players
    r = parse_engine("auto:nodes=200").choose(state, seed=1, observer=seat)
    assert r.info["auto"].startswith(kind + ":") and r.seat == seat
    if kind == "ab":
        assert r.seat_value == pytest.approx(1 - r.value)
    mine = parse_engine("auto:nodes=200").choose(state, seed=1)
    assert mine.info["auto"].startswith("ab:")               # the mover's own analysis: alpha-beta


def test_a_clocks_allotment_reaches_the_engine_auto_chose(monkeypatch):
    # the arena gives auto a clock; the time manager's seconds are laid over auto's own, and
    # the chosen engine must search that long, not auto's own default second
    from roost.search.limit import Limit
    state = get_game("ducks").start()
    e = parse_engine("auto")
    inner = e.engine_for(state)
    seen = []
    real = inner.choose

    def choose(state, limit=None, **kw):
        within = inner.spec.within(limit, state)
        seen.append((within["time"], within["nodes"]))
        return real(state, limit, **kw)
    monkeypatch.setattr(inner, "choose", choose)
    e.choose(state, Limit(time=0.05), seed=1)
    e.choose(state, Limit(clock=39 * 0.02 + 0.05), seed=1)       # 0.02 s for this move
    assert seen[0] == (0.05, 0) and seen[1][0] == pytest.approx(0.02) and seen[1][1] == 0
    assert inner.settings["time"] == 1.0                   # its own budget stays


def test_in_the_arena_auto_plays_as_the_engine_it_chose_seat_for_seat():
    # docs/strength.md ("Seats in an N-player gauntlet"): with 4 and 5 CuBirds players auto
    # scored below a roster copy of its own search in gauntlets.  Whatever seat auto takes, it must play exactly as that copy:
    # two CuBirds games played by the same engine objects (as a tournament worker keeps them,
    # new_game between), then again with auto and the copy swapped, make the same moves
    from roost.arena.match import play_game
    game = get_game("cubirds")

    def games(specs):
        engines = [parse_engine(s) for s in specs]
        return [play_game(game, engines, seed) for seed in (5, 6)]
    one = games(["auto:nodes=1500", "random", "ab:nodes=1500,paranoid=1", "mcts:iterations=30"])
    two = games(["ab:nodes=1500,paranoid=1", "random", "auto:nodes=1500", "mcts:iterations=30"])
    for a, b in zip(one, two):
        assert a.moves == b.moves and a.result == b.result
