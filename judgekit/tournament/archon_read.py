"""Reading an Archon workbook (v1.5 layout, .xlsx) into an `archon.ArchonEvent`. Pure.

`read_workbook(data)` returns `(event, problems)`: every problem names its sheet and cell
("Round 2!E14: …") or the file; an event is returned only when there is none. Checked:
- the file: an .xlsx workbook (not a CSV, an old .xls, a PDF, an empty or damaged file;
  at most `MAX_BYTES`, and its parts at most `MAX_UNPACKED` once unpacked);
- the sheets: Tournament Info, Methuselahs and Round 1 must be there; Final Round and
  Override are read when present;
- the cells read: a merged range over them, a formula whose value was not saved (a file
  written by a program that does not compute formulas: open it in Excel or LibreOffice and
  save it again), an error value (#N/A), text where a number belongs, an unknown level;
- the data: player numbers (missing, twice), VEKN numbers (malformed, twice), names,
  tables of 4 or 5 players, a player seated twice in a round or not on the list, VP (not a
  number, negative, not a half, more than the table can give, a table half filled in).

What a real v1.5 file computes with formulas is read from the values saved with it (a file
saved by Excel or LibreOffice keeps each formula's last value). A round's tables are read by
their table number (column D), stepping over the blank fifth row of a 4-player table; a
round whose VP are all empty is seated but not played; the first round sheet with no player
ends the rounds.
"""
from __future__ import annotations

import io
import zipfile
from datetime import date, datetime
from typing import Any

from judgekit.errors import parse_int
from judgekit.tournament import levels as levels_mod
from judgekit.tournament.archon import (
    FINAL_SEATS_ROW,
    FINALISTS_ROW,
    FIRST_ROW,
    ArchonEvent,
    ArchonPlayer,
    ArchonSeat,
)
from judgekit.tournament.players import parse_vekn, squeeze
from judgekit.tournament.scoring import parse_vp, seat_errors

MAX_BYTES = 5 * 1024 * 1024          # an uploaded workbook
MAX_UNPACKED = 80 * 1024 * 1024      # its parts once unpacked (a zip bomb is refused)
MAX_PARTS = 3000
MAX_PLAYERS = 2000
MAX_ROUNDS = 20
REQUIRED = ("Tournament Info", "Methuselahs", "Round 1")
MAX_PROBLEMS = 60


class _Stop(Exception):
    """Too many problems, or one that stops the reading (the file itself)."""


class _Reader:
    def __init__(self, values, formulas):
        self.values = values        # workbook opened with data_only=True (saved values)
        self.formulas = formulas    # the same, with its formulas
        self.problems: list[str] = []
        self.sheets = {name.strip().casefold(): name for name in values.sheetnames}

    def problem(self, text: str) -> None:
        self.problems.append(text)
        if len(self.problems) >= MAX_PROBLEMS:
            self.problems.append(f"… more than {MAX_PROBLEMS} problems: fix these first.")
            raise _Stop()

    def sheet(self, name: str):
        real = self.sheets.get(name.casefold())
        return (self.values[real], self.formulas[real]) if real else None

    def check_merged(self, name: str, area: tuple[int, int, int, int]) -> None:
        """A merged range over the cells read (min_col, min_row, max_col, max_row)."""
        ws, _ = self.sheet(name)
        c1, r1, c2, r2 = area
        for rng in ws.merged_cells.ranges:
            if rng.min_col <= c2 and rng.max_col >= c1 and rng.min_row <= r2 and rng.max_row >= r1:
                self.problem(f"{ws.title}!{rng.coord} is a merged range over cells that are read: unmerge it "
                             "(Format › Merge cells › Unmerge) and save again")

    def cell(self, name: str, ref: str) -> Any:
        """The saved value of a cell, or a problem (and None) when it cannot be used."""
        ws, wf = self.sheet(name)
        c = ws[ref]
        value = c.value
        if c.data_type == "e" or (isinstance(value, str) and value.startswith("#") and value.rstrip("!?/0").upper()
                                  in ("#N/A", "#REF", "#VALUE", "#DIV", "#NAME", "#NUM", "#NULL")):
            self.problem(f"{ws.title}!{ref} holds the error value {value}: correct the cell")
            return None
        if value is None:
            f = wf[ref].value
            if f is not None and (wf[ref].data_type == "f" or not isinstance(f, (int, float, str))):
                self.problem(f"{ws.title}!{ref} holds a formula whose value was not saved with the file: open "
                             "it in Excel or LibreOffice and save it again (or type the value)")
            return None
        if isinstance(value, str):
            value = squeeze(value)
            return value or None
        return value

    def text(self, name: str, ref: str, limit: int = 200) -> str:
        value = self.cell(name, ref)
        if value is None:
            return ""
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        text = squeeze(str(value))
        if len(text) > limit:
            self.problem(f"{name}!{ref} is {len(text)} characters long (at most {limit})")
            return text[:limit]
        return text


def _open(data: bytes):
    """(values workbook, formulas workbook) or a problem."""
    import openpyxl  # imported here: only the workbook pages need it

    if not data or not data.strip():
        return None, "The file is empty."
    if len(data) > MAX_BYTES:
        return None, f"The file is {len(data) / 1e6:.1f} MB: an Archon workbook is at most {MAX_BYTES // 2**20} MB."
    if data.startswith(b"\xd0\xcf\x11\xe0"):
        return None, "This is an old Excel file (.xls): open it in Excel or LibreOffice and save it as .xlsx first."
    if data.startswith(b"%PDF"):
        return None, "This is a PDF, not a workbook: export the Archon workbook as .xlsx."
    if not data.startswith(b"PK\x03\x04"):
        head = data[:200]
        if all(32 <= b < 127 or b in (9, 10, 13) or b >= 0xc0 for b in head):
            return None, ("This is a text file (a CSV?), not a workbook: import players from a CSV on the "
                          "tournament's Players page, or choose the Archon .xlsx file.")
        return None, "This is not an .xlsx workbook: choose the Archon workbook (.xlsx)."
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            infos = z.infolist()
            if len(infos) > MAX_PARTS or sum(i.file_size for i in infos) > MAX_UNPACKED:
                return None, "The workbook unpacks to too much data to be an Archon workbook."
            names = {i.filename for i in infos}
        if "xl/workbook.xml" not in names:
            if "content.xml" in names:
                return None, "This is an OpenDocument spreadsheet (.ods): save it as .xlsx first."
            return None, "This zip file is not an .xlsx workbook: choose the Archon workbook (.xlsx)."
        values = openpyxl.load_workbook(io.BytesIO(data), data_only=True)
        formulas = openpyxl.load_workbook(io.BytesIO(data), data_only=False)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError):
        return None, "The workbook is damaged (not a complete .xlsx file): save it again and retry."
    except Exception as exc:  # openpyxl raises many kinds on malformed parts; all mean the same here
        return None, f"The workbook cannot be read ({type(exc).__name__}): open it in Excel or LibreOffice, " \
                     "save it as .xlsx and retry."
    return (values, formulas), None


def read_workbook(data: bytes) -> tuple[ArchonEvent | None, list[str]]:
    """The event in an Archon workbook, or None and the problems (each naming its cell)."""
    opened, problem = _open(data)
    if problem:
        return None, [problem]
    r = _Reader(*opened)
    missing = [name for name in REQUIRED if r.sheet(name) is None]
    if missing:
        found = ", ".join(r.values.sheetnames[:12])
        return None, [f"The workbook has no sheet named {', '.join(repr(m) for m in missing)} (its sheets: {found}): "
                      "is it an Archon v1.5 workbook?"]
    try:
        event = _read(r)
    except _Stop:
        return None, r.problems
    return (event, []) if not r.problems else (None, r.problems)


def _read(r: _Reader) -> ArchonEvent:
    info = "Tournament Info"
    r.check_merged(info, (2, 3, 2, 20))
    name = r.text(info, "B3")
    if not name:
        r.problem("Tournament Info!B3: no event name")
    day = r.cell(info, "B4")
    if isinstance(day, datetime):
        day = day.date()
    elif day is not None and not isinstance(day, date):
        day = str(day)[:40]
    event = ArchonEvent(name=name[:200], date=day, organizer=r.text(info, "B6", 80), city=r.text(info, "B7", 80),
                        head_judge=r.text(info, "B17", 80), assistant_judges=r.text(info, "B18", 300))
    fmt = r.text(info, "B8", 40)
    if fmt:
        match = next((f for f in levels_mod.FORMATS if f.casefold() == fmt.casefold()), None)
        if match is None:
            r.problem(f"Tournament Info!B8: unknown format {fmt!r} (Constructed or Limited)")
        event.format = match or "Constructed"
    level = r.text(info, "B9", 60)
    if level:
        found = levels_mod.find(level)
        if found is None:
            r.problem(f"Tournament Info!B9: unknown event level {level!r}: one of {levels_mod.names_list()}")
        else:
            event.level = found.name
    vekn_id = r.cell(info, "B20")
    if vekn_id is not None:
        n = parse_int(vekn_id, 1, 10**9)
        if n is None:
            r.problem(f"Tournament Info!B20: the VEKN event id must be a whole number, not {str(vekn_id)[:30]!r}")
        event.vekn_event_id = str(n) if n else ""
    event.players = _read_players(r)
    numbers = {p.number for p in event.players}
    for k in range(1, MAX_ROUNDS + 1):
        sheet = f"Round {k}"
        if r.sheet(sheet) is None:
            break
        tables = _read_round(r, sheet, numbers)
        if not tables:
            break
        event.rounds.append(tables)
    _read_final(r, event, numbers)
    _read_overrides(r, event)
    return event


def _name_cells(r: _Reader, sheet: str, row: int) -> tuple[str, str]:
    return r.text(sheet, f"B{row}", 80), r.text(sheet, f"C{row}", 80)


def _read_players(r: _Reader) -> list[ArchonPlayer]:
    sheet = "Methuselahs"
    ws, _ = r.sheet(sheet)
    last = min(ws.max_row, FIRST_ROW + MAX_PLAYERS)
    r.check_merged(sheet, (1, FIRST_ROW, 13, last))
    out: list[ArchonPlayer] = []
    by_number: dict[int, int] = {}
    by_vekn: dict[str, int] = {}
    for row in range(FIRST_ROW, last + 1):
        first, last_name = _name_cells(r, sheet, row)
        raw_vekn = r.cell(sheet, f"E{row}")
        if not first and not last_name:
            if raw_vekn is not None:
                r.problem(f"Methuselahs!B{row}: a VEKN number ({raw_vekn}) but no name")
            continue
        number = parse_int(r.cell(sheet, f"A{row}"), 1, 100_000)
        if number is None:
            r.problem(f"Methuselahs!A{row}: {first} {last_name} has no player number (a whole number)")
            continue
        if number in by_number:
            r.problem(f"Methuselahs!A{row}: player number {number} is also on row {by_number[number]}")
            continue
        by_number[number] = row
        vekn, bad = parse_vekn(raw_vekn)
        if bad:
            r.problem(f"Methuselahs!E{row}: {bad}")
        if vekn and vekn in by_vekn:
            r.problem(f"Methuselahs!E{row}: VEKN number {vekn} is also on row {by_vekn[vekn]}")
        elif vekn:
            by_vekn[vekn] = row
        if len(squeeze(f"{first} {last_name}")) > 80:
            r.problem(f"Methuselahs!B{row}: the name is longer than 80 characters")
        dq = r.text(sheet, f"G{row}", 20)
        toss = parse_int(r.cell(sheet, f"M{row}"), 0, 100) or 0
        out.append(ArchonPlayer(number=number, first=first, last=last_name, city=r.text(sheet, f"D{row}", 80),
                                vekn=vekn or "", country=r.text(sheet, f"H{row}", 80),
                                dq=dq.strip().upper() in ("DQ", "X", "1", "YES", "TRUE"), toss=toss))
    if not out:
        r.problem("Methuselahs: no player from row 7 down (A number, B first name, C last name, E VEKN number)")
    return out


def _vp(r: _Reader, sheet: str, ref: str) -> tuple[Any, bool]:
    """(raw VP for the table check, given?)."""
    raw = r.cell(sheet, ref)
    if raw is None:
        return None, False
    if isinstance(raw, bool) or (not isinstance(raw, (int, float, str))):
        r.problem(f"{sheet}!{ref}: {raw!r} is not a VP")
        return None, True
    if parse_vp(raw) is None:
        r.problem(f"{sheet}!{ref}: {str(raw)[:30]!r} is not a VP (a number such as 1, 1.5 or 0)")
    return raw, True


def _read_round(r: _Reader, sheet: str, numbers: set[int]) -> list[list[ArchonSeat]]:
    ws, _ = r.sheet(sheet)
    last = min(ws.max_row, FIRST_ROW + 5 * MAX_PLAYERS)
    r.check_merged(sheet, (1, FIRST_ROW, 5, last))
    tables: dict[int, list[tuple[int, int, Any, bool]]] = {}
    seen: dict[int, int] = {}
    for row in range(FIRST_ROW, last + 1):
        raw = r.cell(sheet, f"A{row}")
        if raw is None:
            continue
        number = parse_int(raw, 1, 100_000)
        if number is None:
            r.problem(f"{sheet}!A{row}: {str(raw)[:30]!r} is not a player number")
            continue
        if number not in numbers:
            r.problem(f"{sheet}!A{row}: player {number} is not on the Methuselahs list")
            continue
        if number in seen:
            r.problem(f"{sheet}!A{row}: player {number} is seated twice in this round (also row {seen[number]})")
            continue
        seen[number] = row
        table_raw = r.cell(sheet, f"D{row}")
        table = parse_int(table_raw, 1, 1000) if table_raw is not None else (row - FIRST_ROW) // 5 + 1
        if table is None:
            r.problem(f"{sheet}!D{row}: {str(table_raw)[:30]!r} is not a table number")
            continue
        vp, given = _vp(r, sheet, f"E{row}")
        tables.setdefault(table, []).append((row, number, vp, given))
    out = []
    for table in sorted(tables):
        seats = tables[table]
        rows = f"rows {seats[0][0]}–{seats[-1][0]}"
        if len(seats) not in (4, 5):
            r.problem(f"{sheet}, table {table} ({rows}): {len(seats)} players — a table has 4 or 5 (3.1.2)")
            continue
        out.append(_table_seats(r, sheet, "E", seats, "the table's"))
    return out


def _table_seats(r: _Reader, sheet: str, col: str, seats: list[tuple], whose: str) -> list[ArchonSeat]:
    """One table's seats, read as `(row, number, vp, given)` with the VP in column `col`:
    its VPs are given for every seat or none (`whose` other seats: "the table's"), and
    when given, they add up as a table's do (`seat_errors`)."""
    given = [s[3] for s in seats]
    if any(given) and not all(given):
        empty = next(s[0] for s in seats if not s[3])
        r.problem(f"{sheet}!{col}{empty}: no VP, while {whose} other seats have theirs")
    elif all(given):
        for e in seat_errors([s[2] for s in seats]):
            if e.seat:
                r.problem(f"{sheet}!{col}{seats[e.seat - 1][0]}: {e.message}")
    return [ArchonSeat(number=n, vp=parse_vp(v) if g else None) for _, n, v, g in seats]


def _read_final(r: _Reader, event: ArchonEvent, numbers: set[int]) -> None:
    sheet = "Final Round"
    if r.sheet(sheet) is None:
        return
    r.check_merged(sheet, (1, FINALISTS_ROW, 10, FINAL_SEATS_ROW + 4))
    for row in range(FINALISTS_ROW, FINALISTS_ROW + 5):
        raw = r.cell(sheet, f"A{row}")
        if raw is None:
            continue
        number = parse_int(raw, 1, 100_000)
        if number is None or number not in numbers:
            r.problem(f"{sheet}!A{row}: {str(raw)[:30]!r} is not a player number of the Methuselahs list")
        elif number in event.finalists:
            r.problem(f"{sheet}!A{row}: player {number} is listed twice among the qualifiers")
        else:
            event.finalists.append(number)
    seats = []
    for row in range(FINAL_SEATS_ROW, FINAL_SEATS_ROW + 5):
        raw = r.cell(sheet, f"A{row}")
        if raw is None:
            continue
        number = parse_int(raw, 1, 100_000)
        if number is None or number not in event.finalists:
            r.problem(f"{sheet}!A{row}: {str(raw)[:30]!r} is not one of the qualifiers (rows 6–10)")
            continue
        if any(s[1] == number for s in seats):
            r.problem(f"{sheet}!A{row}: player {number} is seated twice at the final")
            continue
        vp, given = _vp(r, sheet, f"F{row}")
        seats.append((row, number, vp, given))
    if seats:
        if len(seats) != len(event.finalists):
            r.problem(f"{sheet}: {len(seats)} players seated at the final (rows 14–18) for "
                      f"{len(event.finalists)} qualifiers (rows 6–10)")
        event.final = _table_seats(r, sheet, "F", seats, "the final's")
    if event.finalists and len(event.finalists) not in (4, 5):
        r.problem(f"{sheet}: {len(event.finalists)} qualifiers in rows 6–10 — a final has 4 or 5")


def _read_overrides(r: _Reader, event: ArchonEvent) -> None:
    sheet = "Override"
    if r.sheet(sheet) is None:
        return
    ws, _ = r.sheet(sheet)
    for row in range(2, min(ws.max_row, 500) + 1):
        rnd = r.text(sheet, f"A{row}", 10)
        text = r.text(sheet, f"D{row}", 1000)
        if not rnd and not text:
            continue
        table = parse_int(r.cell(sheet, f"B{row}"), 1, 1000) or 1
        number = parse_int(r.cell(sheet, f"C{row}"), 1, 100_000)
        event.overrides.append((rnd.upper(), table, number, text))
