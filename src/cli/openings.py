import sys

import click

from roost.cli.options import (ENGINE, Command, check_output_file, check_players, game_argument, players_option,
                               seed_option)


def _default_engine(players):
    # two players: the strongest engine measured for the game; more: MCTS, which values
    # every seat (paranoid alpha-beta values the mover's alone)
    return "auto:nodes=20000" if players == 2 else "mcts:iterations=4000"


@click.command("openings", cls=Command)
@game_argument
@players_option
@click.option("--count", "-c", type=click.IntRange(1, 100000), default=50, show_default=True,
              help="Openings to make.")
@click.option("--plies", type=click.IntRange(0, 1000), default=8, show_default=True,
              help="Random plies from the game's start (chance outcomes count; chance is then "
              "played on to a decision).")
@click.option("--engine", "-e", "spec", type=ENGINE, default=None,
              help="The engine that rates them (default: auto:nodes=20000 for two players, "
              "mcts:iterations=4000, which values every seat, for more).")
@click.option("--margin", type=click.FloatRange(0, 1, max_open=True), default=0.1, show_default=True,
              help="Keep an opening when every seat's expected result is within this of an even "
              "share (1/2 for two players, 1/N for N).")
@seed_option
@click.option("--output", "-o", default=None, metavar="FILE",
              help="Write the suite here (default: standard output).")
@click.option("--progress/--no-progress", default=None,
              help="Say on stderr how many were tried and kept (default: when stderr is a terminal).")
def command(game, players, count, plies, spec, margin, seed, output, progress):
    """Make an opening suite: random openings from the game's start that roost's own
    analysis rates near even, for `play` and `tournament --openings FILE`.

    Each candidate is the game's start (dealt from a seed derived from --seed), then
    --plies random plies; the engine searches it, and it is kept when every seat's
    expected result is within --margin of an even share and it is new.  The suite is
    one position text a line after a header of # lines saying how it was made (the
    same command makes the same suite, the engine's budget being nodes, not time).
    The suites roost ships (--openings builtin) were made so.

    \b
    Examples:
      roost openings ducks --count 10 --plies 8 -o ducks-suite.txt
      roost openings connect4 --count 5 --plies 4 --engine ab:depth=6
      roost openings cubirds --players 3 --count 3 --plies 6 --engine mcts:iterations=300
    """
    from roost.arena.openings import OpeningsError, generate
    check_players(game, players)
    n = players or game.default_players
    if n < 2:
        raise click.BadParameter(f"an opening suite balances seats: {n} player has none to "
                                 "balance", param_hint="--players")
    spec = spec or _default_engine(n)
    if output is not None:
        check_output_file(output, "--output")
    show = sys.stderr.isatty() if progress is None else progress

    def tried(t, kept, text):
        if show:
            click.echo(f"\rtried {t}, kept {kept} of {count}\x1b[K", nl=False, err=True)
    try:
        texts = generate(game, n, count, plies, spec, margin, seed, on_tried=tried)
    except OpeningsError as e:
        raise click.BadParameter(str(e), param_hint="--engine")
    finally:
        if show:
            click.echo("", err=True)
    made = (f"roost openings {game.name} --players {n} --count {count} --plies {plies} "
            f"--engine {spec} --margin {margin:g} --seed {seed}")
    lines = [f"# An opening suite of {game.title} for {n} players: {len(texts)} openings, each the",
             f"# start then {plies} random plies, kept where {spec} rated every seat's expected",
             f"# result within {margin:g} of 1/{n}.  Made by:",
             f"#   {made}",
             "# One position text a line."] + texts
    if len(texts) < count:
        click.echo(f"found {len(texts)} openings, not {count}: widen --margin or change --plies",
                   err=True)
    text = "\n".join(lines) + "\n"
    if output is None:
        click.echo(text, nl=False)
    else:
        with open(output, "w", encoding="utf-8") as fh:
            fh.write(text)
        click.echo(f"{len(texts)} openings written to {output}", err=True)
    if not texts:
        raise SystemExit(1)
