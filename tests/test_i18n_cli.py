"""The command line's lines for people go through the catalog, in the language of the
environment's locale when a catalog has it (English otherwise, word for word as before)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from judgekit import cli, i18n
from judgekit.cli import main
from judgekit.cli_shared import locale_preferences
from judgekit.db import open_db
from judgekit.tournament.store.registration import create_tournament
from tests.conftest import catalogs_with

ROOT = Path(__file__).resolve().parent.parent
NO_LOCALE = {"LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": None}


@pytest.mark.parametrize("environ, wanted", [
    ({"LANG": "fr_FR.UTF-8"}, ["fr_FR"]),
    ({"LANG": "fr_FR.UTF-8", "LC_ALL": "de_DE@euro"}, ["de_DE"]),          # LC_ALL wins
    ({"LANG": "fr_FR", "LC_MESSAGES": "pt_BR.UTF-8"}, ["pt_BR"]),
    ({"LANG": "fr_FR.UTF-8", "LANGUAGE": "xx:de"}, ["xx", "de", "fr_FR"]),  # GNU's list first
    ({"LC_ALL": "C", "LANGUAGE": "de"}, []),                               # the C locale: English
    ({"LANG": "C.UTF-8"}, []),
    ({}, []),
])
def test_the_language_comes_from_the_locale_variables(environ, wanted):
    found = locale_preferences(environ)
    assert [tag for tag, _ in found] == wanted
    assert [w for _, w in found] == sorted((w for _, w in found), reverse=True)   # best first


@pytest.fixture
def xx_catalog(tmp_path, monkeypatch):
    """The package's catalogs plus a fake language "xx"."""
    folder = catalogs_with(tmp_path / "translations", {
        "tournament.no-tournament": "XX-kein Turnier %(id)s",
        "%(count)s players registered in tournament %(tournament)s": "XX-%(count)s Spieler im Turnier %(tournament)s",
    })
    monkeypatch.setattr(i18n, "CATALOG_DIR", folder)
    return folder


def test_the_command_line_speaks_the_locale_language_and_english_without_one(tmp_path, xx_catalog):
    runner = CliRunner()
    inst = str(tmp_path / "inst")
    xx = dict(NO_LOCALE, LANG="xx_YY.UTF-8")
    r = runner.invoke(main, ["--instance", inst, "export", "standings", "--tournament", "7"], env=xx)
    assert r.exit_code == 1 and r.output.strip().splitlines()[-1] == "judgekit: XX-kein Turnier 7"
    r = runner.invoke(main, ["--instance", inst, "export", "standings", "--tournament", "7"], env=dict(NO_LOCALE, LANG="C"))
    assert r.exit_code == 1 and r.output.strip().splitlines()[-1] == "judgekit: no tournament 7"

    db = open_db(Path(inst) / "judgekit.db")    # made by the export above
    tid = create_tournament(db, {"name": "Cup"})
    db.close()
    listing = tmp_path / "players.txt"
    listing.write_text("Ana Silva\nBo Dias\n", encoding="utf-8")
    r = runner.invoke(main, ["--instance", inst, "import", "players", str(listing), "--tournament", str(tid)], env=xx)
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[-1] == f"judgekit: XX-2 Spieler im Turnier {tid}"
    r = runner.invoke(main, ["--instance", inst, "import", "players", str(listing), "--tournament", str(tid)],
                      env=dict(NO_LOCALE, LANGUAGE="xx", LANG="C"))   # the C locale: LANGUAGE is not read
    assert r.exit_code == 0 and r.output.splitlines()[-1] == f"judgekit: 2 players registered in tournament {tid}"


def _words_outside_the_catalog(node: ast.AST) -> list[str]:
    """The words of the literal text in an expression, leaving out what goes through `_`
    and what is computed (a join's separator, a format spec)."""
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name) and node.func.id == "_":
            return []
        return [w for arg in node.args if not isinstance(node.func, ast.Attribute)
                for w in _words_outside_the_catalog(arg)]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [w for w in re.findall(r"[A-Za-z]{2,}", node.value) if w != "judgekit"]
    if isinstance(node, ast.JoinedStr):
        return [w for part in node.values for w in _words_outside_the_catalog(part)]
    if isinstance(node, ast.FormattedValue):
        return _words_outside_the_catalog(node.value)
    if isinstance(node, (ast.BinOp, ast.IfExp)):
        return [w for child in ast.iter_child_nodes(node) for w in _words_outside_the_catalog(child)]
    return []


def test_the_check_finds_english_written_out_in_a_line():
    line = ast.parse('click.echo(f"judgekit: {n} players registered" + _("x"))').body[0].value
    assert _words_outside_the_catalog(line.args[0]) == ["players", "registered"]
    line = ast.parse('click.echo("judgekit: " + _("%(n)s players", n=n))').body[0].value
    assert _words_outside_the_catalog(line.args[0]) == []


def test_every_line_the_command_line_prints_for_people_goes_through_the_catalog():
    """click.echo and Fail take a catalog text (`_`) or data (JSON, CSV, a search result's
    own words), never English written in the code (cli.py and the modules it is split into)."""
    modules = sorted((ROOT / "judgekit").glob("cli*.py"))
    assert {m.name for m in modules} >= {"cli.py", "cli_shared.py", "cli_event.py"}
    english = []
    for module in modules:
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and node.args and (
                    (isinstance(node.func, ast.Attribute) and node.func.attr == "echo") or
                    (isinstance(node.func, ast.Name) and node.func.id == "Fail")):
                words = _words_outside_the_catalog(node.args[0])
                if words:
                    english.append(f"{module.name}:{node.lineno}: {' '.join(words)}")
    assert english == []
    assert cli.start_lines("127.0.0.1", 5000)[0] == "open http://127.0.0.1:5000/ on this machine"
