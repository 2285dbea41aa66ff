"""The MCTS options that bring knowledge into the playouts and the tree, each checked
against what it promises:

- playout=eval: with epsilon 0, every playout move is one the game's evaluation likes best
  for its mover; epsilon 1 plays other moves;
- playout=mast: a playout takes the move with the best average result, and a search credits
  the moves it played with their mover's result;
- playout=decisive: a playout takes a move that wins at once whenever the game names one
  (State.search_moves), and never one the game knows to lose while another is left;
- imm=: every node's implicit minimax value is its evaluation (a leaf) or the max / min
  of its children's (a decision node), the visit-weighted mean at a chance node;
- bias=: new moves are tried best-evaluated first and a heavy bias spends the visits on the
  best-evaluated move;
- rave= and grave=: step by step, selection blends each move's mean with its AMAF mean (read
  at the node, or at GRAVE's reference ancestor) and each iteration credits exactly the moves
  played later by their movers;
- discount=: a playout's result after p plies keeps discount^p of its margin over the
  players' mean (exactly, after one iteration), and alone a player has no margin;
- every option changes the search, is deterministic for a seed, answers within its limits
  and plays legal moves on every game; bad values are one clear message.
"""
import math

import pytest

from roost.core.ducks import Ducks
from roost.core.errors import EngineSpecError
from roost.core.games import get_game
from roost.search.engines import parse_engine
from roost.search.mcts import MCTS
from roost.search.playout import POLICIES, Playout

from tests.core.ducks.crumbs import crumb_result  # noqa: E402
from tests.search.positions import tweeeet_middle  # noqa: E402

DUCKS_MIDDLE = "bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0"
DUCKS_LATE = "5/2bb2/*wbb3/1bbbwb2/2bwbw3/1wwwwb2/1wbww2/3w2/5 b 39"
DUCKS_WIN_IN_ONE = "5/6/2bw1w1/3bwww1/2bbwww2/1bbbbwb1/1*wwbw1/2bb2/5 b 35"


POSITIONS = [("ducks", lambda: Ducks.parse(DUCKS_MIDDLE)), ("tweeeet", tweeeet_middle)]
OPTION_SPECS = ["playout=eval", "playout=eval,epsilon=0.5,plies=6", "playout=mast",
                "imm=0.5", "imm=1,plies=2", "bias=2", "rave=50", "rave=50,grave=20",
                "imm=0.3,bias=0.5,playout=mast,plies=10,rave=100", "playout=decisive",
                "playout=decisive,plies=30,imm=0.5", "discount=0.97",
                "discount=0.9,c=0.3,playout=decisive"]


def value_after(state, move, player):
    c = state.copy()
    c.play_unchecked(move)
    return c.result()[player] if c.is_over else c.evaluate_for(player)


def value_for_player0(state):
    return state.result()[0] if state.is_over else state.evaluate_for(0)


# ---------------------------------------------------------------- playout policies
@pytest.mark.parametrize("game,make", POSITIONS)
def test_greedy_eval_playouts_take_a_move_the_evaluation_likes_best(game, make):
    s = make()
    line = Playout(POLICIES["eval"], 0.0).trace(s, seed=3, max_plies=40)
    w, checked = s.copy(), 0
    for player, move in line:
        if player >= 0:
            assert player == w.player
            values = {m: value_after(w, m, player) for m in w.legal()}
            assert values[move] == pytest.approx(max(values.values()), abs=1e-12), (game, w.text())
            checked += len(values) > 1 and min(values.values()) < max(values.values())
        w.play_unchecked(move)
    assert checked >= 5          # choices that mattered


@pytest.mark.parametrize("policy", ["random", "eval", "mast", "decisive"])
def test_a_trace_holds_its_own_playout_only(policy):
    # the same Playout traced again with the same seed gives the same line, not the first
    # line followed by the second (the trail is emptied after each trace)
    s = Ducks.parse(DUCKS_MIDDLE)
    p = Playout(POLICIES[policy], 0.0)
    first = p.trace(s, seed=2, max_plies=6)
    assert len(first) == 6
    assert p.trace(s, seed=2, max_plies=6) == first
    assert p.trace(s, seed=2, max_plies=3) == first[:3]


def test_decisive_playouts_take_every_win_and_no_move_that_loses_at_once():
    # Feed the Ducks (docs/rules/ducks.md §6.2): a crumb that gathers the mover's ducks wins, one
    # that gathers only the opponent's loses; each ply of the traced playouts checked by
    # playing every legal crumb
    wins = avoided = 0
    for seed in range(40):
        s = Ducks.parse(DUCKS_MIDDLE)
        w = s.copy()
        for player, move in Playout(POLICIES["decisive"], 0.0).trace(s, seed=seed):
            assert player == w.player
            results = [crumb_result(w, m) for m in w.legal()]
            if "win" in results:
                assert crumb_result(w, move) == "win", w.text()
                wins += 1
            elif any(r != "loss" for r in results):
                assert crumb_result(w, move) != "loss", w.text()
                avoided += "loss" in results
            w.play_unchecked(move)
        assert w.is_over                       # played to the end (no cut-off)
    # the playouts end by a side taking its win (a random playout ends by accident), and
    # losing crumbs were there to avoid
    assert wins >= 35 and avoided >= 5, (wins, avoided)


def test_decisive_playouts_play_random_moves_where_the_game_names_no_win():
    # Tweeeet does not override search_moves: its decisive playout is a uniformly random one
    s = tweeeet_middle()
    draws = 600
    assert_uniform(first_move_counts("decisive", s, draws), s.legal(), draws)


def test_epsilon_is_the_share_of_random_moves_in_eval_playouts():
    s = Ducks.parse(DUCKS_MIDDLE)
    for epsilon, lo, hi in ((0.0, 1.0, 1.0), (1.0, 0.0, 0.6)):
        greedy = total = 0
        for seed in range(5):
            w = s.copy()
            for player, move in Playout(POLICIES["eval"], epsilon).trace(s, seed=seed, max_plies=20):
                values = [value_after(w, m, player) for m in w.legal()]
                greedy += value_after(w, move, player) == max(values)
                total += 1
                w.play_unchecked(move)
        assert lo <= greedy / total <= hi, epsilon


def test_mast_playouts_take_the_move_with_the_best_average():
    s = Ducks.parse(DUCKS_MIDDLE)
    legal, me = s.legal(), s.player
    for favourite in (legal[1], legal[-1]):
        p = Playout(POLICIES["mast"], 0.0)
        for m in legal:
            if m != favourite:
                p.teach(me, m, 0.3)
        p.teach(me, favourite, 0.9)
        p.teach(me, favourite, 0.7)
        assert p.mast_mean(me, favourite) == pytest.approx(0.8)
        assert p.trace(s, seed=1, max_plies=1) == [(me, favourite)]


def first_move_counts(policy, state, draws):
    """How often a greedy playout (epsilon 0) of `policy` from `state` plays each first move."""
    counts = {}
    for seed in range(draws):
        (_, move), = Playout(POLICIES[policy], 0.0).trace(state, seed=seed, max_plies=1)
        counts[move] = counts.get(move, 0) + 1
    return counts


def assert_uniform(counts, moves, draws):
    # each of the tied moves 1/n of the time, within 6 standard deviations (fixed seeds: a
    # failure is a bias in the tie-break, not bad luck)
    p = 1 / len(moves)
    sd = math.sqrt(draws * p * (1 - p))
    assert set(counts) == set(moves)
    for m in moves:
        assert abs(counts[m] - draws * p) <= 6 * sd, (m, counts[m], draws * p)


def test_greedy_eval_playouts_break_ties_uniformly():
    # at the start of Ducks half the moves share the best evaluation: the playout must pick
    # among them alike, not always the first or the last one met
    s = Ducks.parse("5/6/7/8/9/8/7/6/5 w 0")
    values = {m: value_after(s, m, s.player) for m in s.legal()}
    best = [m for m, v in values.items() if v == max(values.values())]
    assert 1 < len(best) < len(values)
    draws = 30 * len(best)
    assert_uniform(first_move_counts("eval", s, draws), best, draws)


def test_mast_playouts_with_nothing_learnt_pick_every_move_alike():
    # a fresh table rates every move 0.5: all are tied, so each comes up 1/n of the time
    s = Ducks.parse(DUCKS_MIDDLE)
    p = Playout(POLICIES["mast"], 0.0)
    assert all(p.mast_mean(s.player, m) is None for m in s.legal())
    draws = 30 * len(s.legal())
    assert_uniform(first_move_counts("mast", s, draws), s.legal(), draws)


def test_a_mast_search_credits_each_move_with_its_movers_result():
    # a4 wins at once: every iteration through it is a win for Black, learnt from the tree
    # part of the iteration (the game ends there; no playouts, plies=0, so a4 is not also
    # played at random elsewhere)
    s = Ducks.parse(DUCKS_WIN_IN_ONE)
    tree = parse_engine("mcts:playout=mast,solver=0,plies=0").tree()
    tree.search(s, iterations=400)
    win = s.parse_move("a4")
    assert tree.playout.mast_mean(s.player, win) > 0.95
    others = [tree.playout.mast_mean(s.player, m) for m in s.legal() if m != win]
    assert max(v for v in others if v is not None) < 0.7


# ---------------------------------------------------------------- evaluation in the tree
def check_tree(tree, root_state, check_imm):
    """Walk the tree, replaying its edges: heur is each new move's evaluation for its mover;
    with `check_imm`, imm follows the implicit minimax rule everywhere."""
    nodes = tree.tree_nodes()
    seen = {"leaf": 0, "decision": 0, "chance": 0}

    def walk(i, state):
        nd = nodes[i]
        kids = [nodes[k] for k in nd["children"]]
        for k in nd["children"]:
            ch = nodes[k]
            if not nd["chance"] and ch["mover"] >= 0:
                assert ch["heur"] == pytest.approx(value_after(state, ch["move"], ch["mover"]), abs=1e-6)
            c = state.copy()
            c.play_unchecked(ch["move"])
            walk(k, c)
        if not check_imm or (i != tree.root and nd["visits"] == 0 and not kids):
            return
        if nd["chance"]:
            visited = [ch for ch in kids if ch["visits"] > 0]
            want = sum(ch["imm"] * ch["visits"] for ch in visited) / sum(ch["visits"] for ch in visited)
            seen["chance"] += 1
        elif nd["expanded"]:
            mover = kids[0]["mover"]
            want = (max if mover == 0 else min)(ch["imm"] for ch in kids)
            seen["decision"] += 1
        elif i != tree.root:
            want = value_for_player0(state)
            seen["leaf"] += 1
        else:
            return
        assert nd["imm"] == pytest.approx(want, abs=1e-5), state.text()

    walk(tree.root, root_state.copy())
    return seen


@pytest.mark.parametrize("game,make", POSITIONS + [("dice", lambda: get_game("dice").start(seed=1))])
def test_implicit_minimax_values_are_the_evaluation_backed_up(game, make):
    # (Dice Race: a few dice outcomes, each drawn many times, so a chance node's
    # visit-weighted mean differs from a plain one)
    s = make()
    tree = parse_engine("mcts:imm=0.5,plies=4,solver=0").tree()
    tree.reseed(2)
    tree.search(s, iterations=600)
    seen = check_tree(tree, s, check_imm=True)
    assert seen["decision"] > 20 and seen["leaf"] > 20
    if game != "ducks":
        assert seen["chance"] > 5


def test_a_new_move_is_tried_best_evaluated_first():
    s = tweeeet_middle()
    for spec in ("bias=1", "imm=0.5"):
        tree = parse_engine(f"mcts:{spec}").tree()
        r = tree.search(s, iterations=1)
        heur = {m: value_after(s, m, s.player) for m in s.legal()}
        tried = [st.move for st in r.root_moves if st.visits]
        assert len(tried) == 1 and heur[tried[0]] == max(heur.values()), spec


@pytest.mark.parametrize("game,make", POSITIONS)
def test_a_heavy_bias_spends_the_visits_on_the_best_evaluated_move(game, make):
    s = make()
    heur = {m: value_after(s, m, s.player) for m in s.legal()}
    assert min(heur.values()) < max(heur.values())
    r = parse_engine("mcts:iterations=1500,c=0,bias=1000,plies=0,solver=0").choose(s, seed=1)
    assert heur[r.move] == pytest.approx(max(heur.values()))
    check_tree(parse_engine("mcts:bias=1").tree(), s, check_imm=False)


# ---------------------------------------------------------------- every option
@pytest.mark.parametrize("game,make", POSITIONS)
@pytest.mark.parametrize("options", OPTION_SPECS)
def test_each_option_changes_the_search_and_repeats_for_a_seed(game, make, options):
    s = make()
    rows = {}
    for spec, seed in ((f"mcts:iterations=300,{options}", 3), (f"mcts:iterations=300,{options}", 3),
                       (f"mcts:iterations=300,{options}", 4), ("mcts:iterations=300", 3)):
        r = parse_engine(spec).choose(s, seed=seed)
        assert r.move in s.legal()
        rows.setdefault(spec, []).append([(x.move, x.visits, round(x.value, 12)) for x in r.stats])
    mine = rows[f"mcts:iterations=300,{options}"]
    assert mine[0] == mine[1]                     # the same seed, the same search
    assert mine[0] != mine[2]                     # another seed, another search
    assert mine[0] != rows["mcts:iterations=300"][0]   # the option does something


@pytest.mark.parametrize("spec", ["ismcts:iterations=300,playout=mast", "ismcts:iterations=300,playout=eval",
                                  "pimc:worlds=2,iterations=150,playout=eval,imm=0.5,bias=1"])
def test_hidden_information_engines_take_the_playout_options(spec):
    s = get_game("cubirds").start(players=3, seed=4)
    r = parse_engine(spec).choose(s, seed=5)
    assert r.move in s.legal()
    assert [x.visits for x in r.stats] == [x.visits for x in parse_engine(spec).choose(s, seed=5).stats]


@pytest.mark.parametrize("spec,fault", [
    ("mcts:playout=greedy", "playout must be one of random, eval, mast"),
    ("mcts:epsilon=1.5", "epsilon must be at most 1"),
    ("mcts:epsilon=-0.1", "epsilon must be at least 0"),
    ("mcts:imm=2", "imm must be at most 1"),
    ("mcts:bias=-1", "bias must be at least 0"),
    ("mcts:bias=nan", "bias must be a finite number"),
    ("ismcts:imm=0.5", "engine 'ismcts' has no parameter 'imm'"),
    ("pimc:playout=mast,epsilon=x", "epsilon must be a number"),
    ("mcts:discount=0", "discount must be at least 0.01"),
    ("ismcts:discount=1.5", "discount must be at most 1"),
])
def test_bad_option_values_are_one_clear_message(spec, fault):
    with pytest.raises(EngineSpecError) as e:
        parse_engine(spec)
    assert fault in str(e.value)


def test_the_library_refuses_bad_option_values_too():
    with pytest.raises(ValueError, match="imm 0..1"):
        MCTS(capacity=1000, imm=1.5)
    with pytest.raises(ValueError, match="bias 0..1e6"):
        MCTS(capacity=1000, bias=-1.0)
    with pytest.raises(ValueError, match="epsilon"):
        MCTS(capacity=1000, policy=POLICIES["eval"], epsilon=2.0)
    with pytest.raises(ValueError, match="unknown playout policy"):
        Playout(7)
    with pytest.raises(ValueError, match="discount out of range"):
        MCTS(capacity=1000, discount=0.0)


# ---------------------------------------------------------------- discount
@pytest.mark.parametrize("discount", [0.9, 0.97, 1.0])
def test_a_discounted_playout_keeps_discount_to_the_plies_of_its_margin(discount):
    # one iteration expands the root and plays one child out: that child's value is the
    # playout's result for its mover, shrunk toward the players' mean by discount^plies
    s = Ducks.parse(DUCKS_MIDDLE)
    seen = set()
    for seed in range(1, 9):
        t = MCTS(capacity=10000, seed=seed, solver=False, discount=discount)
        r = t.search(s, iterations=1, seconds=0)
        plies = r.playout_plies
        (child,) = [st for st in r.root_moves if st.visits == 1]
        margin = abs(child.value - 0.5)
        assert plies > 0 and margin in (0.0, pytest.approx(0.5 * discount ** plies, rel=1e-12))
        seen.add(margin > 0)
    assert True in seen          # decided playouts were among them


@pytest.mark.parametrize("game,players,differs", [("wingspan", 1, False), ("cubirds", 3, True)])
def test_discount_changes_a_search_of_several_players_and_not_of_one(game, players, differs):
    s = get_game(game).start(players=players, seed=3)
    rows = [[(x.move, x.visits, x.value) for x in parse_engine(spec).choose(s, seed=2).stats]
            for spec in ("ismcts:iterations=200", "ismcts:iterations=200,discount=0.9")]
    assert (rows[0] != rows[1]) == differs


# ---------------------------------------------------------------- RAVE and GRAVE
def iteration_path(before, after, root):
    """The nodes one iteration visited, from the root down (their visits went up)."""
    path, node = [root], root
    while True:
        nxt = [k for k in after[node]["children"]
               if after[k]["visits"] > before.get(k, {"visits": 0})["visits"]]
        if not nxt:
            return path
        assert len(nxt) == 1
        node = nxt[0]
        path.append(node)


def stats(nodes, k):
    return nodes.get(k, {"visits": 0, "value": 0.0, "amaf_visits": 0, "amaf_value": 0.0})


def predicted_children(before, after, node, ref, c, rave):
    """The children of `node` that UCB with RAVE (AMAF statistics read at `ref`) may pick,
    from the statistics before the iteration (a node expanded in this iteration has none
    yet): the best, and any within rounding of it (the compiled arithmetic may fuse)."""
    kids = after[node]["children"]
    lg = math.log(stats(before, node)["visits"] + 1.0)
    amaf = {after[k]["move"]: (stats(before, k)["amaf_visits"], stats(before, k)["amaf_value"])
            for k in after[ref]["children"]}
    scores = {}
    for k in kids:
        n, v = stats(before, k)["visits"], stats(before, k)["value"]
        an, av = amaf.get(after[k]["move"], (0, 0.0))
        if n == 0 and an == 0:
            return {k}                     # the first untried move AMAF has not seen
        if n == 0:
            score = av / an + c * math.sqrt(lg)
        else:
            q = v / n
            if an:
                beta = an / (an + n + an * n / rave)
                q += beta * (av / an - q)
            score = q + c * math.sqrt(lg / n)
        scores[k] = score
    top = max(scores.values())
    return {k for k, v in scores.items() if v >= top - 1e-9}


@pytest.mark.parametrize("grave", [0, 12])
def test_rave_selection_and_amaf_credit_step_by_step(grave):
    # one iteration at a time on a game without chance (plies=0: the evaluation at each new
    # leaf); every step is checked against the rule: selection by the blended means at every
    # node of the path (GRAVE: AMAF read at the deepest node of the same player with at
    # least `grave` visits), and AMAF credit for every child whose move its mover played at
    # that ply or later in the iteration, with that mover's result
    s = Ducks.parse(DUCKS_LATE)                 # 27 moves: a tree some plies deep
    c, rave = 0.7, 40.0
    tree = MCTS(capacity=100000, c=c, solver=False, playout_plies=0, rave=rave, grave=grave)
    before = tree.tree_nodes()
    deep = from_ancestor = 0
    for _ in range(400):
        tree.search(s, iterations=1)
        after = tree.tree_nodes()
        path = iteration_path(before, after, tree.root)
        deep = max(deep, len(path))
        refs = {}
        for node, child in zip(path, path[1:]):
            player = after[child]["mover"]
            if player not in refs or stats(before, node)["visits"] >= grave:
                refs[player] = node
            assert child in predicted_children(before, after, node, refs[player], c, rave)
            from_ancestor += refs[player] != node
        result = {}
        for node in path[1:]:
            result[after[node]["mover"]] = after[node]["value"] - stats(before, node)["value"]
        for p in (0, 1):
            result.setdefault(p, 1.0 - result.get(1 - p, 0.5))
        later = set()
        for i in range(len(path) - 1, -1, -1):
            if i + 1 < len(path):
                later.add((after[path[i + 1]]["mover"], after[path[i + 1]]["move"]))
            for k in after[path[i]]["children"]:
                credited = (after[k]["mover"], after[k]["move"]) in later
                b, a = stats(before, k), after[k]
                assert a["amaf_visits"] - b["amaf_visits"] == credited
                assert a["amaf_value"] - b["amaf_value"] == pytest.approx(
                    result[a["mover"]] if credited else 0.0, abs=1e-4)
        before = after
    assert deep >= 4
    assert (from_ancestor > 5) == (grave > 0)


@pytest.mark.parametrize("playout", ["random", "eval"])
def test_rave_credits_the_moves_of_the_playouts_too(playout):
    # each playout plays several moves of the root player, each of them a root move: the
    # root's children get many AMAF samples per iteration, not just the tree's one or two
    s = Ducks.parse(DUCKS_MIDDLE)
    tree = parse_engine(f"mcts:rave=100,solver=0,playout={playout}").tree()
    tree.search(s, iterations=200)
    nodes = tree.tree_nodes()
    kids = [nodes[k] for k in nodes[tree.root]["children"]]
    assert sum(k["amaf_visits"] for k in kids) > 3 * sum(k["visits"] for k in kids)
    assert all(k["amaf_visits"] >= k["visits"] for k in kids)


@pytest.mark.parametrize("weight,bias", [(0.6, 0.0), (0.3, 0.5)])
def test_implicit_minimax_selection_step_by_step(weight, bias):
    # imm=0.6: a visited move scores (1 - 0.6) * mean + 0.6 * minimax value for its mover
    # + exploration (+ bias * evaluation / (visits + 1): progressive bias fades with the
    # visits); untried moves come first, the best evaluated first
    s = Ducks.parse(DUCKS_LATE)
    c = 0.7
    tree = MCTS(capacity=100000, c=c, solver=False, playout_plies=0, imm=weight, bias=bias)
    before = tree.tree_nodes()
    steps = 0
    for _ in range(300):
        tree.search(s, iterations=1)
        after = tree.tree_nodes()
        path = iteration_path(before, after, tree.root)
        for node, child in zip(path, path[1:]):
            kids = after[node]["children"]
            # what selection saw: the statistics before the iteration (a child created in
            # it has its evaluation and no visits yet)
            seen = {k: before.get(k, dict(after[k], visits=0, value=0.0)) for k in kids}
            fresh = [k for k in kids if seen[k]["visits"] == 0]
            if fresh:
                top = max(seen[k]["heur"] for k in fresh)
                allowed = {k for k in fresh if seen[k]["heur"] >= top - 1e-7}
            else:
                lg = math.log(before[node]["visits"] + 1.0)
                scores = {}
                for k in kids:
                    st = seen[k]
                    q = st["value"] / st["visits"]
                    mm = st["imm"] if st["mover"] == 0 else 1.0 - st["imm"]
                    scores[k] = (q + weight * (mm - q) + c * math.sqrt(lg / st["visits"])
                                 + bias * st["heur"] / (st["visits"] + 1.0))
                top = max(scores.values())
                allowed = {k for k, v in scores.items() if v >= top - 1e-9}
                steps += 1
            assert child in allowed
        before = after
    assert steps > 100


# ---------------------------------------------------------------- the options on threads
# Each thread has its own Playout (scratch position, trail, AMAF marks; its own random
# stream); the MAST table is shared with atomic adds, AMAF counts and sums are atomic adds
# on the nodes, and implicit minimax values are atomic stores (see src/search/mcts.pyx).
@pytest.mark.parametrize("game,make", POSITIONS)
@pytest.mark.parametrize("options", OPTION_SPECS)
def test_each_option_runs_on_two_threads_within_its_limits(game, make, options):
    s = make()
    e = parse_engine(f"mcts:iterations=3000,threads=2,{options}")
    r = e.choose(s, seed=3)
    assert r.move in s.legal() and r.iterations == 3000
    # the iterations are claimed first come: on a loaded machine the calling thread can
    # finish a budget this small before the helper is scheduled, so here only the count
    # is checked, and that both threads worked on the timed search below
    done = e.tree().thread_iterations
    assert len(done) == 2 and sum(done) == 3000
    nodes = e.tree().tree_nodes()
    # every iteration visits the root once; it passes through one root child, counted once,
    # unless it met the root while the other thread was expanding it (it then plays out
    # from the root instead of waiting, for as long as the expansion takes: on a loaded
    # machine the expanding thread can be descheduled for most of so small a budget)
    assert nodes[e.tree().root]["visits"] == 3000
    assert 0 < sum(x.visits for x in r.stats) <= 3000
    if "imm" in options:
        assert all(0.0 <= nd["imm"] <= 1.0 for nd in nodes.values() if nd["visits"] > 1)
    if "rave" in options:
        kids = [nodes[k] for k in nodes[e.tree().root]["children"]]
        # an iteration through a root move credits that move's AMAF statistics: no atomic
        # add may be lost between the threads
        assert all(k["amaf_visits"] >= k["visits"] for k in kids)
        assert all(0.0 <= k["amaf_value"] <= k["amaf_visits"] + 1e-3 for k in kids)
    # long enough that both threads are scheduled on a loaded machine
    timed_engine = parse_engine(f"mcts:time=0.4,threads=2,{options}")
    timed = timed_engine.choose(s, seed=4)
    assert timed.move in s.legal() and timed.seconds < 3.0
    worked = timed_engine.tree().thread_iterations
    assert len(worked) == 2 and min(worked) > 0 and sum(worked) == timed.iterations


def test_the_threads_of_a_search_share_one_mast_table():
    # the winning move's average is learnt from both threads' iterations: each thread's
    # Playout reads and writes the first thread's table
    s = Ducks.parse(DUCKS_WIN_IN_ONE)
    e = parse_engine("mcts:playout=mast,solver=0,plies=0,threads=2")
    e.tree().search(s, iterations=200000)
    tree = e.tree()
    assert min(tree.thread_iterations) > 0
    win = s.parse_move("a4")
    assert tree.playout.mast_mean(s.player, win) > 0.95
    one = parse_engine("mcts:playout=mast,solver=0,plies=0").tree()
    one.search(s, iterations=200000)
    # both threads learnt into it: about as many credits as one thread's whole search (a
    # table of the first thread's own would hold about half)
    shared = sum(tree.playout.mast_credits(s.player, m) for m in s.legal())
    alone = sum(one.playout.mast_credits(s.player, m) for m in s.legal())
    assert shared > 0.8 * alone


@pytest.mark.parametrize("options", ["rave=50", "imm=0.5,bias=1", "playout=mast", "playout=eval"])
def test_one_thread_repeats_itself_with_the_threaded_searcher(options):
    s = Ducks.parse(DUCKS_MIDDLE)
    a = parse_engine(f"mcts:iterations=2000,{options}").choose(s, seed=9)
    b = parse_engine(f"mcts:iterations=2000,threads=1,{options}").choose(s, seed=9)
    assert [(x.move, x.visits, x.value) for x in a.stats] == [(x.move, x.visits, x.value) for x in b.stats]


@pytest.mark.parametrize("spec", ["ismcts:iterations=600,playout=mast,threads=2",
                                  "ismcts:iterations=600,playout=eval,threads=2",
                                  "pimc:worlds=3,iterations=150,playout=eval,imm=0.5,bias=1,threads=2",
                                  "pimc:worlds=3,iterations=150,playout=mast,rave=50,grave=5,threads=3"])
def test_hidden_information_engines_take_the_options_on_threads(spec):
    s = get_game("cubirds").start(players=3, seed=4)
    r = parse_engine(spec).choose(s, seed=5)
    assert r.move in s.legal()
    if spec.startswith("pimc"):
        # PIMC's worlds are searched alone, each on its own tree and thread: the votes are
        # those of one thread
        one = parse_engine(spec.rsplit(",threads=", 1)[0]).choose(s, seed=5)
        assert [(x.move, x.visits) for x in r.stats] == [(x.move, x.visits) for x in one.stats]
