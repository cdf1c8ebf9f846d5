"""The round's clock as the rules set it: the time limit (tournament rules 3.1.1: a round
lasts at least two hours) and the time-extension cap (Tournament Conduct & Infraction Guide
v2, §1.2.4: judges may cap a table's extensions at 10 minutes a round — a permission, not a
rule; past it, only for a major disruption or with the head judge's approval; the tournament
rules set no cap). `CAP_SENTENCE` is that statement in the one wording every page and message
uses. Facts only; the clock itself and the extension guidance are `judgekit.recorder.clock`.
"""
from __future__ import annotations

from judgekit.i18n import Message, Said

EXTENSION_CAP_MIN = 10
MAX_EXTENSION_MIN = 60  # the most one extension may add (past the cap: major disruption, HJ's leave)
MIN_ROUND_MIN = 120
DEFAULT_LIMIT_MIN = 120
# Where the cap comes from, and the cap in words: the same sentence on every page and in
# every message that states it (tests/test_recorder_issue31.py holds them to it).
CAP_SOURCE = "Tournament Conduct & Infraction Guide v2, §1.2.4"
# a `Said`: the English text (a str), worded in the reader's language where it is a parameter
CAP_SENTENCE = Said(Message("clock.cap", "Judges may cap a table's extensions at %(cap)s minutes a round "
                            "(%(source)s); past it, only for a major disruption or with the head judge's "
                            "approval.", cap=EXTENSION_CAP_MIN, source=CAP_SOURCE))
