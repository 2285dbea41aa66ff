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
from roost.search.engines import parse_engine

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
                assert auto.resolve(game, players, seconds) == expected, (game, players, budget)
            if side != "below":                      # no budget counts as the default second
                assert auto.resolve(game, players) == f"{spec}{',' if settings else ':'}time=1"
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
    assert auto.resolve("ducks", 3, 0.5) == "mcts:time=0.5"
    assert auto.resolve("nogame", 2, 0.5) == "mcts:time=0.5"


def test_a_short_budget_plays_what_measured_strongest_there():
    # Feed the Ducks: alpha-beta below 0.1 s a move, MCTS from there (docs/strength.md)
    assert auto.resolve("ducks", 2, 0.05) == "ab:time=0.05"
    assert auto.resolve("ducks", 2, 0.0999) == "ab:time=0.0999"
    assert auto.resolve("ducks", 2, 0.1) == "mcts:c=0.2,discount=0.95,plies=16,time=0.1"
    assert auto.resolve("ducks", 2, 0.05, 300) == "ab:nodes=300,time=0.05"
    # no budget, or a node budget alone: the default second's choice
    assert auto.resolve("ducks", 2) == "mcts:c=0.2,discount=0.95,plies=16,time=1"
    assert auto.resolve("ducks", 2, nodes=500) == "mcts:c=0.2,discount=0.95,plies=16,iterations=500"
    # a game without a short-budget entry: one choice at every budget
    assert auto.resolve("tweeeet", 2, 0.01).startswith("ab:lmr=1,")


def test_auto_budgets_one_second_by_default_and_a_node_budget_alone():
    assert auto.resolve("leaves", 2) == "ab:paranoid=1,time=1"
    assert auto.resolve("leaves", 2, nodes=500) == "ab:paranoid=1,nodes=500"
    assert auto.resolve("wingspan", 2, 0.25, 300) == "ismcts:plies=40,iterations=300,time=0.25"
    assert auto.resolve("nogame", 2, 0, 70) == "mcts:iterations=70"
    e = parse_engine("auto")
    assert e.settings == {"time": 0.0, "nodes": 0} and e.spec == "auto"
    assert parse_engine("auto:time=0.25,nodes=0").settings == {"time": 0.25, "nodes": 0}
    for bad, says in (("auto:time=-1", "time must be at least 0"), ("auto:nodes=-1", "nodes must be at least 0")):
        with pytest.raises(EngineSpecError, match=says):
            parse_engine(bad)


def test_the_table_cannot_be_changed_by_accident():
    choice = auto.choice_for("ducks", 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        choice.kind = "mcts"
    assert {choice: 1}[auto.Choice(choice.kind, choice.settings, choice.why)] == 1   # hashable, by value


def test_auto_without_a_seed_plays_seed_0():
    state = get_game("wingspan").start(players=2, seed=3)
    e = parse_engine("auto:nodes=60")
    assert quiet(e.choose(state)) == quiet(e.choose(state, seed=0)) != quiet(e.choose(state, seed=1))


def test_a_new_game_forgets_what_the_last_one_taught():
    # alpha-beta's table carries over between searches; new_game clears it
    state = get_game("ducks").start(seed=5)
    e = parse_engine("auto:time=0.05,nodes=3000")     # alpha-beta (the short budget's), 3000 nodes
    e.new_game()                                  # nothing built yet: nothing to forget
    e.advance(state.legal()[0])
    first = quiet(e.choose(state, seed=1))
    assert quiet(e.choose(state, seed=1)) != first
    e.new_game()
    assert quiet(e.choose(state, seed=1)) == first


@pytest.mark.parametrize("first", ["roost.search.auto", "roost.search.engines"])
def test_either_module_can_be_imported_first(first):
    # auto builds on engines and engines lists auto: importing auto first once failed with a
    # circular ImportError (in a fresh process, as a script or a notebook would)
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
    # the arena lays a time manager's seconds over auto (choose_timed); the chosen engine must
    # search that long, not auto's own default second
    from roost.search.timeman import Clock
    state = get_game("ducks").start()
    e = parse_engine("auto")
    inner = e.engine_for(state)
    seen = []
    real = inner.choose

    def choose(state, **kw):
        seen.append((inner.settings["time"], inner.settings["nodes"]))
        return real(state, **kw)
    monkeypatch.setattr(inner, "choose", choose)
    with e.limited(seconds=0.05):
        e.choose(state, seed=1)
    e.choose_timed(state, seed=1, clock=Clock(39 * 0.02 + 0.05))       # 0.02 s for this move
    # (a proof takes its share first on a two-player game of perfect information: the
    # chosen engine has what it left, never more than the allotment)
    low = 1 - auto.PROOF_SHARE - 0.3
    assert low * 0.05 <= seen[0][0] <= 0.05 and seen[0][1] == 0
    assert low * 0.02 <= seen[1][0] <= 0.02 and seen[1][1] == 0
    assert inner.settings["time"] == 1.0                   # afterwards its own budget again


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
