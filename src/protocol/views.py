"""What a seat is sent: the position as that seat sees it, never more.

Perfect information (Feed the Ducks, Tweeeet, Under the Leaves with 4 players): the game's
position text where the game started and the moves since, chance outcomes included: every
seat sees all of it.

Hidden information: ``position`` is the game's own observer view (``view(seat)``: CuBirds
writes the others' unknown cards as ``?`` and the draw pile as a count; Under the Leaves
with 2 or 3 players writes its bag as ``bag=?``, since which unseen tiles are in it and
which were removed before the game is hidden; Wingspan writes the cards the seat has not
seen as -1 and drops the other seats' setup choices and the RNG), and ``world`` is a full
position text in the game's ordinary format that agrees with that view, its hidden part
drawn at random by the arena (``determinized(seat, seed)``, which reads only what the seat
sees), for engines that would rather not read views.  Every game's parser reads its views
(the hidden cards dealt from the unseen ones in a fixed way), so ``position`` alone is a
position the receiver can search.  No moves are sent: a seat cannot replay moves onto cards
it cannot see, so every decision re-sends the view of the moment.
"""


def seat_texts(state, seat, seed):
    """``(position, world)`` for ``seat`` at ``state`` on a game with hidden information;
    ``world`` is drawn with ``seed``."""
    world = state.determinized(seat, seed).text()
    view = getattr(state, "view", None)
    return (view(seat) if view is not None else world), world
