"""The log lines of a game: each stored event as the page shows it, computed once.

A **line** is an event as stored (with `seq` and `time`) plus what the page needs to show
it: `ctx` (what the engine knew of that moment that the words may use: "Referendum passed
(7 for, 3 against)"), `retracted`, `findings` (each with `url`, its rule's address),
`batch` (the entry it came in with), `cards` (the cards its fields name, with their pages:
`judgekit.recorder.card_links`), and for an amended event `amended_by`, `corrected` and
`original_summary`. The words — `summary`, and `original_summary` for an amended event —
are not stored: `worded` makes them when the line is read, in the reader's language (a
row stored before, with its English `summary`, is shown as stored). Lines live in `event_lines`, derived from the events and rewritten
only when something changes what a line shows (a retract, an amend, a finding). Each row
has a `rev`: the seq of the last event whose storing changed the line, so "what changed
since seq S" is the rows with `rev > S` (`changed_since`). `recorder_derived` holds the
version (`checked.derived_version`) the lines of each game were made with.

Pure domain code: no Flask, no engine replay (the store feeds the engine and passes what
it needs).
"""
from __future__ import annotations

from collections import OrderedDict
import hashlib
import json
import threading
from typing import Any, Iterable

from judgekit.recorder.card_links import event_cards
from judgekit.i18n import english
from judgekit.recorder.checked import Corrections
from judgekit.recorder.events import describe
from judgekit.recorder.findings import cite_url, loaded
from judgekit.recorder.words import Translate, say


def summarize(event: dict[str, Any], seats: list[str], context: dict[str, Any] | None = None,
              _: Translate = english) -> str:
    """The line's words for `event`, by the translator `_`. `context` is the engine's
    (`Engine.context`) right after it was fed the event — what the words may use of that
    moment ("Referendum passed (7 for, 3 against)", "bleeds Ben for 2") —, None for an
    event not fed (retracted, a correction). The one place a summary is made."""
    return describe(event, seats, context, _)


def worded(line: dict[str, Any], seats: list[str], _: Translate = english) -> dict[str, Any]:
    """`line` with its words (`summary`, and `original_summary` when amended) in the
    language of `_`. The words are a function of the line alone: the event as corrected
    (`corrected`, else the event itself) and the engine's `ctx`. A row stored before the
    words were made on read keeps its English words."""
    if "summary" in line:
        return line
    ctx = line.get("ctx")
    line["summary"] = summarize(line.get("corrected") or line, seats, ctx, _)
    if "amended_by" in line:
        line["original_summary"] = summarize(line, seats, ctx, _)
    if line.get("findings"):   # copies: a line's findings may be shared with the caller's
        line["findings"] = [dict(f) for f in line["findings"]]
        worded_findings(line["findings"], _)
    return line


def worded_findings(findings: Iterable[dict[str, Any]], _: Translate = english) -> bool:
    """Each finding's `title` and `message` in the language of `_` (in place): a code's
    title and default message are catalog ids (`findings.CODES`); a message the engine
    wrote for the case is worded from its `message_code` and `message_params` (one stored
    before they were kept stays as written). Whether any changed."""
    changed = False
    for f in findings:
        for key in ("title", "message"):
            text = f.get(key)
            if not text:
                continue
            if key == "message" and f.get("message_code"):
                said = say(loaded(f["message_code"], None, f.get("message_params")), _, text)
            else:
                said = _(text)
            if said != text:
                f[key], changed = said, True
    return changed


# A full read words every line: the words of each (translator, seat names, stored line) are
# kept in memory, at most WORDED_MAX of them (oldest out first), so a page opened again, or
# by another judge, costs a lookup per line. A stored line that changes is another key.
WORDED_MAX = 20_000
_worded: OrderedDict[tuple, str] = OrderedDict()   # popitem(last=False) is O(1); deleting a
# plain dict's first key again and again makes each next `iter` skip the holes left before it
_worded_lock = threading.Lock()


def worded_text(text: str, seats: list[str], _: Translate = english) -> str:
    """A stored line's JSON text with its words (`worded`), added at the end of the object
    as it is stored (no second encoding of the rest). `_` must be one language's
    translator (a catalog's `render`), since it is part of the memory's key."""
    key = (_, tuple(seats), hashlib.blake2b(text.encode(), digest_size=16).digest())
    words = _worded.get(key)
    if words is None:
        line = json.loads(text)
        if "summary" in line:   # a row stored with its words (before they were made on read)
            return text
        # the findings' words change only where the line has findings (most have none)
        findings = line.get("findings") and json.dumps(line["findings"], ensure_ascii=False, separators=(",", ":"))
        worded(line, seats, _)
        if findings and json.dumps(line["findings"], ensure_ascii=False, separators=(",", ":")) != findings:
            words = "=" + dumps(line)   # the findings are worded too: the whole line, kept as it is
        else:
            words = ',"summary":' + json.dumps(line["summary"], ensure_ascii=False)
            if "original_summary" in line:
                words += ',"original_summary":' + json.dumps(line["original_summary"], ensure_ascii=False)
        with _worded_lock:
            if len(_worded) >= WORDED_MAX:
                _worded.popitem(last=False)
            _worded[key] = words
    if words.startswith("="):
        return words[1:]
    return text[:text.rindex("}")] + words + "}"


def finding_dicts(findings: Iterable) -> list[dict[str, Any]]:
    out = []
    for f in findings:
        d = f.to_dict(said=True)
        d["url"] = cite_url(d["cite"])
        out.append(d)
    return out


def make_line(event: dict[str, Any], batch: int, fed: dict[str, Any] | None, context: dict[str, Any] | None,
              findings: list[dict[str, Any]], corrections: Corrections, seats: list[str],
              cards=None) -> dict[str, Any]:
    """The line of `event` (as stored). `fed`: the event as the engine was fed it (as
    corrected), with the engine's `context` of that moment; None when it was not fed
    (retracted, a correction). A function of the game's events alone (and the code), so a
    line kept up to date entry by entry equals one rebuilt from scratch."""
    seq = event["seq"]
    line = dict(event, retracted=seq in corrections.retracted, findings=findings, batch=batch)
    if fed is not None and context:   # what the words may use (`worded`): no words stored
        line["ctx"] = context
    if seq in corrections.amended_by:   # as corrected, the words it had beside it
        line["amended_by"] = list(corrections.amended_by[seq])
        line["corrected"] = corrections.corrected[seq]
    # the cards the line names, with their pages: the page links them in the line and its findings
    line["cards"] = event_cards(dict(event, corrected=corrections.corrected.get(seq)), cards)
    return line


def dumps(line: dict[str, Any]) -> str:
    return json.dumps(line, ensure_ascii=False, separators=(",", ":"))


def write(conn, game_id: int, lines: Iterable[dict[str, Any]], rev: int) -> None:
    conn.executemany(
        "INSERT OR REPLACE INTO event_lines (game_id, seq, type, batch, retracted, rev, line) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(game_id, ln["seq"], ln["type"], ln["batch"], int(ln["retracted"]), rev, dumps(ln)) for ln in lines])


def stored(conn, game_id: int, seqs: Iterable[int] | None = None, from_seq: int | None = None) -> dict[int, dict[str, Any]]:
    """Stored lines by seq: the given `seqs`, or every line from `from_seq` on."""
    if from_seq is not None:
        rows = conn.execute("SELECT seq, line FROM event_lines WHERE game_id = ? AND seq >= ?",
                            [game_id, from_seq]).fetchall()
    else:
        wanted = sorted(set(seqs or ()))
        rows = []
        for i in range(0, len(wanted), 500):
            chunk = wanted[i:i + 500]
            rows += conn.execute(f"SELECT seq, line FROM event_lines WHERE game_id = ? AND seq IN "
                                 f"({','.join('?' * len(chunk))})", [game_id, *chunk]).fetchall()
    return {seq: json.loads(text) for seq, text in rows}


def all_raw(conn, game_id: int) -> list[str]:
    """Every line of the game as stored JSON text, in seq order."""
    return [r[0] for r in conn.execute("SELECT line FROM event_lines WHERE game_id = ? ORDER BY seq", [game_id])]


def changed_since(conn, game_id: int, after: int) -> list[tuple[int, str]]:
    """(seq, JSON text) of the lines added or changed by the events stored after seq `after`."""
    return conn.execute("SELECT seq, line FROM event_lines WHERE game_id = ? AND rev > ? ORDER BY seq",
                        [game_id, after]).fetchall()


def count(conn, game_id: int) -> int:
    return conn.execute("SELECT COUNT(*) FROM event_lines WHERE game_id = ?", [game_id]).fetchone()[0]


def last_entry(conn, game_id: int) -> list[int]:
    """What one Undo takes back: the standing events (not retracted) of the last entry that
    is not itself a retract, in seq order; [] if there is none. The page posts one retract
    per seq, in one request: all of them or none."""
    row = conn.execute("SELECT batch FROM event_lines WHERE game_id = ? AND retracted = 0 AND type != 'retract' "
                       "ORDER BY seq DESC LIMIT 1", [game_id]).fetchone()
    if row is None:
        return []
    return [r[0] for r in conn.execute(   # an entry's batch is the seq of its first event
        "SELECT seq FROM event_lines WHERE game_id = ? AND seq >= ? AND batch = ? AND retracted = 0 "
        "AND type != 'retract' ORDER BY seq", [game_id, row[0], row[0]])]


def version_of(conn, game_id: int) -> str | None:
    row = conn.execute("SELECT version FROM recorder_derived WHERE game_id = ?", [game_id]).fetchone()
    return row[0] if row else None


def set_version(conn, game_id: int, version: str) -> None:
    conn.execute("INSERT OR REPLACE INTO recorder_derived (game_id, version) VALUES (?, ?)", [game_id, version])


def forget(conn, game_id: int) -> None:
    """Drop a game's lines (they are rebuilt on the next read): its seat names changed."""
    conn.execute("DELETE FROM event_lines WHERE game_id = ?", [game_id])
    conn.execute("DELETE FROM recorder_derived WHERE game_id = ?", [game_id])
