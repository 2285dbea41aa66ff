import asyncio
import os
import secrets

import click

from roost.cli.options import Command

LOCAL = "127.0.0.1"


@click.command("serve", cls=Command)
@click.option("--port", "-p", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="The port to listen on (0: any free port, printed).")
@click.option("--host", default=None, metavar="ADDRESS",
              help="Listen on this address instead of 127.0.0.1 (e.g. 0.0.0.0: every "
              "interface); the API then needs the token printed at start.")
@click.option("--db-dir", "db_dir", type=click.Path(exists=True, file_okay=False), default=None,
              metavar="FOLDER", help="Show the tournament databases in FOLDER (live while a "
              "tournament writes to one); no other files are read.")
@click.option("--allow-cmd", is_flag=True, help="Let pages run cmd: engines (programs on this "
              "machine); refused otherwise.")
@click.option("--max-time", "max_time", type=click.FloatRange(0.01, 3600), default=30.0,
              show_default=True, metavar="SECONDS", help="The most one search may take: an "
              "engine's move, an analysis, a position of an evaluation graph.")
@click.option("--max-memory", "max_memory", type=click.IntRange(16, 1 << 20), default=512,
              show_default=True, metavar="MB", help="The most an engine's tree or table may take; "
              "each search process is capped at this plus the interpreter's own.")
@click.option("--max-searches", "max_searches", type=click.IntRange(1, 1000), default=24,
              show_default=True, metavar="N", help="Search processes open at once (one per page "
              "that searches); more pages are told to wait.")
@click.option("--max-threads", "max_threads", type=click.IntRange(1, 256), default=1,
              show_default=True, metavar="N", help="Threads one search may use (threads=).")
def command(port, host, db_dir, allow_cmd, max_time, max_memory, max_searches, max_threads):
    """Serve the browser board: play any game against engines or people, analyse
    positions with live engine lines, follow tournaments and replay their games.

    It prints the address and opens nothing by itself; Ctrl-C stops it and every search
    it started.  It listens on 127.0.0.1 only, unless --host says otherwise: then every
    API call needs the token it prints (the printed address carries it).  Needs the web
    extra: pip install "roost[web]".  docs/web.md describes the HTTP API.

    \b
    Examples:
      roost serve
      roost serve --port 8080 --db-dir .
      roost serve --host 0.0.0.0 --max-time 10
    """
    try:
        import uvicorn
        from roost.web.app import create_app
        from roost.web.searches import Limits
    except ImportError as e:
        raise click.ClickException(f"roost serve needs the web extra ({e.name} is missing): "
                                   'pip install "roost[web]"')
    token = secrets.token_urlsafe(18) if host is not None and host != LOCAL else None
    limits = Limits(seconds=max_time, memory=max_memory, threads=max_threads, workers=max_searches,
                    allow_cmd=allow_cmd)
    app = create_app(limits=limits, db_dir=os.path.abspath(db_dir) if db_dir else None, token=token)
    address = host or LOCAL
    sock = _listen(address, port)
    config = uvicorn.Config(app, log_level="warning", ws_max_size=1 << 22, lifespan="on")
    server = uvicorn.Server(config)
    bound = sock.getsockname()[1]
    shown = "localhost" if address == LOCAL else address
    click.echo(f"roost serve: http://{shown}:{bound}/" + (f"?token={token}" if token else ""))
    if token:
        click.echo(f"token: {token} (every API call needs it; the address above carries it)")
    click.echo("Ctrl-C stops the server and every search it started.")
    try:
        asyncio.run(server.serve(sockets=[sock]))
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()


def _listen(address, port):
    """A socket listening on ``address:port``, or one clear message why it cannot."""
    import socket
    try:
        family = socket.getaddrinfo(address, port, type=socket.SOCK_STREAM)[0][0]
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((address, port))
        sock.listen(128)
    except OSError as e:
        raise click.ClickException(f"cannot listen on {address}:{port}: {e.strerror or e}") from None
    sock.set_inheritable(False)
    return sock
