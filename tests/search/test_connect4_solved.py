"""roost's solver against positions solved by an independent perfect solver (Pascal Pons'
Connect 4 solver; src/core/data/connect4/README.md gives the source and the score convention): the exact
score of every position of end.jsonl and middle.jsonl, of every move of end.jsonl, and of the
easier begin.jsonl positions."""

import pytest

from roost.core.calibration import solved_connect4
from roost.core.games import get_game
from roost.search.engines import parse_engine

_load = solved_connect4


@pytest.fixture(scope="module")
def solver():
    # one table for the whole file: entries are keyed by the whole board, so what one
    # proof stored is true in the next (as between the moves of a game)
    engine = parse_engine("ab:tt=64")

    def solve(state):
        r = engine.choose(state, solve=True)
        assert r.proven, f"{state.text()}: unproven"
        plies = 0 if r.proven == "draw" else int(r.score.split()[-1])
        return state.solver_score(r.proven, plies)
    return solve


def _move_score(state, col, solve):
    child = state.copy()
    child.play_unchecked(col)
    if child.is_over:      # the move wins at once (the data has no position a move draws)
        assert child.result()[state.player] == 1.0
        return state.solver_score("win", 1)
    return -solve(child)


def test_every_end_position_and_every_move_score(solver):
    game = get_game("connect4")
    rows = _load("end")
    assert len(rows) == 1000
    wrong = []
    for row in rows:
        state = game.parse(row["moves"])
        if solver(state) != row["score"]:
            wrong.append((row["moves"], "score", row["score"]))
        for col, expected in enumerate(row["move_scores"]):
            if expected is None:
                assert col not in state.legal()
                continue
            got = _move_score(state, col, solver)
            if got != expected:
                wrong.append((row["moves"], col + 1, expected, got))
    assert not wrong, wrong[:10]


def test_every_middle_position(solver):
    game = get_game("connect4")
    rows = _load("middle")
    assert len(rows) == 300
    wrong = [(row["moves"], row["score"], got) for row in rows
             if (got := solver(game.parse(row["moves"]))) != row["score"]]
    assert not wrong, wrong[:10]


# the begin positions the reference proves in at most a million nodes (12 of the 20, 8 to 13
# stones; roost searches about as many nodes): a second each at most, where all 20 take
# several; benchmarks/test_connect4_speed.py solves all of them
BEGIN_NODES_IN_SUITE = 1_000_000


def test_begin_positions(solver):
    game = get_game("connect4")
    rows = [row for row in _load("begin") if row["solver_nodes"] <= BEGIN_NODES_IN_SUITE]
    assert len(rows) == 12
    wrong = [(row["moves"], row["score"], got) for row in rows
             if (got := solver(game.parse(row["moves"]))) != row["score"]]
    assert not wrong, wrong[:10]


def test_a_solve_ended_by_deepening_reports_every_root_move():
    # near the end a solve's deepening often reaches every leaf; a solve without a progress
    # callback then reports the root statistics of its last iteration, kept aside while it
    # ran: every legal move, each with a score the independent solver's move scores allow
    # (an exact one: the same outcome; an upper bound: at least the outcome): never none,
    # and, from a reused searcher, never another position's.
    from roost.search.alphabeta import AlphaBeta
    game = get_game("connect4")
    searcher = AlphaBeta(tt_mb=8)

    def outcome(score):
        return 1 if score > 0.5 else -1 if score < -0.5 else 0
    by_deepening = exact = 0
    for row in _load("end")[:60]:
        state = game.parse(row["moves"])
        r = searcher.search(state, solve=True)
        assert r.exact, row["moves"]
        by_deepening += r.depth <= 8          # deepening's last depth in a solve
        assert sorted(m.move for m in r.root_moves) == sorted(state.legal()), row["moves"]
        for m in r.root_moves:
            move, score = m.move, m.score
            truth = outcome(row["move_scores"][move])
            if m.exact:
                assert outcome(score) == truth, (row["moves"], move, score)
                exact += 1
            else:
                assert truth <= outcome(score), (row["moves"], move, score)
    assert by_deepening >= 30 and exact >= 60


@pytest.mark.parametrize("how", ["solve", "time"])
def test_a_proven_draw_marks_its_drawn_moves_and_no_other(how):
    # each exact per-move value the analysis calls proven agrees with the independent
    # solver's score of that move: a draw 0, a win above 0, a loss below; the move played
    # at a proven draw is itself a proven draw
    game = get_game("connect4")
    # (a timed search with one legal move plays it at once, unproven: those are left out)
    rows = [row for row in _load("end")
            if row["score"] == 0 and sum(v is not None for v in row["move_scores"]) > 1][:40]
    assert len(rows) == 40
    marked = {"win": 0, "loss": 0, "draw": 0}
    for row in rows:
        state = game.parse(row["moves"])
        engine = parse_engine("ab:tt=8" if how == "solve" else "ab:tt=8,time=5")
        r = engine.choose(state, solve=how == "solve", seed=1)
        assert r.proven == "draw", row["moves"]
        verdicts = {st.move: st.proven for st in r.stats}
        assert verdicts[r.move] == "draw", (row["moves"], r.stats)
        for move, verdict in verdicts.items():
            if verdict:
                truth = row["move_scores"][move]
                assert (truth > 0, truth < 0, truth == 0) == (verdict == "win", verdict == "loss",
                                                               verdict == "draw"), (row["moves"], move)
                marked[verdict] += 1
    assert marked["draw"] >= 40


def test_a_solve_s_line_keeps_the_proven_result_at_every_ply():
    # the line a solve reports (its own, continued from the proof table's words, which keep
    # a move's place in the node's list, not the move) is a line of the game that keeps
    # the result: after any part of it the side to move has the result the solve gave it
    from roost.search.alphabeta import AlphaBeta
    game = get_game("connect4")

    def outcome(score):
        return 1 if score > 0.5 else -1 if score < -0.5 else 0
    rows = [row for row in _load("middle") if row["score"] != 0][:8]
    lines = 0
    for row in rows:
        state = game.parse(row["moves"])
        r = AlphaBeta(tt_mb=16).search(state, max_depth=10000, solve=True)
        lines += len(r.pv)
        child = state.copy()
        for i, move in enumerate(r.pv[:-1], 1):
            child.play_unchecked(move)
            again = AlphaBeta(tt_mb=16).search(child, max_depth=10000, solve=True)
            assert outcome(again.score) == (-1) ** i * outcome(r.score), (row["moves"], r.pv, i)
    assert lines > len(rows)          # some line goes on past its first move


def test_root_moves_that_lose_at_once_are_proven_losses_without_a_search():
    # a move the game's search_moves leaves out lets the opponent win on the next ply: in
    # a game won only on the winner's own moves that is a loss in 2 exactly, scored without
    # a search; where every move is such a loss the root is settled by the game alone (its
    # one node) with a line into the opponent's win
    from roost.search.alphabeta import AlphaBeta, score_text
    game = get_game("connect4")
    searcher = AlphaBeta(tt_mb=8)
    lost = settled = 0
    for row in _load("end")[:300]:
        state = game.parse(row["moves"])
        searcher.clear()
        r = searcher.search(state, max_depth=10000, solve=True)
        by_move = {m.move: m for m in r.root_moves}
        assert sorted(by_move) == sorted(state.legal()), row["moves"]
        at_once = state.solver_score("loss", 2)
        for move, truth in enumerate(row["move_scores"]):
            if truth == at_once:
                assert by_move[move].exact and score_text(by_move[move].score) == "loss in 2", \
                    (row["moves"], move, by_move[move])
                lost += 1
        if all(v in (None, at_once) for v in row["move_scores"]):
            assert r.nodes == 1 and r.exact and score_text(r.score) == "loss in 2", row["moves"]
            after = state.copy()
            after.play_unchecked(r.pv[0])
            after.play_unchecked(r.pv[1])
            assert after.is_over and after.result()[state.player] == 0.0, (row["moves"], r.pv)
            settled += 1
    assert lost > 300 and settled > 100, (lost, settled)


def test_a_win_now_is_proven_by_the_game_alone():
    from roost.search.alphabeta import AlphaBeta, score_text
    state = get_game("connect4").parse("121212")        # four in column 1 is one stone away
    r = AlphaBeta(tt_mb=8).search(state, max_depth=10000, solve=True)
    assert r.nodes == 1 and r.exact and score_text(r.score) == "win in 1" and r.move == 0
    assert [(m.move, m.exact, score_text(m.score)) for m in r.root_moves] == [(0, True, "win in 1")]
