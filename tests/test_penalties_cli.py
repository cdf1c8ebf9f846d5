"""`judgekit export penalties`, `judgekit codes` and the codes printed by `judgekit demo`."""
from __future__ import annotations

import csv
import io
import json

from click.testing import CliRunner

from judgekit.auth import store as auth_store
from judgekit.cli import main
from judgekit.db import migrate, open_db
from judgekit.tournament import store as tstore
from judgekit.tournament.penalties import store as pstore


def seed(inst):
    db = open_db(inst / "judgekit.db")
    migrate(db)
    tid = tstore.create_tournament(db, {"name": "CLI Cup"})
    pid = tstore.add_player(db, tid, {"name": "=2+3", "vekn": "1"})["id"]
    pstore.issue(db, tid, {"player": pid, "infraction": "slow play", "description": "-slow-"}, judge="Jo", role="judge")
    pstore.issue(db, tid, {"player_name": "Ünal", "infraction": "outside assistance", "description": "x"},
                 judge="Hal", role="head_judge")
    db.close()
    return tid


def test_export_penalties_csv_and_json(tmp_path):
    inst = tmp_path / "inst"
    inst.mkdir()
    tid = seed(inst)
    r = CliRunner().invoke(main, ["--instance", str(inst), "export", "penalties", "--tournament", str(tid)])
    assert r.exit_code == 0, r.output
    rows = list(csv.DictReader(io.StringIO(r.output)))
    assert [row["player_name"] for row in rows] == ["'=2+3", "Ünal"]
    assert rows[0]["description"] == "'-slow-" and rows[0]["penalty"] == "Warning"
    assert rows[1]["penalty"] == "Standings Adjustment" and rows[1]["approved_by"] == "Hal"
    r = CliRunner().invoke(main, ["--instance", str(inst), "export", "penalties", "--tournament", str(tid),
                                  "--format", "json"])
    data = json.loads(r.output)
    assert r.exit_code == 0 and [d["player_name"] for d in data] == ["=2+3", "Ünal"]
    r = CliRunner().invoke(main, ["--instance", str(inst), "export", "penalties", "--tournament", str(tid),
                                  "--excel"])
    assert r.output.startswith("\ufeffid,time,kind")


def test_export_penalties_of_an_unknown_tournament(tmp_path):
    r = CliRunner().invoke(main, ["--instance", str(tmp_path / "i"), "export", "penalties", "--tournament", "9"])
    assert r.exit_code == 1 and "no tournament 9" in r.output


def test_codes_command_replaces_the_codes(tmp_path):
    inst = tmp_path / "inst"
    inst.mkdir()
    tid = seed(inst)
    r = CliRunner().invoke(main, ["--instance", str(inst), "codes", "--tournament", str(tid), "--role", "judge"])
    assert r.exit_code == 0, r.output
    role, code = r.stdout.split()
    assert role == "judge" and code.startswith("J-")
    db = open_db(inst / "judgekit.db")
    assert auth_store.check_code(db, tid, code) == ("judge", 1)
    db.close()
    r2 = CliRunner().invoke(main, ["--instance", str(inst), "codes", "--tournament", str(tid)])
    lines = dict(line.split() for line in r2.stdout.splitlines())
    assert set(lines) == {"judge", "head_judge", "organizer"} and lines["judge"] != code
    db = open_db(inst / "judgekit.db")
    assert auth_store.check_code(db, tid, code) is None
    db.close()
    bad = CliRunner().invoke(main, ["--instance", str(inst), "codes", "--tournament", "77"])
    assert bad.exit_code == 1 and "no tournament 77" in bad.output


def test_demo_prints_working_codes(tmp_path, demo):
    inst = demo.copy(tmp_path / "inst")
    r = demo.result
    assert r.exit_code == 0
    line = next(x for x in r.output.splitlines() if x.startswith("sign-in codes:"))
    pairs = dict(p.split() for p in line.removeprefix("sign-in codes: ").split(", "))
    db = open_db(inst / "judgekit.db")
    assert auth_store.check_code(db, 1, pairs["head_judge"]) == ("head_judge", 1)
    # the organizer is told where to use their code (README: the first commands)
    hint = next(x for x in r.output.splitlines() if x.startswith("organizer:"))
    assert hint == f"organizer: open http://127.0.0.1:5000/tournaments/1 and sign in with {pairs['organizer']}"
    assert auth_store.check_code(db, 1, pairs["organizer"]) == ("organizer", 1)
    db.close()
