"""The package's layers, as a ratchet (issue 26): which areas import which, read from the
source (top-level and in-function imports alike). A two-way tie between areas, an import
circle between modules, an area imported from the bottom modules or from the game layer,
or Flask imported outside a views module, the app factory or the CLI fails this test."""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "judgekit"

#: Two-way ties between areas still to untangle (issue 26): all paid; nothing may be added here.
KNOWN_TWO_WAY: set[frozenset[str]] = set()
#: Top-level modules of the package that are the bottom layer: they import no area.
BOTTOM = ("paths.py", "timetext.py", "inputs.py", "errors.py", "i18n.py", "headers.py", "qr.py", "netinfo.py",
          "outbox.py", "collector.py", "version.py")
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


def test_the_game_imports_no_other_area():
    # the game layer (cards, table, points, clock) is the bottom every area may import
    for path, name in modules():
        if area_of(name) != "game":
            continue
        imported = [t for t in imports_of(path) if t.startswith("judgekit.")]
        areas = {area_of(t) for t in imported} - {None, "game"}
        assert areas == set(), f"{name} imports {sorted(areas)}"
        tops = {t.split(".")[1] for t in imported if area_of(t) is None}
        assert tops <= {b.removesuffix(".py") for b in BOTTOM}, f"{name} imports {sorted(tops)}"


def _module_graph() -> dict[str, set[str]]:
    """module -> the judgekit modules it imports (in functions too; `from X import Y` is the
    module X.Y when there is one, else X; a package is its `__init__`)."""
    names = {}
    for path, name in modules():
        names[name.removesuffix(".__init__")] = path
    graph: dict[str, set[str]] = {}
    for name, path in names.items():
        is_pkg = path.name == "__init__.py"
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        out = set()
        for node in ast.walk(tree):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = name.split(".") if is_pkg else name.split(".")[:-1]
                base = base[: len(base) - max(node.level - 1, 0)] if node.level else []
                module = ".".join(base + ([node.module] if node.module else []))
                targets = [f"{module}.{a.name}" if f"{module}.{a.name}" in names else module for a in node.names]
            for t in targets:
                while t not in names and "." in t:
                    t = t.rsplit(".", 1)[0]
                if t in names and t != name:
                    out.add(t)
        graph[name] = out
    return graph


def test_no_import_circle_between_modules():
    graph = _module_graph()
    # a module that can reach itself again is in a circle (lazy imports count: they hide one)
    in_circle = []
    for start in graph:
        seen, todo = set(), list(graph[start])
        while todo:
            m = todo.pop()
            if m == start:
                in_circle.append(start)
                break
            if m not in seen:
                seen.add(m)
                todo.extend(graph.get(m, ()))
    assert in_circle == [], f"modules in an import circle: {sorted(in_circle)}"


#: The layers from the bottom (docs/architecture.md): an area's domain modules import their
#: own layer or below; the web layer (views, the app factory, the CLI) may import anything.
LAYERS = (
    {"game", *(b.removesuffix(".py") for b in BOTTOM), "db", "outbox", "logs", "malloc"},
    {"rules", "cards", "recorder", "trainer"},
    {"auth", "tournament", "decks"},
    {"live", "offline"},
)
WEB_MODULES = {"judgekit", "judgekit.cli", "judgekit.cli_shared", "judgekit.cli_event", "judgekit.blueprints",
               "judgekit.views"}


def _layer(module: str) -> int | None:
    """The layer of a judgekit module (None: the web layer)."""
    parts = module.split(".")
    if module.removesuffix(".__init__") in WEB_MODULES or any(p.endswith("views") for p in parts[1:]):
        return None
    found = [i for i, names in enumerate(LAYERS) if parts[1] in names]
    assert found, f"{module}: name its layer in LAYERS (docs/architecture.md)"
    return found[0]


def test_no_upward_import():
    graph = _module_graph()
    upward = []
    for module, targets in graph.items():
        mine = _layer(module)
        if mine is None:
            continue
        for target in targets:
            theirs = _layer(target)
            if theirs is None or theirs > mine:
                upward.append(f"{module} -> {target}")
    assert upward == [], f"imports that run up the layers: {sorted(upward)}"
