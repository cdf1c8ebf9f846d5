"""The Archon workbook as a file: what refuses it before a sheet is read, and the reader of
its cells. Pure.

`open_workbook(data)` gives the read-only workbook (and its zip) or the one problem that
refuses the file: it must be an .xlsx workbook (not a CSV, an old .xls, a macro-enabled
.xlsm, an .ods, a PDF, an empty or damaged file; at most `MAX_BYTES`, its parts at most
`MAX_UNPACKED` once unpacked, each sheet read at most `MAX_SHEET`). `Reader` reads the
cells of the sheets' used areas and gathers the problems (`at`: a problem at a sheet's
cells; `Stop`: raised when the reading stops). Three kinds of cell problem (`KINDS`) are
told on one line per kind and sheet, with the cells it concerns listed once ("Round 1!A7,
A8, A12 hold a formula whose value was not saved …"): a merged range over cells that are
read, a formula whose value was not saved (a file written by a program that does not
compute formulas: open it in Excel or LibreOffice and save it again), an error value
(#N/A, #REF!).

The cost is bounded whatever the file (issue 28.1): only the sheets used are read, each
once, streamed by openpyxl's read-only mode and only over the rows and columns the layout
uses (`AREAS`); the zip's directory is checked before anything is unpacked; reading stops
with a clear refusal after `MAX_SECONDS` of work. An unused sheet of a million cells is never
unpacked.

What a real v1.5 file computes with formulas is read from the values saved with it (a file
saved by Excel or LibreOffice keeps each formula's last value; a formula whose saved value
is the empty string — `t="str"` with an empty `<v>`, the blank fifth seat of a 4-player
table — is an empty cell, not a missing value).
"""
from __future__ import annotations

import io
import re
import time
import zipfile
from datetime import datetime
from typing import Any

from judgekit.i18n import Message, Said
from judgekit.tournament.archon import FINAL_SEATS_ROW, FINALISTS_ROW, FIRST_ROW, OVERRIDE_ROW, TABLE_ROWS
from judgekit.tournament.players import squeeze

MAX_BYTES = 5 * 1024 * 1024          # an uploaded workbook
MAX_UNPACKED = 80 * 1024 * 1024      # its parts once unpacked (a zip bomb is refused)
MAX_SHEET = 4 * 1024 * 1024          # one sheet that is read, unpacked (a real 300-player round: ~1.2 MB)
MAX_SHARED = 8 * 1024 * 1024         # the shared strings, unpacked
MAX_PARTS = 3000
MAX_PLAYERS = 1000                   # the v1.5 sheets hold 300
MAX_ROUNDS = 20
MAX_OVERRIDES = 500
MAX_SECONDS = 2.5                    # reading stops after this much work (issue 28.1: answered in ≤ 3 s)
#: The clock of that limit: the reading thread's CPU time, not the wall's. What bounds the cost is
#: the work a file asks for; a laptop busy with other requests (or a test run sharing its
#: cores) must not refuse a real workbook that reads in well under a second of work.
work_seconds = time.thread_time
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


def at(where: str, problem: Message | Said | str) -> Said:
    """A problem at a sheet's cells ("Round 2!E14: …")."""
    return Said(Message("archon.at", "%(where)s: %(problem)s", where=where, problem=problem))


def _too_big_sheet(name: str, size: int) -> Said:
    return Said(Message("archon.sheet-too-big", "The sheet %(name)s unpacks to %(size)s MB: an Archon sheet is at "
                        "most %(max)s MB (a real 300-player round is under 2 MB). Remove the rows and cells that "
                        "are not Archon's and save again.", name=repr(name), size=f"{size / 2**20:.1f}",
                        max=MAX_SHEET // 2**20))


def unreadable(exc: Exception) -> Said:
    return Said(Message("archon.unreadable", "The workbook cannot be read (%(error)s): open it in Excel or "
                        "LibreOffice, save it as .xlsx and retry.", error=type(exc).__name__))


class Stop(Exception):
    """Too many problems, or one that stops the reading (the file itself)."""


def _col(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n


def _split(ref: str) -> tuple[int, int]:
    m = re.fullmatch(r"([A-Z]{1,3})(\d+)", ref)
    return int(m.group(2)), _col(m.group(1))


class Reader:
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
            raise Stop()

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
        if work_seconds() > self.deadline:
            self.problems = [Said(Message("archon.too-slow", "The workbook takes too long to read (more than "
                                          "%(max)s s): an Archon workbook reads in well under a second. Remove what "
                                          "is not Archon's and save again.", max=f"{MAX_SECONDS:g}"))]
            self.grouped = {}
            raise Stop()

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
            raise Stop()
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


def open_workbook(data: bytes):
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
        return None, unreadable(exc)
    return (wb, z), None

