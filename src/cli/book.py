import os

import click

from roost.cli.options import ENGINE, Command, check_output_file, game_argument, load_position, moves_option


@click.command("book", cls=Command)
@game_argument
@click.argument("position", nargs=-1)
@moves_option
@click.option("--plies", type=click.IntRange(0, 40), default=4, show_default=True,
              help="How deep the book goes: the side's positions at this many plies from the "
              "position are proven by the solver, the shallower ones by the book's own tree.")
@click.option("--side", type=click.IntRange(0, 7), default=None, metavar="PLAYER",
              help="The player (0 the first, 1 the second, ...) whose win the book holds, or "
              "whose book moves a search book follows (default: the player to move).")
@click.option("--goal", type=click.Choice(["win", "draw"]), default="win", show_default=True,
              help="What the book proves for the side: a win, or at least a draw (its moves "
              "keep a draw or better against every defence).")
@click.option("--thin", type=click.IntRange(0, None), default=0, metavar="NODES",
              help="Leave out of the book the deepest positions whose proof took fewer than "
              "NODES nodes (a proof in play settles them within a move); the book keeps its "
              "lines where the proof is dear.")
@click.option("--tt", type=click.IntRange(1, 4096), default=64, show_default=True,
              help="The solver's transposition table in MB.")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None,
              help="The book file to write (default GAME.book); its journal, OUTPUT.journal, "
              "keeps every position solved, so an interrupted build resumes where it stopped.")
@click.option("--journal", type=click.Path(dir_okay=False), default=None,
              help="The journal to keep (default OUTPUT.journal): builds of parts of one tree "
              "(from the positions after different replies) can share one and run side by side.")
@click.option("--no-solve", "assemble", is_flag=True,
              help="Solve nothing: assemble the book from the journal's solves alone (a "
              "position it has not solved counts as not won).")
@click.option("--merge", "merged", multiple=True, type=click.Path(dir_okay=False), metavar="BOOK",
              help="Add this book's lines to the one written (repeatable): books of the win "
              "from the positions after different replies make one.")
@click.option("--search", "search_spec", type=ENGINE, default=None, metavar="SPEC",
              help="Build by deep searches with this engine instead of the solver, for games "
              "too deep to prove: every position within --plies plies that the side reaches "
              "gets the search's move and value (bound it by nodes, iterations or depth for "
              "a build that is the same from run to run).")
@click.option("--replies", type=click.IntRange(0, 1000), default=0, show_default=True,
              help="With --search: follow only this many replies of the other players, the "
              "ones their own search rates best (0: every reply).")
@click.option("--quiet", "-q", is_flag=True, help="Print no progress.")
def command(game, position, moves, plies, side, goal, thin, tt, output, journal, assemble, merged, search_spec,
            replies, quiet):
    """Build an opening book with roost's solver: one winning move for the side (with
    --goal draw, one that keeps at least a draw) in every position it can reach by following
    the book, against every defence, to --plies plies; or, with --search, a book of deep
    searches for a game the solver cannot finish.

    The positions at --plies plies are proven by the solver (a null-window test to the end
    of the game); the shallower ones by the tree itself (a position of the side's keeps the
    goal when its book move leads to a position that does, one of the opponent's when every
    reply does).  With
    --search every position within --plies plies (the side's book move followed, every
    reply of the others, or the --replies best) is searched, and the book holds the
    search's move and value for it; a chance node ends a line.  The book is a text file
    (`roost.search.book`): `auto` plays from it, and so do `roost engine` and `roost
    analyse`, with `auto:book=FILE`.  A build is the same from run to run.

    The solver's books are for two-player games of perfect information with no chance;
    search books for any game of perfect information.  roost ships
    src/search/books/connect4.book.

    \b
    Examples:
      roost book connect4 42655421475772 --plies 4 -o c4.book
      roost book connect4 422774613245175 --goal draw --plies 4 -o draw.book
      roost analyse connect4 4265542147577243 -e auto:book=c4.book
      roost book ducks --search mcts:iterations=2000 --plies 2 --replies 2 -o ducks.book
      roost play ducks -e auto:book=ducks.book,time=0.05 -e mcts:iterations=500 --games 2
    """
    state = load_position(game, position, None, moves)
    if state.is_over:
        raise click.BadParameter("the game is over in this position: there is nothing to book",
                                 param_hint="POSITION")
    if side is not None and side >= state.players:
        raise click.BadParameter(f"{game.title} has players 0 to {state.players - 1} here", param_hint="--side")
    if search_spec is not None:
        return _search_book(game, state, plies, side, output, journal, assemble, merged, search_spec,
                            replies, quiet)
    if replies:
        raise click.BadParameter("--replies is for books built with --search", param_hint="--replies")
    from roost.search.book_build import BookBuilder
    if state.players != 2 or state.hidden_info or state.is_chance:
        raise click.BadParameter(f"a book is proven for two-player games of perfect information; "
                                 f"{game.title} {'has hidden information' if state.hidden_info else 'is not one'}",
                                 param_hint="GAME")
    output, journal = _outputs(game, output, journal)

    def progress(n, text, result, seconds):
        if not quiet:
            click.echo(f"solved {n}: {text} {result} ({seconds:.2f} s)", err=True)

    from roost.search.book import Book
    extra = [Book.read(path, game=game.name) for path in merged]     # a bad one fails before any work
    builder = BookBuilder(state, plies, side=side, tt=tt, journal=journal, progress=progress,
                          solve=not assemble, goal=goal, thin=thin)
    book = _build(builder, journal, lambda: f"{builder.solved} solves")
    what = "win" if goal == "win" else "draw or better"
    comments = [f"player {builder.side}'s {what} from {state.text()}, proven to {plies} plies by roost's solver"
                + (f", leaving out the deepest positions proven in fewer than {thin} nodes" if thin else "")]
    _write(book, comments, extra, output, journal, f"{builder.solved} solved in {builder.seconds:.1f} s")


def _search_book(game, state, plies, side, output, journal, assemble, merged, spec, replies, quiet):
    from roost.search.book import Book, BookError
    from roost.search.book_search import SearchBookBuilder
    if spec == "human":
        raise click.BadParameter("a book is searched by an engine, not by a person", param_hint="--search")
    if state.hidden_info or state.is_chance:
        raise click.BadParameter(f"a search book is built for games of perfect information from a "
                                 f"position with a player to move; {game.title} "
                                 f"{'has hidden information' if state.hidden_info else 'has chance to play here'}",
                                 param_hint="GAME")
    output, journal = _outputs(game, output, journal)

    def progress(n, text, move, value, seconds):
        if not quiet:
            click.echo(f"searched {n}: {text} {move} {value} ({seconds:.2f} s)", err=True)

    extra = [Book.read(path, game=game.name) for path in merged]
    try:
        builder = SearchBookBuilder(state, plies, spec, side=side, replies=replies, journal=journal,
                                    progress=progress, search=not assemble)
    except BookError as e:
        raise click.ClickException(str(e))
    book = _build(builder, journal, lambda: f"{builder.searched} searches")
    follow = f"the best {replies} replies" if replies else "every reply"
    comments = [f"player {builder.side}'s lines from {state.text()} to {plies} plies, against "
                f"{follow}, each position searched by {spec}"]
    _write(book, comments, extra, output, journal, f"{builder.searched} searched in {builder.seconds:.1f} s")


def _build(builder, journal, done):
    """The builder's book; on Ctrl-C, what was done (``done()``) is in the journal."""
    try:
        return builder.build()
    except KeyboardInterrupt:
        click.echo(f"\ninterrupted after {done()}; they are kept in {journal}, and the same "
                   "command resumes", err=True)
        raise SystemExit(130)


def _outputs(game, output, journal):
    output = output or f"{game.name}.book"
    check_output_file(output, "--output")
    journal = str(journal or output + ".journal")
    check_output_file(journal, "--journal")
    return output, journal


def _rank(entry):
    return ("", "loss", "draw", "win").index(entry.proven)


def _write(book, comments, extra, output, journal, work):
    for other in extra:
        comments += [f"and the lines of {os.path.basename(other.source)}"]
        for key, entry in other.entries.items():
            # a position two books hold (a transposition between their trees) keeps the line
            # proving more: a win's over a draw's
            if key not in book.entries or _rank(entry) >= _rank(book.entries[key]):
                book.entries[key] = entry
    tmp = output + ".part"
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(book.text(comments))
        os.replace(tmp, output)
    except OSError as e:
        raise click.ClickException(f"cannot write {output}: {e.strerror}")
    shared = journal != output + ".journal"
    if not shared and os.path.exists(journal):
        os.remove(journal)              # the book holds what it proved; a shared journal stays
    click.echo(f"{len(book)} positions written to {output} ({os.path.getsize(output):,} bytes; "
               f"{work})")
