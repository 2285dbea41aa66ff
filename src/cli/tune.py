import json
import sys

import click

from roost.cli.options import (ENGINE, check_output_file, game_argument, json_option, players_option,
                               seed_option)


@click.command("tune")
@game_argument
@click.option("--games", "-g", type=click.IntRange(min=1), default=200, show_default=True,
              help="Self-play games to draw positions from.")
@click.option("--positions", type=click.IntRange(min=1), default=None,
              help="At most this many positions (drawn at random from the games; default all).")
@click.option("--engine", "-e", "spec", type=ENGINE, default="ab:depth=2", show_default=True,
              help="The engine that plays every seat of the self-play games.")
@click.option("--opening", type=click.IntRange(min=0), default=4, show_default=True,
              help="Random plies at the start of each game (varied games).")
@click.option("--l2", type=click.FloatRange(min=0.0), default=1e-3, show_default=True,
              help="L2 penalty on the weights (a position).")
@click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write the weights file here (default: roost-GAME-weights.json); other "
              "player counts already in it are kept.  The shipped file is "
              "src/core/data/weights/GAME.json.")
@click.option("--match", "match_games", type=click.IntRange(min=0), default=0, show_default=True,
              help="Then play this many games of the engine with the fitted weights against "
              "the same engine with the --baseline weights (a multiple of the players).")
@click.option("--match-engine", "match_spec", type=ENGINE, default=None,
              help="The engine of the --match games (default: --engine).")
@click.option("--baseline", type=click.Choice(["hand", "shipped"]), default="hand", show_default=True,
              help="The weights the fitted ones meet in --match: the hand-set evaluation, or the "
              "weights shipped now.")
@click.option("--play-weights", type=click.Choice(["shipped", "hand"]), default="shipped",
              show_default=True, help="The weights the self-play engines evaluate with: the shipped "
              "ones (each fit starts from the last), or the hand-set ones (the same options give the "
              "same weights whatever is shipped).")
@players_option
@seed_option
@json_option
def command(game, games, positions, spec, opening, l2, output, match_games, match_spec, baseline,
            play_weights, players, seed, as_json):
    """Fit GAME's evaluation weights from self-play (Texel-style logistic regression of the
    results on the evaluation's features) and write them as a weights file.

    Every decision position of the self-play games is recorded with the game's final
    result; one game in five is held out, and the log loss of the fitted, hand-set and
    shipped weights on both sets shows what the fit gained.  Same options, seed and
    self-play weights, same weights (--play-weights hand does not depend on what is shipped).

    \b
    Examples:
      roost tune ducks --games 40 --engine ab:depth=2 --seed 1
      roost tune tweeeet --games 40 -o tweeeet-weights.json --match 10
      roost tune connect4 --games 60 --engine ab:depth=1 --json
    """
    from roost.arena.tuning import eval_match, evaluation_of, score_interval, tune, write_weights
    if match_games % (players or game.default_players):
        raise click.BadParameter(f"must be a multiple of the {players or game.default_players} "
                                 "players (every seat equally often)", param_hint="--match")
    evaluation_of(game)        # a game without a tunable evaluation fails before self-play
    path = output or f"roost-{game.name}-weights.json"
    check_output_file(path, "--output")     # and a file that could not be written
    progress = None
    if not as_json and sys.stderr.isatty():
        def progress(done, n):
            click.echo(f"\rself-play: {done}/{games} games, {n:,} positions", nl=False, err=True)
    report = tune(game, players=players, games=games, engine_spec=spec, seed=seed, opening=opening,
                  positions=positions, l2=l2, progress=progress, play_weights=play_weights)
    if progress is not None:
        click.echo("", err=True)
    command_line = "roost tune " + " ".join(sys.argv[2:]) if len(sys.argv) > 2 else None
    write_weights(report, path, command=command_line)
    summary = {"game": game.name, "players": report.players, "weights_file": str(path),
               "features": list(report.features), "weights": report.weights,
               "positions": report.positions, "games": report.games, "log_loss": report.losses}
    lines = report.lines() + [f"wrote {path}"]
    if match_games:
        evaluation = evaluation_of(game)
        base = (evaluation.hand.get(report.players) or evaluation.hand[min(evaluation.hand)]
                if baseline == "hand" else evaluation.default(report.players))
        m = eval_match(game, match_spec or spec, report.weights, base, match_games, seed=seed,
                       players=report.players, opening=opening, labels=("fitted", baseline))
        mean, half = score_interval(m)
        summary["match"] = {"engine": str(match_spec or spec), "baseline": baseline, "games": match_games,
                            "score": mean, "interval": half, "summary": m.summary()}
        lines.append(m.summary())
    if as_json:
        click.echo(json.dumps(summary, indent=2))
    else:
        click.echo("\n".join(lines))
