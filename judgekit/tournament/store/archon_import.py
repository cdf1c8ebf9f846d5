"""A new judgekit event from an Archon workbook (`archon_read.read_workbook`): its details,
players, preliminary rounds with their tables and VP, the qualifiers and the final.

All or nothing: the event is built in one transaction through the store's own writes
(`create_tournament`, `add_player`, `start_round` with the workbook's tables,
`enter_result`, `close_round`, `start_final`, `place_final_card`, `seat_final`), so the
imported event is scored exactly like one run here; any refusal rolls everything back and
comes back as a problem naming where it happened.

- A table the workbook's Override sheet names is stored as the head judge's override, with
  the sheet's explanation as its reason; a table whose VP the table check refuses is an
  override too ("imported from an Archon workbook, where these numbers stood"), unless a
  withdrawal explains a lone ½ (then it is stored with that withdrawal).
- A tie in the top five is ordered as the workbook's Final Round lists the qualifiers
  (a recorded toss, by "Archon import"); the final's seats are its rows 14–18, seat 1
  first (the seat choice and the first player's draw are replayed to give them).
- A player marked "DQ" in Methuselahs is marked dropped after the last round they
  played (a disqualification is a penalty record, which a workbook does not hold).
- A Standings Adjustment on the Override sheet (explanation starting "Standings
  Adjustment", the player in column E or as "player N", the VP change in F, -1 when empty)
  is re-created as an approved penalty of the infraction its explanation names, given
  during that game (so it applies to that game, as in the workbook); one whose explanation
  names no infraction is refused with the cell to complete.
"""
from __future__ import annotations

import json
import re
from typing import Any, Callable

from judgekit.db import transaction
from judgekit.i18n import Said
from judgekit.tournament import archon_read
from judgekit.tournament import final as final_mod
from judgekit.tournament import levels as levels_mod
from judgekit.tournament.archon import ArchonEvent, ArchonSeat
from judgekit.tournament.penalties import store as penalties_store
from judgekit.tournament.scoring import check_table, withdrawals_explaining
from judgekit.tournament.store import finals, ranking, registration, round_flow
from judgekit.tournament.store import tables as table_store
from judgekit.tournament.store.base import T_TOSSES, T_TOURNAMENTS, TournamentError, get_tournament, now
from judgekit.i18n import Message

SA_LEVEL = "Standings Adjustment"

BY = "Archon import"
OVERRIDE_PREFIX = "Head judge's override:"   # as `report.archon_event` writes the Override sheet
DEFAULT_REASON = "imported from an Archon workbook, where these numbers stood"


def import_workbook(db, data: bytes, *, organizer: str | None = None, client_id: str | None = None,
                    then: Callable[[int], Any] | None = None) -> dict:
    """Create an event from an Archon workbook's bytes: `{"tournament": id, "notes": [...]}`.
    A 400 (`problems`: one line per cell at fault) when the workbook cannot be read or the
    event it describes cannot be rebuilt; nothing is stored then. `client_id` is stored
    with the event (a retried import finds it: `registration.event_by_client_id`); `then(id)`
    runs in the same transaction (the sign-in codes: a crash leaves both or neither), its
    value is the answer's "then"."""
    event, problems = archon_read.read_workbook(data)
    if problems:
        raise TournamentError(400, Message("tournament.workbook-cannot-imported-2", "The workbook cannot be imported: %(value)s", value=problems[0]), "file",
                              problems=problems)
    assert event is not None
    with transaction(db):
        out = _build(db, event, organizer)
        if client_id is not None:
            db[T_TOURNAMENTS].update(out["tournament"], {"client_id": client_id})
        if then is not None:
            out["then"] = then(out["tournament"])
        return out


def _fail(where: str, exc: TournamentError) -> TournamentError:
    message = Said(Message("archon.at", "%(where)s: %(problem)s", where=where, problem=exc.msg))
    return TournamentError(400, Message("tournament.workbook-cannot-imported", "The workbook cannot be imported: %(message)s", message=message), "file", problems=[message])


def _build(db, event: ArchonEvent, organizer: str | None) -> dict:
    notes: list[Said] = []
    level = levels_mod.find(event.level) or levels_mod.BY_KEY["standard"]
    data = {"name": event.name or "Imported event", "level": level.key, "city": event.city or None,
            "format": event.format, "head_judge": event.head_judge or None,
            "assistant_judges": event.assistant_judges or None,
            "organizer": event.organizer or organizer or None,
            "vekn_event_id": event.vekn_event_id or None,
            "rounds_planned": min(10, max(2, len(event.rounds))), "has_final": True,
            "date": event.date.isoformat() if hasattr(event.date, "isoformat") else (event.date or None)}
    try:
        tid = registration.create_tournament(db, data)
    except TournamentError as exc:
        raise _fail("Tournament Info", exc)
    if len(event.rounds) > 10:
        raise _fail("Round sheets", TournamentError(400, Message("tournament.preliminary-rounds-at-most-10", "%(count)s preliminary rounds: at most 10", count=len(event.rounds))))
    pid: dict[int, int] = {}
    for p in sorted(event.players, key=lambda x: x.number):
        try:
            added = registration.add_player(db, tid, {
                "first_name": p.first, "last_name": p.last, "vekn": p.vekn or None, "city": p.city or None,
                "country": p.country or None, "checked_in": True}, by=BY)
        except TournamentError as exc:
            raise _fail(f"Methuselahs, player {p.number} ({p.first} {p.last})", exc)
        pid[p.number] = added["id"]
    reasons = {}
    for rnd, table, _, text in event.overrides:
        if text and not _is_sa(text):
            text = text.removeprefix(OVERRIDE_PREFIX).strip()
            reasons[(rnd, table)] = text if len(text) >= 5 else f"Override sheet: {text}"
    sas = _adjustments(db, tid, event)
    played: dict[int, int] = {}
    open_round = None
    for k, tables in enumerate(event.rounds, 1):
        if open_round is not None:
            raise _fail(f"Round {k}", TournamentError(400, Message("tournament.round-has-tables-without-vp", "round %(open_round)s has tables without VP, so later rounds cannot follow it", open_round=open_round)))
        try:
            round_flow.start_round(db, tid, tables=[[pid[s.number] for s in tb] for tb in tables], seed=0)
        except TournamentError as exc:
            raise _fail(f"Round {k}", exc)
        _give_adjustments(db, tid, sas.get(str(k), []), pid, notes)
        complete = True
        for t, seats in enumerate(tables, 1):
            for s in seats:
                played[pid[s.number]] = k
            if any(s.vp is None for s in seats):
                complete = False
                continue
            _result(db, tid, k, t, seats, reasons.get((str(k), t)), notes, f"Round {k}, table {t}")
        if complete:
            round_flow.close_round(db, tid, k)
        else:
            open_round = k
    if event.finalists:
        if open_round is not None or not event.rounds:
            raise _fail("Final Round", TournamentError(400, Message("tournament.qualifiers-are-listed-but-preliminary", "qualifiers are listed, but the preliminary rounds are not all played")))
        _final(db, tid, event, pid, reasons, notes, sas.get("F", []))
    for p in event.players:
        if p.dq:
            try:
                registration.drop_player(db, tid, pid[p.number], True)
            except TournamentError as exc:
                raise _fail(f"Methuselahs, player {p.number}", exc)
            notes.append(Said(Message("archon.note-dq", "%(name)s (player %(number)s) is marked DQ in the workbook: "
                                      "marked dropped here (a disqualification is a penalty record).",
                                      name=f"{p.first} {p.last}", number=p.number)))
    return {"tournament": tid, "notes": notes}


def _is_sa(text: str) -> bool:
    return archon_read.is_adjustment(text)


def _infraction(catalog, text: str):
    """The infraction an SA's explanation names ("Standings Adjustment: Slow Play, …"), or None."""
    for piece in re.split(r"[:;,()\u2014\u2013]| - ", text):
        piece = piece.strip()
        if not piece or _is_sa(piece) or piece.casefold() in ("sa", "standings adjustment"):
            continue
        found = catalog.lookup(piece)
        if found.ok:
            return found.infraction
    return None


def _adjustments(db, tid: int, event: ArchonEvent) -> dict[str, list]:
    """round label -> [(adjustment, infraction id)]; an SA naming no infraction is refused."""
    if not event.adjustments:
        return {}
    pen = penalties_store
    catalog = pen.catalog_of(db, get_tournament(db, tid))
    out: dict[str, list] = {}
    for a in event.adjustments:
        inf = _infraction(catalog, a.text)
        if inf is None:
            raise _fail(f"Override sheet, round {a.round} table {a.table}", TournamentError(
                400, Message("tournament.standings-adjustment-player-names-no", "the Standings Adjustment of player %(number)s names no infraction (%(value)s): write it in the explanation, as 'Standings Adjustment: Slow Play'", number=a.number, value=repr(a.text[:80]))))
        out.setdefault(a.round, []).append((a, inf.id))
    return out


def _give_adjustments(db, tid: int, sas: list, pid: dict[int, int], notes: list[Said]) -> None:
    """Issue the round's SAs while its game is being played (so each applies to it)."""
    pen = penalties_store
    for a, inf in sas:
        for _ in range(max(1, int(round(-a.vp)))):
            where = f"Override sheet, round {a.round} table {a.table}"
            got = pen.issue(db, tid, {
                "player": pid[a.number], "infraction": inf, "penalty": SA_LEVEL,
                "description": f"Imported from the Archon workbook: {a.text}"[:1000],
                "reason": "Recorded in the Archon workbook's Override sheet", "approve": True,
                "approval_reason": "Approved in the Archon workbook (Override sheet)"}, judge=BY, role="head_judge")
            if isinstance(got, pen.Refused):
                raise _fail(where, TournamentError(400, Message("tournament.standings-adjustment-cannot-re-created", "the Standings Adjustment cannot be re-created: %(message)s", message=got.said)))
            notes.append(Said(Message("archon.note-sa", "%(where)s: Standings Adjustment re-created for player "
                                      "%(number)s.", where=where, number=a.number)))


def _result(db, tid: int, number: int, table: int, seats: list[ArchonSeat], reason: str | None,
            notes: list[Said], where: str) -> None:
    vps = [s.vp for s in seats]
    try:
        if reason:  # the Override sheet names this table: the head judge's decision, kept as such
            table_store.override_result(db, tid, number, table, vps, reason[:1000], by=BY)
            return
        if not check_table(vps):
            table_store.enter_result(db, tid, number, table, vps, by=BY)
            return
        withdrawn = list(withdrawals_explaining(vps))
        if withdrawn and not check_table(vps, withdrawn):
            table_store.enter_result(db, tid, number, table, vps, withdrawn=withdrawn, by=BY)
            notes.append(Said(Message("archon.note-withdrawal", "%(where)s: read with a withdrawal at seat %(seats)s "
                                      "(a lone ½ VP).", where=where, seats=", ".join(map(str, withdrawn)))))
            return
        table_store.override_result(db, tid, number, table, vps, DEFAULT_REASON, by=BY)
        notes.append(Said(Message("archon.note-override", "%(where)s: the table check refuses these VP and the "
                                  "Override sheet gives no reason; stored as the head judge's override.", where=where)))
    except TournamentError as exc:
        raise _fail(where, exc)


def _final(db, tid: int, event: ArchonEvent, pid: dict[int, int], reasons: dict, notes: list[Said],
           sas: list) -> None:
    wanted = [pid[n] for n in event.finalists]
    order = {p: k for k, p in enumerate(wanted)}
    for _ in range(10):  # order each tie the way the workbook's qualifiers are
        s = ranking.standings(db, tid)
        if not s.needs_toss:
            break
        group = s.needs_toss[0]
        ranked = sorted(group, key=lambda p: (order.get(p, len(order)), p))
        places = {p: k for k, p in enumerate(ranked, 1)}
        db[T_TOSSES].insert({"tournament_id": tid, "players": json.dumps(list(group)), "seed": 0,
                             "places": json.dumps({str(k): v for k, v in places.items()}), "by": BY,
                             "created_at": now()})
    s = ranking.standings(db, tid)
    if s.finalists != wanted:
        names = {r.player_id: r.name for r in s.rows}
        raise _fail("Final Round, rows 6–10", TournamentError(
            400, "the qualifiers listed (" + ", ".join(names.get(p, "?") for p in wanted) + ") are not the five "
                 "best of the preliminary rounds as they score (" + ", ".join(names.get(p, "?") for p in s.finalists)
                 + "): check the rounds' VP and any Standings Adjustment"))
    try:
        finals.start_final(db, tid)
    except TournamentError as exc:
        raise _fail("Final Round", exc)
    if not event.final:
        return
    seats = [pid[s.number] for s in event.final]
    placed: list[int] = []
    try:
        for p in final_mod.placement_order(wanted):
            position = sum(1 for q in placed if seats.index(q) < seats.index(p))
            finals.place_final_card(db, tid, p, position, by=BY)
            placed.append(p)
        seed = next(x for x in range(100_000) if final_mod.draw_first_player(seats, x) == seats[0])
        finals.seat_final(db, tid, seed=seed)
    except TournamentError as exc:
        raise _fail("Final Round, rows 14–18", exc)
    state = finals.final_state(db, tid)
    if state["table"] is None or [x["player_id"] for x in state["table"]["seats"]] != seats:
        raise _fail("Final Round, rows 14–18", TournamentError(400, Message("tournament.final-s-seats-could-not", "the final's seats could not be rebuilt")))
    _give_adjustments(db, tid, sas, pid, notes)
    if all(s.vp is not None for s in event.final):
        number = state["round"]
        _result(db, tid, number, 1, event.final, reasons.get(("F", 1)), notes, "Final Round")
        round_flow.close_round(db, tid, number)
