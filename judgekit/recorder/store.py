"""The recorder's tables (`games`, `events`) and the functions that read and write them.

Append-only: an event is never updated or deleted; a correction is a new `retract` or
`amend` event. Each event has a per-game `seq` (1, 2, ...) and an optional client-made
`client_id`, unique per game, so a retried request is stored once (same content: the
stored event is returned; different content under the same id: refused).

Checking costs the same at the first event as at the thousandth: the engine of a game is
kept in step with the database (`checked`: a bounded cache of engines, snapshots every
`checked.SNAPSHOT_EVERY` events), an append feeds it only the new events (a retract or an
amend replays from the newest snapshot before what it changes), and each event's log line
(summary, findings, corrections; `lines`) is computed once, in the transaction that stores
the event, and rewritten only when a later event changes it. A read of what changed since
seq S (`read_game(after=S)`) reads only the lines changed after S. The database's events
stay the only truth: everything else is derived, versioned, and rebuilt when missing.

Card facts: a caller that passes no card index gets the package's (`load_cards()`, loaded
once per process), so every caller sees the same findings and shares the cached engines.

Pure domain code: no Flask. Errors are returned as values (`StoreError`).
"""
from __future__ import annotations

import json
import logging
import zlib
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, TypeVar


from judgekit.db import synchronous, transaction
from judgekit.inputs import bad_text_in, loads_stored, text_problem
from judgekit.recorder import checked, lines
from judgekit.recorder import clock as clockmod
from judgekit.recorder import engine as enginemod
from judgekit.game.cards import load_cards
from judgekit.recorder.clock import now_iso
from judgekit.i18n import Message, english
from judgekit.recorder.events import EventError, validate_batch
from judgekit.recorder.intake import (  # noqa: F401 (StoreError, GameError, check_*: used as store.X)
    GameError,
    StoreError,
    check_distinct,
    check_seats,
    check_whole,
    field_of,
    plan_batch,
)

T = TypeVar("T")


# --- games ----------------------------------------------------------------------------

def create_game(db, seats: list[str], *, tournament_id: int | None = None,
                round_no: int | None = None, table_no: int | None = None,
                time_limit_min: int | None = None, label: str | None = None,
                distinct_names: bool = False) -> int:
    """Create a game (one table) and return its id. Raises GameError on bad arguments.

    `distinct_names`: refuse two seats with the same name (`check_distinct`), as the
    recorder's form and API do; a tournament seats registered players, who are told apart
    by their records and may share a name."""
    names = check_seats(seats)
    if distinct_names:
        check_distinct(names)
    for key, value in (("tournament_id", tournament_id), ("round_no", round_no),
                       ("table_no", table_no), ("time_limit_min", time_limit_min)):
        check_whole(key, value)
    if time_limit_min is not None and not 1 <= time_limit_min <= 24 * 60:
        raise GameError("time_limit_min", Message("recorder.time-limit-range", "must be between 1 and %(max)s minutes",
                                                  max=24 * 60))
    if label is not None and (not isinstance(label, str) or len(label) > 200):
        raise GameError("label", Message("recorder.label-too-long", "must be a string of at most %(max)s characters",
                                         max=200))
    if label is not None and text_problem(label):
        raise GameError("label", text_problem(label))
    row = {"label": label or "", "seats": json.dumps(names), "tournament_id": tournament_id,
           "round_no": round_no, "table_no": table_no, "time_limit_min": time_limit_min,
           "created": now_iso()}
    with transaction(db):
        game_id = db["games"].insert(row).last_pk
        # a game without events has all its log lines (none) of this version: said in the
        # game's own durable transaction, so that its first read rebuilds nothing — a read
        # would otherwise commit that at WAL's NORMAL level just before answering, which
        # the kill test's power-cut check counts as an answer after an unsynced write
        lines.set_version(db.conn, game_id, checked.derived_version(_card_index(None)))
        return game_id


def _game_row(row: dict[str, Any]) -> dict[str, Any]:
    out = dict(row)
    out["seats"] = loads_stored(out["seats"])  # a lone surrogate stored before the edge checks
    return out


def get_game(db, game_id: int) -> dict[str, Any] | None:
    rows = list(db.query("SELECT * FROM games WHERE id = ?", [game_id]))
    return _game_row(rows[0]) if rows else None


def list_games(db, tournament_id: int | None = None, limit: int = 200) -> list[dict[str, Any]]:
    """The games of one tournament, or the practice games (no tournament) when
    `tournament_id` is None; newest first."""
    where, args = "WHERE g.tournament_id IS NULL", []
    if tournament_id is not None:
        where, args = "WHERE g.tournament_id = ?", [tournament_id]
    sql = (f"SELECT g.*, (SELECT COUNT(*) FROM events e WHERE e.game_id = g.id) AS event_count "
           f"FROM games g {where} ORDER BY g.id DESC LIMIT ?")
    return [_game_row(r) for r in db.query(sql, args + [limit])]


# --- events ---------------------------------------------------------------------------

def load_events(db, game_id: int, after_seq: int = 0,
                types: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """A game's events in seq order (after `after_seq`; only the given `types` if any)."""
    sql, args = "SELECT seq, time, data FROM events WHERE game_id = ? AND seq > ?", [game_id, after_seq]
    if types is not None:
        types = list(types)
        sql += f" AND type IN ({', '.join('?' * len(types))})"
        args += types
    rows = db.conn.execute(sql + " ORDER BY seq", args)
    loads = loads_stored
    out = []
    for seq, at, data in rows:
        event = loads(data)
        event["seq"] = seq
        event["time"] = at
        out.append(event)
    return out


def last_seq(db, game_id: int) -> int:
    """The game's last event number (0 before the first)."""
    return db.conn.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?",
                           [game_id]).fetchone()[0]


@dataclass
class Appended:
    events: list[dict[str, Any]]          # lines as stored (new or earlier duplicates), in order
    new: int                              # how many were newly stored
    findings: list[dict[str, Any]]        # findings of the newly stored events
    state: dict[str, Any]
    changed: list[dict[str, Any]] = field(default_factory=list)  # earlier lines this entry changed
    last_seq: int = 0
    last_entry: list[int] = field(default_factory=list)
    etag: str = ""


def append_events(db, game_id: int, raw: Any, cards=None, judge: str | None = None,
                  durable: bool = True, now: float | None = None, words=english) -> Appended | StoreError:
    """Validate and append one event or a list (all or nothing); then check them.

    The events newly stored by one call are one **entry** (a quick-entry line, a button):
    they share a `batch`, the seq of the first of them, which the page's Undo retracts as
    a whole (`last_entry`).

    A `client_id` already stored for this game returns the stored event (idempotent); the
    same id with different content is refused (409). `judge`, when given (a signed-in
    judge), is recorded on every event instead of the one the client sent.

    The answer carries what a page needs to redraw without reading the game again: the
    lines of the events (with summaries and findings), the earlier lines the entry changed
    (`changed`: a retract, an amend, a finding), the state (with the next steps), the last
    seq, what Undo would take back and the game's new ETag. The lines are worded by the
    translator `words` (`lines.worded`; English by default).
    """
    game = get_game(db, game_id)
    if game is None:
        return StoreError(404, None, Message("recorder.there-no-game", "there is no game %(game_id)s", game_id=game_id))
    bad = bad_text_in(raw)   # the API's edge refuses it first (inputs.decode_json); other callers too
    if bad:
        index, name = field_of(bad[0])
        return StoreError(400, name, Message("recorder.bad-text", "%(field)s: %(problem)s", field=name, problem=bad[1]),
                          index, message=Message("recorder.bad-text-words", "The %(field)s holds a broken character "
                                                 "(cut in half?): fix it and send again.", field=name))
    cards = _card_index(cards)
    events = validate_batch(raw, len(game["seats"]), cards)
    if isinstance(events, EventError):
        return StoreError.from_event_error(events)
    if judge:
        for event in events:
            event["judge"] = judge
    conn = db.conn
    outer = conn.in_transaction   # the caller's transaction: it may still roll back
    key = (checked.db_key(db), game_id)
    with checked.game_lock(key):
        entry = _in_step(db, game, cards)
        # what only the table can refuse (a redirect to a seat out of the game, a vote for a
        # vampire the seat's known board does not hold): `Engine.refusal`, before any write
        refused = entry.engine.refusal(events)
        if refused is not None:
            return StoreError.from_event_error(refused, 422)
        try:
            # durable: the connection's own level (FULL, judgekit.db.SYNCHRONOUS); else WAL's NORMAL
            with nullcontext() if durable else synchronous(db, "NORMAL"), transaction(db):
                last = last_seq(db, game_id)
                if last != entry.last:   # written by another process meanwhile
                    entry = _in_step(db, game, cards, last)
                plan = plan_batch(conn, game, events, last, isinstance(raw, list), cards)
                if isinstance(plan, StoreError):
                    return plan  # decided before the first INSERT: a refused batch writes nothing
                stored, new_events = plan
                batch = new_events[0]["seq"] if new_events else None  # one entry: one request
                for event in new_events:
                    data = {k: v for k, v in event.items() if k not in ("seq", "time")}
                    conn.execute(
                        "INSERT INTO events (game_id, seq, client_id, type, seat, judge, time, data, batch) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        [game_id, event["seq"], event.get("client_id"), event["type"], event.get("seat"),
                         event.get("judge"), event["time"], json.dumps(data, ensure_ascii=False), batch])
                written = _check_new(conn, game, cards, entry, new_events, last) if new_events else {}
        except BaseException:
            checked.forget(key)   # the engine may have been fed what was not stored
            raise
        new_seqs = {e["seq"] for e in new_events}
        old = lines.stored(conn, game_id, [e["seq"] for e in stored if e["seq"] not in written])
        out = [written.get(e["seq"]) or dict(old[e["seq"]], duplicate=True) for e in stored]
        first = min(new_seqs) if new_seqs else entry.last + 1
        changed = [ln for seq, ln in sorted(written.items()) if seq < first]
        findings = [f for ln in out if ln["seq"] in new_seqs for f in ln["findings"]]
        seats = game["seats"]
        findings = [dict(f) for f in findings]
        lines.worded_findings(findings, words)
        result = Appended(events=[lines.worded(dict(ln), seats, words) for ln in out], new=len(new_events),
                          findings=findings, state=entry.engine.state(now, words),
                          changed=[lines.worded(dict(ln), seats, words) for ln in changed], last_seq=entry.last,
                          last_entry=lines.last_entry(conn, game_id),
                          etag=etag(game, entry.last, entry.cards))
        if outer:
            checked.forget(key)   # in step with a transaction that may not commit
        else:
            checked.keep(key, entry)
            if entry.last - entry.snapshot_seq >= checked.SNAPSHOT_EVERY:
                with synchronous(db, "NORMAL"):   # derived data: no fsync needed
                    checked.save_snapshot(db, game_id, entry, checked.derived_version(cards))
    if new_events and game.get("tournament_id") is not None:
        _tell_listeners(db, game, new_events, result.state)
    return result


# Told of every append of new events to a tournament's game, after its write (inside the
# caller's transaction when there is one): `listener(db, game, new_events, state)`. The live
# hall registers one (`judgekit.live.feed`: clocks, extensions and finished games for the
# room display); the recorder does not know who listens. A listener's failure never fails
# the append.
APPEND_LISTENERS: list[Callable[..., None]] = []


def _tell_listeners(db, game: dict[str, Any], new_events: list[dict[str, Any]], state: dict[str, Any]) -> None:
    for listener in list(APPEND_LISTENERS):
        try:
            listener(db, game, new_events, state)
        except Exception:  # the events are stored: a listener's problem is logged, not the judge's
            logging.getLogger("judgekit").exception("recorder append listener %r failed", listener)


# --- checking: the engine in step, the log lines ---------------------------------------------

_EMPTY = checked.Corrections(set(), {}, {}, {})


def _card_index(cards):
    """The caller's card index, else the package's (see the module's docstring)."""
    return cards if cards is not None else load_cards()


def _findings_by_seq(engine, wanted) -> dict[int, list]:
    out: dict[int, list] = {}
    for f in engine.findings:
        if f.seq in wanted:
            out.setdefault(f.seq, []).append(f)
    return out


def _in_step(db, game: dict[str, Any], cards, last: int | None = None) -> checked.Entry:
    """The game's engine in step with its last event, and its log lines of this version
    (rebuilt if they are missing or older). Call it holding the game's lock."""
    key = (checked.db_key(db), game["id"])
    if last is None:
        last = last_seq(db, game["id"])
    entry = checked.cached(key, cards, game["seats"])
    if entry is not None and entry.last == last and entry.lines_ok:
        return entry
    version = checked.derived_version(cards)
    conn = db.conn
    if lines.version_of(conn, game["id"]) != version or \
            conn.execute("SELECT COALESCE(MAX(seq), 0) FROM event_lines WHERE game_id = ?",
                         [game["id"]]).fetchone()[0] != last:
        return _rebuild(db, game, cards, version)
    if entry is None or entry.last != last:
        engine, _ = checked.replay(conn, game, cards, last, checked.load_corrections(conn, game["id"]),
                                   version=version)
        snap = conn.execute("SELECT COALESCE(MAX(seq), 0) FROM engine_snapshots WHERE game_id = ? AND version = ?",
                            [game["id"], version]).fetchone()[0]
        entry = checked.Entry(engine, last, cards, tuple(game["seats"]), snapshot_seq=snap)
    entry.lines_ok = True
    checked.keep(key, entry)
    return entry


def _rebuild(db, game: dict[str, Any], cards, version: str) -> checked.Entry:
    """Replay the game from its first event and write all its log lines (they were made by
    other code, other card facts, other seat names, or not at all)."""
    conn = db.conn
    seats = game["seats"]
    with synchronous(db, "NORMAL"), transaction(db):   # derived data: no fsync needed
        last = last_seq(db, game["id"])
        fixes = checked.load_corrections(conn, game["id"])
        parts: list[tuple[dict[str, Any], int, dict | None, dict | None]] = []
        engine, _ = checked.replay(conn, game, cards, last, fixes, on_event=lambda e, fed, batch, eng, _n: parts.append(
            (e, batch, fed, eng.context if fed is not None else None)))
        found = _findings_by_seq(engine, {p[0]["seq"] for p in parts})
        rev = {p[0]["seq"]: p[0]["seq"] for p in parts}
        for fix, target in fixes.targets.items():   # a line changed by a later correction
            if target in rev:
                rev[target] = max(rev[target], fix)
        conn.execute("DELETE FROM event_lines WHERE game_id = ?", [game["id"]])
        for e, batch, fed, context in parts:
            line = lines.make_line(e, batch, fed, context, lines.finding_dicts(found.get(e["seq"], ())), fixes, seats,
                                   cards)
            lines.write(conn, game["id"], [line], rev[e["seq"]])
        lines.set_version(conn, game["id"], version)
    entry = checked.Entry(engine, last, cards, tuple(seats), lines_ok=True)
    checked.keep((checked.db_key(db), game["id"]), entry)
    if not conn.in_transaction and last >= checked.SNAPSHOT_EVERY:
        with synchronous(db, "NORMAL"):
            checked.save_snapshot(db, game["id"], entry, version)
    return entry


def _check_new(conn, game: dict[str, Any], cards, entry: checked.Entry,
               new_events: list[dict[str, Any]], last: int) -> dict[int, dict[str, Any]]:
    """Check the events just inserted (inside the write's transaction) and write the lines
    they add or change; returns those lines by seq. Plain events are fed to the engine
    in step; a correction replays from the newest snapshot before the first event it
    changes (or from the engine in step, when it changes only events of this entry)."""
    seats, game_id = game["seats"], game["id"]
    engine = entry.engine
    new_last = new_events[-1]["seq"]
    fixes = [e["seq"] for e in new_events if e["type"] in checked.CORRECTIONS]
    out: dict[int, dict[str, Any]] = {}
    reported: set[int] = set()   # seqs the fed events reported findings on
    if not fixes:
        before = len(engine.findings)
        contexts = {}
        for event in new_events:
            engine.feed(event)
            contexts[event["seq"]] = engine.context
        found = _findings_by_seq(engine, set(contexts)) if len(engine.findings) > before else {}
        batch = new_events[0]["seq"]
        for event in new_events:
            seq = event["seq"]
            out[seq] = lines.make_line(event, batch, event, contexts[seq], lines.finding_dicts(found.get(seq, ())),
                                       _EMPTY, seats, cards)
        reported = {f.seq for f in engine.findings[before:]}
        corrections = _EMPTY
    else:
        corrections = checked.load_corrections(conn, game_id)
        start = min(corrections.touched_from(fixes), new_events[0]["seq"])
        checked.drop_snapshots(conn, game_id, start)
        if entry.snapshot_seq >= start:
            entry.snapshot_seq = conn.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM engine_snapshots WHERE game_id = ?", [game_id]).fetchone()[0]
        before_lines = lines.stored(conn, game_id, from_seq=start)
        parts: list[tuple[dict[str, Any], int, dict | None, dict | None]] = []

        def on_event(event, fed, batch, eng, n_before):
            if event["seq"] >= start:
                parts.append((event, batch, fed, eng.context if fed is not None else None))
            reported.update(f.seq for f in eng.findings[n_before:])
        base = (engine, last) if last < start else None
        engine, _ = checked.replay(conn, game, cards, new_last, corrections, start=base, on_event=on_event,
                                   version=checked.derived_version(cards), before=start)
        found = _findings_by_seq(engine, {p[0]["seq"] for p in parts})
        for event, batch, fed, context in parts:
            seq = event["seq"]
            line = lines.make_line(event, batch, fed, context, lines.finding_dicts(found.get(seq, ())),
                                   corrections, seats, cards)
            if seq not in before_lines or lines.dumps(line) != lines.dumps(before_lines[seq]):
                out[seq] = line
    earlier = {s for s in reported if 0 < s < new_events[0]["seq"] and s not in out}
    if earlier:   # a finding reported on an earlier line
        found = _findings_by_seq(engine, earlier)
        for seq, line in lines.stored(conn, game_id, earlier).items():
            line["findings"] = lines.finding_dicts(found.get(seq, ()))
            out[seq] = line
    lines.write(conn, game_id, out.values(), new_last)
    entry.engine, entry.last = engine, new_last
    return out


def etag(game: dict[str, Any], last: int, cards=None) -> str:
    """The version of what a read of the game shows (an entity tag, sent as W/"<tag>"): its
    last event, its seat names and the version of the derived data. Every change to a game
    is a new event, so a poll whose If-None-Match has this tag has nothing to read. (State
    that does not come from the game's events — e.g. a tournament round's clock — would
    have to be added here.)"""
    seats = zlib.crc32(json.dumps(game["seats"]).encode())
    return f"g{game['id']}-{last}-{checked.derived_version(_card_index(cards))[:8]}-{seats:08x}"


# --- reads ----------------------------------------------------------------------------------

@dataclass
class Read:
    """A read of a game, consistent (made under the game's lock): its lines as stored JSON
    text, the engine's state and findings, what Undo would take back."""
    game: dict[str, Any]
    last_seq: int
    lines: list[str]                      # the whole log, or the lines of a delta
    changed: list[str]                    # delta: earlier lines changed since `after`
    state: dict[str, Any]
    findings: list[dict[str, Any]]        # full read: every finding; delta: those of the lines sent
    last_entry: list[int]
    etag: str


def read_game(db, game_id: int, cards=None, now: float | None = None,
              after: int | None = None, words=english) -> Read | StoreError | None:
    """The game for the API: every line (`after` None), or only what changed since seq
    `after` — the events stored after it and the earlier lines they changed (a retract, an
    amend, a finding), worded by the translator `words` (`lines.worded`). None if there is no such game; a StoreError (field `after`) when
    `after` is past the last event."""
    game = get_game(db, game_id)
    if game is None:
        return None
    cards = _card_index(cards)
    conn = db.conn
    key = (checked.db_key(db), game_id)
    with checked.game_lock(key):
        entry = _in_step(db, game, cards)
        if after is not None and after > entry.last:
            return StoreError(400, "after", Message("recorder.after-out-of-range",
                                                    "after must be from 0 to the game's last event, %(last)s",
                                                    last=entry.last))
        if after is None:
            raw, changed = lines.all_raw(conn, game_id), []
            findings = [f.to_dict(said=True) for f in entry.engine.findings]
        else:
            rows = lines.changed_since(conn, game_id, after)
            raw = [text for seq, text in rows if seq > after]
            changed = [text for seq, text in rows if seq <= after]
            findings = [f for text in changed + raw for f in json.loads(text)["findings"]]
        seats = game["seats"]
        lines.worded_findings(findings, words)
        if after is None:   # the engine's findings as `replay` gives them (worded: the codes are used)
            for f in findings:
                f.pop("message_code", None)
                f.pop("message_params", None)
        raw = [lines.worded_text(text, seats, words) for text in raw]
        changed = [lines.worded_text(text, seats, words) for text in changed]
        return Read(game, entry.last, raw, changed, entry.engine.state(now, words), findings,
                    lines.last_entry(conn, game_id), etag(game, entry.last, cards))


def game_view(db, game_id: int, cards=None, now: float | None = None) -> dict[str, Any] | None:
    """{"game", "state", "events", "findings", "last_entry"} — the GET /api/games/<id> body
    (events: the log lines, see `lines`)."""
    read = read_game(db, game_id, cards, now)
    if read is None:
        return None
    return {"game": read.game, "state": read.state, "events": [json.loads(t) for t in read.lines],
            "findings": read.findings, "last_entry": read.last_entry}


def last_entry(events: list[dict[str, Any]]) -> list[int]:
    """What one Undo takes back, from lines as `game_view` gives them (`batch`,
    `retracted`): the standing events of the last entry that is not itself a retract."""
    standing = [e for e in events if not e["retracted"] and e["type"] != "retract"]
    if not standing:
        return []
    batch = standing[-1]["batch"]
    return [e["seq"] for e in standing if e["batch"] == batch]


def _read_checked(db, game, cards, read: Callable[[enginemod.Engine], T]) -> T:
    """`read(engine)` on the game's engine in step with the database, under the game's lock
    (`read` must copy what it returns: once the lock is released another request may feed
    the same engine)."""
    key = (checked.db_key(db), game["id"])
    with checked.game_lock(key):
        return read(_in_step(db, game, cards).engine)


def game_clock(db, game_id: int, now: float | None = None) -> dict[str, Any] | None:
    """A game's round clock without the checks (no engine, no card facts; reads only the
    clock's events and the corrections): {"game", "clock" (as `state["clock"]` of
    `game_view`), "extensions" (the standing `time.extend` events, as amended)}, or None."""
    game = get_game(db, game_id)
    if game is None:
        return None
    events = load_events(db, game_id, types=clockmod.CLOCK_TYPES | {"retract", "amend"})
    playable, _ = enginemod.effective_events(events)
    clock = clockmod.clock_from_events(playable, game.get("time_limit_min"))
    return {"game": game, "clock": clock.to_dict(now),
            "extensions": [e for e in playable if e["type"] == "time.extend"]}


def replay_game(db, game_id: int, cards=None) -> enginemod.Replay | None:
    """A full replay from the database (no cache, no snapshot): what the bench times."""
    game = get_game(db, game_id)
    if game is None:
        return None
    return enginemod.replay(load_events(db, game_id), game["seats"], cards=_card_index(cards),
                            time_limit_min=game.get("time_limit_min"))


def game_outcome(db, game_id: int) -> dict[str, Any]:
    """The outcome the tournament scores: seats, finished, ordered outcome events.

    Events: {"type": "oust"|"withdraw"|"concede", "seat": n, "seq": s}, {"type": "time-out",
    "seq": s}, {"type": "draw", "seq": s} (intentional draw), in game order.
    """
    game = get_game(db, game_id)
    if game is None:
        raise LookupError(f"there is no game {game_id}")
    finished, events = _read_checked(db, game, _card_index(None), lambda eng: (
        bool(eng.finished), eng.outcome_events()))
    return {"seats": list(game["seats"]), "finished": finished, "events": events}


def set_seat_names(db, game_id: int, names: list[str]) -> None:
    """Rename a game's seats (the tournament swapped players before the table's result): the
    same number of seats, names checked as `create_game` checks them. Joins the caller's
    transaction (`judgekit.tournament.store.swap_seats` calls it inside its own), and drops
    what was derived with the old names (log lines, engine snapshots; the cached engine is
    not used with other names), so that states and finding messages are replayed with the
    new names. Raises GameError for bad names, LookupError for an unknown game."""
    clean = check_seats(names)
    with transaction(db):
        game = get_game(db, game_id)
        if game is None:
            raise LookupError(f"there is no game {game_id}")
        if len(clean) != len(game["seats"]):
            raise GameError("seats", Message("recorder.seats-count-differs", "this game has %(n)s seats, not %(given)s",
                                             n=len(game["seats"]), given=len(clean)))
        db.conn.execute("UPDATE games SET seats = ? WHERE id = ?", [json.dumps(clean), game_id])
        lines.forget(db.conn, game_id)
        checked.drop_snapshots(db.conn, game_id)
