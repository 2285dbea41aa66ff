import click

from roost.cli.options import Command, json_option


@click.command("games", cls=Command)
@json_option
def command(as_json):
    """List the games roost plays, then the calibration games (shared with other
    programs, for comparisons of speed and strength on the same work).

    \b
    Example:
      roost games
    """
    from roost.core.games import all_games
    rows = all_games()
    if as_json:
        import json
        click.echo(json.dumps([{"name": g.name, "title": g.title, "players": [g.min_players, g.max_players],
                                "aliases": list(g.aliases), "summary": g.summary, "calibration": g.calibration}
                                for g in rows], indent=2))
        return
    calibration = [g for g in rows if g.calibration]
    for g in [g for g in rows if not g.calibration] + calibration:
        if calibration and g is calibration[0]:
            click.echo("calibration games (shared with other programs, for comparisons):")
        players = f"{g.min_players}" if g.min_players == g.max_players else f"{g.min_players}-{g.max_players}"
        aliases = f" (also: {', '.join(g.aliases)})" if g.aliases else ""
        click.echo(f"{g.name:<10} {g.title:<18} {players:>3} players  {g.summary}{aliases}")
