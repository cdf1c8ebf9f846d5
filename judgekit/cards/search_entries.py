"""The search entries of the cards and their rulings (pure Python, no Flask).

One entry per thing a judge asks about (docs/search.md, "Adding a kind of document"):

- a **card** (`kind` "card"): title the card's name (with its version for a vampire printed
  several times, "Theo Bell (G2 ADV)"), body its text with the symbols spelled out
  ("[Dominate superior]"), context its types, clan and disciplines; key `cards/<id>`,
  section the card id, url `/cards/<id>`; a vampire's carries its capacity and a library
  card its cost (numbers the search finds it by: "5 cap ravnos who…", "the 2-pool master");
- each **ruling of a card** (`kind` "ruling"): title the card's name, body the ruling
  (card links as names), same section and context as its card; key and url
  `cards/<id>#r<n>`, the ruling's anchor on the card page;
- each **ruling of a card group** (`kind` "ruling"), given once for the whole group: title
  the group's name, section the group id (`G00106`); key and url
  `/cards/groups/<id>#r<n>`.

All have `doc` "cards". `cards_stamp()` changes with the card files, so a `cards update`
rebuilds the search index.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from judgekit.cards import markup
from judgekit.cards.catalog import CardCatalog
from judgekit.game.cards import CARD_TYPES, DISCIPLINES

DOC = "cards"
GROUP_CONTEXT = "card group"     # a group ruling's context: the rulings of cards of any type
#: The word a library card that requires no discipline holds in its context, after its types
#: (the context is indexed, never shown): players tell such a card by it ("the no-discipline
#: combat card that…", "+1 stealth action, no disc needed"), and the card's own text never
#: says it; the judges' vocabulary reads "no discipline" as this word
#: (`judgekit.rules.card_idioms`)
NO_DISCIPLINE = "disciplineless"
#: The unit of a vampire's capacity, a number its entry states beside its text (no word's
#: stem is spelt so: only a query's number said to be a capacity counts it, "5 cap")
CAPACITY_UNIT = "#cap"
#: … and of a library card's cost in pool or blood, the stem a query says it with -> the
#: unit ("a 2-pool master", "costs 1 blood": `numbers.query_units`)
COST_UNITS = {"pool": "#pool", "blood": "#blood"}
#: Every unit of a number stated beside a card's text
BESIDE_UNITS = frozenset((CAPACITY_UNIT, *COST_UNITS.values()))
CARD_FILES = ("crypt.json", "library.json", "texts.json", "rulings.json")


def card_context(card) -> str:
    parts = list(card.types)
    if card.clan:
        parts.append(card.clan)
    codes = card.facts.disciplines
    parts += [DISCIPLINES.get(c, c) for c in (codes if isinstance(codes, (tuple, list)) else sorted(codes))]
    if card.kind == "library" and not codes:
        parts.append(NO_DISCIPLINE)
    return " ".join(parts)


def vampire_capacity(card) -> int | None:
    """A vampire's capacity ("the 5 cap ravnos who…" finds it); None for any other card (an
    imbued's is its life, which players do not call so)."""
    cap = card.facts.capacity if card.kind == "crypt" else None
    return cap if isinstance(cap, int) and "Vampire" in card.types else None


def stated_beside(card) -> tuple[tuple[float, str], ...]:
    """The numbers a card's entry states beside its text: a vampire's capacity, a library
    card's cost in pool and in blood (an "X" cost is no number)."""
    cap = vampire_capacity(card)
    if cap is not None:
        return ((float(cap), CAPACITY_UNIT),)
    if card.kind == "crypt":
        return ()
    costs = ((card.facts.pool_cost, COST_UNITS["pool"]), (card.facts.blood_cost, COST_UNITS["blood"]))
    return tuple((float(cost), unit) for cost, unit in costs if isinstance(cost, int) and not isinstance(cost, bool))


def context_types(context: str) -> frozenset[str] | None:
    """The card types an entry's `context` opens with (`card_context`: "Action Modifier
    Combat Auspex" -> Action Modifier, Combat); None for a group's ruling (of cards of any
    type)."""
    if context == GROUP_CONTEXT:
        return None
    found, rest = [], context
    while rest:
        kind = next((t for t in CARD_TYPES if rest == t or rest.startswith(t + " ")), None)
        if kind is None:
            break
        found.append(kind)
        rest = rest[len(kind) + 1:]
    return frozenset(found)


def card_entries(catalog: CardCatalog, entry_type, group_questions: dict | None = None) -> list:
    """Every card, card ruling and group ruling as `entry_type` (the search's `Entry`); each
    group's first ruling carries the questions the group answers (`group_questions`: group id
    -> the text of its questions, from `content/rules/questions/cards.yaml`) as its
    `questions` field: the group is found once, not once per ruling."""
    group_questions = group_questions or {}
    out = []
    for card in sorted(catalog, key=lambda c: c.id):
        title = card.label if card.kind == "crypt" and catalog.versions(card) else card.name
        context = card_context(card)
        sid = str(card.id)
        out.append(entry_type(key=f"{DOC}/{sid}", doc=DOC, section=sid, number="", title=title,
                              context=context, body=markup.to_plain(card.text), url=card.url,
                              kind="card", anchors=[(0, "text")], stated=stated_beside(card)))
        for r in catalog.rulings(card):
            if r.group is not None:
                continue     # a group's rulings are entries of the group (below)
            out.append(entry_type(key=f"{DOC}/{sid}#{r.anchor}", doc=DOC, section=sid, number="",
                                  title=title, context=context, body=markup.to_plain(r.text),
                                  url=f"{card.url}#{r.anchor}", kind="ruling", anchors=[(0, r.anchor)]))
    for group in sorted(catalog.groups.values(), key=lambda g: g.id):
        asked = group_questions.get(group.id, "")
        for n, r in enumerate(catalog.group_rulings(group)):
            url = f"/cards/groups/{group.id}#{r.anchor}"
            out.append(entry_type(key=f"{DOC}/{group.id}#{r.anchor}", doc=DOC, section=group.id,
                                  number="", title=group.name, context=GROUP_CONTEXT,
                                  body=markup.to_plain(r.text), url=url, kind="ruling",
                                  anchors=[(0, r.anchor)], questions="" if n else asked))
    return out


def cards_stamp(content_dir: str | Path) -> str:
    """A hash of the card files (the search index is rebuilt when it changes)."""
    digest = hashlib.sha256()
    folder = Path(content_dir) / "cards"
    for name in CARD_FILES:
        try:
            digest.update((folder / name).read_bytes())
        except OSError:
            digest.update(b"<missing>")
    return digest.hexdigest()[:16]
