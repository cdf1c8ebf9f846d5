"""The deck construction rules, checked on a read list (pure: no Flask, no database).

Each problem is a value `{"code", "rule", "message", "params", "id", "words"}`: `code` a stable
name, `message` its English words (`id` and `words` word it again in the reader's language:
the catalog id and its parameters), `rule`
the section it breaks as `doc/section` (a link into the rules corpus), or `rulebook` for the
crypt's grouping rule, which is the game's rulebook's and not the tournament rules'.

Constructed (6.2, 4.1, 4.1.1): library 60 to 90 cards, crypt at least 12, crypt cards from
at most two consecutive groups (cards of group ANY go with any), no banned card, every line
a card that exists. Limited (7.2.3): the list registers the cards a player received, so only
the cards themselves are checked (they exist, none is banned); the sizes of the deck built
from them (7.2.1) and its recursions are not checked here.
"""
from __future__ import annotations

from judgekit.decks import parse as parse_mod
from judgekit.i18n import Message

LIBRARY_MIN, LIBRARY_MAX, CRYPT_MIN = 60, 90, 12   # tournament rules 6.2
MODES = ("constructed", "limited")

_facts: dict[int, tuple[str, str | None, bool]] = {}   # id -> (kind, group, banned)


def _fact(card_id: int) -> tuple[str, str | None, bool]:
    found = _facts.get(card_id)
    if found is None:
        c = parse_mod.card(card_id)
        found = _facts[card_id] = ("crypt" if c.crypt else "library", (c.group or None) if c.crypt else None,
                                   bool(c.banned))
    return found


def problem(code: str, rule: str, msg: Message, **params) -> dict:
    return {"code": code, "rule": rule, "message": msg.render(), "params": params,
            "id": msg.code if msg.english is not None else None, "words": msg.params}


def validate(parsed: parse_mod.Parsed, mode: str = "constructed") -> list[dict]:
    """The problems of a read list, in the order a judge reads them (empty: legal)."""
    out: list[dict] = []
    if parsed.error:
        return [problem(parsed.error["code"], "tournament-rules/6.3", parse_mod.message(parsed.error))]
    for u in parsed.unknown:
        said = Message("decks.problem.unknown-card-near", "Line %(line)s names no card: \"%(text)s\" (nearest: %(near)s).",
                       line=u["line"], text=u["text"], near=", ".join(u["suggestions"])) if u["suggestions"] else \
            Message("decks.problem.unknown-card", "Line %(line)s names no card: \"%(text)s\" (no card with a close name).",
                    line=u["line"], text=u["text"])
        out.append(problem("unknown-card", "tournament-rules/4.1", said,
                           line=u["line"], text=u["text"], suggestions=u["suggestions"]))
    groups: set[int] = set()
    for e in parsed.entries:
        kind, group, banned = _fact(e.id)
        if banned:
            out.append(problem("banned-card", "tournament-rules/4.1.1", Message("decks.problem.banned-card", "%(card)s is banned in VEKN tournaments.", card=e.name),
                               card=e.name, count=e.count))
        if kind == "crypt" and group and group.isdigit():
            groups.add(int(group))
    if mode == "limited":
        return out
    crypt, library = parsed.crypt_count, parsed.library_count
    if library < LIBRARY_MIN:
        out.append(problem("library-too-small", "tournament-rules/6.2",
                           Message("decks.problem.library-too-small", "The library has %(count)s cards: at least %(min)s.",
                                   count=library, min=LIBRARY_MIN), count=library, minimum=LIBRARY_MIN))
    elif library > LIBRARY_MAX:
        out.append(problem("library-too-big", "tournament-rules/6.2",
                           Message("decks.problem.library-too-big", "The library has %(count)s cards: at most %(max)s.",
                                   count=library, max=LIBRARY_MAX), count=library, maximum=LIBRARY_MAX))
    if crypt < CRYPT_MIN:
        out.append(problem("crypt-too-small", "tournament-rules/6.2",
                           Message("decks.problem.crypt-too-small", "The crypt has %(count)s cards: at least %(min)s.",
                                   count=crypt, min=CRYPT_MIN), count=crypt, minimum=CRYPT_MIN))
    if groups and max(groups) - min(groups) > 1:
        shown = ", ".join(str(g) for g in sorted(groups))
        out.append(problem("crypt-groups", "rulebook",
                           Message("decks.problem.crypt-groups", "The crypt mixes groups %(groups)s: a crypt holds "
                                   "vampires of at most two consecutive groups (group ANY goes with any).",
                                   groups=shown), groups=sorted(groups)))
    return out


def compare(registered: list[dict], seen: list[dict]) -> list[dict]:
    """What differs between the registered list and the deck a judge counted (both as
    entries): `{"name", "registered", "seen"}` per card whose count differs, by name."""
    a: dict[str, int] = {}
    b: dict[str, int] = {}
    for e in registered:
        a[e["name"]] = a.get(e["name"], 0) + int(e["count"])
    for e in seen:
        b[e["name"]] = b.get(e["name"], 0) + int(e["count"])
    return [{"name": n, "registered": a.get(n, 0), "seen": b.get(n, 0)}
            for n in sorted(set(a) | set(b)) if a.get(n, 0) != b.get(n, 0)]
