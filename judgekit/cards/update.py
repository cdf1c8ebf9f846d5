"""Regenerate `content/cards/` (cards and their rulings) from the krcg wheel on PyPI.

    judgekit cards update                             # pip download krcg==5.14, then generate
    judgekit cards update --wheel krcg-5.14-py3-none-any.whl
    judgekit cards update --rulings DIR               # rulings YAML from DIR (e.g. newer ones)
    python tools/update_cards.py [--out DIR] ...      # the same, from a checkout

The wheel is a zip holding the VEKN card lists (`krcg/cards/vtescrypt.csv`,
`krcg/cards/vteslib.csv`, `krcg/cards/vtessets.csv`) and the rules team's rulings as krcg
curates them (`krcg/cards/rulings.yaml`, `groups.yaml`, `references.yaml`). The wheel is read
as a zip, never installed: krcg 5 needs Python 3.12 and pulls aiohttp; judgekit runs on 3.11
(the krcg it installs, 4.x, is for the seating criteria only). The facts are derived by
`judgekit.cards.derive`. Writes, in `content/cards/`:

- `crypt.json`, `library.json`: the facts the recorder checks (derived from the text);
- `texts.json`: each card's text and sets, as the VEKN publishes them;
- `rulings.json`: the rulings with their references (URLs) and the card groups;
- `README.md`: the format and the credits;

then prints one summary line. Everything is generated aside and swapped in only when every
file was read and checked: a missing or malformed input is refused (the file and the line
are named) and the content already in place is kept. Needs PyYAML for the rulings; the
download uses `pip download`.
"""
from __future__ import annotations

import argparse
import csv
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from judgekit.cards.derive import crypt_facts, library_facts
from judgekit.cards.rulings_source import Source, convert
from judgekit.paths import content_dir
from judgekit.game.cards import clear_cache
from judgekit.cards.catalog import clear_cache as clear_catalog

KRCG_VERSION = "5.14"
CRYPT_CSV = "krcg/cards/vtescrypt.csv"
LIBRARY_CSV = "krcg/cards/vteslib.csv"
SETS_CSV = "krcg/cards/vtessets.csv"
RULINGS_YAML = ("krcg/cards/rulings.yaml", "krcg/cards/groups.yaml", "krcg/cards/references.yaml")
OUTPUT_FILES = ("crypt.json", "library.json", "texts.json", "rulings.json", "README.md")

# ---------------------------------------------------------------------------- wheel I/O


def download_wheel(version: str, dest: Path) -> Path:
    """`pip download krcg==VERSION` (pure-Python wheel, no dependencies) into dest."""
    cmd = [sys.executable, "-m", "pip", "download", f"krcg=={version}", "--no-deps",
           "--python-version", "3.12", "--only-binary=:all:", "--quiet", "-d", str(dest)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"pip download krcg=={version} failed: "
                           f"{(done.stderr or done.stdout).strip().splitlines()[-1:]}")
    wheels = sorted(dest.glob(f"krcg-{version}-*.whl"))
    if not wheels:
        raise RuntimeError(f"pip download krcg=={version} gave no wheel in {dest}")
    return wheels[0]


class Bundle:
    """What a krcg wheel (and an optional rulings folder) gives the generator."""

    def __init__(self, crypt, library, sets, version, rulings: tuple[Source, Source, Source],
                 rulings_from: str):
        self.crypt, self.library, self.sets, self.version = crypt, library, sets, version
        self.rulings = rulings
        self.rulings_from = rulings_from  # "krcg 5.14" or the folder given


def _decode(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise ValueError(f"{name}, line {line}: not UTF-8 text") from None


def read_wheel(path: Path, rulings_dir: Path | None = None) -> Bundle:
    """The card lists, sets, version and rulings files of a krcg wheel; the three rulings
    files come from `rulings_dir` instead when it is given."""
    path = Path(path)
    with zipfile.ZipFile(path) as zf:
        names = set(zf.namelist())
        missing = [n for n in (CRYPT_CSV, LIBRARY_CSV) if n not in names]
        if missing:
            raise ValueError(f"{path.name}: not a krcg wheel with card lists (missing {', '.join(missing)})")
        crypt = read_csv(zf.read(CRYPT_CSV))
        library = read_csv(zf.read(LIBRARY_CSV))
        sets = read_csv(zf.read(SETS_CSV)) if SETS_CSV in names else []
        version = ""
        for n in names:
            if n.endswith(".dist-info/METADATA"):
                m = re.search(r"^Version:\s*(\S+)", zf.read(n).decode("utf-8", "replace"), re.M)
                version = m.group(1) if m else ""
        if not version:
            m = re.match(r"krcg-([^-]+)-", path.name)
            version = m.group(1) if m else "unknown"
        if rulings_dir is None:
            sources = []
            for member in RULINGS_YAML:
                if member not in names:
                    raise ValueError(f"{path.name}:{member}: missing (this krcg has no rulings; "
                                     f"give them with --rulings DIR)")
                sources.append(Source(f"{path.name}:{member}", _decode(zf.read(member), member)))
            rulings_from = f"krcg {version}"
    if rulings_dir is not None:
        sources = []
        for member in RULINGS_YAML:
            file = Path(rulings_dir) / Path(member).name
            try:
                data = file.read_bytes()
            except FileNotFoundError:
                raise ValueError(f"{file}: missing (the rulings folder needs "
                                 f"{', '.join(Path(m).name for m in RULINGS_YAML)})") from None
            except OSError as exc:
                raise ValueError(f"{file}: cannot be read ({exc.strerror or exc})") from None
            sources.append(Source(str(file), _decode(data, str(file))))
        rulings_from = str(rulings_dir)
    return Bundle(crypt, library, sets, version, tuple(sources), rulings_from)


def read_csv(data: bytes) -> list[dict]:
    """Rows of a VEKN CSV (UTF-8 with or without BOM; fields may hold newlines)."""
    return list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"), newline="")))


# ------------------------------------------------------------------------------ output


def dump_cards(path: Path, source: dict, cards: list[dict]) -> int:
    """Write {"source": ..., "cards": [...]} with one card per line; returns the size."""
    lines = ["{\"source\": " + json.dumps(source, ensure_ascii=False, sort_keys=True) + ",",
             "\"cards\": ["]
    body = [json.dumps(c, ensure_ascii=False, separators=(",", ":")) for c in cards]
    lines.append(",\n".join(body))
    lines.append("]}")
    data = "\n".join(lines) + "\n"
    path.write_text(data, encoding="utf-8")
    return len(data.encode("utf-8"))


def card_text(row: dict, crypt: bool) -> dict:
    """What a card page shows besides the facts: the text (as printed, with its [dis]
    symbols), the sets it was printed in (abbreviations, first printing first), and the
    library card's clan requirement, path, life/capacity and the year it was banned."""
    d: dict = {"id": int(row["Id"]), "text": (row.get("Card Text") or "").replace("\r\n", "\n").strip()}
    sets = []
    for part in (row.get("Set") or "").split(","):
        abbrev = part.split(":", 1)[0].strip()
        if abbrev and abbrev not in sets:
            sets.append(abbrev)
    if sets:
        d["sets"] = sets
    for key, column in (("clan", "Clan"), ("path", "Path"), ("banned", "Banned"),
                        ("capacity", "Capacity")):
        if crypt and key in ("clan", "capacity"):
            continue  # crypt.json has them
        value = (row.get(column) or "").strip()
        if value:
            d[key] = value
    return d


def sets_table(rows: list[dict]) -> dict[str, dict]:
    """abbreviation -> {"name", "date"} from vtessets.csv, in release order."""
    out = {}
    for r in sorted(rows, key=lambda r: (r.get("Release Date") or "", r.get("Id") or "")):
        abbrev = (r.get("Abbrev") or "").strip()
        if abbrev:
            out[abbrev] = {"name": (r.get("Full Name") or abbrev).strip(),
                           "date": (r.get("Release Date") or "").strip()}
    return out


def dump_texts(path: Path, source: dict, sets: dict, cards: list[dict]) -> int:
    lines = ["{\"source\": " + json.dumps(source, ensure_ascii=False, sort_keys=True) + ",",
             "\"sets\": " + json.dumps(sets, ensure_ascii=False) + ",",
             "\"cards\": ["]
    lines.append(",\n".join(json.dumps(c, ensure_ascii=False, separators=(",", ":")) for c in cards))
    lines.append("]}")
    data = "\n".join(lines) + "\n"
    path.write_text(data, encoding="utf-8")
    return len(data.encode("utf-8"))


def dump_rulings(path: Path, source: dict, data: dict) -> int:
    """rulings.json: one reference, group or ruling per line (small diffs)."""
    def one(x):
        return json.dumps(x, ensure_ascii=False, separators=(",", ":"))
    refs = [f"{json.dumps(k, ensure_ascii=False)}:{json.dumps(v, ensure_ascii=False)}"
            for k, v in data["references"].items()]
    text = "\n".join([
        "{\"source\": " + json.dumps(source, ensure_ascii=False, sort_keys=True) + ",",
        "\"references\": {", ",\n".join(refs), "},",
        "\"groups\": [", ",\n".join(one(g) for g in data["groups"]), "],",
        "\"rulings\": [", ",\n".join(one(r) for r in data["rulings"]), "]}",
    ]) + "\n"
    path.write_text(text, encoding="utf-8")
    return len(text.encode("utf-8"))


def generate(bundle: Bundle, out_dir: Path) -> dict:
    """Write the content files into out_dir (created); returns counts for the summary line.
    The rulings are checked first: nothing is written when they cannot be used."""
    crypt_rows = [r for r in bundle.crypt if r.get("Name")]
    library_rows = [r for r in bundle.library if r.get("Name")]
    version = bundle.version
    card_ids = {int(r["Id"]) for r in crypt_rows + library_rows}
    rulings = convert(*bundle.rulings, card_ids=card_ids)

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    crypt = sorted((crypt_facts(r) for r in crypt_rows), key=lambda c: c["id"])
    library = sorted((library_facts(r) for r in library_rows), key=lambda c: c["id"])
    licence = ("krcg: MIT (c) Lionel Panhaleux; card data (c) Paradox Interactive AB, "
               "published by the VEKN")
    source = {"package": "krcg", "version": version, "files": [CRYPT_CSV, LIBRARY_CSV],
              "licence": licence}
    texts = sorted([card_text(r, True) for r in crypt_rows] + [card_text(r, False) for r in library_rows],
                   key=lambda c: c["id"])
    sizes = {
        "crypt.json": dump_cards(out_dir / "crypt.json", {**source, "kind": "crypt"}, crypt),
        "library.json": dump_cards(out_dir / "library.json", {**source, "kind": "library"}, library),
        "texts.json": dump_texts(out_dir / "texts.json",
                                 {**source, "files": [CRYPT_CSV, LIBRARY_CSV, SETS_CSV], "kind": "texts"},
                                 sets_table(bundle.sets), texts),
        "rulings.json": dump_rulings(
            out_dir / "rulings.json",
            {"package": "krcg", "version": version, "kind": "rulings",
             "from": bundle.rulings_from, "files": [Path(m).name for m in RULINGS_YAML],
             "licence": "rulings: the VEKN rules team (Rules Directors and Rules Team), curated "
                        "in krcg (MIT (c) Lionel Panhaleux); each ruling links its sources"},
            rulings),
    }
    counts = {
        "crypt": len(crypt),
        "library": len(library),
        "titled": sum(1 for c in crypt if c.get("title")),
        "with_bonus": sum(1 for c in crypt if any(k.endswith("_bonus") for k in c)),
        "needs": {n: sum(1 for c in library if n in c.get("needs", ()))
                  for n in ("discipline", "level", "x", "target", "amount")},
        "delays_replacement": sum(1 for c in library if c.get("delays_replacement")),
        "trifle": sum(1 for c in library if c.get("trifle")),
        "burn_option": sum(1 for c in library if c.get("burn_option")),
        "rulings": len(rulings["rulings"]),
        "groups": len(rulings["groups"]),
        "references": len(rulings["references"]),
        "cards_with_rulings": len({r["on"] for r in rulings["rulings"] if not r["on"].startswith("G")}),
        "sizes": sizes,
        "version": version,
    }
    (out_dir / "README.md").write_text(readme(version, counts), encoding="utf-8")
    return counts


def summary_line(counts: dict) -> str:
    n = counts["needs"]
    return (f"cards: krcg {counts['version']}: {counts['crypt']} crypt "
            f"({counts['titled']} titled, {counts['with_bonus']} with bonuses), "
            f"{counts['library']} library (needs: " +
            ", ".join(f"{k} {v}" for k, v in n.items()) +
            f"; {counts['delays_replacement']} delay replacement, {counts['trifle']} trifles, "
            f"{counts['burn_option']} burn option); "
            f"{counts['rulings']} rulings ({counts['cards_with_rulings']} cards, "
            f"{counts['groups']} groups, {counts['references']} sources); "
            f"{sum(counts['sizes'].values()) // 1024} KiB")


def readme(version: str, counts: dict) -> str:
    return README_TEMPLATE.format(version=version, crypt=counts["crypt"],
                                  library=counts["library"], rulings=counts["rulings"],
                                  cards_with_rulings=counts["cards_with_rulings"],
                                  groups=counts["groups"], references=counts["references"])


README_TEMPLATE = """\
# Cards and rulings (`content/cards/`)

Every VTES card (crypt and library) with its text, and the official rulings, for the card
pages (`/cards/<id>`), the search and the recorder's declaration checks (does this vampire
have superior Auspex? must this card's player name a target? how many votes does this
prince have?). **Generated — do not edit by hand**: run `judgekit cards update` (or
`python tools/update_cards.py`; the code is `judgekit/cards/update.py` and `derive.py`), review the diff, commit.

## Source and credit

- Source: the VEKN card lists `krcg/cards/vtescrypt.csv`, `vteslib.csv` and `vtessets.csv`,
  and the rulings `krcg/cards/rulings.yaml`, `groups.yaml` and `references.yaml`, packaged in
  the `krcg` wheel, version **{version}**, on PyPI
  (`pip download krcg=={version} --no-deps --python-version 3.12 --only-binary=:all:`). The
  wheel is read as a zip file; krcg is not installed (krcg 5 needs Python 3.12 and judgekit
  needs none of its code).
- krcg is MIT-licensed, © Lionel Panhaleux (https://github.com/lionel-panhaleux/krcg).
- **Card texts** © Paradox Interactive AB; the card lists are published by the Vampire: Elder
  Kindred Network (VEKN, https://www.vekn.net) for community tools. Vampire: The Eternal
  Struggle is a trademark of Paradox Interactive AB. Every page that shows a card text says so.
- **Rulings**: the rules team's (the successive Rules Directors — Thomas R. Wylie, Shawn F.
  Carnes, Jon Wilkie, L. Scott Johnson, Pascal Bertrand, Vincent "Ankha" Ripoll — the Rules
  Team and the rulebook), as curated in krcg. Each ruling keeps its references, and each
  reference its web address (the Rules Director's or the rules team's post); every page
  that shows a ruling links them.
- Flavour text and artists are not kept.

{crypt} crypt cards, {library} library cards; {rulings} rulings on {cards_with_rulings}
cards and {groups} card groups, citing {references} sources.

## Regenerating

```
judgekit cards update                     # downloads krcg=={version} with pip, regenerates
judgekit cards update --wheel PATH.whl    # from a wheel you already have (offline)
judgekit cards update --rulings DIR       # rulings.yaml, groups.yaml, references.yaml from DIR
python tools/update_cards.py --version 5.15   # another krcg release
```

The command prints one summary line (counts). Every input is checked before anything is
written: a missing or malformed file is refused with its name and the line of the problem
(YAML syntax, a key that is not `id|name`, a ruling without a reference, a reference or a
card id that does not exist), and the content in place is kept. Generation uses the
standard library and PyYAML.

## File format

`crypt.json`, `library.json` and `texts.json` are `{{"source": {{...}}, "cards": [...]}}`
with one card per line (small diffs), sorted by VEKN card id. To keep the files small, a
field equal to its default is left out; the defaults are given below. The VEKN card id is
each card's stable id everywhere (`/cards/100518` is Deflection).

### Crypt (`crypt.json`)

| field | meaning | default |
|---|---|---|
| `id` | VEKN card id | — |
| `name` | card name as printed | — |
| `aka` | other spellings / names (list) | `[]` |
| `clan` | clan (for imbued: creed) | — |
| `capacity` | capacity (for imbued: life) | — |
| `group` | grouping, `"1"`…`"7"` or `"ANY"` | — |
| `advanced` | advanced vampire | `false` |
| `disciplines` | `{{"aus": 2, "dom": 1}}`: 1 inferior, 2 superior (imbued: virtues, level 1). Gargoyles whose card says "Flight [FLIGHT]" get `"fli": 1` | `{{}}` |
| `title` | title from the card list, lower case (`prince`, `inner circle`, …, or `1 vote` / `2 votes` for independents with votes) | none |
| `votes` | votes of the title, from `judgekit/game/cards.py:VOTES_BY_TITLE` | `0` |
| `type` | `Imbued` for imbued (vampires have no `type`) | vampire |
| `bleed_bonus`, `stealth_bonus`, `strength_bonus`, `intercept_bonus` | unconditional bonus the card states ("+1 bleed."); see below | `0` |

Votes per title (primer / rulebook): primogen 1, prince 2, justicar 3, Inner Circle 4;
bishop 1, archbishop 2, cardinal 3, regent 4; baron 2; magaji (and kholo) 2; independents
"1 vote"/"2 votes". **Priscus: stored as 3, but the prisci vote as a group**: the prisci
block has 3 votes in all, cast according to the prisci sub-referendum where each ready
priscus has one *ballot*. A player with two prisci does not have 6 votes. Titles gained in
play (cards) and titles of the [MERGED] side of advanced vampires are not included.

**Bonuses.** Only a sentence that is nothing but a bonus counts: "+1 bleed.", "+2
strength.", "-1 stealth." (negative values are kept), also right after the sect/title
prefix ("Camarilla Prince of Buenos Aires: +1 bleed."). Conditional bonuses ("+1 bleed
against a Methuselah who controls…", "can burn 1 blood to get +1 stealth", "while…") and
[MERGED] abilities are *not* counted. Known limits: a bonus written inside a longer
sentence ("… and +1 bleed") is missed; the default bleed is 1, so a vampire with
`bleed_bonus` 1 bleeds for 2 (Catalina Vega).

### Library (`library.json`)

| field | meaning | default |
|---|---|---|
| `id`, `name`, `aka` | as for crypt cards | |
| `types` | card types, e.g. `["Action Modifier", "Reaction"]` | — |
| `requirement` | discipline requirement: `single` (`dom`), `choice` (`vis/tha`: any one of them), `combo` (`pot&pre`: all of them) | `none` |
| `disciplines` | the codes named by the requirement | `[]` |
| `levels` | for each discipline, the levels that have an effect: `{{"dom": ["inferior", "superior"]}}` from the `[dom]`/`[DOM]` markers that start a line of the text; a required discipline with no marker gets `["inferior"]` (any level plays it) | `{{}}` |
| `pool_cost`, `blood_cost`, `conviction_cost` | cost; `"X"` for X | none |
| `burn_option` | has the burn option | `false` |
| `trifle` | is a trifle | `false` |
| `delays_replacement` | text says "Do not replace until/as long as…" (the player draws later; the forbidden shortcut of not replacing does not apply) | `false` |
| `needs` | what the player must declare beyond the card's name (below) | `[]` |
| `bonuses` | the unconditional `bleed` and `stealth` bonus of each discipline-marked line, keyed by its markers as printed (`dom` inferior, `DOM` superior, `aus NEC` a combination; `[dom] or [obl]` gives both keys): Govern the Unaligned `{{"dom": {{"bleed": 2}}, "DOM": {{"stealth": 1}}}}`. A line "As above, with …" adds to the line above; a sentence with a condition or a cost ("if", "can", "burn", "to get", "during" …) is not counted | none |
| `step` | when the card is played, when its text fixes it: `before-range`, `before-strikes`, `strike` (a combat card whose every effect line is a strike), `announce` (as the action is announced), `polling`, `after-blocks-declined`; from the card's unmarked lines only (a clause of one level's line is not the card's timing) | none |

**`needs`** — from the announcement guidelines (a card play must name the discipline and
the level if there is a choice, X, and the targets; Villein-like effects state target and
amount before replacing):

- `discipline` — the requirement is a choice (`vis/tha`, "The Platinum Protocol"), or the
  text has effect lines under different disciplines ("[pot] or [tha] Strike…", an
  `[obe]` line and a `[for]` line). A combo card whose lines all name the same
  disciplines does not need it.
- `level` — some discipline has both an inferior and a superior effect (Govern the
  Unaligned, Eyes of Argus, Deflection).
- `x` — a cost is X.
- `target` — conservative text heuristic, true when the text:
  - says "Choose a/an/any/another/one/two/up to N/X …" where the thing chosen is not a
    Discipline, clan, number, sect, path, title or strike (Seduction: "Choose a younger
    vampire"); or
  - says "Put this card on a/an/any/another …" (Villein: "on a vampire you control"), not
    "on this/the acting vampire"; or
  - says "Change the target of …" (Deflection: the new Methuselah); or
  - is a directed action (Ⓓ) whose effect acts on an object still to be chosen ("Ⓓ
    Burn a location", "Ⓓ Enter combat with a ready minion", "Ⓓ Bleed any Methuselah");
    a plain "Ⓓ Bleed" is *not* a target choice (the target is the prey); or
  - is a political action that allocates points among Methuselahs (Kine Resources
    Contested: the terms name them).

  Known false negatives (target not flagged): effects that pick their object without
  those words ("Add 3 blood to a younger vampire in your uncontrolled region" — superior
  Govern the Unaligned; "Unlock a vampire…"), cancel cards (Direct Intervention: the card
  cancelled is the one just played, so nothing to name). Known false positives: a
  "Choose …"/"Put this card on a …" sentence that belongs to an ability used later by the
  card in play rather than to playing the card; the choice of a referendum's terms.
- `amount` — conservative: the text allocates points ("Allocate 4 points among…"), says
  "Choose a number", or — for cards other than actions, political actions, allies,
  retainers, equipment and events — *moves* a chosen quantity: "move 2 to 5 blood"
  (Villein), "Move any amount of blood" (Minion Tap), "Move up to 3 blood", not inside a
  "can/may/during/when/if/each time/as a" sentence (abilities used later). Amounts chosen
  when an action resolves are not flagged.

Derived flags are heuristics over the text as of krcg {version}: when a check built on them
looks wrong for a card, look the card up, and fix the heuristic in
`judgekit/cards/derive.py` (with a test in `tests/test_cards.py`), not the JSON.

### Texts (`texts.json`)

`"sets"`: set abbreviation -> `{{"name", "date"}}` (release order). Each card:

| field | meaning | default |
|---|---|---|
| `id` | VEKN card id | — |
| `text` | the card text as the card list gives it: lines separated by `\\n`, discipline symbols in brackets (`[dom]` inferior, `[DOM]` superior), `Ⓓ` for a directed action, `[MERGED]`, `[FLIGHT]` | — |
| `sets` | set abbreviations, first printing first | `[]` |
| `clan` | library only: the clan (or creed) required to play it | none |
| `path`, `banned`, `capacity` | path; year the card was banned; library only: the capacity/life it states | none |

### Rulings (`rulings.json`)

```
{{"source": {{...}},
 "references": {{"LSJ 19980302-2": "https://…", …}},
 "groups": [{{"id": "G00106", "name": "Change the target of a bleed",
             "cards": [[100518, ""], [101256, "[DOM]"], …]}}, …],
 "rulings": [{{"on": "100001", "text": "…", "refs": ["LSJ 19980302-2"]}},
             {{"on": "G00106", "text": "…", "refs": […], "reminder": true}},
             {{"on": "G00105", "text": "…", "refs": […], "overrides": {{"100045": {{"text", "refs"}}}}}}, …]}}
```

- `on`: the card id, or the group id for a ruling shared by every card of a group.
- `text`: the ruling without its references; cards named in braces `{{100518|Deflection}}`
  (the pages link them), symbols in brackets as in the card texts.
- `refs`: the ruling's sources, keys of `references` (author and date: LSJ = L. Scott
  Johnson, PIB = Pascal Bertrand, ANK = Vincent "Ankha" Ripoll, RTR = Rules Team Ruling, RBK
  = rulebook, TOM/SFC/JON = the first Rules Directors).
- `reminder`: a ruling that restates a general rule for this card.
- A group's card may carry a prefix (`[DOM]`): the group's rulings are about that effect of
  the card; `overrides` gives a card's own wording of a group ruling.

## Using the facts

```python
from judgekit.game.cards import load_cards, parse_discipline
cards = load_cards()
cards.find("Catalina Vega").bleed_bonus          # 1 (bleeds for 2)
cards.find("Andi Liu").level("aus")              # 1: no superior Auspex
cards.library("Govern the Unaligned").levels     # {{"dom": ("inferior", "superior")}}
cards.find("Theo Bell (ADV)")                    # the advanced version
cards.suggest("Govern the Unalligned")           # ["Govern the Unaligned", ...]
cards.complete("gov")                            # quick-entry completion
parse_discipline("superior Dominate")            # ("dom", 2)
```

`load_cards()` is cached per content folder and reads the JSON lazily (card objects are
built on first use); `cards.warm()` builds the completion/suggestion tables up front
(otherwise the first `complete`/`suggest` call does). Basic strikes such as "hand strike"
are not cards: `find("Hand Strike")` is None.

Names are matched without case, accents or punctuation, with the `aka` list, and with or
without a leading "The". A name shared by several crypt cards gives the most recent
(highest group) non-advanced one unless the query names the version: "(ADV)", "(G2)",
"(G2 ADV)", or a trailing "adv". When a crypt and a library card share a name (none do in
krcg {version}), `find` returns the crypt card.
"""


# -------------------------------------------------------------------------------- main


def run(wheel: Path | None = None, out_dir: Path | None = None,
        version: str = KRCG_VERSION, rulings_dir: Path | None = None) -> dict:
    """Generate content/cards from a wheel (downloaded with pip when not given).

    Everything is written to a folder beside `out_dir` first and moved in only when it is
    complete, so a failure (network, a malformed file) leaves the current content as it was."""
    if out_dir is None:
        out_dir = content_dir() / "cards"
    out_dir = Path(out_dir)
    if wheel is None:
        with tempfile.TemporaryDirectory(prefix="krcg-") as tmp:
            bundle = read_wheel(download_wheel(version, Path(tmp)), rulings_dir)
    else:
        bundle = read_wheel(Path(wheel), rulings_dir)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".cards-new-", dir=out_dir.parent) as staging:
        counts = generate(bundle, Path(staging))
        out_dir.mkdir(parents=True, exist_ok=True)
        for name in OUTPUT_FILES:
            os.replace(Path(staging) / name, out_dir / name)
    try:  # a running process should see the new files
        clear_cache()
        clear_catalog()
    except ImportError:  # pragma: no cover
        pass
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheel", type=Path, help="a krcg wheel already downloaded (no network)")
    parser.add_argument("--version", default=KRCG_VERSION,
                        help=f"krcg version to download (default {KRCG_VERSION})")
    parser.add_argument("--rulings", type=Path,
                        help="a folder with rulings.yaml, groups.yaml and references.yaml to use "
                             "instead of the wheel's (e.g. a newer vtes-rulings checkout)")
    parser.add_argument("--out", type=Path, help="output folder (default content/cards)")
    args = parser.parse_args(argv)
    try:
        counts = run(args.wheel, args.out, args.version, args.rulings)
    except (OSError, RuntimeError, ValueError, zipfile.BadZipFile, KeyError) as exc:
        print(f"update_cards: {exc}", file=sys.stderr)
        return 1
    print(summary_line(counts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
