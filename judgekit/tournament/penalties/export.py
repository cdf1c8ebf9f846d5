"""Penalty exports for the organizer: CSV, JSON-ready rows, per-player report.

Input: the tournament's penalty records as plain dicts (`records.RECORD_FIELDS`), in the
order they were stored, amend/lift/approve records included. Pure: text and plain data
out; the web part and the CLI add file names, content types and access control.

- `penalties_csv` / `penalties_json`: one row per stored record (the append-only log as it
  is), stable columns `CSV_COLUMNS`, plus a computed `status` for issued records.
- `penalty_report` / `player_report`: the penalties in force, grouped by player, with
  totals per penalty level (the head judge reports all warnings), repeats and lifted ones.

Spreadsheet safety: every text cell of the CSV goes through `csv_safe`. JSON values are
left as they are (JSON is data, not a spreadsheet); whoever pastes them into a sheet must
apply `csv_safe` themselves.
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Iterable, Sequence

from judgekit.tournament.penalties.deviation import needs_head_judge
from judgekit.tournament.penalties.records import STATUS_LIFTED, kind_of, replay

CSV_COLUMNS = (
    "id", "time", "kind", "refers_to", "status",
    "tournament", "round", "table", "game", "event",
    "player", "player_name", "vekn",
    "judge", "catalog", "infraction", "infraction_name", "category", "variant",
    "penalty", "proposed", "description", "rule",
    "approved_by", "approval_reason", "reason", "finding",
)

# Characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection"):
# = + - @ and tab / carriage return; line feed too, for importers that trim it away.
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r", "\n")


def csv_safe(value: str) -> str:
    """Make a text cell inert in Excel, LibreOffice and Google Sheets.

    A value starting with `=`, `+`, `-`, `@`, tab, CR or LF gets a leading apostrophe:
    spreadsheets take `'` as "this cell is text" and do not show it, so "=HYPERLINK(…)"
    stays a string and "-Ana-" still reads "-Ana-" on screen. We prefix rather than strip
    (nothing is lost and the raw file shows exactly what happened) and rather than add a
    space (some importers trim spaces, some formulas survive them). Other values are
    returned unchanged, so any name round-trips, whatever its script."""
    if value and value.startswith(FORMULA_TRIGGERS):
        return "'" + value
    return value


def _json_value(value):
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return [_json_value(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _json_value(v) for k, v in value.items()}
    return str(value)


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, (int, float)):
        return str(value)
    return csv_safe(str(value))


def _infraction(catalog, value):
    if catalog is None or not value:
        return None
    return catalog.get(str(value)) or catalog.lookup(str(value)).infraction


def export_rows(records, catalog=None, applies: dict | None = None) -> list[dict]:
    """One JSON-ready dict per record, keys exactly `CSV_COLUMNS`, in input order.
    `status` is "in force", "amended" or "lifted" for issued records, "" for the others;
    `infraction_name` and `category` come from the catalog when one is given. `applies`:
    record id -> `{"round", "table", "game"}`, the game a Standings Adjustment applies to
    (given between rounds, a record names no game of its own): its issue row carries them
    where the record leaves them empty, as the head judge's list says "round 2, table 3"."""
    records = list(records)
    applies = applies or {}
    status = {str(r["id"]): r["status"] for r in replay(records) if r.get("id") is not None}
    rows = []
    for rec in records:
        row = {col: _json_value(rec.get(col)) for col in CSV_COLUMNS}
        row["kind"] = kind_of(rec)
        row["status"] = status.get(str(rec.get("id")), "") if row["kind"] == "issue" else ""
        inf = _infraction(catalog, rec.get("infraction"))
        row["infraction_name"] = inf.name if inf else None
        row["category"] = inf.category if inf else None
        if row["catalog"] is None and catalog is not None and row["kind"] == "issue":
            row["catalog"] = catalog.id
        where = applies.get(rec.get("id")) if row["kind"] == "issue" else None
        if where and row["round"] is None and row["table"] is None:
            row.update({k: where.get(k) for k in ("round", "table", "game")})
        rows.append(row)
    return rows


def penalties_json(records, catalog=None, applies: dict | None = None) -> list[dict]:
    """The JSON export: a list of `export_rows` (serialise with `json.dumps(...,
    ensure_ascii=False)` to keep names readable)."""
    return export_rows(records, catalog, applies)


def csv_text(columns: Sequence[str], rows: Iterable[dict], *, bom: bool = False) -> str:
    """The one CSV writer of every export (penalties, standings, seating; web and CLI): the
    header `columns` always (an empty export is its header row), then one line per row,
    every text cell through `csv_safe`, CRLF line ends (RFC 4180). Encode as UTF-8;
    `bom=True` prepends U+FEFF, which Excel needs to read UTF-8 (LibreOffice and scripts do
    not)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(row.get(col)) for col in columns])
    text = out.getvalue()
    return "\ufeff" + text if bom else text


def penalties_csv(records, catalog=None, *, bom: bool = False, applies: dict | None = None) -> str:
    """The CSV export as text: header `CSV_COLUMNS`, one row per record (`csv_text`)."""
    return csv_text(CSV_COLUMNS, export_rows(records, catalog, applies), bom=bom)


# --- per-player report ------------------------------------------------------------------

@dataclass
class PlayerReport:
    player: object                    # player id (None when not registered)
    player_name: str
    vekn: str | None
    records: list[dict] = field(default_factory=list)   # in force, amended values applied
    lifted: list[dict] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)  # level -> count, lightest first
    repeats: dict[str, int] = field(default_factory=dict)  # infraction -> count (>1 only)

    def to_dict(self) -> dict:
        return _json_value({
            "player": self.player, "player_name": self.player_name, "vekn": self.vekn,
            "records": self.records, "lifted": self.lifted, "totals": self.totals,
            "repeats": self.repeats,
        })


@dataclass
class PenaltyReport:
    catalog: str | None
    levels: list[str]
    players: list[PlayerReport]
    totals: dict[str, int]            # level -> count over the event
    pending: list[dict]               # in force, needing the head judge, not approved yet

    def to_dict(self) -> dict:
        return {"catalog": self.catalog, "levels": list(self.levels),
                "players": [p.to_dict() for p in self.players],
                "totals": dict(self.totals), "pending": _json_value(self.pending)}


def _player_key(rec: dict) -> str:
    if rec.get("player") not in (None, ""):
        return f"id:{rec['player']}"
    return f"name:{(rec.get('player_name') or '').strip().casefold()}"


def _level(catalog, penalty):
    if catalog is not None:
        lv = catalog.level(penalty)
        if lv:
            return lv.name
    return penalty


def penalty_report(records, catalog=None) -> PenaltyReport:
    """The printable per-event report: players (by name) with their penalties in force,
    totals per level (every catalog level listed, zeros included), repeated infractions,
    lifted records apart, and the records still waiting for the head judge."""
    issued = replay(list(records))
    levels = list(catalog.level_names()) if catalog is not None else []
    for rec in issued:
        name = _level(catalog, rec.get("penalty"))
        if name and name not in levels:
            levels.append(name)
    players: dict[str, PlayerReport] = {}
    totals = {lv: 0 for lv in levels}
    pending = []
    for rec in issued:
        key = _player_key(rec)
        report = players.get(key)
        if report is None:
            report = players[key] = PlayerReport(rec.get("player"), rec.get("player_name") or "",
                                                 rec.get("vekn"), totals={lv: 0 for lv in levels})
        if rec.get("vekn") and not report.vekn:
            report.vekn = rec["vekn"]
        if rec["status"] == STATUS_LIFTED:
            report.lifted.append(rec)
            continue
        inf = _infraction(catalog, rec.get("infraction"))
        rec = dict(rec, penalty=_level(catalog, rec.get("penalty")),
                   infraction_name=inf.name if inf else rec.get("infraction"))
        report.records.append(rec)
        if rec["penalty"]:
            report.totals[rec["penalty"]] += 1
            totals[rec["penalty"]] += 1
        if catalog is not None and not rec.get("approved_by") and \
                needs_head_judge(catalog, rec["penalty"], rec.get("proposed")):
            pending.append(rec)
    for report in players.values():
        counts: dict[str, int] = {}
        for rec in report.records:
            counts[rec["infraction_name"]] = counts.get(rec["infraction_name"], 0) + 1
        report.repeats = {k: v for k, v in counts.items() if v > 1}
    ordered = sorted(players.values(),
                     key=lambda p: (p.player_name.casefold(), str(p.player)))
    return PenaltyReport(catalog.id if catalog is not None else None, levels, ordered,
                         totals, pending)


def player_report(records, player, catalog=None) -> PlayerReport | None:
    """One player's record in the event (by player id), or None when they have none."""
    key = f"id:{player}"
    for report in penalty_report(records, catalog).players:
        if f"id:{report.player}" == key:
            return report
    return None
