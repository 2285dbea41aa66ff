import json

import click


@click.command("bench")
@click.option("--game", "-g", "games", multiple=True, help="Only these games (repeatable).")
@click.option("--quick", is_flag=True, help="A hundredth of the work: a smoke test, not a measurement.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for programs.")
def command(games, quick, as_json):
    """Measure perft leaves/s, random playouts/s, MCTS iterations/s and alpha-beta nodes/s
    on each game's fixed benchmark position (single thread).

    The alpha-beta node total at the end is a deterministic signature: it changes only
    when the search or a move generator does.

    \b
    Examples:
      roost bench
      roost bench --game ducks --json
    """
    from roost.bench import HEADER, format_row, run, signature
    from roost.core.games import get_game
    names = [get_game(g).name for g in games] if games else None
    if as_json:
        click.echo(json.dumps(run(names, quick=quick), indent=2))
        return
    click.echo(HEADER)
    click.echo("-" * len(HEADER))
    rows = run(names, quick=quick, on_row=lambda r: click.echo(format_row(r)))   # each row as it is done
    click.echo(signature(rows))
