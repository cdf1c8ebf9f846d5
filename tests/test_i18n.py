"""The translation hook: every message has a catalog entry, the reader's language is picked
from Accept-Language, and a second catalog changes a page and an API error without code."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from judgekit import i18n
from judgekit.errors import AppError
from judgekit.i18n import Catalog, Message, negotiate
from tests.conftest import app_with_language

ROOT = Path(__file__).resolve().parent.parent


def _tool():
    spec = importlib.util.spec_from_file_location("i18n_catalog", ROOT / "tools" / "i18n_catalog.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_message_in_use_is_in_the_english_catalog_and_nothing_else():
    """The extraction check: a template string, a flashed message or an error code without
    its entry in en.json (or an entry nobody uses) fails here. Fix: tools/i18n_catalog.py --write."""
    found, problems = _tool().extract()
    assert problems == []
    have = json.loads((i18n.CATALOG_DIR / "en.json").read_text(encoding="utf-8"))
    assert sorted(set(found) - set(have)) == []
    assert sorted(set(have) - set(found)) == []
    assert [k for k in found if have[k] != found[k]] == []
    assert "Rules" in have and have["tournament.no-tournament"] == "no tournament %(id)s"


def test_the_extraction_finds_template_text_and_codes(tmp_path):
    tool = _tool()
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "a.html").write_text('<p>{{ _("Hello %(name)s", name=x) }}</p>{% trans %}Bye{% endtrans %}')
    (tmp_path / "m.py").write_text('from judgekit.i18n import Message\n'
                                   'E = Message("x.one", "One %(n)s", n=1)\nF = Message("x.one", "Other")\n')
    found, problems = tool.extract(tmp_path)
    assert found == {"Bye": "Bye", "Hello %(name)s": "Hello %(name)s", "x.one": "One %(n)s"}
    assert len(problems) == 1 and "two English texts" in problems[0]


@pytest.mark.parametrize("accepted, language", [
    ([("de-AT", 1.0), ("en", 0.5)], "de"),
    ([("fr", 1.0), ("de", 0.8)], "de"),
    ([("de", 0.0), ("fr", 1.0)], "en"),       # q=0: not acceptable
    ([("*", 1.0)], "en"),
    ([], "en"),
])
def test_negotiate_falls_back_to_english(accepted, language):
    assert negotiate(accepted, ["en", "de"]) == language


def test_a_message_renders_in_the_catalog_language_and_falls_back_to_english():
    m = Message("x.late", "%(n)s minutes late", n=3)
    assert str(m) == "3 minutes late"
    assert m.render(Catalog("xx", {"x.late": "%(n)s Minuten zu spät"})) == "3 Minuten zu spät"
    assert m.render(Catalog("xx", {})) == "3 minutes late"
    assert m.render(Catalog("xx", {"x.late": "%(oops)s"})) == "%(oops)s"   # a slip is shown, not raised
    err = AppError(404, m, "n", extra=1)
    assert err.message == "3 minutes late" and err.code == "x.late"
    assert err.body() == {"error": "3 minutes late", "status": 404, "code": "x.late", "field": "n", "extra": 1}
    plain = AppError(400, "Pick one of the answers shown.")   # not converted yet: the text is the id
    assert plain.code is None and plain.text(Catalog("xx", {"Pick one of the answers shown.": "Wähle"})) == "Wähle"


@pytest.fixture
def two_languages(tmp_path, template_db, shared_index):
    """An app whose catalogs folder has English and a fake second language "xx"."""
    return app_with_language(tmp_path, template_db, shared_index, {
        "Rules": "XX-Regeln",
        "Skip to content": "XX-Zum Inhalt",
        "tournament.no-tournament": "XX-kein Turnier %(id)s",
        "There is nothing at this address.": "XX-hier ist nichts",
    })


def test_a_second_catalog_changes_a_page_and_an_api_error_without_code(two_languages):
    client = two_languages.test_client()
    page = client.get("/", headers={"Accept-Language": "xx-YY, en;q=0.5"})
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and '<html lang="xx">' in html
    assert "XX-Regeln</a>" in html and "XX-Zum Inhalt" in html
    assert "Quick ref" in html                      # not in xx.json: English
    assert "Accept-Language" in page.headers.get("Vary", "")

    english = client.get("/", headers={"Accept-Language": "de, en;q=0.5"}).get_data(as_text=True)
    assert '<html lang="en">' in english and ">Rules</a>" in english and "XX-" not in english

    api = client.get("/api/tournaments/424242", headers={"Accept-Language": "xx"})
    assert api.status_code == 404
    assert api.get_json() == {"error": "XX-kein Turnier 424242", "status": 404, "code": "tournament.no-tournament"}
    api_en = client.get("/api/tournaments/424242")
    assert api_en.get_json()["error"] == "no tournament 424242"

    missing = client.get("/no/such/page", headers={"Accept-Language": "xx"})
    assert missing.status_code == 404 and "XX-hier ist nichts" in missing.get_data(as_text=True)


def test_with_english_alone_pages_do_not_vary_on_accept_language(app):
    """One language: the pages do not depend on the header (a cache keeps one copy)."""
    r = app.test_client().get("/", headers={"Accept-Language": "xx"})
    assert r.status_code == 200 and "Accept-Language" not in r.headers.get("Vary", "")
    assert '<html lang="en">' in r.get_data(as_text=True)


def test_the_recorder_stores_no_words_and_words_each_line_when_read(db):
    """A log line is stored without English: its words are made when it is read, in the
    reader's language; a row stored before (with its English summary) reads as stored."""
    from judgekit.recorder import store
    gid = store.create_game(db, ["Ann", "Ben", "Cy", "Di"])
    made = store.append_events(db, gid, [{"type": "game.start"}, {"type": "block.declare", "seat": 2,
                                                                   "minion": "Carlton Van Wyk"}])
    assert [e["summary"] for e in made.events] == ["Clock started", "Ben blocks with Carlton Van Wyk"]
    stored = [json.loads(r[0]) for r in db.conn.execute("SELECT line FROM event_lines WHERE game_id = ? ORDER BY seq",
                                                       [gid])]
    assert stored and all("summary" not in line for line in stored)
    assert "Ben blocks" not in json.dumps(stored)

    xx = Catalog("xx", {"Clock started": "XX-Uhr läuft", "%(who)s blocks with %(minion)s": "XX-%(who)s blockt mit %(minion)s"})
    read = store.read_game(db, gid, words=xx.render)
    assert [json.loads(t)["summary"] for t in read.lines] == ["XX-Uhr läuft", "XX-Ben blockt mit Carlton Van Wyk"]
    assert [json.loads(t)["summary"] for t in store.read_game(db, gid).lines][1] == "Ben blocks with Carlton Van Wyk"

    old = dict(stored[0], summary="Clock started (as stored)")   # a row from before: its words kept
    db.conn.execute("UPDATE event_lines SET line = ? WHERE game_id = ? AND seq = ?", [json.dumps(old), gid, old["seq"]])
    assert json.loads(store.read_game(db, gid, words=xx.render).lines[0])["summary"] == "Clock started (as stored)"


def test_a_findings_title_is_worded_when_read_and_a_message_written_for_the_case_stays(db):
    from judgekit.recorder import store
    gid = store.create_game(db, ["Ann", "Ben", "Cy", "Di"])
    made = store.append_events(db, gid, [{"type": "time.extend", "minutes": 6}, {"type": "time.extend", "minutes": 6}])
    assert [(f["code"], f["title"]) for f in made.findings] == [("extension-over-cap", "Extensions over the cap")]
    assert "Extensions over the cap" in json.loads((i18n.CATALOG_DIR / "en.json").read_text(encoding="utf-8"))
    xx = Catalog("xx", {"Extensions over the cap": "XX-Verlängerungen über der Grenze"})
    made_xx = store.append_events(db, gid, {"type": "note", "text": "n"}, words=xx.render)
    read = store.read_game(db, gid, words=xx.render)
    line = json.loads(read.lines[1])
    assert [f["title"] for f in line["findings"]] == ["XX-Verlängerungen über der Grenze"]
    assert [f["title"] for f in read.findings] == ["XX-Verlängerungen über der Grenze"]
    assert line["findings"][0]["message"].startswith("Extensions at this table now total 12 minutes")
    assert made_xx.events[0]["summary"] == "Note: n"
    stored = db.conn.execute("SELECT line FROM event_lines WHERE game_id = ? AND seq = 2", [gid]).fetchone()[0]
    assert "Extensions over the cap" in stored and "XX-" not in stored   # as the engine made it
    assert json.loads(store.read_game(db, gid).lines[1])["findings"][0]["title"] == "Extensions over the cap"
