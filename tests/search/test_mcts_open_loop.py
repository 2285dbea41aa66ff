"""Open-loop chance nodes (``mcts:chance=open``), checked against what they promise:

- a chance node keeps one child, whatever the outcomes drawn (closed loop keeps one per
  outcome, within progressive widening);
- below a chance node a pass considers exactly the children whose moves are legal in its
  own draw (the node was expanded in another);
- nothing below a chance node is proven (a proof in one draw is none in another), while
  the closed search does prove nodes there;
- the tree grows deeper below chance than closed loop's at the same iterations;
- deterministic for a seed, a legal move on every game, and no change at all on a game
  without chance or where the search is of information sets.
"""
import random

import pytest

from roost.core.games import all_games, get_game
from roost.search.engines import parse_engine

from tests.search.positions import tweeeet_middle  # noqa: E402

DICE = get_game("dice")


def searched(spec, state, iterations, seed=1):
    tree = parse_engine(spec).tree()
    tree.reseed(seed)
    tree.search(state, iterations=iterations)
    return tree


def below_chance(nodes, root):
    """{node: depth} of every node with a chance node above it."""
    out, todo = {}, [(root, False, 0)]
    while todo:
        k, crossed, depth = todo.pop()
        if crossed:
            out[k] = depth
        for c in nodes[k]["children"]:
            todo.append((c, crossed or nodes[k]["chance"], depth + 1))
    return out


@pytest.mark.parametrize("game,make", [("tweeeet", tweeeet_middle),
                                       ("dice", lambda: DICE.parse("0 0 6 0 -"))])
def test_a_chance_node_keeps_one_child(game, make):
    s = make()
    open_tree = searched("mcts:chance=open", s, 3000)
    widths = open_tree.chance_widths()
    assert len(widths) > 10 and all(kept == 1 for _, kept in widths)
    closed = searched("mcts:chance=closed", s, 3000).chance_widths()
    assert any(kept > 1 for _, kept in closed)


def test_a_pass_below_chance_considers_the_children_legal_in_its_draw():
    # replay paths of the tree in fresh draws: at each expanded decision node below a chance
    # node the filter must pass exactly the children whose moves are legal in this draw
    s = tweeeet_middle()
    tree = searched("mcts:chance=open", s, 4000)
    nodes = tree.tree_nodes()
    checked = differed = 0
    pick = random.Random(3)
    for seed in range(300):
        w, k, crossed, step = s.copy(), tree.root, False, 0
        while nodes[k]["children"] and not w.is_over:
            if nodes[k]["chance"]:
                assert w.is_chance
                w.play_unchecked(w.sample(1000 * seed + step))
                k, crossed = nodes[k]["children"][0], True
                continue
            assert not w.is_chance
            kids = nodes[k]["children"]
            moves = [nodes[c]["move"] for c in kids]
            legal = set(w.legal())
            allowed = tree.children_allowed_in(w, k)
            if crossed:
                assert allowed == [m for m in moves if m in legal], w.text()
                checked += 1
                differed += set(moves) != legal
            else:
                assert set(moves) == legal          # above chance: the one position there is
            choices = [c for c in kids if nodes[c]["move"] in legal and nodes[c]["visits"]]
            if not choices:
                break
            k = pick.choice(choices)
            w.play_unchecked(nodes[k]["move"])
            step += 1
    assert checked >= 40
    assert differed >= 1          # some draw made other moves legal: the filter mattered


def test_nothing_below_a_chance_node_is_proven():
    s = DICE.parse("0 0 6 0 -")
    for spec, proofs_below in (("mcts:chance=open", False), ("mcts:chance=closed", True)):
        tree = searched(spec, s, 20000)
        nodes = tree.tree_nodes()
        proven = [k for k in below_chance(nodes, tree.root) if nodes[k]["proven"]]
        assert bool(proven) == proofs_below, spec


def test_the_tree_grows_deeper_below_chance_than_closed_loop():
    s = tweeeet_middle()
    depth = {}
    for mode in ("open", "closed"):
        tree = searched(f"mcts:chance={mode},imm=0.5", s, 5000)
        depth[mode] = max(below_chance(tree.tree_nodes(), tree.root).values())
    assert depth["open"] > depth["closed"] + 2, depth


@pytest.mark.parametrize("options", ["chance=open", "chance=open,imm=0.8", "chance=open,imm=0.5,threads=2"])
def test_open_loop_changes_the_search_and_repeats_for_a_seed(options):
    s = tweeeet_middle()
    rows = {}
    for spec, seed in ((f"mcts:iterations=2000,{options}", 3), (f"mcts:iterations=2000,{options}", 3),
                       (f"mcts:iterations=2000,{options}", 4),
                       (f"mcts:iterations=2000,{options.replace('open', 'closed')}", 3)):
        r = parse_engine(spec).choose(s, seed=seed)
        assert r.move in s.legal()
        rows.setdefault(spec, []).append([(x.move, x.visits, round(x.value, 12)) for x in r.stats])
    mine = rows[f"mcts:iterations=2000,{options}"]
    if "threads" not in options:
        assert mine[0] == mine[1]                 # the same seed, the same search
    assert mine[0] != mine[2]
    assert mine[0] != rows[f"mcts:iterations=2000,{options.replace('open', 'closed')}"][0]


@pytest.mark.parametrize("info", all_games(), ids=lambda g: g.name)
def test_open_loop_plays_a_legal_move_on_every_game(info):
    s = info.start(players=info.default_players, seed=7)
    while s.is_chance:
        s.play_unchecked(s.sample(3))
    for step in range(3):
        if s.is_over:
            break
        r = parse_engine("mcts:iterations=300,chance=open,imm=0.5").choose(s, seed=step)
        assert r.move in s.legal()
        s.play_unchecked(r.move)
        while s.is_chance and not s.is_over:
            s.play_unchecked(s.sample(step))


@pytest.mark.parametrize("game,make", [
    ("connect4", lambda: get_game("connect4").parse("4453")),          # no chance at all
    ("cubirds", lambda: get_game("cubirds").start(players=3, seed=4)),  # information sets
])
def test_open_loop_changes_nothing_without_closed_chance_nodes(game, make):
    s = make()
    stats = []
    for mode in ("open", "closed"):
        r = parse_engine(f"mcts:iterations=400,chance={mode}").choose(s, seed=2)
        stats.append([(x.move, x.visits, round(x.value, 12)) for x in r.stats])
    assert stats[0] == stats[1]


def test_tree_reuse_keeps_a_decision_subtree_and_drops_a_chance_root():
    s = tweeeet_middle()
    engine = parse_engine("mcts:iterations=3000,chance=open")
    r = engine.choose(s, seed=1)
    tree = engine.tree()
    kept = len(tree.tree_nodes())
    engine.advance(r.move)                      # the move just searched: its subtree stays
    assert 1 < len(tree.tree_nodes()) < kept
    s.play_unchecked(r.move)
    assert s.is_chance                          # (this flight lays a row)
    engine.advance(s.sample(5))                 # the outcome drawn in the game
    assert len(tree.tree_nodes()) == 1          # a fresh tree: below was grown in other draws


def test_bad_chance_mode_is_one_clear_message():
    from roost.core.errors import EngineSpecError
    with pytest.raises(EngineSpecError, match="chance"):
        parse_engine("mcts:chance=ajar")
