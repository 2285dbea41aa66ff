"""roost's connect4 in lockstep with OpenSpiel's connect_four (an implementation by other
people): legal moves, the end of the game and its returns over many seeded random games,
and the perft suite (tests/perft/connect4.jsonl) counted again through OpenSpiel."""
import json
import pathlib
import random

import pyspiel

from roost.core.connect4 import Connect4

OS_GAME = pyspiel.load_game("connect_four")


def test_random_games_in_lockstep_with_openspiel():
    ended = {"first": 0, "second": 0, "draw": 0}
    for seed in range(400):
        rnd = random.Random(seed)
        ours = Connect4.start()
        theirs = OS_GAME.new_initial_state()
        while True:
            assert ours.is_over == theirs.is_terminal(), (seed, ours.text())
            if ours.is_over:
                break
            assert sorted(ours.legal()) == theirs.legal_actions(), (seed, ours.text())
            assert ours.player == theirs.current_player()
            col = rnd.choice(ours.legal())
            ours.play_move(col)
            theirs.apply_action(col)
        returns = theirs.returns()
        assert [2 * r - 1 for r in ours.result()] == returns, (seed, ours.text())
        ended["draw" if returns[0] == 0 else "first" if returns[0] > 0 else "second"] += 1
    # the seeds reach every kind of ending (a draw needs a full board: rare at random)
    assert ended["first"] > 50 and ended["second"] > 50, ended


def test_a_drawn_full_board_in_lockstep():
    ours = Connect4.start()
    ours.random_playout(seed=1054)                 # fills the board without a line
    theirs = OS_GAME.new_initial_state()
    for ch in ours.text():
        theirs.apply_action(int(ch) - 1)
    assert theirs.is_terminal() and theirs.returns() == [0.0, 0.0]
    assert ours.result() == (0.5, 0.5)


def _perft(state, depth):
    if state.is_terminal():
        return 0
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    return sum(_perft(state.child(a), depth - 1) for a in actions)


def test_perft_suite_counts_again_with_openspiel():
    suite = pathlib.Path(__file__).parents[1] / "core" / "perft" / "connect4.jsonl"
    checked = 0
    for line in suite.read_text().splitlines():
        entry = json.loads(line)
        state = OS_GAME.new_initial_state()
        for ch in entry["position"].strip("-"):
            state.apply_action(int(ch) - 1)
        for depth, leaves in entry["perft"].items():
            if int(depth) <= 5:                    # deeper ones take OpenSpiel seconds each
                assert _perft(state, int(depth)) == leaves, (entry["position"], depth)
                checked += 1
    assert checked >= 20
