"""The browser tests wait for conditions (issue 15 §3): a lint over tests/browser.

- A `wait_for_function` predicate is a function ("() => …", "x => …"): the app's
  Content-Security-Policy forbids eval, and Playwright evals a bare expression it has to
  poll (an EvalError on a page that is still settling: the flakiest kind of failure).
- No `bounding_box()` (a box read once, before layout settles: the trainer test's flake),
  no `wait_for_timeout` or `time.sleep` (a fixed wait) outside the polling helpers.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

BROWSER = Path(__file__).resolve().parent / "browser"
FILES = sorted(p for p in BROWSER.glob("*.py"))
FUNCTION = re.compile(r"^\s*(?:async\s+)?(?:\(|[A-Za-z_$][\w$]*\s*=>|function\b)")


def _calls(tree, name):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == name:
            yield node


def _text(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):   # f-strings: the literal start is what counts
        first = node.values[0] if node.values else None
        return first.value if isinstance(first, ast.Constant) else "("
    return None


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_wait_for_function_gets_a_function(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bad = []
    for call in _calls(tree, "wait_for_function"):
        text = _text(call.args[0]) if call.args else None
        if text is not None and not FUNCTION.match(text):
            bad.append(f"line {call.lineno}: {text[:60]!r}")
    assert bad == [], f"{path.name}: write these as functions ('() => …'): {bad}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_no_one_shot_boxes_and_no_fixed_waits(path):
    if path.name == "helpers.py":           # eventually() polls with a short interval
        return
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bad = [f"line {c.lineno}: {c.func.attr}" for name in ("bounding_box", "wait_for_timeout")
           for c in _calls(tree, name)]
    bad += [f"line {c.lineno}: time.sleep" for c in _calls(tree, "sleep")
            if isinstance(c.func.value, ast.Name) and c.func.value.id == "time"]
    assert bad == [], f"{path.name}: wait for a condition instead: {bad}"


def test_the_lint_sees_what_it_looks_for(tmp_path):
    sample = ast.parse('page.wait_for_function("a > b")\npage.wait_for_function("() => a > b")\n'
                       'page.locator("x").bounding_box()\n')
    texts = [_text(c.args[0]) for c in _calls(sample, "wait_for_function")]
    assert [bool(FUNCTION.match(t)) for t in texts] == [False, True]
    assert len(list(_calls(sample, "bounding_box"))) == 1
