"""Public APIs of dependencies only (issue 26): the package imports a dependency's documented
names, never a name or module that starts with an underscore, nor a module the library
keeps for itself (its protocol classes, its adapters' internals). Read from the source, so
a new import of that kind fails here before it can break on the library's next release."""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "judgekit"

#: Modules of dependencies that are their internals (the documented names are re-exported at
#: the top: `uvicorn.Config`, `a2wsgi.WSGIMiddleware`). waitress is no longer a dependency.
INTERNAL = ("uvicorn.protocols", "uvicorn.server", "uvicorn.config", "uvicorn.lifespan", "uvicorn.loops",
            "a2wsgi.wsgi", "a2wsgi.asgi", "waitress")


def imported(path: Path) -> list[tuple[str, int]]:
    """(module or module.name, line) for every absolute import of something outside judgekit."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out += [(f"{node.module}.{a.name}", node.lineno) for a in node.names]
    return [(name, line) for name, line in out if not name.startswith("judgekit")]


def violations(path: Path) -> list[str]:
    found = []
    for name, line in imported(path):
        parts = name.split(".")
        private = any(p.startswith("_") and not (p.startswith("__") and p.endswith("__")) for p in parts)
        internal = any(name == m or name.startswith(m + ".") for m in INTERNAL)
        if private or internal:
            found.append(f"{path.name}:{line}: {name}")
    return found


def test_no_private_or_internal_module_of_a_dependency_is_imported():
    assert [v for path in sorted(PACKAGE.rglob("*.py")) for v in violations(path)] == []


def test_the_check_sees_what_it_forbids(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("from waitress.channel import HTTPChannel\nfrom uvicorn.protocols.http import h11_impl\n"
                      "import a2wsgi._x\nfrom uvicorn import Config\nfrom a2wsgi import WSGIMiddleware\n",
                      encoding="utf-8")
    assert violations(sample) == ["sample.py:1: waitress.channel.HTTPChannel",
                                  "sample.py:2: uvicorn.protocols.http.h11_impl", "sample.py:3: a2wsgi._x"]
