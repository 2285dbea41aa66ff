"""Proofs inside play (src/search/proofs.py, src/search/wdl.pyx): ``auto`` on a two-player
game of perfect information plays what a bounded win/draw/loss proof proves, and never a
move that proof showed to lose while another is left.  Checked against positions solved by
an independent perfect solver (src/core/data/connect4/): a proof is never contradicted by
the deeper solve."""
import threading
import time

import pytest

from roost.core.calibration import solved_connect4
from roost.core.games import get_game
from roost.search.engines import parse_engine
from roost.search.proofs import Prover, keep_clear_of, provable
from roost.search.result import MoveStat, SearchResult
from roost.search.wdl import WindowTests

GAME = get_game("connect4")
# eight stones, drawn, its one drawing move (3) far from the main search's: a draw test
# takes about 16 M nodes, most of a second
HARD_DRAW = "16351371"


def sign(x):
    return (x > 0) - (x < 0)


def test_auto_plays_what_it_proves_and_every_proof_holds():
    engine = parse_engine("auto:nodes=20000")
    proven = 0
    for row in solved_connect4("end")[:40]:
        state = GAME.parse(row["moves"])
        r = engine.choose(state, seed=1)
        if not r.proven:
            continue
        proven += 1
        truth = sign(row["score"])
        assert {"win": 1, "draw": 0, "loss": -1}[r.proven] == truth, (row["moves"], r.proven)
        # the move keeps the result: its own score is the position's
        assert sign(row["move_scores"][r.move]) == truth, (row["moves"], r.move_name)
        # a win or a draw the proof settles is played by it; a result the main search's own
        # solver proved is not proved again
        assert not r.engine.endswith("(proof)") or truth >= 0
        assert "proof" not in r.info or r.engine.endswith("(proof)") or truth < 0
    assert proven >= 35


def test_moves_an_unfinished_proof_shows_to_lose_do_lose():
    prover = Prover()
    shown = 0
    for row in solved_connect4("end")[:150]:
        state = GAME.parse(row["moves"])
        proof = prover.prove(state, nodes=40)          # mostly too few to finish
        if proof.value:
            assert {"win": 1, "draw": 0, "loss": -1}[proof.value] == sign(row["score"]), row["moves"]
        for move in proof.losing:
            assert row["move_scores"][move] < 0, (row["moves"], move)
            shown += 1
    assert shown >= 20


def test_a_move_shown_to_lose_is_replaced_by_the_best_other():
    stats = [MoveStat(0, "1", visits=50), MoveStat(1, "2", visits=30), MoveStat(2, "3", visits=20)]
    result = SearchResult(engine="mcts", move=0, move_name="1", player=0, value=0.5, pv=["1", "2"],
                          stats=stats)
    keep_clear_of(result, frozenset({0, 1}))
    assert (result.move, result.move_name, result.pv) == (2, "3", ["3"]) and "proof" in result.info
    keep_clear_of(result, frozenset({0, 1, 2}))        # every move loses: nothing to prefer
    assert result.move == 2


def test_proofs_are_tried_on_two_player_games_of_perfect_information_only():
    assert provable(GAME.parse("44"))
    assert not provable(get_game("ducks").start())             # no bound on its length
    assert not provable(get_game("cubirds").start())          # hidden cards
    assert not provable(get_game("wingspan").start(players=2))


def test_the_proof_takes_its_share_and_the_chosen_engine_the_rest(monkeypatch):
    # a clock's allotment is shared: the proof first, then the engine auto chose has what it
    # left, never more than the allotment
    from roost.search import auto
    from roost.search.limit import Limit
    state = GAME.parse("44")
    e = parse_engine("auto:book=none")
    inner = e.engine_for(state)
    seen = []
    real = inner.choose

    def choose(state, limit=None, **kw):
        seen.append(inner.spec.within(limit, state)["time"])
        return real(state, limit, **kw)
    monkeypatch.setattr(inner, "choose", choose)
    clock = Limit(clock=1.0)
    allotted = e.spec.within(clock, state)["time"]             # the time manager's share
    assert 0 < allotted < 1.0
    e.choose(state, Limit(time=0.05), seed=1)
    e.choose(state, clock, seed=1)
    low = 1 - auto.PROOF_SHARE - 0.3
    assert len(seen) == 2
    assert low * 0.05 <= seen[0] <= 0.05 and low * allotted <= seen[1] <= allotted


@pytest.mark.parametrize("name,count", [("end", 60), ("middle", 40), ("begin", 8)])
def test_window_tests_agree_with_the_deeper_solve(name, count):
    # "a draw or better?" and "a win?" to the end of the game: the answers are the
    # reference's, the move a test names reaches its threshold, a move shown below loses
    tests = WindowTests(16)
    for row in solved_connect4(name)[:count]:
        state = GAME.parse(row["moves"])
        truth = sign(row["score"])
        draw, move, below = tests.test(state, "draw")
        assert draw == (truth >= 0), row["moves"]
        assert not tests.wins or truth > 0, row["moves"]          # a draw test that shows a win
        win, winning, below_win = tests.test(state, "win", first=move)
        assert win == (truth > 0), row["moves"]
        if "move_scores" in row:
            if draw:
                assert row["move_scores"][move] >= 0, (row["moves"], move)
            if win:
                assert row["move_scores"][winning] > 0, (row["moves"], winning)
            for m, result in {**below, **below_win}.items():
                assert row["move_scores"][m] < 0 if result == "loss" else row["move_scores"][m] <= 0
        else:
            # the child's value by the same solver as the reference's parent value
            for m in [move] if draw else []:
                child = state.copy()
                child.play_move(m)
                assert child.is_over or tests.test(child, "win")[0] is False, (row["moves"], m)


def test_a_test_of_some_moves_only_and_bad_requests():
    row = next(r for r in solved_connect4("end") if r["score"] == 0)
    state = GAME.parse(row["moves"])
    tests = WindowTests(1)
    for m in state.legal():
        kept, move, below = tests.test(state, "draw", moves=[m])
        assert kept == (row["move_scores"][m] >= 0) and (move == m if kept else m in below)
    with pytest.raises(ValueError, match="draw or a win"):
        tests.test(state, "loss")
    with pytest.raises(ValueError, match="legal moves"):
        tests.test(state, "draw", moves=[99])
    with pytest.raises(ValueError, match="bounds its length"):
        tests.test(get_game("ducks").start(), "draw")


def test_a_test_stopped_by_its_limit_says_so():
    state = GAME.parse(solved_connect4("begin")[0]["moves"])
    assert WindowTests(16).test(state, "draw", nodes=1000)[0] is None
    assert Prover().prove(state, nodes=1000).value == ""


@pytest.mark.parametrize("value", [0, 1])
def test_auto_keeps_reference_draws_and_wins_for_two_moves(value):
    # node-limited and seeded, so the games repeat: after each of auto's moves the solver's
    # value of the position (for auto) is still the start's, and its best reply follows
    solver = parse_engine("ab:tt=16")
    rows = [r for r in solved_connect4("middle") if sign(r["score"]) == value][:6]
    for row in rows:
        state = GAME.parse(row["moves"])
        side = state.player
        auto = parse_engine("auto:nodes=100000,book=none")
        for _ in range(2):
            state.play_move(auto.choose(state, seed=1).move)
            if state.is_over:
                assert state.result()[side] == (1.0 if value else 0.5), row["moves"]
                break
            reply = solver.choose(state, seed=0, solve=True)
            assert {"win": -1, "draw": 0, "loss": 1}[reply.proven] == value, row["moves"]
            state.play_move(reply.move)
            if state.is_over:
                break


def test_the_main_search_s_losing_move_is_never_played_in_a_drawn_position(monkeypatch):
    # the main search picks a losing move: the proof, which tests that move first, shows
    # it loses and plays one that keeps the draw
    rows = [r for r in solved_connect4("end")[:300] if r["score"] == 0
            and any(v is not None and v < 0 for v in r["move_scores"])][:8]
    assert len(rows) == 8
    for row in rows:
        state = GAME.parse(row["moves"])
        scores = row["move_scores"]
        bad = next(m for m in state.legal() if scores[m] < 0)
        e = parse_engine("auto:nodes=20000,book=none")
        inner = e.engine_for(state)
        monkeypatch.setattr(inner, "choose", lambda state, limit=None, **kw: SearchResult(
            engine="mcts", move=bad, move_name=state.move_name(bad), player=state.player, value=0.6,
            stats=[MoveStat(m, state.move_name(m), visits=1) for m in state.legal()]))
        r = e.choose(state, seed=1)
        assert r.move != bad and scores[r.move] >= 0, row["moves"]


def test_the_proof_tests_the_main_search_s_move_first():
    # in a won position with several winning moves, the proof keeps the one it was given
    # first; given a losing one, it shows it loses and names another
    row = next(r for r in solved_connect4("end") if r["score"] > 0
               and sum(v is not None and v > 0 for v in r["move_scores"]) >= 2
               and any(v is not None and v < 0 for v in r["move_scores"]))
    state = GAME.parse(row["moves"])
    scores = row["move_scores"]
    for m in state.legal():
        proof = Prover().prove(state, first=m)
        assert proof.value == "win"
        assert proof.move == m if scores[m] > 0 else scores[proof.move] > 0
        assert (m in proof.losing) == (scores[m] < 0)


def test_an_unfinished_proof_s_move_replaces_the_search_s_losing_one():
    from roost.search.proofs import Proof, keep_proven
    state = GAME.parse("4455")
    result = SearchResult(engine="mcts", move=0, move_name="1", player=0, value=0.5, pv=["1"])
    keep_proven(result, state, Proof(at_least="draw", move=2, losing=frozenset({0})))
    assert (result.move, result.move_name, result.pv) == (2, "3", ["3"]) and "loses" in result.info["proof"]
    keep_proven(result, state, Proof(at_least="draw", move=2))           # the same move: kept
    assert result.move == 2 and not result.proven
    keep_proven(result, state, Proof(value="loss"))
    assert result.move == 2 and result.proven == "loss" and result.value == 0.0
    # a proof beside the search that never reached the search's move: the proven draw is
    # played, and the reason says the search's move was not shown to lose
    result = SearchResult(engine="mcts", move=2, move_name="3", player=0, value=0.5, pv=["3"])
    keep_proven(result, state, Proof(at_least="draw", move=3))
    assert result.move == 3 and result.info["proof"] == "3 not proven to keep a draw: 4 instead"


def _proof_threads():
    return [t for t in threading.enumerate() if t.name == "roost-proof"]


def test_with_threads_the_proof_runs_beside_the_main_search_for_the_whole_move(monkeypatch):
    # threads=2: the main search has the whole move (not what the proof leaves) while the
    # proof runs on its own thread, and the proof plays what it settles; no thread is left
    row = next(r for r in solved_connect4("middle") if r["score"] == 0)
    state = GAME.parse(row["moves"])
    e = parse_engine("auto:time=0.5,threads=2,book=none")
    inner = e.engine_for(state)
    assert inner.spec["threads"] == 1              # one thread each
    seen = []
    real = inner.choose

    def choose(state, limit=None, **kw):
        seen.append((limit.time, len(_proof_threads())))
        return real(state, limit, **kw)
    monkeypatch.setattr(inner, "choose", choose)
    r = e.choose(state, seed=1)
    assert seen == [(0.5, 1)]
    assert r.proven == "draw" and r.engine.endswith("(proof)")
    child = state.copy()
    child.play_move(r.move)
    assert WindowTests(16).test(child, "win")[0] is False       # the reply cannot win
    assert not _proof_threads()


def test_auto_s_threads_go_to_its_engine_less_one_where_a_proof_runs():
    assert parse_engine("auto:threads=3").engine_for(GAME.start()).spec["threads"] == 2
    cubirds = get_game("cubirds").start(players=2, seed=1)           # hidden cards: no proof
    assert parse_engine("auto:threads=3").engine_for(cubirds).spec["threads"] == 3
    assert parse_engine("auto").engine_for(GAME.start()).spec["threads"] == 1


def test_a_proof_beside_the_search_stops_when_the_search_is_interrupted(monkeypatch):
    # Ctrl-C (or the protocol's stop) reaches the main search only: auto stops the proof
    # at once, and the interruption goes on to the caller with the search's move
    from roost.search.alphabeta import SearchInterrupted
    state = GAME.parse(HARD_DRAW)
    e = parse_engine("auto:time=30,threads=2,book=none")
    inner = e.engine_for(state)
    partial = SearchResult(engine="mcts", move=2, move_name="3", player=state.player, value=0.5)

    def interrupted(state, limit=None, **kw):
        time.sleep(0.2)
        assert len(_proof_threads()) == 1
        raise SearchInterrupted(partial)
    monkeypatch.setattr(inner, "choose", interrupted)
    t0 = time.monotonic()
    with pytest.raises(SearchInterrupted) as caught:
        e.choose(state, seed=1)
    assert caught.value.partial is partial
    assert time.monotonic() - t0 < 5 and not _proof_threads()


def test_ctrl_c_during_a_proof_after_the_search_plays_the_search_s_move(monkeypatch):
    from roost.search.alphabeta import SearchInterrupted
    from roost.search import proofs
    state = GAME.parse(HARD_DRAW)
    e = parse_engine("auto:time=1,book=none")

    def interrupted(self, *args, **kw):
        raise KeyboardInterrupt
    monkeypatch.setattr(proofs.Prover, "prove", interrupted)
    with pytest.raises(SearchInterrupted) as caught:
        e.choose(state, seed=1)
    assert caught.value.partial.move in state.legal() and caught.value.partial.engine.startswith("auto")


def test_a_window_test_stopped_from_another_thread_ends_at_once_and_says_so():
    state = GAME.parse(HARD_DRAW)
    tests = WindowTests(16)
    answers = []
    t = threading.Thread(target=lambda: answers.append(tests.test(state, "draw")))
    t.start()
    time.sleep(0.05)
    t0 = time.monotonic()
    tests.stop()
    t.join(5)
    assert not t.is_alive() and time.monotonic() - t0 < 1
    assert answers[0][0] is None
    # the next tests stop at their first look too (every 256 nodes), until stop(False)
    assert tests.test(state, "draw", nodes=100000)[0] is None and tests.nodes <= 257
    tests.stop(False)
    assert tests.test(GAME.parse(solved_connect4("end")[0]["moves"]), "draw")[0] is not None


def test_a_node_budget_with_a_proof_beside_repeats_for_a_seed():
    for moves in ("4455", "44443", solved_connect4("middle")[3]["moves"]):
        played = {parse_engine("auto:nodes=20000,threads=2,book=none").choose(GAME.parse(moves), seed=3).move
                  for _ in range(3)}
        assert len(played) == 1, moves


def test_a_result_the_main_search_proved_stops_the_proof_beside_it_and_stands(monkeypatch):
    # MCTS's own solver proved a win: the proof beside it is stopped, and what it had (a
    # draw shown for another move) does not replace the proven move
    from roost.search.proofs import Proof
    state = GAME.parse("4455")
    e = parse_engine("auto:nodes=1000,threads=2,book=none")
    inner = e.engine_for(state)
    stopped = []

    class Beside:
        def stop(self):
            stopped.append(True)

        def result(self):
            return Proof(at_least="draw", move=0)
    monkeypatch.setattr(e._prover, "start", lambda *a, **kw: Beside())
    monkeypatch.setattr(inner, "choose", lambda state, limit=None, **kw: SearchResult(
        engine="mcts", move=2, move_name="3", player=state.player, value=1.0, proven="win"))
    r = e.choose(state, seed=1)
    assert (r.move, r.proven) == (2, "win") and "proof" not in r.info and stopped == [True]
