"""What comes in from outside, checked once at the edge (no Flask here).

- `decode_json(raw)`: a request's JSON body, or the `AppError` (400) that says what is wrong
  with it: not JSON, nested deeper than `MAX_DEPTH` (refused by a scan *before* decoding,
  whose recursion would fail thousands of levels down), `NaN`/`Infinity` or a number too
  large to be one, or text that is not proper Unicode (`text_problem`). Every field of
  every JSON body passes here (`judgekit.views.json_body`), so the stores only ever see
  finite numbers and text SQLite can encode.
- `text_problem(s)`: why a text is refused (a `Said`: English text with its catalog id) (a lone surrogate such as "\\ud800", which no
  UTF-8 can carry; a NUL character), or None. Forms, query strings and the headers used as
  text are checked with it too (`judgekit.views.check_text_input`).
- `visible_text(s)`: a name or a short text as stored: invisible formatting characters
  taken out (direction overrides and isolates such as U+202E, zero-width spaces such as
  U+200B, tag characters, other controls), white space collapsed. Every name that enters
  (the tournament store's text fields: a form, the API, a pasted list, the workbook import;
  judge calls) passes through it, so a name cannot display misleadingly in a list.
- `loads_stored(text)`: JSON read back from the database, with any lone surrogate already
  stored (before these checks existed) replaced by U+FFFD, so a page never fails to encode
  a row it shows.
"""
from __future__ import annotations

import json
import math
import re
from typing import Any

from judgekit.errors import AppError
from judgekit.i18n import Message, Said

MAX_DEPTH = 32            # the app's deepest body (a batch of events with fields) is ~4
MAX_NUMBER_DIGITS = 4000  # below Python's own limit for reading a whole number (4300)

_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)  # a JSON string, escapes and all
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_SURROGATE = re.compile("[\ud800-\udfff]")
# Invisible characters that change how a text displays without being seen: the soft hyphen,
# the combining grapheme joiner, the Arabic letter mark, Hangul and Khmer fillers, the
# Mongolian vowel separator, zero-width space, left-to-right and right-to-left marks,
# embeddings and overrides (U+202A-U+202E), word joiner and invisible operators, isolates
# and deprecated format controls (U+2066-U+206F), the byte order mark, interlinear
# annotation marks, tag characters (U+E0000-U+E007F), and C0/C1 controls. Zero-width
# joiner and non-joiner (U+200C, U+200D) stay: scripts and emoji need them.
_INVISIBLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5"
                        "\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff"
                        "\uffa0\ufff9-\ufffb\U000e0000-\U000e007f]")


class _Refused(ValueError):
    pass


class _NotFinite:
    """Stands for NaN, Infinity or a float too large while decoding, so that the walk over
    the decoded value can name the field where it was."""

    def __init__(self, text: str):
        self.text = text[:40]


def nesting_depth(raw: bytes, limit: int = MAX_DEPTH) -> int:
    """How deep the brackets of a JSON text nest (strings skipped), counted up to just past
    `limit` (the scan stops there). Cheap when the text has few brackets; otherwise the
    strings are cut out and only the brackets are walked."""
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return raw.count(b"[") + raw.count(b"{")  # an upper bound, within the limit
    depth = deepest = 0
    for b in _STRING.sub(b"", raw).translate(None, _NOT_BRACKETS):
        if b == 0x5B or b == 0x7B:  # [ {
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    break
        else:
            depth -= 1
    return deepest


def text_problem(value: str) -> Said | None:
    """Why `value` is not acceptable text, or None: a lone surrogate, a NUL character."""
    if "\x00" in value:
        return Said(Message("input.nul", "contains a NUL character (U+0000)"))
    if not value.isascii():
        m = _SURROGATE.search(value)
        if m:
            return Said(Message("input.surrogate", "is not valid Unicode: it has a lone surrogate (U+%(code)s)",
                                code=f"{ord(m.group()):04X}"))
    return None


def visible_text(value: str) -> str:
    """`value` without invisible formatting characters (`_INVISIBLE`: U+202E, U+200B, tag
    characters, ...), runs of white space as one space, trimmed."""
    if not value.isascii() or not value.isprintable():
        value = _INVISIBLE.sub("", value)
    return " ".join(value.split())


def _float(text: str) -> float | _NotFinite:
    value = float(text)
    return value if math.isfinite(value) else _NotFinite(text)


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise _Refused(Said(Message("input.number-too-long", "a number of %(digits)s digits is too large",
                                    digits=len(text))))
    return int(text)


def bad_text_in(value: Any, path: str = "") -> tuple[str, Said] | None:
    """The first text in a decoded JSON value (keys included) that `text_problem` refuses,
    or number that is not finite, as (its path, e.g. "seats[2]" or "[0].text", what is
    wrong), or None."""
    stack = [(path, value)]
    while stack:
        where, v = stack.pop()
        if isinstance(v, str):
            problem = text_problem(v)
            if problem:
                return where or "body", Said(Message("input.bad-text", "text %(problem)s", problem=problem))
        elif isinstance(v, _NotFinite):
            return where or "body", Said(Message("input.not-finite", "%(value)s is not a finite number",
                                                 value=v.text))
        elif isinstance(v, dict):
            for k, item in v.items():
                key_path = f"{where}.{k}" if where else str(k)
                problem = text_problem(k)
                if problem:
                    return key_path, Said(Message("input.bad-field-name", "the field name %(problem)s",
                                                  problem=problem))
                stack.append((key_path, item))
        elif isinstance(v, list):
            stack.extend((f"{where}[{i}]", item) for i, item in enumerate(v))
    return None


def _too_deep() -> Message:
    return Message("input.too-deep", "the JSON body is nested more than %(max)s levels deep", max=MAX_DEPTH)


def decode_json(raw: bytes | str) -> tuple[Any, AppError | None]:
    """(the decoded body, None) or (None, the 400 that names the problem)."""
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    if nesting_depth(data) > MAX_DEPTH:
        return None, AppError(400, _too_deep(), "body")
    try:
        value = json.loads(data, parse_constant=_NotFinite, parse_float=_float, parse_int=_int)
    except _Refused as exc:
        return None, AppError(400, Message("input.not-json-because", "the body is not valid JSON: %(problem)s",
                                           problem=exc.args[0]), "body")
    except RecursionError:  # pragma: no cover - the depth scan refuses these first
        return None, AppError(400, _too_deep(), "body")
    except ValueError:  # JSONDecodeError, UnicodeDecodeError (bytes that are not UTF-8)
        return None, AppError(400, Message("input.not-json", "the body is not valid JSON"), "body")
    bad = bad_text_in(value)
    if bad:
        where, problem = bad
        return None, AppError(400, Message("input.at", "%(where)s: %(problem)s", where=where, problem=problem),
                              where.split("[")[0].split(".")[0] or where)
    return value, None


def _clean(value: Any) -> Any:
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [_clean(v) for v in value]
    if isinstance(value, dict):
        return {_clean(k): _clean(v) for k, v in value.items()}
    return value


def loads_stored(text: str) -> Any:
    """`json.loads` of a stored JSON column; lone surrogates written before the edge checks
    (as "\\udXXX" escapes) come back as U+FFFD. Costs one substring search when clean."""
    value = json.loads(text)
    if "\\ud" in text or "\\uD" in text:
        value = _clean(value)
    return value
