"""roost tune: self-play positions, the logistic fit, the weights file, the evaluation match,
and one clear message for each kind of bad input."""
import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from roost.cli.main import cli
from roost.core.games import get_game
from roost.core.weights import WeightsError, read_weights, weights_path
from roost.arena import tuning


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_tune_end_to_end_writes_a_weights_file_the_game_reads(tmp_path):
    out = tmp_path / "w.json"
    r = run("tune", "ducks", "--games", "3", "--seed", "5", "-o", str(out), "--engine", "ab:depth=1")
    assert r.exit_code == 0, r.output
    assert "log loss" in r.output and f"wrote {out}" in r.output
    evaluation = tuning.evaluation_of(get_game("ducks"))
    rows = read_weights(out, "ducks", evaluation.features)
    assert list(rows) == [2] and len(rows[2]) == len(evaluation.features)
    data = json.loads(out.read_text())
    assert data["fit"]["2"]["games"] == 3 and data["fit"]["2"]["engine"] == "ab:depth=1"


def test_tune_is_deterministic_for_a_seed(tmp_path):
    a, b, c = (tmp_path / n for n in ("a.json", "b.json", "c.json"))
    for path, seed in ((a, "2"), (b, "2"), (c, "3")):
        r = run("tune", "tweeeet", "--games", "2", "--seed", seed, "-o", str(path),
                "--engine", "ab:depth=1", "--json")
        assert r.exit_code == 0, r.output
    weights = [json.loads(p.read_text())["weights"]["2"] for p in (a, b, c)]
    assert weights[0] == weights[1]
    assert weights[0] != weights[2]


def test_self_play_with_the_hand_set_weights_does_not_depend_on_what_is_shipped():
    game = get_game("ducks")
    evaluation = tuning.evaluation_of(game)
    fits = {}
    try:
        for shipped in ("file", "other"):
            if shipped == "other":          # as if another weights file were shipped
                evaluation.shipped = {2: [0.3, -0.2, 0.1, 0.0, 0.5, 0.0, 0.0]}
                evaluation.reset()
            for play in ("hand", "shipped"):
                fits[shipped, play] = tuning.tune(game, games=3, engine_spec="ab:depth=2", seed=5,
                                                  play_weights=play).weights
    finally:
        evaluation.shipped = read_weights(weights_path("ducks"), "ducks", evaluation.features)
        evaluation.reset()
    assert fits["file", "hand"] == fits["other", "hand"]
    assert fits["file", "shipped"] != fits["other", "shipped"]
    with pytest.raises(tuning.TuningError, match="use 'shipped' or 'hand'"):
        tuning.tune(game, games=1, play_weights="fitted")


def test_tune_json_and_match_report_a_score_with_an_interval(tmp_path):
    r = run("tune", "connect4", "--games", "4", "--seed", "1", "-o", str(tmp_path / "c.json"),
            "--engine", "ab:depth=1", "--match", "2", "--json")
    assert r.exit_code == 0, r.output
    summary = json.loads(r.output)
    assert summary["match"]["games"] == 2
    assert 0.0 <= summary["match"]["score"] <= 1.0 and summary["match"]["interval"] >= 0.0
    assert set(summary["log_loss"]) == {"fitted", "hand", "shipped"}


def test_tune_keeps_the_other_player_counts_of_an_existing_file(tmp_path):
    out = tmp_path / "w.json"
    features = list(tuning.evaluation_of(get_game("ducks")).features)
    out.write_text(json.dumps({"game": "ducks", "features": features,
                               "weights": {"3": [1.0] * len(features)}}))
    assert run("tune", "ducks", "--games", "2", "-o", str(out), "--engine", "random").exit_code == 0
    assert sorted(json.loads(out.read_text())["weights"]) == ["2", "3"]


@pytest.mark.parametrize("args,fragment", [
    (["ducks", "--games", "0"], "0 is not in the range"),
    (["ducks", "--positions", "5"], "too few"),
    (["ducks", "--players", "3"], "played by 2 to 2 players, not 3"),
    (["ducks", "--engine", "mcts:iters=3"], "no parameter 'iters'"),
    (["ducks", "--match", "3"], "multiple of the 2 players"),
    (["ducks", "--l2", "-1"], "--l2"),
    (["chess"], "unknown game 'chess'"),
    (["dice"], "no tunable evaluation"),
    (["ducks", "--games", "1", "-o", "/no/such/dir/w.json"], "the folder /no/such/dir does not exist"),
])
def test_bad_input_to_tune_gets_one_clear_message(args, fragment):
    r = run("tune", *args)
    assert r.exit_code != 0
    assert "Traceback" not in r.output
    assert fragment in r.output, r.output


def test_fit_recovers_the_weights_that_generated_the_results():
    rng = np.random.default_rng(7)
    true = np.array([1.5, -0.8, 0.3])
    X = rng.normal(size=(4000, 2, 3))
    d = (X[:, 0] - X[:, 1]) @ true
    win = rng.random(4000) < 1 / (1 + np.exp(-d))
    Y = np.stack([win, ~win], axis=1).astype(float)
    data = tuning.Positions(X, Y, np.arange(4000), 4000, "synthetic")
    w = tuning.fit(data, l2=0.0)
    assert np.allclose(w, true, atol=0.15)
    assert tuning.log_loss(w, data) < tuning.log_loss(np.zeros(3), data) - 0.1


def test_log_loss_of_equal_scores_is_log_of_the_players():
    X = np.ones((10, 3, 2))
    Y = np.zeros((10, 3))
    Y[:, 0] = 1.0
    data = tuning.Positions(X, Y, np.arange(10), 10, "synthetic")
    assert tuning.log_loss([0.3, -2.0], data) == pytest.approx(math.log(3))


def test_self_play_positions_carry_their_game_results():
    game = get_game("ducks")
    data = tuning.self_play(game, 2, 2, "ab:depth=1", seed=4)
    assert data.features.shape[1:] == (2, len(tuning.evaluation_of(game).features))
    assert np.allclose(data.results.sum(axis=1), 1.0)
    for g in set(data.game.tolist()):                  # one result a game
        assert len({tuple(r) for r in data.results[data.game == g]}) == 1
    assert len(tuning.self_play(game, 2, 2, "ab:depth=1", seed=4, positions=20)) == 20


def test_eval_match_plays_both_weight_sets_and_restores_the_shipped_ones():
    game = get_game("ducks")
    evaluation = tuning.evaluation_of(game)
    before = evaluation.get(2)
    seen = []

    class Spy(tuning.WeightedEngine):
        def choose(self, state, limit=None, **options):
            r = super().choose(state, limit, **options)
            seen.append(tuple(self.evaluation.get(2)))
            return r
    original, tuning.WeightedEngine = tuning.WeightedEngine, Spy
    try:
        zeros = [0.0] * len(before)
        m = tuning.eval_match(game, "ab:depth=1", evaluation.hand[2], zeros, 2, seed=3, opening=30)
    finally:
        tuning.WeightedEngine = original
    assert len(m.records) == 2
    assert {tuple(evaluation.hand[2]), tuple(zeros)} <= set(seen)
    assert evaluation.get(2) == before


def test_eval_match_takes_an_engine_for_each_side():
    game = get_game("ducks")
    evaluation = tuning.evaluation_of(game)
    m = tuning.eval_match(game, ("ab:depth=1", "mcts:iterations=20"), evaluation.hand[2],
                          evaluation.hand[2], 2, seed=3, opening=30)
    assert m.specs == ["ab:depth=1 [a]", "mcts:iterations=20 [b]"]
    assert len(m.records) == 2
    for rec, order in m.records:                   # each seat played its side's engine
        assert rec.seats == [m.specs[e] for e in order]
    assert [order for _, order in m.records] == [[0, 1], [1, 0]]


def test_a_weighted_engine_searches_with_its_own_weights():
    game = get_game("ducks")
    evaluation = tuning.evaluation_of(game)
    state = game.parse("bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0")
    from roost.search.engines import parse_engine
    with tuning._restored(evaluation, 2):
        values = []
        for w in (evaluation.hand[2], [0.0] * len(evaluation.features)):
            e = tuning.WeightedEngine(parse_engine("ab:depth=1"), evaluation, 2, w, "x")
            values.append(e.choose(state, seed=1).value)
    assert values[1] == pytest.approx(0.5)         # all-zero weights: every leaf is even
    assert values[0] != pytest.approx(0.5)


@pytest.mark.parametrize("content,fragment", [
    ("not json", "is not JSON"),
    ('{"game": "ducks"}', "no 'weights' object"),
    ('{"game": "tweeeet", "weights": {}}', "is for 'tweeeet', not 'ducks'"),
    ('{"game": "ducks", "features": ["a"], "weights": {}}', "names the features"),
])
def test_a_bad_weights_file_is_refused_with_its_fault(tmp_path, content, fragment):
    path = tmp_path / "w.json"
    path.write_text(content)
    features = tuning.evaluation_of(get_game("ducks")).features
    with pytest.raises(WeightsError, match=fragment):
        read_weights(path, "ducks", features)


def test_a_weights_row_of_the_wrong_length_or_not_finite_is_refused(tmp_path):
    features = list(tuning.evaluation_of(get_game("ducks")).features)
    for row in ([1.0], [float("nan")] * len(features), ["x"] * len(features)):
        path = tmp_path / "w.json"
        path.write_text(json.dumps({"game": "ducks", "features": features, "weights": {"2": row}}))
        with pytest.raises(WeightsError, match="finite numbers"):
            read_weights(path, "ducks", features)
    with pytest.raises(WeightsError, match="cannot read"):
        read_weights(tmp_path / "missing.json", "ducks", features)
