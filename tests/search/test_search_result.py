"""What a search reports (src/search/result.py): the JSON of ``analyse --json`` and the
tournament records (``as_dict``), the live progress lines, and speeds, on results built by
hand so that every field's value is known."""
import pytest

from roost.search.result import MoveStat, Progress, SearchResult, verdict_text


def test_a_move_stat_keeps_only_what_the_engine_knows():
    bare = MoveStat(move=3, name="d4")
    assert (bare.visits, bare.value, bare.proven, bare.values, bare.bound) == (0, 0.5, "", [], "")
    assert bare.as_dict() == {"move": "d4", "id": 3, "visits": 0, "value": 0.5, "proven": None}
    full = MoveStat(move=7, name="a1", visits=40, value=0.123456, proven="win",
                    values=[0.87654, 0.12346], bound="upper")
    assert full.as_dict() == {"move": "a1", "id": 7, "visits": 40, "value": 0.1235, "proven": "win",
                              "bound": "upper", "values": [0.8765, 0.1235]}
    assert MoveStat(move=1, name="b", value=None).as_dict()["value"] is None
    assert MoveStat(move=1, name="b").values is not MoveStat(move=1, name="b").values


def test_a_search_result_as_json():
    r = SearchResult(engine="ab:depth=3", move=5, move_name="c3", player=1, value=0.612345)
    assert (r.values, r.score, r.pv, r.nodes, r.iterations, r.depth, r.seconds, r.proven,
            r.expectation, r.stats, r.info, r.lines, r.seat, r.seat_value) == \
        ([], "", [], 0, 0, 0, 0.0, "", False, [], {}, [], None, None)
    assert r.speed == 0.0                              # no time measured: no speed
    assert r.as_dict() == {
        "engine": "ab:depth=3", "move": "c3", "id": 5, "player": 1, "value": 0.6123,
        "seat": 1, "seat_value": 0.6123, "score": "", "pv": [], "nodes": 0, "iterations": 0,
        "depth": 0, "seconds": 0.0, "speed": 0.0, "proven": None, "expectation": False, "stats": []}
    r = SearchResult(engine="mcts", move=2, move_name="b", player=0, value=0.25, values=[0.25, 0.75],
                     score="0.250", pv=["b", "c"], nodes=120, iterations=3000, depth=0,
                     seconds=1.5, proven="loss", expectation=True,
                     stats=[MoveStat(move=2, name="b", visits=9)], info={"tree_nodes": 120},
                     lines=[{"move": "b", "value": 0.123456, "verdict": "", "pv": ["b"]}],
                     seat=1, seat_value=0.7777777)
    assert r.speed == 2000.0                           # iterations, not tree nodes, per second
    d = r.as_dict()
    assert d["seat"] == 1 and d["seat_value"] == 0.7778 and d["values"] == [0.25, 0.75]
    assert d["speed"] == 2000.0 and d["proven"] == "loss" and d["expectation"] is True
    assert d["stats"] == [MoveStat(move=2, name="b", visits=9).as_dict()]
    assert d["info"] == {"tree_nodes": 120}
    assert d["lines"] == [{"move": "b", "value": 0.1235, "verdict": "", "pv": ["b"]}]
    # alpha-beta counts nodes only
    assert SearchResult(engine="ab", move=0, move_name="a", player=0, value=0.5, nodes=300,
                        seconds=0.5).speed == 600.0


@pytest.mark.parametrize("proven,plies,text", [
    ("win", 7, "win in 7"), ("loss", 4, "loss in 4"), ("win", None, "win"), ("loss", 0, "loss"),
    ("draw", 5, "draw"), ("", 3, ""), (None, 3, None),
])
def test_verdict_text(proven, plies, text):
    assert verdict_text(proven, plies) == text


def test_an_alpha_beta_progress_line():
    p = Progress(seconds=1.5, nodes=12345, depth=5, value=0.51234, best="d4", pv=["d4", "e5"])
    assert p.speed == 8230.0
    assert p.text() == str(p) == "depth 5  best d4  value 0.512  12,345 nodes  1.50 s (8,230 nodes/s)  pv d4 e5"
    assert p.as_dict() == {"seconds": 1.5, "nodes": 12345, "depth": 5, "speed": 8230.0, "best": "d4",
                           "value": 0.5123, "verdict": None, "pv": ["d4", "e5"]}
    proven = Progress(seconds=0.01, nodes=20, depth=3, value=1.0, verdict="win in 3")
    assert proven.text() == "depth 3  win in 3  20 nodes  0.01 s (2,000 nodes/s)"
    assert proven.as_dict()["verdict"] == "win in 3"


def test_an_mcts_progress_line():
    p = Progress(seconds=0.5, nodes=800, iterations=3000, value=0.61, best="a1", share=0.456,
                 world=(2, 8), line=2)
    assert p.speed == 6000.0
    assert p.text() == "line 2  world 2 of 8  3,000 iterations  best a1 (46% of visits)  value 0.610  " \
                       "0.50 s (6,000 iterations/s)"
    assert p.as_dict() == {"seconds": 0.5, "nodes": 800, "iterations": 3000, "speed": 6000.0,
                           "best": "a1", "share": 0.456, "value": 0.61, "verdict": None, "pv": [],
                           "world": 2, "worlds": 8, "line": 2}
    one = Progress(seconds=0.004, nodes=1, iterations=1)
    assert one.text() == "1 iteration  0.00 s"           # too short a time for a speed
    assert one.as_dict() == {"seconds": 0.004, "nodes": 1, "iterations": 1, "speed": 250.0,
                             "value": None, "verdict": None, "pv": []}


def test_a_progress_before_any_time_has_passed():
    p = Progress(seconds=0.0)
    assert (p.nodes, p.iterations, p.depth, p.value, p.verdict, p.best, p.share, p.pv, p.world,
            p.line) == (0, 0, 0, None, "", "", None, [], None, 0)
    assert p.speed == 0.0
    assert p.text() == "depth 0  0 nodes  0.00 s"
    assert p.as_dict() == {"seconds": 0.0, "nodes": 0, "depth": 0, "speed": 0.0, "value": None,
                           "verdict": None, "pv": []}


def test_reports_round_to_four_places_and_speeds_to_one():
    r = SearchResult(engine="mcts", move=2, move_name="b", player=0, value=0.123456,
                     values=[0.123456, 0.876544], iterations=1000, seconds=0.3, seat_value=0.654321,
                     lines=[{"move": "b", "value": 0.987654, "verdict": "", "pv": []}])
    d = r.as_dict()
    assert (d["value"], d["values"], d["seconds"], d["speed"], d["seat_value"], d["lines"][0]["value"]) == \
        (0.1235, [0.1235, 0.8765], 0.3, 3333.3, 0.6543, 0.9877)
    assert SearchResult(engine="ab", move=0, move_name="a", player=0, value=0.5,
                        seconds=0.123456).as_dict()["seconds"] == 0.1235
    p = Progress(seconds=0.123456, nodes=1000, depth=2, value=0.123456, share=0.123456)
    assert p.as_dict() == {"seconds": 0.1235, "nodes": 1000, "depth": 2, "speed": 8100.1,
                           "share": 0.1235, "value": 0.1235, "verdict": None, "pv": []}


# ------------------------------------------------------------------ a searcher's report read
def _read(spec, report):
    """``report`` read by the engine of ``spec`` at Feed the Ducks' start, for the mover."""
    from roost.core.games import get_game
    from roost.search.engines import parse_engine
    state = get_game("ducks").start()
    return parse_engine(spec).read_report(report, state, state, state.player, {"given": 1})


def test_an_alpha_beta_report_reads_in_its_own_units():
    from roost.search.alphabeta_report import AlphaBetaReport
    from roost.search.root_move import RootMove
    win = 1e6 - 5                                   # a win in 5 plies
    r = _read("ab", AlphaBetaReport(
        move=64, value=1.0, pv=[64, 65], nodes=900, depth=5, seldepth=7, seconds=0.5,
        score=win, exact=True, proven="win", threads=2,
        root_moves=[RootMove(move=64, value=1.0, score=win, exact=True, proven="win"),
                    RootMove(move=65, value=0.25, score=-5e5, exact=False)]))
    assert (r.move_name, r.value, r.score, r.proven, r.expectation) == ("W@a1", 1.0, "win in 5", "win", False)
    assert (r.nodes, r.iterations, r.depth, r.seconds) == (900, 0, 5, 0.5)
    assert r.pv == ["W@a1", "W@a2"] and r.seat == 0 and r.seat_value == 1.0 and r.values == []
    assert r.info == {"given": 1, "seldepth": 7, "threads": 2}
    assert [(s.name, s.value, s.proven, s.bound) for s in r.stats] == [
        ("W@a1", 1.0, "win", ""), ("W@a2", 0.25, "", "upper")]
    chance = _read("ab", AlphaBetaReport(move=64, value=0.6, score=2e5, chance=True))
    assert chance.expectation and chance.score == "+0.200" and chance.info == {"given": 1, "seldepth": 0}


def test_an_mcts_report_reads_with_its_visits_and_every_players_values():
    from roost.search.mcts_report import MctsReport
    from roost.search.root_move import RootMove
    report = MctsReport(
        move=65, value=0.7, pv=[65, 64], nodes=1234, iterations=1000, seconds=0.25,
        memory=3 << 20, root_moves=[RootMove(move=65, visits=800, value=0.7, values=[0.7, 0.3]),
                                    RootMove(move=64, visits=200, value=0.4, values=[0.4, 0.6],
                                             proven="loss")])
    r = _read("mcts", report)
    assert (r.move_name, r.value, r.score, r.proven, r.expectation) == ("W@a2", 0.7, "0.700", "", True)
    assert r.values == [0.7, 0.3] and r.seat_value == 0.7 and (r.nodes, r.iterations) == (1234, 1000)
    assert r.info == {"given": 1, "tree_nodes": 1234, "tree_mb": 3.0}
    assert [(s.name, s.visits, s.proven, s.values) for s in r.stats] == [
        ("W@a2", 800, "", [0.7, 0.3]), ("W@a1", 200, "loss", [0.4, 0.6])]
    report.proven = "win"
    assert _read("mcts", report).score == "win (proven)" and not _read("mcts", report).expectation


def test_a_pimc_report_names_the_move_it_voted_for_as_its_line():
    from roost.search.mcts_report import MctsReport
    from roost.search.pimc import PimcReport
    from roost.search.root_move import RootMove
    r = _read("pimc", PimcReport(move=64, value=0.55, pv=[64], iterations=80, nodes=80,
                                 worlds=4, seat_value=0.5,
                                 root_moves=[RootMove(move=64, visits=50, value=0.55)]))
    assert r.pv == ["W@a1"] and r.seat_value == 0.5 and r.score == "0.550"
    assert r.info == {"given": 1, "worlds": 4} and r.expectation
    # a pv of a line is named as far as it can be followed (W@a1 twice is no line: the
    # square is taken); PIMC's is the move the votes chose, named as it stands
    assert _read("mcts", MctsReport(move=64, pv=[64, 64])).pv == ["W@a1"]
    assert _read("pimc", PimcReport(move=64, pv=[64, 64])).pv == ["W@a1", "W@a1"]


def test_a_report_of_no_kind_of_its_own_reads_with_the_defaults():
    # a pv of a line, the value 0.5 its text, no proof, no figures but the engine's own
    from roost.search.result import Report
    from roost.search.root_move import RootMove
    r = _read("mcts", Report(move=64, pv=[64, 64],
                             root_moves=[RootMove(65, 0.25, values=[0.25, 0.75]),
                                         RootMove(64, values=[0.5, 0.5])]))
    assert r.pv == ["W@a1"] and (r.value, r.score, r.proven, r.expectation) == (0.5, "0.500", "", True)
    assert r.values == [0.5, 0.5] and r.info == {"given": 1}
    assert (r.nodes, r.iterations, r.depth, r.seconds) == (0, 0, 0, 0.0)


def test_the_searchers_return_their_reports():
    from roost.core.games import get_game
    from roost.search.alphabeta import AlphaBeta
    from roost.search.alphabeta_report import AlphaBetaReport
    from roost.search.mcts import MCTS
    from roost.search.mcts_report import MctsReport
    s = get_game("ducks").start()
    ab = AlphaBeta(tt_mb=1).search(s, max_depth=2)
    assert type(ab) is AlphaBetaReport and {m.move for m in ab.root_moves} == set(s.legal())
    # the exact root scores first, each group best first
    order = [(not m.exact, -m.score) for m in ab.root_moves]
    assert order == sorted(order) and ab.chosen() is ab.root_moves[0]
    tree = MCTS(capacity=10000, seed=1).search(s, iterations=300)
    assert type(tree) is MctsReport and tree.iterations == 300
    visits = [m.visits for m in tree.root_moves]
    assert visits == sorted(visits, reverse=True) and sum(visits) == tree.iterations


def test_an_alpha_beta_report_holds_what_its_dataclass_would():
    # a search makes its report without the dataclass's __init__, its fields set in C and
    # its root moves made when first read: every field is there, the ones it does not set
    # at their defaults, it equals the report the dataclass makes of the same fields, and
    # no two reports share a list
    from dataclasses import asdict, fields
    from roost.core.games import get_game
    from roost.search.alphabeta import AlphaBeta
    from roost.search.alphabeta_report import AlphaBetaReport
    c4 = get_game("connect4")
    ab = AlphaBeta(tt_mb=1)
    r = ab.search(c4.parse("2611111172444374"), max_depth=10000, solve=True)
    made = AlphaBetaReport(**{f.name: getattr(r, f.name) for f in fields(AlphaBetaReport)})
    assert r == made and asdict(r) == asdict(made) and repr(r) == repr(made)
    assert (r.iterations, r.root_proven, r.memory, r.worlds, r.seat_value) == (0, "", 0, 0, None)
    assert type(r.nodes) is int and type(r.score) is float and type(r.exact) is bool
    other = ab.search(c4.parse("445566"), max_depth=10000, solve=True)
    assert other.pv is not r.pv and other.root_moves is not r.root_moves
    assert asdict(other)["pv"] in ([2], [6]) and other.score_text() == "win in 1"   # column 3 or 7


def test_an_alpha_beta_reports_line_and_root_moves_are_made_once_and_kept_after_the_next_search():
    # the line and the root moves are made from what the search kept, when first read: the
    # same list at every read, the same moves whether read before or after the searcher's
    # next search, and replaced when assigned
    import copy
    import pickle
    from roost.core.games import get_game
    from roost.search.alphabeta import AlphaBeta
    c4 = get_game("connect4")
    read_now = AlphaBeta(tt_mb=1).search(c4.parse("4455"), max_depth=4)
    moves_now = [(m.move, m.score, m.exact) for m in read_now.root_moves]
    line_now = read_now.pv
    ab = AlphaBeta(tt_mb=1)
    read_later = ab.search(c4.parse("4455"), max_depth=4)
    ab.search(c4.parse("2611111172444374"), max_depth=10000, solve=True)
    assert [(m.move, m.score, m.exact) for m in read_later.root_moves] == moves_now
    assert read_later.pv == line_now and len(line_now) == 3 and len(moves_now) == 7
    assert read_later.root_moves is read_later.root_moves and read_later.pv is read_later.pv
    assert pickle.loads(pickle.dumps(read_later)) == read_later == copy.copy(read_later)
    read_later.root_moves = read_later.root_moves[:1]
    read_later.pv = None
    assert [m.move for m in read_later.root_moves] == [moves_now[0][0]] and read_later.pv is None
    assert pickle.loads(pickle.dumps(read_later)).root_moves == read_later.root_moves


def test_an_alpha_beta_root_move_has_empty_lists_of_its_own():
    # an alpha-beta report's root moves keep no per-player values nor line; each reads as
    # an empty list of its own (made when read), equal to one made with empty lists
    from roost.core.games import get_game
    from roost.search.alphabeta import AlphaBeta
    from roost.search.root_move import RootMove
    r = AlphaBeta(tt_mb=1).search(get_game("connect4").parse("4455"), max_depth=3)
    first, second = r.root_moves[0], r.root_moves[1]
    assert (first.values, first.pv) == ([], [])
    first.values.append(0.5)
    first.pv.append(3)
    assert (first.values, first.pv, second.values, second.pv) == ([0.5], [3], [], [])
    bare = RootMove(move=second.move, value=second.value, score=second.score, exact=second.exact,
                    proven=second.proven)
    assert bare == RootMove(move=second.move, value=second.value, score=second.score,
                            exact=second.exact, proven=second.proven, values=[], pv=[]) == second
    bare.pv = [1, 2]
    assert bare.pv == [1, 2] and bare != second
