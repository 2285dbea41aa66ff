"""MCTS, ISMCTS and PIMC on several threads: the threads really share the work,
limits hold exactly, the solver proves what one thread proves, progressive widening and
the node budget still bound the tree, and no thread reads what the mover cannot see.
(Legal moves, time limits on every game and Ctrl-C with threads are in
test_search_limits.py and test_interrupt.py.)"""
import math

import pytest

from roost.core.ducks import Ducks
from roost.core.games import get_game
from roost.core.toys import HiddenCard
from roost.search.engines import parse_engine
from roost.search.mcts import MCTS

DICE = get_game("dice")
CONNECT4 = get_game("connect4")
OPENING = "bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0"
# proven positions: (game, position, the mover's result)
PROVEN = [("ducks", "5/6/2bw1w1/3bwww1/2bbwww2/1bbbbwb1/1*wwbw1/2bb2/5 b 35", "win"),
          ("ducks", "5/2bb2/*wbb3/1bbbwb2/2bwbw3/1wwwwb2/1wbww2/3w2/5 b 39", None)]


def test_every_thread_searches_and_the_iterations_are_exact():
    s = Ducks.parse(OPENING)
    e = parse_engine("mcts:iterations=60000,threads=2")
    r = e.choose(s, seed=1)
    done = e.tree().thread_iterations
    assert len(done) == 2 and min(done) > 0 and sum(done) == 60000
    assert r.iterations == 60000 and r.move in s.legal()
    # each iteration passes through the root once: every visit below it is one iteration
    assert sum(x.visits for x in r.stats) == 60000
    assert r.info["threads"] == 2


def test_one_thread_is_the_default_and_repeats_itself():
    s = Ducks.parse(OPENING)
    a = parse_engine("mcts:iterations=3000").choose(s, seed=7)
    b = parse_engine("mcts:iterations=3000,threads=1").choose(s, seed=7)
    assert [(x.move, x.visits, x.value) for x in a.stats] == [(x.move, x.visits, x.value) for x in b.stats]
    assert "threads" not in a.info


@pytest.mark.parametrize("game,text,result", PROVEN)
def test_threads_prove_what_one_thread_proves(game, text, result):
    # a proof is never different; a search may (rarely, with one thread too) wander in a
    # deep line and not finish its proof in the budget, so most runs, not all, must prove
    info = get_game(game)
    s = info.parse(text)
    one = parse_engine("mcts:time=10").choose(s, seed=1)
    assert one.proven, "guard: one thread proves this position within the budget"
    proven = 0
    for seed in range(3):
        many = parse_engine("mcts:time=5,threads=3").choose(s, seed=seed)
        assert many.proven in ("", one.proven)
        if many.proven:
            proven += 1
            if result:
                assert many.proven == result
            if one.proven == "win":
                assert many.move in {x.move for x in one.stats if x.proven == "win"}
    assert proven >= 2


@pytest.mark.parametrize("moves", ["36777454272316", "77445474171"])
def test_threads_agree_with_alpha_beta_on_connect_four_endings(moves):
    # a lost position (every reply must be proven) and a won one, five and seven plies
    # from the end of seeded random games
    s = CONNECT4.parse(moves)
    truth = parse_engine("ab").choose(s, seed=0, solve=True)
    assert truth.proven, "guard: alpha-beta solves the ending"
    proven = 0
    for threads in (1, 2, 2, 4):
        r = parse_engine(f"mcts:time=5,threads={threads}").choose(s, seed=threads)
        assert r.proven in ("", truth.proven), threads
        proven += bool(r.proven)
    assert proven >= 3


def test_the_node_budget_holds_with_threads():
    s = Ducks.parse(OPENING)
    r = parse_engine("mcts:iterations=20000,nodes=1000,threads=2").choose(s, seed=1)
    assert r.info["tree_nodes"] <= 1000 and r.iterations == 20000 and r.move in s.legal()


def test_progressive_widening_holds_with_threads():
    s = DICE.parse("0 0 6 0 -")
    tree = MCTS(capacity=200000, pw_c=0.5, pw_alpha=0.3, seed=2, threads=2)
    tree.search(s, iterations=60000)
    assert min(tree.thread_iterations) > 0
    widths = tree.chance_widths()
    assert widths
    for visits, kept in widths:
        assert kept <= max(1, math.ceil(0.5 * visits ** 0.3))
    assert any(kept < 6 for visits, kept in widths if visits > 10)


def test_pimc_gives_the_same_votes_for_any_thread_count():
    state = get_game("cubirds").start(players=3, seed=2)
    runs = [parse_engine(f"pimc:worlds=5,iterations=300,threads={t}").choose(state, seed=4)
            for t in (1, 2, 5)]
    shown = [[(x.move, x.visits, round(x.value, 12)) for x in r.stats] for r in runs]
    assert shown[0] == shown[1] == shown[2]
    assert all(r.info["worlds"] == 5 and r.iterations == 1500 for r in runs)


@pytest.mark.parametrize("spec", ["mcts:iterations=300000,threads=2",
                                  "ismcts:iterations=300000,threads=3"])
def test_no_thread_reads_the_hidden_card(spec):
    # a search that looked at the card would find the winning guess (value 1); searching
    # what the guesser knows, every guess is worth about 1/8 and none stands out
    for card in (2, 5):
        s = HiddenCard.parse(f"{card} 8")
        e = parse_engine(spec)
        r = e.choose(s, seed=card)
        # several threads searched (on a loaded machine one of three may be scheduled only
        # after the others have used up the iterations)
        assert sum(n > 0 for n in e.tree().thread_iterations) >= 2
        assert max(x.value for x in r.stats) < 0.3, [(x.move, x.visits, x.value) for x in r.stats]
        true = next(x for x in r.stats if x.move == card)
        assert true.visits < 2 * r.iterations / 8


def test_pimc_threads_vote_without_the_hidden_card():
    # PIMC knows the card inside each world it draws (so its values are near 1), but the
    # votes come from the worlds, not from the true card: moving the card changes nothing
    a = parse_engine("pimc:worlds=6,iterations=200,threads=3").choose(HiddenCard.parse("2 8"), seed=1)
    b = parse_engine("pimc:worlds=6,iterations=200,threads=3").choose(HiddenCard.parse("5 8"), seed=1)
    assert [(x.move, x.visits, x.value) for x in a.stats] == [(x.move, x.visits, x.value) for x in b.stats]


@pytest.mark.parametrize("spec", ["mcts:time=0.2,threads=2", "ismcts:time=0.2,threads=2",
                                  "pimc:time=0.2,threads=2,worlds=3"])
def test_time_limits_hold_with_threads(spec):
    # a hang guard, not a speed test: the machine is shared
    s = Ducks.parse(OPENING)
    r = parse_engine(spec).choose(s, seed=1)
    assert r.move in s.legal() and r.seconds < 5.0


def test_a_kept_tree_searches_on_with_threads():
    s = Ducks.parse(OPENING)
    e = parse_engine("mcts:iterations=20000,threads=2")
    r = e.choose(s, seed=1)
    s.play_move(r.move)
    e.advance(r.move)
    reply = s.legal()[0]
    s.play_move(reply)
    e.advance(reply)
    r2 = e.choose(s, seed=2)
    assert r2.move in s.legal() and sum(x.visits for x in r2.stats) > 20000


@pytest.mark.parametrize("spec,message", [
    ("mcts:threads=0", "threads must be at least 1"),
    ("ismcts:threads=1000", "threads must be at most 256"),
    ("pimc:threads=0", "threads must be at least 1"),
    ("mcts:mem=0", "mem must be at least 1"),
    ("mcts:nodes=10", "nodes must be 0"),
    ("mcts:mem=1000000", "mem must be at most"),
])
def test_bad_thread_and_memory_settings_get_one_message(spec, message):
    from roost.core.errors import EngineSpecError
    with pytest.raises(EngineSpecError, match=message):
        parse_engine(spec)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("game", ["ducks", "connect4"])
def test_a_kept_subtree_is_copied_out_whole_and_the_rest_freed(game, threads):
    # past one chunk (65,536 nodes) advance() copies the subtree it keeps into a fresh store:
    # the statistics under the move played are all still there, and the memory shrinks
    info = get_game(game)
    s = info.parse(info.bench_position) if info.bench_position else info.start()
    if s.is_chance:
        s.play_unchecked(s.sample(0))
    e = parse_engine(f"mcts:iterations=40000,threads={threads},solver=0,widen=20")
    r = e.choose(s, seed=3)
    tree = e.tree()
    assert tree.count > 70000, "guard: the tree spans more than one chunk"
    before, memory = tree.count, tree.memory
    kept = next(x.visits for x in r.stats if x.move == r.move)
    s.play_unchecked(r.move)
    e.advance(r.move)
    assert tree.root == 0 and tree.count < before and tree.memory < memory
    while s.is_chance:          # a chance outcome the tree has not seen starts afresh
        outcome = s.sample(1)
        s.play_unchecked(outcome)
        e.advance(outcome)
    assert not s.is_over and tree.count > 1
    one = e.tree().search(s, iterations=1)
    # the kept node's first visit made it a leaf; every later one went to a child, except
    # that with threads a visit arriving while another thread expands the node plays out
    # from the node itself (docs/threads.md), so a few visits may stop there
    below = sum(x.visits for x in one.root_moves)
    if threads == 1:
        assert below == kept
    else:
        assert kept - 8 <= below <= kept
