"""Alpha-beta with threads (Lazy SMP): helper threads share the transposition
table with the main searcher, whose result is reported.  Threaded searches return legal
moves on every game, stop at their limits, and agree with one thread wherever Lazy SMP must:
proven results, and exact values of trees searched to their ends.  (Time limits and Ctrl-C
with threads are covered with the other engines in test_search_limits.py and
test_interrupt.py.)"""

import pytest
from click.testing import CliRunner

from roost.cli.main import cli
from roost.core.errors import EngineSpecError
from roost.core.calibration import solved_connect4
from roost.core.games import get_game
from roost.search.alphabeta import AlphaBeta
from roost.search.engines import parse_engine

from tests.search.positions import decisions, every_game_positions, random_game  # noqa: E402

DUCKS_SOLVE = "5/2bb2/*wbb3/1bbbwb2/2bwbw3/1wwwwb2/1wbww2/3w2/5 b 39"


@pytest.mark.parametrize("label,state", every_game_positions(), ids=lambda x: x if isinstance(x, str) else "")
def test_threaded_search_returns_a_legal_move_on_every_game(label, state):
    paranoid = ",paranoid=1" if state.players > 2 else ""
    r = parse_engine(f"ab:depth=2,threads=3{paranoid}").choose(state, seed=1)
    assert r.move in state.legal()
    assert r.depth == 2 or r.proven or len(state.legal()) == 1
    assert r.info.get("threads") == 3


def test_a_node_limit_counts_every_thread():
    state = get_game("ducks").parse(get_game("ducks").bench_position)
    one = parse_engine("ab:nodes=50000").choose(state, seed=1)
    two = parse_engine("ab:nodes=50000,threads=2").choose(state, seed=1)
    assert one.nodes == 50000
    # each thread takes its nodes from one shared count: everyone's together, exactly
    assert two.nodes == 50000


def test_a_threaded_node_limit_is_reached_not_stopped_short_of():
    # everyone's count reaches the limit before the search stops, and never passes it,
    # however the threads' nodes interleave: several limits, run after run
    state = get_game("ducks").parse(get_game("ducks").bench_position)
    for limit in range(20000, 20000 + 12 * 37, 37):
        r = parse_engine(f"ab:nodes={limit},threads=2").choose(state, seed=1)
        assert r.nodes == limit, (limit, r.nodes)


def test_a_depth_limit_holds_with_threads():
    state = get_game("ducks").parse(get_game("ducks").bench_position)
    r = parse_engine("ab:depth=5,threads=2").choose(state, seed=1)
    assert r.depth == 5


def test_the_reported_line_is_one_iterations_line():
    """With threads the result may be a helper's deeper iteration (whoever completes the
    last depth first ends the search): move, line and root moves must then all be that
    iteration's.  The move heads the line and is the one root move with an exact value
    at the top of the list, whichever thread's search is reported."""
    checked = 0
    for name, depths in (("ducks", (3, 4, 5, 6)), ("connect4", (4, 5, 6, 7)), ("tweeeet", (3, 4))):
        info = get_game(name)
        for seed in range(3):
            states = decisions(random_game(info, 2, seed))
            for state in states[2:len(states) // 2:4][:4]:
                for depth in depths:
                    r = parse_engine(f"ab:depth={depth},threads=2").choose(state, seed=1)
                    assert r.move in state.legal()
                    assert r.depth == depth or r.proven or len(state.legal()) == 1
                    assert r.pv and r.pv[0] == r.move_name, state.text()
                    assert r.stats and r.stats[0].name == r.move_name and r.stats[0].bound == "", state.text()
                    checked += 1
    assert checked >= 80


def _solve(state, threads, tt=16):
    r = parse_engine(f"ab:tt={tt},threads={threads}").choose(state, seed=0, solve=True)
    assert r.proven, state.text()
    return r.proven, r.score


def test_threaded_solve_proves_what_one_thread_proves():
    ducks = get_game("ducks").parse(DUCKS_SOLVE)
    assert _solve(ducks, 2) == _solve(ducks, 1)
    game = get_game("connect4")
    rows = solved_connect4("middle")
    rows = [row for row in rows if len(row["moves"]) >= 22][:12]
    assert len(rows) == 12
    for row in rows:
        state = game.parse(row["moves"])
        proven, score = _solve(state, 3)
        plies = 0 if proven == "draw" else int(score.split()[-1])
        assert state.solver_score(proven, plies) == row["score"], row["moves"]
        assert (proven, score) == _solve(state, 1), row["moves"]


def test_exact_values_of_exhausted_trees_agree():
    """A tree searched to its ends has one value whatever the threads left in the table."""
    checked = 0
    for name in ("ducks", "connect4"):
        info = get_game(name)
        for seed in range(4):
            states = decisions(random_game(info, 2, seed))
            for state in (states[-3], states[-5], states[-7]):
                one = AlphaBeta(tt_mb=4).search(state, max_depth=14, nodes=100000)
                if not one.exact:
                    continue
                for trial in range(3):
                    many = AlphaBeta(tt_mb=4, threads=4).search(state, max_depth=14, nodes=1000000)
                    assert many.exact and many.score == one.score, state.text()
                checked += 1
    assert checked >= 12


def test_the_table_is_shared_safely_under_four_threads():
    """Many threads writing one table at once: every value read back is one some thread
    stored for that very position (a torn entry would show up as a wrong proof)."""
    state = get_game("connect4").parse("4453")
    ab = AlphaBeta(tt_mb=1, threads=4)       # a small table: the threads collide all the time
    r1 = ab.search(get_game("connect4").parse("44536621"), max_depth=10000, solve=True)
    r2 = AlphaBeta(tt_mb=1).search(get_game("connect4").parse("44536621"), max_depth=10000, solve=True)
    assert r1.exact and r1.score == r2.score
    assert ab.search(state, max_depth=6).move in state.legal()


@pytest.mark.parametrize("spec,fault", [("ab:threads=0", "at least 1"), ("ab:threads=1000", "at most 256"),
                                        ("ab:threads=two", "an integer")])
def test_bad_thread_counts_are_refused(spec, fault):
    with pytest.raises(EngineSpecError, match=fault):
        parse_engine(spec)


@pytest.mark.parametrize("value", ["-1", "0", "1000", "x"])
def test_solve_refuses_a_bad_thread_count_in_one_line(value):
    r = CliRunner().invoke(cli, ["solve", "ducks", DUCKS_SOLVE, "--threads", value])
    assert r.exit_code == 2 and "--threads" in r.output and "Traceback" not in r.output


def test_solve_with_threads_at_the_command_line():
    r = CliRunner().invoke(cli, ["solve", "ducks", DUCKS_SOLVE, "--threads", "2"])
    assert r.exit_code == 0, r.output
    one = CliRunner().invoke(cli, ["solve", "ducks", DUCKS_SOLVE])
    assert r.output.splitlines()[-2].split(";")[0] == one.output.splitlines()[-2].split(";")[0]


def test_the_table_grows_with_the_search_up_to_its_size():
    state = get_game("ducks").parse(get_game("ducks").bench_position)
    ab = AlphaBeta(tt_mb=512)
    first = ab.tt_in_use
    ab.search(state, max_depth=2)
    assert ab.tt_in_use == first <= 2 * 1024 * 1024        # a short search stays small
    ab.search(state, max_depth=6)
    assert first < ab.tt_in_use <= ab.tt_bytes
    small = AlphaBeta(tt_mb=2)
    small.search(state, max_depth=6)
    assert small.tt_in_use == small.tt_bytes              # never past tt=
    ab.clear()
    assert ab.tt_in_use == first


def test_a_cleared_table_searches_as_a_new_one():
    state = get_game("ducks").parse(get_game("ducks").bench_position)
    used = AlphaBeta(tt_mb=64)
    used.search(state, max_depth=6)
    used.clear()
    assert used.search(state, max_depth=5).nodes == AlphaBeta(tt_mb=64).search(state, max_depth=5).nodes


def test_a_reused_searcher_counts_only_this_searchs_nodes_while_it_runs():
    # the progress counts add the helpers' published counts: those of the previous search
    # must not leak into the next one (each count shown is at most the search's final count)
    ducks = get_game("ducks")
    ab = AlphaBeta(tt_mb=8, threads=2)
    big = ab.search(ducks.parse("bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0"), max_depth=5)
    shown = []
    small = ab.search(ducks.parse(DUCKS_SOLVE), max_depth=2,
                      callback=lambda depth, score, pv, nodes, seconds: shown.append(nodes))
    assert big.nodes > 10 * small.nodes
    assert shown and max(shown) <= small.nodes, (shown, small.nodes)


def test_a_search_cut_short_in_its_first_iteration_still_reports_a_legal_line():
    # a node limit of 2 (the root and the first child) stops the first iteration before any
    # root move has a value: the progress report and the result still name a legal move
    # (the first one), never a hole
    ducks = get_game("ducks")
    state = ducks.parse(DUCKS_SOLVE)
    lines = []
    r = AlphaBeta(tt_mb=1).search(state, max_depth=3, nodes=2,
                                  callback=lambda depth, score, pv, nodes, seconds: lines.append(pv))
    assert lines and all(pv and pv[0] in state.legal() for pv in lines), lines
    assert r.move in state.legal() and r.pv[0] == r.move


def test_a_cleared_table_searches_as_a_new_one_in_either_layout():
    # a solve's proof words and deepening's entries share the table's memory: after a clear
    # (once or twice) a search of either kind, the table's layout changing or not, finds
    # what a new searcher finds; a clear with no search since has nothing left to forget
    c4 = get_game("connect4")
    deep, proof = c4.parse("4455"), c4.parse(solved_connect4("middle")[0]["moves"])

    def fresh(state, solve):
        r = AlphaBeta(tt_mb=16).search(state, max_depth=10000 if solve else 7, solve=solve)
        return r.nodes, r.score, r.pv

    used = AlphaBeta(tt_mb=16)
    for state, solve, clears in ((deep, False, 0), (proof, True, 1), (proof, True, 1),
                                 (deep, False, 2), (deep, False, 1), (proof, True, 2)):
        for _ in range(clears):
            used.clear()
        r = used.search(state, max_depth=10000 if solve else 7, solve=solve)
        if clears:
            assert (r.nodes, r.score, r.pv) == fresh(state, solve)
