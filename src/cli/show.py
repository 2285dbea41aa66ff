import click

from roost.cli.options import game_argument, players_option, seat_option, load_position


@click.command("show")
@game_argument
@click.argument("position", nargs=-1)
@players_option
@seat_option
@click.option("--svg", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Also write a picture of the position (games that draw one).")
def command(game, position, players, seat, svg):
    """Render a position, its text and its legal moves.

    POSITION is the position text (quoted, or as several words) or a file holding it;
    without it, the game's default position.

    \b
    Examples:
      roost show ducks
      roost show ducks "bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0"
      roost show cubirds position.json --as 1
    """
    state = load_position(game, position, players)
    if seat is not None and seat >= state.players:
        raise click.BadParameter(f"seat {seat} does not exist in a {state.players}-player game",
                                 param_hint="--as")
    click.echo(state.render(observer=seat))
    if seat is None or not state.hidden_info:
        click.echo(f"position: {state.text()}")
    if state.is_over:
        click.echo("game over: result " + " ".join(f"{r:g}" for r in state.result()))
    elif state.is_chance:
        outs = state.chances()
        click.echo(f"chance node: {len(outs)} outcomes")
    elif seat is None or seat == state.player or not state.hidden_info:
        names = state.legal_names()
        click.echo(f"{len(names)} legal moves: " + " ".join(names))
    if svg:
        if not hasattr(state, "svg"):
            raise click.BadParameter(f"{game.title} has no picture", param_hint="--svg")
        with open(svg, "w", encoding="utf-8") as fh:
            fh.write(state.svg())
        click.echo(f"picture written to {svg}")
