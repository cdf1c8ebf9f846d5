"""Issue 28, item 6: invisible direction and formatting characters (U+202E, U+200B, tag
characters) never reach a stored name, wherever it enters (a form, the API, a pasted list,
the workbook import); `judgekit publish` with a folder name the system refuses ends with
one line and a non-zero exit."""
from __future__ import annotations

import base64
import re

import pytest
from click.testing import CliRunner

from judgekit.cli import main as cli
from judgekit.inputs import visible_text

RLO, ZWSP, TAG_A, TAG_END = "\u202e", "\u200b", "\U000e0041", "\U000e007f"


@pytest.mark.parametrize("raw, shown", [
    (f"Ann{RLO}htimS", "AnnhtimS"), (f"{ZWSP}Bob{ZWSP} Dias", "Bob Dias"),
    (f"Cy{TAG_A}{TAG_END} Reis", "Cy Reis"), ("Zo\u2066e\u2069 \u200eLi\u200f", "Zoe Li"),
    ("Ana\u00adSilva\ufeff", "AnaSilva"), ("João  Ñuñez", "João Ñuñez"),
    ("👩\u200d💻 Kim", "👩\u200d💻 Kim"),     # the zero-width joiner of an emoji stays
])
def test_visible_text(raw, shown):
    assert visible_text(raw) == shown


def test_names_lose_invisible_characters_wherever_they_enter(client, app):
    r = client.post("/api/tournaments", json={"name": f"Cup{RLO}puC"})
    tid, token = r.get_json()["id"], r.get_json()["token"]
    assert r.get_json()["name"] == "CuppuC"
    org = {"Authorization": f"Bearer {token}"}
    r = client.post(f"/api/tournaments/{tid}/players", headers=org, json={"name": f"Ann{RLO}htimS", "vekn": "100"})
    assert r.status_code == 201, r.get_json()
    r = client.post(f"/api/tournaments/{tid}/players/bulk", headers=org,
                    json={"text": f"{ZWSP}Bob Dias;101\nCy{TAG_A}{TAG_END} Reis;102"})
    assert r.status_code == 201, r.get_json()
    r = client.post(f"/api/tournaments/{tid}/players", headers=org, json={"name": f"{ZWSP}{RLO}", "vekn": "103"})
    assert r.status_code == 400 and r.get_json()["field"] == "name"      # nothing visible left
    names = sorted(p["name"] for p in client.get(f"/api/tournaments/{tid}/players", headers=org)
                   .get_json()["players"])
    assert names == ["AnnhtimS", "Bob Dias", "Cy Reis"]


def test_the_workbook_import_stores_visible_names(client):
    from judgekit.tournament import archon
    ev = archon.ArchonEvent(name=f"Book{ZWSP} Cup", level="Standard Constructed")
    ev.players = [archon.ArchonPlayer(number=k, first=f"P{RLO}{k}", last=f"X{TAG_A}", vekn=str(100 + k))
                  for k in range(1, 9)]
    ev.rounds = [[[archon.ArchonSeat(k, vp) for k, vp in zip(range(1, 5), (4, 0, 0, 0))],
                  [archon.ArchonSeat(k, vp) for k, vp in zip(range(5, 9), (1.5, 0, 0.5, 0.5))]]]
    r = client.post("/api/tournaments/import-archon",
                    json={"workbook": base64.b64encode(archon.write_workbook(ev)).decode()})
    assert r.status_code == 201, r.get_json()
    body = r.get_json()
    assert body["name"] == "Book Cup"
    players = client.get(f"/api/tournaments/{body['id']}/players",
                         headers={"Authorization": f"Bearer {body['token']}"}).get_json()["players"]
    assert sorted(p["name"] for p in players)[0] == "P1 X" and not any(re.search("[\u202e\U000e0041]", p["name"])
                                                                      for p in players)


def test_publish_into_a_name_too_long_is_one_line(tmp_path):
    target = tmp_path / ("a" * 300)
    r = CliRunner().invoke(cli, ["--instance", str(tmp_path / "inst"), "publish", str(target)])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert r.output.count("\n") == 1 and "cannot write here (File name too long)" in r.output
    assert len(r.output) < 200


def test_serve_is_one_process_and_ends_without_a_traceback(indexed_instance, free_port):
    """The search workers (gone) left a BrokenPipe traceback when the server was stopped
    while one started, and cost 226 MB: `judgekit serve` is one process, and an
    interrupt ends it quietly."""
    import os
    import signal
    import subprocess
    import sys
    import time
    import urllib.error
    import urllib.request
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "judgekit.cli", "--instance", str(indexed_instance), "serve",
                             "--port", str(port)], stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:   # its first answer (a small static file), not a fixed wait
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/static/app.css", timeout=10) as r:
                    assert r.status == 200
                break
            except OSError:   # not listening yet, reset, or slow to answer on a busy machine (a timeout)
                if proc.poll() is not None:   # ended: say why (its last lines)
                    raise AssertionError(f"the server did not start: {proc.stderr.read()[-2000:]}")
                time.sleep(0.05)
        # the workers were started with the server, before its first answer
        def parent(pid: str) -> str | None:
            try:
                with open(f"/proc/{pid}/stat") as f:
                    return f.read().rsplit(")", 1)[1].split()[1]
            except OSError:   # ended meanwhile
                return None
        assert [p for p in os.listdir("/proc") if p.isdigit() and parent(p) == str(proc.pid)] == []
        proc.send_signal(signal.SIGINT)
        err = proc.communicate(timeout=30)[1]
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0 and "Traceback" not in err and "BrokenPipe" not in err, err[-2000:]
