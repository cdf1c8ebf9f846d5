"""What the server holds in memory: libraries only some pages need are not loaded at start,
and sign-ins' scrypt blocks are given back (judgekit/malloc.py). Each check runs in a fresh
interpreter, so what this test session imported does not count."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from judgekit import malloc


def run(code: str) -> dict:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         env=dict(os.environ))
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_server_start_does_not_load_numpy_or_openpyxl(indexed_instance):
    # a start on a built index (the session's copy): the build is the first start's work
    got = run(f"""
import json, sys
from judgekit import create_app
app = create_app({{"INSTANCE": {str(indexed_instance)!r}, "TESTING": True}})
c = app.test_client()
status = c.get("/api/cards/complete?q=modius").status_code
print(json.dumps({{"status": status, "loaded": sorted(m for m in ("numpy", "openpyxl", "pandas") if m in sys.modules)}}))
""")
    assert got == {"status": 200, "loaded": []}


def test_the_archon_workbook_still_loads_openpyxl_when_written(tmp_path):
    got = run("""
import json, sys
import judgekit.db, sqlite_utils
from judgekit.tournament import archon
before = "openpyxl" in sys.modules
text = archon._text("Ann\x01 Smith")   # a cell's text, cleaned by openpyxl's rule
import numpy  # krcg's seating imports numpy later: sqlite-utils' hiding of it left no trace
print(json.dumps({"before": before, "after": "openpyxl" in sys.modules, "text": text,
                  "numpy": numpy.__name__}))
""")
    assert got == {"before": False, "after": True, "text": "Ann Smith", "numpy": "numpy"}


def rss_growth_after_scrypt_in_threads(tune: bool) -> float:
    got = run(f"""
import hashlib, json, threading
from judgekit import malloc
if {tune!r}:
    assert malloc.tune()
def rss():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmRSS:")) / 1024
def check():
    hashlib.scrypt(b"J7KQ3M9XP4TRW", salt=b"s" * 16, n=2 ** 14, r=8, p=1, dklen=32)
check()
before = rss()
for _ in range(4):   # four sign-ins, each on another worker thread (as waitress runs them)
    t = threading.Thread(target=check)
    t.start()
    t.join()
print(json.dumps({{"growth": rss() - before}}))
""")
    return got["growth"]


@pytest.mark.skipif(malloc._glibc() is None, reason="glibc only")
def test_scrypt_blocks_are_given_back_once_tuned():
    # untuned, glibc keeps at least one 16 MB block in a thread's heap arena; tuned, none
    assert rss_growth_after_scrypt_in_threads(tune=False) >= 12
    assert rss_growth_after_scrypt_in_threads(tune=True) < 6
