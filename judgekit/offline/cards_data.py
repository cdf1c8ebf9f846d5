"""The cards as the browser shows them offline (`/offline/cards.json`, `static/card-shell.js`).

A phone keeps every rules page, but not the 4,149 card pages (about 10 MB): a card page is
saved when it is opened. For the others, the service worker answers with the card shell
(`/cards/offline`), which draws the card from this file: name, facts, text, rulings with
their sources, groups, other versions — what `templates/cards/card.html` shows, without
the guideline examples and trainer questions.

Format (compact arrays; `FORMAT` changes when it does):

    {"format", "version", "attribution": [text, rulings], "source": "krcg 5.14",
     "disciplines": {code: name}, "sets": {abbrev: name},
     "refs": {label: url},
     "groups": {id: [name, [[card id, prefix], …], [[text, [ref labels], reminder, {card id: [text, [refs]]}], …]]},
     "cards": {id: [name, label, [types], [[fact, value], …], text, [sets], [[text, [refs], reminder], …],
                    [group ids], [other version ids]]}}

Texts keep their markup (`[dom]`, `{id|name}`, `Ⓓ`): the shell renders it as
`judgekit.cards.markup.to_html` does.
"""
from __future__ import annotations

import hashlib
import json

from judgekit.cards.catalog import ATTRIBUTION_RULINGS, ATTRIBUTION_TEXT, CardCatalog
from judgekit.cards.rulings_source import AUTHORS
from judgekit.game.cards import DISCIPLINES
from judgekit.cards.search_entries import cards_stamp

FORMAT = 1


def _facts(card) -> list[list[str]]:
    f = card.facts
    out = []
    if card.kind == "crypt":
        if card.clan:
            out.append(["Creed" if card.imbued else "Clan", card.clan])
        if f.capacity is not None:
            out.append(["Life" if card.imbued else "Capacity", str(f.capacity)])
        if f.group:
            out.append(["Group", f.group + (" · advanced" if f.advanced else "")])
        if f.disciplines:
            marks = " ".join(f"[{c.upper() if lvl >= 2 else c}]" for c, lvl in sorted(f.disciplines.items()))
            out.append(["Virtues" if card.imbued else "Disciplines", marks])
        if f.title:
            votes = f" ({f.votes} vote{'s' if f.votes != 1 else ''})" if f.votes else ""
            out.append(["Title", f.title.title() + votes])
    else:
        if f.disciplines:
            sep = " or " if f.requirement == "choice" else " and "
            out.append(["Requires", sep.join(f"[{c}]" for c in f.disciplines)])
        if card.clan:
            out.append(["Clan", card.clan])
        costs = [f"{v} {k}" for k, v in (("pool", f.pool_cost), ("blood", f.blood_cost),
                                         ("conviction", f.conviction_cost)) if v is not None]
        if costs:
            out.append(["Cost", ", ".join(costs)])
        if card.capacity:
            out.append(["Capacity / life", card.capacity])
        if f.burn_option:
            out.append(["Burn option", "yes"])
    if card.path:
        out.append(["Path", card.path])
    if card.banned:
        out.append(["Banned", f"since {card.banned}"])
    return out


def build_cards_data(catalog: CardCatalog) -> dict:
    groups = {}
    for g in catalog.groups.values():
        rulings = []
        for r in catalog.raw_rulings(g.id):
            over = {cid: [o["text"], o["refs"]] for cid, o in r.get("overrides", {}).items()}
            rulings.append([r["text"], r["refs"], bool(r.get("reminder")), over])
        groups[g.id] = [g.name, [[cid, prefix] for cid, prefix in g.members], rulings]
    cards = {}
    for card in sorted(catalog, key=lambda c: c.id):
        own = [[r["text"], r["refs"], bool(r.get("reminder"))] for r in catalog.raw_rulings(card.id)]
        cards[str(card.id)] = [card.name, card.label, list(card.types), _facts(card), card.text,
                               list(card.sets), own, [g.id for g, _ in card.groups],
                               [v.id for v in catalog.versions(card)]]
    data = {
        "format": FORMAT,
        "attribution": [ATTRIBUTION_TEXT, ATTRIBUTION_RULINGS],
        "source": f"krcg {catalog.source.get('version', '?')}",
        "disciplines": dict(DISCIPLINES, viz="Vision"),
        "authors": AUTHORS,
        "sets": {k: v.get("name", k) for k, v in catalog.sets.items()},
        "refs": {label: ref.url for label, ref in catalog.references.items()},
        "groups": groups,
        "cards": cards,
    }
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    data["version"] = hashlib.sha256(body.encode()).hexdigest()[:12]
    return data


def data_version(content_dir) -> str:
    """The version of the data: follows the card files and this format (cheap: no build)."""
    return f"{cards_stamp(content_dir)[:10]}{FORMAT}"


def data_url(content_dir) -> str:
    return f"/offline/cards.json?v={data_version(content_dir)}"


def cards_json(catalog: CardCatalog) -> str:
    return json.dumps(build_cards_data(catalog), ensure_ascii=False, separators=(",", ":"))
