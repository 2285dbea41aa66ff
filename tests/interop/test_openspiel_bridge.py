"""The OpenSpiel bridge (roost.interop.openspiel): every roost game as an OpenSpiel game,
checked by OpenSpiel's own random-simulation tests and played by OpenSpiel's Python MCTS."""
import math

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts

from roost.core.games import registered_games
from roost.interop import openspiel as bridge


def _configs():
    # every game at every player count (Wingspan with 3 to 5 players: about 3.5 s of
    # processor time together)
    for info in registered_games():
        for n in range(info.min_players, info.max_players + 1):
            yield pytest.param(info, n, id=f"{info.name}-{n}p")


def test_every_roost_game_is_registered_with_openspiel():
    names = set(pyspiel.registered_names())
    for info in registered_games():
        assert f"roost_{info.name}" in names
        game = pyspiel.load_game(f"roost_{info.name}")
        assert game.num_players() == info.default_players
        assert game.get_type().long_name.startswith(info.title)


def test_players_and_seed_are_game_parameters():
    game = pyspiel.load_game("roost_cubirds(players=3)")
    assert game.num_players() == 3
    assert pyspiel.load_game("roost_leaves", {"players": 4}).num_players() == 4
    a = pyspiel.load_game("roost_wingspan", {"seed": 1}).new_initial_state()
    b = pyspiel.load_game("roost_wingspan", {"seed": 2}).new_initial_state()
    assert str(a) != str(b)                        # the deal comes from the seed
    with pytest.raises(Exception, match="2 to 5 players"):
        pyspiel.load_game("roost_cubirds", {"players": 6})


@pytest.mark.parametrize("info,players", list(_configs()))
def test_openspiel_random_simulation_checks(info, players):
    game = pyspiel.load_game(bridge.game_name(info), {"players": players})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("info", registered_games(), ids=lambda i: i.name)
def test_openspiel_python_mcts_plays_a_whole_game(info):
    game = pyspiel.load_game(bridge.game_name(info))
    rng = np.random.RandomState(5)
    bot = mcts.MCTSBot(game, 2.0, 3, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        if state.current_player() == 0:
            action = bot.step(state)
        else:
            action = int(rng.choice(state.legal_actions()))
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
        assert decisions <= game.max_game_length()
    returns = state.returns()
    assert len(returns) == game.num_players() and abs(sum(returns)) < 1e-9
    assert state.roost.is_over


def test_python_mcts_beats_random_at_connect4():
    # the returns' signs and the players' seats are what MCTS maximises: if either were
    # wrong it would lose to random play
    game = pyspiel.load_game("roost_connect4")
    wins = 0
    for seed in range(4):
        rng = np.random.RandomState(seed)
        bot = mcts.MCTSBot(game, 2.0, 60, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
        seat = seed % 2
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == seat:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        wins += state.returns()[seat] == 1.0
    assert wins == 4


def _tweeeet_chance_state():
    game = pyspiel.load_game("roost_tweeeet")
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    while not state.is_chance_node():
        state.apply_action(int(rng.choice(state.legal_actions())))
    return game, state


def test_a_large_chance_node_is_split_into_groups_with_exact_probabilities():
    game, state = _tweeeet_chance_state()
    roost_outcomes = dict(state.roost.chances())
    assert len(roost_outcomes) == 80640
    rng = np.random.RandomState(1)
    for trial in range(5):
        s = state.clone()
        prob = 1.0
        stages = 0
        while s.roost.text() == state.roost.text():      # until the row is laid
            outcomes = s.chance_outcomes()
            assert len(outcomes) <= bridge.DEFAULT_CHANCE_SPLIT
            assert math.isclose(sum(p for _, p in outcomes), 1.0)
            assert [a for a, _ in outcomes] == sorted(a for a, _ in outcomes)
            k = rng.randint(len(outcomes))
            action, p = outcomes[k]
            prob *= p
            s.apply_action(action)
            stages += 1
            outcome = action
        assert stages == 3                        # 80,640 outcomes, at most 256 a node
        assert math.isclose(prob, roost_outcomes[outcome])
        expected = state.roost.copy()
        expected.play_unchecked(outcome)
        assert s.roost.text() == expected.text()


def test_chance_split_is_a_parameter_and_small_nodes_stay_whole():
    game = pyspiel.load_game("roost_tweeeet", {"chance_split": 100000})
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    while not state.is_chance_node():
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert len(state.chance_outcomes()) == 80640
    cubirds = pyspiel.load_game("roost_cubirds").new_initial_state()
    while not cubirds.is_chance_node():           # a card drawn: at most 8 species
        cubirds.apply_action(int(rng.choice(cubirds.legal_actions())))
    assert cubirds.chance_outcomes() == sorted(cubirds.roost.chances())
    assert bridge.split_groups(80640, 256) == 1833 and bridge.split_groups(256, 256) == 0


def test_hidden_cards_stay_out_of_another_seats_observation():
    game = pyspiel.load_game("roost_cubirds", {"players": 3})
    state = game.new_initial_state()
    rng = np.random.RandomState(2)
    for _ in range(12):                            # a few turns after the deal
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    other_worlds = [game.state_from(state.roost.determinized(0, seed)) for seed in range(6)]
    # seat 0 cannot tell these worlds apart: its observation is the same in each ...
    assert {w.observation_string(0) for w in other_worlds} == {state.observation_string(0)}
    # ... while the other seats' hands differ between them
    assert len({w.observation_string(1) + w.observation_string(2) for w in other_worlds}) > 1
    # the draws another seat made show as '?' in seat 0's information state
    info = state.information_state_string(0)
    assert "chance: ?" in info and info.startswith("seat 0")
    assert info != state.information_state_string(1)


def test_perfect_information_strings_are_the_position_and_history():
    game = pyspiel.load_game("roost_connect4")
    state = game.new_initial_state()
    for a in (3, 3, 4):
        state.apply_action(a)
    assert state.observation_string(0) == "445"
    assert state.information_state_string(1) == "- | 3 3 4"
    assert str(state) == "445"


def test_serialization_round_trip_mid_game():
    for name in ("roost_ducks", "roost_cubirds", "roost_wingspan"):
        game = pyspiel.load_game(name)
        state = game.new_initial_state()
        rng = np.random.RandomState(3)
        for _ in range(30):
            if state.is_terminal():
                break
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=probs)))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        again = game.deserialize_state(state.serialize())
        assert str(again) == str(state) and again.history() == state.history()
        assert again.legal_actions() == state.legal_actions()


def test_an_illegal_action_is_refused_with_a_message():
    state = pyspiel.load_game("roost_connect4").new_initial_state()
    for _ in range(6):
        state.apply_action(0)
    with pytest.raises(Exception, match="illegal action 0"):
        state.apply_action(0)
