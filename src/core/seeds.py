"""Seeds for everything random: one parent seed, derived per game, seat, move or world.

>>> derive_seed(1, 2) == derive_seed(1, 2) != derive_seed(1, 3)
True
"""
_MASK = (1 << 63) - 1


def derive_seed(seed, *parts):
    """A 63-bit seed from a parent seed and integer parts (splitmix64 steps): stable across
    runs, platforms and Python versions, unlike hash()."""
    x = seed & 0xFFFFFFFFFFFFFFFF
    for p in parts:
        x = (x + 0x9E3779B97F4A7C15 + (p & 0xFFFFFFFFFFFFFFFF)) & 0xFFFFFFFFFFFFFFFF
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        x = z ^ (z >> 31)
    return x & _MASK
