"""Penalty exports: spreadsheet-safe CSV, JSON rows, per-player report."""
from __future__ import annotations

import csv
import io
import json

import pytest

from judgekit.tournament.penalties.catalog import load_catalogs
from judgekit.tournament.penalties.export import (
    CSV_COLUMNS, csv_safe, export_rows, penalties_csv, penalties_json, penalty_report,
    player_report,
)


@pytest.fixture(scope="module")
def v2():
    return load_catalogs()["v2"]


@pytest.mark.parametrize("value,expected", [
    ("=1+1", "'=1+1"),
    ("+33 6 12 34 56 78", "'+33 6 12 34 56 78"),
    ("-Ana-", "'-Ana-"),
    ("@SUM(A1:A3)", "'@SUM(A1:A3)"),
    ("\t=cmd", "'\t=cmd"),
    ("\r=cmd", "'\r=cmd"),
    ('=HYPERLINK("http://evil","click")', '\'=HYPERLINK("http://evil","click")'),
    ("Ana Lúcia", "Ana Lúcia"),
    ("a=b", "a=b"),
    ("O'Brien", "O'Brien"),
    ("", ""),
    ("李雷", "李雷"),
])
def test_csv_safe(value, expected):
    assert csv_safe(value) == expected


def _rows(text):
    return list(csv.DictReader(io.StringIO(text)))


RECORDS = [
    {"id": 1, "kind": "issue", "tournament": 1, "round": 1, "table": 2, "game": 10, "event": 4,
     "player": 11, "player_name": "Zoë Ångström", "vekn": "3000111", "judge": "Ana",
     "catalog": "v2", "infraction": "game-rule-violation", "penalty": "Caution",
     "proposed": "Caution", "description": "blocked before the prey passed",
     "rule": "announcements/forbidden-shortcuts", "time": "2026-05-01T10:00:00Z"},
    {"id": 2, "kind": "issue", "tournament": 1, "round": 2, "table": 1, "player": 11,
     "player_name": "Zoë Ångström", "vekn": "3000111", "judge": "Ana", "catalog": "v2",
     "infraction": "game-rule-violation", "penalty": "Caution", "proposed": "Caution",
     "description": "", "time": "2026-05-01T11:00:00Z"},
    {"id": 3, "kind": "issue", "tournament": 1, "round": 2, "table": 3, "player": 12,
     "player_name": "=HYPERLINK(\"http://x\")", "vekn": "-100", "judge": "@bob",
     "catalog": "v2", "infraction": "outside-assistance", "penalty": "Standings Adjustment",
     "proposed": "Standings Adjustment", "description": "+advice from the rail\nsecond line",
     "time": "2026-05-01T11:05:00Z"},
    {"id": 4, "kind": "issue", "tournament": 1, "round": 2, "table": 3, "player": 13,
     "player_name": "李雷", "judge": "Ana", "catalog": "v2", "infraction": "slow-play",
     "penalty": "Warning", "proposed": "Warning", "description": "", "time": "2026-05-01T11:10:00Z"},
    {"id": 5, "kind": "lift", "refers_to": 4, "judge": "HJ", "reason": "wrong player",
     "time": "2026-05-01T11:20:00Z"},
    {"id": 6, "kind": "amend", "refers_to": 2, "penalty": "Warning", "judge": "HJ",
     "reason": "-could not roll back", "variant": "no-rollback", "time": "2026-05-01T11:30:00Z"},
    {"id": 7, "kind": "issue", "tournament": 1, "round": 3, "player": None,
     "player_name": "+Walk-in", "judge": "HJ", "catalog": "v2", "infraction": "cheating",
     "penalty": "Disqualification", "proposed": "Disqualification", "description": "marked deck",
     "approved_by": "HJ", "approval_reason": "issued by the head judge",
     "time": "2026-05-01T12:00:00Z"},
]


def test_csv_columns_and_rows(v2):
    text = penalties_csv(RECORDS, v2)
    assert text.splitlines()[0] == ",".join(CSV_COLUMNS)
    rows = _rows(text)
    assert [r["id"] for r in rows] == ["1", "2", "3", "4", "5", "6", "7"]
    assert [r["status"] for r in rows] == ["in force", "amended", "in force", "lifted", "", "",
                                           "in force"]
    assert rows[0]["infraction_name"] == "Game Rule Violation"
    assert rows[0]["category"] == "Procedural Error"
    assert rows[0]["rule"] == "announcements/forbidden-shortcuts"
    assert rows[4]["kind"] == "lift" and rows[4]["refers_to"] == "4"
    assert rows[1]["penalty"] == "Caution"  # the stored record; the amendment is row 6
    assert rows[5]["penalty"] == "Warning"


@pytest.mark.parametrize("first", ["=", "+", "-", "@"])
def test_csv_injection_in_names(v2, first):
    name = f"{first}cmd|' /C calc'!A0"
    records = [dict(RECORDS[0], player_name=name, description=f"{first}1+1", judge=f"{first}x")]
    row = _rows(penalties_csv(records, v2))[0]
    assert row["player_name"] == "'" + name
    assert row["description"] == f"'{first}1+1"
    assert row["judge"] == f"'{first}x"
    for cell in row.values():
        assert not cell.startswith(("=", "+", "-", "@", "\t", "\r"))


def test_csv_cells_from_the_records_are_all_safe(v2):
    for row in _rows(penalties_csv(RECORDS, v2)):
        for cell in row.values():
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r"))
    rows = _rows(penalties_csv(RECORDS, v2))
    assert rows[2]["vekn"] == "'-100"
    assert rows[2]["description"] == "'+advice from the rail\nsecond line"


def test_unicode_names_round_trip(v2):
    names = ["Zoë Ångström", "李雷", "Jürgen „Bleed“ Müller", "Ольга", "Nguyễn Thị Minh", "🦇 Bat"]
    records = [dict(RECORDS[0], id=i, player=i, player_name=n) for i, n in enumerate(names)]
    text = penalties_csv(records, v2)
    assert [r["player_name"] for r in _rows(text)] == names
    raw = text.encode("utf-8")
    assert [r["player_name"] for r in _rows(raw.decode("utf-8"))] == names
    data = json.loads(json.dumps(penalties_json(records, v2), ensure_ascii=False))
    assert [r["player_name"] for r in data] == names


def test_bom_for_excel(v2):
    text = penalties_csv(RECORDS[:1], v2, bom=True)
    assert text.startswith("\ufeffid,")
    assert not penalties_csv(RECORDS[:1], v2).startswith("\ufeff")


def test_json_rows(v2):
    rows = penalties_json(RECORDS, v2)
    assert json.loads(json.dumps(rows)) == rows
    assert all(list(r) == list(CSV_COLUMNS) for r in rows)
    assert rows[2]["player_name"] == '=HYPERLINK("http://x")'   # JSON keeps the raw value
    assert rows[0]["round"] == 1 and rows[6]["player"] is None


def test_rows_without_catalog():
    rows = export_rows(RECORDS[:1])
    assert rows[0]["infraction"] == "game-rule-violation" and rows[0]["infraction_name"] is None


def test_empty_export(v2):
    assert penalties_csv([], v2).splitlines() == [",".join(CSV_COLUMNS)]
    assert penalties_json([], v2) == []


def test_report_groups_by_player_with_totals(v2):
    report = penalty_report(RECORDS, v2)
    assert report.levels == ["Caution", "Warning", "Standings Adjustment", "Disqualification"]
    names = [p.player_name for p in report.players]
    assert names == sorted(names, key=str.casefold)
    by_name = {p.player_name: p for p in report.players}
    zoe = by_name["Zoë Ångström"]
    assert [r["penalty"] for r in zoe.records] == ["Caution", "Warning"]   # amended applied
    assert zoe.totals == {"Caution": 1, "Warning": 1, "Standings Adjustment": 0, "Disqualification": 0}
    assert zoe.repeats == {"Game Rule Violation": 2}
    li = by_name["李雷"]
    assert li.records == [] and [r["id"] for r in li.lifted] == [4]
    assert sum(li.totals.values()) == 0
    assert report.totals == {"Caution": 1, "Warning": 1, "Standings Adjustment": 1,
                             "Disqualification": 1}
    # the SA has no approval yet; the amended Warning deviates from its proposed Caution;
    # the DQ was approved
    assert sorted(r["id"] for r in report.pending) == [2, 3]
    assert json.loads(json.dumps(report.to_dict()))["players"][0]["totals"]


def test_player_report(v2):
    zoe = player_report(RECORDS, 11, v2)
    assert zoe.vekn == "3000111" and len(zoe.records) == 2
    assert player_report(RECORDS, "11", v2).player_name == "Zoë Ångström"
    assert player_report(RECORDS, 999, v2) is None


def test_report_without_catalog():
    report = penalty_report(RECORDS)
    assert report.catalog is None and report.pending == []
    assert "Caution" in report.levels and report.totals["Standings Adjustment"] == 1
