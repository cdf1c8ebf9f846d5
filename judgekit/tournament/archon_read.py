"""Reading an Archon workbook (v1.5 layout, .xlsx) into an `archon.ArchonEvent`. Pure.

`read_workbook(data)` returns `(event, problems)`: every problem names its sheet and cells
("Round 2!E14: …") or the file; an event is returned only when there is none. One line per
kind of problem and sheet, with the cells it concerns listed once ("Round 1!A7, A8, A12
hold a formula whose value was not saved …"). Checked:
- the file: an .xlsx workbook (not a CSV, an old .xls, a macro-enabled .xlsm, an .ods, a
  PDF, an empty or damaged file; at most `MAX_BYTES`, its parts at most `MAX_UNPACKED` once
  unpacked, each sheet read at most `MAX_SHEET`);
- the sheets: Tournament Info, Methuselahs and Round 1 must be there; Final Round and
  Override are read when present;
- the cells read: a merged range over them, a formula whose value was not saved (a file
  written by a program that does not compute formulas: open it in Excel or LibreOffice and
  save it again), an error value (#N/A, #REF!), text where a number belongs, a date that is
  not one, an unknown level;
- the data: player numbers (missing, twice), VEKN numbers (malformed, twice), names,
  tables of 4 or 5 players, a player seated twice in a round or not on the list, VP (not a
  number, negative, not a half, more than the table can give, a table half filled in).

The cost is bounded whatever the file (issue 28.1): only the sheets used are read, each
once, streamed by openpyxl's read-only mode and only over the rows and columns the layout
uses (`AREAS`); the zip's directory is checked before anything is unpacked; reading stops
with a clear refusal after `MAX_SECONDS`. An unused sheet of a million cells is never
unpacked.

What a real v1.5 file computes with formulas is read from the values saved with it (a file
saved by Excel or LibreOffice keeps each formula's last value; a formula whose saved value
is the empty string — `t="str"` with an empty `<v>`, the blank fifth seat of a 4-player
table — is an empty cell, not a missing value). A round's tables are read by their table
number (column D), stepping over the blank fifth row of a 4-player table; a round whose VP
are all empty is seated but not played; the first round sheet with no player ends the
rounds. Override rows are those whose column A holds a round number or "F" (the sheet's
header, "Round (F for Final)", is not one); judgekit's Standings Adjustment rows carry the
player (E) and the VP change (F).
"""
from __future__ import annotations

import io
import re
import time
import zipfile
from datetime import date, datetime
from typing import Any

from judgekit.errors import parse_int
from judgekit.tournament import levels as levels_mod
from judgekit.tournament.archon import (
    FINAL_SEATS_ROW,
    FINALISTS_ROW,
    FIRST_ROW,
    OVERRIDE_ROW,
    TABLE_ROWS,
    ArchonEvent,
    ArchonPlayer,
    ArchonSeat,
    COUNTRY_COL,
    Adjustment,
)
from judgekit.i18n import Message, Said
from judgekit.tournament.players import parse_vekn, squeeze
from judgekit.tournament.scoring import parse_vp, seat_errors

MAX_BYTES = 5 * 1024 * 1024          # an uploaded workbook
MAX_UNPACKED = 80 * 1024 * 1024      # its parts once unpacked (a zip bomb is refused)
MAX_SHEET = 4 * 1024 * 1024          # one sheet that is read, unpacked (a real 300-player round: ~1.2 MB)
MAX_SHARED = 8 * 1024 * 1024         # the shared strings, unpacked
MAX_PARTS = 3000
MAX_PLAYERS = 1000                   # the v1.5 sheets hold 300
MAX_ROUNDS = 20
MAX_OVERRIDES = 500
MAX_SECONDS = 2.5                    # reading stops after this (issue 28.1: answered in ≤ 3 s)
REQUIRED = ("Tournament Info", "Methuselahs", "Round 1")
MAX_PROBLEMS = 60
ERRORS = ("#N/A", "#REF!", "#VALUE!", "#DIV/0!", "#NAME?", "#NUM!", "#NULL!", "#GETTING_DATA")
MACRO_TYPES = (b"macroEnabled", b"vbaProject")

# The rows and columns read per sheet: (first row, last row, last column).
AREAS = {
    "Tournament Info": (1, 30, 2),
    "Methuselahs": (FIRST_ROW, FIRST_ROW + MAX_PLAYERS, 30),
    "Final Round": (FINALISTS_ROW, FINAL_SEATS_ROW + 4, 10),
    "Override": (2, OVERRIDE_ROW + MAX_OVERRIDES, 7),
}
ROUND_AREA = (FIRST_ROW, FIRST_ROW + TABLE_ROWS * (MAX_PLAYERS // 4 + 1), 5)


# One line per kind of cell problem: kind -> (one cell, several cells) wording.
def _kind_line(kind: str, many: bool, cells: Message | str) -> Message:
    """The one line of a kind of cell problem (`cells`: the sheet and its cells)."""
    if kind == "unsaved":
        return Message("archon.unsaved-many", "%(cells)s hold formulas whose values were not saved with the file: "
                       "open the file in Excel or LibreOffice and save it again (or type the values)", cells=cells) \
            if many else Message("archon.unsaved-one", "%(cells)s holds a formula whose value was not saved with the "
                                 "file: open the file in Excel or LibreOffice and save it again (or type the values)",
                                 cells=cells)
    if kind == "error":
        return Message("archon.error-many", "%(cells)s hold error values: correct the formulas or type the values",
                       cells=cells) if many else \
            Message("archon.error-one", "%(cells)s holds an error value: correct the formulas or type the values",
                    cells=cells)
    return Message("archon.merged-many", "%(cells)s are merged ranges over cells that are read: unmerge them "
                   "(Format › Merge cells › Unmerge) and save again", cells=cells) if many else \
        Message("archon.merged-one", "%(cells)s is a merged range over cells that are read: unmerge them "
                "(Format › Merge cells › Unmerge) and save again", cells=cells)


KINDS = ("unsaved", "error", "merged")   # the cell problems listed once per sheet (`_kind_line`)


def _at(where: str, problem: Message | Said | str) -> Said:
    """A problem at a sheet's cells ("Round 2!E14: …")."""
    return Said(Message("archon.at", "%(where)s: %(problem)s", where=where, problem=problem))


def _too_big_sheet(name: str, size: int) -> Said:
    return Said(Message("archon.sheet-too-big", "The sheet %(name)s unpacks to %(size)s MB: an Archon sheet is at "
                        "most %(max)s MB (a real 300-player round is under 2 MB). Remove the rows and cells that "
                        "are not Archon's and save again.", name=repr(name), size=f"{size / 2**20:.1f}",
                        max=MAX_SHEET // 2**20))


def _unreadable(exc: Exception) -> Said:
    return Said(Message("archon.unreadable", "The workbook cannot be read (%(error)s): open it in Excel or "
                        "LibreOffice, save it as .xlsx and retry.", error=type(exc).__name__))


class _Stop(Exception):
    """Too many problems, or one that stops the reading (the file itself)."""


def _col(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n


def _split(ref: str) -> tuple[int, int]:
    m = re.fullmatch(r"([A-Z]{1,3})(\d+)", ref)
    return int(m.group(2)), _col(m.group(1))


class _Reader:
    """The workbook's used areas, each read once (`load`), as {(row, col): (value, type)}."""

    def __init__(self, wb, z: zipfile.ZipFile, data: bytes, deadline: float):
        self.wb = wb
        self.data = data
        self.zip = z
        self.deadline = deadline
        self.problems: list[Said] = []
        self.grouped: dict[tuple[str, str], list[str]] = {}
        self.flagged: set[tuple[str, str]] = set()
        self.sheets = {name.strip().casefold(): name for name in wb.sheetnames}
        self.areas: dict[str, dict] = {}
        self.merges: dict[str, list[tuple[int, int, int, int, str]]] = {}

    def problem(self, said: Said) -> None:
        self.problems.append(said)
        if len(self.problems) >= MAX_PROBLEMS:
            self.problems.append(Said(Message("archon.too-many", "… more than %(max)s problems: fix these first.",
                                              max=MAX_PROBLEMS)))
            raise _Stop()

    def cell_problem(self, kind: str, sheet: str, ref: str, detail: str = "") -> None:
        """A cell with a problem shared by many cells: listed once on its kind's line (and
        no other problem is told about that cell)."""
        self.flagged.add((sheet, ref))
        cells = self.grouped.setdefault((kind, sheet), [])
        shown = f"{ref} ({detail})" if detail else ref
        if shown not in cells:
            cells.append(shown)

    def all_problems(self) -> list[Said]:
        out = []
        for (kind, sheet), cells in self.grouped.items():
            shown: Message | str = f"{sheet}!" + ", ".join(cells[:20])
            if len(cells) > 20:
                shown = Message("archon.and-more", "%(cells)s and %(more)s more", cells=shown, more=len(cells) - 20)
            out.append(Said(_kind_line(kind, len(cells) > 1, shown)))
        return out + self.problems

    def tick(self) -> None:
        if time.monotonic() > self.deadline:
            self.problems = [Said(Message("archon.too-slow", "The workbook takes too long to read (more than "
                                          "%(max)s s): an Archon workbook reads in well under a second. Remove what "
                                          "is not Archon's and save again.", max=f"{MAX_SECONDS:g}"))]
            self.grouped = {}
            raise _Stop()

    def real(self, name: str) -> str | None:
        return self.sheets.get(name.casefold())

    def has(self, name: str) -> bool:
        return self.real(name) is not None

    def area(self, name: str) -> dict:
        """The sheet's used area, read once: its cells, and the merged ranges over it."""
        real = self.real(name)
        if real in self.areas:
            return self.areas[real]
        first, last, cols = ROUND_AREA if name.startswith("Round ") else AREAS[name]
        ws = self.wb[real]
        part = getattr(ws, "_worksheet_path", None)
        try:
            size = self.zip.getinfo(part).file_size if part else 0
        except KeyError:
            size = 0
        if size > MAX_SHEET:
            self.problems = [_too_big_sheet(real, size)]
            self.grouped = {}
            raise _Stop()
        cells: dict[tuple[int, int], tuple[Any, str]] = {}
        for k, row in enumerate(ws.iter_rows(min_row=first, max_row=last, max_col=cols)):
            if k % 64 == 0:
                self.tick()
            for c in row:
                if c.value is not None or c.data_type == "str":
                    cells[(c.row, c.column)] = (c.value, c.data_type)
        self.areas[real] = cells
        self.merges[real] = self._merged(part, first, last, cols) if part else []
        return cells

    def _merged(self, part: str, first: int, last: int, cols: int) -> list[tuple[int, int, int, int, str]]:
        """Merged ranges over the area: the sheet's <mergeCell> elements, found by streaming
        its XML (read-only mode does not keep them)."""
        found, tail = [], b""
        with self.zip.open(part) as f:
            while True:
                chunk = f.read(1 << 20)
                if not chunk:
                    break
                self.tick()
                text = tail + chunk
                for m in re.finditer(rb'<mergeCell\s+ref="([A-Z]{1,3})(\d+):([A-Z]{1,3})(\d+)"', text):
                    c1, r1, c2, r2 = _col(m[1].decode()), int(m[2]), _col(m[3].decode()), int(m[4])
                    if c1 <= cols and r1 <= last and r2 >= first:
                        found.append((c1, r1, c2, r2, m[0].split(b'"')[1].decode()))
                tail = text[-200:]
        return list(dict.fromkeys(found))

    def check_merged(self, name: str, area: tuple[int, int, int, int]) -> None:
        """A merged range over the cells read (min_col, min_row, max_col, max_row)."""
        self.area(name)
        c1, r1, c2, r2 = area
        for mc1, mr1, mc2, mr2, coord in self.merges[self.real(name)]:
            if mc1 <= c2 and mc2 >= c1 and mr1 <= r2 and mr2 >= r1:
                self.cell_problem("merged", self.real(name), coord)

    def cell(self, name: str, ref: str) -> Any:
        """The saved value of a cell, or None (with a problem when it cannot be used). A
        formula's saved empty string is an empty cell."""
        cells = self.area(name)
        value, kind = cells.get(_split(ref), (None, "n"))
        if kind == "e" or (isinstance(value, str) and value.strip().upper() in ERRORS):
            self.cell_problem("error", self.real(name), ref, str(value).strip()[:20])
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
        if isinstance(value, datetime):
            value = value.date().isoformat() if value.time() == datetime.min.time() else value.isoformat(" ")
        text = squeeze(str(value))
        if len(text) > limit:
            self.problem(Said(Message("archon.cell-too-long", "%(where)s is %(length)s characters long (at most "
                                      "%(max)s)", where=f"{name}!{ref}", length=len(text), max=limit)))
            return text[:limit]
        return text

    def unsaved(self, name: str, refs: list[str]) -> list[str]:
        """Which of `refs` (empty when read) hold a formula: a file written by a program that
        does not compute formulas. Read again in formula mode, only when something needed
        came out empty."""
        import openpyxl
        cells = self.area(name)
        # a formula whose saved value is the empty string (t="str", empty <v>) was saved
        wanted = {_split(r): r for r in refs if cells.get(_split(r), (None, "n"))[1] != "str"}
        if not wanted:
            return []
        rows = [r for r, _ in wanted]
        wb = openpyxl.load_workbook(io.BytesIO(self.data), read_only=True, data_only=False)
        try:
            ws = wb[self.real(name)]
            out = []
            first = min(rows)
            for k, row in enumerate(ws.iter_rows(min_row=first, max_row=max(rows), max_col=max(c for _, c in wanted))):
                self.tick()
                for col, c in enumerate(row, 1):
                    if (first + k, col) in wanted and c.data_type == "f":
                        out.append(wanted[(first + k, col)])
            return out
        finally:
            wb.close()


def _refuse_file(data: bytes) -> Said | None:
    if not data or not data.strip():
        return Said(Message("archon.file-empty", "The file is empty."))
    if len(data) > MAX_BYTES:
        return Said(Message("archon.file-too-big", "The file is %(size)s MB: an Archon workbook is at most %(max)s MB.",
                            size=f"{len(data) / 1e6:.1f}", max=MAX_BYTES // 2**20))
    if data.startswith(b"\xd0\xcf\x11\xe0"):
        return Said(Message("archon.file-xls", "This is an old Excel file (.xls): open it in Excel or LibreOffice and "
                            "save it as .xlsx first."))
    if data.startswith(b"%PDF"):
        return Said(Message("archon.file-pdf", "This is a PDF, not a workbook: export the Archon workbook as .xlsx."))
    if not data.startswith(b"PK\x03\x04"):
        head = data[:200]
        if all(32 <= b < 127 or b in (9, 10, 13) or b >= 0xc0 for b in head):
            return Said(Message("archon.file-text", "This is a text file (a CSV?), not a workbook: import players "
                                "from a CSV on the tournament's Players page, or choose the Archon .xlsx file."))
        return Said(Message("archon.file-not-zip", "This is not an .xlsx workbook (not a zip file): choose the Archon "
                            "workbook (.xlsx)."))
    return None


SKIPPED_PARTS = ("xl/worksheets/", "xl/comments", "xl/drawings/", "xl/printerSettings/", "xl/calcChain.xml",
                 "xl/media/", "xl/externalLinks/", "xl/pivot", "xl/charts/", "xl/ctrlProps/", "xl/tables/")


def _wanted(name: str) -> bool:
    key = name.strip().casefold()
    return key in {n.casefold() for n in (*REQUIRED, "Final Round", "Override")} or \
        re.fullmatch(r"round \d{1,2}", key) is not None


def _used_sheets_only(z: zipfile.ZipFile, names: set[str]) -> tuple[bytes | None, Said | None]:
    """The workbook with only the sheets read (an unused sheet is never unpacked: openpyxl
    would scan each sheet for its size when it opens the book), stored uncompressed; or why
    not: a sheet read that unpacks to more than `MAX_SHEET`."""
    import html
    book = z.read("xl/workbook.xml").decode("utf-8", "replace")
    rels = z.read("xl/_rels/workbook.xml.rels").decode("utf-8", "replace") \
        if "xl/_rels/workbook.xml.rels" in names else ""
    targets = {}
    for rel in re.findall(r"<Relationship\b[^>]*>", rels):
        rid, target = re.search(r'\bId="([^"]+)"', rel), re.search(r'\bTarget="([^"]+)"', rel)
        if rid and target:
            t = target[1]
            targets[rid[1]] = t.lstrip("/") if t.startswith("/") else "xl/" + t
    kept = []

    def keep(m: re.Match) -> str:
        tag = m[0]
        name = re.search(r'\bname="([^"]*)"', tag)
        rid = re.search(r'\br:id="([^"]+)"', tag) or re.search(r'\bid="([^"]+)"', tag)
        if name and rid and _wanted(html.unescape(name[1])):
            kept.append((html.unescape(name[1]), targets.get(rid[1], "")))
            return tag
        return ""

    book = re.sub(r"<sheet\b[^>]*/>", keep, book)
    book = re.sub(r"<definedNames>.*?</definedNames>|<definedNames/>", "", book, flags=re.S)
    for name, part in kept:
        if part in names and z.getinfo(part).file_size > MAX_SHEET:
            size = z.getinfo(part).file_size
            return None, _too_big_sheet(name, size)
    parts = {part for _, part in kept}
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as dst:
        for info in z.infolist():
            n = info.filename
            if n == "xl/workbook.xml":
                dst.writestr(n, book)
            elif n in parts or not n.startswith(SKIPPED_PARTS):
                dst.writestr(n, z.read(n))
    return out.getvalue(), None


def _open(data: bytes):
    """(read-only workbook, zip) or a problem. The zip's directory is checked first."""
    import openpyxl  # imported here: only the workbook pages need it

    refusal = _refuse_file(data)
    if refusal:
        return None, refusal
    try:
        z = zipfile.ZipFile(io.BytesIO(data))
        infos = z.infolist()
        if len(infos) > MAX_PARTS or sum(i.file_size for i in infos) > MAX_UNPACKED:
            return None, Said(Message("archon.unpacks-too-much", "The workbook unpacks to too much data to be an "
                                      "Archon workbook."))
        names = {i.filename for i in infos}
        if "xl/workbook.xml" not in names:
            if "content.xml" in names:
                return None, Said(Message("archon.file-ods", "This is an OpenDocument spreadsheet (.ods): save it "
                                          "as .xlsx first."))
            return None, Said(Message("archon.zip-not-xlsx", "This zip file is not an .xlsx workbook: choose the "
                                      "Archon workbook (.xlsx)."))
        types = z.read("[Content_Types].xml") if "[Content_Types].xml" in names else b""
        if "xl/vbaProject.bin" in names or any(t in types for t in MACRO_TYPES):
            return None, Said(Message("archon.file-xlsm", "This is a macro-enabled workbook (.xlsm): judgekit does "
                                      "not open macros. Save it as an Excel workbook (.xlsx) and import that."))
        if "xl/sharedStrings.xml" in names and z.getinfo("xl/sharedStrings.xml").file_size > MAX_SHARED:
            return None, Said(Message("archon.strings-too-much", "The workbook's text table unpacks to too much "
                                      "data to be an Archon workbook."))
        reduced, refusal = _used_sheets_only(z, names)
        if refusal:
            return None, refusal
        wb = openpyxl.load_workbook(io.BytesIO(reduced), read_only=True, data_only=True)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError):
        return None, Said(Message("archon.damaged", "The workbook is damaged (not a complete .xlsx file): save it "
                                  "again and retry."))
    except Exception as exc:  # openpyxl raises many kinds on malformed parts; all mean the same here
        return None, _unreadable(exc)
    return (wb, z), None


def read_workbook(data: bytes) -> tuple[ArchonEvent | None, list[Said]]:
    """The event in an Archon workbook, or None and the problems (each naming its cells; a
    `Said`: English text with its `archon.*` catalog id)."""
    deadline = time.monotonic() + MAX_SECONDS
    opened, problem = _open(data)
    if problem:
        return None, [problem]
    wb, z = opened
    try:
        r = _Reader(wb, z, data, deadline)
        missing = [name for name in REQUIRED if not r.has(name)]
        if missing:
            found = ", ".join(wb.sheetnames[:12])
            return None, [Said(Message("archon.missing-sheets", "The workbook has no sheet named %(missing)s (its "
                                       "sheets: %(found)s): is it an Archon v1.5 workbook?",
                                       missing=", ".join(repr(m) for m in missing), found=found))]
        try:
            event = _read(r)
        except _Stop:
            return None, r.all_problems()
        except Exception as exc:  # a malformed part met while streaming
            return None, [_unreadable(exc)]
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


def _read(r: _Reader) -> ArchonEvent:
    info = "Tournament Info"
    r.check_merged(info, (2, 3, 2, 28))
    name = r.text(info, "B3")
    if not name:
        r.problem(_at("Tournament Info!B3", Message("archon.no-event-name", "no event name")))
    day = r.cell(info, "B4")
    if isinstance(day, datetime):
        day = day.date()
    elif isinstance(day, str):
        parsed = parse_date(day)
        if parsed is None:
            r.problem(_at("Tournament Info!B4", Message("archon.not-a-date", "%(value)s is not a date (type it as "
                                                        "Archon does, 17-MAY-25)", value=repr(day[:30]))))
        day = parsed
    elif day is not None and not isinstance(day, date):
        r.problem(_at("Tournament Info!B4", Message("archon.not-a-date", "%(value)s is not a date (type it as "
                                                    "Archon does, 17-MAY-25)", value=repr(str(day)[:30]))))
        day = None
    judges = [r.text(info, f"B{row}", 80) for row in range(18, 27)]
    event = ArchonEvent(name=name[:200], date=day, organizer=r.text(info, "B6", 80), city=r.text(info, "B7", 80),
                        head_judge=r.text(info, "B17", 80), assistant_judges=", ".join(j for j in judges if j)[:300])
    fmt = r.text(info, "B8", 40)
    if fmt:
        match = next((f for f in levels_mod.FORMATS if f.casefold() == fmt.casefold()), None)
        if match is None:
            r.problem(_at("Tournament Info!B8", Message("archon.unknown-format", "unknown format %(value)s "
                                                        "(Constructed or Limited)", value=repr(fmt))))
        event.format = match or "Constructed"
    level = r.text(info, "B9", 60)
    if level:
        found = levels_mod.find(level)
        if found is None:
            r.problem(_at("Tournament Info!B9", Message("archon.unknown-level", "unknown event level %(value)s: "
                                                        "one of %(levels)s", value=repr(level),
                                                        levels=levels_mod.names_list())))
        else:
            event.level = found.name
    vekn_id = r.cell(info, "B28")
    if vekn_id is not None:
        n = parse_int(vekn_id, 1, 10**9)
        if n is None:
            r.problem(_at("Tournament Info!B28", Message("archon.bad-event-id", "the VEKN event id must be a whole "
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


def _name_cells(r: _Reader, sheet: str, row: int) -> tuple[str, str]:
    return r.text(sheet, f"B{row}", 80), r.text(sheet, f"C{row}", 80)


def _read_players(r: _Reader) -> list[ArchonPlayer]:
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
                r.problem(_at(f"Methuselahs!B{row}", Message("archon.vekn-no-name", "a VEKN number (%(vekn)s) but "
                                                             "no name", vekn=raw_vekn)))
            continue
        number = parse_int(r.cell(sheet, f"A{row}"), 1, 100_000)
        if number is None:
            r.problem(_at(f"Methuselahs!A{row}", Message("archon.no-number", "%(name)s has no player number (a "
                                                         "whole number)", name=f"{first} {last_name}")))
            continue
        if number in by_number:
            r.problem(_at(f"Methuselahs!A{row}", Message("archon.number-twice", "player number %(number)s is also "
                                                         "on row %(row)s", number=number, row=by_number[number])))
            continue
        by_number[number] = row
        vekn, bad = parse_vekn(raw_vekn)
        if bad:
            r.problem(_at(f"Methuselahs!E{row}", bad))
        if vekn and vekn in by_vekn:
            r.problem(_at(f"Methuselahs!E{row}", Message("archon.vekn-twice", "VEKN number %(vekn)s is also on "
                                                         "row %(row)s", vekn=vekn, row=by_vekn[vekn])))
        elif vekn:
            by_vekn[vekn] = row
        if len(squeeze(f"{first} {last_name}")) > 80:
            r.problem(_at(f"Methuselahs!B{row}", Message("archon.name-too-long", "the name is longer than 80 "
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
            r.problem(_at("Methuselahs", Message("archon.no-players", "no player from row 7 down (A number, B first "
                                                 "name, C last name, E VEKN number)")))
    return out


def _vp(r: _Reader, sheet: str, ref: str) -> tuple[Any, bool]:
    """(raw VP for the table check, given?)."""
    raw = r.cell(sheet, ref)
    if raw is None:
        return None, (r.real(sheet), ref) in r.flagged   # a cell already told about counts as given
    if isinstance(raw, bool) or not isinstance(raw, (int, float, str)) or (
            isinstance(raw, str) and parse_vp(raw) is None):
        r.problem(_at(f"{sheet}!{ref}", Message("archon.not-a-vp", "%(value)s is not a VP (a number such as 1, 1.5 "
                                                "or 0)", value=repr(str(raw)[:30]))))
        r.flagged.add((r.real(sheet), ref))
        return None, True
    return raw, True


def _read_round(r: _Reader, sheet: str, numbers: set[int], required: bool) -> list[list[ArchonSeat]]:
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
            r.problem(_at(f"{sheet}!A{row}", problem))
            refused.add(table_of(row))
            continue
        seen[number] = row
        table_raw = r.cell(sheet, f"D{row}")
        table = parse_int(table_raw, 1, 1000) if table_raw is not None else (row - FIRST_ROW) // TABLE_ROWS + 1
        if table is None:
            r.problem(_at(f"{sheet}!D{row}", Message("archon.not-a-table", "%(value)s is not a table number",
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
            r.problem(_at(f"{sheet}!{', '.join(orphans[:10])}", Message("archon.vp-no-player", "VP in column E "
                                                                        "but no player number in column A")))
        if not tables and not unsaved and not orphans:
            r.problem(_at(sheet, Message("archon.no-seats", "no player seated from row 7 down (A player number, D "
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


def _table_seats(r: _Reader, sheet: str, col: str, seats: list[tuple], final: bool) -> list[ArchonSeat]:
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
            r.problem(_at(f"{sheet}!{empty[0]}", Message("archon.no-vp-final", "no VP, while the final's other seats "
                                                         "have theirs") if final else
                          Message("archon.no-vp", "no VP, while the table's other seats have theirs")))
    elif all(given) and all(s[2] is not None for s in seats):
        for e in seat_errors([s[2] for s in seats]):
            if e.seat:
                r.problem(_at(f"{sheet}!{col}{seats[e.seat - 1][0]}", e.message))
    return [ArchonSeat(number=n, vp=parse_vp(v) if g else None) for _, n, v, g in seats]


def _read_final(r: _Reader, event: ArchonEvent, numbers: set[int]) -> None:
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
            r.problem(_at(f"{sheet}!A{row}", Message("archon.not-a-listed-number", "%(value)s is not a player number "
                                                     "of the Methuselahs list", value=repr(str(raw)[:30]))))
        elif number in event.finalists:
            r.problem(_at(f"{sheet}!A{row}", Message("archon.qualifier-twice", "player %(number)s is listed twice "
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
            r.problem(_at(f"{sheet}!A{row}", Message("archon.not-a-qualifier", "%(value)s is not one of the "
                                                     "qualifiers (rows 6–10)", value=repr(str(raw)[:30]))))
            continue
        if any(s[1] == number for s in seats):
            r.problem(_at(f"{sheet}!A{row}", Message("archon.final-seated-twice", "player %(number)s is seated "
                                                     "twice at the final", number=number)))
            continue
        vp, given = _vp(r, sheet, f"F{row}")
        seats.append((row, number, vp, given))
    if seats:
        if len(seats) != len(event.finalists):
            r.problem(_at(sheet, Message("archon.final-seats", "%(seats)s players seated at the final (rows 14–18) "
                                         "for %(qualifiers)s qualifiers (rows 6–10)", seats=len(seats),
                                         qualifiers=len(event.finalists))))
        event.final = _table_seats(r, sheet, "F", seats, final=True)
    if event.finalists and len(event.finalists) not in (4, 5):
        r.problem(_at(sheet, Message("archon.final-size", "%(count)s qualifiers in rows 6–10 — a final has 4 or 5",
                                     count=len(event.finalists))))


SA_START = ("standings adjustment", "sa:", "sa ", "sa-", "game loss")


def is_adjustment(text: str) -> bool:
    """Whether an Override row's explanation is a Standings Adjustment (v1: a Game Loss)."""
    return text.casefold().startswith(SA_START)


def _read_overrides(r: _Reader, event: ArchonEvent, numbers: set[int]) -> None:
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
            r.problem(_at(f"{sheet}!B{row}", Message("archon.not-a-table", "%(value)s is not a table number",
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
            r.problem(_at(f"{sheet}!E{row}", Message("archon.sa-no-player", "a Standings Adjustment in round "
                                                     "%(round)s, table %(table)s names no player of the Methuselahs "
                                                     "list (put the player's number in column E)", round=rnd,
                                                     table=table)))
            continue
        raw = r.cell(sheet, f"F{row}")
        vp = -1.0 if raw is None else parse_vp(abs(raw)) if isinstance(raw, (int, float)) else None
        if raw is not None and (vp is None or not raw < 0):
            r.problem(_at(f"{sheet}!F{row}", Message("archon.sa-vp", "the VP change of a Standings Adjustment is a "
                                                     "negative number (-1), not %(value)s", value=repr(str(raw)[:30]))))
            continue
        event.adjustments.append(Adjustment(round=rnd, table=table, number=number,
                                            vp=-vp if raw is not None else -1.0, text=text))
