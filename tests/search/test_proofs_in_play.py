"""Proofs inside play (src/search/proofs.py, src/search/wdl.pyx): ``auto`` on a two-player
game of perfect information plays what a bounded win/draw/loss proof proves, and never a
move that proof showed to lose while another is left.  Checked against positions solved by
an independent perfect solver (src/core/data/connect4/): a proof is never contradicted by
the deeper solve."""
import pytest

from roost.core.calibration import solved_connect4
from roost.core.games import get_game
from roost.search.engines import parse_engine
from roost.search.proofs import Prover, candidates, keep_clear_of, provable
from roost.search.result import MoveStat, SearchResult
from roost.search.wdl import WindowTests

GAME = get_game("connect4")


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
        # a win or a draw is played by the proof; in a proven loss the main search plays
        assert r.engine.endswith("(proof)") if truth >= 0 else "proof" in r.info
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


def test_the_main_search_s_losing_move_gives_way_to_one_shown_to_keep_the_draw(monkeypatch):
    from roost.search.proofs import Proof
    # the main search picks a losing move the proof had no time to show; the tests of its
    # moves in the time it left pass it over for one shown to keep the draw
    row = next(r for r in solved_connect4("end")[:400]
               if r["score"] == 0 and sum(s is not None and s < 0 for s in r["move_scores"]) >= 1
               and len(GAME.parse(r["moves"]).legal()) >= 3)
    state = GAME.parse(row["moves"])
    scores = row["move_scores"]
    bad = next(m for m in state.legal() if scores[m] < 0)
    e = parse_engine("auto:nodes=100000,book=none")
    inner = e.engine_for(state)
    stats = [MoveStat(bad, state.move_name(bad), visits=100)] + [
        MoveStat(m, state.move_name(m), visits=10 - i) for i, m in enumerate(state.legal()) if m != bad]

    def choose(state, limit=None, **kw):
        return SearchResult(engine="mcts", move=bad, move_name=state.move_name(bad), player=state.player,
                            value=0.6, pv=[state.move_name(bad)], stats=list(stats))
    monkeypatch.setattr(inner, "choose", choose)
    monkeypatch.setattr(Prover, "prove", lambda self, state, seconds=0.0, nodes=0: Proof())   # nothing shown
    r = e.choose(state, seed=1)
    assert r.move != bad and scores[r.move] >= 0 and "loses (proven)" in r.info["proof"]


@pytest.mark.parametrize("choice", ["win", "loss"])
def test_with_a_draw_or_better_proven_the_main_search_s_move_is_played_when_shown_to_win(monkeypatch, choice):
    # a won root where the proof showed a drawing move keeps a draw or better but had no
    # time to settle the win: the main search's winning move is played (a test shows it
    # wins), its losing move gives way to the proof's drawing one
    from roost.search.proofs import Proof
    row = next(r for r in solved_connect4("end") if r["score"] > 0
               and {0, 1, -1} <= {sign(v) for v in r["move_scores"] if v is not None})
    state = GAME.parse(row["moves"])
    scores = row["move_scores"]
    drawing = next(m for m in state.legal() if scores[m] == 0)
    picked = next(m for m in state.legal() if sign(scores[m]) == (1 if choice == "win" else -1))
    e = parse_engine("auto:nodes=100000,book=none")
    inner = e.engine_for(state)
    monkeypatch.setattr(inner, "choose", lambda state, limit=None, **kw: SearchResult(
        engine="mcts", move=picked, move_name=state.move_name(picked), player=state.player, value=0.6,
        stats=[MoveStat(m, state.move_name(m), visits=1) for m in state.legal()]))
    monkeypatch.setattr(Prover, "prove", lambda self, state, seconds=0.0, nodes=0: Proof(
        at_least="draw", move=drawing))
    r = e.choose(state, seed=1)
    assert r.move == (picked if choice == "win" else drawing)


def test_candidates_are_the_main_search_s_choice_then_by_visits_less_the_losing():
    stats = [MoveStat(0, "1", visits=5), MoveStat(1, "2", visits=30), MoveStat(2, "3", visits=20)]
    result = SearchResult(engine="mcts", move=0, move_name="1", player=0, value=0.5, stats=stats)
    assert candidates(result, set()) == [0, 1, 2]
    assert candidates(result, {1}) == [0, 2]
