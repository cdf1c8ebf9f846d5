"""The VEKN's "The Archon" tournament workbook (v1.5 layout): the event as plain data
(`ArchonEvent`) and writing it as an .xlsx file (`write_workbook`). Reading one is
`archon_read.read_workbook`. Pure: bytes in or out, no Flask, no database.

The workbook is written with openpyxl, cell by cell, at the places Archon (and the importers
of the new Archon) read — never as hand-written XML. A real v1.5 file computes most cells
with formulas; a file written here holds plain values everywhere an importer reads, since
openpyxl saves no formula results (docs/tournament.md, "The Archon workbook"):

Every cell is where the real v1.5 file holds that datum (checked against the public blank
workbook, thearchon1.5l.xlsx: same sheet names, rows and columns); what judgekit adds sits in
cells the real file leaves empty:

- Tournament Info: B3 name, B4 date (DD-MON-YY), B5 report due (date + 8), B6 organizer,
  B7 city, B8 format, B9 level, B10 players, B11 rounds counting the final, B12 games
  played, B13 players with a temporary number, B14 warnings issued, B15 disqualifications,
  B16 multi-judge system, B17 head judge, B18 assistant judges (B19–B26 more of them in
  the real file); judgekit adds B28, the VEKN event id.
- Methuselahs, from row 7: A player number, B first name, C last name, D city, E VEKN
  number, F rounds played, G "DQ" for a player disqualified or dropped, H GW, I VP, J TP
  (preliminaries), M the toss (the place drawn in a tie-break, 1 = best); judgekit adds
  AD, the country.
- Standings, from row 6: A rank, C player number, D name, E prelim GW, F prelim VP, G final
  VP, H TP.
- Round N, from row 7, five rows per table (a 4-player table leaves its fifth row blank):
  A player number, B first name, C last name, D table, E VP as played, F VP, G GW, H TP;
  I2/I3 the round's start and end (labels in H2/H3).
- Final Round: rows 6–10 the qualifiers by place (A number, B, C names, D place); rows
  14–18 the final's seating, seat 1 first (A number, B, C names, D table 1, F VP as played,
  G VP, H GW, I TP, J the final rank: 1 the winner, 2 the others).
- Override, from row 6 (header rows 4–5): A round ("F" the final), B table, C the real
  file's ID (table × 5 + round), D explanation — one row per head judge's override and per
  Standings Adjustment; judgekit adds E, the player an SA concerns, F its VP change (-1),
  G the VP that count after it.
- VEKN Report, from row 7 (header rows 5–6): A player number, B VEKN number, C name, D
  games played, E games won, F total VP, G rank (the top five only).
"""
from __future__ import annotations

import io
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta


FIRST_ROW = 7          # the first player row of Methuselahs and of a round
TABLE_ROWS = 5         # rows per table in a round sheet
FINALISTS_ROW = 6      # Final Round: qualifiers by place, rows 6-10
FINAL_SEATS_ROW = 14   # Final Round: the final's seating, rows 14-18
OVERRIDE_ROW = 6       # Override: the first row of data (headers in rows 4-5)
REPORT_ROW = 7         # VEKN Report: the first row of data (headers in rows 5-6)
STANDINGS_ROW = 6      # Standings: the first row of data (header in row 5)
SHEETS_BEFORE = ("Instructions", "Tournament Info", "Methuselahs", "Standings")
SHEETS_AFTER = ("Final Round", "Override", "VEKN Report", "Notes")
COUNTRY_COL = "AD"     # Methuselahs: judgekit's country (the real file uses A-AB)
FORMULA_START = ("=", "+", "-", "@")


@dataclass
class ArchonPlayer:
    number: int
    first: str
    last: str
    city: str = ""
    vekn: str = ""
    country: str = ""
    rounds_played: int = 0
    dq: bool = False
    toss: int = 0


@dataclass
class ArchonSeat:
    number: int                 # the player's number (Methuselahs column A)
    vp: float | None            # VP as played (None: no result yet)
    gw: int | None = None       # as judgekit counts them (a Standings Adjustment applied)
    tp: float | None = None
    vp_counted: float | None = None   # the VP that count, when an SA changed them (Override!G)


@dataclass
class Adjustment:
    """A Standings Adjustment (Override sheet): `vp` (-1) to player `number` in a game."""
    round: str                  # "1", "2", … or "F"
    table: int
    number: int
    vp: float = -1.0
    text: str = ""
    vp_counted: float | None = None   # the player's VP in that game once it applies


@dataclass
class ArchonEvent:
    name: str
    date: date | str | None = None
    organizer: str = ""
    city: str = ""
    format: str = "Constructed"
    level: str = "Standard Constructed"     # Archon's name (Tournament Info!B9)
    head_judge: str = ""
    assistant_judges: str = ""
    vekn_event_id: str = ""
    players: list[ArchonPlayer] = field(default_factory=list)
    rounds: list[list[list[ArchonSeat]]] = field(default_factory=list)   # prelims: tables: seats
    round_times: list[tuple[str, str]] = field(default_factory=list)     # (start, end) per prelim
    finalists: list[int] = field(default_factory=list)                   # numbers, by place
    final: list[ArchonSeat] = field(default_factory=list)                # seat order
    final_ranks: dict[int, int] = field(default_factory=dict)            # number -> 1 or 2
    overrides: list[tuple[str, int, int | None, str]] = field(default_factory=list)
    adjustments: list[Adjustment] = field(default_factory=list)
    report: list[dict] = field(default_factory=list)   # VEKN Report rows
    warnings_issued: int = 0
    disqualifications: int = 0

    @property
    def rounds_total(self) -> int:
        """Tournament Info!B11: the rounds counting the final."""
        return len(self.rounds) + (1 if self.final else 0)

    def games(self) -> int:
        return sum(len(r) for r in self.rounds) + (1 if self.final else 0)


# openpyxl (and numpy under it, ~20 MB) is imported when a workbook is first written, not
# when the server starts.

def _font(**style):
    from openpyxl.styles import Font
    return Font(**style)


def _text(value) -> str:
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
    return ILLEGAL_CHARACTERS_RE.sub("", str(value)) if value is not None else ""


def _put(ws, ref: str, value) -> None:
    """A value at a cell; text is always stored as text (a name starting with "=" is not a
    formula: it is written as a string with Excel's quote prefix, so editing it keeps it
    text)."""
    cell = ws[ref]
    if isinstance(value, str):
        value = _text(value)
        cell.value = value
        cell.data_type = "s"
        if value.startswith(FORMULA_START):
            cell.quotePrefix = True
    else:
        cell.value = value


def _number_if_digits(value):
    """A VEKN number as Archon's sheets hold it: a number (a temporary "P…" stays text)."""
    text = str(value)
    return int(text) if text.isdigit() and len(text) < 16 else text


def _as_date(value) -> date | None:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value.strip()[:10])
        except ValueError:
            return None
    return None


def _header(ws, row: int, labels: dict[str, str]) -> None:
    for col, label in labels.items():
        _put(ws, f"{col}{row}", label)
        ws[f"{col}{row}"].font = _font(bold=True)


def write_workbook(event: ArchonEvent) -> bytes:
    """The event as an Archon v1.5 workbook (.xlsx bytes)."""
    from openpyxl import Workbook
    wb = Workbook()
    wb.active.title = "Instructions"
    ws = wb.active
    _put(ws, "A1", "The Archon (v1.5 layout), written by judgekit")
    _put(ws, "A3", "Sheets and cells as Archon reads them; every cell holds a value, not a formula.")
    _put(ws, "A4", "Round sheets: column E is the VP as played; F and G are the GW and TP judgekit counted, "
                   "column I the VP that count when a Standings Adjustment changed them (see Override).")
    _write_info(wb.create_sheet("Tournament Info"), event)
    _write_players(wb.create_sheet("Methuselahs"), event)
    _write_standings(wb.create_sheet("Standings"), event)
    for k, tables in enumerate(event.rounds, 1):
        times = event.round_times[k - 1] if k - 1 < len(event.round_times) else ("", "")
        _write_round(wb.create_sheet(f"Round {k}"), k, tables, times, event)
    _write_final(wb.create_sheet("Final Round"), event)
    _write_override(wb.create_sheet("Override"), event)
    ws = wb.create_sheet("VEKN Report")
    _put(ws, "A3", "V:EKN Report" if event.final_ranks else "V:EKN Report (incomplete)")
    _header(ws, REPORT_ROW - 2, {"A": "Player", "B": "V:EKN", "D": "Games", "E": "Games", "F": "Total"})
    _header(ws, REPORT_ROW - 1, {"A": "Num", "B": "Num", "C": "Name", "D": "Played", "E": "Won", "F": "VPs",
                                 "G": "Rank"})
    for row, r in enumerate(event.report, REPORT_ROW):
        for col, key in zip("ABCDEFG", ("number", "vekn", "name", "games", "won", "vp", "rank")):
            if r.get(key) not in (None, ""):
                _put(ws, f"{col}{row}", _number_if_digits(r[key]) if key == "vekn" else r[key])
    ws = wb.create_sheet("Notes")
    _put(ws, "A1", "Written by judgekit. Standings Adjustments and head judge's overrides are listed in Override.")
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def _write_info(ws, event: ArchonEvent) -> None:
    day = _as_date(event.date)
    rows = [
        (3, "Event Name", event.name),
        (4, "Event Date", day if day else (event.date or "")),
        (5, "Report Due", day + timedelta(days=8) if day else ""),
        (6, "Organizer", event.organizer),
        (7, "City", event.city),
        (8, "Format", event.format),
        (9, "Level", event.level),
        (10, "Number of Players", len([p for p in event.players if p.rounds_played])),
        (11, "Number of Rounds", event.rounds_total),
        (12, "Matches", event.games()),
        (13, "New Members", len([p for p in event.players if p.vekn.startswith("P")])),
        (14, "Warnings Issued", event.warnings_issued),
        (15, "Disqualifications", event.disqualifications),
        (16, "Multi-Judge System", "No"),
        (17, "Head Judge", event.head_judge),
        (18, "Assistant Judges", event.assistant_judges),
        (28, "VEKN Event ID", event.vekn_event_id),
    ]
    _put(ws, "A1", "Tournament Info")
    ws["A1"].font = _font(bold=True, size=14)
    for row, label, value in rows:
        _put(ws, f"A{row}", label)
        if value not in (None, ""):
            _put(ws, f"B{row}", value)
    for ref in ("B4", "B5"):
        if isinstance(ws[ref].value, (date, datetime)):
            ws[ref].number_format = "DD-MMM-YY"
    ws.column_dimensions["A"].width = 22
    ws.column_dimensions["B"].width = 40


def _write_players(ws, event: ArchonEvent) -> None:
    _put(ws, "A1", "Methuselahs")
    ws["A1"].font = _font(bold=True, size=14)
    _header(ws, FIRST_ROW - 1, {"A": "Num.", "B": "First Name", "C": "Last Name", "D": "City", "E": "Num.",
                                "F": "# rnds", "G": "Flag", "H": "GWs", "I": "VPs", "J": "TPs", "M": "Ranking",
                                COUNTRY_COL: "Country"})
    prelim = {r["number"]: r for r in event.report if r.get("number") is not None}
    for row, p in enumerate(event.players, FIRST_ROW):
        _put(ws, f"A{row}", p.number)
        _put(ws, f"B{row}", p.first)
        _put(ws, f"C{row}", p.last)
        _put(ws, f"D{row}", p.city)
        if p.vekn:
            _put(ws, f"E{row}", _number_if_digits(p.vekn))
        _put(ws, f"F{row}", p.rounds_played)
        if p.dq:
            _put(ws, f"G{row}", "DQ")
        r = prelim.get(p.number, {})
        for col, key in (("H", "prelim_gw"), ("I", "prelim_vp"), ("J", "prelim_tp")):
            if r.get(key) not in (None, ""):
                _put(ws, f"{col}{row}", r[key])
        if p.country:
            _put(ws, f"{COUNTRY_COL}{row}", p.country)
        if p.toss:
            _put(ws, f"M{row}", p.toss)
    for col, width in (("B", 18), ("C", 22), ("D", 16), ("E", 11), ("H", 14)):
        ws.column_dimensions[col].width = width


def _write_standings(ws, event: ArchonEvent) -> None:
    _put(ws, "A1", "Standings (see VEKN Report for the final ranking)")
    _put(ws, "A3", "Final Standings" if event.final_ranks else "Current Standings")
    ws["A1"].font = _font(bold=True, size=14)
    _header(ws, STANDINGS_ROW - 1, {"A": "Final Rank" if event.final_ranks else "Current Rank", "C": "#",
                                    "D": "Name", "E": "Prelim GWs", "F": "Prelim VPs", "G": "Final VPs", "H": "TPs"})
    for row, r in enumerate(event.report, STANDINGS_ROW):
        for col, key in zip("ACDEFGH", ("rank_all", "number", "name", "prelim_gw", "prelim_vp", "final_vp",
                                        "prelim_tp")):
            if r.get(key) not in (None, ""):
                _put(ws, f"{col}{row}", r[key])


def _names(event: ArchonEvent) -> dict[int, ArchonPlayer]:
    return {p.number: p for p in event.players}


def _put_player(ws, row: int, number: int, names: dict) -> None:
    """Columns A-C of a player's row: the Archon number, the first and the last name."""
    p = names.get(number)
    _put(ws, f"A{row}", number)
    _put(ws, f"B{row}", p.first if p else "")
    _put(ws, f"C{row}", p.last if p else "")


def _put_scores(ws, row: int, seat, cols: str) -> None:
    """A seat's VP as played, VP again (the real file's numeric copy), GW and TP where
    known, in the four columns `cols` ("EFGH" in a round, "FGHI" in the final)."""
    if seat.vp is not None:
        _put(ws, f"{cols[0]}{row}", float(seat.vp))
        _put(ws, f"{cols[1]}{row}", float(seat.vp))
    if seat.gw is not None:
        _put(ws, f"{cols[2]}{row}", seat.gw)
    if seat.tp is not None:
        _put(ws, f"{cols[3]}{row}", seat.tp)


def _write_round(ws, k: int, tables: list[list[ArchonSeat]], times: tuple[str, str], event: ArchonEvent) -> None:
    names = _names(event)
    _put(ws, "A1", f"Round {k}")
    ws["A1"].font = _font(bold=True, size=14)
    _put(ws, "A3", f"Round {k}")
    _put(ws, "H2", "Round Start Time:")
    _put(ws, "H3", "Round End Time:")
    if times[0]:
        _put(ws, "I2", times[0])
    if times[1]:
        _put(ws, "I3", times[1])
    _header(ws, FIRST_ROW - 1, {"A": "#", "B": "Player First Name", "C": "Player Last Name", "D": "Table#",
                                "E": "VPs", "F": "VPs", "G": "GW", "H": "TPs"})
    for t, seats in enumerate(tables, 1):
        for s, seat in enumerate(seats):
            row = FIRST_ROW + (t - 1) * TABLE_ROWS + s
            _put_player(ws, row, seat.number, names)
            _put(ws, f"D{row}", t)
            _put_scores(ws, row, seat, "EFGH")


def _write_final(ws, event: ArchonEvent) -> None:
    names = _names(event)
    _put(ws, "A1", "Final Round")
    ws["A1"].font = _font(bold=True, size=14)
    _put(ws, "A3", "Final Round")
    _header(ws, FINALISTS_ROW - 1, {"A": "Finalists", "D": "Place"})
    for place, number in enumerate(event.finalists, 1):
        row = FINALISTS_ROW + place - 1
        _put_player(ws, row, number, names)
        _put(ws, f"D{row}", place)
    _header(ws, FINAL_SEATS_ROW - 1, {"A": "#", "B": "Player First Name", "C": "Player Last Name", "D": "Table#",
                                      "F": "VPs", "G": "VPs", "H": "GW", "I": "TPs", "J": "Final Rank"})
    for s, seat in enumerate(event.final, 1):
        row = FINAL_SEATS_ROW + s - 1
        _put_player(ws, row, seat.number, names)
        _put(ws, f"D{row}", 1)
        _put_scores(ws, row, seat, "FGHI")
        if seat.number in event.final_ranks:
            _put(ws, f"J{row}", event.final_ranks[seat.number])


def _write_override(ws, event: ArchonEvent) -> None:
    _put(ws, "A1", event.name)
    _put(ws, "A3", "Override")
    _put(ws, "D3", 'Override a "pending" designation for player drops/ejections and other odd VP situations.')
    _put(ws, "A4", "Round")
    _header(ws, OVERRIDE_ROW - 1, {"A": "(F for Final)", "B": "Table", "C": "ID", "D": "Explanation",
                                   "E": "Player #", "F": "VP change", "G": "VP counted"})
    rows = [(rnd, table, text, None) for rnd, table, _, text in event.overrides]
    rows += [(a.round, a.table, a.text, a) for a in event.adjustments]
    for row, (rnd, table, text, sa) in enumerate(rows, OVERRIDE_ROW):
        _put(ws, f"A{row}", int(rnd) if str(rnd).isdigit() else rnd)
        _put(ws, f"B{row}", table)
        _put(ws, f"C{row}", "F" if rnd == "F" else table * 5 + int(rnd))
        _put(ws, f"D{row}", text)
        if sa is not None:
            _put(ws, f"E{row}", sa.number)
            _put(ws, f"F{row}", sa.vp)
            if sa.vp_counted is not None:
                _put(ws, f"G{row}", float(sa.vp_counted))
