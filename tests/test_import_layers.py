"""The package's layers, as a ratchet (issue 26): which areas import which, read from the
source (top-level and in-function imports alike). The debts that remain are listed here by
name; a new two-way tie between areas, a new area imported from the game's bottom modules,
or Flask imported outside a views module, the app factory or the CLI fails this test.
Pay a debt: remove it from `KNOWN_TWO_WAY`; the test then holds it paid."""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "judgekit"

#: Two-way ties between areas still to untangle (issue 26): nothing may be added here.
KNOWN_TWO_WAY = {
    frozenset(("auth", "tournament")), frozenset(("cards", "offline")), frozenset(("cards", "recorder")),
    frozenset(("cards", "rules")), frozenset(("live", "tournament")), frozenset(("recorder", "tournament")),
}
#: Top-level modules of the package that are the bottom layer: they import no area.
BOTTOM = ("paths.py", "timetext.py", "inputs.py", "errors.py", "i18n.py", "headers.py", "qr.py", "netinfo.py")
#: Where Flask may be imported: the web layer.
FLASK_ALLOWED = ("views", "__init__", "cli", "blueprints", "errors", "headers", "logs")


def area_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "judgekit" or len(parts) < 2:
        return None
    return parts[1] if (PACKAGE / parts[1]).is_dir() else None


def imports_of(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append(node.module)
            out += [f"{node.module}.{a.name}" for a in node.names]
    return out


def modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        yield path, ".".join(rel.parts)


def test_no_new_two_way_tie_between_areas():
    edges: set[tuple[str, str]] = set()
    for path, name in modules():
        src = area_of(name)
        if src is None:
            continue
        for target in imports_of(path):
            dst = area_of(target)
            if dst and dst != src:
                edges.add((src, dst))
    two_way = {frozenset(e) for e in edges if (e[1], e[0]) in edges}
    assert two_way - KNOWN_TWO_WAY == set(), f"new two-way ties: {sorted(map(sorted, two_way - KNOWN_TWO_WAY))}"
    # a debt paid stays paid: the list names only ties that still exist
    assert KNOWN_TWO_WAY - two_way == set(), f"paid, remove from KNOWN_TWO_WAY: {sorted(map(sorted, KNOWN_TWO_WAY - two_way))}"


def test_the_bottom_modules_import_no_area():
    for name in BOTTOM:
        path = PACKAGE / name
        areas = {area_of(t) for t in imports_of(path)} - {None}
        assert areas == set(), f"{name} imports {sorted(areas)}"


def test_flask_only_in_the_web_layer():
    offenders = []
    for path, name in modules():
        if any(t == "flask" or t.startswith("flask.") for t in imports_of(path)):
            if not any(part in FLASK_ALLOWED or part.endswith("views") for part in name.split(".")[1:]):
                offenders.append(name)
    assert offenders == []
