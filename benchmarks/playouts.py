"""Native random playouts per second for every game (a report, not a test).

    python benchmarks/playouts.py                        # every game, from its bench position
    python benchmarks/playouts.py ducks --n 200000       # one game, a fixed number of playouts
    python benchmarks/playouts.py ducks --start          # from the game's start instead
    python benchmarks/playouts.py ducks --probe          # and the plain-C probe, side by side
    python benchmarks/playouts.py ducks --probe --later 180   # 180 crumbs into a game
    python benchmarks/playouts.py ducks --later 180 --probe-args   # the probe's arguments

Or as whole processes, in turn (A B A B ..., each under ``/usr/bin/time -f %U``; the median
user seconds; roost's include about 0.2 s of starting Python and reaching the position):

    cc -O3 -march=native -o ducks_probe benchmarks/ducks_probe.c
    python benchmarks/playouts.py ducks --later 180 --n 4000000
    ./ducks_probe bare 4000000 1 $(python benchmarks/playouts.py ducks --later 180 --probe-args)

Playouts run in one native loop (roost.core.state.playout_batch: a copy of the position and
the game's playout, the loop MCTS runs), timed in CPU seconds of this process.  Feed the
Ducks can be set beside benchmarks/ducks_probe.c, a plain-C program that plays the same
random games ("bare": without the key and the repetition rule; "exact": with them, which
must give the same plies and results as roost); the probe is compiled here with the
compiler ``cc`` and ``-O3 -march=native``, as setup.py builds roost.

``--later N`` measures from N plies further into a seeded random game that does not end
there (moves that end the game are not played; chance outcomes are drawn): late in a game,
where the playouts of a search start.  For Feed the Ducks that is a game N crumbs long,
whose repetition history (N positions) every playout checks; the probe is given it too.
"""
import argparse
import os
import pathlib
import subprocess
import sys
import random
import tempfile
import time

from roost.bench import bench_state, work_for
from roost.core.games import all_games, get_game
from roost.core.state import playout_batch

PROBE = pathlib.Path(__file__).resolve().with_name("ducks_probe.c")


def measure(state, n, seed):
    t0 = time.process_time()
    plies, results = playout_batch(state, n, seed)
    dt = time.process_time() - t0
    return {"playouts": n, "plies": plies, "results": results, "seconds": dt,
            "playouts_per_s": n / dt if dt else float("inf")}


def later(state, plies, seed):
    """`state` after `plies` random plies that do not end the game (seeded); None if there
    comes a position where every move ends it."""
    rnd = random.Random(seed)
    s = state.copy()
    for i in range(plies):
        if s.is_chance:
            s.play_unchecked(s.sample(rnd.getrandbits(63)))
            continue
        moves = s.legal()
        rnd.shuffle(moves)
        s = next((c for c in (s.copy().play_unchecked(m) for m in moves) if not c.is_over), None)
        if s is None:
            return None
    return s


def build_probe(folder):
    exe = os.path.join(folder, "ducks_probe")
    subprocess.run(["cc", "-O3", "-march=native", "-o", exe, str(PROBE)], check=True)
    return exe


def probe_args(state):
    """The probe's arguments after MODE N SEED: the position and its repetition history."""
    raw = state._raw()
    history = [str(v) for entry in raw["history"] for v in entry]
    return [str(raw["white"]), str(raw["black"]), str(raw["crumb"]), str(raw["side"]),
            str(raw["plies"])] + history


def run_probe(exe, mode, state, n, seed):
    out = subprocess.run([exe, mode, str(n), str(seed)] + probe_args(state),
                         check=True, capture_output=True, text=True).stdout.split()
    white, black, drawn = int(out[3]), int(out[4]), int(out[5])
    return {"plies": int(out[2]), "results": (white + drawn / 2, black + drawn / 2),
            "seconds": float(out[6]), "playouts_per_s": float(out[7])}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", help="game names (default: every listed game)")
    ap.add_argument("--n", type=int, help="playouts per game (default: roost bench's, about a second's worth)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", action="store_true", help="from the start, not the bench position")
    ap.add_argument("--probe", action="store_true", help="Feed the Ducks: also the plain-C probe")
    ap.add_argument("--later", type=int, default=0, metavar="N",
                    help="from N random plies later in a game (that do not end it)")
    ap.add_argument("--probe-args", action="store_true",
                    help="Feed the Ducks: print the probe's arguments after MODE N SEED (the "
                    "position and its history) and measure nothing")
    args = ap.parse_args(argv)
    infos = [get_game(g) for g in args.games] if args.games else all_games()
    if args.later < 0:
        ap.error("--later counts plies: 0 or more")
    if args.n is not None and args.n < 1:
        ap.error("--n counts playouts: 1 or more")
    if args.probe_args:
        infos = [info for info in infos if info.name == "ducks"]
        if not infos:
            ap.error("--probe-args is for Feed the Ducks (ducks)")
    else:
        print(f"{'game':<9} {'position':<9} {'playouts':>9} {'plies/game':>10} {'playouts/s':>12}")
    for info in infos:
        state = info.start() if args.start else bench_state(info)
        where = "start" if args.start else "bench"
        if args.later:
            state = later(state, args.later, args.seed)
            where += f"+{args.later}"
            if state is None:
                print(f"{info.name:<9} {where:<9} (every move ends the game before that)", flush=True)
                continue
        if args.probe_args:
            print(" ".join(probe_args(state)))
            continue
        n = args.n or work_for(info.name)["native"]     # roost bench's count, about a second
        r = measure(state, n, args.seed)
        print(f"{info.name:<9} {where:<9} {n:>9,} "
              f"{r['plies'] / n:>10.1f} {r['playouts_per_s']:>12,.0f}", flush=True)
        if args.probe and info.name == "ducks":
            with tempfile.TemporaryDirectory() as folder:
                exe = build_probe(folder)
                for mode in ("bare", "exact"):
                    p = run_probe(exe, mode, state, n, args.seed)
                    same = "same games" if (p["plies"], p["results"]) == (r["plies"], r["results"]) else "other games"
                    print(f"  C probe {mode:<5} {p['playouts_per_s']:>12,.0f} playouts/s; roost / probe "
                          f"{r['playouts_per_s'] / p['playouts_per_s']:.2f}x ({same})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
