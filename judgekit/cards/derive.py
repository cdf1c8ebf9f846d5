"""The facts the recorder checks, derived from the VEKN card lists' columns and card text
(`judgekit cards update`, `judgekit.cards.update`): a crypt card's disciplines and its
unconditional bonuses, a library card's disciplines per effect, the bonuses each level
gives, the step it is played at, and what its player must declare (a target, an amount).
The heuristics are conservative and explained in `content/cards/README.md`. Pure: rows
of the CSV in, dicts out.
"""
from __future__ import annotations

import re

from judgekit.game.cards import DISCIPLINES, title_votes


# ------------------------------------------------------------------------- crypt facts

_BONUS = re.compile(r"^([+-]\d+) (bleed|stealth|strength|intercept)\.?$")


def crypt_bonuses(text: str) -> dict[str, int]:
    """Unconditional bonuses a crypt card states: a sentence that is nothing but "+1
    bleed" (or stealth/strength/intercept), possibly after the sect/title prefix
    ("Camarilla Prince of Buenos Aires: +1 bleed."). Conditional ones ("+1 bleed against
    ...", "can burn 1 blood to get +1 stealth") and [MERGED] text are ignored."""
    text = text.split("[MERGED]", 1)[0]
    out: dict[str, int] = {}
    for segment in re.split(r"(?<=[.:])\s+|\n", text):
        m = _BONUS.match(segment.strip())
        if m:
            key = f"{m.group(2)}_bonus"
            out[key] = out.get(key, 0) + int(m.group(1))
    return {k: v for k, v in out.items() if v}


def crypt_disciplines(column: str, text: str) -> dict[str, int]:
    """{"aus": 2, "for": 1} from "for AUS" (upper case = superior); gargoyles stating
    "Flight [FLIGHT]" (outside [MERGED] text) get {"fli": 1}."""
    out: dict[str, int] = {}
    for token in column.split():
        code = token.lower()
        if code in DISCIPLINES:
            out[code] = 2 if token.isupper() else 1
    if "Flight [FLIGHT]" in text.split("[MERGED]", 1)[0]:
        out.setdefault("fli", 1)
    return dict(sorted(out.items()))


def to_int(value: str) -> int | str | None:
    value = (value or "").strip()
    if not value:
        return None
    if value.upper() == "X":
        return "X"
    try:
        return int(value)
    except ValueError:
        return value


def crypt_facts(row: dict) -> dict:
    """The stored facts of one crypt CSV row (defaults omitted: no aka, not advanced,
    no title, 0 votes, 0 bonuses)."""
    text = row.get("Card Text", "")
    title = (row.get("Title") or "").strip().lower() or None
    capacity = to_int(row.get("Capacity", ""))
    d: dict = {"id": int(row["Id"]), "name": row["Name"].strip()}
    aka = [a.strip() for a in (row.get("Aka") or "").split(";") if a.strip()]
    if aka:
        d["aka"] = aka
    d["clan"] = (row.get("Clan") or "").strip()
    d["capacity"] = capacity if isinstance(capacity, int) else None
    d["group"] = (row.get("Group") or "").strip().upper()
    if (row.get("Adv") or "").strip():
        d["advanced"] = True
    d["disciplines"] = crypt_disciplines(row.get("Disciplines", ""), text)
    if title:
        d["title"] = title
        votes = title_votes(title)
        if votes:
            d["votes"] = votes
    if (row.get("Type") or "Vampire").strip() != "Vampire":
        d["type"] = row["Type"].strip()
    d.update(crypt_bonuses(text))
    return d


# ----------------------------------------------------------------------- library facts

_MARKER_RUN = re.compile(r"^\s*((?:\[[^\]\n]+\]\s*(?:or\s+|&\s*)?)+)")


def effect_markers(text: str) -> list[list[tuple[str, str]]]:
    """For each line of text that starts with discipline markers, the groups of
    (code, level) it names: "[pot] or [tha] Strike" -> [[("pot", "inferior")], [("tha",
    "inferior")]]; "[AUS][PRE] ..." -> [[("aus", "superior"), ("pre", "superior")]].
    Markers inside a sentence ("cards requiring Dominate [dom]") are references, not effects.
    """
    lines = []
    for line in text.splitlines():
        m = _MARKER_RUN.match(line)
        if not m:
            continue
        groups: list[list[tuple[str, str]]] = [[]]
        for tok in re.finditer(r"\[([^\]\n]+)\]|\bor\b", m.group(1)):
            raw = tok.group(1)
            if raw is None:  # "or": the next markers are an alternative
                groups.append([])
            elif raw.strip().upper() == "FLIGHT":
                groups[-1].append(("fli", "inferior"))
            elif raw.strip().lower() in DISCIPLINES:
                raw = raw.strip()
                groups[-1].append((raw.lower(), "superior" if raw.isupper() else "inferior"))
        groups = [g for g in groups if g]
        if groups:
            lines.append(groups)
    return lines


# --- numbers and timing a judge checks against an announcement (see the README)

_LINE_BONUS = re.compile(r"(?<![\w/])([+-]\d+) (bleed|stealth)\b")
# a sentence that only grants the bonus under a condition or as a later ability
_CONDITIONAL = re.compile(r"\b(?:can|may|if|when|each time|for each|during|until|while|"
                          r"instead|burn|lock this|to get)\b", re.I)


def effect_bonuses(text: str) -> dict[str, dict[str, int]]:
    """The unconditional bleed and stealth bonuses of each discipline-marked line:
    "[dom] Ⓓ Bleed with +2 bleed." -> {"dom": {"bleed": 2}}; "[DOM] +1 stealth action."
    -> {"DOM": {"stealth": 1}}; "[DOM] As above, with +1 stealth." takes the line above's
    bonuses and adds its own. The key is the line's markers as printed, lower case for
    inferior and upper case for superior ("dom", "DOM", "aus DOM")."""
    out: dict[str, dict[str, int]] = {}
    previous: dict[str, int] = {}
    for line in text.splitlines():
        m = _MARKER_RUN.match(line)
        if not m:
            continue
        keys = []   # "[dom] or [obl]": two alternatives, each gets the line's bonuses
        for alternative in re.split(r"\bor\b", m.group(1)):
            codes = [t.strip() for t in re.findall(r"\[([^\]\n]+)\]", alternative)]
            codes = [c if c.lower() in DISCIPLINES else "fli" if c.upper() == "FLIGHT" else ""
                     for c in codes]
            if all(codes) and codes:
                keys.append(" ".join(codes))
        body = line[m.end():]
        found = dict(previous) if re.match(r"\s*As above\b", body) else {}
        for sentence in re.split(r"(?<=[.;])\s+", body):
            if _CONDITIONAL.search(sentence):
                continue
            for bm in _LINE_BONUS.finditer(sentence):
                found[bm.group(2)] = int(bm.group(1))
        previous = found
        for key in keys if found else ():
            out[key] = found
    return out


# (pattern of an "Only usable ..." clause, step); the first that matches gives the step
_STEPS = (
    (re.compile(r"Only usable (?:[^.]*?\b)?before range is (?:determined|chosen)"), "before-range"),
    (re.compile(r"Only usable (?:[^.]*?\b)?before strikes are chosen"), "before-strikes"),
    (re.compile(r"Only usable (?:as|when) the action is announced"), "announce"),
    (re.compile(r"Only usable during the polling step"), "polling"),
    (re.compile(r"Only usable [^.]*?after blocks are declined"), "after-blocks-declined"),
)
_STRIKE_LINE = re.compile(r"^\s*(?:\[[^\]\n]+\]\s*(?:or\s+|&\s*)?)*(?:Strike|Additional strike)\b")


def play_step(text: str, types: tuple[str, ...]) -> str | None:
    """When in an action or a combat the card is played, if its text fixes it: one of
    before-range, before-strikes, strike (a combat card whose every effect line is a
    strike), announce (as the action is announced), polling, after-blocks-declined."""
    preamble = "\n".join(ln for ln in text.splitlines() if not _MARKER_RUN.match(ln))
    for pattern, step in _STEPS:   # a clause of one level's line is not the card's timing
        if pattern.search(preamble):
            return step
    if "Combat" in types:
        effect_lines = [ln for ln in text.splitlines() if _MARKER_RUN.match(ln)]
        if effect_lines and all(_STRIKE_LINE.match(ln) or re.match(r"^\s*(?:\[[^\]]+\]\s*)+As above", ln)
                                for ln in effect_lines):
            return "strike"
    return None


# --- heuristics for what a player must declare (kept conservative; see the README)

_OBJECT = r"(?:a|an|any|another|one|two|three|up to \w+|x|\d+)\b"
_NOT_TARGETS = re.compile(
    r"^(?:\S+\s+){0,3}?(?:discipline|disciplines|clan|clans|number|circle|sect|path|title|"
    r"strike|political action|card type|type|word|color|virtue|trait|new one|new seating)\b", re.I)
_CHOOSE = re.compile(r"(?:^|[.;:]\s+|\n|\]\s*|\band\s+)[Cc]hoose\s+(" + _OBJECT + r"[^.;\n]*)")
_PUT_ON = re.compile(r"\bPut this card on (?:" + _OBJECT + r")", re.I)
_RETARGET = re.compile(r"\b[Cc]hange the target of\b")
# a directed action whose effect starts with a verb acting on an object to be chosen
_DIRECTED = re.compile(
    r"Ⓓ\s*(?:(?:Enter combat with|Burn|Steal|Lock|Unlock|Take control of|"
    r"Diablerize|Remove|Stun|Send|Move|Give|Look at|Inflict [^.;\n]*? on|Put \d+ [\w-]+ counters? on|"
    r"Burn \d+ (?:blood|pool|life) from)\s+" + _OBJECT + r"|Bleed (?:any|another|a|your predator or)\b|"
    r"Choose\b)", re.I)
_ALLOCATE = re.compile(r"\b[Aa]llocate \d+ \w+ (?:among|between)\b")
_CHOOSE_NUMBER = re.compile(r"(?:^|[.;:]\s+|\n|\]\s*)Choose a number\b")
_MOVE_AMOUNT = re.compile(
    r"(?:^|[.;:]\s+|\n|\]\s*|\band\s+)[Mm]ove (?:\d+ to \d+|any amount of|any number of|up to \d+)\s+"
    r"(?:of (?:those |your )?)?(?:blood|pool|life|counters?|blood counters?)\b")
_DELAY = re.compile(r"\bDo not replace (?:this card |these cards )?(?:until|as long as)\b", re.I)
_TRIFLE = re.compile(r"(?:^|\n|\.\s)Trifle\.")


def needs_target(text: str, types: tuple[str, ...]) -> bool:
    """Whether the card's text makes its player choose a target as it is played (see README)."""
    for m in _CHOOSE.finditer(text):
        obj = re.sub(r"^" + _OBJECT + r"\s*", "", m.group(1), flags=re.I)
        if not _NOT_TARGETS.match(obj):
            return True
    if _PUT_ON.search(text) or _RETARGET.search(text) or _DIRECTED.search(text):
        return True
    if "Political Action" in types and _ALLOCATE.search(text):
        return True
    return False


def needs_amount(text: str, types: tuple[str, ...]) -> bool:
    """Villein-like: the player picks how much as the card is played (see README)."""
    if _ALLOCATE.search(text) or _CHOOSE_NUMBER.search(text):
        return True
    if set(types) & {"Action", "Political Action", "Ally", "Retainer", "Equipment", "Event"}:
        return False  # chosen when the action resolves, or by a card in play later
    for m in _MOVE_AMOUNT.finditer(text):
        sentence_start = max(text.rfind(".", 0, m.start()), text.rfind("\n", 0, m.start())) + 1
        before = text[sentence_start:m.start()]
        if not re.search(r"\b(?:can|may|During|When|If|Each time|As a)\b", before):
            return True
    return False


def requirement_of(column: str) -> tuple[str, tuple[str, ...]]:
    column = (column or "").strip().lower()
    if not column:
        return "none", ()
    if "/" in column:
        kind, parts = "choice", column.split("/")
    elif "&" in column:
        kind, parts = "combo", column.split("&")
    else:
        kind, parts = "single", [column]
    codes = tuple(p.strip() for p in parts if p.strip())
    return kind, codes


def library_facts(row: dict) -> dict:
    """The stored facts of one library CSV row (defaults omitted: no aka, requirement
    "none", no levels, no costs, false flags, no needs)."""
    text = (row.get("Card Text") or "").replace("\r\n", "\n")
    types = tuple(t.strip() for t in (row.get("Type") or "").split("/") if t.strip())
    requirement, codes = requirement_of(row.get("Discipline", ""))
    markers = effect_markers(text)
    levels: dict[str, set[str]] = {}
    groups: set[frozenset[str]] = set()
    for line in markers:
        for group in line:
            groups.add(frozenset(code for code, _ in group))
            for code, level in group:
                levels.setdefault(code, set()).add(level)
    for code in codes:  # a required discipline with no marked effect: any level will do
        levels.setdefault(code, {"inferior"})
    costs = {k: to_int(row.get(col, "")) for k, col in
             (("pool_cost", "Pool Cost"), ("blood_cost", "Blood Cost"),
              ("conviction_cost", "Conviction Cost"))}
    needs = []
    if requirement == "choice" or len(groups) > 1:
        needs.append("discipline")
    if any(len(v) > 1 for v in levels.values()):
        needs.append("level")
    if "X" in costs.values():
        needs.append("x")
    if needs_target(text, types):
        needs.append("target")
    if needs_amount(text, types):
        needs.append("amount")

    d: dict = {"id": int(row["Id"]), "name": row["Name"].strip()}
    aka = [a.strip() for a in (row.get("Aka") or "").split(";") if a.strip()]
    if aka:
        d["aka"] = aka
    d["types"] = list(types)
    if requirement != "none":
        d["requirement"] = requirement
        d["disciplines"] = list(codes)
    if levels:
        d["levels"] = {k: [lv for lv in ("inferior", "superior") if lv in v]
                       for k, v in sorted(levels.items())}
    for k, v in costs.items():
        if v is not None:
            d[k] = v
    if (row.get("Burn Option") or "").strip().lower() in ("y", "yes"):
        d["burn_option"] = True
    if _TRIFLE.search(text):
        d["trifle"] = True
    if _DELAY.search(text):
        d["delays_replacement"] = True
    if needs:
        d["needs"] = needs
    bonuses = effect_bonuses(text)
    if bonuses:
        d["bonuses"] = bonuses
    step = play_step(text, types)
    if step:
        d["step"] = step
    return d
