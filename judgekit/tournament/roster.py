"""Reading a list of players pasted or uploaded for bulk registration (pure, no I/O).

Accepted: one player per line, cells separated by `;`, `,` or a tab (the first of tab, `;`,
`,` found in the first lines wins; quotes work as in any CSV), UTF-8 with or without a
byte-order mark (a UTF-16 file with its mark, as Excel's "Unicode text", is read too).

Columns, with a header line: named by it (`HEADER_WORDS`: name, first name, last name,
VEKN, city, country in English and a few other languages; other columns are ignored and
said so). Without a header: the name (one cell, split on its first space) or first name
and last name (two cells), then the VEKN number, city, country; the VEKN number's column is
found from the cells that look like numbers. Lines with one cell are names only.

`parse_roster` never raises: every problem is a message naming its line (`RosterRow.problems`:
the row cannot be registered; `notes`: registered, but worth a look) or the file
(`Roster.problems`). Each is a `judgekit.i18n.Said`: its English text, with its catalog id
(`roster.*`) and parameters for the pages to word it in the reader's language. Registration is all or nothing: `Roster.ok` only when no row has a
problem.
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import Iterable

from judgekit.i18n import N_, Message, Said
from judgekit.tournament.players import fold, parse_vekn, split_name, squeeze

MAX_ROWS = 2000
FORMULA_START = ("=", "+", "-", "@")

HEADER_WORDS: dict[str, tuple[str, ...]] = {
    "name": ("name", "fullname", "player", "playername", "nom", "nombre", "joueur", "jugador", "spieler",
             "naam", "nomecompleto"),
    "first_name": ("first", "firstname", "givenname", "forename", "prenom", "vorname", "voornaam",
                   "nombredepila", "primeironome"),
    "last_name": ("last", "lastname", "surname", "familyname", "nomdefamille", "apellido", "apellidos",
                  "nachname", "achternaam", "cognome", "sobrenome"),
    "vekn": ("vekn", "veknnumber", "veknno", "veknid", "veknnum", "number", "no", "id", "membernumber",
             "member", "numero", "nummer"),
    "city": ("city", "town", "ville", "ciudad", "stadt", "citta", "cidade", "stad", "miasto"),
    "country": ("country", "pays", "pais", "land", "nation", "paese", "countrycode", "kraj"),
}
_HEADER_LOOKUP = {word: column for column, words in HEADER_WORDS.items() for word in words}
COLUMN_LABELS = {"name": N_("name"), "first_name": N_("first name"), "last_name": N_("last name"),
                 "vekn": N_("VEKN number"), "city": N_("city"), "country": N_("country")}


def _label(col: str) -> Message:
    """A column's label as a message parameter (a catalog id: the English label)."""
    return Message(COLUMN_LABELS[col])


def _and(items: list) -> Message | Said | str:
    """`items` joined as "a and b and c", each join a message of its own."""
    if len(items) == 1:
        return items[0]
    return Message("roster.and", "%(first)s and %(rest)s", first=items[0], rest=_and(items[1:]))


@dataclass
class RosterRow:
    line: int                       # line of the text (1 = the first line)
    name: str = ""
    first_name: str = ""
    last_name: str = ""
    vekn: str | None = None
    city: str | None = None
    country: str | None = None
    problems: list[Said] = field(default_factory=list)
    notes: list[Said] = field(default_factory=list)
    namesakes: list[Said] = field(default_factory=list)  # another player of the same name (flagged)

    def player(self) -> dict:
        """The row as `store.add_player` takes it."""
        return {"first_name": self.first_name, "last_name": self.last_name, "vekn": self.vekn,
                "city": self.city, "country": self.country}


@dataclass
class Roster:
    rows: list[RosterRow] = field(default_factory=list)
    problems: list[Said] = field(default_factory=list)
    notes: list[Said] = field(default_factory=list)    # about the whole file (columns not read)
    columns: list[str] = field(default_factory=list)   # what each column is read as ("" = ignored)
    header: bool = False
    delimiter: str = ","
    text: str = ""                                     # the decoded text (for the form to keep)

    @property
    def bad_rows(self) -> list[RosterRow]:
        return [r for r in self.rows if r.problems]

    @property
    def ok(self) -> bool:
        return bool(self.rows) and not self.problems and not self.bad_rows

    def summary(self) -> Said:
        if self.problems:
            return self.problems[0]
        bad, rows = len(self.bad_rows), len(self.rows)
        if bad == 1 and rows == 1:
            return Said(Message("roster.summary-bad-one-of-one", "1 of 1 row has a problem: fix it and try "
                                "again. Nothing was registered."))
        if bad == 1:
            return Said(Message("roster.summary-bad-one", "1 of %(rows)s rows has a problem: fix it and try "
                                "again. Nothing was registered.", rows=rows))
        if bad:
            return Said(Message("roster.summary-bad", "%(bad)s of %(rows)s rows have a problem: fix them and "
                                "try again. Nothing was registered.", bad=bad, rows=rows))
        same = sum(1 for r in self.rows if r.namesakes)
        if same:
            return Said(Message("roster.summary-namesakes", "%(rows)s players ready to register; %(same)s share "
                                "a name with another player (flagged below: check they are different people).",
                                rows=rows, same=same))
        return Said(Message("roster.summary-ready", "%(rows)s players ready to register.", rows=rows))


def _nothing() -> Said:
    return Said(Message("roster.nothing", "There is nothing to register: paste one player per line, or upload "
                        "a CSV file."))


def decode(data: bytes) -> tuple[str | None, Said | None]:
    """(text, problem) of an uploaded file's bytes."""
    if not data or not data.strip(b" \t\r\n\x00\xef\xbb\xbf\xff\xfe"):
        return None, Said(Message("roster.file-empty", "The file is empty."))
    if data.startswith(b"PK\x03\x04"):
        return None, Said(Message("roster.file-zip", "This is a spreadsheet or a zip file (.xlsx, .ods), not a "
                                  "CSV: save it as \"CSV UTF-8\" first, or import an Archon workbook from the "
                                  "VEKN report page."))
    if data.startswith(b"%PDF"):
        return None, Said(Message("roster.file-pdf", "This is a PDF, not a list of players: upload a CSV file (UTF-8)."))
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), None
        except UnicodeDecodeError:
            return None, Said(Message("roster.file-not-utf16", "The file says it is UTF-16 text but is not: save "
                                      "it as \"CSV UTF-8\"."))
    if data.startswith(b"\xd0\xcf\x11\xe0"):
        return None, Said(Message("roster.file-xls", "This is an old Excel file (.xls), not a CSV: save it as "
                                  "\"CSV UTF-8\" first."))
    if data.startswith((b"\x89PNG", b"\xff\xd8\xff", b"GIF8")) or b"\x00" in data[:4096]:
        return None, Said(Message("roster.file-binary", "This is not a text file (an image or another binary "
                                  "file): upload a CSV file (UTF-8)."))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        return None, Said(Message("roster.file-not-utf8", "Line %(line)s is not UTF-8 text: save the file as "
                                  "\"CSV UTF-8\" (Excel: Save as › CSV UTF-8; LibreOffice: character set "
                                  "Unicode (UTF-8)).", line=line))
    if "\x00" in text:
        line = text[:text.index("\x00")].count("\n") + 1
        return None, Said(Message("roster.file-nul", "Line %(line)s holds a NUL character: this is not a text "
                                  "file. Upload a CSV file (UTF-8).", line=line))
    return text, None


def _delimiter(lines: Iterable[str]) -> str:
    sample = [ln for ln in lines if ln.strip()][:20]
    for candidate in ("\t", ";", ","):
        if any(candidate in ln for ln in sample):
            return candidate
    return ","


def _header_column(cell: str) -> str | None:
    key = "".join(ch for ch in fold(cell) if ch.isalnum())
    if cell.strip() == "#":
        return "vekn"
    return _HEADER_LOOKUP.get(key)


def _looks_like_number(cell: str) -> bool:
    number, problem = parse_vekn(cell)
    return number is not None and problem is None


def parse_roster(data: bytes | str, *, existing: dict[str, str] | None = None, max_name: int = 80,
                 max_place: int = 80, max_rows: int = MAX_ROWS,
                 registered: Iterable[dict] = ()) -> Roster:
    """Read a pasted or uploaded list of players. `existing`: VEKN number -> name of the
    players registered already (a number taken there is a row's problem); `registered`:
    those players (`name`, `city`, `country`), for the names the list repeats."""
    if isinstance(data, bytes):
        text, problem = decode(data)
        if problem:
            return Roster(problems=[problem])
    else:
        text = data[1:] if data.startswith("\ufeff") else data
    assert text is not None
    roster = Roster(text=text)
    if not text.strip():
        roster.problems.append(_nothing())
        return roster
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    roster.delimiter = _delimiter(text.split("\n"))
    records: list[tuple[int, list[str]]] = []
    reader = csv.reader(io.StringIO(text), delimiter=roster.delimiter, strict=True)
    try:
        start = 1
        for cells in reader:
            line, start = start, reader.line_num + 1
            cells = [squeeze(c) for c in cells]
            while cells and not cells[-1]:
                cells.pop()
            if not cells:
                continue
            records.append((line, cells))
            if len(records) > max_rows + 1:
                roster.problems.append(Said(Message("roster.too-many-lines", "More than %(max)s lines: register "
                                                    "the players in parts.", max=max_rows)))
                return roster
    except csv.Error as exc:
        roster.problems.append(Said(Message("roster.bad-csv", "Line %(line)s cannot be read as CSV (%(error)s): "
                                            "check its quotes.", line=reader.line_num, error=str(exc))))
        return roster
    if not records:
        roster.problems.append(_nothing())
        return roster

    layout, body = _layout(records, roster)
    if layout is None:
        return roster
    roster.columns = layout
    width = len(layout)
    seen: dict[str, RosterRow] = {}
    taken = existing or {}
    for line, cells in body:
        row = RosterRow(line=line)
        values = {col: cells[k] for k, col in enumerate(layout) if col and k < len(cells) and cells[k]}
        if not roster.header and len(cells) == 1:
            values = {"name": cells[0]}  # a line with one cell is a name, whatever the others hold
        if len(cells) > width and not roster.header:
            row.notes.append(Said(Message("roster.cells-not-read", "%(count)s cell(s) after the %(column)s are not "
                                          "read", count=len(cells) - width, column=_label(layout[-1]))))
        _fill_row(row, values, max_name, max_place)
        if row.vekn:
            if row.vekn in seen:
                first = seen[row.vekn]
                row.problems.append(Said(Message("roster.vekn-twice", "VEKN number %(vekn)s is also on line "
                                                 "%(line)s (%(name)s)", vekn=row.vekn, line=first.line,
                                                 name=first.name)))
                mine = Said(Message("roster.vekn-twice", "VEKN number %(vekn)s is also on line %(line)s (%(name)s)",
                                    vekn=row.vekn, line=row.line,
                                    name=row.name or Message("roster.no-name", "no name")))
                if mine not in first.problems:
                    first.problems.append(mine)
            else:
                seen[row.vekn] = row
            if row.vekn in taken:
                row.problems.append(Said(Message("roster.vekn-registered", "VEKN number %(vekn)s is already "
                                                 "registered here (%(name)s)", vekn=row.vekn, name=taken[row.vekn])))
        roster.rows.append(row)
    if not roster.rows:
        roster.problems.append(Said(Message("roster.header-only", "The file has a header line but no player "
                                            "under it.")))
    _flag_namesakes(roster.rows, list(registered))
    return roster


def _place(p) -> str:
    return ((p.get("city") if isinstance(p, dict) else p.city)
            or (p.get("country") if isinstance(p, dict) else p.country) or "")


def _flag_namesakes(rows: list[RosterRow], registered: list[dict]) -> None:
    """A name twice in the list, or already registered, is flagged on each row (not a
    problem: two people can share a name). The pages tell them apart as
    `players.told_apart` does: by city (or country), else by the order they registered in."""
    by_name: dict[str, list] = {}
    for p in registered:
        by_name.setdefault(fold(p.get("name") or ""), []).append(p)
    for row in rows:
        if row.name:
            by_name.setdefault(fold(row.name), []).append(row)
    for same in by_name.values():
        if len(same) < 2 or not any(isinstance(x, RosterRow) for x in same):
            continue
        places = [fold(_place(x)) for x in same]
        apart = all(places) and len(set(places)) == len(places)
        how = (Message("roster.namesake-apart", "the pages tell them apart by city or country (%(places)s)",
                       places=" / ".join(_place(x) for x in same))
               if apart else Message("roster.namesake-order", "give each a different city (or country) to tell "
                                     "them apart on the seat finder and the standings; otherwise they are told "
                                     "apart by the order they registered in"))
        for x in same:
            if not isinstance(x, RosterRow):
                continue
            lines = [Message("roster.line", "line %(line)s", line=y.line)
                     for y in same if isinstance(y, RosterRow) and y is not x]
            known = sum(1 for y in same if not isinstance(y, RosterRow))
            registered_too = ([Message("roster.registered-one", "1 player already registered")] if known == 1 else
                              [Message("roster.registered-many", "%(count)s players already registered", count=known)]
                              if known else [])
            x.namesakes.append(Said(Message("roster.namesake", "Same name as %(others)s (%(name)s): %(how)s.",
                                            others=_and(registered_too + lines), name=x.name, how=how)))


def _layout(records: list[tuple[int, list[str]]], roster: Roster) -> tuple[list[str] | None, list]:
    """What each column holds, and the records below any header line."""
    first_line, first_cells = records[0]
    named = [_header_column(c) for c in first_cells]
    if any(named) and not any(_looks_like_number(c) for c in first_cells):
        roster.header = True
        layout = [n or "" for n in named]
        seen: set[str] = set()
        for k, (col, cell) in enumerate(zip(layout, first_cells), 1):
            if col and col in seen:
                roster.problems.append(Said(Message("roster.header-twice", "Line %(line)s: the header names the "
                                                    "%(column)s twice (column %(k)s)", line=first_line,
                                                    column=_label(col), k=k)))
            seen.add(col)
            if not col and cell:
                roster.notes.append(Said(Message("roster.column-not-read", "Column %(k)s (%(cell)s) is not read.",
                                                 k=k, cell=cell)))
        if not ({"name", "first_name", "last_name"} & seen):
            roster.problems.append(Said(Message("roster.header-no-name", "Line %(line)s: the header has no name "
                                                "column (name, or first name and last name)", line=first_line)))
        if roster.problems:
            return None, []
        if "first_name" in seen and "name" in seen:
            # "Prénom;Nom", "Vorname;Name": beside a first name, a name column is the last name
            k = layout.index("name")
            if "last_name" in seen:
                layout[k] = ""
                roster.notes.append(Said(Message("roster.column-name-not-read", "Column %(k)s (%(cell)s) is not "
                                                 "read: first and last names are given.", k=k + 1,
                                                 cell=first_cells[k])))
            else:
                layout[k] = "last_name"
        return layout, records[1:]
    # no header: find the VEKN number's column from the cells that look like numbers
    widest = max(len(cells) for _, cells in records)
    counts = [sum(1 for _, cells in records if k < len(cells) and _looks_like_number(cells[k]))
              for k in range(widest)]
    if widest == 1:
        return ["name"], records
    if not any(counts):
        roster.problems.append(Said(Message(
            "roster.no-vekn-column", "No line has a VEKN number, so the columns cannot be told apart: add a "
            "header line, for example \"first name;last name;vekn;city;country\" (or paste one name per line).")))
        return None, []
    k = max(range(widest), key=lambda i: (counts[i], -i))
    if k not in (1, 2):
        roster.problems.append(Said(Message(
            "roster.vekn-column-late", "The VEKN numbers are in column %(k)s: without a header line, put the "
            "name first (one cell, or first name and last name), then the VEKN number, city and country — or "
            "add a header line.", k=k + 1)))
        return None, []
    names = ["name"] if k == 1 else ["first_name", "last_name"]
    return names + ["vekn", "city", "country"][: max(1, widest - k)], records


def _fill_row(row: RosterRow, values: dict[str, str], max_name: int, max_place: int) -> None:
    if "name" in values:
        row.name = values["name"]
        row.first_name, row.last_name = split_name(row.name)
    else:
        row.first_name = values.get("first_name", "")
        row.last_name = values.get("last_name", "")
        row.name = squeeze(f"{row.first_name} {row.last_name}")
    if not row.name:
        row.problems.append(Said(Message("roster.no-name", "no name")))
    elif len(row.name) > max_name:
        row.problems.append(Said(Message("roster.name-too-long", "the name is %(length)s characters long (at "
                                         "most %(max)s)", length=len(row.name), max=max_name)))
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in row.name):
        row.problems.append(Said(Message("roster.name-control", "the name holds a control character")))
    if row.name.startswith(FORMULA_START):
        row.notes.append(Said(Message("roster.name-formula", "the name starts with %(first)s: it is kept as "
                                      "typed, and the exports mark it as text so that spreadsheets do not read "
                                      "it as a formula", first=repr(row.name[0]))))
    number, problem = parse_vekn(values.get("vekn"))
    if problem:
        row.problems.append(problem)
    row.vekn = number
    if number is None and not problem:
        row.notes.append(Said(Message("roster.no-vekn", "no VEKN number: not rated")))
    elif number and number.startswith("P"):
        row.notes.append(Said(Message("roster.temporary-number", "temporary number %(number)s: replace it with "
                                      "the VEKN number before reporting", number=number)))
    for col in ("city", "country"):
        value = values.get(col) or None
        if value and len(value) > max_place:
            row.problems.append(Said(Message("roster.place-too-long", "the %(column)s is %(length)s characters "
                                             "long (at most %(max)s)", column=_label(col), length=len(value),
                                             max=max_place)))
        setattr(row, col, value)
