"""Event levels as the VEKN lists them: the one place their facts live.

Each level has the key judgekit stores (`tournaments.level`), the VEKN's event type id (its
API), its name, the name the Archon workbook writes in Tournament Info!B9, the bonus added
to the finalist coefficient (tournament rules Appendix A.2.1), and its format.

Where the bonuses come from:
- Appendix A.2.1: +0.25 for a national championship, +1.0 for a continental championship.
- The Archon v1.5 workbook (Tournament Info row 10) also gives a Continental Qualifier
  +0.25 — the "qualifier" of the rules' own worked example (a 50-player qualifier, coef
  log15(2500) − 1 + 0.25). judgekit follows Archon there; the newer VEKN tools give
  +0.25/+1.0 to the championships only.
- The Limited national and continental championships are national and continental
  championships: they take the championships' bonuses.
- Every other level: no bonus.

The three keys judgekit stored before this table existed ("standard", "national",
"continental") keep their meaning (Standard Constructed, National Championship,
Continental Championship). Pure data, no imports.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    key: str            # what judgekit stores and the API takes
    vekn_type: int      # the VEKN's event type id
    name: str           # the VEKN's name for it
    archon: str         # Tournament Info!B9 in the Archon workbook (Archon's own spelling for
                        # the ten levels its list has, the VEKN's name for the others)
    bonus: float        # added to the finalist coefficient (Appendix A.2.1)
    format: str         # "Constructed" or "Limited" (Tournament Info!B8)

    def label(self) -> str:
        """The name with its coefficient bonus, for a form's choice."""
        return f"{self.name} (+{self.bonus:g})" if self.bonus else self.name


LEVELS: tuple[Level, ...] = (
    Level("standard", 2, "Standard Constructed", "Standard Constructed", 0.0, "Constructed"),
    Level("v5", 16, "V5 Constructed", "V5 Constructed", 0.0, "Constructed"),
    Level("demo", 1, "Demo", "Demo", 0.0, "Constructed"),
    Level("limited", 3, "Limited", "Limited", 0.0, "Limited"),
    Level("mini-qualifier", 4, "Mini Qualifier", "Mini Qualifier", 0.0, "Constructed"),
    Level("national-qualifier", 7, "National Qualifier", "National Qualifier", 0.0, "Constructed"),
    Level("continental-qualifier", 5, "Continental Qualifier", "Continental Qualifier", 0.25, "Constructed"),
    Level("national", 8, "National Championship", "National Championship", 0.25, "Constructed"),
    Level("continental", 6, "Continental Championship", "Continental Championship", 1.0, "Constructed"),
    Level("limited-national", 13, "Limited National Championship", "Limited National Championship", 0.25,
          "Limited"),
    Level("limited-continental", 14, "Limited Continental Championship",
          "Limited Continental Championship", 1.0,
          "Limited"),
    Level("grand-prix", 15, "Grand Prix", "Grand Prix", 0.0, "Constructed"),
    Level("storyline", 9, "Storyline", "Storyline", 0.0, "Constructed"),
    Level("byo-storyline", 11, "Build Your Own Storyline", "Build Your Own Storyline", 0.0, "Constructed"),
    Level("launch", 10, "Launch Event", "Launch Event", 0.0, "Constructed"),
    Level("unsanctioned", 12, "Unsanctioned", "Unsanctioned Tournament", 0.0, "Constructed"),
)
BY_KEY: dict[str, Level] = {lv.key: lv for lv in LEVELS}
KEYS: tuple[str, ...] = tuple(BY_KEY)
FORMATS = ("Constructed", "Limited")

# The Archon v1.5 workbook's own list (Tournament Info!B9), in its order, to the level an
# import gives the event. Names are matched without regard to case, spaces or hyphens.
ARCHON_NAMES: dict[str, str] = {
    "Standard Constructed": "standard", "National Qualifier": "national-qualifier",
    "National Championship": "national", "Continental Qualifier": "continental-qualifier",
    "Continental Championship": "continental", "Grand Prix": "grand-prix", "Storyline": "storyline",
    "Limited": "limited", "Demo": "demo", "Unsanctioned Tournament": "unsanctioned",
}


def _fold(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


_BY_WORDS: dict[str, str] = {}
for _lv in LEVELS:
    _BY_WORDS[_fold(_lv.key)] = _lv.key
    _BY_WORDS[_fold(_lv.name)] = _lv.key
for _name, _key in ARCHON_NAMES.items():
    _BY_WORDS[_fold(_name)] = _key
_BY_WORDS.update({_fold("Unsanctioned Tournament"): "unsanctioned", _fold("Launch"): "launch",
                  _fold("V5"): "v5", _fold("GP"): "grand-prix", _fold("NC"): "national",
                  _fold("CC"): "continental", _fold("NQ"): "national-qualifier",
                  _fold("CQ"): "continental-qualifier"})


def find(text: object) -> Level | None:
    """The level a key, a VEKN name or an Archon name stands for ("National Championship",
    "national", "NC"), or None."""
    if not isinstance(text, str):
        return None
    key = _BY_WORDS.get(_fold(text))
    return BY_KEY.get(key) if key else None


def names_list() -> str:
    """The VEKN names, for an error message."""
    return ", ".join(lv.name for lv in LEVELS)
