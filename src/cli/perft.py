import time

import click

from roost.cli.options import Command, game_argument, load_position, moves_option, players_option


# a count shorter than this is mostly start-up and timer noise: no leaves/s for it
MEANINGFUL_SECONDS = 0.05


@click.command("perft", cls=Command)
@game_argument
@click.argument("args", nargs=-1, required=True, metavar="[POSITION] DEPTH")
@moves_option
@players_option
@click.option("--divide", is_flag=True, help="Also print the leaf count below each move.")
def command(game, args, moves, players, divide):
    """Count the leaves of the legal-move tree to DEPTH (the game's perft convention).

    \b
    Examples:
      roost perft ducks 3
      roost perft ducks "bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0" 4 --divide
    """
    *words, depth_text = args
    try:
        depth = int(depth_text)
    except ValueError:
        raise click.BadParameter(f"DEPTH must be an integer, got {depth_text!r}", param_hint="DEPTH")
    if not 0 <= depth <= 64:
        raise click.BadParameter(f"DEPTH must be between 0 and 64, got {depth}", param_hint="DEPTH")
    state = load_position(game, words, players, moves)
    # a chance node the game counts as one leaf, a finished game and depths 0 and 1 are
    # counted whole; deeper trees one root move at a time, so that Ctrl-C (which the native
    # count notices within a move) stops with the moves counted so far
    whole = depth < 2 or (state.is_chance and not state.perft_expands_chance) or state.is_over
    total_moves = 0 if whole else len(state.legal())
    leaves = done = 0
    try:
        click.echo(f"counting perft({depth}) (Ctrl-C stops with the count so far)", err=True)
        t0 = time.perf_counter()
        if whole:
            leaves = state.perft(depth)
        else:
            for name, n in state.iter_divide(depth):
                if divide:
                    click.echo(f"{name}: {n}")
                leaves += n
                done += 1
    except KeyboardInterrupt:
        if whole:
            click.echo("interrupted before the count was complete: no total")
        else:
            click.echo(f"interrupted after {done} of {total_moves} moves: {leaves} leaves so far")
        raise SystemExit(130)
    dt = time.perf_counter() - t0
    if whole and divide:
        if state.is_chance and not state.perft_expands_chance:
            click.echo("a chance node: the game's perft counts it as one leaf, with nothing to divide")
        else:
            for name, n in state.iter_divide(depth) if depth >= 1 else ():
                click.echo(f"{name}: {n}")
    click.echo(f"perft({depth}) = {leaves}")
    if dt >= MEANINGFUL_SECONDS:
        click.echo(f"{dt:.3f} s, {leaves / dt / 1e6:.1f} M leaves/s")
    else:
        click.echo(f"{dt:.3f} s (too short a count to time; a deeper perft measures the speed)")
