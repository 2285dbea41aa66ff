"""CuBirds' registered positions (its GAME in src/core/cubirds/__init__.py; JSON, all 110
cards): Cubirds.start(players, seed=0) for 4, 2 and 5 players, and two mid-game positions
reached by seeded random play.  EXAMPLES[0] is the default position of commands;
BENCH_POSITION is what benchmarks measure."""
_EX_START_4 = (
    '{"players": 4, "dealer": 0, "to_move": 0, "phase": "lay", "rows": ["MWO", "PWR", "PMR", "ROF"], '
    '"hands": ["FOTDMMWW", "DDDMWWRR", "OTDWRRRR", "FOTTPWRR"], "known": ["", "", "", ""], '
    '"lacks": ["", "", "", ""], "collections": ["W", "W", "T", "R"], "discard": "", '
    '"deck": "FFFFOOOOOTTTTTDDDDDDDDPPPPPPPPPPMMMMMMMMMMMMWWWWWWWWWWRRRRRRRR", "turn": 0}')
_EX_START_2 = (
    '{"players": 2, "dealer": 0, "to_move": 0, "phase": "lay", "rows": ["MWO", "PWR", "PMR", "ROF"], '
    '"hands": ["FOTDMMWW", "DDDMWWRR"], "known": ["", ""], "lacks": ["", ""], '
    '"collections": ["R", "R"], "discard": "", '
    '"deck": "FFFFFOOOOOOOTTTTTTTTTDDDDDDDDDPPPPPPPPPPPMMMMMMMMMMMMWWWWWWWWWWWWWWRRRRRRRRRRRRR", "turn": 0}')
_EX_START_5 = (
    '{"players": 5, "dealer": 0, "to_move": 0, "phase": "lay", "rows": ["MWO", "PWR", "PMR", "ROF"], '
    '"hands": ["FOTDMMWW", "DDDMWWRR", "OTDWRRRR", "FOTTPWRR", "TMMWWWRR"], '
    '"known": ["", "", "", "", ""], "lacks": ["", "", "", "", ""], '
    '"collections": ["M", "W", "T", "F", "P"], "discard": "", '
    '"deck": "FFFOOOOOTTTTDDDDDDDDPPPPPPPPPMMMMMMMMMWWWWWWWWRRRRRRR", "turn": 0}')
_EX_MID_4 = (
    '{"players": 4, "dealer": 0, "to_move": 0, "phase": "lay", '
    '"rows": ["OOOPRR", "DRRR", "OPMMDWWTTT", "MMROFDW"], '
    '"hands": ["FOPMMWWW", "PWWWW", "DDDPMWW", "FTPPM"], "known": ["", "PW", "DDD", "M"], '
    '"lacks": ["", "R", "", ""], "collections": ["W", "W", "T", "TRR"], "discard": "TTRRRRR", '
    '"deck": "FFFFOOOOTTDDDDDDDPPPPPPMMMMMMMMMWWWWWWRRRRRRR", "turn": 20}')
_EX_MID_3 = (
    '{"players": 3, "dealer": 0, "to_move": 0, "phase": "lay", '
    '"rows": ["PRRRRRR", "DDDPWR", "WPMMMMM", "TFFP"], '
    '"hands": ["DWWWR", "TDWWR", "FOPPR"], "known": ["DWR", "TDWWR", ""], '
    '"lacks": ["FOTDM", "DMWR", ""], "collections": ["OR", "T", "T"], "discard": "OO", '
    '"deck": "FFFFOOOOOOTTTTTTDDDDDDDDPPPPPPPMMMMMMMMMMMMWWWWWWWWWWWWWRRRRRRRRR", "turn": 12}')

EXAMPLES = (_EX_START_4, _EX_START_2, _EX_START_5, _EX_MID_4, _EX_MID_3)
BENCH_POSITION = _EX_MID_4
