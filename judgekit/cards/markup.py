"""Card texts and rulings as the pages and the search show them (pure Python, no Flask).

Both use the VEKN card lists' markup: discipline (and virtue) symbols in brackets, lower
case for inferior (`[dom]`), capitals for superior (`[DOM]`); card types and other symbols
in capitals (`[ACTION]`, `[FLIGHT]`, `[MERGED]`, `[1 CONVICTION]`); `Ⓓ` for a directed
action. Rulings also name cards in braces, `{100518|Deflection}`.

- `to_html(text, card_url)`: escaped HTML; a symbol becomes a readable discipline mark
  (`<abbr class="dis dis-sup" title="Dominate (superior)">DOM</abbr>`), a card in braces a
  link to its page, line breaks `<br>`.
- `to_plain(text)`: the words the search indexes and its snippets show: `[DOM]` ->
  "[Dominate superior]", `{100518|Deflection}` -> "Deflection", `Ⓓ` -> "[D]" (what
  players say: "burn it as a D action"; the symbol itself is no word, and was not indexed).
"""
from __future__ import annotations

import html
import re
from typing import Callable

from judgekit.game.cards import DISCIPLINES

#: Symbols other than disciplines, as the card lists write them (upper case) -> words.
SYMBOLS = {
    "ACTION": "action", "POLITICAL ACTION": "political action", "ALLY": "ally",
    "RETAINER": "retainer", "EQUIPMENT": "equipment", "ACTION MODIFIER": "action modifier",
    "REACTION": "reaction", "COMBAT": "combat", "REFLEX": "reflex", "POWER": "power",
    "FLIGHT": "Flight", "MERGED": "merged", "CONVICTION": "conviction",
}
_VIRTUES = {"def", "inn", "jud", "mar", "red", "ven", "viz"}
_NAMES = dict(DISCIPLINES, viz="Vision")   # the rulings write the Vision virtue "viz"

# [dom] / [DOM] / [ACTION] / [1 CONVICTION] / {100518|Deflection}
TOKEN = re.compile(r"\[(?:(\d+) )?([A-Za-z]{3}|[A-Z][A-Z ]+[A-Z])\]|\{(\d+)\|([^{}]*)\}")


def _symbol(count: str | None, raw: str) -> tuple[str, str, str] | None:
    """(css class, shown text, meaning) of a bracketed symbol, or None if it is not one."""
    low = raw.lower()
    if raw.upper() in SYMBOLS and (len(raw) > 3 or raw.isupper()):
        word = SYMBOLS[raw.upper()]
        shown = f"{count} {raw}" if count else raw
        return "sym", shown, f"{count} {word}" if count else word
    if low in _NAMES and (raw.islower() or raw.isupper()):
        name = _NAMES[low]
        if low in _VIRTUES:
            return "dis dis-virtue", low, f"{name} (virtue)"
        if raw.isupper():
            return "dis dis-sup", raw, f"{name} (superior)"
        return "dis dis-inf", raw, f"{name} (inferior)"
    return None


def to_html(text: str, card_url: Callable[[int, str], str | None]) -> str:
    """Escaped HTML of a card text or a ruling. `card_url(id, name)` gives the page of a
    card named in braces (None: the name is shown without a link)."""
    out, pos = [], 0
    for m in TOKEN.finditer(text):
        out.append(html.escape(text[pos:m.start()]))
        pos = m.end()
        if m.group(3):
            name = m.group(4)
            url = card_url(int(m.group(3)), name)
            out.append(f'<a class="card-link" href="{html.escape(url)}">{html.escape(name)}</a>'
                       if url else html.escape(name))
            continue
        sym = _symbol(m.group(1), m.group(2))
        if sym is None:
            out.append(html.escape(m.group(0)))
            continue
        css, shown, meaning = sym
        out.append(f'<abbr class="{css}" title="{html.escape(meaning)}">{html.escape(shown)}</abbr>')
    out.append(html.escape(text[pos:]))
    return "".join(out).replace("\n", "<br>").replace("Ⓓ", DIRECTED)


DIRECTED = '<abbr class="sym" title="directed action">Ⓓ</abbr>'
PLAIN_DIRECTED = "[D]"   # a directed action's symbol in the search's words (`to_plain`)


def to_plain(text: str) -> str:
    """The text with symbols spelled out and card links as their names (for the search)."""
    def sub(m: re.Match) -> str:
        if m.group(3):
            return m.group(4)
        sym = _symbol(m.group(1), m.group(2))
        if sym is None:
            return m.group(0)
        css, _, meaning = sym
        if css.startswith("dis"):
            name, _, level = meaning.partition(" (")
            return f"[{name} {level.rstrip(')')}]"
        return f"[{meaning}]"
    return TOKEN.sub(sub, text).replace("Ⓓ", PLAIN_DIRECTED)


def linked_ids(text: str) -> list[int]:
    """The ids of the cards a ruling names in braces, in order, once each."""
    out: list[int] = []
    for m in TOKEN.finditer(text):
        if m.group(3) and int(m.group(3)) not in out:
            out.append(int(m.group(3)))
    return out


def discipline_mark(code: str, level: int) -> str:
    """The HTML mark of a vampire's discipline: ("dom", 2) -> superior Dominate."""
    name = _NAMES.get(code, code)
    if code in _VIRTUES:
        return f'<abbr class="dis dis-virtue" title="{html.escape(name)} (virtue)">{code}</abbr>'
    if level >= 2:
        return f'<abbr class="dis dis-sup" title="{html.escape(name)} (superior)">{code.upper()}</abbr>'
    return f'<abbr class="dis dis-inf" title="{html.escape(name)} (inferior)">{code}</abbr>'
