"""The Archon workbook (issue 12, section 4): the export at the cells Archon reads, the
import that creates an event from a workbook (a real file's formulas read by their saved
values, the blank fifth row of a 4-player table stepped over), the round trip export →
import giving the same standings and VEKN string, and every bad workbook answered with the
cell at fault and nothing stored."""
from __future__ import annotations

import base64
import io
import re
import zipfile
from datetime import date

import openpyxl
import pytest

from judgekit.db import open_db
from judgekit.tournament import archon, archon_read, store
from judgekit.game.outcome import derive_vp

from test_tournament_vekn import EXPECTED, hand_event, seat_final_as


def result_key(db, tid):
    return [(r["name"], r["place"], r["rank"], r["status"], r["gw"], r["vp"], r["tp"], r["final_vp"],
             r["rating"]["total"] if r["rating"] else None) for r in store.results(db, tid)["rows"]]


def count_tournaments(db) -> int:
    return db.execute("select count(*) from tournaments").fetchone()[0]


def with_saved_values(data: bytes, values: dict[tuple[str, str], object]) -> bytes:
    """A workbook as Excel or LibreOffice saves it: each formula cell keeps its last value
    beside the formula (openpyxl writes formulas with an empty value). Test fixture only."""
    wb = openpyxl.load_workbook(io.BytesIO(data))
    order = wb.sheetnames
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            body = src.read(item.filename)
            m = re.fullmatch(r"xl/worksheets/sheet(\d+)\.xml", item.filename)
            if m:
                sheet = order[int(m.group(1)) - 1]
                text = body.decode()
                for (name, ref), value in values.items():
                    if name != sheet:
                        continue
                    kind = "" if isinstance(value, (int, float)) else ' t="str"'
                    text, n = re.subn(rf'<c r="{ref}"([^>]*)><f>(.*?)</f><v ?/>',
                                      lambda mm: f'<c r="{ref}"{mm.group(1)}{kind}><f>{mm.group(2)}</f><v>{value}</v>',
                                      text)
                    assert n == 1, (sheet, ref)
                body = text.encode()
            dst.writestr(item, body)
    return out.getvalue()


# --- the export ------------------------------------------------------------------------------------

def test_the_export_writes_the_cells_archon_reads(db):
    tid, ids = hand_event(db)
    store.update_event(db, tid, {"level": "continental-qualifier", "vekn_event_id": "9876", "city": "Lyon",
                                 "head_judge": "Hal", "assistant_judges": "Jo, Kim", "organizer": "Olga"})
    wb = openpyxl.load_workbook(io.BytesIO(store.archon_workbook(db, tid)))
    assert wb.sheetnames == ["Instructions", "Tournament Info", "Methuselahs", "Standings", "Round 1", "Round 2",
                             "Final Round", "Override", "VEKN Report", "Notes"]
    info = wb["Tournament Info"]
    assert info["B3"].value == "Hand Cup" and info["B4"].value.date() == date(2025, 5, 17)
    assert info["B4"].number_format == "DD-MMM-YY" and info["B5"].value.date() == date(2025, 5, 25)
    assert [info[f"B{r}"].value for r in (6, 7, 8, 9, 10, 11, 12, 17, 18, 28)] == \
        ["Olga", "Lyon", "Constructed", "Continental Qualifier", 8, 3, 5, "Hal", "Jo, Kim", "9876"]
    m = wb["Methuselahs"]
    assert [m.cell(7, c).value for c in range(1, 8)] == [1, "Ana", "Alves", "Lyon", 1000001, 3, None]
    assert m["M13"].value == 1 and m["M14"].value is None   # Gina won the toss for 5th; Hugo missed the final
    r1 = wb["Round 1"]
    # five rows per table: table 1 in rows 7-10 (row 11 blank), table 2 from row 12
    assert [(r1[f"A{r}"].value, r1[f"D{r}"].value, r1[f"E{r}"].value) for r in range(7, 16)] == [
        (1, 1, 4.0), (2, 1, 0.0), (3, 1, 0.0), (4, 1, 0.0), (None, None, None),
        (5, 2, 1.5), (6, 2, 0.0), (7, 2, 0.5), (8, 2, 0.5)]
    # as the real file: F the VP again, G the GW, H the TP
    assert [r1[f"G{r}"].value for r in range(7, 11)] == [1, 0, 0, 0] and r1["H12"].value == 60
    assert r1["F7"].value == 4.0 and r1["H2"].value == "Round Start Time:"
    f = wb["Final Round"]
    assert [f[f"A{r}"].value for r in range(6, 11)] == [1, 3, 6, 5, 7]       # qualifiers by place
    assert [(f[f"A{r}"].value, f[f"F{r}"].value, f[f"J{r}"].value) for r in range(14, 19)] == [
        (1, 0.0, 2), (3, 3.0, 1), (6, 1.0, 2), (5, 1.0, 2), (7, 0.0, 2)]
    assert [f[f"D{r}"].value for r in range(14, 19)] == [1] * 5     # D the table (1), as the real file
    rep = wb["VEKN Report"]   # data from row 7, as the real v1.5 file (headers in rows 5-6)
    assert [rep.cell(7, c).value for c in range(1, 8)] == [3, 1000003, "Carla Costa", 3, 2, 7.0, 1]
    assert rep["A6"].value == "Num" and rep["G6"].value == "Rank"


def test_names_that_look_like_formulas_stay_text(db):
    tid = store.create_tournament(db, {"name": "=cmd|' /C calc'!A0"})
    store.add_player(db, tid, {"first_name": "=HYPERLINK(\"http://x\")", "last_name": "@Bo", "vekn": "1"})
    data = store.archon_workbook(db, tid)
    formulas = openpyxl.load_workbook(io.BytesIO(data))
    for cell in (formulas["Tournament Info"]["B3"], formulas["Methuselahs"]["B7"], formulas["Methuselahs"]["C7"]):
        assert cell.data_type == "s" and cell.quotePrefix, cell.coordinate
    assert formulas["Methuselahs"]["B7"].value == "=HYPERLINK(\"http://x\")"


# --- the round trip --------------------------------------------------------------------------------

def test_export_then_import_gives_the_same_event(db):
    tid, _ = hand_event(db)
    store.update_event(db, tid, {"level": "national", "vekn_event_id": "555", "head_judge": "Hal"})
    out = store.import_workbook(db, store.archon_workbook(db, tid), organizer="Olga")
    new = out["tournament"]
    assert new != tid and out["notes"] == []
    assert result_key(db, new) == result_key(db, tid)
    assert store.vekn_report(db, new).text == store.vekn_report(db, tid).text != EXPECTED  # a national: +0.25
    t = store.get_tournament(db, new)
    assert (t["name"], t["date"], t["level"], t["vekn_event_id"], t["head_judge"]) == \
        ("Hand Cup", "2025-05-17", "national", "555", "Hal")
    assert [(p["first_name"], p["last_name"], p["city"]) for p in store.players(db, new)][7] == ("Hugo", "Horta", None)


def irregular_event(db) -> int:
    """11 players over three rounds (a sit-out plan), a late arrival, a drop, an override, a
    temporary number, a withdrawal, names that look like formulas, accents; then the final."""
    import random
    rng = random.Random(11)
    tid = store.create_tournament(db, {"name": "Odd Open", "rounds_planned": 3, "level": "grand-prix"})
    names = ["Zoë Ünal", "=SUM(A1)", "+Plus Minus", "-Dash-", "@At Sign", "Jean-Pierre de la Tour", "Ana",
             "Bruno Costa", "Carla Dias", "Dario Faro", "Elsa Gomes"]
    for k, n in enumerate(names):
        store.add_player(db, tid, {"name": n, "vekn": "P9" if k == 3 else str(2000000 + k), "country": "FR"})
    for n in (1, 2, 3):
        if n == 2:
            store.add_player(db, tid, {"name": "Late Comer", "vekn": "2000099"})
        if n == 3:
            dropped = store.players(db, tid)[6]["id"]
            store.drop_player(db, tid, dropped)
        r = store.start_round(db, tid, seed=n)
        for tb in r["tables"]:
            if n == 2 and tb["number"] == 1:
                store.override_result(db, tid, n, 1, [2, 2, 0, 0] + [0] * (tb["size"] - 4),
                                      "the head judge accepted the players' agreement")
                continue
            # round 1, table 1: seat 2 withdraws (½ VP), seat 1 ousts everyone else: a lone ½
            events = [{"type": "withdraw", "seat": 2}] + [{"type": "oust", "seat": s} for s in range(3, tb["size"] + 1)] \
                if n == 1 and tb["number"] == 1 else []
            while not events:
                alive = list(range(1, tb["size"] + 1))
                while len(alive) > 1 and rng.random() < 0.6:
                    s = rng.choice(alive)
                    events.append({"type": "oust", "seat": s})
                    alive.remove(s)
                if len(alive) > 1:
                    events.append({"type": "time-out"})
            res = derive_vp(tb["size"], events)
            store.enter_result(db, tid, n, tb["number"], res.vps, withdrawn=res.withdrawn)
        store.close_round(db, tid, n)
    while store.standings(db, tid).needs_toss:
        store.record_toss(db, tid, seed=rng.randrange(1000))
    store.start_final(db, tid)
    row = store.get_tournament(db, tid)["finalists"][::-1]
    seat_final_as(db, tid, row)
    store.enter_result(db, tid, 4, 1, [0, 3, 1, 1, 0])
    return tid


def test_an_irregular_event_round_trips(db):
    tid = irregular_event(db)
    data = store.archon_workbook(db, tid)
    wb = openpyxl.load_workbook(io.BytesIO(data))
    ov = wb["Override"]   # data from row 6, as the real v1.5 file; C the real file's ID (table × 5 + round)
    assert ov["A5"].value == "(F for Final)" and ov["A6"].value == 2 and ov["B6"].value == 1 and ov["C6"].value == 7
    assert "Head judge's override" in ov["D6"].value
    out = store.import_workbook(db, data)
    new = out["tournament"]
    assert result_key(db, new) == result_key(db, tid)
    # the override came back as an override with its reason; the withdrawal as a withdrawal
    t1 = store.table_detail(db, new, 2, 1)
    assert t1["state"] == "overridden" and "head judge accepted" in t1["reason"]
    assert store.table_detail(db, new, 1, 1)["withdrawn"] == [2]
    assert any("withdrawal at seat 2" in n for n in out["notes"])
    names = {p["name"] for p in store.players(db, new)}
    assert {"=SUM(A1)", "+Plus Minus", "-Dash-", "@At Sign", "Zoë Ünal"} <= names
    assert next(p for p in store.players(db, new) if p["name"] == "-Dash-")["vekn"] == "P9"


def test_a_real_file_is_read_by_the_values_saved_with_its_formulas(db):
    tid, _ = hand_event(db)
    data = store.archon_workbook(db, tid)
    wb = openpyxl.load_workbook(io.BytesIO(data))
    saved = {}
    # as in Archon v1.5: a round's player numbers come from its seating chart and the names and
    # tables are lookups; the rounds count the final
    for sheet in ("Round 1", "Round 2"):
        ws = wb[sheet]
        for row in range(7, 17):
            if ws[f"A{row}"].value is None:
                continue
            saved[(sheet, f"A{row}")] = ws[f"A{row}"].value
            saved[(sheet, f"B{row}")] = ws[f"B{row}"].value
            saved[(sheet, f"D{row}")] = ws[f"D{row}"].value
            ws[f"A{row}"] = f"=SeatingChart!C{row}"
            ws[f"B{row}"] = f"=VLOOKUP(A{row},Methuselahs!A:C,2)"
            ws[f"D{row}"] = "=FLOOR((ROW()-7)/5)+1"
    saved[("Tournament Info", "B11")] = 3
    wb["Tournament Info"]["B11"] = "=COUNT(Rounds)"
    buf = io.BytesIO()
    wb.save(buf)
    real = with_saved_values(buf.getvalue(), saved)
    out = store.import_workbook(db, real)
    assert result_key(db, out["tournament"]) == result_key(db, tid)
    # the same file written by a program that saves no values: the cell at fault is named
    event, problems = archon_read.read_workbook(buf.getvalue())
    # one line for the kind of problem, each cell listed once (issue 27)
    assert event is None and problems == [
        "Round 1!A7, A8, A9, A10, A12, A13, A14, A15 hold formulas whose values were not saved with the file: open "
        "the file in Excel or LibreOffice and save it again (or type the values)"]


# --- bad workbooks -----------------------------------------------------------------------------------

def base_workbook() -> bytes:
    ev = archon.ArchonEvent(name="Bad Cup", level="Standard Constructed")
    ev.players = [archon.ArchonPlayer(number=k, first=f"P{k}", last="X", vekn=str(100 + k)) for k in range(1, 9)]
    ev.rounds = [[[archon.ArchonSeat(k, vp) for k, vp in zip(range(1, 5), (4, 0, 0, 0))],
                  [archon.ArchonSeat(k, vp) for k, vp in zip(range(5, 9), (1.5, 0, 0.5, 0.5))]]]
    return archon.write_workbook(ev)


def edited(change) -> bytes:
    wb = openpyxl.load_workbook(io.BytesIO(base_workbook()))
    change(wb)
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def zip_of(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, body in files.items():
            z.writestr(name, body)
    return buf.getvalue()


def macro_enabled(data: bytes) -> bytes:
    """The workbook as Excel saves it with macros: a VBA part and the macro-enabled type."""
    src = zipfile.ZipFile(io.BytesIO(data))
    files = {i.filename: src.read(i.filename) for i in src.infolist()}
    files["[Content_Types].xml"] = files["[Content_Types].xml"].replace(
        b"spreadsheetml.sheet.main+xml", b"sheet.macroEnabled.main+xml")
    files["xl/vbaProject.bin"] = b"\xd0\xcf\x11\xe0" + b"\x00" * 64
    return zip_of(files)


def million_rows(data: bytes, sheet: str, *, blank: bool) -> bytes:
    """A sheet with 1,000,000 rows (empty ones, or one number each) in place of its data:
    a file of a few tens of KB (issue 28.1)."""
    wb = openpyxl.load_workbook(io.BytesIO(data), read_only=False)
    order = wb.sheetnames
    part = f"xl/worksheets/sheet{order.index(sheet) + 1}.xml"
    src = zipfile.ZipFile(io.BytesIO(data))
    files = {i.filename: src.read(i.filename) for i in src.infolist()}
    rows = "".join(f'<row r="{r}"/>' if blank else f'<row r="{r}"><c r="A{r}"><v>{r}</v></c></row>'
                   for r in range(1, 1_000_001))
    files[part] = re.sub(rb"<sheetData>.*</sheetData>|<sheetData/>", lambda _: f"<sheetData>{rows}</sheetData>".encode(),
                         files[part], flags=re.S)
    return zip_of(files)


BAD = {
    "empty": (lambda: b"", "The file is empty."),
    "csv": (lambda: b"first;last;vekn\nAna;Silva;1\n", "This is a text file (a CSV?)"),
    "xls": (lambda: b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 100, "old Excel file (.xls)"),
    "pdf": (lambda: b"%PDF-1.4 ...", "This is a PDF"),
    "png": (lambda: b"\x89PNG\r\n\x1a\n\x00\x00\x00", "not an .xlsx workbook"),
    "zip": (lambda: zip_of({"hello.txt": b"hi"}), "This zip file is not an .xlsx workbook"),
    "ods": (lambda: zip_of({"content.xml": b"<x/>", "mimetype": b"application/vnd.oasis"}), "OpenDocument"),
    "truncated": (lambda: base_workbook()[:3000], "damaged"),
    "bomb": (lambda: zip_of({"xl/workbook.xml": b"<", "big.bin": b"\x00" * (90 * 1024 * 1024)}), "unpacks to too much"),
    "big": (lambda: b"PK\x03\x04" + b"\x00" * (6 * 1024 * 1024), "at most 5 MB"),
    "missing sheets": (lambda: edited(lambda wb: wb.remove(wb["Methuselahs"])), "no sheet named 'Methuselahs'"),
    "merged": (lambda: edited(lambda wb: wb["Round 1"].merge_cells("D7:D10")), "Round 1!D7:D10 is a merged range"),
    "error value": (lambda: edited(lambda wb: wb["Round 1"].__setitem__("E8", "#N/A")), "Round 1!E8 (#N/A) holds an error value"),
    "ref error": (lambda: edited(lambda wb: wb["Round 1"].__setitem__("A8", "#REF!")), "Round 1!A8 (#REF!) holds an error value"),
    "date as text": (lambda: edited(lambda wb: wb["Tournament Info"].__setitem__("B4", "next Friday")),
                     "Tournament Info!B4: 'next Friday' is not a date"),
    "bool vp": (lambda: edited(lambda wb: wb["Round 1"].__setitem__("E8", True)), "Round 1!E8: 'True' is not a VP"),
    "text table": (lambda: edited(lambda wb: wb["Round 1"].__setitem__("D8", "two")), "Round 1!D8: 'two' is not a table"),
    "xlsm": (lambda: macro_enabled(base_workbook()), "macro-enabled workbook (.xlsm)"),
    "million empty rows": (lambda: million_rows(base_workbook(), "Round 1", blank=True), "The sheet 'Round 1' unpacks to"),
    "formula": (lambda: edited(lambda wb: wb["Round 1"].__setitem__("E9", "=1/0")), "Round 1!E9 holds a formula whose value was not saved"),
    "level": (lambda: edited(lambda wb: wb["Tournament Info"].__setitem__("B9", "Super Cup")),
              "Tournament Info!B9: unknown event level 'Super Cup'"),
    "format": (lambda: edited(lambda wb: wb["Tournament Info"].__setitem__("B8", "Draft")), "Tournament Info!B8"),
    "no name": (lambda: edited(lambda wb: wb["Tournament Info"].__setitem__("B3", None)), "Tournament Info!B3: no event name"),
    "duplicate number": (lambda: edited(lambda wb: wb["Methuselahs"].__setitem__("A8", 1)),
                         "Methuselahs!A8: player number 1 is also on row 7"),
    "duplicate vekn": (lambda: edited(lambda wb: wb["Methuselahs"].__setitem__("E9", 101)),
                       "Methuselahs!E9: VEKN number 101 is also on row 7"),
    "bad vekn": (lambda: edited(lambda wb: wb["Methuselahs"].__setitem__("E9", "12-34")), "Methuselahs!E9: the VEKN number"),
    "no number": (lambda: edited(lambda wb: wb["Methuselahs"].__setitem__("A9", None)), "Methuselahs!A9: P3 X has no player number"),
    "table of 3": (lambda: edited(lambda wb: wb["Round 1"].__setitem__("A10", None)), "3 players — a table has 4 or 5"),
    "unknown player": (lambda: edited(lambda wb: wb["Round 1"].__setitem__("A8", 42)),
                       "Round 1!A8: player 42 is not on the Methuselahs list"),
    "seated twice": (lambda: edited(lambda wb: wb["Round 1"].__setitem__("A12", 1)), "Round 1!A12: player 1 is seated twice"),
    "text vp": (lambda: edited(lambda wb: wb["Round 1"].__setitem__("E8", "lots")), "Round 1!E8: 'lots' is not a VP"),
    "negative vp": (lambda: edited(lambda wb: wb["Round 1"].__setitem__("E8", -1)), "Round 1!E8:"),
    "half filled": (lambda: edited(lambda wb: wb["Round 1"].__setitem__("E8", None)),
                    "Round 1!E8: no VP, while the table's other seats have theirs"),
    "finalists": (lambda: edited(lambda wb: [wb["Final Round"].__setitem__(f"A{r}", v) for r, v in
                                             zip(range(6, 11), (8, 7, 6, 5, 4))]),
                  "Final Round, rows 6–10: the qualifiers listed (P8 X, P7 X, P6 X, P5 X, P4 X) are not the five best"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_workbooks_name_the_cell_and_store_nothing(db, case):
    make, words = BAD[case]
    before = count_tournaments(db)
    with pytest.raises(store.TournamentError) as exc:
        store.import_workbook(db, make())
    problems = exc.value.extra["problems"]
    assert exc.value.status == 400 and any(words in p for p in problems), problems
    # one line per kind of problem, each cell told once (no second message about a cell told about)
    cells = [c for p in problems for c in re.findall(r"[A-Z][a-z]+(?: [A-Za-z]+)*!([A-Z]+\d+)", p)]
    assert len(cells) == len(set(cells)), problems
    assert len(problems) <= 2, problems
    assert count_tournaments(db) == before
    assert db.execute("select count(*) from tournament_players").fetchone()[0] == 0


def test_the_base_workbook_itself_imports(db):
    out = store.import_workbook(db, base_workbook())
    assert [len(store.round_tables(db, out["tournament"], 1))] == [2]
    assert store.rounds(db, out["tournament"])[0]["status"] == "closed"


# --- the pages ----------------------------------------------------------------------------------------

def test_import_page_and_api(client, app):
    r = client.get("/tournaments")
    token = re.search(r'name="csrf-token" content="([^"]+)"', r.get_data(as_text=True)).group(1)
    assert 'action="/tournaments/import-archon"' in r.get_data(as_text=True)
    bad = client.post("/tournaments/import-archon", content_type="multipart/form-data",
                      data={"csrf_token": token, "file": (io.BytesIO(BAD["level"][0]()), "a.xlsx")})
    html = bad.get_data(as_text=True)
    assert bad.status_code == 400 and "Nothing was stored." in html and "unknown event level" in html
    none = client.post("/tournaments/import-archon", data={"csrf_token": token})
    assert none.status_code == 400 and "Choose the Archon workbook" in none.get_data(as_text=True)
    big = client.post("/tournaments/import-archon", content_type="multipart/form-data",
                      data={"csrf_token": token, "file": (io.BytesIO(b"x" * (10 * 1024 * 1024)), "a.xlsx")})
    assert big.status_code == 413 and "too large" in big.get_data(as_text=True)
    ok = client.post("/tournaments/import-archon", content_type="multipart/form-data",
                     data={"csrf_token": token, "organizer": "Olga", "file": (io.BytesIO(base_workbook()), "a.xlsx")})
    assert ok.status_code == 302
    page = client.get(ok.location).get_data(as_text=True)
    assert "Imported from the Archon workbook" in page and "<h1>Bad Cup</h1>" in page  # signed in as organizer
    tool = app.test_client()  # a script: the workbook in base64 in JSON
    api = tool.post("/api/tournaments/import-archon", json={"workbook": base64.b64encode(base_workbook()).decode()})
    assert api.status_code == 201 and api.get_json()["token"] and api.get_json()["name"] == "Bad Cup"
    api = tool.post("/api/tournaments/import-archon", json={"workbook": base64.b64encode(b"nope").decode()})
    assert api.status_code == 400 and api.get_json()["problems"] == ["This is a text file (a CSV?), not a workbook: "
                                                                     "import players from a CSV on the tournament's "
                                                                     "Players page, or choose the Archon .xlsx file."]
    for bad in ({"workbook": "!!"}, {"workbook": 5}, {}, {"workbook": "QQ==", "organizer": ["x"]}):
        r = tool.post("/api/tournaments/import-archon", json=bad)
        assert r.status_code == 400, bad
    db = open_db(app.config["DATABASE"])
    try:
        assert count_tournaments(db) == 2  # the form's and the API's good workbooks only
    finally:
        db.close()


def test_the_export_download(client):
    created = client.post("/api/tournaments", json={"name": "Dl Cup"}).get_json()
    client.environ_base["HTTP_AUTHORIZATION"] = "Bearer " + created["token"]
    r = client.get(f"/tournaments/{created['id']}/export/archon.xlsx")
    assert r.status_code == 200 and r.data.startswith(b"PK\x03\x04")
    assert r.mimetype == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    assert openpyxl.load_workbook(io.BytesIO(r.data))["Tournament Info"]["B3"].value == "Dl Cup"


def test_the_cli_exports_and_imports(tmp_path):
    from click.testing import CliRunner

    from judgekit.cli import main
    from judgekit.db import migrate
    db = open_db(tmp_path / "judgekit.db")
    migrate(db)
    tid, _ = hand_event(db)
    db.close()
    runner = CliRunner()
    out = tmp_path / "event.xlsx"
    r = runner.invoke(main, ["--instance", str(tmp_path), "export", "archon", "--tournament", str(tid), "-o", str(out)])
    assert r.exit_code == 0 and out.read_bytes().startswith(b"PK")
    r = runner.invoke(main, ["--instance", str(tmp_path), "import", "archon", str(out), "--organizer", "Olga"])
    assert r.exit_code == 0 and "tournament 2 imported" in r.output and "organizer O-" in r.output
    db = open_db(tmp_path / "judgekit.db")
    assert store.vekn_report(db, 2).text == EXPECTED
    db.close()
    bad = tmp_path / "bad.xlsx"
    bad.write_bytes(BAD["merged"][0]())
    r = runner.invoke(main, ["--instance", str(tmp_path), "import", "archon", str(bad)])
    assert r.exit_code == 1 and "Round 1!D7:D10 is a merged range" in r.output
    players = tmp_path / "players.csv"
    players.write_bytes("\ufeffname;vekn\nZoë Ünal;77\nBo;77\n".encode())
    r = runner.invoke(main, ["--instance", str(tmp_path), "import", "players", str(players), "--tournament", "2"])
    assert r.exit_code == 1 and "line 2: VEKN number 77 is also on line 3 (Bo)" in r.output
    players.write_bytes("\ufeffname;vekn\nZoë Ünal;77\nBo;78\n".encode())
    r = runner.invoke(main, ["--instance", str(tmp_path), "import", "players", str(players), "--tournament", "2",
                             "--check-in"])
    assert r.exit_code == 1 and "the final has begun" in r.output   # an event whose final is played takes no one
    store_db = open_db(tmp_path / "judgekit.db")
    new = store.create_tournament(store_db, {"name": "Next"})
    store_db.close()
    r = runner.invoke(main, ["--instance", str(tmp_path), "import", "players", str(players), "--tournament", str(new),
                             "--check-in"])
    assert r.exit_code == 0 and "2 players registered in tournament 3 and checked in" in r.output
