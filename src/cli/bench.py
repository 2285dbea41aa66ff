import json

import click

from roost.cli.options import Command
from roost.search.alphabeta import MAX_THREADS


@click.command("bench", cls=Command)
@click.option("--game", "games", multiple=True, help="Only these games (repeatable).")
@click.option("--players", "-n", type=click.IntRange(1, 5), default=None,
              help="Measure the games playable by N players at N players (default: each "
              "game's bench position).")
@click.option("--quick", is_flag=True, help="A hundredth of the work: a smoke test, not a measurement.")
@click.option("--threads", "-t", type=click.IntRange(1, MAX_THREADS), default=1, show_default=True,
              help="Also run the searchers that take threads with this many, and show the scaling.")
@click.option("--solve", is_flag=True, help="Only time roost's solver on the solved Connect Four "
              "positions against the reference solver's recorded processor time, every answer "
              "checked (about 5 s; with --quick a tenth of the positions).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for programs.")
def command(games, players, quick, threads, solve, as_json):
    """Measure perft leaves/s, random playouts/s, MCTS iterations/s and alpha-beta nodes/s
    on each game's fixed benchmark position (single thread; with --threads N the searchers
    again with N threads: their rates, the ratios to one thread and, for alpha-beta, how
    much sooner it reaches the bench depth).  Playouts are timed twice: one call from
    Python a playout, and "native", the playouts alone in the loop MCTS runs (processor
    time).

    The alpha-beta node total at the end is a deterministic signature: it changes only
    when the search or a move generator does.

    With --solve, instead: roost's solver on the Connect Four positions solved by a
    published perfect solver (end, middle and begin sets), its processor time and nodes a
    position against that solver's recorded ones (its faster, cache-sized table), each
    answer checked against the recorded score.

    \b
    Examples:
      roost bench
      roost bench --game connect4 --json
      roost bench --game leaves --players 4
      roost bench --game connect4 --threads 2
      roost bench --quick
      roost bench --solve
    """
    if solve:
        return _solve(quick, as_json)
    from roost.bench import HEADER, format_row, format_scaling, run, signature
    from roost.core.games import get_game
    names = [get_game(g).name for g in games] if games else None
    if as_json:
        click.echo(json.dumps(run(names, quick=quick, players=players, threads=threads), indent=2))
        return
    click.echo(HEADER)
    click.echo("-" * len(HEADER))
    def show(r):                       # each row as it is done
        click.echo(format_row(r))
        if threads > 1:
            click.echo(format_scaling(r))
    rows = run(names, quick=quick, players=players, threads=threads, on_row=show)
    if not rows:
        raise click.UsageError(f"none of the chosen games is played by {players} players")
    click.echo(signature(rows))


def _solve(quick, as_json):
    from roost.bench import SOLVE_HEADER, format_solve_row, solve_connect4
    if as_json:
        click.echo(json.dumps(solve_connect4(quick=quick), indent=2))
        return
    click.echo(SOLVE_HEADER)
    click.echo("-" * len(SOLVE_HEADER))
    rows = solve_connect4(quick=quick)
    for r in rows:
        click.echo(format_solve_row(r))
    wrong = [m for r in rows for m in r["wrong"]]
    if wrong:
        raise click.ClickException(f"{len(wrong)} wrong answers, the first {wrong[0]}")
