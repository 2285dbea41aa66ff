import click

from roost.cli.options import Command


@click.command("export", cls=Command)
@click.argument("db", type=click.Path(dir_okay=False))
@click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write here instead of standard output.")
def command(db, output):
    """Write every game of a tournament database as JSON lines (one game record a line,
    "format": "roost-game/1"), for programs, `roost replay` and
    `roost.arena.records.read_records`.

    The examples read t.db, a tournament database (`roost tournament ... --db t.db`, as in
    the README's tour).

    \b
    Examples:
      roost export t.db -o games.jsonl
      roost export t.db | head -1
    """
    from roost.arena.records import export_lines
    lines = export_lines(db)
    if output is None:
        n = 0
        for line in lines:
            click.echo(line)
            n += 1
        return
    import os
    tmp = output + ".part"
    n = 0
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            for line in lines:
                fh.write(line + "\n")
                n += 1
        os.replace(tmp, output)
    except OSError as e:
        raise click.ClickException(f"cannot write {output}: {e.strerror}")
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    click.echo(f"{n} games written to {output}", err=True)
