"""Shared Click parameter types and option decorators: every command names games, positions,
engines and seeds the same way, and bad values fail with one clear message."""
import os
import re

import click

from roost.core.errors import RoostError


class GameType(click.ParamType):
    """A game name or alias -> its GameInfo."""
    name = "game"

    def convert(self, value, param, ctx):
        from roost.core.games import get_game
        if not isinstance(value, str):
            return value
        try:
            return get_game(value)
        except RoostError as e:
            self.fail(str(e), param, ctx)


class EngineType(click.ParamType):
    """An engine spec, checked when parsed (the command builds fresh engines from it)."""
    name = "engine"

    def convert(self, value, param, ctx):
        from roost.search.engines import parse_engine
        try:
            return parse_engine(value).spec if value.strip().lower() != "human" else "human"
        except RoostError as e:
            self.fail(str(e), param, ctx)


class Seconds(click.ParamType):
    """A time limit in seconds: a finite number from 0 to the searchers' maximum (NaN and
    infinity are refused: a search must be able to tell when its time is up)."""
    name = "seconds"

    def convert(self, value, param, ctx):
        import math
        from roost.search.engines import MAX_SECONDS
        if isinstance(value, float) and math.isfinite(value) and 0 <= value <= MAX_SECONDS:
            return value
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds) or not 0 <= seconds <= MAX_SECONDS:
            self.fail(f"{value!r} is not a time from 0 to {MAX_SECONDS:g} seconds", param, ctx)
        return seconds


GAME = GameType()
ENGINE = EngineType()
SECONDS = Seconds()


def engines_epilog():
    """The engine kinds and their parameters, for a command's --help."""
    from roost.search.engines import describe_engines
    return "\b\nEngines (spec = kind:name=value,...):\n" + "\n".join("  " + l for l in describe_engines())


def game_argument(f):
    return click.argument("game", type=GAME)(f)


def players_option(f):
    return click.option("--players", "-n", type=click.IntRange(1, 5), default=None,
                        help="Number of players (games for 2 to 5; default: the game's).")(f)


def seed_option(f):
    return click.option("--seed", type=click.IntRange(0, (1 << 63) - 1), default=0, show_default=True,
                        help="Seed for everything random (same seed, same result).")(f)


def json_option(f):
    return click.option("--json", "as_json", is_flag=True, help="Print JSON for programs.")(f)


def seat_option(f):
    return click.option("--as", "seat", type=click.IntRange(0, 4), default=None,
                        help="Seat whose information to use (hidden-information games).")(f)


def _looks_like_a_path(text):
    return (" " not in text and not text.startswith("{")
            and (text.startswith(("/", "./", "../", "~")) or bool(re.search(r"\.[A-Za-z]{1,5}$", text))))


def load_position(game, words, players=None):
    """The position named by the POSITION words: text, or the path of a file holding it;
    none -> the game's default position.  PositionError becomes a usage error."""
    text = " ".join(words).strip()
    try:
        if not text:
            return game.default_position(players)
        if os.path.isfile(text):
            try:
                with open(text, encoding="utf-8") as fh:
                    text = fh.read().strip()
            except (OSError, UnicodeDecodeError) as e:
                raise click.BadParameter(f"cannot read position file {text!r}: {e}")
        state = game.parse(text)
    except RoostError as e:
        if _looks_like_a_path(text):
            raise click.BadParameter(f"no such file {text!r} (and as a position text: {e})",
                                     param_hint="POSITION")
        raise click.BadParameter(str(e), param_hint="POSITION")
    if players is not None and state.players != players:
        raise click.BadParameter(f"the position has {state.players} players, --players says {players}",
                                 param_hint="POSITION")
    return state
