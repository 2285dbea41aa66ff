"""Proofs inside play (src/search/proofs.py): ``auto`` on a two-player game of perfect
information plays what a bounded solve proves, and never a move that solve showed to lose
while another is left.  Checked against positions solved by an independent perfect solver
(src/core/data/connect4/): a proof is never contradicted by the deeper solve."""
from roost.core.calibration import solved_connect4
from roost.core.games import get_game
from roost.search.engines import parse_engine
from roost.search.proofs import Prover, keep_clear_of, provable
from roost.search.result import MoveStat, SearchResult

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
        assert r.engine.endswith("(proof)")
    assert proven >= 35


def test_moves_an_unfinished_proof_shows_to_lose_do_lose():
    prover = Prover()
    shown = 0
    for row in solved_connect4("end")[:150]:
        state = GAME.parse(row["moves"])
        proof = prover.prove(state, nodes=40)          # mostly too few to finish
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
