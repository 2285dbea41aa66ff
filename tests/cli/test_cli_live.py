"""Live analysis (analyse and solve): progress lines on stderr while the search runs, JSON
lines with --json, none with --quiet; --multipv; one clear value; perft's speed and divide."""
import json

from click.testing import CliRunner

from roost.cli.main import cli
from roost.core.games import get_game
from roost.search.alphabeta import AlphaBeta, score_to_value

AFTER_SETUP = "bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0"
WIN_IN_THREE = "5/2bb2/*wbb3/1bbbwb2/2bwbw3/1wwwwb2/1wbww2/3w2/5 b 39"


def run(*args, input=None):
    r = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    assert "Traceback" not in r.output
    return r


def info_lines(r):
    return [l for l in r.stderr.splitlines() if l.startswith("info ")]


def test_alpha_beta_prints_a_line_per_completed_depth():
    r = run("analyse", "ducks", AFTER_SETUP, "-e", "ab:depth=4")
    assert r.exit_code == 0
    lines = info_lines(r)
    assert [l.split()[2] for l in lines] == ["1", "2", "3", "4"]          # info depth N
    for l in lines:
        assert " value 0." in l and " nodes" in l and " pv " in l
    assert "info" not in r.stdout                                          # the answer alone
    assert "nodes/s" in r.stdout


def test_quiet_and_json_lines():
    r = run("analyse", "ducks", AFTER_SETUP, "-e", "ab:depth=3", "--quiet")
    assert r.exit_code == 0 and r.stderr == "" and "best " in r.stdout
    r = run("analyse", "ducks", AFTER_SETUP, "-e", "ab:depth=3", "--json")
    infos = [json.loads(l)["info"] for l in r.stderr.splitlines()]
    assert [i["depth"] for i in infos] == [1, 2, 3]
    assert all(0 <= i["value"] <= 1 and i["pv"] and i["nodes"] > 0 for i in infos)
    result = json.loads(r.stdout)
    assert result["depth"] == 3 and result["pv"][:1] == [result["move"]]


def test_mcts_reports_iterations_best_move_share_value_and_line():
    r = run("analyse", "ducks", AFTER_SETUP, "-e", "mcts:iterations=3000", "--json")
    infos = [json.loads(l)["info"] for l in r.stderr.splitlines()]
    assert infos and infos[0]["iterations"] == 1                          # the first report
    for i in infos:
        assert i["best"] and 0 < i["share"] <= 1 and 0 <= i["value"] <= 1 and i["pv"][0] == i["best"]
    r = run("analyse", "ducks", AFTER_SETUP, "-e", "mcts:iterations=300")
    first = info_lines(r)[0]
    assert first.startswith("info 1 iteration  best ") and "% of visits" in first and " pv " in first


def test_pimc_reports_each_world():
    state = get_game("cubirds").start(players=3, seed=2)
    r = run("analyse", "cubirds", state.text(), "-e", "pimc:worlds=2,iterations=200")
    assert r.exit_code == 0
    worlds = {l.split()[2] for l in info_lines(r)}                        # info world N of 2
    assert worlds == {"1", "2"}


def test_multipv_gives_the_best_lines_with_values():
    r = run("analyse", "ducks", AFTER_SETUP, "-e", "ab:depth=3", "--multipv", 3, "--json", "--quiet")
    d = json.loads(r.stdout)
    lines = d["lines"]
    assert len(lines) == 3 and len({l["move"] for l in lines}) == 3
    assert lines[0]["move"] == d["move"] and all(l["pv"][0] == l["move"] for l in lines)
    assert lines[0]["value"] >= lines[1]["value"] >= lines[2]["value"]
    r = run("analyse", "ducks", AFTER_SETUP, "-e", "ab:depth=3", "--multipv", 2, "--quiet")
    assert "lines    the 2 best moves" in r.stdout and "  2. " in r.stdout
    r = run("analyse", "ducks", AFTER_SETUP, "-e", "mcts:iterations=500", "--multipv", 2, "--json", "--quiet")
    assert len(json.loads(r.stdout)["lines"]) == 2
    r = run("analyse", "ducks", "-e", "random", "--multipv", 2)
    assert r.exit_code == 2 and "--multipv" in r.output


def test_multipv_with_auto_is_the_lines_of_the_engine_it_chose(monkeypatch):
    r = run("analyse", "ducks", AFTER_SETUP, "-e", "auto:nodes=300", "--multipv", 3, "--json", "--quiet")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert len(d["lines"]) == 3 and d["lines"][0]["move"] == d["move"]
    assert d["engine"].startswith("auto:nodes=300 (mcts:")
    # where auto would choose an engine that reports one move, the refusal names it
    from roost.search import auto
    from roost.search.mcts_engine import PimcEngine
    from roost.search.spec import EngineSpec
    monkeypatch.setitem(auto.TABLE, ("ducks", 2), auto.Choice(EngineSpec.of(PimcEngine), "one line"))
    r = run("analyse", "ducks", AFTER_SETUP, "-e", "auto:nodes=300", "--multipv", 3)
    assert r.exit_code == 2 and "--multipv" in r.output
    assert "'auto:nodes=300 (pimc:iterations=300)' reports one move only" in r.output


def test_an_excluded_root_move_is_not_searched():
    # the second line is the best of the other moves: its value is the best exact value a
    # depth-2 search gives any move but the first
    state = get_game("ducks").parse(AFTER_SETUP)
    ab = AlphaBeta(tt_mb=4)
    first = ab.search(state, max_depth=2)
    second = ab.search(state, max_depth=2, exclude=[first.move])
    assert second.move != first.move
    assert all(m.move != first.move for m in second.root_moves)
    others = []
    for m in state.legal():
        if m == first.move:
            continue
        child = state.copy()
        child.play_move(m)
        v = AlphaBeta(tt_mb=4).search(child, max_depth=1).score if not child.is_over else None
        if v is not None:
            others.append(score_to_value(v) if child.player == state.player else 1 - score_to_value(v))
    assert abs(score_to_value(second.score) - max(others)) < 1e-9


def test_one_clear_value_and_only_the_notes_that_apply():
    r = run("analyse", "ducks", AFTER_SETUP, "-e", "mcts:iterations=300", "--quiet")
    best = next(l for l in r.stdout.splitlines() if l.startswith("best"))
    assert "value 0." in best and "for White" in best and "score" not in best
    assert "chance" not in r.stdout                    # Feed the Ducks has none
    r = run("analyse", "ducks", AFTER_SETUP, "-e", "ab:depth=2", "--quiet")
    assert "note" not in r.stdout
    r = run("analyse", "tweeeet", "-e", "ab:depth=2", "--quiet")
    assert "averages over chance outcomes" in r.stdout


def test_wingspan_analysis_shows_the_question():
    r = run("analyse", "wingspan", "-e", "mcts:iterations=100", "--quiet")
    assert r.exit_code == 0
    assert "decision seat 0: keep " in r.stdout and "?" in r.stdout
    best = next(l for l in r.stdout.splitlines() if l.startswith("best"))
    assert "(discard it)" in best or "(keep it" in best


def test_solve_prints_live_lines_quiet_and_json():
    r = run("solve", "ducks", WIN_IN_THREE)
    assert r.exit_code == 0 and info_lines(r) and "win in 3" in info_lines(r)[-1]
    assert r.stdout.startswith("win in 3 for Black (player 1)")
    r = run("solve", "ducks", WIN_IN_THREE, "--quiet")
    assert r.stderr == ""
    r = run("solve", "ducks", WIN_IN_THREE, "--json")
    infos = [json.loads(l)["info"] for l in r.stderr.splitlines()]
    assert infos[-1]["verdict"] == "win in 3" and json.loads(r.stdout)["verdict"] == "win"


def test_perft_speed_only_where_it_means_something():
    r = run("perft", "ducks", 1)
    assert "leaves/s" not in r.output and "too short a count" in r.output
    r = run("perft", "ducks", AFTER_SETUP, 3, "--divide")
    lines = r.stdout.splitlines()
    total = next(i for i, l in enumerate(lines) if l.startswith("perft(3) = "))
    divide = [l for l in lines[:total] if ": " in l]
    assert len(divide) == len(get_game("ducks").parse(AFTER_SETUP).legal())
    assert sum(int(l.split(": ")[1]) for l in divide) == int(lines[total].split(" = ")[1])
