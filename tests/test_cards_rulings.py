"""Cards and rulings content: `judgekit cards update` on hand-made wheels (rulings, groups,
references, bad input that keeps the content in place), the catalog on the real content."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from judgekit.cards import markup
from judgekit.cards.catalog import build_catalog, load_catalog
from judgekit.cli import main as cli
from tests.test_cards import FIXTURE_GROUPS, FIXTURE_REFERENCES, FIXTURE_RULINGS, load_tool, make_wheel


def generate(tmp_path, **parts):
    wheel = make_wheel(tmp_path / "krcg-0.0.1-py3-none-any.whl", **parts)
    out = tmp_path / "content" / "cards"
    code = load_tool().main(["--wheel", str(wheel), "--out", str(out)])
    return code, out


def test_rulings_texts_and_groups_are_generated(tmp_path, capsys):
    code, out = generate(tmp_path)
    assert code == 0
    line = capsys.readouterr().out
    assert "4 rulings (1 cards, 1 groups, 4 sources)" in line
    data = json.loads((out / "rulings.json").read_text(encoding="utf-8"))
    first = data["rulings"][0]
    assert first == {"on": "109004", "refs": ["LSJ 20010101"],
                     "text": "[AUS] The new target may be the acting Methuselah's prey, unlike "
                             "{109001|Test Command}."}
    assert data["rulings"][1]["reminder"] is True and data["rulings"][1]["refs"] == ["ANK 20200202-2"]
    shared = data["rulings"][3]
    assert shared["on"] == "G00001" and shared["overrides"]["109003"] == {
        "text": "Its own wording for the group.", "refs": ["PIB 20120303"]}  # refs inherited
    assert data["references"]["RTR 19990909"] == "https://example.org/rtr/3"
    assert data["groups"] == [{"id": "G00001", "name": "Redirects",
                               "cards": [[109004, ""], [109003, "[obf]"]]}]
    texts = json.loads((out / "texts.json").read_text(encoding="utf-8"))
    redirect = next(c for c in texts["cards"] if c["id"] == 109004)
    assert redirect["text"].startswith("Only usable after blocks are declined.\n[aus] Change")
    assert texts["sets"] == {"TS": {"name": "Test Set", "date": "20200101"}}
    readme = (out / "README.md").read_text(encoding="utf-8")
    assert "rulings.json" in readme and "Paradox Interactive" in readme and "rules team" in readme

    catalog = build_catalog(tmp_path / "content")
    card = catalog.find("Test Redirect")
    rulings = catalog.rulings(card)
    assert [r.anchor for r in rulings] == ["r1", "r2", "r3", "r4"]
    assert [r.group.name if r.group else None for r in rulings] == [None, None, "Redirects", "Redirects"]
    assert rulings[0].refs[0].url == "https://example.org/lsj/1" and rulings[0].refs[0].date == "2001-01-01"
    choice = catalog.find("Test Choice")
    texts_of_choice = [r.text for r in catalog.rulings(choice)]
    assert texts_of_choice == ["[obf] Only after blocks are declined.", "Its own wording for the group."]


BROKEN = [
    # (part, text, expected line, words of the message)
    ("rulings", FIXTURE_RULINGS.replace("  - Cannot be played", "  -Cannot: [be played"), 4, "not valid YAML"),
    ("rulings", FIXTURE_RULINGS.replace(" [ANK 20200202-2]", ""), 4, "without a reference"),
    ("rulings", FIXTURE_RULINGS.replace("[RTR 19990909]", "[RTR 19990910]"), 6, "not listed in references.yaml"),
    ("rulings", FIXTURE_RULINGS.replace("{109001|Test Command}", "{109999|Nothing}"), 3, "no card has the id"),
    ("rulings", FIXTURE_RULINGS.replace("109004|Test Redirect:", "Test Redirect:"), 2, "is not “card id|card name”"),
    ("rulings", FIXTURE_RULINGS.replace("G00001|Redirects:\n", "G00002|Other:\n"), 5, "not a group of groups.yaml"),
    ("groups", FIXTURE_GROUPS.replace("109003|The Test Choice", "109777|Gone"), 4, "no card has the id 109777"),
    ("references", FIXTURE_REFERENCES.replace("https://example.org/rtr/3", "see the forum"), 4, "no web address"),
    ("rulings", "", 1, "empty"),
]


@pytest.mark.parametrize("part, text, line, words", BROKEN)
def test_a_malformed_rulings_file_is_refused_with_its_line_and_keeps_the_content(
        tmp_path, capsys, part, text, line, words):
    code, out = generate(tmp_path)   # content in place first
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    capsys.readouterr()
    code, out = generate(tmp_path, **{part: text})
    err = capsys.readouterr().err.strip()
    assert code == 1
    assert f"krcg/cards/{part}.yaml, line {line}:" in err and words in err, err
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before   # nothing changed


def test_a_missing_rulings_file_is_named(tmp_path, capsys):
    code, out = generate(tmp_path, groups=None)
    assert code == 1
    assert "krcg/cards/groups.yaml: missing" in capsys.readouterr().err
    assert not out.exists()


def test_rulings_from_a_folder(tmp_path, capsys, monkeypatch):
    wheel = make_wheel(tmp_path / "krcg-0.0.1-py3-none-any.whl", rulings=None, groups=None, references=None)
    folder = tmp_path / "vtes-rulings"
    folder.mkdir()
    (folder / "rulings.yaml").write_text(FIXTURE_RULINGS.replace("Ordered by", "Newer, ordered by"))
    (folder / "groups.yaml").write_text(FIXTURE_GROUPS)
    monkeypatch.setenv("JUDGEKIT_CONTENT", str(tmp_path / "content"))
    missing = CliRunner().invoke(cli, ["cards", "update", "--wheel", str(wheel), "--rulings", str(folder)])
    assert missing.exit_code == 1 and "references.yaml: missing" in missing.output
    (folder / "references.yaml").write_text(FIXTURE_REFERENCES)
    done = CliRunner().invoke(cli, ["cards", "update", "--wheel", str(wheel), "--rulings", str(folder)])
    assert done.exit_code == 0, done.output
    data = json.loads((tmp_path / "content" / "cards" / "rulings.json").read_text(encoding="utf-8"))
    assert data["rulings"][3]["text"].startswith("Newer, ordered by")
    assert data["source"]["from"] == str(folder)


# ------------------------------------------------------------------ the real content

@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


def test_every_card_has_its_text_and_the_rulings_are_linked(catalog):
    assert len(catalog) > 4000
    assert sum(1 for c in catalog if c.text) > 4000
    assert catalog.source["package"] == "krcg" and catalog.rulings_source["version"]
    deflection = catalog.find("deflection")
    assert deflection.id == 100518 and "Change the target of the bleed" in deflection.text
    rulings = catalog.rulings(deflection)
    assert any(r.group and r.group.name == "Change the target of a bleed" for r in rulings)
    assert all(r.refs and all(ref.url.startswith("https://") for ref in r.refs) for r in rulings)
    direct = catalog.find("Direct Intervention")
    assert direct.kind == "library" and "Cancel a minion card as it is played" in direct.text


def test_group_prefix_and_per_card_wording(catalog):
    murmur = catalog.find("Murmur of the False Will")   # in "Change the target of a bleed" as [DOM]
    shared = [r for r in catalog.rulings(murmur) if r.group and r.group.id == "G00106"]
    assert shared and all(r.text.startswith("[DOM] ") for r in shared)
    ambulance = catalog.find("Ambulance")
    own = [r for r in catalog.rulings(ambulance) if r.group and r.group.id == "G00105"]
    assert own and own[0].text.startswith("When blocked after continuing")


def test_markup_marks_disciplines_and_links_cards():
    html = markup.to_html("[dom] Lock. [DOM] As above, see {100518|Deflection} <b> Ⓓ", lambda i, n: f"/cards/{i}")
    assert '<abbr class="dis dis-inf" title="Dominate (inferior)">dom</abbr>' in html
    assert '<abbr class="dis dis-sup" title="Dominate (superior)">DOM</abbr>' in html
    assert '<a class="card-link" href="/cards/100518">Deflection</a>' in html
    assert "&lt;b&gt;" in html and "directed action" in html
    assert markup.to_plain("[POT] and {100518|Deflection} [1 CONVICTION]") == \
        "[Potence superior] and Deflection [1 conviction]"
    assert markup.to_html("{1|Gone}", lambda i, n: None) == "Gone"
    # a directed action's symbol in the words players use ("burn it as a D action")
    assert markup.to_plain("Other minions can burn this card as a Ⓓ action.") == \
        "Other minions can burn this card as a [D] action."
