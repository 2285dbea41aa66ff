"""The ``roost`` command line: a group of thin commands (one module each) that parse,
call the library and print.  Input errors become one message and exit status 2 (usage)
or 1 (other faults); Ctrl-C stops a command with status 130 after it has said what it
finished."""
import sys

import click

from roost.core.errors import RoostError


class RoostGroup(click.Group):
    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except RoostError as e:
            raise click.ClickException(str(e)) from None
        except KeyboardInterrupt:
            click.echo("\ninterrupted", err=True)
            sys.exit(130)


@click.group(cls=RoostGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="roost")
def cli():
    """roost: game-tree search for Feed the Ducks, Tweeeet, CuBirds, Under the Leaves
    and Wingspan.

    \b
    Examples:
      roost games
      roost show ducks
      roost perft ducks 3 --divide
      roost analyse ducks "bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0" --engine ab:depth=6
      roost play ducks --engine mcts:iterations=2000 --engine ab:depth=3 --games 2
      roost tournament cubirds --players 4 -e ismcts:iterations=100 -e pimc:worlds=2,iterations=50 \
          -e random --games 4 --db cubirds.db
      roost play ducks -e "cmd:roost engine ducks --engine ab:depth=4" -e mcts --tc 1+0.01
      roost bench
      roost serve                   # the browser board (pip install "roost[web]")
    """


def _register():
    from roost.cli import (games, show, perft, analyse, solve, book, play, bench, tournament, openings, replay,
                           export, engine, tune, serve)
    for module in (games, show, perft, analyse, solve, book, play, bench, tournament, openings, replay, export,
                   engine, tune, serve):
        cli.add_command(module.command)


_register()

if __name__ == "__main__":
    cli()
