"""Translations: the catalogs every string a person reads goes through (no Flask here).

- A **catalog** is one JSON file per language, `judgekit/translations/<lang>.json`: a flat
  object from message id to text. `en.json` is the source catalog: every message id the
  code and the templates use, with its English text (`tools/i18n_catalog.py` writes it;
  `tests/test_i18n.py` fails when it is behind). Another language is another file with the
  same ids translated: no code changes. An id missing from a catalog falls back to English.
- A **message id** is the English text itself for templates and flashed messages
  (`_("Standings")`, gettext's convention: templates stay readable), and a stable code for
  the errors and words the domain returns (`tournament.no-round`), so a client can tell
  errors apart without reading the words.
- Parameters use Python's `%(name)s` placeholders (as gettext and Jinja's i18n extension
  do); a literal percent sign in a message is `%%`.
- `Message(code, english, **params)` is a message as a value: what the domain returns or
  raises (`judgekit.errors.AppError` carries one); the web layer renders it with the
  reader's catalog (`Message.render(catalog)`).
- `Said(message)` is a `Message` kept as its English text: a `str` (so lists of problems
  that code and tests read as text keep reading so) that remembers its `Message`
  (`.msg`), for the web layer to word in the reader's language. A parameter that is a
  `Message` or a `Said` is worded in the same language as the message around it.
- `negotiate(accepted, available)` picks the language from the reader's preferences
  (the Accept-Language header), English when none of them has a catalog.
"""
from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

SOURCE = "en"   # the language the code and the templates are written in
CATALOG_DIR = Path(__file__).resolve().parent / "translations"


def _fill(text: str, params: dict[str, Any]) -> str:
    """`text` with its `%(name)s` placeholders filled; the text as it is when a parameter is
    missing or malformed (a translator's slip must not turn a page into an error)."""
    try:
        return text % params
    except (KeyError, ValueError, TypeError):
        return text


class Catalog:
    """One language's messages (`messages`: id → text), over the source catalog's."""

    def __init__(self, lang: str, messages: dict[str, str], fallback: "Catalog | None" = None):
        self.lang = lang
        self.messages = messages
        self.fallback = fallback

    def gettext(self, msgid: str) -> str:
        text = self.messages.get(msgid)
        if text:
            return text
        return self.fallback.gettext(msgid) if self.fallback is not None else msgid

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """English's two forms choose the id; a catalog may give each its own text."""
        return self.gettext(singular if n == 1 else plural)

    def render(self, msgid: str, **params: Any) -> str:
        return _fill(self.gettext(msgid), params) if params else self.gettext(msgid)


ENGLISH = Catalog(SOURCE, {})   # no file needed: English is each message's own text


@dataclass(frozen=True)
class Message:
    """A message for people as a value: a stable `code` (the catalog id), its English text
    (`english`, with `%(name)s` placeholders) and the parameters that fill it."""
    code: str
    english: str | None = None
    params: dict[str, Any] = field(default_factory=dict)

    def __init__(self, code: str, english: str | None = None, /, **params: Any):
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "english", english)
        object.__setattr__(self, "params", params)

    def render(self, catalog: Catalog | None = None) -> str:
        """The message in `catalog`'s language (English when None or when it lacks the id)."""
        text = catalog.messages.get(self.code) if catalog is not None else None
        if not text:
            text = self.english if self.english is not None else self.code
        if not self.params:
            return text
        return _fill(text, {k: v.render(catalog) if isinstance(v, (Message, Said)) else v
                            for k, v in self.params.items()})

    def __str__(self) -> str:
        return self.render()

    def with_params(self, **params: Any) -> "Message":
        """The same message with these parameters changed."""
        return Message(self.code, self.english, **dict(self.params, **params))


class Said(str):
    """A `Message` as its English text, which it is equal to (a `str`), remembering the
    message (`msg`) so that the web layer can word it in the reader's language."""
    msg: Message

    def __new__(cls, msg: Message) -> "Said":
        self = super().__new__(cls, msg.render())
        self.msg = msg
        return self

    @property
    def code(self) -> str:
        return self.msg.code

    def render(self, catalog: Catalog | None = None) -> str:
        return self.msg.render(catalog)

    def __reduce__(self):
        # copied (dataclasses.asdict, copy.deepcopy) and pickled as its message
        return (Said, (self.msg,))


def as_message(value: "Message | Said | str") -> Message:
    """`value` as a `Message`: a `Said`'s message, or plain English text as its own id."""
    return value.msg if isinstance(value, Said) else value if isinstance(value, Message) else Message(value)


def chained(parts: "list[Message]", joiner: Message) -> Message:
    """`parts` (at least one) as one message: the first joined to the rest by `joiner`,
    whose text places `%(first)s` and `%(rest)s` ("%(first)s; %(rest)s"), each part worded
    in the reader's language."""
    if len(parts) == 1:
        return parts[0]
    return Message(joiner.code, joiner.english, first=parts[0], rest=chained(parts[1:], joiner))


_cache: dict[Path, dict[str, Catalog]] = {}
_lock = threading.Lock()


def catalogs(folder: Path | str | None = None) -> dict[str, Catalog]:
    """Every catalog in `folder` (default: the package's), by language; read once. English
    is always there, from `en.json` when it exists."""
    folder = Path(folder) if folder else CATALOG_DIR
    found = _cache.get(folder)
    if found is not None:
        return found
    with _lock:
        found = _cache.get(folder)
        if found is None:
            found = {SOURCE: ENGLISH}
            source = folder / f"{SOURCE}.json"
            if source.exists():
                found[SOURCE] = Catalog(SOURCE, _read(source))
            for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
                if path.stem != SOURCE:
                    found[path.stem] = Catalog(path.stem, _read(path), fallback=found[SOURCE])
            _cache[folder] = found
        return found


def _read(path: Path) -> dict[str, str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{path}: a catalog is one JSON object of message id → text")
    return {str(k): str(v) for k, v in data.items() if isinstance(v, str)}


def negotiate(accepted: Iterable[tuple[str, float]], available: Iterable[str]) -> str:
    """The language to answer in: the first of `accepted` (language tags with their
    weights, best first, as an Accept-Language header gives them) that has a catalog —
    "fr-CA" is served by "fr" —, else English."""
    have = {lang.lower(): lang for lang in available}
    for tag, weight in sorted(accepted, key=lambda item: -item[1]):
        if weight <= 0:
            continue
        tag = tag.lower().replace("_", "-")
        if tag in have:
            return have[tag]
        if tag.split("-")[0] in have:
            return have[tag.split("-")[0]]
    return SOURCE


def N_(text: str) -> str:
    """Marks a text kept in a table as a catalog id (the extraction finds it); the code
    translates it where it is shown (`_(TABLE[key])`)."""
    return text


def english(msgid: str, **params: Any) -> str:
    """The translator of domain code that words things for people, when no reader's
    catalog is given: the English text, filled."""
    return _fill(msgid, params) if params else msgid
