"""The benchmark behind ``roost bench`` and ``benchmarks/``: on each game's fixed
``bench_position`` it measures perft leaves/s, random playouts/s (one call from Python a
playout, and in the native loop MCTS runs), MCTS iterations/s and alpha-beta nodes/s.  Work per game is fixed (depths, counts), so the
alpha-beta node total is a deterministic signature of the search, as Stockfish's bench.

With ``threads`` > 1 the searchers that take threads run twice, with one thread and with
that many, and the row gives both rates and the ratios (the scaling); the signature stays
the one-thread count (a threaded search's node count differs from run to run)."""
import time

from roost.core.state import playout_batch
from roost.search.alphabeta_engine import AlphaBetaEngine
from roost.search.mcts_engine import MctsEngine
from roost.search.spec import EngineSpec

# Fixed work per game, sized for about a second each on a 2020s laptop core ("native":
# the playouts of the native loop, which benchmarks/playouts.py runs too).
WORK = {
    "ducks": {"perft": 5, "playouts": 30000, "native": 200000, "mcts": 30000, "ab": 8},
    "tweeeet": {"perft": 6, "playouts": 30000, "native": 100000, "mcts": 30000, "ab": 5},
    "cubirds": {"perft": 4, "playouts": 10000, "native": 40000, "mcts": 20000, "ab": 4},
    # refills draw from up to 47 tiles: the bench samples 4 of them at each chance node
    "leaves": {"perft": 3, "playouts": 10000, "native": 200000, "mcts": 5000, "ab": 2,
               "ab_options": {"exact": 4, "samples": 4}},
    # small branching (about 3) and no chance nodes (the RNG is in the position)
    "wingspan": {"perft": 12, "playouts": 20000, "native": 20000, "mcts": 20000, "ab": 16},
    "connect4": {"native": 2000000},
}
DEFAULT_WORK = {"perft": 3, "playouts": 3000, "native": 20000, "mcts": 5000, "ab": 4}


def work_for(name, quick=False):
    w = dict(DEFAULT_WORK)
    w.update(WORK.get(name, {}))
    if quick:
        w.update(perft=max(1, w["perft"] - 2), playouts=max(10, w["playouts"] // 100),
                 native=max(10, w["native"] // 100), mcts=max(50, w["mcts"] // 100), ab=max(1, w["ab"] - 3))
    return w


def ab_spec(work, players):
    """The alpha-beta of a bench row: the row's depth and options, paranoid with 3+ players."""
    return EngineSpec.of(AlphaBetaEngine, depth=work["ab"], paranoid=players > 2,
                         **work.get("ab_options", {}))


def bench_state(info, players=None):
    """The fixed position a game is measured from: its bench_position, or for another
    player count a fresh start (seed 0) after 12 seeded random plies."""
    if info.bench_position:
        state = info.parse(info.bench_position)
        if players is None or players == state.players:
            return state
    from roost.arena.match import random_opening
    return random_opening(info.start(players=players, seed=0), 12, seed=0)


def bench_game(info, quick=False, players=None, threads=1):
    """One row of the bench table for a GameInfo."""
    state = bench_state(info, players)
    w = work_for(info.name, quick)
    row = {"game": info.name, "players": state.players, "threads": threads}

    t0 = time.perf_counter()
    leaves = state.perft(w["perft"])
    dt = time.perf_counter() - t0
    row.update(perft_depth=w["perft"], perft_leaves=leaves, perft_leaves_per_s=leaves / dt if dt else 0.0)

    t0 = time.perf_counter()
    plies = 0
    for i in range(w["playouts"]):
        plies += state.copy().random_playout(seed=i)
    dt = time.perf_counter() - t0
    row.update(playouts=w["playouts"], playouts_per_s=w["playouts"] / dt if dt else 0.0,
               playout_plies=plies / w["playouts"])

    # the playouts alone: a copy of the position and the game's playout, in MCTS's loop;
    # processor time, as benchmarks/playouts.py measures it beside the plain-C probe
    t0 = time.process_time()
    playout_batch(state, w["native"], 1)
    dt = time.process_time() - t0
    row.update(native_playouts=w["native"], native_playouts_per_s=w["native"] / dt if dt else 0.0)

    decision = state
    if decision.is_chance:
        decision = decision.copy()
        decision.play_unchecked(decision.sample(0))
    spec = EngineSpec.of(MctsEngine, iterations=w["mcts"])
    r = spec.engine().choose(decision, seed=1)
    row.update(mcts_iterations=r.iterations, mcts_iterations_per_s=r.speed)
    if threads > 1:
        r = spec.replace(threads=threads).engine().choose(decision, seed=1)
        row.update(mcts_threaded_iterations_per_s=r.speed)

    spec = ab_spec(w, decision.players)
    r = spec.engine().choose(decision, seed=1)
    row.update(ab_depth=w["ab"], ab_nodes=r.nodes, ab_nodes_per_s=r.speed, ab_seconds=r.seconds)
    if threads > 1:
        r = spec.replace(threads=threads).engine().choose(decision, seed=1)
        row.update(ab_threaded_nodes=r.nodes, ab_threaded_nodes_per_s=r.speed,
                   ab_threaded_seconds=r.seconds)
    return row


def run(games=None, quick=False, on_row=None, players=None, threads=1):
    """Bench rows for the named games (default all); ``players`` measures every game that
    can be played by that many (the others are left out); ``threads`` > 1 adds the
    searchers' rates with that many threads."""
    from roost.core.games import all_games
    infos = [g for g in all_games() if (games is None or g.name in games)
             and (players is None or g.min_players <= players <= g.max_players)]
    rows = []
    for g in infos:
        rows.append(bench_game(g, quick, players, threads))
        if on_row is not None:
            on_row(rows[-1])
    return rows


HEADER = (f"{'game':<9} {'p':>1} {'perft leaves/s':>16} {'playouts/s':>12} {'native':>12} "
          f"{'MCTS it/s':>11} {'AB nodes/s':>12}  work")


def format_row(r):
    return (f"{r['game']:<9} {r['players']:>1} {r['perft_leaves_per_s']:>16,.0f} {r['playouts_per_s']:>12,.0f} "
            f"{r['native_playouts_per_s']:>12,.0f} "
            f"{r['mcts_iterations_per_s']:>11,.0f} {r['ab_nodes_per_s']:>12,.0f}  "
            f"perft {r['perft_depth']} = {r['perft_leaves']:,}; {r['playouts']:,} playouts "
            f"({r['playout_plies']:.0f} plies avg), {r['native_playouts']:,} native; "
            f"{r['mcts_iterations']:,} it; "
            f"ab depth {r['ab_depth']} = {r['ab_nodes']:,} nodes")


def _ratio(a, b):
    return a / b if b else 0.0


def format_scaling(r):
    """The threaded line under a row: rates with N threads and their ratios to one thread."""
    text = (f"{'':<9}   {r['threads']} threads: AB {r['ab_threaded_nodes_per_s']:,.0f} nodes/s "
            f"(x{_ratio(r['ab_threaded_nodes_per_s'], r['ab_nodes_per_s']):.2f}), depth {r['ab_depth']} "
            f"in {r['ab_threaded_seconds']:.2f} s against {r['ab_seconds']:.2f} s "
            f"(x{_ratio(r['ab_seconds'], r['ab_threaded_seconds']):.2f} sooner)")
    if "mcts_threaded_iterations_per_s" in r:
        text += (f"; MCTS {r['mcts_threaded_iterations_per_s']:,.0f} it/s "
                 f"(x{_ratio(r['mcts_threaded_iterations_per_s'], r['mcts_iterations_per_s']):.2f})")
    return text


def signature(rows):
    return f"signature (alpha-beta nodes): {sum(r['ab_nodes'] for r in rows)}"


def format_table(rows):
    lines = [HEADER, "-" * len(HEADER)]
    for r in rows:
        lines.append(format_row(r))
        if r.get("threads", 1) > 1:
            lines.append(format_scaling(r))
    return "\n".join(lines + [signature(rows)])


# ------------------------------------------------------------------ the solve section
SOLVE_SETS = ("end", "middle", "begin")
REFERENCE_TABLE = "table_2^19"     # the reference solver's faster table here (fits the cache)
# roost's processor time a position at most this many times the reference's (with its
# faster table): level with it or ahead where a search's nodes dominate, within 1.5x on the
# end positions, where a solve is some 36 nodes and the fixed cost of a Python call shows
SOLVE_TARGETS = {"end": 1.5, "middle": 1.0, "begin": 1.0}


def solve_connect4(sets=SOLVE_SETS, quick=False, tt_mb=256):
    """roost's solver on the solved Connect Four positions (roost.core.calibration), a fresh
    table for each as the reference had, against the reference solver's recorded processor
    time with its faster table: per set the positions, roost's processor ms and nodes a
    position, the reference's (its nodes are those recorded with each position, searched
    with its default table), the ratios, and the positions whose answer was wrong (every
    answer is checked against the recorded score), and the ratio each set aims at
    (SOLVE_TARGETS).  ``quick`` takes a tenth of each set."""
    from roost.core.calibration import reference_cpu_times, solved_connect4
    from roost.core.games import get_game
    from roost.search.alphabeta import AlphaBeta
    game = get_game("connect4")
    reference = reference_cpu_times()
    ab = AlphaBeta(tt_mb=tt_mb)
    rows = []
    for name in sets:
        positions = solved_connect4(name)
        ref = reference[name][REFERENCE_TABLE]
        picked = range(0, len(positions), 10) if quick else range(len(positions))
        cpu = nodes = ref_us = ref_nodes = 0.0
        wrong = []
        for i in picked:
            row = positions[i]
            state = game.parse(row["moves"])
            ab.clear()                       # outside the time taken, as the reference's
            c0 = time.process_time()
            r = ab.search(state, max_depth=10000, solve=True)
            cpu += time.process_time() - c0
            nodes += r.nodes
            ref_us += ref["cpu_us"][i]
            ref_nodes += row["solver_nodes"]
            v = r.score
            got = 0 if abs(v) < 999000 else state.solver_score("win" if v > 0 else "loss",
                                                                round(1e6 - abs(v)))
            if not r.exact or got != row["score"]:
                wrong.append(row["moves"])
        n = len(picked)
        rows.append({"set": name, "positions": n, "roost_cpu_ms": 1e3 * cpu / n,
                     "reference_cpu_ms": 1e-3 * ref_us / n, "cpu_ratio": 1e6 * cpu / ref_us,
                     "roost_nodes": nodes / n, "reference_nodes": ref_nodes / n,
                     "node_ratio": nodes / ref_nodes, "target_cpu_ratio": SOLVE_TARGETS[name],
                     "wrong": wrong})
    return rows


SOLVE_HEADER = (f"{'solve':<7} {'positions':>9} {'roost cpu ms':>13} {'ref cpu ms':>11} {'ratio':>6} "
                f"{'target':>7} {'roost nodes':>12} {'ref nodes':>11}  wrong")


def format_solve_row(r):
    return (f"{r['set']:<7} {r['positions']:>9} {r['roost_cpu_ms']:>13.4f} {r['reference_cpu_ms']:>11.4f} "
            f"{r['cpu_ratio']:>6.2f} {'<=' + format(r['target_cpu_ratio'], '.2f'):>7} {r['roost_nodes']:>12,.0f} {r['reference_nodes']:>11,.0f}  "
            f"{len(r['wrong'])}")
