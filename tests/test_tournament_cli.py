"""`judgekit demo` and `judgekit export standings|seating`."""
from __future__ import annotations

import csv
import io
import json

from click.testing import CliRunner

from judgekit.cli import main


def test_demo_then_exports(tmp_path):
    runner = CliRunner()
    inst = str(tmp_path / "inst")
    r = runner.invoke(main, ["--instance", inst, "demo"])
    assert r.exit_code == 0, r.output
    assert "demo tournament 1" in r.output

    r = runner.invoke(main, ["--instance", inst, "export", "standings", "--tournament", "1"])
    assert r.exit_code == 0, r.output
    rows = list(csv.DictReader(io.StringIO(r.output)))
    assert len(rows) == 12
    assert [row["rank"] for row in rows[:5]] == ["1", "2", "3", "4", "5"]  # ties tossed by the demo
    assert sum(1 for row in rows if row["vekn"] == "") == 1                 # one unrated player

    r = runner.invoke(main, ["--instance", inst, "export", "seating", "--tournament", "1",
                             "--round", "2", "--format", "json"])
    assert r.exit_code == 0, r.output
    seats = json.loads(r.output)
    assert len(seats) == 12 and {s["round"] for s in seats} == {2}
    assert sorted(s["table"] for s in seats) == [1] * 4 + [2] * 4 + [3] * 4


def test_export_unknown_tournament_fails_cleanly(tmp_path):
    r = CliRunner().invoke(main, ["--instance", str(tmp_path / "i"), "export", "standings", "--tournament", "7"])
    assert r.exit_code == 1
    assert "no tournament 7" in r.output
