"""The Python side of the searchers where its arithmetic is its own: PIMC's sharing of a
time budget between rounds of worlds and its vote counting (src/search/pimc.py), the seat
an analysis is for and its value (src/search/engine.py), budgets laid over a spec.  The
native search is replaced by a stand-in whose reports and clock are set here, so every
number is known."""
import re

import pytest

import roost.search.pimc as pimc
from roost.core.errors import EngineSpecError, SeatError
from roost.core.games import get_game
from roost.search.engine import check_observer, seat_value
from roost.search.engines import parse_engine
from roost.search.limit import Limit, LimitError
from roost.search.mcts_report import MctsReport
from roost.search.root_move import RootMove

DUCKS = get_game("ducks")


class FakeWorlds:
    """Stands in for mcts.search_worlds: records each round's budget, moves the clock
    (``spend`` of each round's seconds, or ``fixed`` seconds), and reports votes."""

    def __init__(self, monkeypatch, votes, spend=1.0, fixed=None):
        self.now, self.calls, self.votes, self.spend, self.fixed = 50.0, [], votes, spend, fixed
        monkeypatch.setattr(pimc.time, "monotonic", lambda: self.now)
        monkeypatch.setattr(pimc._mcts, "search_worlds", self)

    def __call__(self, trees, worlds, seeds, iterations, seconds, report):
        self.calls.append((len(worlds), iterations, seconds))
        took = self.fixed if self.fixed is not None else seconds * self.spend
        self.now += took
        return [MctsReport(move=self.votes[0][0], iterations=100, seconds=took - 0.01 * k,
                           root_moves=[RootMove(move=m, visits=v, value=q, values=[q, 1 - q])
                                       for m, v, q in self.votes])
                for k in range(len(worlds))]


def test_pimc_shares_its_time_among_the_rounds_left(monkeypatch):
    s = DUCKS.start()
    a, b = s.legal()[:2]
    fake = FakeWorlds(monkeypatch, [(a, 30, 0.75), (b, 10, 0.25)])
    r = parse_engine("pimc:worlds=5,threads=2,time=1.2").choose(s, seed=3)
    # rounds of 2, 2 and 1 worlds; each gets what is left over the rounds left (3, 2, 1)
    assert [c[0] for c in fake.calls] == [2, 2, 1]
    assert [c[1] for c in fake.calls] == [0, 0, 0]                  # time, not iterations
    assert [c[2] for c in fake.calls] == pytest.approx([0.4, 0.4, 0.4])
    assert r.iterations == r.nodes == 500 and r.info == {"worlds": 5}
    assert r.seconds == pytest.approx(1.2)                         # each round's slowest world
    assert r.move == a and [st.visits for st in r.stats] == [150, 50]
    assert r.value == pytest.approx(0.75) and r.stats[1].value == pytest.approx(0.25)
    assert r.seat == 0 and r.seat_value == pytest.approx(0.75) and r.expectation


def test_pimc_stops_starting_rounds_once_its_time_is_spent(monkeypatch):
    s = DUCKS.start()
    a = s.legal()[0]
    fake = FakeWorlds(monkeypatch, [(a, 5, 0.5)], fixed=1.0)       # the first round overruns
    r = parse_engine("pimc:worlds=4,threads=1,time=1").choose(s, seed=3)
    assert [c[2] for c in fake.calls] == pytest.approx([0.25])
    assert r.info == {"worlds": 1} and r.iterations == 100
    # rounds that end exactly on time leave nothing for the next
    fake = FakeWorlds(monkeypatch, [(a, 5, 0.5)], fixed=0.5)
    r = parse_engine("pimc:worlds=6,threads=2,time=1").choose(s, seed=3)
    assert [c[2] for c in fake.calls] == pytest.approx([1 / 3, 0.25]) and r.info == {"worlds": 4}


def test_pimc_with_an_iteration_budget_searches_every_world(monkeypatch):
    s = DUCKS.start()
    a, b = s.legal()[:2]
    fake = FakeWorlds(monkeypatch, [(a, 4, 0.5), (b, 6, 0.5)], fixed=100.0)
    r = parse_engine("pimc:worlds=3,iterations=70").choose(s, seed=1)
    assert fake.calls == [(1, 70, 0.0)] * 3 and r.info == {"worlds": 3}
    assert r.move == b and [st.move for st in r.stats] == [b, a]     # most votes first
    # a tie in votes goes to the lower move id
    fake = FakeWorlds(monkeypatch, [(b, 5, 0.5), (a, 5, 0.5)])
    assert parse_engine("pimc:worlds=1,iterations=10").choose(s, seed=1).move == min(a, b)
    # with no budget at all: 2000 iterations a world
    fake = FakeWorlds(monkeypatch, [(a, 5, 0.5)])
    parse_engine("pimc:worlds=1").choose(s, seed=1)
    assert fake.calls == [(1, 2000, 0.0)]


def test_the_seat_an_analysis_is_for():
    s = get_game("cubirds").start(players=3, seed=1)
    assert check_observer(s, None) == s.player
    assert check_observer(s, 2) == 2 and check_observer(s, 0) == 0
    for bad in (3, -1, True, 1.0, "1"):
        with pytest.raises(SeatError, match=r"does not exist in a 3-player game \(seats are 0 to 2\)"):
            check_observer(s, bad)


def test_a_seats_value_from_the_movers():
    two, three = DUCKS.start(), get_game("cubirds").start(players=3, seed=1)
    assert seat_value(two, two.player, 0.7) == 0.7
    assert seat_value(two, 1 - two.player, 0.7) == pytest.approx(0.3)   # one point shared out
    assert seat_value(two, 1 - two.player, 0.7, [0.6, 0.4]) == [0.6, 0.4][1 - two.player]
    other = (three.player + 1) % 3
    assert seat_value(three, other, 0.7) is None                     # paranoid: mover only
    assert seat_value(three, other, 0.7, [0.1, 0.2, 0.3]) == [0.1, 0.2, 0.3][other]


def test_a_budget_laid_over_a_spec():
    s = DUCKS.start()
    e = parse_engine("mcts:iterations=500")
    within = e.spec.within(Limit(time=2, nodes=800, depth=3), s)
    assert (within["time"], within["iterations"]) == (2.0, 500)
    assert isinstance(within["time"], float) and "depth" not in within.settings
    assert e.spec.within(Limit(nodes=100), s)["iterations"] == 100
    assert e.spec["iterations"] == 500 and e.spec["time"] == 0.0   # the spec's own
    ab = parse_engine("ab:depth=4,nodes=0")
    within = ab.spec.within(Limit(depth=9, nodes=1000), s)
    assert (within["depth"], within["nodes"]) == (4, 1000)
    assert str(parse_engine("random").spec) == "random"
    assert parse_engine("random").spec.within(Limit(time=1, nodes=1, depth=1), s).settings == {}
    with pytest.raises(TypeError, match="a search limit is a Limit"):
        e.spec.within({"time": 1}, s)


def test_an_infinite_limit_lifts_the_specs_own_budget():
    # until stopped: the longest time, the deepest depth, no node limit; a limit given with
    # it still caps
    s = DUCKS.start()
    until = Limit(infinite=True)
    assert str(parse_engine("mcts:iterations=500,time=2").spec.within(until, s)) == "mcts:time=1e+09"
    assert str(parse_engine("ab:depth=3,nodes=9").spec.within(until, s)) == "ab:depth=150,time=1e+09"
    within = parse_engine("ab:depth=3").spec.within(Limit(infinite=True, depth=7, nodes=50), s)
    assert (within["depth"], within["nodes"], within["time"]) == (7, 50, 1e9)
    assert parse_engine("pimc:iterations=40").spec.within(until, s)["iterations"] == 0
    with pytest.raises(LimitError, match="infinite is True or False"):
        Limit(infinite=1)


def test_auto_passes_an_infinite_limit_on_to_the_engine_it_chose(monkeypatch):
    # auto's own default second must not cap a search until stopped
    e = parse_engine("auto")
    s = DUCKS.start()
    inner = e.engine_for(s)
    seen = []
    monkeypatch.setattr(inner, "choose", lambda state, limit=None, **kw: seen.append(
        inner.spec.within(limit, state)) or parse_engine("random").choose(state))
    e.choose(s, Limit(infinite=True))
    e.choose(s)
    assert inner.spec["time"] == 1.0
    assert [w["time"] for w in seen] == [1e9, 1.0]


def test_a_move_without_a_clock_is_the_specs_own():
    s = DUCKS.start()
    e = parse_engine("ab:depth=2")
    assert e.choose(s, Limit(), seed=4).as_dict()["pv"] == e.choose(s, seed=4).as_dict()["pv"]
    assert e.choose(s, Limit(), seed=4).depth == 2


def test_a_limit_names_a_value_no_search_can_keep_to():
    with pytest.raises(LimitError, match="nodes must be a whole number from 0, not 1.5"):
        Limit(nodes=1.5)
    with pytest.raises(LimitError, match="depth must be a whole number from 0, not True"):
        Limit(depth=True)
    with pytest.raises(LimitError, match="time must be a finite number of seconds, not nan"):
        Limit(time=float("nan"))
    with pytest.raises(LimitError, match="inc must be at least 0 seconds"):
        Limit(clock=1, inc=-1)
    assert Limit(clock=-0.05).clock == -0.05        # a clock run a little past its end


@pytest.mark.parametrize("kind,name,low,high", [
    ("ab", "depth", 1, None), ("ab", "tt", 1, None), ("ab", "samples", 1, 10000),
    ("ab", "exact", 1, 131072), ("ab", "star", 0, 2), ("ab", "threads", 1, None),
    ("mcts", "iterations", 1, 1000000000), ("mcts", "c", 0, 100), ("mcts", "widen", 0, 1000),
    ("mcts", "alpha", 0, 1), ("mcts", "plies", 0, 1000000000), ("mcts", "epsilon", 0, 1),
    ("mcts", "imm", 0, 1), ("mcts", "bias", 0, 1000), ("mcts", "rave", 0, 1000000000),
    ("mcts", "mem", 1, None), ("mcts", "time", 0, 1000000000),
    ("pimc", "worlds", 1, 100000), ("pimc", "nodes", 1000, None), ("pimc", "iterations", 1, 1000000000),
    ("ismcts", "plies", 0, 1000000000), ("auto", "time", 0, None), ("auto", "nodes", 0, None),
])
def test_each_parameters_range_ends_where_its_help_says(kind, name, low, high):
    # the ends themselves are accepted, one step beyond them refused, naming the end
    whole = isinstance(parse_engine(kind).settings[name], int)
    step, shown = (1, str) if whole else (0.5, lambda v: f"{float(v):g}")
    assert parse_engine(f"{kind}:{name}={low}").settings[name] == low
    with pytest.raises(EngineSpecError, match=re.escape(f"{name} must be at least {shown(low)},")):
        parse_engine(f"{kind}:{name}={low - step}")
    if high is not None:
        assert parse_engine(f"{kind}:{name}={high}").settings[name] == high
        with pytest.raises(EngineSpecError, match=re.escape(f"{name} must be at most {shown(high)},")):
            parse_engine(f"{kind}:{name}={high + step}")


def test_pimc_gives_a_vanishing_time_budget_at_least_a_microsecond(monkeypatch):
    s = DUCKS.start()
    fake = FakeWorlds(monkeypatch, [(s.legal()[0], 5, 0.5)])
    parse_engine("pimc:worlds=1,time=0.0000005").choose(s, seed=1)
    assert [c[2] for c in fake.calls] == pytest.approx([1e-6], rel=1e-9, abs=0)


def test_a_tree_too_big_for_the_machine_names_the_setting_that_made_it(monkeypatch):
    from roost.search import mcts
    monkeypatch.setattr(mcts, "can_allocate_tree", lambda n: False)
    for spec, param in (("mcts:mem=64", "mem"), ("mcts:nodes=5000", "nodes"),
                        ("mcts:nodes=1000000000,mem=1", "mem")):
        with pytest.raises(EngineSpecError, match=re.escape(f"(make {param}= smaller)")):
            parse_engine(spec)


def test_pimc_stopped_before_any_world_had_a_visit_still_names_a_legal_move(monkeypatch):
    from roost.search.alphabeta import SearchInterrupted

    def stopped(*args):
        raise KeyboardInterrupt                     # Ctrl-C before the first round ended
    monkeypatch.setattr(pimc._mcts, "search_worlds", stopped)
    for s in (DUCKS.start(), get_game("cubirds").start(players=2, seed=1)):   # perfect, hidden
        while s.is_chance:
            s.play_move(s.sample(1))
        with pytest.raises(SearchInterrupted) as e:
            parse_engine("pimc:worlds=3,iterations=10").choose(s, seed=1)
        r = e.value.partial if hasattr(e.value, "partial") else e.value.args[0]
        assert r.move == s.legal()[0] and r.info == {"worlds": 0} and r.iterations == 0


@pytest.mark.parametrize("spec", ["random", "ab:depth=1", "mcts:iterations=20", "ismcts:iterations=20",
                                  "pimc:worlds=2,iterations=10", "auto:nodes=20"])
def test_every_engine_takes_the_seeds_the_command_line_takes_and_names_any_other(spec):
    # the native searchers used to fail with a bare OverflowError past 2^64 or below 0,
    # while random and pimc silently folded any integer into range
    from roost.core.errors import MAX_SEED, SeedError
    from roost.core.games import get_game
    state = get_game("cubirds").start(players=2, seed=3)
    for seed in (0, MAX_SEED):
        assert parse_engine(spec).choose(state, seed=seed).move in state.legal()
    for seed in (-1, MAX_SEED + 1, 1 << 64, 1.0, True, "1"):
        with pytest.raises(SeedError, match=f"seed {seed!r} is out of range"):
            parse_engine(spec).choose(state, seed=seed)


def test_a_game_start_names_a_seed_out_of_range():
    from roost.core.errors import MAX_SEED, SeedError
    from roost.core.games import get_game
    info = get_game("wingspan")
    assert info.start(players=2, seed=MAX_SEED).text() != info.start(players=2, seed=0).text()
    for seed in (-1, MAX_SEED + 1):
        with pytest.raises(SeedError, match="out of range"):
            info.start(players=2, seed=seed)


def test_an_engine_kind_registers_by_its_class_and_once():
    from roost.search.engine import Engine
    from roost.search.engines import ENGINES, engine_class, kind_of, register_engine

    class Echo(Engine):
        kind = "echo"

        def choose(self, state, limit=None, **options):
            raise NotImplementedError

    class Other(Echo):
        pass
    try:
        assert register_engine(Echo) is Echo and register_engine(Echo) is Echo    # again: the same
        assert engine_class("echo") is Echo and kind_of(" Echo:x=1") is Echo
        assert kind_of("mcts:time=1") is engine_class("mcts") and kind_of(7) is None
        with pytest.raises(ValueError, match="engine kind 'echo' is taken by"):
            register_engine(Other)
        for bad in (object, Engine, "echo"):          # not an Engine class, or one with no kind
            with pytest.raises(TypeError):
                register_engine(bad)
    finally:
        ENGINES.pop("echo", None)
    assert engine_class("echo") is None


def test_a_spec_is_checked_against_the_machine_unless_asked_not_to_be():
    from roost.search.engines import parse_spec
    small = "mcts:nodes=500"                     # in range, but too few nodes for a search
    with pytest.raises(EngineSpecError, match="nodes must be 0 .* or at least 1000"):
        parse_spec(small)
    assert parse_spec(small, check=False)["nodes"] == 500
