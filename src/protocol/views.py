"""What a seat is sent: the position as that seat sees it, never more.

Perfect information (Feed the Ducks, Tweeeet, Under the Leaves with 4 players): the game's
position text where the game started and the moves since, chance outcomes included: every
seat sees all of it.

Hidden information: ``position`` is the game's own observer view where the game has one
(``view(seat)``: CuBirds writes the others' unknown cards as ``?`` and the draw pile as a
count; Wingspan writes hidden cards as -1 and drops the RNG), and ``world`` is a full
position text in the game's ordinary format that agrees with that view, its hidden part
drawn at random by the arena (``determinized(seat, seed)``, which reads only what the seat
sees): a program that wants a concrete position parses it with the game's own rules, one
that reasons about what it does not know reads the view.  No moves are sent: a seat cannot
replay moves onto cards it cannot see, so every decision re-sends the view of the moment.

Under the Leaves with 2 or 3 players hides which of the unseen tiles are in the bag and
which were removed before the game, and its position text lists the bag: the game has no
observer view yet, so both ``position`` and ``world`` carry a determinization (the bag
redrawn from the unseen tiles).  The game needs a ``view(seat)`` writing the bag as its
size and the unseen tiles as a set, for ``position`` to say what is known exactly.
"""


def seat_texts(state, seat, seed):
    """``(position, world)`` for ``seat`` at ``state`` on a game with hidden information;
    ``world`` is drawn with ``seed``."""
    world = state.determinized(seat, seed).text()
    view = getattr(state, "view", None)
    return (view(seat) if view is not None else world), world
