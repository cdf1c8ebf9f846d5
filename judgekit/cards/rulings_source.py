"""Read the rules team's rulings as krcg packages them into judgekit's `rulings.json`.

krcg (MIT, © Lionel Panhaleux) ships three YAML files next to the VEKN card lists:

- `rulings.yaml`: `"<card id>|<name>"` or `"G<nnnnn>|<group name>"` -> a list of rulings.
  A ruling is a string ending with one or more references in brackets (`[LSJ 19980302-2]`),
  optionally followed by `[REMINDER]` (a ruling that restates a general rule); or a map
  `{text, overrides}` where `overrides` gives the wording for some member cards of a group.
  A ruling may name cards in braces (`{100518|Deflection}`) and show symbols in brackets
  (`[dom]`, `[DOM]`, `[ACTION]`, `[FLIGHT]`, `[1 CONVICTION]`).
- `groups.yaml`: `"G<nnnnn>|<name>"` -> `{"<card id>|<name>": "<prefix>"}`; the prefix (often
  empty, else a symbol such as `[DOM]`) says which effect of the card the group's rulings are
  about.
- `references.yaml`: `"<author> <date>[-n]"` -> the URL of the post the ruling comes from.

`convert()` checks every part (a malformed file is refused with the file and line of the
problem) and returns the JSON-ready `rulings.json` data. Used by `judgekit.cards.update`
(`judgekit cards update`) only; needs PyYAML. Pure Python, no Flask.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

#: The rulings' authorities (krcg's list): the successive Rules Directors, the rules team and
#: the rulebook.
AUTHORS = {
    "TOM": "Thomas R. Wylie", "SFC": "Shawn F. Carnes", "JON": "Jon Wilkie",
    "LSJ": "L. Scott Johnson", "PIB": "Pascal Bertrand", "ANK": "Vincent “Ankha” Ripoll",
    "RTR": "Rules Team Ruling", "RBK": "Rulebook",
}

REFERENCE = re.compile(r"\[(" + "|".join(AUTHORS) + r")\s+([\w-]+)\]")
REMINDER = re.compile(r"\s*\[REMINDER\]\s*$", re.I)
CARD_LINK = re.compile(r"\{([^{}|]*)\|([^{}]*)\}")
KEY = re.compile(r"^(G?\d+)\|(.+)$", re.S)


class RulingsError(ValueError):
    """A rulings file that cannot be used: says which file, which line, what is wrong."""

    def __init__(self, file: str, line: int | None, message: str):
        self.file, self.line, self.message = file, line, message
        where = f"{file}, line {line}" if line else file
        super().__init__(f"{where}: {message}")


@dataclass
class Source:
    """One YAML file: where it comes from (for messages) and its text."""
    name: str
    text: str


def _compose(source: Source):
    """The YAML node tree of a file (nodes keep their line numbers)."""
    import yaml

    try:
        node = yaml.compose(source.text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = " ".join(str(p) for p in (exc.context, exc.problem) if p)
        raise RulingsError(source.name, mark.line + 1 if mark else None,
                           f"not valid YAML ({problem})") from None
    except yaml.YAMLError as exc:
        raise RulingsError(source.name, None, f"not valid YAML ({exc})") from None
    if node is None:
        raise RulingsError(source.name, 1, "the file is empty")
    return node


def _line(node) -> int:
    return node.start_mark.line + 1


def _mapping(node, source: Source, what: str):
    import yaml
    if not isinstance(node, yaml.MappingNode):
        raise RulingsError(source.name, _line(node), f"expected {what} (a mapping)")
    return node.value


def _scalar(node, source: Source, what: str) -> str:
    import yaml
    if not isinstance(node, yaml.ScalarNode):
        raise RulingsError(source.name, _line(node), f"expected {what} (a text)")
    return node.value


def _key(node, source: Source, group: bool | None) -> tuple[str, str]:
    """("100518", "Deflection") from "100518|Deflection"; group: True wants "G…", False a
    card id, None either."""
    text = _scalar(node, source, "a key “id|name”")
    m = KEY.match(text.strip())
    if not m or (group is True and not m.group(1).startswith("G")) \
            or (group is False and m.group(1).startswith("G")):
        want = {True: "“G<number>|group name”", False: "“card id|card name”",
                None: "“card id|card name” or “G<number>|group name”"}[group]
        raise RulingsError(source.name, _line(node), f"key {text[:80]!r} is not {want}")
    return m.group(1), " ".join(m.group(2).split())


def parse_references(source: Source) -> dict[str, str]:
    """label ("LSJ 19980302-2") -> URL."""
    out: dict[str, str] = {}
    for k, v in _mapping(_compose(source), source, "reference labels and their URLs"):
        label = " ".join(_scalar(k, source, "a reference label").split())
        url = _scalar(v, source, f"the URL of {label}").strip()
        if not REFERENCE.fullmatch(f"[{label}]"):
            raise RulingsError(source.name, _line(k), f"{label!r} is not “<author> <date>” "
                               f"with an author among {', '.join(AUTHORS)}")
        if not url.startswith(("https://", "http://")):
            raise RulingsError(source.name, _line(v), f"the reference {label} has no web address")
        out[label] = url
    return out


def parse_groups(source: Source, card_ids: set[int]) -> list[dict]:
    """[{"id": "G00106", "name": …, "cards": [[100518, ""], [101256, "[DOM]"]]}], file order."""
    out = []
    for k, v in _mapping(_compose(source), source, "card groups"):
        gid, name = _key(k, source, group=True)
        members = []
        for mk, mv in _mapping(v, source, f"the cards of group {gid}"):
            cid, _ = _key(mk, source, group=False)
            if int(cid) not in card_ids:
                raise RulingsError(source.name, _line(mk), f"group {gid}: no card has the id {cid}")
            members.append([int(cid), " ".join(_scalar(mv, source, "a symbol prefix").split())])
        out.append({"id": gid, "name": name, "cards": members})
    return out


def _ruling_text(raw: str, node, source: Source, card_ids: set[int],
                 references: dict[str, str], inherited: list[str] | None) -> dict:
    """{"text", "refs"[, "reminder"]} of one ruling's text; references taken out of the text."""
    text, n_reminder = REMINDER.subn("", raw)
    refs = []
    for m in REFERENCE.finditer(text):
        label = f"{m.group(1)} {m.group(2)}"
        if label not in references:
            raise RulingsError(source.name, _line(node),
                               f"the reference [{label}] is not listed in references.yaml")
        if label not in refs:
            refs.append(label)
    text = " ".join(REFERENCE.sub(" ", text).split())
    if not refs:
        if inherited is None:
            raise RulingsError(source.name, _line(node),
                               f"a ruling without a reference: {text[:60]!r}…")
        refs = list(inherited)
    for m in CARD_LINK.finditer(text):
        if not m.group(1).isdigit() or int(m.group(1)) not in card_ids:
            raise RulingsError(source.name, _line(node),
                               f"{{{m.group(1)}|{m.group(2)}}}: no card has the id {m.group(1)!r}")
    # a stray brace is left as text (krcg 5.14 has one: "… is used}).")
    if not text:
        raise RulingsError(source.name, _line(node), "a ruling with no text")
    out: dict = {"text": text, "refs": refs}
    if n_reminder:
        out["reminder"] = True
    return out


def parse_rulings(source: Source, card_ids: set[int], groups: dict[str, dict],
                  references: dict[str, str]) -> list[dict]:
    """Every ruling in file order: {"on": "100518" | "G00106", "text", "refs"[, "reminder"]
    [, "overrides": {"<card id>": {"text", "refs"}}]}."""
    import yaml

    out = []
    for k, v in _mapping(_compose(source), source, "cards and their rulings"):
        on, _ = _key(k, source, group=None)
        if on.startswith("G"):
            if on not in groups:
                raise RulingsError(source.name, _line(k), f"{on} is not a group of groups.yaml")
        elif int(on) not in card_ids:
            raise RulingsError(source.name, _line(k), f"no card has the id {on}")
        if not isinstance(v, yaml.SequenceNode):
            raise RulingsError(source.name, _line(v), f"the rulings of {on} must be a list")
        for item in v.value:
            if isinstance(item, yaml.ScalarNode):
                ruling = _ruling_text(item.value, item, source, card_ids, references, None)
            elif isinstance(item, yaml.MappingNode):
                fields = {_scalar(fk, source, "a field name"): fv for fk, fv in item.value}
                if "text" not in fields or set(fields) - {"text", "overrides"}:
                    raise RulingsError(source.name, _line(item),
                                       "a ruling given as a map has “text” and “overrides” only")
                ruling = _ruling_text(_scalar(fields["text"], source, "the ruling's text"),
                                      fields["text"], source, card_ids, references, None)
                if "overrides" in fields:
                    if not on.startswith("G"):
                        raise RulingsError(source.name, _line(item),
                                           "only a group's ruling can give per-card wordings")
                    members = {str(c) for c, _ in groups[on]["cards"]}
                    over = {}
                    for ok, ov in _mapping(fields["overrides"], source, "per-card wordings"):
                        cid, _ = _key(ok, source, group=False)
                        if cid not in members:
                            raise RulingsError(source.name, _line(ok),
                                               f"card {cid} is not in group {on}")
                        over[cid] = _ruling_text(_scalar(ov, source, "a card's wording"), ov, source,
                                                 card_ids, references, ruling["refs"])
                    ruling["overrides"] = over
            else:
                raise RulingsError(source.name, _line(item), "a ruling must be a text or a map")
            out.append({"on": on, **ruling})
    return out


def convert(rulings: Source, groups: Source, references: Source, card_ids: set[int]) -> dict:
    """The content of `rulings.json` (without its "source" part), checked."""
    refs = parse_references(references)
    group_list = parse_groups(groups, card_ids)
    by_id = {g["id"]: g for g in group_list}
    ruling_list = parse_rulings(rulings, card_ids, by_id, refs)
    used = {r for ruling in ruling_list for r in ruling["refs"]} | {
        r for ruling in ruling_list for o in ruling.get("overrides", {}).values() for r in o["refs"]}
    return {
        # only the references some ruling cites, sorted (small, stable diffs)
        "references": {label: refs[label] for label in sorted(used)},
        "groups": group_list,
        "rulings": ruling_list,
    }
