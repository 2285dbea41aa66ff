"""Look inside one recorded game of a tournament database (two players, perfect information):
at every Nth position, who a search thinks is ahead and whether a proof search finds a
forced result.

    python tools/scan_game.py runs.db 19 --seat 0 --every 10 --value mcts:time=0.3
    python tools/scan_game.py runs.db 19 --seat 0 --every 1 --proof 6

Each sampled position prints one line: the ply of the record, the player to move, the value
for SEAT by the value engine (its expected result in [0, 1], searched with the ply as seed),
and the verdict of the proof search for the player to move (`ab:depth=D,eval=none`, which
names a result only where one is forced within D plies: "win in 7", "loss in 4", or "-").
docs/strength.md ("Why games run into the 300-placement cap") reads capped Feed the Ducks
games with it: their values stay near 0.6 for one side all game long, and no position holds
a forced result within 6 plies.
"""
import argparse
import sys

from roost.arena.store import Store
from roost.core.errors import RoostError
from roost.core.games import get_game
from roost.search.engines import parse_engine


def scan(game, record, seat, every=10, value_spec="", proof_depth=0):
    """The sampled positions of ``record`` (a Store row) of ``game``: a list of dicts with
    ``ply``, ``to_move``, and ``value`` (for ``seat``) and ``proof`` where asked for."""
    if every < 1:
        raise ValueError(f"--every counts plies and must be at least 1, not {every}")
    state = get_game(game).parse(record["start"])
    if state.players != 2 or state.hidden_info:
        raise ValueError(f"{game} with {state.players} players is not a two-player game of "
                         "perfect information: a proof search and a seat's value need one")
    if seat not in (0, 1):
        raise ValueError(f"--seat is 0 or 1 in a two-player game, not {seat}")
    value = parse_engine(value_spec) if value_spec else None
    proof = parse_engine(f"ab:depth={proof_depth},eval=none") if proof_depth else None
    rows = []
    for ply, move in enumerate(record["move_ids"]):
        if state.is_over:
            break
        if ply % every == 0 and not state.is_chance:
            row = {"ply": ply, "to_move": state.player}
            if value is not None:
                row["value"] = value.choose(state, seed=ply, observer=seat).seat_value
            if proof is not None:
                r = proof.choose(state, seed=0)
                row["proof"] = r.score if r.proven else "-"
            rows.append(row)
        state.play_move(move)
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("db", help="a tournament database (roost tournament --db)")
    ap.add_argument("game_id", type=int, help="the game's id in it")
    ap.add_argument("--seat", type=int, default=0, help="the seat the values are for (default 0)")
    ap.add_argument("--every", type=int, default=10, help="sample every Nth ply (default 10)")
    ap.add_argument("--value", default="", metavar="SPEC", help="the engine that values each sample")
    ap.add_argument("--proof", type=int, default=0, metavar="D", help="proof search depth (0: none)")
    a = ap.parse_args(argv)
    if not (a.value or a.proof):
        ap.error("nothing to do: give --value SPEC, --proof D, or both")
    try:
        with Store.open(a.db) as store:
            game = store.config()["game"]
            record = store.game(a.game_id)
        if record is None:
            raise ValueError(f"{a.db} has no game {a.game_id}")
        print(f"game {a.game_id} of {a.db}: {game}, seats {record['seats']}, result "
              f"{record['result']}, {record['plies']} plies; values for seat {a.seat}")
        for row in scan(game, record, a.seat, a.every, a.value, a.proof):
            cells = [f"{row['ply']:4d}", f"to move {row['to_move']}"]
            if "value" in row:
                cells.append(f"value {row['value']:.3f}")
            if "proof" in row:
                cells.append(f"proof {row['proof']}")
            print("  ".join(cells), flush=True)
    except (RoostError, ValueError) as e:
        print(f"scan_game: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
