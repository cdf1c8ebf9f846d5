#!/usr/bin/env python3
"""The source catalog, judgekit/translations/en.json, from the code and the templates.

Usage:
    python tools/i18n_catalog.py            # exit 1 and list the differences if en.json is behind
    python tools/i18n_catalog.py --write    # rewrite en.json (sorted) from what is used

What counts as a message (see judgekit/i18n.py and docs/development.md, "Translations"):
- in templates, `_("...")`, `gettext`, `ngettext` and `{% trans %}` blocks (Jinja's own
  extraction): the id is the English text;
- in Python, `_("...")` (judgekit.views._, for flashed messages and pages; the translator
  argument of the recorder's words) and `N_("...")` (a text kept in a table): the id is the
  English text; `Message("code", "English %(param)s", ...)`: the id is the code; a recorder
  finding's title and default message (`_c(...)` in recorder/findings.py): the English text.
A code used twice must have the same English text both times.
"""
from __future__ import annotations

import argparse
import ast
import json
import sys
from pathlib import Path

from jinja2 import Environment

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "judgekit"
CATALOG = PACKAGE / "translations" / "en.json"


def from_templates(root: Path = PACKAGE) -> dict[str, str]:
    env = Environment(extensions=["jinja2.ext.i18n"])
    found: dict[str, str] = {}
    for path in sorted(root.glob("**/templates/**/*.html")):
        for _line, _func, message in env.extract_translations(path.read_text(encoding="utf-8")):
            for text in message if isinstance(message, tuple) else (message,):
                if isinstance(text, str):
                    found[text] = text
    return found


def from_python(root: Path = PACKAGE) -> tuple[dict[str, str], list[str]]:
    """The messages of the Python code, and the problems (a code with two texts, a
    `Message` whose code or text is not written out)."""
    found: dict[str, str] = {}
    problems: list[str] = []
    for path in sorted(root.glob("**/*.py")):
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source, str(path))
        ours = "judgekit.i18n import" in source   # another module's own `Message` is not ours
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else \
                node.func.attr if isinstance(node.func, ast.Attribute) else None
            where = f"{path.relative_to(root)}:{node.lineno}"
            literal = [isinstance(a, ast.Constant) and isinstance(a.value, str) for a in node.args]
            if name in ("_", "N_") and node.args and literal[0]:
                found[node.args[0].value] = node.args[0].value
            elif name == "_c" and path.name == "findings.py" and len(node.args) >= 5:
                # a recorder finding's title and default message (judgekit.recorder.findings.CODES)
                for i in (1, 4):
                    if literal[i]:
                        found[node.args[i].value] = node.args[i].value
            elif name == "Message" and ours and len(node.args) >= 2:
                if not (literal[0] and literal[1]):
                    problems.append(f"{where}: Message(code, English) must have both as plain strings")
                    continue
                code, english = node.args[0].value, node.args[1].value
                if found.get(code, english) != english:
                    problems.append(f"{where}: {code!r} has two English texts")
                found.setdefault(code, english)
    return found, problems


def extract(root: Path = PACKAGE) -> tuple[dict[str, str], list[str]]:
    """Every message id in use with its English text, and the problems found."""
    python, problems = from_python(root)
    found = from_templates(root)
    for code, english in python.items():
        if found.get(code, english) != english:
            problems.append(f"{code!r}: a template uses it as text, the code as a code with other text")
        found[code] = english
    return dict(sorted(found.items())), problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite en.json from the code and templates")
    args = parser.parse_args(argv)
    found, problems = extract()
    for p in problems:
        print(p, file=sys.stderr)
    if args.write:
        CATALOG.parent.mkdir(exist_ok=True)
        CATALOG.write_text(json.dumps(found, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"{CATALOG.relative_to(ROOT)}: {len(found)} messages")
        return 1 if problems else 0
    have = json.loads(CATALOG.read_text(encoding="utf-8")) if CATALOG.exists() else {}
    missing = [k for k in found if have.get(k) != found[k]]
    stale = [k for k in have if k not in found]
    for k in missing:
        print(f"missing or different: {k!r}", file=sys.stderr)
    for k in stale:
        print(f"no longer used: {k!r}", file=sys.stderr)
    return 1 if problems or missing or stale else 0


if __name__ == "__main__":
    sys.exit(main())
