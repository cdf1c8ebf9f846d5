"""Archon workbooks from the real world (issue 27 §1): the public blank v1.5 workbook, filled
the way organizers fill it and computed and saved by LibreOffice (tests/fixtures/archon,
made by make_fixtures.py there). Each imports with the players, tables, VP, toss, final,
override and Standings Adjustment the file holds; judgekit's scores agree with what the
workbook's own formulas computed; judgekit → workbook → judgekit changes nothing; the export
puts each datum at the real file's cell."""
from __future__ import annotations

import io
import zipfile
from itertools import count
from pathlib import Path

import openpyxl
import pytest

from judgekit.tournament import archon_file, archon_read, store
from judgekit.tournament.penalties import store as penalties

HERE = Path(__file__).parent / "fixtures" / "archon"
SEVENTEEN = HERE / "lo-17-players.xlsx"
TWELVE = HERE / "lo-12-players-excel-style.xlsx"


def values(path: Path, sheet: str, first: int, last: int, cols: int) -> list[tuple]:
    wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
    try:
        return [tuple(c for c in row) for row in wb[sheet].iter_rows(min_row=first, max_row=last, max_col=cols,
                                                                        values_only=True)]
    finally:
        wb.close()


def result_key(db, tid):
    return [(r["name"], r["place"], r["rank"], r["status"], r["gw"], r["vp"], r["tp"], r["final_vp"],
             r["rating"]["total"] if r["rating"] else None) for r in store.results(db, tid)["rows"]]


def test_the_fixtures_are_what_libreoffice_saves():
    """The blank fifth row of a 4-player table: formulas whose saved value is an empty
    string (t="str", empty <v>); the Excel-style file holds inline strings beside shared ones."""
    with zipfile.ZipFile(SEVENTEEN) as z:
        r1 = z.read("xl/worksheets/sheet5.xml").decode()
        assert 'fileVersion appName="Calc"' in z.read("xl/workbook.xml").decode()
    assert '<c r="A16"' in r1 and 't="str"' in r1.split('<c r="A16"')[1][:80]
    with zipfile.ZipFile(TWELVE) as z:
        assert b't="inlineStr"' in z.read("xl/worksheets/sheet3.xml")
        assert b't="s"' in z.read("xl/worksheets/sheet5.xml")


def test_a_libreoffice_saved_workbook_imports_as_the_file_holds_it(db):
    data = SEVENTEEN.read_bytes()
    event, problems = archon_read.read_workbook(data)
    assert problems == []
    out = store.import_workbook(db, data)
    tid = out["tournament"]
    players = store.players(db, tid)
    meth = values(SEVENTEEN, "Methuselahs", 7, 23, 13)
    assert [(p["first_name"], p["last_name"], p["vekn"]) for p in players] == \
        [(m[1], m[2], str(m[4]) if m[4] else None) for m in meth]
    assert [p["vekn"] for p in players].count(None) == 2          # two without a VEKN number
    # tables and VP as the rounds' sheets seat them: 5 + 4 + 4 + 4, the fifth rows blank
    for n in (1, 2, 3):
        rows = values(SEVENTEEN, f"Round {n}", 7, 26, 5)
        sheet_tables = {}
        for a, _, _, d, e in rows:
            if isinstance(a, (int, float)) and a:
                sheet_tables.setdefault(int(d), []).append((int(a), float(e)))
        ours = {tb["number"]: [(players.index(next(p for p in players if p["id"] == s["player_id"])) + 1,
                                float(s["vp"])) for s in tb["seats"]]
                for tb in store.round_detail(db, tid, n)["tables"]}
        assert ours == sheet_tables, n
        assert sorted(len(t) for t in ours.values()) == [4, 4, 4, 5]
    # the override: round 2, table 1, with the sheet's explanation
    t21 = store.table_detail(db, tid, 2, 1)
    assert t21["state"] == "overridden" and "agreed a split" in t21["reason"]
    # the Standings Adjustment: re-created, approved, applying to round 3, table 2
    sa = values(SEVENTEEN, "Override", 7, 7, 6)[0]
    recs = [r for r in penalties.current(db, tid) if r["penalty"] == "Standings Adjustment"]
    assert len(recs) == 1 and recs[0]["approved_by"] and recs[0]["infraction"] == "slow-play"
    assert recs[0]["player"] == players[int(sa[4]) - 1]["id"]
    target = penalties.applies_to(db, tid, recs)[recs[0]["id"]]
    assert (target.round, target.table) == (int(sa[0]), int(sa[1]))
    # the toss and the final as the file holds them: qualifiers in the file's order, the
    # tied top VP of the final won by the better seed (Final Round J = 1)
    t = store.get_tournament(db, tid)
    finalists = [int(r[0]) for r in values(SEVENTEEN, "Final Round", 6, 10, 1)]
    assert t["finalists"] == [players[n - 1]["id"] for n in finalists]
    final_rows = values(SEVENTEEN, "Final Round", 14, 18, 10)
    res = store.results(db, tid)
    winner = next(int(r[0]) for r in final_rows if r[9] == 1)
    assert res["winner"] == players[winner - 1]["id"]
    assert sorted(float(r[5]) for r in final_rows).count(2.0) == 2        # a tie on top VP
    assert any("Standings Adjustment re-created" in n for n in out["notes"])


def test_judgekit_scores_as_the_workbook_computed(db):
    """Prelim GW, VP and TP per player as the workbook's formulas computed them (Methuselahs
    H, I, J) — but at the Standings Adjustment's table, which Archon cannot adjust: there
    judgekit counts one VP fewer for that player (and the table's GW and TP follow)."""
    tid = store.import_workbook(db, SEVENTEEN.read_bytes())["tournament"]
    players = store.players(db, tid)
    sa = values(SEVENTEEN, "Override", 7, 7, 5)[0]
    at_sa_table = {s["player_id"] for s in store.table_detail(db, tid, int(sa[0]), int(sa[1]))["seats"]}
    rows = {r["player_id"]: r for r in store.results(db, tid)["rows"]}
    compared = 0
    for m in values(SEVENTEEN, "Methuselahs", 7, 23, 10):
        pid = players[int(m[0]) - 1]["id"]
        r = rows[pid]
        if int(m[0]) == int(sa[4]):
            assert float(r["vp"]) == float(m[8]) - 1
        elif pid not in at_sa_table:
            assert (r["gw"], float(r["vp"]), float(r["tp"])) == (m[7], float(m[8]), float(m[9])), m
            compared += 1
    assert compared >= 12


@pytest.mark.parametrize("path", [SEVENTEEN, TWELVE], ids=["17", "12-excel-style"])
def test_judgekit_workbook_judgekit_changes_nothing(db, path):
    first = store.import_workbook(db, path.read_bytes())["tournament"]
    exported = store.archon_workbook(db, first)
    second = store.import_workbook(db, exported)["tournament"]
    assert result_key(db, second) == result_key(db, first)
    one, two = store.vekn_report(db, first), store.vekn_report(db, second)
    assert (one.ok, one.text, [p["name"] for p in one.problems]) == (two.ok, two.text, [p["name"] for p in two.problems])
    if path is TWELVE:
        assert one.ok and one.text.startswith("3¤")
    sas = [r for r in penalties.current(db, second) if r["penalty"] == "Standings Adjustment"]
    assert len(sas) == (1 if path is SEVENTEEN else 0)


def test_the_export_puts_each_datum_at_the_real_files_cell(db):
    """The workbook judgekit writes for an imported real file holds, at every cell where the
    real file holds data that judgekit keeps, the value LibreOffice computed there."""
    tid = store.import_workbook(db, SEVENTEEN.read_bytes())["tournament"]
    ours = openpyxl.load_workbook(io.BytesIO(store.archon_workbook(db, tid)), data_only=True)
    real = openpyxl.load_workbook(SEVENTEEN, data_only=True)
    assert [n for n in real.sheetnames if n in ours.sheetnames] == ours.sheetnames
    checks = {
        "Tournament Info": ["B3", "B6", "B7", "B8", "B9", "B11", "B17"],
        "Methuselahs": [f"{c}{r}" for r in range(7, 24) for c in "ABCDEF"],
        "Round 1": [f"{c}{r}" for r in range(7, 27) for c in "ABCDEFGH"],
        "Round 2": [f"{c}{r}" for r in range(7, 27) for c in "ABCDEF"],
        "Round 3": [f"{c}{r}" for r in range(7, 27) for c in "ABCDEF"],
        "Final Round": [f"{c}{r}" for r in range(6, 11) for c in "ABCD"] +
                       [f"{c}{r}" for r in range(14, 19) for c in "ABCDFGJ"],
        "Override": [f"{c}{r}" for r in (5, 6, 7) for c in "ABC"] + ["E7", "F7"],
        "VEKN Report": [f"A{r}" for r in (5, 6)],
    }
    differ = []
    for sheet, refs in checks.items():
        for ref in refs:
            a, b = real[sheet][ref].value, ours[sheet][ref].value
            row = ref.lstrip("ABCDEFGHIJ")
            if sheet.startswith("Round") and real[sheet][f"A{row}"].value in ("", None, 0):
                continue   # a blank fifth row: the real file's formulas give 0 there
            if a in ("", None) and b in ("", None):
                continue
            if isinstance(a, (int, float)) and isinstance(b, (int, float)) and float(a) == float(b):
                continue
            if str(a) != str(b):
                differ.append((sheet, ref, a, b))
    assert differ == [], differ[:20]
    # VEKN Report from row 7: the same rows (number, VEKN number or none, name, games); within a
    # shared rank (the four finalists ranked 2, tied players) Archon orders by player number
    def report(wb):
        rows = [tuple(c.value for c in row) for row in wb["VEKN Report"].iter_rows(min_row=7, max_row=23, max_col=4)]
        return sorted((int(a), int(b) if b else None, c, int(d)) for a, b, c, d in rows if a not in ("", None))
    assert report(ours) == report(real) and len(report(ours)) == 17
    # Tournament Info's date as a date, B5 the report due
    assert ours["Tournament Info"]["B4"].value.date() == real["Tournament Info"]["B4"].value.date()


def test_reading_stops_after_its_limit_of_work(monkeypatch):
    """A workbook that asks for more reading than `MAX_SECONDS` of work is refused, and says why."""
    monkeypatch.setattr(archon_read, "MAX_SECONDS", -1.0)
    event, problems = archon_read.read_workbook(SEVENTEEN.read_bytes())
    assert event is None and len(problems) == 1
    assert "takes too long to read" in str(problems[0])


def test_a_busy_machine_does_not_refuse_a_real_workbook(monkeypatch):
    """The limit counts the reading thread's work, not the wall clock: a laptop whose cores
    are busy elsewhere (here the wall clock leaps ten seconds at every look) still reads a
    real workbook."""
    wall = count(0.0, 10.0)
    monkeypatch.setattr(archon_file.time, "monotonic", lambda: next(wall))
    event, problems = archon_read.read_workbook(SEVENTEEN.read_bytes())
    assert problems == [] and event is not None and len(event.players) == 17
