"""A hung test fails the run instead of holding it forever.

One CI run stopped at 97 % with both cores idle: a browser test waited inside a Playwright
call (`page.evaluate` of a promise has no timeout) and nothing ended it. The suite's
settings (`timeout` and `timeout_method` in pyproject.toml, pytest-timeout) fail such a
test with the line it waits on (the signal method raises in the test's own thread), and the
worker runs the rest. This runs the suite's own settings on a test that never returns.
"""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"

HANGS = '''
import threading

def test_waits_forever():
    threading.Event().wait()

def test_after_it():
    assert 1 + 1 == 2
'''


def test_a_hung_test_is_reported_and_the_run_goes_on(tmp_path):
    (tmp_path / "test_hangs.py").write_text(HANGS, encoding="utf-8")
    started = time.monotonic()
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(PYPROJECT), "--rootdir", str(tmp_path),
         "-p", "no:cacheprovider", "-n", "1", "-o", "timeout=3", "-o", "addopts=-q -rA",
         "test_hangs.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=240)
    out = run.stdout + run.stderr
    assert run.returncode == 1, out
    assert time.monotonic() - started < 200
    assert "Timeout" in out and "test_waits_forever" in out, out
    assert "threading.Event().wait()" in out, out      # the line it waited on
    assert "1 failed, 1 passed" in out, out
    assert "PASSED test_hangs.py::test_after_it" in out, out
