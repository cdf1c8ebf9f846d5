"""Reading a pasted decklist (pure: no Flask, no database).

The text is read by krcg's public parser (`krcg.deck.Deck.from_txt`), which knows the plain
text format of the VEKN's tournament-winning deck archive (TWDA) and the common deck-builder
exports (JOL, Lackey, VDB, Amaranth text). krcg needs its card list loaded: judgekit loads it
once from the card lists shipped in krcg's own wheel (`cards/vtescrypt.csv`, `vteslib.csv`,
found with `importlib.metadata`), never from the network.

Most pasted lists are one card a line after its count: those are read at once, each name
looked up with krcg's card look-up (`VTES.get`, which forgives case, accents and small
typos; a TWDA crypt line's group is kept); any other list goes through krcg's parser.

krcg takes a line it cannot read as a comment. So that a misspelt card is not silently
dropped, every line that starts with a count ("3x Govern the Unalligned", "3 Govern…") is
accounted for: when the counts of those lines do not add up to the cards krcg read, each
such line is read alone, and the ones that name no card come back as `unknown`, with the
nearest names (`judgekit.game.cards`' suggestions).

    >>> p = parse("Crypt (12)\\n12x Nathan Turner\\nLibrary (60)\\n60x Bum's Rush")
    >>> (p.crypt_count, p.library_count, p.error)
    (12, 60, None)
"""
from __future__ import annotations

import datetime
import importlib.metadata
import io
import logging
import re
import threading
import warnings
from dataclasses import dataclass, field

from judgekit.game.cards import load_cards
from judgekit.i18n import Message

MAX_CHARS = 30_000   # a 90-card list with comments is ~4 KB; the TWDA's longest entries ~12 KB
MAX_LINES = 500
SUGGESTIONS = 3

_lock = threading.Lock()
_loaded = False

# a line that starts with a count: "3x Name", "3 x Name", "3 Name", "3\tName"
_COUNTED = re.compile(r"^\s*(\d{1,3})\s*[xX×*]?\s+(\S.*?)\s*$")
# lines that start with a number but are not cards (TWDA headers, scores)
_NOT_A_CARD = re.compile(r"^\s*\d+\s*(players?|rounds?|R\+F|gw|vp)\b", re.I)
# the TWDA crypt line's tail after the name: capacity, disciplines, title, clan:group
_CRYPT_TAIL = re.compile(r"\s+\d{1,2}\s+.*$")


@dataclass
class Entry:
    id: int
    name: str
    count: int
    kind: str          # "crypt" | "library"

    def to_dict(self) -> dict:
        return {"id": self.id, "name": self.name, "count": self.count, "kind": self.kind}


@dataclass
class Parsed:
    entries: list[Entry] = field(default_factory=list)
    unknown: list[dict] = field(default_factory=list)   # {"line", "text", "suggestions"}
    name: str | None = None
    error: dict | None = None                            # `failure(...)`: nothing readable

    @property
    def crypt_count(self) -> int:
        return sum(e.count for e in self.entries if e.kind == "crypt")

    @property
    def library_count(self) -> int:
        return sum(e.count for e in self.entries if e.kind == "library")

    def to_dict(self) -> dict:
        return {"entries": [e.to_dict() for e in self.entries], "unknown": self.unknown,
                "name": self.name, "crypt_count": self.crypt_count,
                "library_count": self.library_count,
                "error": {k: v for k, v in self.error.items() if k != "msg"} if self.error else None}


def _csv_paths() -> list:
    """krcg's own copies of the VEKN card lists: `cards/*.csv` in krcg 4's wheel,
    `krcg/cards/*.csv` in krcg 5's."""
    files = {str(f): f for f in importlib.metadata.files("krcg") or ()}
    out = []
    for name in ("vtescrypt.csv", "vteslib.csv"):
        found = [files[k] for k in (f"cards/{name}", f"krcg/cards/{name}") if k in files]
        if not found:
            raise CardListMissing(f"the installed krcg has no {name}: reinstall krcg (pip install -e .)")
        out.append(found[0].locate())
    return out


class CardListMissing(RuntimeError):
    """krcg's card lists cannot be found: no list can be read."""


def vtes():
    """krcg's card list (`krcg.vtes.VTES`), loaded once from krcg's own CSV files."""
    global _loaded
    from krcg.vtes import VTES
    if _loaded:
        return VTES
    with _lock:
        if not _loaded:
            # krcg logs every line it reads as a comment and every deck outside 60-90/12:
            # judgekit reports those itself
            logging.getLogger("krcg").setLevel(logging.ERROR)
            if not VTES:
                crypt, library = _csv_paths()
                with warnings.catch_warnings(), open(crypt, "rb") as c, open(library, "rb") as lib:
                    warnings.simplefilter("ignore")   # "no legality" for each card: no sets file
                    VTES.load_from_files(c, lib)
            _loaded = True
    return VTES


def card(card_id: int):
    """The krcg card of an id."""
    return vtes()[card_id]


# a TWDA crypt line's name and group: "Theo Bell   7 CEL POT pre dom  baron  Brujah:6"
_TWDA_CRYPT = re.compile(r"^(?P<name>.+?)\s+\d{1,2}\s+.*?:(?P<group>\d|ANY)\s*$", re.I)
_DECK_NAME = re.compile(r"^\s*deck\s*name\s*:\s*(?P<name>.+)$", re.I)
_SECTION = re.compile(r"^([\w /&'-]+\s*(\(\d+[^)]*\)|:)|[-=_ ]+)$")
_NAME_THEN_COUNT = re.compile(r"\s[xX×*]?\s*\d{1,3}\s*$")


def _quick(text: str) -> Parsed | None:
    """The common case read at once: every line that starts with a count names a card by
    krcg's own card look-up (`VTES.get`), no other line names one. None when any line
    needs krcg's full parser (which then reads the list)."""
    V = vtes()
    found: dict[int, list] = {}
    name = None
    for line in text.split("\n"):
        m = _COUNTED.match(line)
        if m is None:
            stripped = line.strip()
            if not stripped:
                continue
            dn = _DECK_NAME.match(stripped)
            if dn:
                name = name or dn.group("name").strip()[:120]
                continue
            if _NAME_THEN_COUNT.search(stripped):
                return None   # "Name x3": krcg's parser reads it
            if found and not _SECTION.match(stripped):
                return None   # among the cards, a line that is no section heading: krcg decides
            continue
        if _NOT_A_CARD.match(line):
            return None
        count, rest = int(m.group(1)), m.group(2)
        crypt = _TWDA_CRYPT.match(rest)
        c = V.get(f"{crypt.group('name')} (G{crypt.group('group')})") if crypt else V.get(rest)
        if c is None or count == 0:
            return None
        if c.id in found:
            found[c.id][2] += count
        else:
            found[c.id] = [c.crypt, c.name, count]
    if not found:
        return None
    out = Parsed(name=name)
    for cid, (is_crypt, cname, count) in found.items():
        out.entries.append(Entry(cid, cname, count, "crypt" if is_crypt else "library"))
    out.entries.sort(key=lambda e: (e.kind != "crypt", e.name))
    return out


def _krcg_read(text: str):
    from krcg.deck import Deck
    return Deck.from_txt(io.StringIO(text))


def _alone(line: str) -> int:
    """How many cards krcg reads on this line by itself."""
    from krcg.deck import Deck
    try:
        return Deck.from_txt(io.StringIO(line), preface=False).cards_count()
    except Exception:   # krcg on a line it cannot take: no card
        return 0


def failure(code: str, msg: Message) -> dict:
    """Why a text is no list: `{"code", "message"}` (its English words), with the `Message`
    that words it in the reader's language (`msg`, left out of `Parsed.to_dict`)."""
    return {"code": code, "message": msg.render(), "msg": msg}


def message(err: dict) -> Message:
    """The words of a `failure`, translated where shown."""
    return err.get("msg") or Message(err["message"])


def too_big(text: str) -> dict | None:
    if len(text) > MAX_CHARS:
        return failure("too-long", Message("decks.too-many-characters", "This list has %(count)s characters; a decklist "
                                         "has at most %(max)s. Paste only the crypt and the library.",
                                         count=f"{len(text):,}", max=f"{MAX_CHARS:,}"))
    lines = text.count("\n") + 1
    if lines > MAX_LINES:
        return failure("too-long", Message("decks.too-many-lines", "This list has %(count)s lines; a decklist has at "
                                         "most %(max)s. Paste only the crypt and the library.",
                                         count=f"{lines:,}", max=MAX_LINES))
    return None


def parse(text: object) -> Parsed:
    """Read a pasted decklist. Never raises for bad input: `error` says what is wrong (too
    long, empty, no card read: an unknown format) and `unknown` lists the card lines that
    name no card."""
    if not isinstance(text, str) or not text.strip():
        return Parsed(error=failure("empty", Message("decks.empty", "Paste the decklist: the crypt and the library, one "
                                                   "card a line with its count (\"2x Govern the Unaligned\").")))
    big = too_big(text)
    if big:
        return Parsed(error=big)
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
    try:
        vtes()
    except CardListMissing as exc:
        return Parsed(error=failure("no-card-list", Message("decks.no-card-list", "Decklists cannot be read on this "
                                                          "server: %(reason)s.", reason=str(exc))))
    quick = _quick(text)
    if quick is not None:
        return quick
    try:
        deck = _krcg_read(text)
    except Exception:   # krcg on input it cannot take at all
        deck = None
    out = Parsed()
    if deck is not None:
        out.name = (deck.name or "")[:120] or None
        for c, n in deck.crypt:
            out.entries.append(Entry(c.id, c.name, n, "crypt"))
        for c, n in deck.library:
            out.entries.append(Entry(c.id, c.name, n, "library"))
    counted = []
    for k, line in enumerate(text.split("\n"), 1):
        m = _COUNTED.match(line)
        if m and not _NOT_A_CARD.match(line):
            counted.append((k, line, int(m.group(1)), m.group(2)))
    total = sum(e.count for e in out.entries)
    if sum(c[2] for c in counted) != total:
        index = load_cards()
        for k, line, n, name in counted:
            if _alone(line) == 0:
                name = _CRYPT_TAIL.sub("", name)
                out.unknown.append({"line": k, "text": line.strip()[:120],
                                    "suggestions": index.suggest(name, SUGGESTIONS)})
    if not out.entries and not out.unknown:
        out.error = failure("unknown-format", Message(
            "decks.unknown-format", "No card could be read in this text: it is not a decklist format judgekit reads. "
            "Paste the list as the deck builder exports it as text (TWDA, VDB, Amaranth, Lackey or JOL), one card a "
            "line with its count: \"2x Govern the Unaligned\"."))
    return out


def parse_plain(entries: list[dict]) -> Parsed:
    """A stored list (`Entry.to_dict()` rows) back as `Parsed`."""
    return Parsed(entries=[Entry(int(e["id"]), e["name"], int(e["count"]), e["kind"]) for e in entries])


def twda_text(entries: list[dict], *, player: str | None = None, event: str | None = None,
              place: str | None = None, players_count: int = 0, name: str | None = None,
              date: str | None = None) -> str:
    """A list in the TWDA's text format (krcg's `Deck.to_txt("twd")`); `date` ISO (YYYY-MM-DD)."""
    from krcg.deck import Deck
    deck = Deck()
    V = vtes()
    for e in entries:
        deck[V[int(e["id"])]] += int(e["count"])
    deck.event, deck.place, deck.player, deck.name = event, place, player, name
    deck.players_count = players_count
    if date:
        try:
            deck.date = datetime.date.fromisoformat(str(date)[:10])
        except ValueError:
            pass
    if not any(True for _ in deck.crypt):   # krcg's format needs a crypt to size
        return "\n".join(f"{e['count']}x {e['name']}" for e in entries)
    return deck.to_txt("twd")
