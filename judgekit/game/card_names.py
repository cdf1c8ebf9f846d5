"""How card names are compared: folding (case, accents, punctuation, ™), the
look-up key of a name, and the version a query names ("Theo Bell (G2 ADV)"). Pure
Python; `judgekit.game.cards` builds its index on these.
"""
from __future__ import annotations

import re
import unicodedata


_TRANSLIT = str.maketrans({
    "ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE",
    "ß": "ss", "đ": "d", "Đ": "D", "ı": "i", "þ": "th", "ð": "d", "’": "'", "‘": "'",
    "“": "\"", "”": "\"", "—": "-", "–": "-", "™": "", "®": "", "©": "",
})
_QUOTES = "'`´\""
# for name_key: delete every ASCII character that is not a lower-case letter or a digit
_KEY_DELETE = {c: None for c in range(128) if not chr(c).isdigit() and not "a" <= chr(c) <= "z"}
# for _fold: quotes deleted, other punctuation -> space
_FOLD_TABLE = {c: " " for c in _KEY_DELETE}
_FOLD_TABLE.update({ord(q): None for q in _QUOTES})


def asciifold(text: str) -> str:
    if "&" in text:
        text = text.replace("&", " and ")
    if text.isascii():
        return text.lower()
    text = unicodedata.normalize("NFKD", text.translate(_TRANSLIT))
    return "".join(ch for ch in text if not unicodedata.combining(ch)).lower()


def fold(text: str) -> str:
    """Lower case, no accents, apostrophes and quotes removed, other punctuation -> space,
    single spaces."""
    return " ".join(asciifold(text).translate(_FOLD_TABLE).split())


def name_key(text: str) -> str:
    """The look-up key of a card name: letters and digits only, lower case, no accents.

    "Cats' Guidance", "cat's guidance" and "CATS GUIDANCE" all give "catsguidance";
    "Étienne Fauberge" and "etienne fauberge" give "etiennefauberge".
    """
    key = asciifold(text).translate(_KEY_DELETE)
    return key if key.isascii() else "".join(ch for ch in key if ch.isalnum())


def split_version(query: str) -> tuple[str, str | None, bool | None]:
    """("Theo Bell (G2 ADV)") -> ("Theo Bell", "2", True); no version -> (query, None, None).

    Accepted: "(ADV)", "(Advanced)", "(G2)", "(Group 2)", "(2)", "(G2 ADV)", "(G2, adv)",
    and the same without parentheses at the end ("Theo Bell adv", "Theo Bell G2")."""
    text = query.strip()
    m = re.search(r"[(\[]([^()\[\]]*)[)\]]\s*$", text)
    if not m:
        m = re.search(r"(?:\s+(?:adv|advanced|g\s?[0-9]+|group\s?[0-9]+))+\s*$", text, re.I)
        if not m:
            return query, None, None
    base, rest = text[:m.start()], m.group(0).lower()
    rest = rest.strip().strip("()[]")
    rest, n_adv = re.subn(r"\badv(?:anced)?\b", " ", rest)
    group = None
    g = re.search(r"(?:\bg(?:roup)?\s*)?\b([0-9]+|any)\b|\bg([0-9]+)\b", rest)
    if g:
        group = (g.group(1) or g.group(2)).upper()
        rest = rest[:g.start()] + rest[g.end():]
    if rest.strip(" ,;-") or not (n_adv or group) or not base.strip():
        return query, None, None
    return base.strip(), group, (True if n_adv else None)


def group_rank(group: str) -> int:
    return int(group) if group.isascii() and group.isdigit() else -1
