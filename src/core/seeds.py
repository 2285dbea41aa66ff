"""Seeds for everything random: one parent seed, derived per game, seat, move or world.

>>> derive_seed(1, 2) == derive_seed(1, 2) != derive_seed(1, 3)
True

Neighbouring parent seeds give unrelated children: the parent is mixed before the first
part is added, so game ``k + 1`` of seed 1 is not game ``k`` of seed 2.

>>> derive_seed(2, 0) == derive_seed(1, 1)
False
"""
_MASK = (1 << 63) - 1
_WORD = 0xFFFFFFFFFFFFFFFF
_GOLDEN = 0x9E3779B97F4A7C15


def _mix(x):
    """One splitmix64 output step: a bijection of 64-bit words that spreads every bit."""
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _WORD
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _WORD
    return x ^ (x >> 31)


def derive_seed(seed, *parts):
    """A 63-bit seed from a parent seed and integer parts (splitmix64 steps): stable across
    runs, platforms and Python versions, unlike hash().

    The parent is mixed on its own first.  Adding it to the first part directly (as roost
    did before tournament format 2) made ``derive_seed(s + 1, k) == derive_seed(s, k + 1)``,
    so runs with neighbouring seeds replayed each other's games shifted by one."""
    x = _mix((seed + _GOLDEN) & _WORD)
    for p in parts:
        x = _mix((x + _GOLDEN + (p & _WORD)) & _WORD)
    return x & _MASK
