"""A sample of the fuzz run (tools/fuzz.py; the long run is `python tools/fuzz.py`): every
endpoint and method of the url_map, each identity, bad bodies, parameters and headers, a
fixed seed. No answer is a 5xx and nothing is logged with a traceback."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[1] / "tools" / "fuzz.py"


@pytest.fixture(scope="module")
def fuzz():
    spec = importlib.util.spec_from_file_location("judgekit_fuzz_tool", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_fuzz_sample_gets_no_5xx_and_logs_no_traceback(app, fuzz):
    sender = fuzz.InProcess(app)
    routes = fuzz.endpoints(app)
    try:
        result = fuzz.run(sender, routes, requests=1500, seed=15, sessions=sender.session_for,
                          log=lambda line: None)
    finally:
        sender.close()
    assert result["failures"] == []
    assert sender.tracebacks == []
    assert result["endpoints_hit"] == {(e, m) for e, m, _ in routes}  # new endpoints included
    # the sample reached the views, not only the sign-in checks
    assert result["statuses"][200] > 200 and result["statuses"][400] > 100


def test_the_fuzzer_finds_a_500(app, fuzz):
    """The harness itself: a view that crashes on bad input is reported, with its traceback."""
    @app.post("/api/fuzz-probe")
    def probe():
        from judgekit.views import json_body
        return {"n": 1 / len(json_body())}  # ZeroDivisionError on an empty list or object

    sender = fuzz.InProcess(app)
    try:
        result = fuzz.run(sender, [("probe", "POST", "/api/fuzz-probe")], requests=60, seed=1,
                          log=lambda line: None)
    finally:
        sender.close()
    assert result["failures"] and result["failures"][0].startswith("500 POST /api/fuzz-probe")
    assert any("ZeroDivisionError" in t or "division" in t for t in sender.tracebacks)
