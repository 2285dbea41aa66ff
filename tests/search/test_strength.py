"""The auto engine, the default engine of the commands, and the evaluation weights shipped
with the games (their strength is measured in matches: docs/strength.md)."""
import json
import math

import pytest
from click.testing import CliRunner

from roost.cli.main import cli
from roost.core.errors import EngineSpecError
from roost.core.games import get_game
from roost.core.weights import WeightsError, read_weights, weights_path
from roost.search import auto
from roost.arena import tuning
from roost.search.engines import parse_engine
from roost.search.limit import Limit

TUNED = ("ducks", "tweeeet", "connect4")
SHIPPED = ("ducks", "tweeeet", "connect4")          # fitted weights shipped in the package
NEAR_END = "63753446636447653725212476377231422111"    # Connect Four, 4 stones to go


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


# ------------------------------------------------------------------ auto

@pytest.mark.parametrize("game,players", [("ducks", 2), ("tweeeet", 2), ("connect4", 2), ("cubirds", 3),
                                          ("leaves", 4), ("wingspan", 1)])
def test_auto_resolves_to_a_spec_every_engine_parser_accepts(game, players):
    for seconds, nodes in ((0.5, 0), (0, 300), (0, 0)):
        spec = auto.resolve(game, players, seconds, nodes)
        engine = parse_engine(spec)
        if nodes:
            assert engine.settings[engine.budget["nodes"]] == nodes
        else:
            assert engine.settings["time"] == (seconds or auto.DEFAULT_SECONDS)


def test_auto_follows_its_table_and_falls_back_for_an_unmeasured_game():
    for (game, players), choice in auto.TABLE.items():
        assert auto.resolve(game, players or 3, 0.5).kind == choice.kind
    assert str(auto.resolve("dice", 2, 0.25)) == auto.FALLBACK.kind + ":time=0.25"
    for (game, players), short in auto.SHORT.items():
        assert auto.resolve(game, players, short.below / 2).kind == short.choice.kind


def test_auto_cuts_wingspan_playouts_against_others_and_plays_them_out_alone():
    # docs/strength.md: against others the evaluation after 20 playout plies a player won
    # the matches; alone the playout's final score is the utility, so playouts run to the end
    for players in (2, 3, 4, 5):
        engine = parse_engine(auto.resolve("wingspan", players, 0.05))
        assert (engine.kind, engine.settings["plies"]) == ("ismcts", 20 * players)
    solo = parse_engine(auto.resolve("wingspan", 1, 0.05))
    assert solo.kind == "ismcts" and solo.settings["plies"] == parse_engine("ismcts").settings["plies"]


def test_auto_plays_the_resolved_engine_and_says_which():
    state = get_game("cubirds").start(players=3, seed=2)
    r = parse_engine("auto:nodes=200").choose(state, seed=4)
    assert r.move in state.legal()
    assert r.info["auto"] == str(auto.resolve("cubirds", 3, 0, 200))
    assert r.engine.startswith("auto:nodes=200 (")


def test_auto_is_deterministic_for_a_seed_with_a_node_budget():
    state = get_game("ducks").parse("bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0")
    a, b = (parse_engine("auto:nodes=3000").choose(state, seed=9) for _ in range(2))
    assert (a.move, a.value, a.nodes) == (b.move, b.value, b.nodes)


def test_auto_passes_a_move_budget_down_to_the_engine_it_chose():
    # a game whose auto is an MCTS searcher: an iteration budget is kept exactly
    state = get_game("wingspan").start(players=2, seed=1)
    assert auto.choice_for("wingspan", 2).kind in ("mcts", "ismcts", "pimc")
    engine = parse_engine("auto:nodes=400")
    r = engine.choose(state, Limit(nodes=40), seed=1)
    direct = parse_engine(auto.resolve("wingspan", 2, 0, 40)).choose(state, seed=1)
    assert (r.move, r.iterations) == (direct.move, direct.iterations)
    assert engine.choose(state, seed=1).iterations == 10 * r.iterations


def test_auto_rebuilds_its_engine_for_another_game_or_player_count():
    engine = parse_engine("auto:nodes=100")
    engine.choose(get_game("cubirds").start(players=2, seed=1), seed=1)
    first = engine._inner
    engine.choose(get_game("connect4").cls.parse("4"), seed=1)     # a position out of the book
    assert engine._inner is not first and engine._inner.kind == auto.choice_for("connect4", 2).kind


def test_auto_spec_errors_name_the_fault():
    with pytest.raises(EngineSpecError, match="engine 'auto': time must be a number"):
        parse_engine("auto:time=soon")
    with pytest.raises(EngineSpecError, match="engine 'auto' has no parameter 'depth'"):
        parse_engine("auto:depth=3")


# ------------------------------------------------------------------ the commands' default

def test_analyse_uses_auto_by_default():
    r = run("analyse", "connect4", "44")
    assert r.exit_code == 0, r.output
    assert "engine   auto (" in r.output


def test_play_without_an_engine_seats_auto():
    r = run("play", "connect4", "--position", NEAR_END, "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output.splitlines()[0])["seats"] == ["auto", "auto"]


# ------------------------------------------------------------------ shipped weights

@pytest.mark.parametrize("game", SHIPPED)
def test_the_shipped_weights_file_loads_and_is_what_the_evaluation_reads(game):
    evaluation = tuning.evaluation_of(get_game(game))
    rows = read_weights(weights_path(game), game, evaluation.features)
    assert 2 in rows
    assert evaluation.default(2) == rows[2]
    assert evaluation.get(2) == rows[2]
    assert rows[2] != evaluation.hand[2]          # fitted, not the hand-set fallback


@pytest.mark.parametrize("game", TUNED)
def test_the_evaluation_is_the_logistic_of_the_weighted_feature_difference(game):
    info = get_game(game)
    evaluation = tuning.evaluation_of(info)
    from roost.arena.match import random_opening
    for seed in range(6):
        state = info.start(seed=seed)
        random_opening(state, 8 + seed, seed)
        if state.is_over:
            continue
        w = evaluation.get(2)
        f0, f1 = state.eval_features(0), state.eval_features(1)
        adv = sum(a * (x - y) for a, x, y in zip(w, f0, f1))
        assert state.evaluate_for(0) == pytest.approx(1 / (1 + math.exp(-adv)))
        assert state.evaluate_for(0) + state.evaluate_for(1) == pytest.approx(1.0)


def test_setting_weights_changes_the_evaluation_and_reset_restores_it():
    info = get_game("ducks")
    evaluation = tuning.evaluation_of(info)
    state = info.parse("bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0")
    shipped = state.evaluate_for(0)
    try:
        evaluation.set(2, [0.0] * len(evaluation.features))
        assert state.evaluate_for(0) == 0.5
    finally:
        evaluation.reset()
    assert state.evaluate_for(0) == shipped
    with pytest.raises(WeightsError, match="expected 7 finite numbers"):
        evaluation.set(2, [1.0])
    with pytest.raises(WeightsError, match="not played by 3 players"):
        evaluation.set(3, evaluation.get(2))


def test_ducks_hand_weights_are_the_evaluation_before_tuning():
    # groups and adjacent pairs, as the evaluation was written before it had features
    info = get_game("ducks")
    evaluation = tuning.evaluation_of(info)
    state = info.parse("bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0")
    for move in state.legal()[:5]:
        child = state.copy().play_move(move)
        (gw, lw), (gb, lb) = (child.eval_features(p)[:2] for p in (0, 1))
        try:
            evaluation.set(2, evaluation.hand[2])
            value = child.evaluate_for(0)
        finally:
            evaluation.reset()
        assert value == pytest.approx(1 / (1 + math.exp(-((gb - gw) * 0.5 + (lw - lb) * 0.08))))


# ------------------------------------------------------------------ Tweeeet: the parity swing

TWEEEET_MIDGAMES = (
    "0:-...S...-/.4.~~.33./...2~~o.2/~.5.~..25/.~...543~/~.o~.3..3/4~4~....5/..~.~3.25/"
    "..5.3.~2~/..2~2..2~ g2:8 c5:4 e0:8 e0:9 FR",
    "0:-...S...-/~.4.~.5.5/2o..~~..o/~.o.2..~4/...3~~2.4/.4~.3~.2./~43...2~./5~.~...55 "
    "c3:8 b2:7 i2:6 e0:9 FB",
    "0:-...S...-/.~5~4.5../..o.2~3.~/..~~.4.o3/4.o.o..~~/33~..~3../3..3~~4../.4~.23.~./"
    "3~...3~3. c2:4 h3:5 c4:6 e4:3 MR",
)


def zigzag(values):
    """How far each depth's value sits off the mean of its neighbours' (0 for a steady trend)."""
    inner = range(1, len(values) - 1)
    return sum(abs(values[i] - (values[i - 1] + values[i + 1]) / 2) for i in inner) / len(inner)


def tweeeet_values_by_depth(text, depths=4):
    state = get_game("tweeeet").parse(text)
    return [parse_engine(f"ab:depth={d}").choose(state, seed=1).value for d in range(1, depths + 1)]


def test_tweeeet_alpha_beta_values_do_not_swing_with_the_parity_of_the_depth():
    # without the tempo term (the mover's gain in full) these zigzag by 0.08 to 0.25
    for text in TWEEEET_MIDGAMES:
        values = tweeeet_values_by_depth(text)
        assert zigzag(values) < 0.05, values


def test_without_the_tempo_term_the_values_swing():
    # the measurement above can see the swing: the evaluation without the tempo term has it
    evaluation = tuning.evaluation_of(get_game("tweeeet"))
    names = evaluation.features
    try:
        evaluation.set(2, [0.0 if n in ("mover_gain", "to_move") else w
                           for n, w in zip(names, evaluation.hand[2])])
        assert zigzag(tweeeet_values_by_depth(TWEEEET_MIDGAMES[1])) > 0.1
    finally:
        evaluation.reset()
