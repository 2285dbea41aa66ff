"""The transposition table's replacement (src/search/tt.pxd): a key may sit in any of the
four entries of its cache line; a store takes the key's own entry, else an empty one, else
the one worth least (the shallowest, two plies less for each search since it was stored);
a proof keeps each key in its home entry, always replaced."""
from roost.search.tt import TranspositionTable


def _bucket_keys(n, home=0x1230):
    """n keys that share one bucket and one home entry (they differ above the index bits)."""
    return [(j + 1) << 40 | home for j in range(n)]


def test_a_stored_result_is_found_again_and_another_key_is_not():
    tt = TranspositionTable(1)
    tt.begin_search()
    tt.keep(0xABCDEF0123, 0.25, 7, 5, "lower")
    assert tt.lookup(0xABCDEF0123) == (0.25, 7, 5, "lower")
    assert tt.lookup(0xABCDEF0124) is None


def test_a_key_is_stored_over_its_own_entry():
    tt = TranspositionTable(1)
    tt.begin_search()
    a, b, c = _bucket_keys(3)
    for key in (a, b, c):
        tt.keep(key, 0.0, 1, 9)
    tt.keep(b, 0.5, 2, 2)
    # b's own entry takes the shallower result: a and c, and the empty entry, are untouched
    assert tt.lookup(b) == (0.5, 2, 2, "exact")
    assert tt.lookup(a) is not None and tt.lookup(c) is not None


def test_a_full_bucket_loses_its_shallowest_entry():
    tt = TranspositionTable(1)
    tt.begin_search()
    keys = _bucket_keys(5)
    for key, depth in zip(keys, (5, 3, 7, 9)):
        tt.keep(key, 0.0, 1, depth)
    tt.keep(keys[4], 0.0, 1, 1)           # shallower than all: still kept, in place of the 3
    assert tt.lookup(keys[1]) is None
    assert all(tt.lookup(k) is not None for k in (keys[0], keys[2], keys[3], keys[4]))


def test_an_earlier_search_s_entries_count_two_plies_shallower_a_search():
    tt = TranspositionTable(1)
    keys = _bucket_keys(5)
    tt.begin_search()
    for key in keys[:3]:
        tt.keep(key, 0.0, 1, 5)           # worth 3 in the next search
    tt.begin_search()
    tt.keep(keys[3], 0.0, 1, 4)           # worth 4
    tt.keep(keys[4], 0.0, 1, 1)
    assert tt.lookup(keys[3]) is not None and tt.lookup(keys[4]) is not None
    assert sum(tt.lookup(k) is None for k in keys[:3]) == 1


MATE = 1_000_000.0
EXACT_AT_ANY_DEPTH = 1000


def test_a_proof_keeps_each_key_in_its_home_word():
    tt = TranspositionTable(1)
    tt.begin_search(proof=True)
    a, b = _bucket_keys(2)                # one home: the second replaces the first
    tt.keep(a, MATE - 5, 1, EXACT_AT_ANY_DEPTH)
    assert tt.lookup(a) == (MATE - 5, 1, EXACT_AT_ANY_DEPTH, "exact")
    tt.keep(b, -(MATE - 8), 2, EXACT_AT_ANY_DEPTH, "upper")
    assert tt.lookup(a) is None and tt.lookup(b) == (-(MATE - 8), 2, EXACT_AT_ANY_DEPTH, "upper")


def test_a_proof_word_keeps_wins_losses_and_draws_that_hold_at_any_depth():
    tt = TranspositionTable(1)
    tt.begin_search(proof=True)
    for i, (value, bound) in enumerate([(0.0, "exact"), (MATE - 1, "lower"), (MATE - 127, "upper"),
                                        (-(MATE - 2), "lower"), (-(MATE - 127), "exact")]):
        key = (i + 1) * 0x9E3779B97F4A7C15 & (2 ** 64 - 1)
        tt.keep(key, value, i, EXACT_AT_ANY_DEPTH, bound)
        assert tt.lookup(key) == (value, i, EXACT_AT_ANY_DEPTH, bound)
    # what a word cannot say is not kept: a result to a depth, a distance past 127 plies,
    # a value between a win and a draw; a move's place past 62 is kept as none
    for key, value, depth in ((11, MATE - 3, 9), (12, MATE - 128, EXACT_AT_ANY_DEPTH),
                              (13, 250000.0, EXACT_AT_ANY_DEPTH)):
        tt.keep(key, value, 1, depth)
        assert tt.lookup(key) is None
    tt.keep(14, 0.0, 63, EXACT_AT_ANY_DEPTH)
    assert tt.lookup(14) == (0.0, -1, EXACT_AT_ANY_DEPTH, "exact")


def test_a_proof_word_is_never_another_key_s():
    # the word keeps every bit of its key the index does not give: keys that share a home,
    # differing in any one bit above it, miss each other
    tt = TranspositionTable(1)
    tt.begin_search(proof=True)
    key = 0x0123_4567_89AB_CDEF
    tt.keep(key, MATE - 3, 0, EXACT_AT_ANY_DEPTH)
    for bit in range(16, 64):
        assert tt.lookup(key ^ (1 << bit)) is None, bit
    assert tt.lookup(key) is not None


def test_a_search_of_the_other_kind_starts_from_a_cleared_table():
    tt = TranspositionTable(1)
    tt.begin_search()
    tt.keep(77, 0.25, 3, 4)
    tt.begin_search(proof=True)
    assert tt.lookup(77) is None
    tt.keep(77, 0.0, 3, EXACT_AT_ANY_DEPTH)
    tt.begin_search(proof=True)            # a proof after a proof keeps what it proved
    assert tt.lookup(77) == (0.0, 3, EXACT_AT_ANY_DEPTH, "exact")
    tt.begin_search()
    assert tt.lookup(77) is None
