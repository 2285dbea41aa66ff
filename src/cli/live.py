"""Live analysis for `analyse` and `solve`: a line for each progress report of the search
(as Stockfish's ``info`` lines), on standard error so that standard output holds only the
answer; JSON lines with --json; nothing with --quiet."""
import json

import click


def progress_option(f):
    return click.option("--progress/--quiet", "progress", default=True, show_default=True,
                        help="Print the search's progress to stderr as it goes (alpha-beta: a "
                        "line per completed depth; MCTS: at growing intervals), as JSON lines "
                        "with --json; --quiet prints only the answer.")(f)


def reporter(enabled, as_json):
    """The progress callback for a search, or None."""
    if not enabled:
        return None

    def report(progress):
        if as_json:
            click.echo(json.dumps({"info": progress.as_dict()}), err=True)
        else:
            click.echo(f"info {progress.text()}", err=True)
    return report


def value_text(value, verdict, side):
    """The one value of a line: 'win in 7 for White' once proven, else 'value 0.623 for
    White' (the expected result of the player to move, 0 a loss and 1 a win)."""
    if verdict:
        return f"{verdict} for {side}"
    return f"value {value:.3f} for {side}"
