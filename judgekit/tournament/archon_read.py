"""Reading an Archon workbook's sheets (v1.5 layout) into an `archon.ArchonEvent`. Pure.

`read_workbook(data)` returns `(event, problems)`: every problem names its sheet and cells
("Round 2!E14: …") or the file; an event is returned only when there is none. The file is
opened, refused and its cells read by `archon_file` (its limits, and the cell problems
told once per kind and sheet); here, what the sheets say. Checked:
- the sheets: Tournament Info, Methuselahs and Round 1 must be there; Final Round and
  Override are read when present;
- the cells read: text where a number belongs, a date that is not one, an unknown level;
- the data: player numbers (missing, twice), VEKN numbers (malformed, twice), names,
  tables of 4 or 5 players, a player seated twice in a round or not on the list, VP (not a
  number, negative, not a half, more than the table can give, a table half filled in).

A round's tables are read by their table number (column D), stepping over the blank fifth
row of a 4-player table; a round whose VP are all empty is seated but not played; the
first round sheet with no player ends the rounds. Override rows are those whose column A
holds a round number or "F" (the sheet's header, "Round (F for Final)", is not one);
judgekit's Standings Adjustment rows carry the player (E) and the VP change (F).
"""
from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

from judgekit.errors import parse_int
from judgekit.tournament import levels as levels_mod
from judgekit.tournament.archon import (
    FINAL_SEATS_ROW,
    FINALISTS_ROW,
    FIRST_ROW,
    TABLE_ROWS,
    ArchonEvent,
    ArchonPlayer,
    ArchonSeat,
    COUNTRY_COL,
    Adjustment,
)
from judgekit.tournament.archon_file import (
    MAX_ROUNDS,
    MAX_SECONDS,
    REQUIRED,
    Reader,
    Stop,
    at,
    open_workbook,
    unreadable,
    work_seconds,
)
from judgekit.i18n import Message, Said
from judgekit.tournament.players import parse_vekn, squeeze
from judgekit.tournament.scoring import parse_vp, seat_errors


def read_workbook(data: bytes) -> tuple[ArchonEvent | None, list[Said]]:
    """The event in an Archon workbook, or None and the problems (each naming its cells; a
    `Said`: English text with its `archon.*` catalog id)."""
    deadline = work_seconds() + MAX_SECONDS
    opened, problem = open_workbook(data)
    if problem:
        return None, [problem]
    wb, z = opened
    try:
        r = Reader(wb, z, data, deadline)
        missing = [name for name in REQUIRED if not r.has(name)]
        if missing:
            found = ", ".join(wb.sheetnames[:12])
            return None, [Said(Message("archon.missing-sheets", "The workbook has no sheet named %(missing)s (its "
                                       "sheets: %(found)s): is it an Archon v1.5 workbook?",
                                       missing=", ".join(repr(m) for m in missing), found=found))]
        try:
            event = _read(r)
        except Stop:
            return None, r.all_problems()
        except Exception as exc:  # a malformed part met while streaming
            return None, [unreadable(exc)]
        problems = r.all_problems()
        return (event, []) if not problems else (None, problems)
    finally:
        wb.close()


MONTHS = {m: k for k, m in enumerate(("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT",
                                      "NOV", "DEC"), 1)}


def parse_date(text: str) -> date | None:
    """A date typed as text: 17-MAY-25 (Archon's DD-MON-YY), 2025-05-17, 17/05/2025, 17.05.25."""
    text = text.strip().upper()
    try:
        return date.fromisoformat(text[:10])
    except ValueError:
        pass
    m = re.fullmatch(r"(\d{1,2})[-/. ]([A-Z]{3})[A-Z]*[-/. ](\d{2}|\d{4})", text)
    if m and m[2] in MONTHS:
        day, month, year = int(m[1]), MONTHS[m[2]], int(m[3])
    else:
        m = re.fullmatch(r"(\d{1,2})[-/.](\d{1,2})[-/.](\d{2}|\d{4})", text)
        if not m:
            return None
        day, month, year = int(m[1]), int(m[2]), int(m[3])
    year = year + 2000 if year < 100 else year
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _read(r: Reader) -> ArchonEvent:
    info = "Tournament Info"
    r.check_merged(info, (2, 3, 2, 28))
    name = r.text(info, "B3")
    if not name:
        r.problem(at("Tournament Info!B3", Message("archon.no-event-name", "no event name")))
    day = r.cell(info, "B4")
    if isinstance(day, datetime):
        day = day.date()
    elif isinstance(day, str):
        parsed = parse_date(day)
        if parsed is None:
            r.problem(at("Tournament Info!B4", Message("archon.not-a-date", "%(value)s is not a date (type it as "
                                                       "Archon does, 17-MAY-25)", value=repr(day[:30]))))
        day = parsed
    elif day is not None and not isinstance(day, date):
        r.problem(at("Tournament Info!B4", Message("archon.not-a-date", "%(value)s is not a date (type it as "
                                                   "Archon does, 17-MAY-25)", value=repr(str(day)[:30]))))
        day = None
    judges = [r.text(info, f"B{row}", 80) for row in range(18, 27)]
    event = ArchonEvent(name=name[:200], date=day, organizer=r.text(info, "B6", 80), city=r.text(info, "B7", 80),
                        head_judge=r.text(info, "B17", 80), assistant_judges=", ".join(j for j in judges if j)[:300])
    fmt = r.text(info, "B8", 40)
    if fmt:
        match = next((f for f in levels_mod.FORMATS if f.casefold() == fmt.casefold()), None)
        if match is None:
            r.problem(at("Tournament Info!B8", Message("archon.unknown-format", "unknown format %(value)s "
                                                       "(Constructed or Limited)", value=repr(fmt))))
        event.format = match or "Constructed"
    level = r.text(info, "B9", 60)
    if level:
        found = levels_mod.find(level)
        if found is None:
            r.problem(at("Tournament Info!B9", Message("archon.unknown-level", "unknown event level %(value)s: "
                                                       "one of %(levels)s", value=repr(level),
                                                       levels=levels_mod.names_list())))
        else:
            event.level = found.name
    vekn_id = r.cell(info, "B28")
    if vekn_id is not None:
        n = parse_int(vekn_id, 1, 10**9)
        if n is None:
            r.problem(at("Tournament Info!B28", Message("archon.bad-event-id", "the VEKN event id must be a whole "
                                                        "number, not %(value)s", value=repr(str(vekn_id)[:30]))))
        event.vekn_event_id = str(n) if n else ""
    event.players = _read_players(r)
    numbers = {p.number for p in event.players}
    for k in range(1, MAX_ROUNDS + 1):
        sheet = f"Round {k}"
        if not r.has(sheet):
            break
        tables = _read_round(r, sheet, numbers, required=k == 1)
        if not tables:
            break
        event.rounds.append(tables)
    _read_final(r, event, numbers)
    _read_overrides(r, event, numbers)
    return event


def _name_cells(r: Reader, sheet: str, row: int) -> tuple[str, str]:
    return r.text(sheet, f"B{row}", 80), r.text(sheet, f"C{row}", 80)


def _read_players(r: Reader) -> list[ArchonPlayer]:
    sheet = "Methuselahs"
    cells = r.area(sheet)
    last = max([row for row, _ in cells] + [FIRST_ROW])
    r.check_merged(sheet, (1, FIRST_ROW, 13, last))
    out: list[ArchonPlayer] = []
    by_number: dict[int, int] = {}
    by_vekn: dict[str, int] = {}
    for row in range(FIRST_ROW, last + 1):
        first, last_name = _name_cells(r, sheet, row)
        raw_vekn = r.cell(sheet, f"E{row}")
        if not first and not last_name:
            if raw_vekn is not None:
                r.problem(at(f"Methuselahs!B{row}", Message("archon.vekn-no-name", "a VEKN number (%(vekn)s) but "
                                                            "no name", vekn=raw_vekn)))
            continue
        number = parse_int(r.cell(sheet, f"A{row}"), 1, 100_000)
        if number is None:
            r.problem(at(f"Methuselahs!A{row}", Message("archon.no-number", "%(name)s has no player number (a "
                                                        "whole number)", name=f"{first} {last_name}")))
            continue
        if number in by_number:
            r.problem(at(f"Methuselahs!A{row}", Message("archon.number-twice", "player number %(number)s is also "
                                                        "on row %(row)s", number=number, row=by_number[number])))
            continue
        by_number[number] = row
        vekn, bad = parse_vekn(raw_vekn)
        if bad:
            r.problem(at(f"Methuselahs!E{row}", bad))
        if vekn and vekn in by_vekn:
            r.problem(at(f"Methuselahs!E{row}", Message("archon.vekn-twice", "VEKN number %(vekn)s is also on "
                                                        "row %(row)s", vekn=vekn, row=by_vekn[vekn])))
        elif vekn:
            by_vekn[vekn] = row
        if len(squeeze(f"{first} {last_name}")) > 80:
            r.problem(at(f"Methuselahs!B{row}", Message("archon.name-too-long", "the name is longer than 80 "
                                                        "characters")))
        dq = r.text(sheet, f"G{row}", 20)
        toss = parse_int(r.cell(sheet, f"M{row}"), 0, 100) or 0
        out.append(ArchonPlayer(number=number, first=first, last=last_name, city=r.text(sheet, f"D{row}", 80),
                                vekn=vekn or "", country=r.text(sheet, f"{COUNTRY_COL}{row}", 80),
                                dq=dq.strip().upper() in ("DQ", "X", "1", "YES", "TRUE"), toss=toss))
    if not out:
        unsaved = r.unsaved(sheet, [f"{c}{row}" for row in range(FIRST_ROW, FIRST_ROW + 20) for c in "ABC"])
        for ref in unsaved:
            r.cell_problem("unsaved", r.real(sheet), ref)
        if not unsaved:
            r.problem(at("Methuselahs", Message("archon.no-players", "no player from row 7 down (A number, B first "
                                                "name, C last name, E VEKN number)")))
    return out


def _vp(r: Reader, sheet: str, ref: str) -> tuple[Any, bool]:
    """(raw VP for the table check, given?)."""
    raw = r.cell(sheet, ref)
    if raw is None:
        return None, (r.real(sheet), ref) in r.flagged   # a cell already told about counts as given
    if isinstance(raw, bool) or not isinstance(raw, (int, float, str)) or (
            isinstance(raw, str) and parse_vp(raw) is None):
        r.problem(at(f"{sheet}!{ref}", Message("archon.not-a-vp", "%(value)s is not a VP (a number such as 1, 1.5 "
                                               "or 0)", value=repr(str(raw)[:30]))))
        r.flagged.add((r.real(sheet), ref))
        return None, True
    return raw, True


def _read_round(r: Reader, sheet: str, numbers: set[int], required: bool) -> list[list[ArchonSeat]]:
    cells = r.area(sheet)
    last = max([row for row, _ in cells] + [FIRST_ROW])
    r.check_merged(sheet, (1, FIRST_ROW, 5, last))
    tables: dict[int, list[tuple[int, int, Any, bool]]] = {}
    refused: set[int] = set()   # tables with a seat already told about: not checked further
    seen: dict[int, int] = {}
    orphans: list[str] = []

    def table_of(row: int) -> int:
        raw = cells.get((row, 4), (None,))[0]
        return parse_int(raw, 1, 1000) or (row - FIRST_ROW) // TABLE_ROWS + 1

    for row in range(FIRST_ROW, last + 1):
        raw = r.cell(sheet, f"A{row}")
        if raw == 0 and not isinstance(raw, bool):
            raw = None   # the v1.5 seating chart gives 0 past the last seat: no player
        if raw is None:
            if (r.real(sheet), f"A{row}") in r.flagged:
                refused.add(table_of(row))
            elif (row, 5) in cells and cells[(row, 5)][0] not in (None, ""):
                orphans.append(f"A{row}")
            continue
        number = parse_int(raw, 1, 100_000)
        problem = None
        if number is None:
            problem = Message("archon.not-a-number", "%(value)s is not a player number", value=repr(str(raw)[:30]))
        elif number not in numbers:
            problem = Message("archon.not-listed", "player %(number)s is not on the Methuselahs list", number=number)
        elif number in seen:
            problem = Message("archon.seated-twice", "player %(number)s is seated twice in this round (also row "
                              "%(row)s)", number=number, row=seen[number])
        if problem:
            r.problem(at(f"{sheet}!A{row}", problem))
            refused.add(table_of(row))
            continue
        seen[number] = row
        table_raw = r.cell(sheet, f"D{row}")
        table = parse_int(table_raw, 1, 1000) if table_raw is not None else (row - FIRST_ROW) // TABLE_ROWS + 1
        if table is None:
            r.problem(at(f"{sheet}!D{row}", Message("archon.not-a-table", "%(value)s is not a table number",
                                                    value=repr(str(table_raw)[:30]))))
            refused.add((row - FIRST_ROW) // TABLE_ROWS + 1)
            continue
        vp, given = _vp(r, sheet, f"E{row}")
        tables.setdefault(table, []).append((row, number, vp, given))
    if orphans or (required and not tables):
        refs = orphans or [f"A{row}" for row in range(FIRST_ROW, FIRST_ROW + 20)]
        unsaved = r.unsaved(sheet, refs)
        for ref in unsaved:
            r.cell_problem("unsaved", r.real(sheet), ref)
        if orphans and not unsaved:
            r.problem(at(f"{sheet}!{', '.join(orphans[:10])}", Message("archon.vp-no-player", "VP in column E "
                                                                       "but no player number in column A")))
        if not tables and not unsaved and not orphans:
            r.problem(at(sheet, Message("archon.no-seats", "no player seated from row 7 down (A player number, D "
                                        "table, E VP)")))
    out = []
    for table in sorted(tables):
        seats = tables[table]
        if table in refused:
            continue
        if len(seats) not in (4, 5):
            r.problem(Said(Message("archon.table-size", "%(sheet)s, table %(table)s (rows %(first)s–%(last)s): "
                                   "%(count)s players — a table has 4 or 5 (3.1.2)", sheet=sheet, table=table,
                                   first=seats[0][0], last=seats[-1][0], count=len(seats))))
            continue
        out.append(_table_seats(r, sheet, "E", seats, final=False))
    return out


def _table_seats(r: Reader, sheet: str, col: str, seats: list[tuple], final: bool) -> list[ArchonSeat]:
    """One table's seats, read as `(row, number, vp, given)` with the VP in column `col`:
    its VPs are given for every seat or none (the table's, or the `final`'s, other seats),
    and when given, they add up as a table's do (`seat_errors`)."""
    given = [s[3] for s in seats]
    if any(given) and not all(given):
        empty = [f"{col}{s[0]}" for s in seats if not s[3]]
        unsaved = r.unsaved(sheet, empty)
        for ref in unsaved:
            r.cell_problem("unsaved", r.real(sheet), ref)
        if not unsaved:
            r.problem(at(f"{sheet}!{empty[0]}", Message("archon.no-vp-final", "no VP, while the final's other seats "
                                                        "have theirs") if final else
                         Message("archon.no-vp", "no VP, while the table's other seats have theirs")))
    elif all(given) and all(s[2] is not None for s in seats):
        for e in seat_errors([s[2] for s in seats]):
            if e.seat:
                r.problem(at(f"{sheet}!{col}{seats[e.seat - 1][0]}", e.message))
    return [ArchonSeat(number=n, vp=parse_vp(v) if g else None) for _, n, v, g in seats]


def _read_final(r: Reader, event: ArchonEvent, numbers: set[int]) -> None:
    sheet = "Final Round"
    if not r.has(sheet):
        return
    r.check_merged(sheet, (1, FINALISTS_ROW, 10, FINAL_SEATS_ROW + 4))
    for row in range(FINALISTS_ROW, FINALISTS_ROW + 5):
        raw = r.cell(sheet, f"A{row}")
        if raw is None:
            continue
        number = parse_int(raw, 1, 100_000)
        if number is None or number not in numbers:
            r.problem(at(f"{sheet}!A{row}", Message("archon.not-a-listed-number", "%(value)s is not a player number "
                                                    "of the Methuselahs list", value=repr(str(raw)[:30]))))
        elif number in event.finalists:
            r.problem(at(f"{sheet}!A{row}", Message("archon.qualifier-twice", "player %(number)s is listed twice "
                                                    "among the qualifiers", number=number)))
        else:
            event.finalists.append(number)
    seats = []
    for row in range(FINAL_SEATS_ROW, FINAL_SEATS_ROW + 5):
        raw = r.cell(sheet, f"A{row}")
        if raw is None:
            continue
        number = parse_int(raw, 1, 100_000)
        if number is None or number not in event.finalists:
            r.problem(at(f"{sheet}!A{row}", Message("archon.not-a-qualifier", "%(value)s is not one of the "
                                                    "qualifiers (rows 6–10)", value=repr(str(raw)[:30]))))
            continue
        if any(s[1] == number for s in seats):
            r.problem(at(f"{sheet}!A{row}", Message("archon.final-seated-twice", "player %(number)s is seated "
                                                    "twice at the final", number=number)))
            continue
        vp, given = _vp(r, sheet, f"F{row}")
        seats.append((row, number, vp, given))
    if seats:
        if len(seats) != len(event.finalists):
            r.problem(at(sheet, Message("archon.final-seats", "%(seats)s players seated at the final (rows 14–18) "
                                        "for %(qualifiers)s qualifiers (rows 6–10)", seats=len(seats),
                                        qualifiers=len(event.finalists))))
        event.final = _table_seats(r, sheet, "F", seats, final=True)
    if event.finalists and len(event.finalists) not in (4, 5):
        r.problem(at(sheet, Message("archon.final-size", "%(count)s qualifiers in rows 6–10 — a final has 4 or 5",
                                    count=len(event.finalists))))


SA_START = ("standings adjustment", "sa:", "sa ", "sa-", "game loss")


def is_adjustment(text: str) -> bool:
    """Whether an Override row's explanation is a Standings Adjustment (v1: a Game Loss)."""
    return text.casefold().startswith(SA_START)


def _read_overrides(r: Reader, event: ArchonEvent, numbers: set[int]) -> None:
    """Rows whose A holds a round number or "F" (the header rows hold neither): round,
    table, explanation; a Standings Adjustment row also names the player (E, or "player N"
    in the explanation) and the VP change (F, −1 when empty)."""
    sheet = "Override"
    if not r.has(sheet):
        return
    cells = r.area(sheet)
    rows = sorted({row for row, _ in cells})
    for row in rows:
        rnd_raw = r.cell(sheet, f"A{row}")
        if rnd_raw is None:
            continue
        rnd = str(int(rnd_raw)) if isinstance(rnd_raw, (int, float)) and float(rnd_raw).is_integer() \
            else squeeze(str(rnd_raw)).upper()
        if rnd != "F" and parse_int(rnd, 1, MAX_ROUNDS) is None:
            continue   # a header or a note, not an override
        text = r.text(sheet, f"D{row}", 1000)
        table_raw = r.cell(sheet, f"B{row}")
        table = parse_int(table_raw, 1, 1000) if table_raw is not None else 1
        if table is None:
            r.problem(at(f"{sheet}!B{row}", Message("archon.not-a-table", "%(value)s is not a table number",
                                                    value=repr(str(table_raw)[:30]))))
            continue
        if not is_adjustment(text):
            event.overrides.append((rnd, table, None, text))
            continue
        number = parse_int(r.cell(sheet, f"E{row}"), 1, 100_000)
        if number is None:
            m = re.search(r"\bplayer\s*#?\s*(\d+)", text, re.I)
            number = int(m[1]) if m else None
        if number is None or number not in numbers:
            r.problem(at(f"{sheet}!E{row}", Message("archon.sa-no-player", "a Standings Adjustment in round "
                                                    "%(round)s, table %(table)s names no player of the Methuselahs "
                                                    "list (put the player's number in column E)", round=rnd,
                                                    table=table)))
            continue
        raw = r.cell(sheet, f"F{row}")
        vp = -1.0 if raw is None else parse_vp(abs(raw)) if isinstance(raw, (int, float)) else None
        if raw is not None and (vp is None or not raw < 0):
            r.problem(at(f"{sheet}!F{row}", Message("archon.sa-vp", "the VP change of a Standings Adjustment is a "
                                                    "negative number (-1), not %(value)s", value=repr(str(raw)[:30]))))
            continue
        event.adjustments.append(Adjustment(round=rnd, table=table, number=number,
                                            vp=-vp if raw is not None else -1.0, text=text))
