"""Card facts: the generated content, look-up, suggestions, completion, and the generator
(on a hand-made wheel, no network)."""
from __future__ import annotations

import csv
import io
import json
import zipfile
from pathlib import Path

import pytest

from judgekit import paths
from judgekit.game import cards as cards_mod
from judgekit.game.cards import (
    DISCIPLINES, VOTES_BY_TITLE, CardIndex, CryptCard, LibraryCard, load_cards, name_key,
    parse_discipline, title_votes,
)

def load_tool():
    """The generator (`judgekit cards update`, `tools/update_cards.py`)."""
    from judgekit.cards import update
    return update


@pytest.fixture(scope="module")
def index() -> CardIndex:
    return load_cards()


# ------------------------------------------------------------------ facts (real content)

CRYPT_FACTS = [
    # name, attribute, expected
    ("Catalina Vega", "bleed_bonus", 1),          # "bleeds for two"
    ("Catalina Vega", "title", "prince"),
    ("Andi Liu", ("level", "aus"), 1),            # no superior Auspex
    ("Andi Liu", ("level", "dom"), 2),
    ("Donny Kowalczyk", ("level", "dom"), 1),     # no superior Dominate
    ("Donny Kowalczyk", ("level", "Auspex"), 2),
    ("Modius", "title", "prince"),
    ("Modius", "votes", 2),
    ("Mkhokheli", "votes", 2),
    ("Alice Chen", "votes", 2),
    ("Alexa Draper", "votes", 2),
    ("Alexa Draper", ("level", "dom"), 2),
    ("Victoria Ash", "clan", "Toreador"),
    ("Victoria Ash (G2)", "title", "primogen"),
    ("Victoria Ash (G2)", "votes", 1),
    ("Theo Bell", "group", "6"),                  # most recent non-advanced
    ("Theo Bell (ADV)", "advanced", True),
    ("Theo Bell (G2)", "advanced", False),
    ("Theo Bell (G2)", ("level", "aus"), 0),
    ("Theo Bell", "strength_bonus", 1),
    ("Aaradhya, The Callous Tyrant", "votes", 3),
    ("Aaradhya, The Callous Tyrant", "bleed_bonus", 1),
    ("Alabástrom", ("level", "fli"), 1),          # gargoyle Flight
]


def _value(card, attr):
    if isinstance(attr, tuple):
        return getattr(card, attr[0])(attr[1])
    return getattr(card, attr)


@pytest.mark.parametrize("name,attr,expected", CRYPT_FACTS)
def test_crypt_facts(index, name, attr, expected):
    card = index.crypt(name)
    assert isinstance(card, CryptCard), name
    assert card.kind == "crypt"
    assert _value(card, attr) == expected


LIBRARY_FACTS = [
    ("Govern the Unaligned", "requirement", "single"),
    ("Govern the Unaligned", "disciplines", ("dom",)),
    ("Govern the Unaligned", "levels", {"dom": ("inferior", "superior")}),
    ("Govern the Unaligned", "blood_cost", 1),
    ("Govern the Unaligned", "needs", ("level",)),
    ("Govern the Unaligned", "types", ("Action",)),
    ("Eyes of Argus", "levels", {"aus": ("inferior", "superior")}),
    ("Eyes of Argus", "types", ("Reaction",)),
    ("Deflection", "types", ("Reaction",)),
    ("Deflection", "needs", ("level", "target")),
    ("Villein", "needs", ("target", "amount")),
    ("Villein", "trifle", True),
    ("Villein", "delays_replacement", False),
    ("Direct Intervention", "pool_cost", 1),
    ("Direct Intervention", "needs", ()),
    ("Platinum Protocol", "requirement", "choice"),
    ("Platinum Protocol", "disciplines", ("obf", "pre", "pro")),
    ("Platinum Protocol", "needs", ("discipline",)),
    ("Seduction", "needs", ("level", "target")),
    ("Seduction", "types", ("Action Modifier",)),
    ("Kine Resources Contested", "types", ("Political Action",)),
    ("Kine Resources Contested", "needs", ("target", "amount")),
    ("Cat's Guidance", "disciplines", ("ani",)),
    ("Cat's Guidance", "types", ("Reaction",)),
    ("Homunculus", "types", ("Retainer",)),
    ("Homunculus", "needs", ("level",)),
    ("Enkil Cog", "needs", ()),
    ("The Barrens", "types", ("Master",)),
    ("The Barrens", "needs", ()),
    ("Ventrue Headquarters", "pool_cost", 1),
    ("Ventrue Headquarters", "requirement", "none"),
    ("Minion Tap", "needs", ("amount",)),
    ("Lam Into", "delays_replacement", True),
    ("Soulgrinder", "needs", ("discipline", "level")),
    ("Bloodlust", "needs", ("x",)),
]


@pytest.mark.parametrize("name,attr,expected", LIBRARY_FACTS)
def test_library_facts(index, name, attr, expected):
    card = index.library(name)
    assert isinstance(card, LibraryCard), name
    assert card.kind == "library"
    got = _value(card, attr)
    if attr == "needs" and expected == ("x",):
        assert "x" in got
    else:
        assert got == expected


def test_x_cost_kept_as_string(index):
    card = index.library("Bloodlust")
    assert "X" in (card.pool_cost, card.blood_cost, card.conviction_cost)


def test_guideline_examples_are_misplays(index):
    """The announcement guidelines' examples, as the recorder will check them."""
    argus = index.find("Eyes of Argus")
    assert argus.has_level("aus", "superior") and index.find("Andi Liu").level("aus") < 2
    govern = index.find("Govern the Unaligned")
    assert govern.has_level("dom", 2) and index.find("Donny Kowalczyk").level("dom") < 2
    assert 1 + index.find("Catalina Vega").bleed_bonus == 2
    assert index.find("Modius").votes + index.find("Mkhokheli").votes == 4
    assert index.find("Hand Strike") is None  # a basic strike, not a card


def test_counts_and_no_text(index):
    assert len(index.crypt_cards) > 1700 and len(index.library_cards) > 2300
    folder = paths.content_dir() / "cards"
    for name in ("crypt.json", "library.json"):
        raw = (folder / name).read_text(encoding="utf-8")
        assert "Successful referendum means" not in raw and "Only usable" not in raw
    readme = (folder / "README.md").read_text(encoding="utf-8")
    assert "krcg" in readme and "MIT" in readme and "Paradox Interactive" in readme


def test_votes_table_is_the_primers():
    expected = {"primogen": 1, "prince": 2, "justicar": 3, "inner circle": 4, "bishop": 1,
                "archbishop": 2, "cardinal": 3, "regent": 4, "baron": 2, "magaji": 2, "priscus": 3}
    for title, votes in expected.items():
        assert VOTES_BY_TITLE[title] == votes
        assert title_votes(title.title()) == votes
    assert title_votes(None) == 0 and title_votes("ghoul") == 0
    # the generator uses this very table (one source of truth)
    from judgekit.cards import derive
    assert derive.title_votes is title_votes


# ------------------------------------------------------------------------ disciplines

@pytest.mark.parametrize("text,expected", [
    ("superior Dominate", ("dom", 2)),
    ("inferior auspex", ("aus", 1)),
    ("AUS", ("aus", 2)),
    ("aus", ("aus", 1)),
    ("[DOM]", ("dom", 2)),
    ("Dominate at superior", ("dom", 2)),
    ("sup pre", ("pre", 2)),
    ("Auspex", ("aus", 1)),
    ("Blood Sorcery", ("tha", 1)),
    ("superior Thaumaturgy", ("tha", 2)),
    ("Flight", ("fli", 1)),
    ("bleed", None),
    ("", None),
    ("superior inferior dom", None),
])
def test_parse_discipline(text, expected):
    assert parse_discipline(text) == expected


def test_discipline_names():
    assert DISCIPLINES["aus"] == "Auspex" and DISCIPLINES["dom"] == "Dominate"
    assert all(len(code) == 3 and code.islower() for code in DISCIPLINES)


# ------------------------------------------------------------------------------ look-up

@pytest.mark.parametrize("query,name", [
    ("catalina vega", "Catalina Vega"),
    ("CATALINA  VEGA", "Catalina Vega"),
    ("Etienne Fauberge", "Étienne Fauberge"),          # accents
    ("etienne fauberge", "Étienne Fauberge"),
    ("Sebastien Goulet", "Sébastien Goulet"),
    ("Jurgen, the Libertine", "Jürgen, The Libertine"),
    ("Boleslaw Gutowski", "Bolesław Gutowski"),          # ł
    ("Clara Hjortshoj", "Clara Hjortshøj"),              # ø
    ("Sacre-Coeur Cathedral, France", "Sacré-Cœur Cathedral, France"),  # œ
    ("Cat's Guidance", "Cats' Guidance"),                # punctuation
    ("cats guidance", "Cats' Guidance"),
    ("Platinum Protocol", "The Platinum Protocol"),      # leading "The"
    ("Barrens", "The Barrens"),
    ("Carlton van Wyk", "Carlton Van Wyk"),
    ("Carlton Van Wyk (Hunter)", "Carlton Van Wyk"),     # aka
    ("Andrei Puxton", "Andrei Puxon"),
    ("Ferox", "Ferox, The Rock Lord"),                  # short name of a crypt card
    ("Modius", "Modius"),
])
def test_find_insensitive(index, query, name):
    card = index.find(query)
    assert card is not None, query
    assert card.name == name


@pytest.mark.parametrize("query,group,advanced", [
    ("Theo Bell", "6", False),
    ("Theo Bell (ADV)", "2", True),
    ("theo bell adv", "2", True),
    ("Theo Bell (G2)", "2", False),
    ("Theo Bell (G2 ADV)", "2", True),
    ("Theo Bell (Group 6)", "6", False),
    ("Sébastien Goulet", "3", False),
])
def test_find_versions(index, query, group, advanced):
    card = index.find(query)
    assert (card.group, card.advanced) == (group, advanced)


def test_find_misses(index):
    assert index.find("Theo Bell (G5)") is None
    assert index.find("") is None and index.find("   ") is None
    assert index.crypt("Govern the Unaligned") is None
    assert index.library("Modius") is None
    assert len(index.versions("Theo Bell")) == 3


def test_name_key():
    assert name_key("Cats' Guidance") == name_key("cat's guidance") == "catsguidance"
    assert name_key("Étienne") == "etienne"
    assert name_key("Pentex™ Loves You!") == "pentexlovesyou"


@pytest.mark.parametrize("typo,expected", [
    ("Govern the Unalligned", "Govern the Unaligned"),
    ("Modious", "Modius"),
    ("Villian", "Villein"),
    ("Deflecton", "Deflection"),
    ("Eyes of Argos", "Eyes of Argus"),
    ("Andy Liu", "Andi Liu"),
    ("Donny Kowalcyk", "Donny Kowalczyk"),
    ("Kine Resource Contested", "Kine Resources Contested"),
    ("Direct Intervension", "Direct Intervention"),
    ("Homonculus", "Homunculus"),
])
def test_suggest(index, typo, expected):
    got = index.suggest(typo)
    assert got and got[0] == expected
    assert len(index.suggest(typo, limit=2)) <= 2


def test_suggest_nothing_close(index):
    assert index.suggest("") == []
    assert index.suggest("qqqqzzzz xxxx") == []


@pytest.mark.parametrize("prefix,kind,expected", [
    ("gov", None, "Govern the Unaligned"),
    ("unal", None, "Govern the Unaligned"),         # a later word
    ("theo", "crypt", "Theo Bell"),
    ("theo", None, "Theo Bell (ADV)"),
    ("cats g", None, "Cats' Guidance"),
    ("cat's", None, "Cats' Guidance"),
    ("etien", None, "Étienne Fauberge"),
    ("the barr", "library", "The Barrens"),
    ("kine res", "library", "Kine Resources Contested"),
])
def test_complete(index, prefix, kind, expected):
    got = index.complete(prefix, limit=10, kind=kind)
    assert expected in got
    assert len(got) == len(set(got)) <= 10


def test_complete_kind_and_limits(index):
    assert all(index.crypt(n) for n in index.complete("ca", limit=20, kind="crypt"))
    assert all(index.library(n) for n in index.complete("ca", limit=20, kind="library"))
    assert len(index.complete("a", limit=3)) == 3
    assert index.complete("") == [] and index.complete("zzzzqqq") == []
    assert index.complete("theo")[0] == "Theo Bell"   # word boundary first, not "The Oath"


def test_load_is_cached():
    # how long the cold load takes is a benchmark's figure (bench/serve.py's cold start),
    # never a timed assert: CI is a busy 2-core machine
    cards_mod.clear_cache()
    first = load_cards()
    assert load_cards() is first
    assert load_cards(paths.content_dir()) is first


def test_the_default_follows_judgekit_content(tmp_path, monkeypatch):
    # load_cards() remembers its answer per value of $JUDGEKIT_CONTENT, not once for all
    default = load_cards()
    assert default.find("Theo Bell") is not None
    (tmp_path / "other" / "cards").mkdir(parents=True)
    for name in ("crypt.json", "library.json"):
        (tmp_path / "other" / "cards" / name).write_text('{"cards": []}', encoding="utf-8")
    monkeypatch.setenv("JUDGEKIT_CONTENT", str(tmp_path / "other"))
    other = load_cards()
    assert other is not default and other.find("Theo Bell") is None
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("JUDGEKIT_CONTENT", "other")   # relative: read from the working folder
    assert load_cards() is other
    monkeypatch.delenv("JUDGEKIT_CONTENT")
    assert load_cards() is default


def test_missing_files_name_the_command(tmp_path):
    with pytest.raises(FileNotFoundError, match="judgekit cards update"):
        load_cards(tmp_path)


# ------------------------------------------------------------- generator (no network)

CRYPT_HEADER = ["Id", "Name", "Aka", "Type", "Clan", "Path", "Adv", "Group", "Capacity",
                "Disciplines", "Card Text", "Set", "Title", "Banned", "Artist", "Format"]
LIB_HEADER = ["Id", "Name", "Aka", "Type", "Clan", "Path", "Discipline", "Pool Cost",
              "Blood Cost", "Conviction Cost", "Burn Option", "Card Text", "Flavor Text", "Set",
              "Banned", "Artist", "Capacity", "Format"]

# Made-up cards written in the card lists' style (the generator must not copy any text).
FIXTURE_CRYPT = [
    {"Id": "209001", "Name": "Zélie Testarossa", "Aka": "Zelie Testarossa", "Type": "Vampire",
     "Clan": "Toreador", "Group": "6", "Capacity": "8", "Disciplines": "for AUS CEL PRE",
     "Card Text": "Camarilla Prince of Nowhere: +1 bleed.", "Title": "prince"},
    {"Id": "209002", "Name": "Quill Vance", "Type": "Vampire", "Clan": "Brujah", "Group": "2",
     "Capacity": "5", "Disciplines": "pot pre", "Card Text": "Anarch Baron of Elsewhere: Quill "
     "gets +1 stealth when hunting. +1 strength. -1 intercept.", "Title": "baron"},
    {"Id": "209003", "Name": "Quill Vance", "Type": "Vampire", "Clan": "Brujah", "Adv": "Advanced",
     "Group": "2", "Capacity": "6", "Disciplines": "pot PRE", "Card Text":
     "Advanced, Anarch: +2 bleed. [MERGED] +1 stealth.", "Title": ""},
    {"Id": "209004", "Name": "Quill Vance", "Type": "Vampire", "Clan": "Brujah", "Group": "5",
     "Capacity": "6", "Disciplines": "aus pot", "Card Text": "Independent: 2 votes (titled).",
     "Title": "2 votes"},
    {"Id": "209005", "Name": "Mossback", "Type": "Vampire", "Clan": "Gargoyle", "Group": "4",
     "Capacity": "5", "Disciplines": "for VIS", "Card Text": "Camarilla: Flight [FLIGHT].",
     "Title": "priscus"},
]
FIXTURE_LIBRARY = [
    {"Id": "109001", "Name": "Test Command", "Type": "Action", "Discipline": "dom", "Blood Cost": "1",
     "Card Text": "[dom] Ⓓ Bleed with +2 bleed.\n[DOM] +1 stealth action. Do a thing."},
    {"Id": "109002", "Name": "Test Tap", "Type": "Master",
     "Card Text": "Trifle.\nPut this card on a vampire you control and move 1 to 4 blood from that "
                  "vampire to your pool."},
    {"Id": "109003", "Name": "The Test Choice", "Type": "Action", "Discipline": "obf/pre",
     "Card Text": "Ⓓ Bleed."},
    {"Id": "109004", "Name": "Test Redirect", "Type": "Reaction", "Discipline": "aus", "Blood Cost": "X",
     "Card Text": "Only usable after blocks are declined.\n[aus] Change the target of the bleed "
                  "to another Methuselah.\n[AUS] As above, but unlocked."},
    {"Id": "109005", "Name": "Test Delay", "Type": "Combat", "Discipline": "pot/tha",
     "Burn Option": "Y", "Card Text": "Do not replace until after combat.\n[pot] or [tha] Strike: "
                                      "hand strike at +1 damage. Cards requiring Dominate [dom] cost more."},
    {"Id": "109006", "Name": "Test Ballot", "Type": "Political Action", "Card Text":
     "Allocate 3 points among two or more Methuselahs. Successful referendum means something."},
    {"Id": "109007", "Name": "Test Combo", "Type": "Combat", "Discipline": "aus&pre", "Pool Cost": "2",
     "Card Text": "[aus][pre] Something.\n[AUS][PRE] Something more."},
    {"Id": "109008", "Name": "Test Ally", "Type": "Ally", "Pool Cost": "3",
     "Card Text": "Unique ally with 2 life. This ally can move up to 2 blood to a vampire as an action."},
    {"Id": "109009", "Name": "Test Hunt", "Type": "Action", "Discipline": "ani",
     "Card Text": "[ani] Ⓓ Enter combat with a ready minion."},
]
SECRET = "Successful referendum means something."


def write_csv(header, rows) -> bytes:
    buf = io.StringIO(newline="")
    writer = csv.DictWriter(buf, fieldnames=header, quoting=csv.QUOTE_ALL)
    writer.writeheader()
    for row in rows:
        writer.writerow({k: row.get(k, "") for k in header})
    return ("\ufeff" + buf.getvalue()).encode("utf-8")


# Made-up rulings in krcg's format (rulings, groups, references).
FIXTURE_RULINGS = """\
---
109004|Test Redirect:
  - '[AUS] The new target may be the acting Methuselah''s prey, unlike {109001|Test Command}. [LSJ 20010101]'
  - Cannot be played twice on one bleed. [ANK 20200202-2] [REMINDER]
G00001|Redirects:
  - Only after blocks are declined. [RTR 19990909]
  - overrides:
      109003|The Test Choice: Its own wording for the group.
    text: Ordered by the acting Methuselah. [PIB 20120303]
"""
FIXTURE_GROUPS = """\
---
G00001|Redirects:
  109004|Test Redirect: ''
  109003|The Test Choice: '[obf]'
"""
FIXTURE_REFERENCES = """\
---
LSJ 20010101: https://example.org/lsj/1
ANK 20200202-2: https://example.org/ank/2
RTR 19990909: https://example.org/rtr/3
PIB 20120303: https://example.org/pib/4
"""


def make_wheel(path: Path, rulings=FIXTURE_RULINGS, groups=FIXTURE_GROUPS,
               references=FIXTURE_REFERENCES) -> Path:
    """A krcg-like wheel; a YAML part given as None is left out."""
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("krcg/cards/vtescrypt.csv", write_csv(CRYPT_HEADER, FIXTURE_CRYPT))
        zf.writestr("krcg/cards/vteslib.csv", write_csv(LIB_HEADER, FIXTURE_LIBRARY))
        zf.writestr("krcg/cards/vtessets.csv", write_csv(
            ["Id", "Abbrev", "Release Date", "Full Name", "Company"],
            [{"Id": "300001", "Abbrev": "TS", "Release Date": "20200101", "Full Name": "Test Set"}]))
        for member, text in (("rulings", rulings), ("groups", groups), ("references", references)):
            if text is not None:
                zf.writestr(f"krcg/cards/{member}.yaml", text)
        zf.writestr("krcg-0.0.1.dist-info/METADATA", "Metadata-Version: 2.1\nName: krcg\nVersion: 0.0.1\n")
    return path


@pytest.fixture
def fake_wheel(tmp_path) -> Path:
    return make_wheel(tmp_path / "krcg-0.0.1-py3-none-any.whl")


def test_generator_on_fixture(tmp_path, fake_wheel, capsys):
    tool = load_tool()
    out = tmp_path / "content" / "cards"
    assert tool.main(["--wheel", str(fake_wheel), "--out", str(out)]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("cards: krcg 0.0.1: 5 crypt") and "9 library" in line

    for name in ("crypt.json", "library.json"):
        raw = (out / name).read_text(encoding="utf-8")
        assert SECRET not in raw and "Strike:" not in raw and "Camarilla Prince" not in raw
        assert raw.count("\n{") == json.loads(raw)["cards"].__len__()  # one card per line
    readme = (out / "README.md").read_text(encoding="utf-8")
    assert "0.0.1" in readme and "MIT" in readme and "cards update" in readme

    idx = load_cards(tmp_path / "content")
    zelie = idx.find("zelie testarossa")
    assert (zelie.name, zelie.bleed_bonus, zelie.votes, zelie.disciplines) == (
        "Zélie Testarossa", 1, 2, {"aus": 2, "cel": 2, "for": 1, "pre": 2})
    quill = idx.find("Quill Vance")
    assert (quill.group, quill.title, quill.votes) == ("5", "2 votes", 2)
    g2 = idx.find("Quill Vance (G2)")
    assert (g2.title, g2.votes, g2.stealth_bonus, g2.strength_bonus, g2.intercept_bonus) == (
        "baron", 2, 0, 1, -1)
    adv = idx.find("Quill Vance (ADV)")
    assert adv.advanced and adv.bleed_bonus == 2 and adv.stealth_bonus == 0  # [MERGED] ignored
    moss = idx.find("Mossback")
    assert moss.level("fli") == 1 and moss.votes == 3

    cmd = idx.find("Test Command")
    assert (cmd.requirement, cmd.levels, cmd.needs, cmd.blood_cost) == (
        "single", {"dom": ("inferior", "superior")}, ("level",), 1)
    tap = idx.find("test tap")
    assert tap.trifle and tap.needs == ("target", "amount")
    choice = idx.find("Test Choice")  # leading "The" optional
    assert choice.requirement == "choice" and choice.needs == ("discipline",)
    assert choice.levels == {"obf": ("inferior",), "pre": ("inferior",)}
    redirect = idx.find("Test Redirect")
    assert redirect.blood_cost == "X" and redirect.needs == ("level", "x", "target")
    delay = idx.find("Test Delay")
    assert delay.delays_replacement and delay.burn_option
    assert delay.levels == {"pot": ("inferior",), "tha": ("inferior",)}  # [dom] is a reference
    assert delay.needs == ("discipline",)
    ballot = idx.find("Test Ballot")
    assert ballot.needs == ("target", "amount")
    combo = idx.find("Test Combo")
    assert combo.requirement == "combo" and combo.needs == ("level",) and combo.pool_cost == 2
    ally = idx.find("Test Ally")
    assert ally.needs == ()  # an ability used later, not a choice made on play
    hunt = idx.find("Test Hunt")
    assert hunt.needs == ("target",)


def test_cli_update_with_wheel(tmp_path, fake_wheel, monkeypatch):
    from click.testing import CliRunner

    from judgekit.cli import main

    monkeypatch.setenv("JUDGEKIT_CONTENT", str(tmp_path / "content"))
    result = CliRunner().invoke(main, ["cards", "update", "--wheel", str(fake_wheel)])
    assert result.exit_code == 0, result.output
    assert "5 crypt" in result.output
    assert (tmp_path / "content" / "cards" / "crypt.json").exists()
    shown = CliRunner().invoke(main, ["cards", "show", "Quill", "Vance", "(ADV)"])
    assert shown.exit_code == 0 and json.loads(shown.output)["advanced"] is True
    missing = CliRunner().invoke(main, ["cards", "show", "Quil", "Vanse"])
    assert missing.exit_code == 1


def test_generator_rejects_other_zip(tmp_path):
    bad = tmp_path / "other.whl"
    with zipfile.ZipFile(bad, "w") as zf:
        zf.writestr("x.txt", "nothing")
    assert load_tool().main(["--wheel", str(bad), "--out", str(tmp_path / "out")]) == 1


@pytest.mark.parametrize("text,expected", [
    ("Camarilla Prince of X: +1 bleed.", {"bleed_bonus": 1}),
    ("Sabbat: +1 bleed. +2 strength.", {"bleed_bonus": 1, "strength_bonus": 2}),
    ("Independent: X gets +1 bleed against a Methuselah who controls a location.", {}),
    ("Anarch: During an action, X can burn 1 blood to get +1 stealth.", {}),
    ("Advanced: -1 stealth. [MERGED] +1 bleed.", {"stealth_bonus": -1}),
    ("1 vote (titled): +1 bleed.", {"bleed_bonus": 1}),
])
def test_crypt_bonus_heuristic(text, expected):
    from judgekit.cards import derive
    assert derive.crypt_bonuses(text) == expected


# --- bonuses and play step (what the trainer's numbers are checked against) -------------

@pytest.mark.parametrize("name,what,level,expected", [
    ("Govern the Unaligned", "bleed", "inferior", 2),     # Ⓓ Bleed with +2 bleed
    ("Govern the Unaligned", "bleed", "superior", 0),
    ("Govern the Unaligned", "stealth", "superior", 1),   # +1 stealth action
    ("Threats", "bleed", "inferior", 1),
    ("Threats", "bleed", "superior", 2),
    ("Conditioning", "bleed", "superior", 3),
    ("Bonding", "stealth", "superior", 1),                # "+1 stealth and +1 bleed"
    ("Bonding", "bleed", "superior", 1),
    ("Cloak the Gathering", "stealth", "inferior", 1),
    ("Entrancement", "bleed", "inferior", 1),
    ("Entrancement", "stealth", "superior", 1),
    ("Minion Tap", "bleed", "inferior", 0),               # no discipline: nothing
])
def test_library_bonuses(index, name, what, level, expected):
    assert index.library(name).bonus(what, level) == expected


@pytest.mark.parametrize("name,step", [
    ("Torn Signpost", "before-range"),
    ("Immortal Grapple", "before-strikes"),
    ("Aid from Bats", "strike"),
    ("Seduction", "announce"),
    ("Awe", "polling"),
    ("Deflection", "after-blocks-declined"),
    ("Telepathic Misdirection", None),    # the clause belongs to its superior line only
    ("Govern the Unaligned", None),
])
def test_library_play_step(index, name, step):
    assert index.library(name).step == step


@pytest.mark.parametrize("text,expected", [
    ("[dom] Ⓓ Bleed with +2 bleed.\n[DOM] +1 stealth action. Add 3 blood.",
     {"dom": {"bleed": 2}, "DOM": {"stealth": 1}}),
    ("[ani][aus] If this action is blocked, gain a maneuver.\n[ANI][AUS] As above, with +1 stealth.",
     {"ANI AUS": {"stealth": 1}}),
    ("[pre] +1 bleed.\n[PRE] As above, and gain 1 pool if the bleed is successful.",
     {"pre": {"bleed": 1}, "PRE": {"bleed": 1}}),
    ("[obt] Burn 1 blood to get +1 stealth.\n[myt] +1 stealth.", {"myt": {"stealth": 1}}),
    ("[dom] or [obl] The acting ally gets +1 bleed (limited).", {"dom": {"bleed": 1}, "obl": {"bleed": 1}}),
    ("This vampire gets +1 bleed.", {}),            # no marker: not a level's effect
])
def test_library_bonus_heuristic(text, expected):
    from judgekit.cards import derive
    assert derive.effect_bonuses(text) == expected
