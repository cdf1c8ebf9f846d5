"""Players find their seat: a round's seating as the public sees it, a name lookup and the
alphabetical list for the wall.

Only what the room may read: names, tables, seats, who sits out. No VEKN number, no VP, no
result, no player status (a dropped or disqualified player is seated where the round put
them, like anyone: penalty outcomes are never public).

Name matching (`find`): accents and case aside (`players.fold`), every word typed must be
the start of a word of the name, in any order — "ana" finds "Anaïs Dubois", "dub an" too,
"jean pier" finds "Jean-Pierre de la Tour" (hyphens and apostrophes separate words); "nais"
finds nobody. Anything that is not a letter or a digit (emoji, punctuation) is ignored, and
only the first `MAX_QUERY` characters are read.

Pure: no Flask, no database.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from judgekit.tournament.players import fold

MAX_QUERY = 80          # characters of a query that are read (a name is shorter)
MAX_WORDS = 6           # words of a query that are read
MAX_SHOWN = 12          # matches shown at once; more asks for more letters

_WORD = re.compile(r"[^\W_]+")   # letters and digits of any script


def words(text: str) -> tuple[str, ...]:
    """The words of a name or a query, folded (no accents, no case)."""
    return tuple(_WORD.findall(fold(text)))


@dataclass(frozen=True)
class Place:
    """Where one player sits in a round: `table` and `seat` (1 first), or `table` None for a
    player who sits out the round (3.1.2)."""
    player_id: int
    name: str
    table: int | None = None
    seat: int | None = None
    words: tuple[str, ...] = field(default=(), compare=False, repr=False)

    @property
    def sits_out(self) -> bool:
        return self.table is None


@dataclass(frozen=True)
class Table:
    number: int
    seats: tuple[Place, ...]        # in seat order


@dataclass(frozen=True)
class Seating:
    """A seated round as the room sees it."""
    tables: tuple[Table, ...]
    sit_outs: tuple[Place, ...]

    def places(self) -> list[Place]:
        return [p for t in self.tables for p in t.seats] + list(self.sit_outs)

    def table(self, number: int | None) -> Table | None:
        return next((t for t in self.tables if t.number == number), None)


def seating(tables: list[tuple[int, list[tuple[int, str]]]], sit_outs: list[tuple[int, str]]) -> Seating:
    """A Seating from plain data: tables as (number, [(player id, name) in seat order]),
    sit-outs as (player id, name)."""
    out = []
    for number, seats in sorted(tables):
        out.append(Table(number, tuple(Place(pid, name, number, k + 1, words(name))
                                       for k, (pid, name) in enumerate(seats))))
    return Seating(tuple(out), tuple(Place(pid, name, None, None, words(name)) for pid, name in sit_outs))


@dataclass(frozen=True)
class Lookup:
    """What a query found: `matches` (at most MAX_SHOWN, in name order), `total` found,
    `query` as read, and `problem` when nothing could be looked up (no letter typed)."""
    query: str
    matches: tuple[Place, ...] = ()
    total: int = 0
    problem: str | None = None


def read_query(text: str | None) -> tuple[str, tuple[str, ...]]:
    """(the query as shown back, its words): cut to MAX_QUERY characters and MAX_WORDS words."""
    shown = " ".join(str(text or "").split())[:MAX_QUERY]
    return shown, words(shown)[:MAX_WORDS]


def matches(name_words: tuple[str, ...], typed: tuple[str, ...]) -> bool:
    """Whether every typed word starts a word of the name (each name word used once)."""
    free = list(name_words)
    for w in sorted(typed, key=len, reverse=True):   # longest first: "an anais" finds "Anaïs Ange"
        hit = next((k for k, nw in enumerate(free) if nw.startswith(w)), None)
        if hit is None:
            return False
        free.pop(hit)
    return True


def find(room: Seating, text: str | None) -> Lookup:
    """The players of the round whose name matches `text` (see the module's doc)."""
    shown, typed = read_query(text)
    if not typed:
        problem = "Type a few letters of your name." if shown else None
        return Lookup(shown, problem=problem)
    found = sorted((p for p in room.places() if matches(p.words, typed)), key=sort_key)
    return Lookup(shown, tuple(found[:MAX_SHOWN]), len(found))


def sort_key(p: Place) -> tuple:
    """Name order as people read a list: accents and case aside, then as written."""
    return (" ".join(p.words), p.name, p.player_id)


def alphabetical(room: Seating) -> list[tuple[str, list[Place]]]:
    """Every player of the round in name order, grouped under their name's first letter
    (accents aside: "Émile" under E; names starting with a digit or another script under
    their own first character)."""
    groups: dict[str, list[Place]] = {}
    for p in sorted(room.places(), key=sort_key):
        first = (p.words[0][0] if p.words else "#").upper()
        groups.setdefault(first, []).append(p)
    return list(groups.items())
