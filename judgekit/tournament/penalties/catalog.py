"""Infraction catalogs (`content/penalties/*.toml`): load, validate, look up.

A catalog is one edition of the VEKN penalty guide as data: its levels (lightest first),
its escalation ladder, which levels only the head judge issues, and its infractions. The
format is described in `docs/penalties.md`.

Pure: no Flask, no database. Checks return values (`Problem` lists, `Lookup` results);
only `load_catalog`/`load_catalogs` raise (`CatalogError`), because a malformed content
file is a start-up error, and their message names the file and the entry.
"""
from __future__ import annotations

import difflib
import re
import tomllib
import unicodedata
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from judgekit.i18n import Message
from judgekit.paths import content_dir

ESCALATION_STYLES = {
    # v2: the ladder repeats levels (C, C, W, W, SA, SA, DQ); one step per earlier penalty.
    "repeat-ladder": "a repeat moves one step down the ladder per earlier penalty",
    # v1: one level per step (C, W, GL, DQ); the judge may repeat the previous level.
    "step-up": "a repeat moves one level up; the judge may repeat the previous level",
}

_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

_CATALOG_KEYS = {
    "id": str, "name": str, "edition": str, "effective": date, "default": bool,
    "escalation": str, "ladder": list, "head_judge_levels": list,
    "accumulation_note": str, "notes": list,
}
_CATALOG_REQUIRED = ("name", "edition", "escalation", "ladder")
_LEVEL_KEYS = {"name": str, "abbr": str, "description": str, "effect": str}
# What an approved penalty at a level does to the standings (`Level.effect`; none: nothing).
EFFECTS = {
    "vp-1": "minus 1 VP in one game, whose GW and TP are worked out again",
    "remove": "the player leaves the event: not ranked, not seated again",
}
_ENTRY_KEYS = {
    "id": str, "category": str, "infraction": str, "name": str, "aliases": list,
    "default": str, "default_when": str, "remedy": str, "addition": str, "variants": list,
    "escalates": bool, "escalation_note": str, "requires_description": bool,
    "head_judge_only": bool, "floor_judge_may_issue": bool, "note": str,
    "description": str, "rule": str,
}
_ENTRY_REQUIRED = ("id", "category", "infraction", "escalates", "requires_description",
                   "head_judge_only", "description")
_VARIANT_KEYS = {"id": str, "when": str, "penalty": str, "escalates": bool, "note": str}
_VARIANT_REQUIRED = ("id", "when", "penalty")
DESCRIPTION_MAX = 400  # "one or two sentences"


# --- values ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Problem:
    """One thing wrong with a catalog file. `entry` names the table (None: the file)."""
    file: str
    entry: str | None
    message: str

    def __str__(self) -> str:
        where = f"{self.file}: {self.entry}" if self.entry else self.file
        return f"{where}: {self.message}"


class CatalogError(ValueError):
    """Raised by `load_catalog(s)`: every problem found, one per line."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


@dataclass(frozen=True)
class Level:
    name: str
    abbr: str
    description: str = ""
    effect: str | None = None  # a key of EFFECTS, applied once approved; None: no effect


@dataclass(frozen=True)
class Variant:
    """A case of an infraction with its own penalty ("major", "a roll-back does not fix it").

    `escalates` overrides the infraction's flag when set (None: inherit).
    """
    id: str
    when: str
    penalty: str
    escalates: bool | None = None
    note: str = ""


@dataclass(frozen=True)
class Infraction:
    id: str
    category: str
    infraction: str
    name: str                      # display name ("Unsportsmanlike Conduct — Minor")
    default: str | None            # a level name; None when the guide gives only a remedy
    description: str
    escalates: bool
    requires_description: bool
    head_judge_only: bool
    floor_judge_may_issue: bool = False
    default_when: str = ""         # the case the default covers ("minor", "a roll-back fixes it")
    variants: tuple[Variant, ...] = ()
    remedy: str = ""               # what the guide prescribes instead of a penalty
    addition: str = ""             # what comes with the penalty ("+1 minute")
    escalation_note: str = ""
    note: str = ""
    aliases: tuple[str, ...] = ()
    rule: str = ""                 # the tournament rules' section it breaks ("tournament-rules/5.3"), if one

    def variant(self, variant_id: str | None) -> Variant | None:
        """The variant with this id (or `when` text), case-insensitively; None if absent."""
        if not variant_id:
            return None
        key = normalise(variant_id)
        for v in self.variants:
            if normalise(v.id) == key or normalise(v.when) == key:
                return v
        return None

    def options(self) -> list[dict]:
        """What a form offers: the default and each variant, with the case each covers."""
        opts = [{"variant": None, "when": self.default_when or "default",
                 "penalty": self.default, "escalates": self.escalates}]
        for v in self.variants:
            opts.append({"variant": v.id, "when": v.when, "penalty": v.penalty,
                         "escalates": self.escalates if v.escalates is None else v.escalates})
        return opts

    def to_dict(self) -> dict:
        return {
            "id": self.id, "category": self.category, "infraction": self.infraction,
            "name": self.name, "default": self.default, "default_when": self.default_when,
            "variants": [{"id": v.id, "when": v.when, "penalty": v.penalty,
                          "escalates": v.escalates, "note": v.note} for v in self.variants],
            "remedy": self.remedy, "addition": self.addition, "escalates": self.escalates,
            "escalation_note": self.escalation_note,
            "requires_description": self.requires_description,
            "head_judge_only": self.head_judge_only,
            "floor_judge_may_issue": self.floor_judge_may_issue,
            "note": self.note, "aliases": list(self.aliases), "description": self.description,
            "rule": self.rule,
        }


@dataclass(frozen=True)
class Lookup:
    """The answer to `Catalog.lookup`: the infraction, or a message with suggestions
    (`said`, a `Message`; `message` is its English text)."""
    query: str
    infraction: Infraction | None
    suggestions: tuple[str, ...] = ()
    said: Message | None = None

    @property
    def message(self) -> str:
        return self.said.render() if self.said is not None else ""

    def text(self, catalog=None) -> str:
        """The message in `catalog`'s language (a page shows it with `say(lookup)`)."""
        return self.said.render(catalog) if self.said is not None else ""

    @property
    def ok(self) -> bool:
        return self.infraction is not None


@dataclass(frozen=True)
class Catalog:
    id: str
    name: str
    edition: str
    escalation: str
    levels: tuple[Level, ...]
    ladder: tuple[str, ...]
    infractions: tuple[Infraction, ...]
    head_judge_levels: tuple[str, ...] = ()
    effective: date | None = None
    default: bool = False
    accumulation_note: str = ""
    notes: tuple[str, ...] = ()
    source: str = ""
    _index: dict = field(default_factory=dict, compare=False, repr=False)

    # levels ------------------------------------------------------------------------
    def level_names(self) -> list[str]:
        return [lv.name for lv in self.levels]

    def level(self, name: str | None) -> Level | None:
        """A level by name or abbreviation, case-insensitively ("sa", "Standings adjustment")."""
        if not name:
            return None
        key = normalise(name)
        for lv in self.levels:
            if normalise(lv.name) == key or normalise(lv.abbr) == key:
                return lv
        return None

    def rank(self, penalty: str | None) -> int:
        """Position of a level, lightest 0; -1 for an unknown or empty penalty."""
        lv = self.level(penalty)
        return self.levels.index(lv) if lv else -1

    def abbr(self, penalty: str) -> str:
        lv = self.level(penalty)
        return lv.abbr if lv else penalty

    def ladder_text(self) -> str:
        """"v2: C, C, W, W, SA, SA, DQ"."""
        return f"{self.id}: " + ", ".join(self.abbr(step) for step in self.ladder)

    def effect(self, penalty: str | None) -> str | None:
        """What an approved `penalty` does to the standings (`EFFECTS`), or None."""
        lv = self.level(penalty)
        return lv.effect if lv else None

    def is_head_judge_level(self, penalty: str | None) -> bool:
        lv = self.level(penalty)
        return lv is not None and lv.name in self.head_judge_levels

    # infractions -------------------------------------------------------------------
    def get(self, infraction_id: str) -> Infraction | None:
        """An infraction by its exact id."""
        for inf in self.infractions:
            if inf.id == infraction_id:
                return inf
        return None

    def categories(self) -> dict[str, list[Infraction]]:
        """Infractions grouped by category, in file order (for a form's grouped select)."""
        out: dict[str, list[Infraction]] = {}
        for inf in self.infractions:
            out.setdefault(inf.category, []).append(inf)
        return out

    def lookup(self, text: str | None) -> Lookup:
        """Find an infraction by id, name, alias, "Category — Infraction" or (when unique)
        its bare infraction name; case, dashes, `&`/"and" and punctuation do not matter.
        Unknown or ambiguous names give suggestions instead."""
        query = (text or "").strip()
        key = normalise(query)
        if not key:
            return Lookup(query, None, (), Message("penalties.no-infraction", "No infraction given."))
        hits = self._index.get(key, ())
        if len(hits) == 1:
            return Lookup(query, hits[0])
        if len(hits) > 1:
            names = tuple(inf.name for inf in hits)
            return Lookup(query, None, names, Message(
                "penalties.ambiguous-infraction", "'%(query)s' is ambiguous in %(catalog)s: did you mean %(names)s?",
                query=query, catalog=self.id, names=_or(names)))
        names = self.suggest(query)
        if names:
            return Lookup(query, None, names, Message(
                "penalties.unknown-infraction-hint",
                "Unknown infraction '%(query)s' in the %(name)s (%(catalog)s). Did you mean %(names)s?",
                query=query, name=self.name, catalog=self.id, names=_or(names)))
        return Lookup(query, None, names, Message(
            "penalties.unknown-infraction", "Unknown infraction '%(query)s' in the %(name)s (%(catalog)s).",
            query=query, name=self.name, catalog=self.id))

    def suggest(self, text: str, limit: int = 3) -> tuple[str, ...]:
        """Display names close to `text` (typos, partial names)."""
        key = normalise(text)
        if not key:
            return ()
        found: list[Infraction] = []
        for match in difflib.get_close_matches(key, list(self._index), n=limit * 2, cutoff=0.6):
            found.extend(self._index[match])
        words = key.split()
        for k, infs in self._index.items():
            if all(w in k.split() or (len(w) >= 4 and w in k) for w in words):
                found.extend(infs)
        names: list[str] = []
        for inf in found:
            if inf.name not in names:
                names.append(inf.name)
        return tuple(names[:limit])


def normalise(text: str) -> str:
    """Lower-case words only: "Unsportsmanlike Conduct — Minor" and
    "unsportsmanlike-conduct-minor" both give "unsportsmanlike conduct minor"."""
    text = unicodedata.normalize("NFKC", text).casefold().replace("&", " and ")
    return " ".join(re.findall(r"[^\W_]+", text))


def _or(names, commas: bool = True) -> str | Message:
    """`names` as "a, b or c" (`commas`) or as "a or b or c": the " or " is a message, so
    the words around the names are in the reader's language."""
    names = [str(n) for n in names]
    if len(names) <= 1:
        return "".join(names)
    if commas:
        return Message("penalties.or", "%(first)s or %(rest)s", first=", ".join(names[:-1]), rest=names[-1])
    return Message("penalties.or", "%(first)s or %(rest)s", first=names[0], rest=_or(names[1:], commas=False))


# --- parsing and validation -----------------------------------------------------------

def parse_catalog(text: str | bytes, source: str = "<catalog>",
                  stem: str | None = None) -> tuple[Catalog | None, list[Problem]]:
    """Parse and validate one catalog. Returns (catalog or None, problems); the catalog is
    None whenever there is a problem. `stem` (the file name without `.toml`) is the id
    when the file gives none, and must equal it when it does."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            return None, [Problem(source, None, f"not UTF-8: {exc}")]
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return None, [Problem(source, None, f"not valid TOML: {exc}")]
    problems: list[Problem] = []

    def bad(entry, message):
        problems.append(Problem(source, entry, message))

    for key in data:
        if key not in ("catalog", "level", "infraction"):
            bad(None, f"unknown top-level key '{key}' (expected [catalog], [[level]], [[infraction]])")

    meta = data.get("catalog")
    if not isinstance(meta, dict):
        bad("[catalog]", "missing [catalog] table")
        meta = {}
    _check_keys(meta, _CATALOG_KEYS, _CATALOG_REQUIRED, "[catalog]", bad)
    cat_id = meta.get("id", stem) if isinstance(meta.get("id", stem), str) else stem
    if cat_id is None:
        bad("[catalog]", "missing key 'id'")
        cat_id = "?"
    elif stem is not None and cat_id != stem:
        bad("[catalog]", f"id '{cat_id}' does not match the file name '{stem}'")
    if meta.get("escalation") is not None and meta.get("escalation") not in ESCALATION_STYLES:
        bad("[catalog]", f"escalation '{meta.get('escalation')}' is not one of "
                         f"{', '.join(ESCALATION_STYLES)}")

    # levels
    raw_levels = data.get("level")
    levels: list[Level] = []
    if not isinstance(raw_levels, list) or not raw_levels:
        bad("[[level]]", "no levels: a catalog needs [[level]] tables, lightest first")
        raw_levels = []
    seen_levels: set[str] = set()
    for n, raw in enumerate(raw_levels, 1):
        label = f"level #{n}" + (f" ({raw.get('name')})" if isinstance(raw, dict) and
                                 isinstance(raw.get("name"), str) else "")
        if not isinstance(raw, dict):
            bad(label, "must be a table")
            continue
        if not _check_keys(raw, _LEVEL_KEYS, ("name", "abbr"), label, bad):
            continue
        for k in (normalise(raw["name"]), normalise(raw["abbr"])):
            if k in seen_levels:
                bad(label, f"name or abbreviation '{k}' used twice")
            seen_levels.add(k)
        effect = raw.get("effect")
        if effect is not None and effect not in EFFECTS:
            bad(label, f"effect '{effect}' is not one of {', '.join(EFFECTS)} (leave it out for none)")
            effect = None
        levels.append(Level(raw["name"], raw["abbr"], raw.get("description", ""), effect))
    level_names = {normalise(lv.name): lv.name for lv in levels}

    def level_name(value, entry, what):
        if not isinstance(value, str) or normalise(value) not in level_names:
            bad(entry, f"{what} '{value}' is not a level of this catalog "
                       f"({', '.join(lv.name for lv in levels) or 'none defined'})")
            return None
        return level_names[normalise(value)]

    ladder = []
    for step in meta.get("ladder", []) if isinstance(meta.get("ladder"), list) else []:
        name = level_name(step, "[catalog]", "ladder step")
        if name:
            ladder.append(name)
    if ladder and any(levels_index(levels, a) > levels_index(levels, b)
                      for a, b in zip(ladder, ladder[1:])):
        bad("[catalog]", "the ladder must never go down a level")
    hj_levels = []
    for lv in meta.get("head_judge_levels", []) if isinstance(meta.get("head_judge_levels"), list) else []:
        name = level_name(lv, "[catalog]", "head-judge level")
        if name:
            hj_levels.append(name)
    notes = meta.get("notes", [])
    if isinstance(notes, list) and not all(isinstance(x, str) for x in notes):
        bad("[catalog]", "notes must be a list of strings")

    # infractions
    raw_entries = data.get("infraction")
    if not isinstance(raw_entries, list) or not raw_entries:
        bad("[[infraction]]", "no infractions: a catalog needs [[infraction]] tables")
        raw_entries = []
    infractions: list[Infraction] = []
    ids: set[str] = set()
    for n, raw in enumerate(raw_entries, 1):
        ident = raw.get("id") if isinstance(raw, dict) else None
        label = f"infraction #{n}" + (f" ({ident})" if isinstance(ident, str) else "")
        if not isinstance(raw, dict):
            bad(label, "must be a table")
            continue
        before = len(problems)
        if not _check_keys(raw, _ENTRY_KEYS, _ENTRY_REQUIRED, label, bad):
            continue
        if not _SLUG.match(raw["id"]):
            bad(label, f"id '{raw['id']}' must be a lower-case slug (letters, digits, '-')")
        if raw["id"] in ids:
            bad(label, f"id '{raw['id']}' is used twice")
        ids.add(raw["id"])
        for key in ("category", "infraction", "description"):
            if not raw[key].strip():
                bad(label, f"'{key}' is empty")
        if len(raw["description"]) > DESCRIPTION_MAX:
            bad(label, f"description is {len(raw['description'])} characters; "
                       f"keep it to one or two sentences (at most {DESCRIPTION_MAX})")
        default = None
        if "default" in raw:
            default = level_name(raw["default"], label, "default penalty")
        elif not raw.get("remedy"):
            bad(label, "needs a 'default' penalty (or a 'remedy' when the guide gives none)")
        variants = []
        raw_variants = raw.get("variants", [])
        seen_variants: set[str] = set()
        for m, rv in enumerate(raw_variants, 1):
            vlabel = f"{label} variant #{m}"
            if not isinstance(rv, dict):
                bad(vlabel, "must be a table {id, when, penalty}")
                continue
            if not _check_keys(rv, _VARIANT_KEYS, _VARIANT_REQUIRED, vlabel, bad):
                continue
            if rv["id"] in seen_variants:
                bad(vlabel, f"variant id '{rv['id']}' is used twice")
            seen_variants.add(rv["id"])
            vpen = level_name(rv["penalty"], vlabel, "penalty")
            if vpen:
                variants.append(Variant(rv["id"], rv["when"], vpen, rv.get("escalates"),
                                        rv.get("note", "")))
        aliases = raw.get("aliases", [])
        if not all(isinstance(a, str) and a.strip() for a in aliases):
            bad(label, "aliases must be a list of non-empty strings")
            aliases = []
        # consistency rules
        if raw["escalates"] and default and ladder and default not in ladder:
            bad(label, f"escalates, but its default '{default}' is not on the ladder")
        if default and default in hj_levels and not raw["requires_description"]:
            bad(label, f"a {default} needs a description: set requires_description = true")
        expect_hj = bool(default in hj_levels and not raw.get("floor_judge_may_issue", False))
        if raw["head_judge_only"] != expect_hj:
            bad(label, f"head_judge_only should be {str(expect_hj).lower()} (default "
                       f"'{default}', floor_judge_may_issue = "
                       f"{str(raw.get('floor_judge_may_issue', False)).lower()})")
        if len(problems) > before:
            continue
        infractions.append(Infraction(
            id=raw["id"], category=raw["category"], infraction=raw["infraction"],
            name=raw.get("name", raw["infraction"]), default=default,
            description=raw["description"].strip(), escalates=raw["escalates"],
            requires_description=raw["requires_description"],
            head_judge_only=raw["head_judge_only"],
            floor_judge_may_issue=raw.get("floor_judge_may_issue", False),
            default_when=raw.get("default_when", ""), variants=tuple(variants),
            remedy=raw.get("remedy", ""), addition=raw.get("addition", ""),
            escalation_note=raw.get("escalation_note", ""), note=raw.get("note", ""),
            aliases=tuple(aliases), rule=raw.get("rule", ""),
        ))

    index = _build_index(infractions, source, problems)
    if problems:
        return None, problems
    catalog = Catalog(
        id=cat_id, name=meta["name"], edition=meta["edition"], escalation=meta["escalation"],
        levels=tuple(levels), ladder=tuple(ladder), infractions=tuple(infractions),
        head_judge_levels=tuple(hj_levels), effective=meta.get("effective"),
        default=meta.get("default", False), accumulation_note=meta.get("accumulation_note", ""),
        notes=tuple(notes), source=source, _index=index,
    )
    return catalog, []


def levels_index(levels: list[Level], name: str) -> int:
    for i, lv in enumerate(levels):
        if lv.name == name:
            return i
    return -1


def _check_keys(raw: dict, spec: dict, required, label, bad) -> bool:
    """Unknown keys, missing keys and wrong types. False when the table is unusable."""
    ok = True
    for key in raw:
        if key not in spec:
            bad(label, f"unknown key '{key}' (known: {', '.join(spec)})")
    for key in required:
        if key not in raw:
            bad(label, f"missing key '{key}'")
            ok = False
    for key, typ in spec.items():
        if key in raw and not isinstance(raw[key], typ):
            bad(label, f"'{key}' must be a {typ.__name__}, not {type(raw[key]).__name__}")
            ok = False
    return ok


def _build_index(infractions: list[Infraction], source: str, problems: list[Problem]) -> dict:
    """normalised key -> infractions. Ids, names, aliases and "category infraction" must be
    unique; a bare infraction name shared by several entries ("Minor") is ambiguous."""
    strong: dict[str, Infraction] = {}
    for inf in infractions:
        keys = {normalise(inf.id), normalise(inf.name), normalise(f"{inf.category} {inf.infraction}")}
        keys.update(normalise(a) for a in inf.aliases)
        for k in keys:
            other = strong.get(k)
            if other is not None and other.id != inf.id:
                problems.append(Problem(source, f"infraction ({inf.id})",
                                        f"name '{k}' is also used by '{other.id}'"))
            strong[k] = inf
    index: dict[str, tuple[Infraction, ...]] = {k: (v,) for k, v in strong.items()}
    weak: dict[str, list[Infraction]] = {}
    for inf in infractions:
        k = normalise(inf.infraction)
        if k not in strong or strong[k].id != inf.id:
            weak.setdefault(k, []).append(inf)
    for k, infs in weak.items():
        if k in strong:
            continue
        index[k] = tuple(infs)
    return index


# --- files ----------------------------------------------------------------------------

def catalogs_dir() -> Path:
    """`content/penalties/` (honours `$JUDGEKIT_CONTENT`)."""
    return content_dir() / "penalties"


def check_catalog(path: str | Path) -> list[Problem]:
    """Problems in one catalog file (empty: fine)."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        return [Problem(str(path), None, f"cannot read: {exc.strerror or exc}")]
    return parse_catalog(data, str(path), path.stem)[1]


def load_catalog(path: str | Path) -> Catalog:
    """Load one catalog file; raises `CatalogError` naming the file and each bad entry."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CatalogError([Problem(str(path), None, f"cannot read: {exc.strerror or exc}")])
    catalog, problems = parse_catalog(data, str(path), path.stem)
    if problems:
        raise CatalogError(problems)
    return catalog


def load_catalogs(directory: str | Path | None = None) -> dict[str, Catalog]:
    """Every `*.toml` catalog in the directory (default `content/penalties/`), by id.
    Exactly one must say `default = true`. Raises `CatalogError` with all problems."""
    directory = Path(directory) if directory is not None else catalogs_dir()
    catalogs: dict[str, Catalog] = {}
    problems: list[Problem] = []
    for path in sorted(directory.glob("*.toml")):
        catalog, found = parse_catalog(path.read_bytes(), str(path), path.stem)
        problems.extend(found)
        if catalog is not None:
            catalogs[catalog.id] = catalog
    if not problems:
        defaults = [c.id for c in catalogs.values() if c.default]
        if len(defaults) != 1:
            problems.append(Problem(str(directory), None,
                                    f"exactly one catalog must have default = true "
                                    f"(found {len(defaults)}: {', '.join(defaults) or 'none'})"))
    if problems:
        raise CatalogError(problems)
    return catalogs


def default_catalog(catalogs: dict[str, Catalog]) -> Catalog:
    """The catalog marked `default = true` (v2 in the shipped content)."""
    for catalog in catalogs.values():
        if catalog.default:
            return catalog
    raise LookupError("no default catalog")
