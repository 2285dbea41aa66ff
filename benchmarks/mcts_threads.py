"""MCTS iterations/s on every game's bench position, for a thread count (a report, not a
test): ``python benchmarks/mcts_threads.py [THREADS] [SECONDS] [ENGINE]``.

Each game is searched for SECONDS (default 2) with ``ENGINE:time=SECONDS,threads=THREADS``
(ENGINE ``mcts`` by default) from its bench position, and one line per game gives the
iterations, iterations/s, iterations per CPU second, the cores it used on average and the
tree nodes.  Compare thread counts by running it twice, e.g.
under ``/usr/bin/time -v`` for the memory too; run it alone on the machine."""
import sys
import time

from roost.bench import bench_state
from roost.core.games import all_games
from roost.search.engines import parse_engine


def main(argv):
    threads = int(argv[1]) if len(argv) > 1 else 1
    seconds = float(argv[2]) if len(argv) > 2 else 2.0
    kind = argv[3] if len(argv) > 3 else "mcts"
    only = argv[4].split(",") if len(argv) > 4 else None
    for info in all_games():
        if only and info.name not in only:
            continue
        s = bench_state(info)
        if s.is_chance:
            s.play_unchecked(s.sample(0))
        spec = f"{kind}:time={seconds:g}" + (f",threads={threads}" if threads != 1 else "")
        t0, c0 = time.perf_counter(), time.process_time()
        r = parse_engine(spec).choose(s, seed=1)
        dt, cpu = time.perf_counter() - t0, time.process_time() - c0
        # iterations per CPU second: what the threads cost, apart from how much of the
        # machine they got (on a shared machine the wall-clock rate says little)
        print(f"{info.name:9s} {spec:28s} {r.iterations:>10,} it {r.iterations / dt:>12,.0f} it/s "
              f"{r.iterations / cpu if cpu else 0:>12,.0f} it/cpu-s {cpu / dt:5.2f} cores "
              f"{r.nodes:>12,} nodes", flush=True)


if __name__ == "__main__":
    main(sys.argv)
