"""The ``roost`` program's entry point.  It imports the command line inside its own guard:
starting up takes a noticeable fraction of a second (the commands, the native modules), and
a Ctrl-C in that time ends the program like one at any other moment, with status 130 and no
traceback."""
import sys


def main():
    try:
        from roost.cli.main import cli
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    return cli()
