"""The cost of importing an Archon workbook (issues 27 §1 and 28.1): wall time and extra
memory of `store.import_workbook` for

- big: a 300-player, 5-round workbook (60 tables a round, every VP entered), read and
  rebuilt as an event in a fresh database;
- the real LibreOffice-saved fixture (tests/fixtures/archon/lo-17-players.xlsx);
- hostile files (28.1): ~29 KB whose unused last sheet holds 500,000 cells; ~45 KB with
  1,000,000 cells in an unused sheet; the same million cells in Round 1 (a sheet that is
  read); 1,000,000 empty rows in Round 1.

Each case runs in a fresh process; "extra" is the process's peak RSS during the call minus
its RSS just before (openpyxl already imported, as in a server that has imported once).
Target: any upload ≤ 5 MB answered in ≤ 3 s with ≤ 60 MB extra.

    PYTHONPATH=$PWD /work/main/.venv/bin/python bench/archon_import.py
"""
from __future__ import annotations

import io
import json
import random
import re
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "archon" / "lo-17-players.xlsx"


def big_workbook(players: int = 300, rounds: int = 5) -> bytes:
    from judgekit.tournament import archon
    from judgekit.game.outcome import derive_vp
    rng = random.Random(300)
    event = archon.ArchonEvent(name="Bench 300", date="2025-05-17")
    event.players = [archon.ArchonPlayer(number=k, first=f"First{k}", last=f"Last{k}", vekn=str(3000000 + k))
                     for k in range(1, players + 1)]
    for _ in range(rounds):
        order = list(range(1, players + 1))
        rng.shuffle(order)
        tables = []
        for t in range(0, players, 5):
            events, alive = [], list(range(1, 6))
            while len(alive) > 1 and rng.random() < 0.6:
                s = rng.choice(alive)
                events.append({"type": "oust", "seat": s})
                alive.remove(s)
            if len(alive) > 1:
                events.append({"type": "time-out"})
            vps = derive_vp(5, events).vps
            tables.append([archon.ArchonSeat(number=n, vp=v) for n, v in zip(order[t:t + 5], vps)])
        event.rounds.append(tables)
    return archon.write_workbook(event)


def small_workbook() -> bytes:
    return FIXTURE.read_bytes()


def with_sheet_xml(data: bytes, sheet: str | None, rows_xml: str) -> bytes:
    """`data` with `sheet`'s cells replaced by `rows_xml`, or (sheet None) a new last sheet
    holding them."""
    src = zipfile.ZipFile(io.BytesIO(data))
    files = {i.filename: src.read(i.filename) for i in src.infolist()}
    body = f'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/' \
           f'spreadsheetml/2006/main"><sheetData>{rows_xml}</sheetData></worksheet>'.encode()
    if sheet is None:
        part = "xl/worksheets/sheet99.xml"
        files[part] = body
        files["[Content_Types].xml"] = files["[Content_Types].xml"].replace(
            b"</Types>", b'<Override PartName="/xl/worksheets/sheet99.xml" ContentType="application/'
                         b'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>')
        files["xl/_rels/workbook.xml.rels"] = files["xl/_rels/workbook.xml.rels"].replace(
            b"</Relationships>", b'<Relationship Id="rIdBench" Type="http://schemas.openxmlformats.org/'
                                 b'officeDocument/2006/relationships/worksheet" Target="worksheets/sheet99.xml"/>'
                                 b'</Relationships>')
        files["xl/workbook.xml"] = files["xl/workbook.xml"].replace(
            b"</sheets>", b'<sheet name="Extra" sheetId="99" r:id="rIdBench"/></sheets>')
    else:
        wb = re.search(rf'<sheet name="{sheet}" sheetId="\d+"[^>]*r:id="([^"]+)"'.encode(), files["xl/workbook.xml"])
        rel = next(m for m in re.findall(rb"<Relationship [^>]*>", files["xl/_rels/workbook.xml.rels"])
                   if b'Id="' + wb[1] + b'"' in m)
        part = "xl/" + re.search(rb'Target="([^"]+)"', rel)[1].decode().removeprefix("/xl/")
        files[part] = body
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name, b in files.items():
            z.writestr(name, b)
    return out.getvalue()


def cells(n: int, per_row: int = 10) -> str:
    cols = "ABCDEFGHIJ"[:per_row]
    return "".join(f'<row r="{r}">' + "".join(f'<c r="{c}{r}"><v>1</v></c>' for c in cols) + "</row>"
                   for r in range(1, n // per_row + 1))


CASES = {
    "big 300 players x 5 rounds": lambda: big_workbook(),
    "real LibreOffice fixture (17 players)": small_workbook,
    "unused sheet, 500,000 cells": lambda: with_sheet_xml(bench_base(), None, cells(500_000)),
    "unused sheet, 1,000,000 cells": lambda: with_sheet_xml(bench_base(), None, cells(1_000_000)),
    "Round 1 with 1,000,000 cells": lambda: with_sheet_xml(bench_base(), "Round 1", cells(1_000_000)),
    "Round 1 with 1,000,000 empty rows": lambda: with_sheet_xml(
        bench_base(), "Round 1", "".join(f'<row r="{r}"/>' for r in range(1, 1_000_001))),
}


def bench_base() -> bytes:
    """A small judgekit-written workbook (the hostile files of 28.1 were a few tens of KB)."""
    from judgekit.tournament import archon
    event = archon.ArchonEvent(name="Tiny", players=[archon.ArchonPlayer(k, f"P{k}", "X") for k in range(1, 5)],
                               rounds=[[[archon.ArchonSeat(k, v) for k, v in zip(range(1, 5), (1, 1, 1, 1))]]])
    return archon.write_workbook(event)


def rss_kb(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def run_case(name: str) -> dict:
    import openpyxl  # noqa: F401 (warm: the server has imported it once)

    from judgekit.db import migrate, open_db
    from judgekit.tournament import store
    data = CASES[name]()
    with tempfile.TemporaryDirectory() as tmp:
        db = open_db(Path(tmp) / "bench.db")
        migrate(db)
        before = rss_kb("VmRSS")
        Path("/proc/self/clear_refs").write_text("5")   # reset the peak to now
        t = time.perf_counter()
        try:
            out = store.import_workbook(db, data)
            answer = f"imported: event {out['tournament']}"
        except store.TournamentError as exc:
            answer = f"refused: {exc.message[:110]}"
        seconds = time.perf_counter() - t
        peak = rss_kb("VmHWM")
    return {"case": name, "kb": round(len(data) / 1024), "seconds": round(seconds, 3),
            "extra_mb": round((peak - before) / 1024, 1), "answer": answer}


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--case":
        print(json.dumps(run_case(sys.argv[2])))
        return
    print(f"{'case':40} {'size':>8} {'time':>8} {'extra':>9}  answer")
    for name in CASES:
        out = subprocess.run([sys.executable, __file__, "--case", name], capture_output=True, text=True)
        if out.returncode:
            print(name, "failed:", out.stderr[-500:])
            continue
        r = json.loads(out.stdout.strip().splitlines()[-1])
        print(f"{r['case']:40} {r['kb']:>6} KB {r['seconds']:>6.2f} s {r['extra_mb']:>6.1f} MB  {r['answer']}")


if __name__ == "__main__":
    main()
