"""What the engine protocol costs: starting a roost engine in a worker process (through the
handshake), and the round trip of one move (position, moves, go, info, bestmove) with the
random engine, whose own time is next to nothing.  Recorded in ``extra_info``.

A report, not a test: no time here is asserted."""
from roost.arena.match import play_game
from roost.core.games import get_game
from roost.arena.engines import worker_engine
from roost.search.engines import parse_spec


def test_worker_start_and_handshake(benchmark):
    ducks = get_game("ducks")

    def start():
        e = worker_engine(parse_spec("random"), ducks)
        e.start()
        e.close()

    benchmark.pedantic(start, rounds=5, iterations=1)


def test_move_round_trip(benchmark):
    ducks = get_game("ducks")
    seats = [worker_engine(parse_spec("random"), ducks) for _ in range(2)]
    counter = iter(range(10 ** 6))
    moves = []

    def game():
        rec = play_game(ducks, seats, seed=next(counter))
        moves.extend(rec.times)

    try:
        benchmark.pedantic(game, rounds=20, iterations=1, warmup_rounds=1)
    finally:
        for e in seats:
            e.close()
    moves.sort()
    benchmark.extra_info["moves"] = len(moves)
    benchmark.extra_info["median_move_ms"] = 1000 * moves[len(moves) // 2]
    benchmark.extra_info["mean_move_ms"] = 1000 * sum(moves) / len(moves)
