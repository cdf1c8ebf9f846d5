"""The player record's facts, as plain functions: names and VEKN numbers.

A player has a first name and a last name (the VEKN's report splits them), a VEKN number,
a city and a country. judgekit also keeps `name`, the display name every page, export and
recorder game shows: "first last" when the parts are given. A single name (typed in one
field, or stored before the parts existed) is split on its first space, as the VEKN's own
tools do: "Jean-Pierre de la Tour" is first "Jean-Pierre", last "de la Tour"; "Ana" is
first "Ana" and no last name. Editing a player can change the split without changing how
the name reads.

VEKN numbers: digits (a member's number; a leading "#" and spaces are dropped), or a
temporary number in the form the VEKN's tools hand out to new members until the real one
exists, "P" followed by digits (stored as "P123"). A temporary number is accepted and
flagged until replaced; a player without any number is "not rated" (9.6).

Pure: no Flask, no database. Problems are returned as text, not raised.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Any, Iterable, Mapping

from judgekit.i18n import Message, Said

_PERMANENT = re.compile(r"\d{1,10}")
_TEMPORARY = re.compile(r"[Pp]\d{1,10}")


def squeeze(text: str) -> str:
    """Runs of white space (tabs, newlines, no-break spaces) as one space, trimmed."""
    return " ".join(text.split())


def split_name(name: str) -> tuple[str, str]:
    """(first, last): split on the first space, as the VEKN's tools do."""
    text = squeeze(name)
    first, _, last = text.partition(" ")
    return first, last


def join_name(first: str | None, last: str | None) -> str:
    """The display name of a first and a last name."""
    return squeeze(f"{first or ''} {last or ''}")


def parse_vekn(value: Any) -> tuple[str | None, str | None]:
    """(number, problem): a VEKN number as stored ("1234567", "P123"), None for no number,
    or a problem saying what is wrong with `value`."""
    if value is None:
        return None, None
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return None, Said(Message("roster.vekn-digits",
                                  "the VEKN number must be digits (or P and digits for a temporary number)"))
    if isinstance(value, int) and value < 0:
        return None, Said(Message("roster.vekn-negative", "the VEKN number must be digits, not %(value)s",
                                  value=repr(value)))
    text = str(value).strip().lstrip("#").replace(" ", "").replace("\u00a0", "")
    if text.endswith(".0") and text[:-2].isdigit():  # a spreadsheet's 1234567.0
        text = text[:-2]
    if not text:
        return None, None
    if _PERMANENT.fullmatch(text) and text.isascii():
        return text, None
    if _TEMPORARY.fullmatch(text) and text.isascii():
        return "P" + text[1:], None
    shown = str(value) if len(str(value)) <= 40 else str(value)[:40] + "…"
    return None, Said(Message("roster.vekn-not-digits", "the VEKN number must be digits (or P and digits "
                              "for a temporary number), not %(value)s", value=repr(shown)))


def is_temporary(vekn: str | None) -> bool:
    """Whether a stored number is a temporary one ("P123")."""
    return bool(vekn) and vekn[0] == "P"


def fold(text: str) -> str:
    """Text for matching names: no accents, no case, single spaces ("Zoë" ~ "zoe")."""
    decomposed = unicodedata.normalize("NFKD", text)
    return squeeze("".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold())


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def told_apart(people: Iterable[Mapping[str, Any]], *, every: bool = False) -> dict[Any, str]:
    """The words that tell players of the same name apart: player id -> "Porto" (shown as
    "Rui Costa · Porto"). The one distinction every page uses — phone check-in's "which one
    are you?", the seat finder, the wall list, the round page, the standings.

    For each player whose name (`fold`: accents and case aside) another of `people` shares:
    their city, else their country; when that still does not tell them apart (same city,
    or none given), the order they registered in among those is added ("Porto, 2nd
    registered"; by id). `every`: give every player their city (or country) even without a namesake, as
    the check-in's list of matches does. People are mappings with `id`, `name`, `city`,
    `country`; nobody else's data is read."""
    people = list(people)
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for p in people:
        groups.setdefault(fold(p.get("name") or ""), []).append(p)
    out: dict[Any, str] = {}
    for group in groups.values():
        if len(group) < 2:
            if every:
                place = (group[0].get("city") or group[0].get("country") or "").strip()
                if place:
                    out[group[0]["id"]] = place
            continue
        places = {p["id"]: (p.get("city") or p.get("country") or "").strip() for p in group}
        counts: dict[str, int] = {}
        for place in places.values():
            counts[fold(place)] = counts.get(fold(place), 0) + 1
        seen: dict[str, int] = {}
        for p in sorted(group, key=lambda q: q["id"]):
            place = places[p["id"]]
            if place and counts[fold(place)] == 1:
                out[p["id"]] = place
                continue
            seen[fold(place)] = k = seen.get(fold(place), 0) + 1
            out[p["id"]] = f"{place}, {_ordinal(k)} registered" if place else f"{_ordinal(k)} registered"
    return out
