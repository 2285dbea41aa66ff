"""Feed the Ducks' swim and gathered test against a plain model of the pond written here from
docs/rules/ducks.md (§2.2 coordinates and neighbours, §2.3 bit indices, §5.2 the swim, §6.1
gathered): the native code works on whole bit sets at once (every neighbour of a set in a
few shifts, the six rays of a swim side by side), the model cell by cell."""
import random

import pytest

from roost.core.ducks import Ducks
from roost.core.ducks.board import is_gathered
from tests.core.ducks.crumbs import ducks_positions

DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def pond():
    """The cells' axial coordinates by bit index, and the bit index of each coordinate."""
    cells = []
    for y, length in enumerate((5, 6, 7, 8, 9, 8, 7, 6, 5)):
        r = y - 4
        cells += [(max(-4, -4 - r) + col, r) for col in range(length)]
    return cells, {qr: i for i, qr in enumerate(cells)}


CELLS, INDEX = pond()


def adjacent(i):
    q, r = CELLS[i]
    return [INDEX[q + dq, r + dr] for dq, dr in DIRECTIONS if (q + dq, r + dr) in INDEX]


def bits(cells):
    return sum(1 << c for c in set(cells))


def model_gathered(mask):
    ducks = [i for i in range(61) if mask >> i & 1]
    if not ducks:
        return True
    group, todo = {ducks[0]}, [ducks[0]]
    while todo:
        for n in adjacent(todo.pop()):
            if mask >> n & 1 and n not in group:
                group.add(n)
                todo.append(n)
    return len(group) == len(ducks)


def model_swim(white, black, crumb):
    """The ducks after a crumb on `crumb`: on each ray, in their order, packed against it."""
    q, r = CELLS[crumb]
    for dq, dr in DIRECTIONS:
        ray, k = [], 1
        while (q + k * dq, r + k * dr) in INDEX:
            ray.append(INDEX[q + k * dq, r + k * dr])
            k += 1
        colours = [white >> c & 1 for c in ray if (white | black) >> c & 1]
        for c in ray:
            white &= ~(1 << c)
            black &= ~(1 << c)
        for c, is_white in zip(ray, colours):
            if is_white:
                white |= 1 << c
            else:
                black |= 1 << c
    return white, black


def connected_set(rnd, size):
    """A random group of `size` cells, grown a neighbour at a time."""
    group = [rnd.randrange(61)]
    while len(group) < size:
        n = rnd.choice(adjacent(rnd.choice(group)))
        if n not in group:
            group.append(n)
    return group


def test_the_model_pond_is_the_rules_pond():
    # docs/rules/ducks.md §2.3 and §2.2: a1 = 0, e5 = 30 at (0, 0), i5 = 60; a corner has
    # three neighbours, the centre six
    assert len(CELLS) == 61 and CELLS[30] == (0, 0)
    assert len(adjacent(0)) == 3 and len(adjacent(30)) == 6 and len(adjacent(60)) == 3


@pytest.mark.parametrize("cells,together", [
    ([], True), ([30], True), ([0], True),
    ([0, 60], False),                      # two ducks, each with no neighbour
    ([0, 1], True), ([0, 5], True),        # a1 with a2, a1 with b1
    ([0, 1, 2, 3, 4, 60], False),          # a row and one far away
    ([26, 27, 28, 29, 30, 31, 32, 33, 34], True),           # the middle row
    ([21, 22, 38, 39], False),             # the ring around e5 less e4 and e6: two halves
    ([21, 22, 29, 31, 38, 39], True),      # the whole ring, e5 empty
])
def test_gathered_in_chosen_shapes(cells, together):
    mask = bits(cells)
    assert model_gathered(mask) == together
    assert is_gathered(mask) == together


def test_gathered_agrees_with_the_model_on_random_sets():
    rnd = random.Random(5)
    seen = {True: 0, False: 0}
    for i in range(3000):
        if i % 3 == 0:
            mask = bits(rnd.sample(range(61), rnd.randrange(0, 14)))
        elif i % 3 == 1:
            mask = bits(connected_set(rnd, rnd.randrange(1, 14)))
        else:
            # a group and one duck more, joined to it or not
            mask = bits(connected_set(rnd, rnd.randrange(2, 12))) | 1 << rnd.randrange(61)
        expected = model_gathered(mask)
        assert is_gathered(mask) == expected, hex(mask)
        seen[expected] += 1
    assert min(seen.values()) > 500


def test_every_crumb_swims_and_ends_as_the_model_says():
    for s in ducks_positions(150, 3):
        raw = s._raw()
        for m in s.legal():
            child = s.copy().play_unchecked(m)
            after = child._raw()
            white, black = model_swim(raw["white"], raw["black"], m)
            assert (after["white"], after["black"]) == (white, black), (s.text(), m)
            wg, bg = model_gathered(white), model_gathered(black)
            if wg or bg:
                winner = s.player if wg and bg else (0 if wg else 1)
                assert child.ending()["reason"] == "gathered" and child.result()[winner] == 1.0
            else:
                assert not child.is_over or child.ending()["reason"] != "gathered"
