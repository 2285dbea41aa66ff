"""The tiles and cards of Under the Leaves as printed (docs/rules/leaves.md §1, §8): faces,
orientations, square letters, card names.  Plain data and helpers; the native tables are
built from it (tables.pxd)."""

# Square types: Y P O V G (colours 0..4), ~ puddle (5).
TYPE_LETTERS = "YPOVG~"
COLOUR_NAMES = ("yellow", "pink", "orange", "purple", "green", "puddle")

# §1.2 / §1.3: TL TR BL BR of the printed face; * marks a mushroom.
TILE_TABLE = (
    "G* O P P", "O* Y P P", "Y* V P P", "O* V P P", "V* G P P",
    "G* Y P P", "V* P Y Y", "P* O Y Y", "O* G Y Y", "O* V Y Y",
    "G* V Y Y", "P* G Y Y", "V* Y O O", "Y* P O O", "P* G O O",
    "V* P O O", "G* Y O O", "G* V O O", "O* G V V", "P* O V V",
    "P* Y V V", "Y* O V V", "Y* G V V", "G* P V V", "V* O G G",
    "O* P G G", "Y* P G G", "Y* O G G", "V* Y G G", "P* V G G",
    "~ O P P", "~ Y P P", "~ G P P", "~ V P P", "~ Y O O",
    "~ V O O", "~ G O O", "~ P O O", "~ O Y Y", "~ P Y Y",
    "~ V Y Y", "~ G Y Y", "~ O V V", "~ Y V V", "~ G V V",
    "~ P V V", "~ P G G", "~ O G G", "~ Y G G", "~ V G G",
    # starting tiles S0..S3
    "~ P V Y*", "~ O Y P*", "~ V P O*", "~ Y O V*",
)
NTILES = 50            # regular tiles 0..49; starting tiles S0..S3 are 50..53
NALL = 54

# §1.4: placed position i (TL, TR, BL, BR) takes printed square ORIENTATIONS[o][i].
ORIENTATIONS = ((0, 1, 2, 3), (2, 0, 3, 1), (3, 2, 1, 0), (1, 3, 0, 2),
                (1, 0, 3, 2), (0, 2, 1, 3), (2, 3, 0, 1), (3, 1, 2, 0))

# §8: card ids; leaf 0..3, mushroom 4..7, puddle 8..11.
CARD_NAMES = ("Thoughtful", "Restless", "Flirty", "Runner",
              "Host", "Explorer", "Collector", "Loner",
              "Diver", "Skipper", "Friendly", "Shy")
CARD_CODES = ("Th", "Re", "Fl", "Ru", "Ho", "Ex", "Co", "Lo", "Di", "Sk", "Fr", "Sh")
CATEGORY_NAMES = ("leaf", "mushroom", "puddle")


def tile_squares(tile, o):
    """The squares of a tile (0..49, or 50+j for S<j>) placed in orientation o, as
    (TL, TR, BL, BR) strings like 'Y*', 'P', '~' (§1.4)."""
    if (isinstance(tile, bool) or isinstance(o, bool) or not isinstance(tile, int)
            or not isinstance(o, int) or not 0 <= tile < NALL or not 0 <= o < 8):
        raise ValueError("tile 0..53 and orientation 0..7")
    printed = TILE_TABLE[tile].split()
    return tuple(printed[ORIENTATIONS[o][i]] for i in range(4))


def tile_desc(tile):
    return f"{tile}[" + " ".join(tile_squares(tile, 0)) + "]"


def card_index(code):
    """A card by code ('Fl') or name ('Flirty')."""
    if code in CARD_CODES:
        return CARD_CODES.index(code)
    if code in CARD_NAMES:
        return CARD_NAMES.index(code)
    raise ValueError(f"unknown card {code!r}; codes: {' '.join(CARD_CODES)}")
