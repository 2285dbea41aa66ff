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


def test_a_proof_keeps_each_key_in_its_home_entry():
    tt = TranspositionTable(1)
    tt.begin_search(proof=True)
    a, b = _bucket_keys(2)                # one home: the second replaces the first
    tt.keep(a, 1.0, 1, 1000)
    tt.keep(b, -1.0, 2, 3)
    assert tt.lookup(a) is None and tt.lookup(b) == (-1.0, 2, 3, "exact")
