import click

from roost.cli.options import ENGINE, Command, engines_epilog, game_argument, seed_option


@click.command("engine", cls=Command, epilog=engines_epilog())
@game_argument
@click.option("--engine", "-e", "spec", type=ENGINE, default="mcts", show_default=True,
              help="The roost engine to serve (on a clock it plays by the time manager).")
@seed_option
def command(game, spec, seed):
    """Serve a roost engine over the engine protocol on stdin/stdout, for an arena (roost's
    own, through a cmd: spec) or any program that speaks the protocol (docs/protocol.md).

    It answers `roost 1` with its id, options and `roostok 1`, then plays the positions it
    is sent: `go` with a clock (`clock MS inc MS`) lets the time manager allot each move;
    `movetime`, `nodes` and `depth` cap a search; `stop` ends one early.  Without `seed`
    in `go`, searches draw their seeds from --seed.

    \b
    Examples:
      roost engine ducks --engine ab:depth=4
      roost play ducks -e "cmd:roost engine ducks --engine ab:depth=4" -e mcts:iterations=2000
      printf 'roost 1\\nnewgame ducks players 2 seat 0\\nposition 5/6/7/8/9/8/7/6/5 w 0\\ngo nodes 2000\\n' | roost engine ducks -e ab
    """
    from roost.protocol.server import serve
    if spec == "human":
        raise click.BadParameter("'human' is not served: a person plays with roost play --human",
                                 param_hint="--engine")
    if spec.external:
        raise click.BadParameter("roost engine serves roost's own engines, not another program",
                                 param_hint="--engine")
    serve(game, spec, seed=seed)
